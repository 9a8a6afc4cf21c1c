"""The expert's scoring of plays (`outcomes.Board`): how answerers choose the card they show,
the information an outcome brings, checked by hand on a position small enough to list
every deal; and the play the expert picks for it."""

from __future__ import annotations

import dataclasses
import random
from math import log

import pytest

from engine.mansion import player_view
from engine.mansion.actions import SuggestAny, SuggestPresent, SuperSleuth
from engine.mansion.ai import expert
from engine.mansion.bruteforce import playing_position
from engine.mansion.deduction import Deal, solve
from engine.mansion.facts import CARD_IDS, INDEX
from engine.mansion.observations import TipSeen
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


def test_the_expert_names_a_possible_suspect_that_may_settle_the_game() -> None:
    """Naming Green (Ann's own) surely removes three solutions of six; naming a suspect
    still possible removes fewer on average but may leave one. Scored by information (the
    default) the expert takes the chance; the former expert (counting the worth removed,
    answerers choosing alike, no pins) played safe."""
    green = (INDEX["green"], INDEX["balloon"], INDEX["coney_island"])
    shows = Shows(expert.DEFAULT.play_model)
    assert board(shows=shows).suggestion(green) == pytest.approx(3)
    assert board(shows=shows).suggestion(NAMED) < 3
    assert board(shows=shows, information=True).suggestion(NAMED) > board(
        shows=shows, information=True
    ).suggestion(green) == pytest.approx(log(2))
    view = small_view()
    many = dataclasses.replace(expert.DEFAULT, samples=1000)
    former = dataclasses.replace(many, information=False, pins=False, play_model=0.0)
    for seed in range(3):
        bold = expert.play(view, random.Random(seed), many)
        assert isinstance(bold, SuggestPresent) and bold.suspect in ("scarlet", "mustard", "white")
        safe = expert.play(view, random.Random(seed), former)
        assert safe == SuggestPresent(seat=0, suspect="green", vehicle="balloon")


def test_the_expert_counts_what_a_refutation_after_a_pass_pins() -> None:
    """Cid answered Ann's female-suspect tip with nothing. If Ann names White and Bea cannot
    refute, a card Cid shows pins White to the solution: counted, that makes the suggestion
    beat the Super Sleuth (and keeping the Suggestion from ANY card), which it did not."""
    view = playing_position(random.Random(46), 3, (15, 40))
    assert view.seat == 0 and "white" not in view.clues
    assert any(
        isinstance(o, TipSeen) and (o.seat, o.target, o.card, o.cards) == (0, 2, "tip_female", [])
        for o in view.observations
    )
    many = dataclasses.replace(expert.DEFAULT, samples=600)
    unpinned = dataclasses.replace(many, pins=False)
    for seed in range(2):
        assert expert.play(view, random.Random(seed), many) == SuggestAny(
            seat=0, destination="mt_rushmore", suspect="white", vehicle="seaplane"
        )
        assert isinstance(expert.play(view, random.Random(seed), unpinned), SuperSleuth)
