"""The notes API and the AI entry point the bot wires to: shapes, levels, legality."""

from __future__ import annotations

import random

import pytest

from engine.mansion.ai import choose_action
from engine.mansion.bruteforce import random_game, random_positions
from engine.mansion.legal import legal_actions
from engine.mansion.notes import Assist, Notes, notes
from engine.mansion.views import player_view


@pytest.mark.parametrize("assist", ["off", "bookkeeping", "full"])
def test_notes_shape_and_json(assist: Assist) -> None:
    rng = random.Random(7)
    for _, view in random_positions(rng, 4, "standard", [10, 40]):
        grid = notes(view, assist)
        assert len(grid.cards) == 21
        assert all(len(row.marks) == 4 for row in grid.cards)
        for card in view.clues:
            assert grid.row(card).marks[view.seat] == "held"
        assert Notes.model_validate_json(grid.model_dump_json()) == grid
        if assist == "full":
            assert grid.possible and grid.solutions
            assert abs(sum(r.solution_probability or 0 for r in grid.cards) - 3) < 1e-9


def test_easy_answers_with_a_legal_action() -> None:
    rng = random.Random(3)
    for state, view in random_positions(rng, 3, "one_against_all", [5, 20, 35]):
        if view.prompt is not None:
            assert choose_action(view, "easy", rng) in legal_actions(state, view.seat)


@pytest.mark.parametrize("assist", ["off", "bookkeeping", "full"])
def test_notes_before_the_deal_are_blank(assist: Assist) -> None:
    """One Against All: while the fugitive chooses, nothing is dealt and nothing is known."""
    rng = random.Random(1)
    state = random_game(rng, 4, "one_against_all")
    assert state.phase == "choosing_solution"
    grid = notes(player_view(state, 0), assist)
    assert all(m == "unknown" for row in grid.cards for m in [*row.marks, row.solution])
    assert grid.solved is None
