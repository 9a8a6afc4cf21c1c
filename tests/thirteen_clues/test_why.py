"""Every "why" chain, checked by the solver alone, proves its mark."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.thirteen_clues.why as why_module
from engine.thirteen_clues.cards import CARDS
from engine.thirteen_clues.deduction import bookkeeping, solve
from engine.thirteen_clues.state import Question
from engine.thirteen_clues.views import PlayerView
from engine.thirteen_clues.why import (
    Chains,
    Fact,
    Why,
    explain,
    proves,
    restricted,
    where,
)
from testkit.thirteen_clues import turns_view


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_every_full_assist_chain_proves_its_mark(seed: int, players: int) -> None:
    view = turns_view(seed, players)
    result = solve(view)
    for card in CARDS:
        why = explain(view, card)
        assert why.mark == result.status(card)
        if why.mark == "candidate":
            assert why.probability == result.probability(card)
            assert not proves(view, why)
            continue
        assert proves(view, why), (card, why)
        # no premise of the chain can be dropped: each one is needed
        for dropped in why.premises:
            shorter = Why(card, why.mark, premises=tuple(p for p in why.premises
                                                         if p is not dropped))
            assert not proves(view, shorter)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_every_bookkeeping_chain_proves_its_mark(seed: int, players: int) -> None:
    view = turns_view(seed, players)
    marks = bookkeeping(view)
    for card in CARDS:
        why = explain(view, card, "bookkeeping")
        assert why.mark == marks[card]
        if why.mark == "ruled_out":
            assert proves(view, why)
            assert why.sight is not None or (
                len(why.premises) == 1 and isinstance(why.premises[0], Question)
                and why.premises[0].answer == 0
            )


def reference(view: PlayerView, card: str) -> Why:
    """The chain as first written, one card alone and nothing kept between solves: sight
    alone, then each fact alone, then every fact less those it can drop one at a time."""
    def holds(premises: tuple[Fact, ...]) -> bool:
        result = solve(restricted(view, premises))
        return result.total > 0 and result.status(card) == mark

    result = solve(view)
    mark = result.status(card)
    if mark == "candidate":
        return Why(card, mark, probability=result.probability(card))
    if (sight := where(view, card)) is not None:
        return Why(card, mark, sight=sight)
    facts = why_module.informative(view)
    for premises in ((), *((f,) for f in facts)):
        if holds(premises):
            return Why(card, mark, premises=premises)
    kept = list(facts)
    for fact in facts:
        trial = [f for f in kept if f is not fact]
        if holds(tuple(trial)):
            kept = trial
    return Why(card, mark, premises=tuple(kept))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_one_view_s_chains_solve_each_premise_set_once(
        players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A casebook explains every deduced card with one `Chains`: the same chains as each
    card explained alone as first written (`reference`), and no set of premises solved
    twice."""
    solved: list[tuple[int, ...]] = []
    real = why_module.restricted

    def counted(view: PlayerView, premises: tuple[Fact, ...]) -> PlayerView:
        solved.append(tuple(id(p) for p in premises))
        return real(view, premises)

    for seed in range(4):
        view = turns_view(seed, players)
        alone = {card: reference(view, card) for card in CARDS}
        solved.clear()
        with monkeypatch.context() as patch:
            patch.setattr(why_module, "restricted", counted)
            chains = Chains(view)
            assert {card: chains.explain(card) for card in CARDS} == alone
        assert len(solved) == len(set(solved)), (seed, players)


def test_a_chain_that_claims_too_much_is_refused() -> None:
    """`proves` really checks: a candidate claimed ruled out, or a wrong sight, fails."""
    view = turns_view(3, 4)
    result = solve(view)
    open_card = next(c for c in CARDS if result.status(c) == "candidate")
    assert not proves(view, Why(open_card, "ruled_out"))
    assert not proves(view, Why(open_card, "ruled_out", sight=("screen", "")))
    seen = view.screen[0]
    assert where(view, seen) == ("screen", "")
    assert proves(view, Why(seen, "ruled_out", sight=("screen", "")))


def test_restricted_keeps_only_the_premises() -> None:
    view = turns_view(11, 5)
    kept = restricted(view, ())
    assert kept.questions == [] and kept.secret_questions == [] and kept.my_accusations == []
    assert kept.holders == view.holders and kept.screen == view.screen
