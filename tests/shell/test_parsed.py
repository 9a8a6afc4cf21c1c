"""Parsed states shared by their JSON (`bot.parsed`): parsed once, never out of date, and a
reader that changes a shared state is caught (the whole suite runs with the check on)."""

from __future__ import annotations

import pytest

import bot.parsed
from bot.models import SeatRef
from bot.parsed import MutatedState, ParsedStates
from bot.thirteen_clues.game import GAME


def _state_json() -> str:
    seats = [SeatRef(user_id=i, name=n) for i, n in ((1, "Ann"), (2, "Bea"), (3, "Cid"))]
    state, _ = GAME.start(seats, GAME.settings.model_validate({}), 7)
    return state.model_dump_json()


def test_a_state_is_parsed_once_and_shared() -> None:
    states = ParsedStates(GAME.state_model)
    raw = _state_json()
    first = states.load(raw)
    assert states.load(raw) is first and (states.hits, states.misses) == (1, 1)
    # what a change stores is kept as it is: its next read is no parse
    again = GAME.state_model.model_validate_json(raw)
    again.seats[0].name = "Dee"
    stored = states.dump(again)
    assert states.load(stored) is again and states.misses == 1


def test_a_shared_state_changed_by_a_reader_is_caught() -> None:
    assert bot.parsed.CHECKED  # on for the whole suite (tests/conftest.py)
    states = ParsedStates(GAME.state_model)
    raw = _state_json()
    states.load(raw).seats[0].name = "Eve"
    with pytest.raises(MutatedState):
        states.load(raw)


def test_only_the_latest_states_are_kept() -> None:
    states = ParsedStates(GAME.state_model, size=2)
    raws = []
    for name in ("Ann", "Bea", "Cid"):
        state = GAME.state_model.model_validate_json(_state_json())
        state.seats[0].name = name
        raws.append(states.dump(state))
    states.load(raws[0])  # dropped: parsed again
    assert states.misses == 1
