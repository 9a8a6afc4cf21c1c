"""Rules reference: "A turn (3–6 players)" steps 1–2 and "Where a spent glass goes"."""

from __future__ import annotations

import pytest

from engine.thirteen_clues import legal, player_view, public_view
from engine.thirteen_clues.actions import Accuse, Action, Ask, Consult, TakeGlass
from engine.thirteen_clues.events import Event, GlassMoved, GlassTaken, TurnStarted
from engine.thirteen_clues.state import Edition, GameState
from testkit.events import of_type
from testkit.thirteen_clues import HOLDERS, SCREENS, build_state, play, refused, total_glasses


def table(
    glasses: list[int], edition: Edition = "2020", turn: int = 0, supply: int | None = None
) -> GameState:
    """The layout under the 2020 rules unless told (the supplies below count 8 glasses)."""
    return build_state(
        4,
        edition=edition,
        holders=HOLDERS,
        screens=SCREENS,
        glasses=glasses,
        supply=supply,
        turn=turn,
    )


def wrong_accusation(seat: int) -> Accuse:
    """Names only cards no seat can see (informants), so the 2020 ban never applies."""
    return Accuse(seat=seat, person="dancer" if seat != 3 else "nurse",
                  location="theater" if seat != 3 else "museum", weapon="gun")


def spend(how: str, seat: int) -> Action:
    """An action that spends one glass the informant/accusation way."""
    return Consult(seat=seat, letter="A") if how == "informant" else wrong_accusation(seat)


def _spent(events: list[Event]) -> list[GlassMoved]:
    return [e for e in of_type(events, GlassMoved) if e.reason in ("informant", "accusation")]


# --- Step 1: take a glass --------------------------------------------------------------------


def test_turn_step1_take_a_glass_from_the_supply_when_holding_none() -> None:
    state = table([1, 0, 1, 1], supply=5)
    state, events = play(state, Ask(seat=0, witness=2, subject="purple"))
    assert state.turn == 1 and state.seats[1].glasses == 1 and state.supply == 4
    started = of_type(events, TurnStarted)[0]
    assert started.seat == 1 and started.glasses == 1 and not started.must_take
    taken = of_type(events, GlassTaken)[0]
    assert taken.seat == 1 and taken.source is None and taken.audience.scope == "public"
    assert total_glasses(state) == 8


def test_turn_step1_no_glass_taken_when_already_holding_one() -> None:
    state = table([1, 2, 1, 0], supply=4)
    state, events = play(state, Ask(seat=0, witness=2, subject="purple"))
    assert state.turn == 1 and state.seats[1].glasses == 2 and state.supply == 4
    assert not of_type(events, GlassTaken)


def _supply_empty() -> GameState:
    """Bob's turn comes with Bob holding none and the supply empty."""
    state = table([1, 0, 7, 0], supply=0)
    state, events = play(state, Ask(seat=0, witness=2, subject="purple"))
    assert state.turn == 1 and state.seats[1].glasses == 0
    assert of_type(events, TurnStarted)[0].must_take
    assert legal.must_take(state) and legal.must_take(public_view(state))
    assert legal.duty(state, 1) == "take" and legal.duty(player_view(state, 0), 0) is None
    return state


def test_turn_step1_supply_empty_take_from_a_chosen_player_holding_one() -> None:
    state = _supply_empty()
    assert legal.take_sources(state, 1) == [2]
    assert not legal.can_act(state, 1)
    state, events = play(state, TakeGlass(seat=1, source=2))
    assert [s.glasses for s in state.seats] == [0, 1, 7, 0] and state.supply == 0
    assert [(e.seat, e.source) for e in of_type(events, GlassTaken)] == [(1, 2)]
    assert state.turn == 1 and legal.can_act(state, 1) and not events[1:]
    assert total_glasses(state) == 8


@pytest.mark.parametrize(
    "action",
    [
        Ask(seat=1, witness=2, subject="purple"),
        Consult(seat=1, letter="A"),
        wrong_accusation(1),
    ],
)
def test_turn_step1_supply_empty_cannot_act_before_taking(action: Action) -> None:
    refused(_supply_empty(), action, "The supply is empty: first take a magnifying glass")


def test_turn_step1_supply_empty_refuses_a_player_holding_none() -> None:
    refused(_supply_empty(), TakeGlass(seat=1, source=3), "Dan holds no magnifying glass.")


@pytest.mark.parametrize("source", [1, 4, -1])
def test_turn_step1_supply_empty_refuses_self_or_a_seat_not_at_the_table(source: int) -> None:
    refused(
        _supply_empty(),
        TakeGlass(seat=1, source=source),
        "Take the glass from another player at this table.",
    )


def test_turn_step1_refuses_taking_from_a_player_when_not_needed() -> None:
    state = table([1, 1, 1, 1], supply=4)
    refused(
        state,
        TakeGlass(seat=0, source=1),
        "You only take a glass from a player when you hold none and the supply is empty.",
    )
    assert legal.take_sources(state, 0) == []


def test_turn_step1_refuses_taking_when_the_supply_has_glasses() -> None:
    """Only reachable by hand: the engine takes from the supply itself at turn start."""
    state = table([0, 1, 1, 1], supply=5)
    refused(state, TakeGlass(seat=0, source=1), "You only take a glass from a player")


# --- Step 2: spend glasses one at a time ------------------------------------------------------


def test_turn_step2_glasses_spent_one_at_a_time_same_action_repeatable() -> None:
    state = table([3, 1, 1, 1], supply=2)
    ask = Ask(seat=0, witness=1, subject="purple")
    state, _ = play(state, ask)
    assert state.turn == 0 and state.seats[0].glasses == 2
    state, _ = play(state, ask)
    assert state.turn == 0 and state.seats[0].glasses == 1
    assert [q.answer for q in state.questions] == [3, 3]
    state, events = play(state, Consult(seat=0, letter="A"))
    assert state.turn == 1 and state.seats[0].glasses == 0
    assert of_type(events, TurnStarted)[0].seat == 1
    assert total_glasses(state) == 8


def test_turn_step2_informant_may_be_consulted_repeatedly_in_one_turn() -> None:
    state = table([3, 1, 1, 1], supply=2)
    state, _ = play(state, *[Consult(seat=0, letter="A")] * 2)
    assert [c.letter for c in state.consultations] == ["A", "A"]
    assert state.turn == 0 and state.seats[0].glasses == 1


def test_turn_ends_without_glasses_and_passes_clockwise_round_the_table() -> None:
    state = table([1, 1, 1, 1], supply=4, turn=3)
    state, events = play(state, Ask(seat=3, witness=1, subject="red"))
    assert state.turn == 0 and state.turn_number == 2
    assert of_type(events, TurnStarted)[0].turn_number == 2


@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_turn_question_glass_goes_to_the_witness(edition: Edition) -> None:
    box = {"2020": 8, "2016": 10}[edition]
    state = table([2, 0, 3, 0], edition=edition, supply=box - 5)
    state, events = play(state, Ask(seat=0, witness=2, subject="red"))
    assert [s.glasses for s in state.seats] == [1, 0, 4, 0]
    moved = of_type(events, GlassMoved)
    assert [(e.giver, e.receiver, e.reason) for e in moved] == [(0, 2, "question")]
    assert moved[0].audience.scope == "public"


# --- Where a spent glass goes: 2020 -----------------------------------------------------------


@pytest.mark.parametrize(
    ("glasses", "turn", "receiver"),
    [
        ([2, 1, 0, 0], 0, 2),  # two hold none: the first going clockwise
        ([2, 0, 1, 0], 0, 1),
        ([1, 1, 2, 0], 2, 3),
        ([0, 1, 2, 1], 2, 0),  # wraps round the table
        ([1, 1, 2, 1], 2, None),  # everyone else holds one: to the supply
    ],
)
@pytest.mark.parametrize("how", ["informant", "accusation"])
def test_spent_glass_2020_goes_to_first_clockwise_with_none_else_supply(
    glasses: list[int], turn: int, receiver: int | None, how: str
) -> None:
    state = table(glasses, turn=turn)
    supply = state.supply
    action = spend(how, turn)
    after, events = play(state, action)
    spent = _spent(events)
    assert [(e.giver, e.receiver) for e in spent] == [(turn, receiver)]
    if receiver is None:
        assert after.supply >= supply + 1
    else:
        assert after.seats[receiver].glasses == glasses[receiver] + 1
    assert total_glasses(after) == 8


# --- Where a spent glass goes: 2016 -----------------------------------------------------------


@pytest.mark.parametrize(
    ("glasses", "turn", "receiver"),
    [
        ([2, 3, 1, 1], 0, 2),  # fewest tie: the first going clockwise
        ([2, 3, 2, 1], 0, 3),
        ([2, 1, 1, 1], 2, 3),
        ([2, 1, 3, 1], 2, 3),  # tie between Dan and Bob: Dan comes first after Cat
        ([1, 1, 3, 2], 2, 0),  # wraps round the table
        ([3, 2, 2, 2], 0, 1),  # all others hold glasses: still to a player, never the supply
    ],
)
@pytest.mark.parametrize("how", ["informant", "accusation"])
def test_spent_glass_2016_goes_to_fewest_ties_first_clockwise_never_supply(
    glasses: list[int], turn: int, receiver: int, how: str
) -> None:
    state = table(glasses, edition="2016", turn=turn)
    supply = state.supply
    action = spend(how, turn)
    after, events = play(state, action)
    assert [(e.giver, e.receiver) for e in _spent(events)] == [(turn, receiver)]
    assert after.seats[receiver].glasses == glasses[receiver] + 1
    assert after.supply == supply
    assert total_glasses(after) == 10


def test_spent_glass_giver_is_never_its_own_receiver() -> None:
    """The giver holds the fewest after letting go, but the glass goes to another player."""
    state = table([1, 2, 2, 2], edition="2016")
    after, events = play(state, Consult(seat=0, letter="A"))
    assert _spent(events)[0].receiver == 1
    assert after.seats[0].glasses == 0


# --- Conservation ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_total_glasses_never_change_over_a_sequence_of_actions(edition: Edition) -> None:
    box = {"2020": 8, "2016": 10}[edition]
    state = table([2, 1, 1, 1], edition=edition, supply=box - 5)
    actions: list[Action] = [
        Ask(seat=0, witness=1, subject="male"),
        Consult(seat=0, letter="B"),
    ]
    for action in actions:
        state, _ = play(state, action)
        assert total_glasses(state) == box
    while state.turn != 0:
        seat = state.turn
        if legal.must_take(state):
            state, _ = play(state, TakeGlass(seat=seat, source=legal.take_sources(state, seat)[0]))
        state, _ = play(state, wrong_accusation(seat))
        assert total_glasses(state) == box
