"""Property tests: random legal games for 2–6 players, both editions, Top Secret on and off.

Every game checks, step by step, the invariants the rules reference promises: cards and
glasses conserved, truthful answers, the secrecy contract, JSON round trips, and that a
replay of the action log reproduces the game exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import hypothesis
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.thirteen_clues import (
    ACTION_ADAPTER,
    EVENT_ADAPTER,
    GameState,
    apply,
    legal,
    new_game,
    player_view,
    public_view,
)
from engine.thirteen_clues.actions import Abandon, Accuse, Action, Ask, Consult, TakeGlass
from engine.thirteen_clues.cards import CARDS, REMOVED_SUITS
from engine.thirteen_clues.events import AccusationMade, Event, GlassMoved, QuestionAnswered
from engine.thirteen_clues.state import GLASSES_IN_BOX, Edition, Options
from testkit.rules import RandomGame
from testkit.thirteen_clues import (
    card_ids_in,
    eventual_holder,
    random_action,
    recount,
    refs,
    total_glasses,
)

MAX_ACTIONS = 60
DRAIN_ACTIONS = 75
"""Draining the supply takes longer: about one empty-handed turn start per round."""
GAMES_PER_COUNT = 200


@dataclass
class Game(RandomGame[Options, GameState, Action, Event]):
    """One random game and what the checks need to look back on."""

    view_cards: list[tuple[int, set[str]]] = field(default_factory=list)
    """(seat, card ids in that seat's view) for every view taken before the end."""


def _expected_receiver(state: GameState, giver: int) -> int | None:
    """Where a spent informant/accusation glass goes, from the rules text, not the engine."""
    n = state.players
    clockwise = [(giver + k) % n for k in range(1, n)]
    counts = {i: state.seats[i].glasses for i in clockwise}
    if state.options.edition == "2020":
        empty = [i for i in clockwise if counts[i] == 0]
        return empty[0] if empty else None
    fewest = min(counts.values())
    return next(i for i in clockwise if counts[i] == fewest)


def _play_began(state: GameState) -> bool:
    """The pass is done (a game abandoned during the pass is over but never began)."""
    return bool(state.seats[0].holder)


def _check_cards(state: GameState) -> None:
    """Removed suits + holders + screens + informants are all 30 cards, each once."""
    removed = [c for c, info in CARDS.items() if info.suit in REMOVED_SUITS[state.players]]
    placed = [c for s in state.seats for c in (*s.holder, *s.screen)] + state.informants
    assert len(placed) == len(set(placed))
    assert sorted(removed + placed) == sorted(CARDS)
    for seat in state.seats:
        assert len(seat.holder) == 3 and len(seat.screen) == 2


def _check_glasses(state: GameState) -> None:
    assert all(s.glasses >= 0 for s in state.seats) and state.supply >= 0
    if state.options.uses_glasses and _play_began(state):
        assert total_glasses(state) == GLASSES_IN_BOX[state.options.edition]
    else:
        assert total_glasses(state) == 0


def _check_step(game: Game, before: GameState, action: Action, events: list[Event]) -> None:
    after = game.state
    assert ACTION_ADAPTER.validate_json(ACTION_ADAPTER.dump_json(action)) == action
    for event in events:
        assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(event)) == event
        if event.audience.scope == "public":
            assert not card_ids_in(event), event
        if event.audience.scope == "reveal":
            assert event.type == "game_over" and after.phase == "over"
    if len(game.log) % 4 == 0 or after.phase != before.phase:
        assert GameState.model_validate_json(after.model_dump_json()) == after
    _check_glasses(after)
    _check_turn_key(before, after)
    if _play_began(after) and not _play_began(before):
        _check_cards(after)
    elif _play_began(after):  # cards never move once play has begun
        assert after.informants == before.informants
        for now, then in zip(after.seats, before.seats, strict=True):
            assert now.holder == then.holder and now.screen == then.screen
    answers = [e for e in events if isinstance(e, QuestionAnswered)]
    if isinstance(action, Ask):
        truth = recount(before, action.witness, action.subject, action.seat, action.side)
        assert [e.answer for e in answers] == [truth]
        assert answers[0].top_secret == action.top_secret
        if action.top_secret:
            assert answers[0].audience.seats == tuple(sorted((action.seat, action.witness)))
        else:
            assert answers[0].audience.scope == "public"
        assert after.questions[-1].answer == truth
        if after.options.uses_glasses:
            assert after.seats[action.witness].glasses == before.seats[action.witness].glasses + 1
    else:
        assert not answers
    if isinstance(action, Consult | Accuse) and after.options.uses_glasses:
        spent = [e for e in events if isinstance(e, GlassMoved) and e.count == 1
                 and e.reason in ("informant", "accusation")]
        assert [e.receiver for e in spent] == [_expected_receiver(before, action.seat)]
    if isinstance(action, Accuse):
        _check_accusation(before, after, action, events)
    if isinstance(action, TakeGlass):
        assert after.seats[action.seat].glasses == 1
    if after.phase != "over":
        view = player_view(after, after.turn)
        game.view_cards.append((after.turn, card_ids_in(view, exclude={"my_accusations"})))


def _check_accusation(
    before: GameState, after: GameState, action: Accuse, events: list[Event]
) -> None:
    seat = action.seat
    truth = before.seats[seat].holder
    right = [action.person, action.location, action.weapon] == truth
    made = [e for e in events if isinstance(e, AccusationMade)]
    assert {e.correct for e in made} == {right}
    if right:
        assert after.phase == "over" and after.winner == seat and after.ended_by == "solved"
        return
    assert after.phase == "turns" and after.winner is None
    if not after.options.uses_glasses:
        assert after.turn == after.left_of(seat)
    elif after.options.edition == "2020" or before.seats[seat].glasses == 1:
        assert after.turn == after.left_of(seat)
        assert after.seats[seat].glasses == 0
    else:
        assert after.turn == seat and after.seats[seat].glasses == before.seats[seat].glasses - 1


def _check_secrecy(game: Game) -> None:
    """Nothing before the end shows a seat its own holder, except the cards it accused."""
    state = game.state
    mysteries = [eventual_holder(state, i) for i in range(state.players)]
    for seat, cards in game.view_cards:
        assert not cards & mysteries[seat]
    for event in game.events:
        if event.type == "game_over":
            break
        if event.audience.scope != "private":
            continue
        shown = card_ids_in(event)
        for seat in event.audience.seats:
            if isinstance(event, AccusationMade):
                assert event.audience.seats == (event.seat,)
                continue  # the seat's own named cards echoed back; it chose them itself
            assert not shown & mysteries[seat], (seat, event)


def _play(
    players: int, edition: Edition, top_secret: bool, seed: int, finish: bool, drain: bool
) -> Game:
    """Play a bounded number of random legal actions (see `random_action` for `drain`)."""
    options = Options(players=players, edition=edition, top_secret=top_secret)
    state, events = new_game(refs(players), options, seed)
    for event in events:
        assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(event)) == event
    game = Game(options=options, seed=seed, state=state, events=list(events))
    rng = random.Random(seed)
    truth = 0.0 if drain else 0.04
    for _ in range(DRAIN_ACTIONS if drain else MAX_ACTIONS):
        if game.state.phase == "over":
            break
        if rng.random() < 0.004:
            action: Action = Abandon()
        else:
            action = random_action(game.state, rng, truth=truth, drain=drain)
        before = game.state
        game.state, new = apply(before, action)
        game.log.append(action)
        game.events += new
        _check_step(game, before, action, new)
    if finish and game.state.phase != "over":
        _finish_by_truth(game, rng)
    assert GameState.model_validate_json(game.state.model_dump_json()) == game.state
    if game.state.phase != "over":
        last = game.state
        for seat in range(players):
            view = player_view(last, seat)
            game.view_cards.append((seat, card_ids_in(view, exclude={"my_accusations"})))
        assert not card_ids_in(public_view(last))
    return game


def _finish_by_truth(game: Game, rng: random.Random) -> None:
    """The current player accuses its true holder; it must win."""
    while game.state.phase == "passing":
        _step(game, random_action(game.state, rng))
    seat = game.state.turn
    if legal.must_take(game.state):
        _step(game, random_action(game.state, rng))
    holder = game.state.seats[seat].holder
    _step(game, Accuse(seat=seat, person=holder[0], location=holder[1], weapon=holder[2]))
    assert game.state.phase == "over" and game.state.winner == seat


def _check_turn_key(before: GameState, after: GameState) -> None:
    """The turn timer's key changes exactly when the phase or the turn moves on, and always
    when a seat is newly waited on; it holds while the pass phase empties."""
    moved = (before.phase, before.turn_number) != (after.phase, after.turn_number)
    assert (legal.turn_key(after) != legal.turn_key(before)) == moved
    if set(legal.waiting_on(after)) - set(legal.waiting_on(before)):
        assert moved


def _step(game: Game, action: Action) -> None:
    before = game.state
    game.state, new = apply(before, action)
    game.log.append(action)
    game.events += new
    _check_step(game, before, action, new)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@settings(
    max_examples=GAMES_PER_COUNT,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    edition=st.sampled_from(["2020", "2016"]),
    top_secret=st.booleans(),
    finish=st.booleans(),
    drain=st.sampled_from([False, False, True]),
)
def test_random_legal_games_keep_every_invariant(
    players: int, seed: int, edition: Edition, top_secret: bool, finish: bool, drain: bool
) -> None:
    game = _play(players, edition, top_secret and players > 2, seed, finish, drain)
    _check_secrecy(game)
    hypothesis.event(f"ended: {game.state.ended_by or 'still playing'}")
    kinds = {a.type for a in game.log}
    for kind in ("take_glass", "consult", "accuse"):
        if kind in kinds:
            hypothesis.event(f"has {kind}")
    if any(isinstance(a, Ask) and a.top_secret for a in game.log):
        hypothesis.event("has top secret question")
    if game.state.phase == "over":
        over = [e for e in game.events if e.type == "game_over"]
        assert len(over) == 1 and game.events[-1] is over[0]
        reveal = over[0]
        assert reveal.holders == [s.holder for s in game.state.seats]
        assert reveal.screens == [s.screen for s in game.state.seats]
        assert reveal.informants == game.state.informants
    replayed, replay_events = new_game(refs(players), game.options, seed)
    for action in game.log:
        replayed, new = apply(replayed, action)
        replay_events += new
    assert replayed == game.state
    assert replay_events == game.events
