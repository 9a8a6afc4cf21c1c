"""Rules reference: "Two players"."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.thirteen_clues import Options, legal
from engine.thirteen_clues.actions import Accuse, Action, Ask, Consult, TakeGlass
from engine.thirteen_clues.rules import answer_for
from engine.thirteen_clues.state import Edition, GameState, Side

from .helpers import build_state, fresh_game, of_type, pass_first, play, recount, refused

HOLDERS = {0: ["officer", "parlor", "knife"], 1: ["duke", "market", "crossbow"]}
SCREENS = {
    0: ["butcher", "library"],  # Ann: left butcher (Male, red), right library (Indoor, red)
    1: ["poison", "countess"],  # Bob: left poison (Up close, red), right countess (Female)
}
INFORMANTS = ["park", "sword", "nurse", "museum", "blowgun", "maid", "harbor", "rifle"]


def table(edition: Edition = "2020", turn: int = 0) -> GameState:
    state = build_state(2, edition=edition, holders=HOLDERS, screens=SCREENS, turn=turn)
    assert state.informants == INFORMANTS
    return state


@pytest.mark.parametrize(
    ("subject", "side", "answer"),
    [
        ("male", "left", 1),  # officer + poison
        ("male", "right", 1),  # officer + countess
        ("female", "left", 0),
        ("female", "right", 1),  # countess
        ("red", "left", 1),  # poison
        ("red", "right", 0),  # Ann's butcher/library are behind HER screen
        ("purple", "left", 3),  # Ann's own holder
        ("pink", "right", 0),  # Bob's own holder is hidden from Bob
        ("up_close", "left", 2),  # knife + poison
        ("indoor", "right", 1),  # parlor
    ],
)
def test_two_players_answer_is_askers_holder_plus_the_one_named_screen_card(
    subject: str, side: Side, answer: int
) -> None:
    state = table()
    after, events = play(state, Ask(seat=0, witness=1, subject=subject, side=side))
    assert [e.answer for e in of_type(events, "question_answered")] == [answer]
    assert answer == recount(state, 1, subject, asker=0, side=side)
    assert after.questions[-1].side == side


def test_two_players_left_is_screen_0_and_right_is_screen_1() -> None:
    state = table(turn=1)
    # Bob asks Ann: Bob's holder (duke M, market Out, crossbow R) + Ann's screen card.
    assert answer_for(state, 1, 0, "male", "left") == 2  # + butcher
    assert answer_for(state, 1, 0, "male", "right") == 1  # + library
    assert answer_for(state, 1, 0, "indoor", "left") == 0
    assert answer_for(state, 1, 0, "indoor", "right") == 1


def test_two_players_question_must_name_a_side() -> None:
    refused(
        table(),
        Ask(seat=0, witness=1, subject="red"),
        "With two players, say which side: the card on their left or right.",
    )


@pytest.mark.parametrize("edition", ["2020", "2016"])
@pytest.mark.parametrize(
    "action",
    [
        Ask(seat=0, witness=1, subject="red", side="left"),
        Consult(seat=0, letter="H"),
        Accuse(seat=0, person="maid", location="harbor", weapon="rifle"),
    ],
)
def test_two_players_exactly_one_action_per_turn(edition: Edition, action: Action) -> None:
    state, events = play(table(edition), action)
    assert state.turn == 1 and state.turn_number == 2
    assert not of_type(events, "glass_moved") and not of_type(events, "glass_taken")
    assert [s.glasses for s in state.seats] == [0, 0] and state.supply == 0


def test_two_players_no_glass_to_take() -> None:
    refused(
        table(),
        TakeGlass(seat=0, source=1),
        "There are no magnifying glasses in a two-player game.",
    )
    assert legal.take_sources(table(), 0) == [] and legal.can_act(table(), 0)


def test_two_players_informant_has_eight_cards_a_to_h() -> None:
    state = table()
    assert legal.informant_letters(state) == list("ABCDEFGH")
    after, events = play(state, Consult(seat=0, letter="H"))
    assert of_type(events, "informant_card")[0].card == "rifle"
    refused(
        after,
        Consult(seat=1, letter="I"),
        "There is no informant I; the letters are A, B, C, D, E, F, G, H.",
    )


@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_two_players_wrong_accusation_simply_ends_the_turn(edition: Edition) -> None:
    wrong = Accuse(seat=0, person="maid", location="harbor", weapon="rifle")
    state, _ = play(table(edition), wrong)
    assert state.phase == "turns" and state.turn == 1 and state.winner is None
    state, _ = play(state, Ask(seat=1, witness=0, subject="red", side="left"))
    assert state.turn == 0  # Ann plays on: never eliminated


def test_two_players_right_accusation_wins() -> None:
    state, events = play(
        table(), Accuse(seat=0, person="officer", location="parlor", weapon="knife")
    )
    assert state.phase == "over" and state.winner == 0
    assert events[-1].type == "game_over"


@pytest.mark.parametrize(
    ("named", "message"),
    [
        ({"person": "butcher"}, "Butcher is behind your own screen"),
        ({"location": "library"}, "Library is behind your own screen"),
        ({"person": "duke"}, "Duke is on Bob's card holder"),
        ({"weapon": "crossbow"}, "Crossbow is on Bob's card holder"),
    ],
)
def test_two_players_2020_ban_on_accusing_visible_cards_applies(
    named: dict[str, str], message: str
) -> None:
    accuse = Accuse(seat=0, person="maid", location="harbor", weapon="rifle")
    refused(table("2020"), accuse.model_copy(update=named), message)


def test_two_players_2016_may_accuse_visible_cards() -> None:
    accuse = Accuse(seat=0, person="duke", location="library", weapon="crossbow")
    state, _ = play(table("2016"), accuse)
    assert state.accusations[-1].correct is False and state.turn == 1


def test_two_players_no_top_secret_options_refuse() -> None:
    with pytest.raises(ValidationError, match="not used with two players"):
        Options(players=2, edition="2016", top_secret=True)


def test_two_players_top_secret_question_refused_at_a_table_without_it() -> None:
    refused(
        table(),
        Ask(seat=0, witness=1, subject="red", side="left", top_secret=True),
        "This table does not play the Top Secret variant.",
    )


def test_two_players_full_setup_pass_goes_to_the_other_player() -> None:
    start, _ = fresh_game(2, seed=12)
    state, events = pass_first(start)
    assert state.seats[1].holder == state.seats[0].passed
    assert state.seats[0].holder == state.seats[1].passed
    assert len(state.informants) == 8
    case_files = of_type(events, "case_file")
    assert [list(f.holders) for f in case_files] == [[1], [0]]
