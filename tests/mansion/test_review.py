"""The Mansion review replays the last game from its true log, seat by seat, as each knew it."""

from __future__ import annotations

import random

import pytest

from engine.errors import RuleError
from engine.mansion import legal
from engine.mansion.actions import Abandon, Accuse
from engine.mansion.ai import choose_action
from engine.mansion.coach import advise, move_key
from engine.mansion.deduction import solve
from engine.mansion.review import Position, at, move_at, review, view_at, walk
from engine.mansion.rules import apply
from engine.mansion.state import GameState
from engine.mansion.views import PlayerView, player_view
from tests.mansion.helpers import fresh_game

KNOWN = ("seat", "clues", "actions", "observations", "solution", "fugitive", "tray")


def _played(players: int, seed: int, variant: str = "standard", series_wins: int = 1,
            every: bool = False) -> tuple[GameState, list[tuple[int, str, PlayerView, object]]]:
    """A whole AI game, with the turn player's view before each of its turn moves (a play
    at its play prompt, an accusation or an end at its accuse-or-end prompt) in its last
    game (`every`: in every game of the series)."""
    state, _ = fresh_game(players, variant, seed, series_wins)  # type: ignore[arg-type]
    rng = random.Random(seed)
    seen: list[tuple[int, str, PlayerView, object]] = []
    while state.phase != "over":
        seat = legal.waiting_on(state)[0]
        view = player_view(state, seat)
        level = ("expert", "normal", "easy")[seat % 3]
        action = choose_action(view, level, rng)  # type: ignore[arg-type]
        if view.prompt is not None and view.prompt.kind in ("play", "accuse_or_end"):
            seen.append((state.round, view.prompt.kind, view, action))
        state, _ = apply(state, action)
    last = state.round
    return state, [s for s in seen if every or s[0] == last]


def _same(a: PlayerView, b: PlayerView) -> None:
    assert a.model_dump(include=set(KNOWN)) == b.model_dump(include=set(KNOWN))
    assert [s.marker for s in a.seats] == [s.marker for s in b.seats]
    assert [s.eliminated for s in a.seats] == [s.eliminated for s in b.seats]
    assert a.prompt is not None and b.prompt is not None and a.prompt.kind == b.prompt.kind


@pytest.mark.parametrize(("players", "seed", "variant"),
                         [(3, 1, "standard"), (4, 2, "standard"), (5, 3, "standard"),
                          (4, 4, "one_against_all")])
def test_each_position_is_what_the_seat_knew(players: int, seed: int, variant: str) -> None:
    final, seen = _played(players, seed, variant)
    positions = [p for p in walk(final.rounds[-1]) if p.stage in ("play", "after")]
    assert len(positions) == len(seen)
    for position, (_, stage, view, action) in zip(positions, seen, strict=True):
        assert position.seat == view.seat
        assert position.stage == {"play": "play", "accuse_or_end": "after"}[stage]
        _same(view_at(final, position), view)
        move = move_at(final.rounds[-1].log, position)
        if stage == "play" or isinstance(action, Accuse):
            assert move is not None and move_key(move) == move_key(action)  # type: ignore[arg-type]
        else:
            assert move is None  # the turn ended


def test_the_last_game_of_a_series_is_rebuilt_too() -> None:
    final, seen = _played(3, 6, series_wins=2)
    assert len(final.rounds) >= 2
    positions = [p for p in walk(final.rounds[-1]) if p.stage in ("play", "after")]
    assert len(positions) == len(seen)
    for position, (_, _, view, _) in zip(positions, seen, strict=True):
        _same(view_at(final, position), view)


def test_every_game_of_a_series_is_reviewed_as_the_seat_knew_it() -> None:
    final, seen = _played(3, 6, series_wins=2, every=True)
    assert len(final.rounds) >= 2
    for game, kept in enumerate(final.rounds, start=1):
        for seat in range(3):
            result = review(final, seat, game)
            assert result.complete and result.round == game
            assert result.solution == kept.solution.cards()  # type: ignore[union-attr]
            mine = [(view, action) for number, stage, view, action in seen
                    if number == game and view.seat == seat
                    and (stage == "play" or isinstance(action, Accuse))]
            assert len(result.steps) == len(mine), (game, seat)
            for step, (view, action) in zip(result.steps, mine, strict=True):
                assert move_key(step.played.move) == move_key(action)  # type: ignore[arg-type]
                assert step.solutions == len(solve(view).triples)
    assert review(final, 0, len(final.rounds)) == review(final, 0)
    with pytest.raises(RuleError):
        review(final, 0, len(final.rounds) + 1)


def test_a_finished_game_of_a_series_is_reviewed_while_the_next_is_played() -> None:
    """At the end of game 1 the table plays on; game 1 is over, so it is reviewed, the same
    as from the finished table (nothing of game 2 is read), and game 2 is not yet."""
    final, _ = _played(3, 6, series_wins=2)
    state, _ = fresh_game(3, "standard", 6, 2)
    rng = random.Random(6)
    while len(state.rounds) < 1:
        seat = legal.waiting_on(state)[0]
        level = ("expert", "normal", "easy")[seat % 3]
        state, _ = apply(state, choose_action(player_view(state, seat), level, rng))  # type: ignore[arg-type]
    assert state.phase != "over" and state.round == 2
    assert state.rounds[0] == final.rounds[0]
    for seat in range(3):
        assert review(state, seat, 1) == review(final, seat, 1)
    with pytest.raises(RuleError):
        review(state, 0)  # the table is not over: no "last game" to name
    with pytest.raises(RuleError):
        review(state, 0, 2)  # game 2 is being played


@pytest.mark.parametrize(("players", "seed"), [(3, 7), (4, 8)])
def test_the_review_scores_every_move_of_the_seat(players: int, seed: int) -> None:
    final, seen = _played(players, seed)
    for seat in range(players):
        result = review(final, seat)
        assert result.complete
        assert result.solution == final.rounds[-1].solution.cards()  # type: ignore[union-attr]
        mine = [(stage, view, action) for _, stage, view, action in seen
                if view.seat == seat and (stage == "play" or isinstance(action, Accuse))]
        assert len(result.steps) == len(mine)
        for step, (stage, view, action) in zip(result.steps, mine, strict=True):
            assert move_key(step.played.move) == move_key(action)  # type: ignore[arg-type]
            d = solve(view)
            assert step.solutions == len(d.triples)
            if isinstance(action, Accuse):
                named = (action.suspect, action.vehicle, action.destination)
                assert step.chance == pytest.approx(d.triple_probability(named))
                if stage == "accuse_or_end" and d.certain() is None:
                    assert step.best is None  # the coach would have ended the turn
                continue
            advice = advise(view)
            rated = advice.rated(action)  # type: ignore[arg-type]
            assert rated is not None and step.played.left == pytest.approx(rated.left)
            best = advice.best()
            assert best is not None and step.best is not None
            assert move_key(step.best.move) == move_key(best.move)
        certain = [view.turn_number for _, _, view, _ in seen
                   if view.seat == seat and solve(view).certain() is not None]
        assert result.could_accuse == (certain[0] if certain else None)


def test_the_moments_each_card_became_certain() -> None:
    final, _ = _played(4, 9)
    last = final.rounds[-1]
    winner = last.winner
    assert winner is not None and last.how == "solved"
    result = review(final, winner)
    assert set(result.certain) == set(result.solution)
    starts = [p for p in walk(last) if p.stage in ("play", "end")]
    for card, moment in result.certain.items():
        assert moment is not None  # the winner's right accusation settles it at the latest
        k = 0 if moment.turn == 0 else next(
            i + 1 for i, p in enumerate(starts) if p.stage == "play" and p.turn == moment.turn)
        d = solve(player_view_at(final, starts[k], winner))
        assert d.holders[card][-1] == d.total
        if k:
            before = solve(player_view_at(final, starts[k - 1], winner))
            assert before.holders[card][-1] < before.total
    loser = next(s for s in range(4) if s != winner)
    other = review(final, loser)
    # the right accusation reveals the solution to the whole table: certain for all then
    assert all(m is not None for m in other.certain.values())


def player_view_at(state: GameState, position: Position, seat: int) -> PlayerView:
    return player_view(at(state, position), seat)


def test_no_review_before_the_end_and_none_for_an_old_or_unplayed_game() -> None:
    state, _ = fresh_game(3, "standard", 1)
    with pytest.raises(RuleError):
        review(state, 0)
    ended, _ = apply(state, Abandon(reason="bye"))
    early = review(ended, 0)
    assert early.complete  # the first turn's draw was made: its review is short but real
    final, _ = _played(3, 10)
    old_log = [r.model_copy(update={"actions": []}) if r.kind == "dealt" else r
               for r in final.rounds[-1].log]
    old = final.model_copy(update={"rounds": [final.rounds[-1].model_copy(
        update={"log": old_log})]})
    assert not review(old, 0).complete
