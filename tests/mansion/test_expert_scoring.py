"""The expert's scoring of plays (`outcomes.Board`): how answerers choose the card they show,
the information an outcome brings, checked by hand on a position small enough to list
every deal."""

from __future__ import annotations

from math import log

import pytest

from engine.mansion import player_view
from engine.mansion.deduction import Deal, solve
from engine.mansion.facts import CARD_IDS, INDEX
from engine.mansion.outcomes import Board, Shows
from engine.mansion.views import PlayerView
from tests.mansion.helpers import build_state

UNKNOWN = ["scarlet", "mustard", "white", "balloon", "niagara_falls", "coney_island"]
"""Ann holds every other card; Bea holds three of these, Cid none."""
BEA = ["mustard", "white", "coney_island"]


def small_view() -> PlayerView:
    """Ann (to play, at Coney Island) may face six solutions, one deal each: any of three
    suspects, the balloon, Niagara Falls or Coney Island; Bea holds the rest."""
    ann = [c for c in CARD_IDS if c not in UNKNOWN]
    state = build_state(
        3,
        hands={0: ann, 1: BEA, 2: []},
        markers=["coney_island", "mt_rushmore", "old_faithful"],
    )
    return player_view(state, 0)


def every_deal(view: PlayerView) -> list[Deal]:
    """Each of the six deals once: Bea holds what the solution and Ann do not."""
    ann = sum(1 << INDEX[c] for c in view.clues)
    out = []
    for suspect in ("scarlet", "mustard", "white"):
        for destination in ("niagara_falls", "coney_island"):
            solution = (suspect, "balloon", destination)
            bea = sum(1 << INDEX[c] for c in UNKNOWN if c not in solution)
            out.append(Deal(hands=(ann, bea, 0), solution=solution))
    return out


NAMED = (INDEX["white"], INDEX["balloon"], INDEX["coney_island"])
"""Bea refutes with White or Coney Island (both, in two deals of six); in the deal where
White goes to Coney Island nobody refutes and the solution is pinned."""


def board(**options: object) -> Board:
    view = small_view()
    d = solve(view)
    assert len(d.triples) == 6 and set(d.triples.values()) == {1}
    return Board(view, d, every_deal(view), pins=True, **options)  # type: ignore[arg-type]


def test_answerers_show_any_fitting_card_alike_by_default() -> None:
    """Showing White removes two solutions, Coney Island three, the pin five: holding both,
    Bea shows either alike (2.5)."""
    assert board().suggestion(NAMED) == pytest.approx((2.5 + 2 + 2.5 + 2 + 3 + 5) / 6)


def test_answerers_who_show_the_least_revealing_card_show_the_destination() -> None:
    """Expected to show the least revealing card, Bea holding both shows Coney Island."""
    assert board(shows=Shows(1.0)).suggestion(NAMED) == pytest.approx((3 + 2 + 3 + 2 + 3 + 5) / 6)
    half = board(shows=Shows(0.5)).suggestion(NAMED)
    assert half == pytest.approx((2.75 + 2 + 2.75 + 2 + 3 + 5) / 6)


def test_information_scores_each_outcome_by_the_share_it_leaves() -> None:
    """-ln(left / 6) per outcome: a pin leaving one solution is worth ln 6, not 5 / 6 of
    the pot, so the play that may settle everything ranks higher."""
    got = board(shows=Shows(1.0), information=True).suggestion(NAMED)
    assert got == pytest.approx((3 * log(2) + 2 * log(1.5) + log(6)) / 6)
    assert board(information=True).gain(5) == pytest.approx(log(6))
    assert board().gain(5) == 5


def test_the_least_revealing_card_is_one_shown_before_else_the_larger_kind() -> None:
    white, coney, balloon = INDEX["white"], INDEX["coney_island"], INDEX["balloon"]
    shows = Shows(1.0, {1: frozenset({white})})
    assert shows.chances(1, [white, coney]) == [1.0, 0.0]
    assert shows.chances(2, [white, coney]) == [0.0, 1.0]
    assert shows.chances(2, [white, balloon]) == [0.5, 0.5]
    assert Shows(0.8).chances(2, [white, coney]) == pytest.approx([0.1, 0.9])
    assert Shows().chances(2, [white, coney, balloon]) == pytest.approx([1 / 3] * 3)
