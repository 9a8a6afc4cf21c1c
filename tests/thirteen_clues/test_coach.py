"""The coach ranks every legal move of the seat by the exact expected mysteries left."""

from __future__ import annotations

import random

import pytest

from engine.thirteen_clues import Options, PlayerRef, apply, legal, new_game
from engine.thirteen_clues import actions as act
from engine.thirteen_clues.ai import choose_action
from engine.thirteen_clues.bruteforce import TooLarge, move_left, random_positions
from engine.thirteen_clues.coach import Advice, accusation_figures, advise, move_key
from engine.thirteen_clues.deduction import solve
from engine.thirteen_clues.views import PlayerView, player_view

BUDGET = 200_000


def _views(players: int, count: int, seed: int) -> list[PlayerView]:
    rng = random.Random(seed)
    views: list[PlayerView] = []
    while len(views) < count:
        for _, view in random_positions(rng, players, 3, max_actions=30):
            if view.phase == "turns":
                views.append(view)
    return views[:count]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_figures_match_the_literal_enumeration(players: int) -> None:
    checked = 0
    for view in _views(players, 8, seed=players):
        try:
            reference = move_left(view, budget=BUDGET)
        except TooLarge:
            continue
        advice = advise(view)
        assert {move_key(r.move) for r in advice.ranked} == set(reference)
        for rated in advice.ranked:
            assert rated.left == pytest.approx(reference[move_key(rated.move)], abs=1e-9)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_legal_move_is_ranked_best_first(players: int) -> None:
    view = _views(players, 1, seed=10 + players)[0]
    advice = advise(view)
    asks = {
        (w, s, side)
        for w in legal.witnesses(view, view.seat)
        for s in legal.question_subjects(view)
        for side in legal.sides(view)
    }
    ranked_asks = {(m.witness, m.subject, m.side) for r in advice.ranked
                   if isinstance(m := r.move, act.Ask)}
    letters = [r.move.letter for r in advice.ranked if isinstance(r.move, act.Consult)]
    assert ranked_asks == asks
    assert sorted(letters) == legal.informant_letters(view)
    lefts = [r.left for r in advice.ranked]
    assert lefts == sorted(lefts)
    assert all(r.move.seat == view.seat for r in advice.ranked)
    assert all(1 <= r.left <= advice.mysteries + 1e-9 for r in advice.ranked)
    assert len(advice.top()) == 3


def test_a_repeated_question_teaches_nothing() -> None:
    for view in _views(4, 6, seed=3):
        asked = [q for q in view.questions if q.asker == view.seat and not q.top_secret]
        if not asked:
            continue
        q = asked[0]
        rated = advise(view).rated(act.Ask(seat=view.seat, witness=q.witness, subject=q.subject))
        assert rated is not None
        assert rated.left == pytest.approx(len(solve(view).triples))
        assert rated.bits == pytest.approx(0.0, abs=1e-9)
        return
    pytest.fail("no position with a question of the seat's own")


def _played_views(players: int, seed: int) -> list[PlayerView]:
    """The views of whoever acts, through a game of normal detectives (the exact deduction
    of their views reaches certainty before their notepads do, so some views are certain;
    experts guess before)."""
    state, _ = new_game([PlayerRef(id=str(i), name=str(i)) for i in range(players)],
                        Options(players=players), seed)
    rng = random.Random(seed)
    views = []
    while state.phase != "over":
        for seat in legal.waiting_on(state):
            view = player_view(state, seat)
            if legal.duty(view, seat) == "act":
                views.append(view)
            state, _ = apply(state, choose_action(view, "normal", rng))
            if state.phase != "passing":
                break
    return views


def test_the_accusation_is_advised_only_once_certain() -> None:
    seen_certain = seen_open = False
    for view in _played_views(3, seed=7):
        result = solve(view)
        advice = advise(view, result)
        best = advice.best()
        assert best is not None
        if result.certain() is not None:
            seen_certain = True
            assert isinstance(advice.accusation, act.Accuse)
            assert isinstance(best.move, act.Accuse)
            assert {best.move.person, best.move.location, best.move.weapon} == set(
                result.certain() or ())
        else:
            seen_open = True
            assert advice.accusation is None
            assert not isinstance(best.move, act.Accuse)
    assert seen_certain and seen_open


def test_accusation_figures() -> None:
    view = _views(4, 1, seed=5)[0]
    result = solve(view)
    triple = result.candidates()[0]
    rated = accusation_figures(result, triple)
    p = result.triple_probability(triple)
    assert rated.left == pytest.approx(p + (1 - p) * (len(result.triples) - 1))
    assert isinstance(rated.move, act.Accuse)


def test_advice_is_a_function_of_the_view_only() -> None:
    """Two deals that the seat cannot tell apart get the same advice."""
    view = _views(5, 1, seed=9)[0]
    again = PlayerView.model_validate_json(view.model_dump_json())
    first, second = advise(view), advise(again)
    assert isinstance(first, Advice)
    assert [(move_key(r.move), r.left, r.bits) for r in first.ranked] == [
        (move_key(r.move), r.left, r.bits) for r in second.ranked
    ]
