"""Odds accounting for how players choose: a distribution over the exact possible holders,
certain and impossible cards kept, and moved the way the pass model says."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.thirteen_clues import GameState, PlayerView, apply, choices, player_view
from engine.thirteen_clues.actions import ChoosePass
from engine.thirteen_clues.ai import choose_action
from engine.thirteen_clues.bruteforce import true_triple
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.choices import PASS_MODEL, odds, pass_chance
from engine.thirteen_clues.deduction import slot_joint, solve
from testkit.thirteen_clues import fresh_game, turns_view


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_the_choice_odds_are_a_distribution_that_keeps_the_exact_marks(
    seed: int, players: int
) -> None:
    view = turns_view(seed, players)
    exact = solve(view)
    chosen = odds(view)
    assert chosen == odds(view, slot_joint(view))  # the passer's screen alone, as the whole
    assert chosen == odds(view, solved=exact)  # going on from the solve's counts
    assert set(chosen.triples) == set(exact.triples)
    assert sum(chosen.triples.values()) == pytest.approx(1.0)
    assert all(0 < p <= 1 for p in chosen.triples.values())
    for card in CARDS:
        status = exact.status(card)
        if status == "ruled_out":
            assert chosen.probability(card) == 0.0
        elif status == "certain":
            assert chosen.probability(card) == pytest.approx(1.0)
        else:
            assert 0 < chosen.probability(card) < 1


def _ai_passed(players: int, seed: int) -> tuple[GameState, PlayerView]:
    """The state at the first turn, every seat having passed as the normal AI does, and the
    view of seat 0."""
    state, _ = fresh_game(players, seed=seed)
    rng = random.Random(seed)
    for seat in range(players):
        action = choose_action(player_view(state, seat), "normal", rng)
        assert isinstance(action, ChoosePass)
        state, _ = apply(state, action)
    assert state.phase == "turns"
    return state, player_view(state, 0)


def _three_suits(triple: tuple[str, str, str]) -> bool:
    return len({CARDS[c].suit for c in triple}) == 3


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_odds_lean_to_the_holders_a_careful_passer_makes(players: int) -> None:
    """Before any question, a holder of three suits (what the careful AI passes) is likelier
    than the uniform count says, and one with two cards of a suit less likely."""
    _, view = _ai_passed(players, seed=players)
    exact, chosen = solve(view), odds(view)
    uniform = sum(exact.triple_probability(t) for t in exact.triples if _three_suits(t))
    model = sum(p for t, p in chosen.triples.items() if _three_suits(t))
    assert 0 < uniform < 1
    assert model > uniform + 0.05


def test_a_pass_that_the_careful_ai_makes_is_likelier_than_one_it_avoids() -> None:
    # Officer, Parlor, Knife are all Purple: the careful AI never passes the three together
    # when it can mix suits, and keeps the passed suits' other cards behind its screen.
    mixed = pass_chance(("officer", "market", "knife"), ("parlor", "crossbow"))
    one_suit = pass_chance(("officer", "parlor", "knife"), ("market", "crossbow"))
    assert mixed > one_suit > 0


def test_on_ai_passed_deals_the_true_holder_is_likelier_under_the_choice_odds() -> None:
    """The model is of the AI's passes: against them it is the better forecast."""
    better = 0
    games = 20
    for seed in range(games):
        state, view = _ai_passed(4, seed=100 + seed)
        truth = true_triple(state, 0)
        exact, chosen = solve(view), odds(view)
        better += chosen.triple_probability(truth) > exact.triple_probability(truth)
    assert better >= games * 0.7


def test_a_pass_chance_is_worked_out_once_per_shape_and_is_the_same_for_every_deal() -> None:
    """`pass_chance` is kept per shape of deal (categories, which cards share a suit, which
    are in the holder), not per pair of card sets: a few hundred shapes where 5,000 random
    deals are 5,000 pairs, and each deal's chance is what working it out for those very
    cards gives (114 shapes in all)."""
    rng = random.Random(19)
    by_category = {cat: [c for c in CARDS if CARDS[c].category == cat] for cat in Category}
    deals: set[tuple[tuple[str, str, str], tuple[str, ...]]] = set()
    while len(deals) < 5000:
        person, location, weapon = (rng.choice(by_category[cat]) for cat in Category)
        holder = (person, location, weapon)
        rest = sorted(c for c in CARDS if c not in holder)
        deals.add((holder, tuple(rng.sample(rest, 2))))
    for holder, screen in sorted(deals):
        worked_out = choices._chance(frozenset(holder), frozenset(screen), PASS_MODEL)
        assert pass_chance(holder, screen) == worked_out, (holder, screen)
    assert len(choices._BY_SHAPE) < 500
