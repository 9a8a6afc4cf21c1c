"""Odds accounting for how players choose (Mansion): a distribution over the exact possible
solutions, certain and impossible cards kept, the estimate close to the exact weighted sum
over every deal, and moved the way the show model says."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.mansion.actions import ShowCard, SuggestPresent
from engine.mansion.bruteforce import TooLarge, brute_force, random_positions
from engine.mansion.cards import CLUES
from engine.mansion.choices import choices, odds, weigh, weight
from engine.mansion.deduction import Deal
from engine.mansion.facts import INDEX
from engine.mansion.state import Variant
from engine.mansion.views import PlayerView, player_view
from tests.mansion.helpers import build_state
from tests.mansion.helpers import play as play_actions


def _with_choices(seed: int) -> PlayerView:
    """A random position whose seat was shown at least one card it had to choose from."""
    rng = random.Random(seed)
    while True:
        players = rng.choice([3, 4])
        variant: Variant = rng.choice(["standard", "one_against_all"])
        for _, view in random_positions(rng, players, variant, [rng.randint(15, 50)]):
            if choices(view):
                return view


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_the_choice_odds_are_a_distribution_that_keeps_the_exact_marks(seed: int) -> None:
    view = _with_choices(seed)
    d, chosen = odds(view, samples=128)
    assert set(chosen.triples) == set(d.triples)
    assert sum(chosen.triples.values()) == pytest.approx(1.0)
    assert all(0 < p <= 1 for p in chosen.triples.values())
    for card in CLUES:
        exact = d.solution_probability(card)
        if exact == 0:
            assert chosen.solution_probability(card) == 0.0
        elif exact == 1:
            assert chosen.solution_probability(card) == pytest.approx(1.0)
        else:
            assert 0 < chosen.solution_probability(card) < 1


def _every_deal(view: PlayerView) -> list[Deal]:
    deals: list[Deal] = []

    def visit(hands: dict[int, frozenset[str]], triple: tuple[str, str, str]) -> None:
        masks = tuple(sum(1 << INDEX[c] for c in hands[s]) for s in range(len(view.seats)))
        deals.append(Deal(hands=masks, solution=triple))

    brute_force(view, 30_000, visit)
    return deals


def test_weighed_over_every_deal_the_odds_are_the_exact_weighted_sum() -> None:
    """With every deal as the sample, the estimate is the exact posterior of the model; with
    the seeded sample it stays within a few points of it."""
    checked = 0
    for seed in range(40):
        view = _with_choices(seed)
        try:
            deals = _every_deal(view)
        except TooLarge:
            continue
        seen = choices(view)
        d, sampled = odds(view)
        exact: dict[tuple[str, str, str], float] = {}
        for deal in deals:
            hands = {s: frozenset(c for c in CLUES if m >> INDEX[c] & 1)
                     for s, m in enumerate(deal.hands)}
            exact[deal.solution] = exact.get(deal.solution, 0.0) + weight(seen, hands)
        total = sum(exact.values())
        whole = weigh(d, deals, seen, 0.8)
        for triple in d.triples:
            assert whole.triple_probability(triple) == pytest.approx(exact[triple] / total)
            assert abs(sampled.triple_probability(triple) - exact[triple] / total) < 0.08
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_a_suspect_shown_makes_the_refuter_less_likely_to_hold_the_named_destination() -> None:
    """The AI shows a destination before a suspect: shown the suspect, the seat should think
    the refuter less likely to hold the destination, so the destination likelier in the
    solution than the uniform count says."""
    state = build_state(
        3,
        hands={0: ["train", "white", "green", "old_faithful", "alamo", "limousine"],
               1: ["mustard", "hoover_dam", "peacock", "seaplane", "airliner", "golden_gate"]},
        markers=["hoover_dam", "coney_island", "mt_rushmore"],
    )
    state, _ = play_actions(
        state,
        SuggestPresent(seat=0, suspect="mustard", vehicle="train"),
        ShowCard(seat=1, card="mustard"),
    )
    view = player_view(state, 0)
    assert len(choices(view)) == 1
    d, chosen = odds(view)
    uniform = d.solution_probability("hoover_dam")
    assert 0 < uniform < 1
    assert chosen.solution_probability("hoover_dam") > uniform + 0.02


def test_without_a_choice_seen_the_odds_are_the_exact_ones() -> None:
    state = build_state(3)
    view = player_view(state, 0)
    assert choices(view) == []
    d, chosen = odds(view)
    for triple in d.triples:
        assert chosen.triple_probability(triple) == pytest.approx(d.triple_probability(triple))
