"""Shared helpers for the Mansion engine tests.

`build_state` lays a table out by hand (chosen hands, solution, markers, Action cards) so
rule tests are exact rather than random; `random_action` drives the property tests through
the engine's own `legal` queries.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Literal, TypedDict

from engine.mansion import legal
from engine.mansion.actions import Accuse, Action, ShowCard
from engine.mansion.cards import ACTION_DECK, CLUES, DESTINATIONS
from engine.mansion.events import Event
from engine.mansion.prompts import PlayPrompt, ShowPrompt
from engine.mansion.records import Dealt, Drew, Triple, TurnBegan
from engine.mansion.rules import apply, new_game
from engine.mansion.state import GameState, Options, PlayerRef, Seat, Variant
from testkit.rules import play_in_turn, reads_well, refusal

NAMES = ("Ann", "Bea", "Cid", "Dee", "Eve")
"""Display names that cannot be mistaken for a card id."""

SOLUTION = Triple(suspect="scarlet", vehicle="balloon", destination="niagara_falls")


class Named(TypedDict):
    """A Suspect, a Vehicle and a Destination as the keywords of Accuse or ChooseSolution."""

    suspect: str
    vehicle: str
    destination: str


HANDS: dict[int, list[str]] = {
    0: ["mustard", "seaplane", "coney_island", "golden_gate", "miami_beach"],
    1: ["white", "limousine", "mt_rushmore", "hoover_dam", "plum"],
    2: ["green", "airliner", "old_faithful", "alamo"],
    3: ["peacock", "automobile", "train", "lincoln_memorial"],
}
"""A 4-player table's Clue cards laid out by hand (the rest of SOLUTION's 21 cards)."""
CERTAIN_HANDS: dict[int, list[str]] = {
    0: [
        "mustard", "green", "peacock", "plum", "seaplane", "limousine", "airliner",
        "automobile", "train", "coney_island", "mt_rushmore", "old_faithful",
        "golden_gate", "hoover_dam", "alamo", "lincoln_memorial", "miami_beach",
    ],
    1: ["white"],
    2: [],
}  # fmt: skip
"""Ann (3 players) holds every Clue card but the solution's and one suspect Bea holds: once
Bea shows it, the solution is certain."""
RIGHT: Named = {"suspect": "scarlet", "vehicle": "balloon", "destination": "niagara_falls"}
"""SOLUTION, as keywords."""
WRONG: Named = {"suspect": "plum", "vehicle": "balloon", "destination": "niagara_falls"}


def refs(n: int) -> list[PlayerRef]:
    return [PlayerRef(id=f"u{i}", name=NAMES[i]) for i in range(n)]


def fresh_game(
    players: int = 3,
    variant: Variant = "standard",
    seed: int = 1,
    series_wins: Literal[1, 2, 3] = 1,
    fugitive: int | None = None,
) -> tuple[GameState, list[Event]]:
    options = Options(
        players=players,
        variant=variant,
        series_wins=series_wins,
        fugitive=fugitive,
    )
    return new_game(refs(players), options, seed)


def build_state(
    players: int = 3,
    *,
    hands: dict[int, list[str]] | None = None,
    solution: Triple = SOLUTION,
    markers: list[str] | None = None,
    actions: dict[int, list[str]] | None = None,
    draw: list[str] | None = None,
    turn: int = 0,
    fugitive: int | None = None,
    series_wins: Literal[1, 2, 3] = 1,
    eliminated: Iterable[int] = (),
) -> GameState:
    """A table in play, at the start of `turn`'s turn (its card already drawn).

    Unspecified hands get the remaining Clue cards round-robin from seat 0; markers default to
    the first destinations in order (the rest by the tray); the turn player holds
    `suggest_any` and `suggest_present` unless told otherwise, other detectives one `snoop`.
    The draw pile defaults to the rest of the 39 Action cards in box order.
    """
    hands = {i: list(h) for i, h in (hands or {}).items()}
    used = [*solution.cards(), *(c for h in hands.values() for c in h)]
    assert len(used) == len(set(used)), "a Clue card placed twice"
    free = [c for c in CLUES if c not in used]
    missing = [i for i in range(players) if i not in hands]
    for i in missing:
        hands[i] = []
    for k, card in enumerate(free):
        hands[missing[k % len(missing)] if missing else 0].append(card)
    markers = list(markers or DESTINATIONS[:players])
    actions = {i: list(a) for i, a in (actions or {}).items()}
    for i in range(players):
        if i == fugitive:
            actions[i] = []
        elif i not in actions:
            actions[i] = ["suggest_any", "suggest_present"] if i == turn else ["snoop"]
    out = list(eliminated)
    for i in out:
        actions[i] = []
    if draw is None:
        rest = list(ACTION_DECK)
        for hand in actions.values():
            for card in hand:
                rest.remove(card)
        draw = rest
    seats = [
        Seat(
            id=f"u{i}",
            name=NAMES[i],
            clues=hands[i],
            actions=actions[i],
            marker=markers[i],
            eliminated=i in out,
        )
        for i in range(players)
    ]
    state = GameState(
        options=Options(
            players=players,
            variant="one_against_all" if fugitive is not None else "standard",
            series_wins=series_wins,
        ),
        seed=0,
        seats=seats,
        dealer=turn,
        fugitive=fugitive,
        solution=solution,
        draw=list(draw),
        tray=[d for d in DESTINATIONS if d not in markers],
        phase="playing",
        turn=turn,
        turn_number=1,
        prompts=[PlayPrompt(id=1, seat=turn)],
        next_prompt=2,
    )
    state.log = [
        Dealt(
            markers=list(markers),
            tray=list(state.tray),
            clue_counts=[len(h) for h in hands.values()],
            first=turn,
        ),
        TurnBegan(seat=turn, turn_number=1),
        Drew(seat=turn, card=actions[turn][-1] if actions[turn] else "snoop"),
    ]
    return state


LEAKS = ("None", "Kind.", "Feature.", "<", "{", "Traceback", "_")
"""What a Mansion refusal never shows a player (outside the player's own quoted words)."""


def play(state: GameState, *actions: Action) -> tuple[GameState, list[Event]]:
    """Apply `actions` in order; return the final state and every event."""
    return play_in_turn(apply, state, actions)


def show_all(state: GameState) -> tuple[GameState, list[Event]]:
    """Answer every open "which card to show" prompt with its first option: the refuter (or
    a Super Sleuth opponent) is asked even when only one card fits."""
    shows = [p for p in state.prompts if isinstance(p, ShowPrompt)]
    return play(state, *(ShowCard(seat=p.seat, card=p.options[0]) for p in shows))


def refused(state: GameState, action: Action, match: str) -> str:
    """Assert `action` is refused with `match` in a player's sentence, `state` untouched."""
    return refusal(apply, state, action, match, LEAKS, quoted_ok=True)


def assert_reads_well(message: str) -> None:
    reads_well(message, LEAKS, quoted_ok=True)


def public(events: Iterable[Event]) -> list[Event]:
    return [e for e in events if e.audience.scope == "public"]


def private_to(events: Iterable[Event], seat: int) -> list[Event]:
    return [e for e in events if e.audience.scope == "private" and seat in e.audience.seats]


def waiting_kinds(state: GameState) -> list[tuple[int, str]]:
    return [(p.seat, p.kind) for p in state.prompts]


def random_action(
    state: GameState, rng: random.Random, truth: float = 0.02, guess: float = 0.06
) -> Action:
    """A random legal action from a random waiting seat, found through `legal` queries.

    At a turn decision the seat accuses the true solution with chance `truth`, a random
    triple with chance `guess`; otherwise it takes `legal.idle_action` (a random kind of
    action, then a random one of that kind).
    """
    seat = rng.choice(legal.waiting_on(state))
    prompt = state.prompt_for(seat)
    assert prompt is not None, "waiting on a seat without a prompt"
    if prompt.kind in ("play", "accuse_or_end"):
        roll = rng.random()
        if roll < truth and state.solution is not None:
            return Accuse(seat=seat, **state.solution.model_dump())
        if roll < truth + guess:
            choices = [a for a in legal.legal_actions(state, seat) if isinstance(a, Accuse)]
            return rng.choice(choices)
    action = legal.idle_action(state, seat, rng)
    assert action is not None
    return action


def hand_of(state: GameState, seat: int) -> Sequence[str]:
    return state.seats[seat].clues
