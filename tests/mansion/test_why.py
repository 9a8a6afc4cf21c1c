"""Why chains of the Mansion notes: every chain proves its verdict on its own (the exact
solver, given only the chain), and no premise in it can be dropped."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.mansion.actions import ShowCard, SuggestPresent
from engine.mansion.bruteforce import random_positions
from engine.mansion.cards import CLUES, SUSPECTS, VEHICLES
from engine.mansion.deduction import solve
from engine.mansion.state import Variant
from engine.mansion.views import PlayerView, player_view
from engine.mansion.why import explain, proves, restricted
from tests.mansion.helpers import build_state, hand_of
from tests.mansion.helpers import play as play_actions


def positions(seed: int, count: int) -> list[PlayerView]:
    rng = random.Random(seed)
    out: list[PlayerView] = []
    while len(out) < count:
        players = rng.choice([3, 4, 5])
        variant: Variant = rng.choice(["standard", "one_against_all"])
        out += [v for _, v in random_positions(rng, players, variant, [rng.randint(10, 50)])]
    return out[:count]


def _check_chains(view: PlayerView) -> int:
    """Every deduced card's chain of `view` proves its verdict alone, and needs each of its
    premises; returns how many chains were checked."""
    checked = 0
    d = solve(view)
    for card in CLUES:
        why = explain(view, card, d)
        if why.verdict in ("mine", "open"):
            continue
        assert proves(view, why), (card, why)
        checked += 1
        # the restricted view really holds only the chain's observations
        alone = restricted(view, why.premises)
        assert len(alone.observations) <= len(view.observations)
        # and the chain is not padded: dropping any premise loses the verdict
        for premise in why.premises:
            fewer = tuple(p for p in why.premises if p != premise)
            assert not proves(view, type(why)(card, why.verdict, why.holder, fewer))
    return checked


def test_every_chain_proves_its_verdict_alone() -> None:
    assert sum(_check_chains(view) for view in positions(5, 8)) >= 20


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_every_chain_of_any_position_proves_its_verdict_alone(seed: int) -> None:
    """The same, as a property over random positions (both variants, 3 to 5 players)."""
    for view in positions(seed, 2):
        _check_chains(view)


def test_a_card_shown_is_explained_by_that_showing() -> None:
    state = build_state(3)
    suspect = next(c for c in hand_of(state, 1) if c in SUSPECTS)
    vehicle = next(c for c in VEHICLES if c not in hand_of(state, 0))
    state, _ = play_actions(
        state,
        SuggestPresent(seat=0, suspect=suspect, vehicle=vehicle),
        ShowCard(seat=1, card=suspect),
    )
    view = player_view(state, 0)
    why = explain(view, suspect)
    assert (why.verdict, why.holder) == ("held", 1)
    assert len(why.premises) == 1
    assert view.observations[why.premises[0]].kind == "suggestion"
