"""Arbitrary (mostly illegal) actions on random reachable tables.

Every action is either applied, or refused with a RuleError that reads well to a player and
leaves the state untouched; never another exception. The `legal` queries the UI and AI use
agree with what `apply` accepts.
"""

from __future__ import annotations

import random

import hypothesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.thirteen_clues import actions as act
from engine.thirteen_clues import apply, legal
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.rules import new_game
from engine.thirteen_clues.state import Edition, GameState, Options
from testkit.thirteen_clues import assert_reads_well, random_action, refs

JUNK_CARDS = ["batman", "", "Officer"]
SUBJECTS = [
    "purple", "pink", "red", "green", "yellow", "blue", "orange", "white", "brown", "gray",
    "male", "female", "indoor", "outdoor", "up_close", "ranged",
    "person", "location", "weapon", "Purple", "", "banana",
]
LETTERS = [*"ABCDEFGHI", "a", "", "AB"]


def _actions(state: GameState) -> st.SearchStrategy[act.Action]:
    """A legal action, or one with a single field changed (near misses), or a wild one."""
    n = state.players
    pools: dict[str, list[object]] = {
        "seat": list(range(-1, n + 1)),
        "source": list(range(-1, n + 1)),
        "witness": list(range(-1, n + 1)),
        "subject": [*SUBJECTS],
        "side": [None, "left", "right"],
        "top_secret": [True, False],
        "letter": LETTERS,
        "person": [*CARDS, *JUNK_CARDS],
        "location": [*CARDS, *JUNK_CARDS],
        "weapon": [*CARDS, *JUNK_CARDS],
    }

    @st.composite
    def near_miss(draw: st.DrawFn) -> act.Action:
        base = random_action(state, random.Random(draw(st.integers(0, 2**16))))
        fields = [f for f in type(base).model_fields if f in pools]
        field = draw(st.sampled_from([None, None, None, *fields]))
        if field is None:
            return base
        return base.model_copy(update={field: draw(st.sampled_from(pools[field]))})

    seats = st.integers(min_value=-1, max_value=n)
    cards = st.sampled_from([*CARDS, *JUNK_CARDS])
    wild = st.one_of(
        st.builds(act.ChoosePass, seat=seats, person=cards, location=cards, weapon=cards),
        st.builds(act.TakeGlass, seat=seats, source=seats),
        st.builds(
            act.Ask,
            seat=seats,
            witness=seats,
            subject=st.sampled_from(SUBJECTS),
            side=st.sampled_from([None, "left", "right"]),
            top_secret=st.booleans(),
        ),
        st.builds(act.Consult, seat=seats, letter=st.sampled_from(LETTERS)),
        st.builds(act.Accuse, seat=seats, person=cards, location=cards, weapon=cards),
    )
    if state.phase == "over":
        return wild
    return st.one_of(near_miss(), near_miss(), wild)


def _reachable(
    players: int, edition: Edition, top_secret: bool, seed: int, steps: int
) -> GameState:
    options = Options(players=players, edition=edition, top_secret=top_secret)
    state, _ = new_game(refs(players), options, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.phase == "over":
            break
        state, _ = apply(state, random_action(state, rng, truth=0.02))
    return state


def _queries_allow(state: GameState, action: act.Action) -> bool:
    """What the `legal` queries (the UI's and AI's menu) say about `action`."""
    assert not isinstance(action, act.Abandon), "the fuzzed actions are a seat's, not the host's"
    seat = action.seat
    if state.phase == "over" or not 0 <= seat < state.players:
        return False
    if isinstance(action, act.ChoosePass):
        me = state.seats[seat]
        named = (action.person, action.location, action.weapon)
        return state.phase == "passing" and me.passed is None and all(
            card in me.dealt and CARDS[card].category == category
            for card, category in zip(named, Category, strict=True)
        )
    if isinstance(action, act.TakeGlass):
        return action.source in legal.take_sources(state, seat)
    if not legal.can_act(state, seat):
        return False
    if isinstance(action, act.Ask):
        me = state.seats[seat]
        return (
            action.witness in legal.witnesses(state, seat)
            and action.subject in legal.question_subjects(state)
            and (action.side is not None) == (state.players == 2)
            and (not action.top_secret or (state.options.top_secret and not me.top_secret_used))
        )
    if isinstance(action, act.Consult):
        return action.letter in legal.informant_letters(state)
    allowed = legal.accusable_cards(state, seat)
    named = (action.person, action.location, action.weapon)
    return all(card in allowed[cat] for card, cat in zip(named, Category, strict=True))


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=2, max_value=6),
    edition=st.sampled_from(["2020", "2016"]),
    top_secret=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    steps=st.integers(min_value=0, max_value=40),
    data=st.data(),
)
def test_any_action_is_applied_or_cleanly_refused_and_queries_agree(
    players: int, edition: Edition, top_secret: bool, seed: int, steps: int, data: st.DataObject
) -> None:
    state = _reachable(players, edition, top_secret and players > 2, seed, steps)
    action = data.draw(_actions(state), label="action")
    before = state.model_dump()
    try:
        apply(state, action)
    except RuleError as error:
        hypothesis.event("refused")
        assert_reads_well(str(error))
        assert state.model_dump() == before
        assert not _queries_allow(state, action), (action, str(error))
    else:
        hypothesis.event(f"applied {action.type}")
        assert _queries_allow(state, action), action
        assert state.model_dump() == before  # apply never mutates its input
