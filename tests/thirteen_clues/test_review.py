"""The review replays a finished game from its record, seat by seat, as the seat knew it."""

from __future__ import annotations

import random

import pytest

from engine.errors import RuleError
from engine.thirteen_clues import GameState, Options, PlayerRef, apply, legal, new_game
from engine.thirteen_clues import actions as act
from engine.thirteen_clues.ai import choose_action
from engine.thirteen_clues.coach import accusation_figures, advise
from engine.thirteen_clues.deduction import solve
from engine.thirteen_clues.review import move_of, review, view_before
from engine.thirteen_clues.views import PlayerView, player_view

KNOWN = ("questions", "secret_questions", "my_accusations", "peeks", "holders", "screen",
         "letters", "seat")


def _played(players: int, seed: int, levels: tuple[str, ...] = ("expert", "normal")
            ) -> tuple[GameState, list[tuple[int, PlayerView]]]:
    """A whole AI game, with the view of the actor before each action of play."""
    state, _ = new_game([PlayerRef(id=str(i), name=f"P{i}") for i in range(players)],
                        Options(players=players, edition=random.Random(seed).choice(
                            ("2020", "2016")), top_secret=players > 2), seed)
    rng = random.Random(seed)
    before: list[tuple[int, PlayerView]] = []
    while state.phase != "over":
        for seat in legal.waiting_on(state):
            view = player_view(state, seat)
            level = levels[seat % len(levels)]
            action = choose_action(view, level, rng)  # type: ignore[arg-type]
            if action.type in ("ask", "consult", "accuse"):
                before.append((seat, view))
            state, _ = apply(state, action)
            if state.phase != "passing":
                break
    return state, before


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_each_position_is_what_the_seat_knew(players: int, seed: int) -> None:
    final, before = _played(players, seed)
    assert len(final.played) == len(before)
    for index, (seat, view) in enumerate(before):
        again = view_before(final, seat, index)
        assert again.model_dump(include=set(KNOWN)) == view.model_dump(include=set(KNOWN))
        assert final.played[index].seat == seat


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (5, 6)])
def test_the_review_scores_every_move_of_the_seat(players: int, seed: int) -> None:
    final, before = _played(players, seed)
    for seat in range(players):
        mine = [(i, v) for i, (s, v) in enumerate(before) if s == seat]
        result = review(final, seat)
        assert result.complete
        assert len(result.steps) == len(mine)
        for step, (index, view) in zip(result.steps, mine, strict=True):
            advice = advise(view)
            move = move_of(final, index)
            expected = (accusation_figures(solve(view), (move.person, move.location,
                                                         move.weapon))
                        if isinstance(move, act.Accuse) else advice.rated(move))
            assert expected is not None
            assert step.played.left == pytest.approx(expected.left)
            assert step.played.bits == pytest.approx(expected.bits)
            best = advice.best()
            assert best is not None and step.best.left == pytest.approx(best.left)
            assert step.mysteries == advice.mysteries
        certain_at = [final.played[i].turn for i, v in mine if solve(v).certain()]
        assert result.could_accuse == (certain_at[0] if certain_at else None)


def test_the_moments_each_card_became_certain() -> None:
    final, _ = _played(4, 8)
    winner = final.winner
    assert winner is not None
    result = review(final, winner)
    assert set(result.certain) == set(final.seats[winner].holder)
    for card, moment in result.certain.items():
        assert moment is not None  # the winner's right accusation settles it at the latest
        then = solve(view_before(final, winner, moment.after))
        assert then.status(card) == "certain"
        if moment.after:
            assert solve(view_before(final, winner, moment.after - 1)).status(card) != "certain"


def test_no_review_before_the_end_and_none_to_replay_for_an_old_game() -> None:
    state, _ = new_game([PlayerRef(id=str(i), name=str(i)) for i in range(3)],
                        Options(players=3), 1)
    with pytest.raises(RuleError):
        review(state, 0)
    final, _ = _played(3, 9)
    old = final.model_copy(update={"played": []})
    assert not review(old, 0).complete
    ended, _ = apply(state, act.Abandon())
    assert not review(ended, 0).complete
