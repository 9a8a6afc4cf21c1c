"""Rules reference: turns go clockwise; only the current player acts; the game ends with a
right accusation (or is abandoned) and everything is revealed."""

from __future__ import annotations

import pytest

from engine.thirteen_clues import actions as act
from engine.thirteen_clues import apply, player_view, public_view
from engine.thirteen_clues.events import GameOver
from engine.thirteen_clues.state import GameState
from testkit.events import of_type
from testkit.thirteen_clues import build_state, card_ids_in, first_choice, fresh_game, play, refused

RIGHT = act.Accuse(seat=0, person="officer", location="parlor", weapon="knife")


def table() -> GameState:
    """Three players, Ann (seat 0) to play; her holder is officer, parlor, knife."""
    return build_state(3, holders={0: ["officer", "parlor", "knife"]})


@pytest.mark.parametrize(
    "action",
    [
        act.Ask(seat=1, witness=2, subject="red"),
        act.Ask(seat=2, witness=0, subject="red", top_secret=True),
        act.Consult(seat=1, letter="A"),
        act.Accuse(seat=2, person="maid", location="harbor", weapon="rifle"),
        act.TakeGlass(seat=1, source=0),
    ],
)
def test_out_of_turn_actions_are_refused_naming_whose_turn_it_is(action: act.Action) -> None:
    refused(table(), action, "It is Ann's turn, not yours.")


@pytest.mark.parametrize("seat", [3, -1, 99])
def test_a_seat_not_at_the_table_is_refused(seat: int) -> None:
    ask = act.Ask(seat=seat, witness=0, subject="red")
    refused(table(), ask, "You are not seated at this table.")


def _over() -> GameState:
    state, _ = play(table(), RIGHT)
    assert state.phase == "over"
    return state


@pytest.mark.parametrize(
    "action",
    [
        act.Ask(seat=1, witness=2, subject="red"),
        act.Consult(seat=1, letter="A"),
        RIGHT,
        act.Accuse(seat=1, person="maid", location="harbor", weapon="rifle"),
        act.TakeGlass(seat=1, source=0),
        act.ChoosePass(seat=0, person="officer", location="parlor", weapon="knife"),
        act.Abandon(),
    ],
)
def test_actions_after_the_game_is_over_are_refused(action: act.Action) -> None:
    refused(_over(), action, "This game is already over.")


def test_abandon_ends_with_a_full_reveal_and_no_winner() -> None:
    state = table()
    after, events = apply(state, act.Abandon(reason="The host ended the game."))
    assert after.phase == "over" and after.winner is None and after.ended_by == "abandoned"
    assert [e.type for e in events] == ["game_over"]
    (over,) = of_type(events, GameOver)
    assert over.audience.scope == "reveal" and over.winner is None
    assert over.reason == "The host ended the game."
    assert over.holders == [s.holder for s in state.seats]
    assert over.screens == [s.screen for s in state.seats]
    assert over.informants == state.informants
    assert public_view(after).reveal == after and public_view(after).winner is None


def test_abandon_during_the_pass_also_reveals() -> None:
    start, _ = fresh_game(4, seed=6)
    state, _ = apply(start, act.ChoosePass(seat=0, **first_choice(start.seats[0].dealt)))
    after, events = apply(state, act.Abandon())
    assert after.phase == "over" and after.ended_by == "abandoned"
    (over,) = of_type(events, GameOver)
    assert over.dealt == [s.dealt for s in start.seats]
    assert over.reason == "The game was ended."


def test_views_reveal_nothing_hidden_before_the_end() -> None:
    state = table()
    assert public_view(state).reveal is None
    assert not card_ids_in(public_view(state))
    for seat in range(3):
        view = player_view(state, seat)
        assert view.reveal is None
        assert seat not in view.holders
        assert not card_ids_in(view) & set(state.seats[seat].holder)
        assert view.screen == state.seats[seat].screen
        assert view.holders == {j: state.seats[j].holder for j in range(3) if j != seat}


def test_turn_numbers_count_every_turn() -> None:
    state = table()
    for expected in range(1, 7):
        assert state.turn_number == expected and state.turn == (expected - 1) % 3
        seat = state.turn
        state, _ = play(state, act.Ask(seat=seat, witness=(seat + 1) % 3, subject="red"))
        while state.turn == seat:
            state, _ = play(state, act.Ask(seat=seat, witness=(seat + 1) % 3, subject="red"))


def test_views_round_trip_through_json_before_and_after_the_end() -> None:
    state, _ = play(table(), act.Ask(seat=0, witness=1, subject="red"))
    for current in (state, play(state, act.Abandon())[0]):
        public = public_view(current)
        assert type(public).model_validate_json(public.model_dump_json()) == public
        for seat in range(3):
            view = player_view(current, seat)
            assert type(view).model_validate_json(view.model_dump_json()) == view
