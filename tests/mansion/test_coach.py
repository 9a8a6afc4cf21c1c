"""The Mansion coach: every play ranked, figures close to the brute-force reference, the
accusation only once certain, and nothing read but the seat's own view."""

from __future__ import annotations

import random

import pytest

from engine.mansion.actions import Accuse, Move, ShowCard, Snoop, SuggestPresent
from engine.mansion.bruteforce import TooLarge, play_left, playing_position
from engine.mansion.coach import advise, move_key, plays
from engine.mansion.deduction import solve
from engine.mansion.views import PlayerView, player_view
from tests.mansion.helpers import CERTAIN_HANDS, build_state
from tests.mansion.helpers import play as play_actions
from tests.mansion.literal_reference import literal_play_left


def playing_positions(seed: int, count: int) -> list[tuple[int, PlayerView]]:
    """Seeded random positions seen by the seat that is to play."""
    rng = random.Random(seed)
    out: list[tuple[int, PlayerView]] = []
    while len(out) < count:
        players = rng.choice([3, 4, 5])
        out.append((players, playing_position(rng, players, (15, 60))))
    return out


def test_every_play_is_ranked_once_best_first() -> None:
    for _, view in playing_positions(1, 6):
        advice = advise(view)
        keys = [move_key(r.move) for r in advice.ranked]
        assert sorted(keys) == sorted(move_key(p) for p in plays(view))
        assert len(set(keys)) == len(keys)
        lefts = [r.left for r in advice.ranked]
        assert lefts == sorted(lefts)
        assert all(1 - 1e-9 <= x <= advice.solutions + 1e-9 for x in lefts)
        assert advice.solutions == len(solve(view).triples)


def test_a_move_teaches_nothing_and_a_snoop_at_least_as_much_as_a_move() -> None:
    state = build_state(3, actions={0: ["suggest_present", "snoop"]})
    view = player_view(state, 0)
    advice = advise(view)
    move = next(r for r in advice.ranked if isinstance(r.move, Move))
    assert move.left == advice.solutions
    snoop = next(r for r in advice.ranked if isinstance(r.move, Snoop))
    assert snoop.left < move.left


def test_the_figures_stay_close_to_brute_force_and_the_top_play_is_near_best() -> None:
    checked = 0
    for _, view in playing_positions(7, 8):
        try:
            reference = play_left(view, budget=20_000)
        except TooLarge:
            continue
        advice = advise(view)
        errors = [abs(r.left - reference[move_key(r.move)]) for r in advice.ranked]
        assert sum(errors) / len(errors) <= 0.15 * advice.solutions
        regret = reference[move_key(advice.ranked[0].move)] - min(reference.values())
        assert regret <= 0.1 * advice.solutions
        checked += 1
    assert checked >= 3


def test_the_fast_reference_equals_the_literal_one() -> None:
    """`play_left` counts each distinct reading of the deals once instead of reading every
    deal for every play: the same figure for every play, on seeded positions of 3 to 5."""
    checked: set[int] = set()
    for players, view in playing_positions(11, 14):
        try:
            fast = play_left(view, budget=20_000)
        except TooLarge:
            continue
        literal = literal_play_left(view, budget=20_000)
        assert fast.keys() == literal.keys()
        for key, figure in literal.items():
            assert fast[key] == pytest.approx(figure, rel=1e-12, abs=1e-12), key
        checked.add(players)
    assert len(checked) >= 2


def test_the_accusation_is_advised_once_certain_and_not_before() -> None:
    state = build_state(3, hands=CERTAIN_HANDS)
    assert advise(player_view(state, 0)).accusation is None
    state, _ = play_actions(
        state,
        SuggestPresent(seat=0, suspect="white", vehicle="seaplane"),
        ShowCard(seat=1, card="white"),
    )
    advice = advise(player_view(state, 0))
    assert advice.accusation == Accuse(
        seat=0, suspect="scarlet", vehicle="balloon", destination="niagara_falls"
    )
    best = advice.best()
    assert best is not None and best.move == advice.accusation


@pytest.mark.parametrize("seed", [3, 4])
def test_the_same_view_always_gets_the_same_advice(seed: int) -> None:
    """The sample is seeded from the view: a hint asked twice does not change."""
    for _, view in playing_positions(seed, 2):
        again = view.model_copy(deep=True)
        assert advise(view) == advise(again)
