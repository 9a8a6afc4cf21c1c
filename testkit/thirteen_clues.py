"""Shared helpers for the 13 Clues engine tests.

`build_state` lays out a table by hand (chosen holders, screens, glasses) so rule tests are
exact rather than random; `recount` computes answers independently of the engine; the random
legal-move generator drives the property tests through the engine's own `legal` queries.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from pydantic import BaseModel

from engine.thirteen_clues import actions as act
from engine.thirteen_clues import legal
from engine.thirteen_clues.ai import Level, choose_action
from engine.thirteen_clues.bruteforce import random_position
from engine.thirteen_clues.cards import CARDS, Category, cards_in_play
from engine.thirteen_clues.events import Event
from engine.thirteen_clues.rules import apply, new_game
from engine.thirteen_clues.state import (
    DEFAULT_EDITION,
    GLASSES_IN_BOX,
    Edition,
    GameState,
    Options,
    PlayerRef,
    Seat,
)
from engine.thirteen_clues.views import PlayerView, player_view
from testkit.rules import play_in_turn, reads_well, refusal

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")

HOLDERS: dict[int, list[str]] = {
    0: ["officer", "parlor", "knife"],
    1: ["duke", "market", "crossbow"],
    2: ["butcher", "library", "poison"],
    3: ["countess", "park", "sword"],
}
"""A 4-player table's holders laid out by hand (`build_state(4, holders=HOLDERS, ...)`), so
accusations can be made right or wrong; with SCREENS, the informants left in deck order are
gun (A), sailor (B), plaza (C), candlestick (D)."""
SCREENS: dict[int, list[str]] = {0: ["nurse", "museum"], 1: ["blowgun", "maid"],
                                 2: ["harbor", "rifle"], 3: ["dancer", "theater"]}
"""Display names that cannot be mistaken for a card id when searching dumps."""

CARD_IDS = frozenset(CARDS)
_JSON_WORD = re.compile(r'"([a-z]+)"')


def refs(n: int, names: Sequence[str] = NAMES) -> list[PlayerRef]:
    return [PlayerRef(id=f"u{i}", name=names[i]) for i in range(n)]


def fresh_game(
    players: int, edition: Edition = DEFAULT_EDITION, top_secret: bool = False, seed: int = 1
) -> tuple[GameState, list[Event]]:
    options = Options(players=players, edition=edition, top_secret=top_secret)
    return new_game(refs(players), options, seed)


def _by_category(cards: Iterable[str]) -> dict[Category, list[str]]:
    out: dict[Category, list[str]] = {c: [] for c in Category}
    for card in cards:
        out[CARDS[card].category].append(card)
    return out


def build_state(
    players: int = 3,
    *,
    edition: Edition = DEFAULT_EDITION,
    top_secret: bool = False,
    holders: dict[int, list[str]] | None = None,
    screens: dict[int, list[str]] | None = None,
    glasses: list[int] | None = None,
    supply: int | None = None,
    turn: int = 0,
    names: Sequence[str] = NAMES,
) -> GameState:
    """A table in the turns phase with the chosen cards where the test wants them.

    Unspecified holders get the first unused Person, Location, Weapon in deck order and
    unspecified screens the next two unused cards; the rest become the informants. Each
    seat's `dealt` is what it passed (its left neighbour's holder) plus its screen, exactly
    as a real deal and pass would leave it. Glasses default to one each, rest in supply.
    """
    holders = dict(holders or {})
    screens = dict(screens or {})
    deck = list(cards_in_play(players))
    used = [c for h in holders.values() for c in h] + [c for s in screens.values() for c in s]
    assert len(used) == len(set(used)), "a card placed twice"
    assert set(used) <= set(deck), "a card not in play"
    free = [c for c in deck if c not in used]
    for i in range(players):
        if i not in holders:
            pools = _by_category(free)
            holders[i] = [pools[cat][0] for cat in Category]
            free = [c for c in free if c not in holders[i]]
    for i in range(players):
        if i not in screens:
            screens[i], free = free[:2], free[2:]
    for i, holder in holders.items():
        assert [CARDS[c].category for c in holder] == list(Category), f"holder {i}: P, L, W"
        assert len(screens[i]) == 2
    if players == 2:
        glasses, supply = [0, 0], 0
    else:
        glasses = list(glasses) if glasses is not None else [1] * players
        if supply is None:
            supply = GLASSES_IN_BOX[edition] - sum(glasses)
        assert sum(glasses) + supply == GLASSES_IN_BOX[edition], "glasses not conserved"
    seats = []
    for i in range(players):
        passed = list(holders[(i + 1) % players])
        seats.append(
            Seat(
                id=f"u{i}",
                name=names[i],
                dealt=passed + list(screens[i]),
                passed=passed,
                holder=list(holders[i]),
                screen=list(screens[i]),
                glasses=glasses[i],
            )
        )
    return GameState(
        options=Options(players=players, edition=edition, top_secret=top_secret),
        seed=0,
        seats=seats,
        informants=free,
        phase="turns",
        starter=turn,
        turn=turn,
        turn_number=1,
        supply=supply,
    )


LEAKS = ("None", "Category.", "Suit.", "<", "{", "up_close", "Traceback")
"""What a 13 Clues refusal never shows a player: Python reprs and card ids."""


def play(state: GameState, *actions: act.Action) -> tuple[GameState, list[Event]]:
    """Apply `actions` in order; return the final state and every event."""
    return play_in_turn(apply, state, actions)


def refused(state: GameState, action: act.Action, match: str) -> str:
    """Assert `action` is refused with `match` in a player's sentence, `state` untouched."""
    return refusal(apply, state, action, match, LEAKS)


def assert_reads_well(message: str) -> None:
    reads_well(message, LEAKS)


def pass_first(state: GameState) -> tuple[GameState, list[Event]]:
    """Every seat passes the first Person, Location, Weapon of its dealt cards, in seat order."""
    actions = [
        act.ChoosePass(seat=i, **first_choice(s.dealt))
        for i, s in enumerate(state.seats)
    ]
    return play(state, *actions)


class PassChoice(TypedDict):
    """A person, a location and a weapon as the keywords of ChoosePass."""

    person: str
    location: str
    weapon: str


def choice_of(seat: int, cards: Iterable[str]) -> act.ChoosePass:
    """`seat`'s pass naming `cards`, one of each category in any order."""
    named = {CARDS[c].category: c for c in cards}
    return act.ChoosePass(seat=seat, person=named[Category.PERSON],
                          location=named[Category.LOCATION], weapon=named[Category.WEAPON])


def first_choice(dealt: Sequence[str]) -> PassChoice:
    pools = _by_category(dealt)
    return {"person": pools[Category.PERSON][0], "location": pools[Category.LOCATION][0],
            "weapon": pools[Category.WEAPON][0]}


def turns_view(seed: int, players: int) -> PlayerView:
    """A seat's view of a random position in the turns phase (seeded): what the choices,
    chains and marks of a casebook are computed from."""
    rng = random.Random(seed)
    while True:
        _, view = random_position(rng, players, max_actions=35)
        if view.phase == "turns":
            return view


def total_glasses(state: GameState) -> int:
    return state.supply + sum(s.glasses for s in state.seats)


def recount(
    state: GameState, witness: int, subject: str, asker: int, side: str | None = None
) -> int:
    """What the witness truly sees of `subject`, computed without the engine's answer_for."""
    if state.players == 2:
        screen_card = state.seats[witness].screen[{"left": 0, "right": 1}[str(side)]]
        seen = [*state.seats[asker].holder, screen_card]
    else:
        seen = list(state.seats[witness].screen)
        for i, seat in enumerate(state.seats):
            if i != witness:
                seen.extend(seat.holder)
    return sum(
        1
        for card in seen
        if subject in (CARDS[card].suit.value, CARDS[card].category.value, CARDS[card].sub.value)
    )


def card_ids_in(model: BaseModel, **dump: Any) -> set[str]:
    """Every card id appearing as a whole JSON string in `model` ("gun" is not "blowgun")."""
    return set(_JSON_WORD.findall(model.model_dump_json(**dump))) & CARD_IDS


def eventual_holder(state: GameState, seat: int) -> set[str]:
    """The seat's Mystery: its holder, or (before play) what its right neighbour passed."""
    if state.seats[seat].holder:
        return set(state.seats[seat].holder)
    return set(state.seats[state.right_of(seat)].passed or [])


def random_action(
    state: GameState, rng: random.Random, truth: float = 0.04, drain: bool = False
) -> act.Action:
    """A random action the rules allow now, found through the `legal` queries.

    `truth` is the chance the current player accuses its true holder (ending the game).
    `drain` makes nearly every action a question to seat 0 (seat 0 asks seat 1): the other
    seats then start their turns empty-handed until the supply runs dry, a state random
    play otherwise almost never reaches.
    """
    if state.phase == "passing":
        seat = rng.choice([i for i, s in enumerate(state.seats) if s.passed is None])
        pools = _by_category(state.seats[seat].dealt)
        return act.ChoosePass(seat=seat, person=rng.choice(pools[Category.PERSON]),
                              location=rng.choice(pools[Category.LOCATION]),
                              weapon=rng.choice(pools[Category.WEAPON]))
    seat = state.turn
    sources = legal.take_sources(state, seat)
    if sources:
        return act.TakeGlass(seat=seat, source=rng.choice(sources))
    assert legal.can_act(state, seat)
    roll = rng.random()
    if drain and roll >= truth and rng.random() < 0.97:
        return act.Ask(
            seat=seat,
            witness=1 if seat == 0 else 0,
            subject=rng.choice(legal.question_subjects(state)),
            side=rng.choice(["left", "right"]) if state.players == 2 else None,
        )
    if roll < truth:
        holder = state.seats[seat].holder
        return act.Accuse(seat=seat, person=holder[0], location=holder[1], weapon=holder[2])
    if roll < truth + 0.08:
        pools = legal.accusable_cards(state, seat)
        return act.Accuse(seat=seat, **{cat.value: rng.choice(pools[cat])  # type: ignore[arg-type]
                                        for cat in Category})
    letters = legal.informant_letters(state)
    if letters and roll < 0.3:
        return act.Consult(seat=seat, letter=rng.choice(letters))
    top_secret = (
        state.options.top_secret
        and not state.seats[seat].top_secret_used
        and rng.random() < 0.3
    )
    return act.Ask(
        seat=seat,
        witness=rng.choice(legal.witnesses(state, seat)),
        subject=rng.choice(legal.question_subjects(state)),
        side=rng.choice(["left", "right"]) if state.players == 2 else None,
        top_secret=top_secret,
    )


def ai_game(state: GameState, level: Level, rng: random.Random) -> GameState:
    """`state` played to the end by one AI of `level` a seat, as the bot's AI seats play
    (every pass in seat order, then one seat at a time)."""
    while state.phase != "over":
        for seat in legal.waiting_on(state):
            state, _ = apply(state, choose_action(player_view(state, seat), level, rng))
            if state.phase != "passing":
                break
    return state
