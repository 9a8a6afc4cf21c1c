"""Arbitrary (mostly illegal) actions on random reachable tables.

Every action is either applied, or refused with a RuleError that reads well to a player and
leaves the state untouched; never another exception. What `legal.legal_actions` lists is
exactly what `apply` accepts.
"""

from __future__ import annotations

import random

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.mansion import actions as act
from engine.mansion import apply, legal
from engine.mansion.cards import ACTIONS, CLUES
from engine.mansion.state import GameState, Variant

from .helpers import assert_reads_well, fresh_game, random_action

JUNK = ["batmobile", "", "Plum", "Mt. Rushmore"]
CARDS = [*CLUES, *ACTIONS, *JUNK]


def reachable(seed: int, players: int, variant: Variant, steps: int) -> GameState:
    state, _ = fresh_game(players, variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state, _ = apply(state, random_action(state, rng, truth=0.01, guess=0.03))
    return state


def _actions(state: GameState) -> st.SearchStrategy[act.Action]:
    """A legal action, one with a single field changed (a near miss), or a wild one."""
    n = state.players
    seats = st.integers(min_value=-1, max_value=n)
    cards = st.sampled_from(CARDS)
    pools: dict[str, st.SearchStrategy[object]] = {
        "seat": seats,
        "target": seats,
        "card": cards,
        "suspect": cards,
        "vehicle": cards,
        "destination": cards,
        "position": st.integers(min_value=-1, max_value=7),
        "cards": st.lists(cards, max_size=3),
    }

    @st.composite
    def near_miss(draw: st.DrawFn) -> act.Action:
        if state.is_over:
            return draw(wild)
        base = random_action(state, random.Random(draw(st.integers(0, 2**16))), 0.05, 0.05)
        fields = [f for f in type(base).model_fields if f in pools]
        name = draw(st.sampled_from([None, None, *fields]))
        if name is None:
            return base
        return base.model_copy(update={name: draw(pools[name])})

    wild: st.SearchStrategy[act.Action] = st.one_of(
        st.builds(act.SuggestAny, seat=seats, destination=cards, suspect=cards, vehicle=cards),
        st.builds(act.SuggestPresent, seat=seats, suspect=cards, vehicle=cards),
        st.builds(act.Move, seat=seats, destination=cards),
        st.builds(act.Snoop, seat=seats, target=seats),
        st.builds(act.AllSnoop, seat=seats, card=cards),
        st.builds(act.SuperSleuth, seat=seats, card=cards),
        st.builds(act.PrivateTip, seat=seats, card=cards, target=seats),
        st.builds(act.Accuse, seat=seats, suspect=cards, vehicle=cards, destination=cards),
        st.builds(act.EndTurn, seat=seats),
        st.builds(act.ChooseSolution, seat=seats, suspect=cards, vehicle=cards, destination=cards),
        st.builds(act.ShowCard, seat=seats, card=cards),
        st.builds(act.PickCard, seat=seats, position=pools["position"]),
        st.builds(act.AnswerTip, seat=seats, cards=st.lists(cards, max_size=3)),
    )
    return st.one_of(near_miss(), near_miss(), wild)


def _listed(state: GameState, action: act.Action) -> bool:
    seat = getattr(action, "seat", -1)
    if not 0 <= seat < state.players:
        return False
    listed = legal.legal_actions(state, seat)
    if isinstance(action, act.AnswerTip):
        wanted = sorted(action.cards)
        return any(isinstance(a, act.AnswerTip) and sorted(a.cards) == wanted for a in listed)
    return action in listed


@settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    seed=st.integers(min_value=0, max_value=2**20),
    players=st.sampled_from([3, 4, 5]),
    variant=st.sampled_from(["standard", "one_against_all"]),
    steps=st.integers(min_value=0, max_value=40),
    data=st.data(),
)
def test_any_action_is_applied_or_refused_cleanly(
    seed: int, players: int, variant: Variant, steps: int, data: st.DataObject
) -> None:
    state = reachable(seed, players, variant, steps)
    action = data.draw(_actions(state))
    before = state.model_dump()
    listed = not isinstance(action, act.Abandon) and _listed(state, action)
    try:
        apply(state, action)
    except RuleError as error:
        assert_reads_well(str(error))
        assert state.model_dump() == before
        assert not listed, (action, str(error))
        hypothesis.event("refused")
        return
    assert state.model_dump() == before  # apply never mutates its input
    assert listed, action
    hypothesis.event("applied")
