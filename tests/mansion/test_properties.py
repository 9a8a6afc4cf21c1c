"""Property tests: random legal games for 3–5 players, both variants, single games and series.

Every game checks, step by step, what the rules reference promises: every card in exactly
one place, suggestions refuted by the first eligible player clockwise who can (the fugitive
only when no detective can), the refuter (and every Super Sleuth opponent holding a match)
asked which card to show however many fit, the secrecy contract (no view or event shows a
seat a card it was not dealt, shown, snooped or tipped, and nothing public says whether a
refuter had a choice), prompts that can always be answered, JSON round trips, that the
game ends, and that a replay of the action log reproduces it exactly. In One Against All
the fugitive deals every game and the role passes left; only right accusations make a
Master Detective.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import hypothesis
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.mansion import ACTION_ADAPTER, EVENT_ADAPTER, GameState, apply, legal, new_game
from engine.mansion.actions import (
    Abandon,
    Accuse,
    Action,
    AnswerTip,
    ChooseSolution,
    PickCard,
    ShowCard,
    SuggestAny,
    SuggestPresent,
    SuperSleuth,
)
from engine.mansion.cards import ACTION_DECK, ACTIONS, CLUES, FACE_DOWN, PRIVATE_TIP, matches
from engine.mansion.events import AccusationMade, ActionHandDiscarded, Event
from engine.mansion.prompts import PickPrompt, ShowPrompt, TipPrompt
from engine.mansion.records import Suggested
from engine.mansion.state import Options
from engine.mansion.views import PublicView, player_view, public_view
from testkit.rules import RandomGame

from .helpers import random_action, refs

CLUE_IDS = frozenset(CLUES)
MAX_STEPS = 1500
"""Random play ends long before this (accusations come often); reaching it is a failure."""
PUBLIC_NAMING = {"named", "markers", "tray", "gave", "took"}
"""Keys whose card ids name cards without saying who holds them."""
_WORD = re.compile(r'"([a-z_]+)"')


def _cards_in(text: str) -> set[str]:
    return set(_WORD.findall(text)) & CLUE_IDS


def scan_event(event: Event) -> set[str]:
    """Clue card ids in an event, outside the public naming keys."""
    return _cards_in(event.model_dump_json(exclude=PUBLIC_NAMING))


def scan_view(view: PublicView) -> set[str]:
    """Clue card ids in a view, outside public naming keys, markers and finished games."""
    parts = [view.model_dump_json(exclude={"observations", "rounds", "tray", "seats"})]
    parts += [entry.model_dump_json(exclude=PUBLIC_NAMING) for entry in view.observations]
    return _cards_in("".join(parts))


@dataclass
class Game(RandomGame[Options, GameState, Action, Event]):
    learned: list[set[str]] = field(default_factory=list)
    """Per seat: cards it was shown, snooped or tipped this game (tracked by the test)."""
    accused: set[int] = field(default_factory=set)
    suggestions: int = 0
    fugitive_refutations: int = 0


def _check_cards(state: GameState) -> None:
    """Every Clue and Action card in exactly one place."""
    hands = [c for s in state.seats for c in s.clues]
    if state.solution is None:
        assert state.phase in ("choosing_solution", "over") and not hands
    else:
        placed = [*state.solution.cards(), *hands]
        assert sorted(placed) == sorted(CLUES)
    actions = [*state.draw, *(d.card for d in state.discard)]
    actions += [c for s in state.seats for c in s.actions]
    if state.played is not None:
        actions.append(state.played)
    if state.solution is None and state.phase == "choosing_solution":
        assert actions == []
    else:
        assert Counter(actions) == Counter(ACTION_DECK)
    markers = [s.marker for s in state.seats if s.marker] + state.tray
    assert len(markers) == len(set(markers))
    assert len(markers) in (0, 9)


def _check_prompts(state: GameState) -> None:
    """Someone is always waited on until the end, and every prompt can be answered."""
    waiting = legal.waiting_on(state)
    if state.is_over:
        assert waiting == [] and state.prompts == []
        return
    assert waiting
    for seat in range(state.players):
        actions = legal.legal_actions(state, seat)
        assert bool(actions) == (seat in waiting)
    for prompt in state.prompts:
        if prompt.kind in ("play", "accuse_or_end"):
            assert state.active(prompt.seat) and prompt.seat == state.turn
    fugitive = state.fugitive
    if fugitive is not None:
        assert state.seats[fugitive].actions == []


def _expected_refutation(
    before: GameState, action: SuggestAny | SuggestPresent
) -> tuple[list[int], int | None, list[str], tuple[str, str, str]]:
    """From the rules text, not the engine: (passed, refuter, its matching cards, named)."""
    seat = action.seat
    destination = (
        action.destination if isinstance(action, SuggestAny) else before.seats[seat].marker
    )
    named = (action.suspect, action.vehicle, destination)
    n = before.players
    clockwise = [(seat + k) % n for k in range(1, n)]
    if before.fugitive is not None:
        clockwise = [s for s in clockwise if s != before.fugitive] + [before.fugitive]
    passed: list[int] = []
    for other in clockwise:
        holding = [c for c in before.seats[other].clues if c in named]
        if holding:
            return passed, other, holding, named
        passed.append(other)
    return passed, None, [], named


def _learn(game: Game, before: GameState, action: Action) -> None:
    """What the rules say `action` teaches whom (computed without the engine's records)."""
    learned = game.learned
    match action:
        case ShowCard():
            prompt = before.prompt_for(action.seat)
            assert isinstance(prompt, ShowPrompt)
            assert action.card in before.seats[action.seat].clues
            learned[prompt.to].add(action.card)
        case PickCard():
            prompt = before.prompt_for(action.seat)
            assert isinstance(prompt, PickPrompt)
            card = prompt.order[action.position]
            assert card in before.seats[prompt.target].clues
            learned[action.seat].add(card)
        case AnswerTip():
            prompt = before.prompt_for(action.seat)
            assert isinstance(prompt, TipPrompt)
            assert set(action.cards) <= set(before.seats[action.seat].clues)
            learned[prompt.to].update(action.cards)
        case Accuse():
            game.accused.add(action.seat)
        case _:
            pass


def _check_suggestion(game: Game, before: GameState, action: SuggestAny | SuggestPresent) -> None:
    after = game.state
    passed, refuter, holding, named = _expected_refutation(before, action)
    record = next(r for r in reversed(after.log) if isinstance(r, Suggested))
    assert record.named.cards() == named
    assert (record.passed, record.refuter) == (passed, refuter)
    if refuter is not None:  # asked even when only one card fits
        prompt = after.prompt_for(refuter)
        assert isinstance(prompt, ShowPrompt) and prompt.to == action.seat
        assert sorted(prompt.options) == sorted(holding) and record.shown is None
    game.suggestions += 1
    if refuter is not None and refuter == before.fugitive:
        game.fugitive_refutations += 1
        for seat in range(before.players):
            if seat not in (action.seat, before.fugitive):
                assert not set(before.seats[seat].clues) & set(named)
        assert record.burned == (before.draw[-1] if before.draw else None)
    else:
        assert record.burned is None


def _check_sleuth(game: Game, before: GameState, action: SuperSleuth) -> None:
    """Every opponent holding a card with the feature is asked which to show, one or many."""
    for other in before.clockwise_from(action.seat):
        holding = [c for c in before.seats[other].clues if matches(c, ACTIONS[action.card])]
        prompt = game.state.prompt_for(other)
        if holding:
            assert isinstance(prompt, ShowPrompt) and sorted(prompt.options) == sorted(holding)
        else:
            assert prompt is None


def _check_dealer(before: GameState, after: GameState) -> None:
    """One Against All: "The fugitive is also the dealer" of every game, the player on their
    left plays first, and in a series the role passes left each game."""
    if after.fugitive is None:
        return
    assert after.dealer == after.fugitive
    if after.phase == "playing" and after.turn_number == 1:
        assert after.turn == after.left_of(after.dealer)
    if after.round != before.round and not after.is_over:
        assert before.fugitive is not None
        assert after.fugitive == before.left_of(before.fugitive)


def _allowed(game: Game, state: GameState, seat: int) -> set[str]:
    allowed = set(state.seats[seat].clues) | game.learned[seat]
    if state.solution is not None and (seat == state.fugitive or seat in game.accused):
        allowed |= set(state.solution.cards())
    return allowed


def _check_secrecy(game: Game, events: list[Event], new_round: bool) -> None:
    """No view or event shows a seat a card it may not know; each view knows what it learned."""
    state = game.state
    over = state.is_over
    for event in events:
        scope = event.audience.scope
        if scope == "reveal" or over or new_round:
            continue  # the end of a game reveals it; a new deal changes every hand
        if scope == "public":
            correct = isinstance(event, AccusationMade) and event.correct
            assert correct or not scan_event(event), event
            assert "had_choice" not in event.model_dump_json(), event
            if isinstance(event, ActionHandDiscarded):  # an unplayed hand stays unread
                assert event.cards == [None] * len(event.cards), event
        else:
            for seat in event.audience.seats:
                assert scan_event(event) <= _allowed(game, state, seat), (seat, event)
    if over:
        return
    channel = public_view(state)
    assert not scan_view(channel) and "had_choice" not in channel.model_dump_json()
    for seat in range(state.players):
        view = player_view(state, seat)
        assert scan_view(view) <= _allowed(game, state, seat), seat
        for held, shown in zip(state.discard, view.discard, strict=True):
            if not held.face_up and seat not in held.seen_by:  # face down, unread: no card
                assert shown.card == (PRIVATE_TIP if held.kind_shown else FACE_DOWN), shown
        assert "had_choice" not in view.model_dump_json()
        if seat in legal.waiting_on(state):
            assert legal.legal_actions(view, seat) == legal.legal_actions(state, seat)
        known = view.known_holders()
        assert game.learned[seat] <= set(known)
        for card, holder in known.items():
            assert card in state.seats[holder].clues
        for other in view.waiting:
            if other.seat != seat:
                assert other.options is None
                if other.kind == "answer_tip" and seat != other.to:
                    assert other.tip is None


def _own_stretch(state: GameState) -> bool:
    """Only the turn player's own decisions are open (play, a Snoop's pick, accuse or end)."""
    return state.phase == "playing" and all(
        p.seat == state.turn
        and (p.kind in ("play", "accuse_or_end")
             or (isinstance(p, PickPrompt) and p.reason == "snoop"))
        for p in state.prompts
    )


def _check_turn_key(before: GameState, after: GameState) -> None:
    """The turn timer's key changes exactly when a seat is newly waited on, the turn or game
    moves on, or the turn passes between its player's own stretch and others answering; it
    holds through the turn player's own moves and while the others answer."""
    gained = set(legal.waiting_on(after)) - set(legal.waiting_on(before))
    moved = (before.round, before.turn_number) != (after.round, after.turn_number)
    expected = bool(gained) or moved or after.is_over or (
        _own_stretch(before) != _own_stretch(after))
    assert (legal.turn_key(after) != legal.turn_key(before)) == expected


def _step(game: Game, action: Action) -> None:
    before = game.state
    game.state, events = apply(before, action)
    game.log.append(action)
    game.events += events
    after = game.state
    assert ACTION_ADAPTER.validate_json(ACTION_ADAPTER.dump_json(action)) == action
    for event in events:
        assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(event)) == event
        if event.audience.scope == "reveal":
            assert event.type in ("round_over", "game_over")
    if len(game.log) % 5 == 0 or after.is_over:
        assert GameState.model_validate_json(after.model_dump_json()) == after
    new_round = after.round != before.round
    if new_round or (after.phase == "playing" and before.phase == "choosing_solution"):
        game.learned = [set() for _ in after.seats]
        game.accused = set()
    else:
        _learn(game, before, action)
    if isinstance(action, SuggestAny | SuggestPresent) and not new_round:
        _check_suggestion(game, before, action)
    if isinstance(action, SuperSleuth) and not new_round:
        _check_sleuth(game, before, action)
    _check_dealer(before, after)
    _check_turn_key(before, after)
    _check_cards(after)
    _check_prompts(after)
    _check_secrecy(game, events, new_round)


@dataclass
class Policy:
    """How the random players behave: chances per turn decision to accuse the truth or a
    random triple, per step to abandon; `until_reshuffle` abandons soon after one."""

    truth: float = 0.02
    guess: float = 0.06
    abandon: float = 0.001
    until_reshuffle: bool = False


def _actions(game: Game, rng: random.Random, policy: Policy) -> Iterator[Action]:
    reshuffled_at: int | None = None
    while not game.state.is_over:
        if (
            policy.until_reshuffle
            and reshuffled_at is None
            and any(e.type == "draw_pile_reshuffled" for e in game.events)
        ):
            reshuffled_at = len(game.log)
        late = reshuffled_at is not None and len(game.log) > reshuffled_at + 12
        if late or rng.random() < policy.abandon:
            yield Abandon(reason="The host ended the table.")
        elif game.state.phase == "choosing_solution" and rng.random() < 0.5:
            fugitive = game.state.fugitive
            assert fugitive is not None
            yield ChooseSolution(
                seat=fugitive,
                suspect=rng.choice(["scarlet", "plum"]),
                vehicle=rng.choice(["train", "seaplane"]),
                destination=rng.choice(["alamo", "miami_beach"]),
            )
        else:
            yield random_action(game.state, rng, truth=policy.truth, guess=policy.guess)


def play_random_game(options: Options, seed: int, policy: Policy | None = None) -> Game:
    state, events = new_game(refs(options.players), options, seed)
    for event in events:
        assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(event)) == event
    game = Game(options=options, seed=seed, state=state, events=list(events))
    game.learned = [set() for _ in state.seats]
    _check_cards(state)
    _check_prompts(state)
    rng = random.Random(seed)
    for action in _actions(game, rng, policy or Policy()):
        _step(game, action)
        assert len(game.log) < MAX_STEPS, "the game did not end"
    _check_end(game)
    return game


def _check_end(game: Game) -> None:
    """The game ended once, with its reveals, and replays exactly from seed and log."""
    state = game.state
    assert state.is_over
    over = [e for e in game.events if e.type == "game_over"]
    assert len(over) == 1 and game.events[-1] is over[0]
    assert len([e for e in game.events if e.type == "round_over"]) == len(state.rounds)
    wins = state.options.series_wins
    if state.ended_by == "won":
        assert state.master is not None and state.seats[state.master].score == wins
        assert state.rounds[-1].how == "solved" and state.rounds[-1].winner == state.master
    else:
        assert state.master is None
    assert all(s.score < wins for i, s in enumerate(state.seats) if i != state.master)
    # Master Detective only by right accusations: a seat's score is the crimes it solved
    for seat, s in enumerate(state.seats):
        assert s.score == sum(r.how == "solved" and r.winner == seat for r in state.rounds)
    for r in state.rounds:
        if r.how == "escaped":
            assert r.winner is not None and r.winner == r.fugitive
        elif r.how != "solved":
            assert r.winner is None
    if state.ended_by == "escaped":
        assert wins == 1 and legal.winners(state) == {state.rounds[-1].fugitive}
    # the stats: the Master Detective and every fugitive who escaped in one of the games
    escaped = {r.winner for r in state.rounds if r.how == "escaped"}
    assert legal.winners(state) == escaped | ({state.master} if state.master is not None
                                               else set())
    # the fugitive deals and passes left: a different one each game of the series
    if game.options.one_against_all:
        fugitives = [r.fugitive for r in state.rounds]
        assert [r.dealer for r in state.rounds] == fugitives
        first = game.options.fugitive
        assert first is None or fugitives[0] == first
        for one, two in itertools.pairwise(fugitives):
            assert one is not None and two == (one + 1) % state.players
    replayed, replay_events = new_game(refs(state.players), game.options, game.seed)
    for action in game.log:
        replayed, new = apply(replayed, action)
        replay_events += new
    assert replayed == state
    assert replay_events == game.events


def _note(game: Game) -> None:
    state = game.state
    hypothesis.event(f"ended: {state.ended_by}")
    if game.fugitive_refutations:
        hypothesis.event("the fugitive refuted")
    kinds = {a.type for a in game.log}
    for kind in ("all_snoop", "private_tip", "super_sleuth", "move", "snoop"):
        if kind in kinds:
            hypothesis.event(f"has {kind}")
    if any(r.how == "escaped" for r in state.rounds):
        hypothesis.event("a fugitive escaped")
    if any(e.type == "draw_pile_reshuffled" for e in game.events):
        hypothesis.event("reshuffled")


def _options(players: int, variant: str, series_wins: int, fixed: bool, seed: int) -> Options:
    fugitive = seed % players if fixed and variant == "one_against_all" else None
    return Options(
        players=players,
        variant=variant,  # type: ignore[arg-type]
        series_wins=series_wins,  # type: ignore[arg-type]
        fugitive=fugitive,
    )


SETTINGS = settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("variant", ["standard", "one_against_all"])
@pytest.mark.parametrize("players", [3, 4, 5])
@settings(SETTINGS, max_examples=15)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), fixed=st.booleans())
def test_random_legal_games_keep_every_invariant(
    seed: int, players: int, variant: str, fixed: bool
) -> None:
    """15 games at each size and variant (one test each, so the workers share them)."""
    game = play_random_game(_options(players, variant, 1, fixed, seed), seed)
    _note(game)


@pytest.mark.parametrize("variant", ["standard", "one_against_all"])
@settings(SETTINGS, max_examples=15)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    players=st.sampled_from([3, 4, 5]),
    series_wins=st.sampled_from([2, 3]),
    fixed=st.booleans(),
)
def test_random_series_keep_every_invariant(
    seed: int, players: int, variant: str, series_wins: int, fixed: bool
) -> None:
    options = _options(players, variant, series_wins, fixed, seed)
    game = play_random_game(options, seed, Policy(truth=0.12, guess=0.04, abandon=0.0005))
    _note(game)
    hypothesis.event(f"games in the table: {len(game.state.rounds)}")


@pytest.mark.parametrize("variant", ["standard", "one_against_all"])
@settings(SETTINGS, max_examples=3)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_long_games_reshuffle_or_run_the_fugitives_clock_out(seed: int, variant: str) -> None:
    """Nobody accuses: the standard pile is reshuffled (then the host ends the table); in One
    Against All the fugitive escapes when a detective must draw from the empty pile."""
    options = _options(3, variant, 1, False, seed)
    game = play_random_game(
        options, seed, Policy(truth=0, guess=0, abandon=0, until_reshuffle=True)
    )
    if variant == "standard":
        assert any(e.type == "draw_pile_reshuffled" for e in game.events)
        assert game.state.ended_by == "abandoned"
    else:
        assert not any(e.type == "draw_pile_reshuffled" for e in game.events)
        assert game.state.rounds[-1].how == "escaped"
