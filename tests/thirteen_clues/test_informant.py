"""Rules reference: "Action 2 — Consult the Secret Informant (not with 6 players)"."""

from __future__ import annotations

import pytest

from engine.thirteen_clues import legal, player_view, public_view
from engine.thirteen_clues.actions import Consult
from engine.thirteen_clues.events import InformantCard, InformantConsulted
from engine.thirteen_clues.state import GameState
from testkit.events import of_type
from testkit.thirteen_clues import build_state, card_ids_in, play, refused


def table(glasses: int = 2) -> GameState:
    """Four players: the informants are gun (A), sailor (B), plaza (C), candlestick (D)."""
    state = build_state(4, glasses=[glasses, 1, 1, 1])
    assert state.informants == ["gun", "sailor", "plaza", "candlestick"]
    return state


def test_informant_letter_is_public_and_the_card_private_to_the_consulter() -> None:
    state, events = play(table(), Consult(seat=0, letter="C"))
    consulted = of_type(events, InformantConsulted)
    assert [(e.seat, e.letter, e.audience.scope) for e in consulted] == [(0, "C", "public")]
    card = of_type(events, InformantCard)
    assert [(e.seat, e.letter, e.card) for e in card] == [(0, "C", "plaza")]
    assert card[0].audience.scope == "private" and card[0].audience.seats == (0,)
    for event in events:
        if event.audience.scope == "public":
            assert not card_ids_in(event)
    assert state.seats[0].peeks == {"C": "plaza"}
    assert [(c.seat, c.letter) for c in public_view(state).consultations] == [(0, "C")]
    assert player_view(state, 0).peeks == {"C": "plaza"}
    assert all(player_view(state, s).peeks == {} for s in (1, 2, 3))
    assert "plaza" not in card_ids_in(public_view(state))


def test_informant_card_stays_with_the_informant() -> None:
    before = table()
    after, _ = play(before, Consult(seat=0, letter="A"))
    assert after.informants == before.informants


def test_informant_same_letter_may_be_consulted_again() -> None:
    state, events = play(table(glasses=3), Consult(seat=0, letter="B"), Consult(seat=0, letter="B"))
    assert [e.card for e in of_type(events, InformantCard)] == ["sailor", "sailor"]
    assert [(c.seat, c.letter) for c in state.consultations] == [(0, "B"), (0, "B")]
    assert state.seats[0].peeks == {"B": "sailor"}


def test_informant_consulted_by_several_players_each_learn_privately() -> None:
    state, events = play(
        table(glasses=1), Consult(seat=0, letter="A"), Consult(seat=1, letter="D")
    )
    cards = of_type(events, InformantCard)
    assert [(e.audience.seats, e.card) for e in cards] == [((0,), "gun"), ((1,), "candlestick")]
    assert state.seats[0].peeks == {"A": "gun"} and state.seats[1].peeks == {"D": "candlestick"}


def test_informant_none_with_six_players() -> None:
    state = build_state(6)
    assert state.informants == [] and legal.informant_letters(state) == []
    message = "There is no Secret Informant in a six-player game."
    refused(state, Consult(seat=0, letter="A"), message)


@pytest.mark.parametrize(
    ("players", "letter", "letters"),
    [
        (4, "E", "A, B, C, D"),
        (5, "C", "A, B"),
        (3, "G", "A, B, C, D, E, F"),
        (4, "a", "A, B, C, D"),
    ],
)
def test_informant_refuses_a_letter_not_in_play(players: int, letter: str, letters: str) -> None:
    refused(
        build_state(players),
        Consult(seat=0, letter=letter),
        f"There is no informant {letter}; the letters are {letters}.",
    )


@pytest.mark.parametrize(("players", "letters"), [(3, "ABCDEF"), (4, "ABCD"), (5, "AB")])
def test_informant_letters_in_play(players: int, letters: str) -> None:
    assert legal.informant_letters(build_state(players)) == list(letters)
    assert public_view(build_state(players)).letters == list(letters)
