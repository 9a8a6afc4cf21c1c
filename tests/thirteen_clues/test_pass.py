"""Rules reference: "Setup" step 5, the simultaneous secret pass to the LEFT."""

from __future__ import annotations

import pytest

from engine.thirteen_clues import apply
from engine.thirteen_clues.actions import Accuse, Action, Ask, ChoosePass, Consult, TakeGlass
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.events import CaseFile, PassChosen, PlayBegan
from engine.thirteen_clues.state import GameState
from testkit.events import of_type
from testkit.thirteen_clues import (
    card_ids_in,
    first_choice,
    fresh_game,
    pass_first,
    play,
    refused,
)


def _choice(state: GameState, seat: int) -> ChoosePass:
    return ChoosePass(seat=seat, **first_choice(state.seats[seat].dealt))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pass_goes_to_the_left_holder_and_the_rest_behind_the_screen(players: int) -> None:
    start, _ = fresh_game(players, seed=21)
    choices = [_choice(start, i) for i in range(players)]
    state, _ = play(start, *choices)
    for i, choice in enumerate(choices):
        passed = [choice.person, choice.location, choice.weapon]
        left = state.seats[(i + 1) % players]
        assert left.holder == passed
        assert state.seats[i].passed == passed
        assert sorted(state.seats[i].screen) == sorted(set(start.seats[i].dealt) - set(passed))
        assert len(state.seats[i].screen) == 2


def test_pass_player_choice_is_free_any_one_of_each_category() -> None:
    """Not just the first of each category: a seat may pass whichever it likes."""
    for seed in range(20):
        start, _ = fresh_game(3, seed=seed)
        dealt = start.seats[0].dealt
        options = {cat: [c for c in dealt if CARDS[c].category == cat] for cat in Category}
        if all(len(v) == 1 for v in options.values()):
            continue
        pick = [options[cat][-1] for cat in Category]
        state, _ = apply(start, ChoosePass(seat=0, person=pick[0], location=pick[1],
                                           weapon=pick[2]))
        assert state.seats[0].passed == pick
        return
    pytest.fail("no seed gave a seat two cards of one category")


def test_pass_nothing_public_is_revealed_until_everyone_has_chosen() -> None:
    start, _ = fresh_game(4, seed=3)
    state = start
    for seat in range(3):
        choice = _choice(start, seat)
        state, events = apply(state, choice)
        assert state.phase == "passing"
        assert all(s.holder == [] and s.screen == [] for s in state.seats)
        public = [e for e in of_type(events, PassChosen) if e.audience.scope == "public"]
        assert [e.type for e in events if e.audience.scope == "public"] == ["pass_chosen"]
        assert public[0].cards == [] and not card_ids_in(public[0])
        assert public[0].waiting_for == list(range(seat + 1, 4))
        private = [e for e in events if e.audience.scope == "private"]
        assert [(e.type, e.audience.seats) for e in private] == [("pass_chosen", (seat,))]
        (mine,) = of_type(private, PassChosen)
        assert mine.cards == [choice.person, choice.location, choice.weapon]
        assert not of_type(events, CaseFile) and not of_type(events, PlayBegan)
    state, events = apply(state, _choice(start, 3))
    assert state.phase == "turns"
    assert [e.type for e in events][:3] == ["pass_chosen", "pass_chosen", "play_began"]
    files = of_type(events, CaseFile)
    assert [f.audience.seats for f in files] == [(0,), (1,), (2,), (3,)]
    for seat, case_file in enumerate(files):
        assert case_file.screen == state.seats[seat].screen
        assert seat not in case_file.holders
        assert case_file.holders == {
            j: state.seats[j].holder for j in range(4) if j != seat
        }


def test_pass_choices_may_come_in_any_order() -> None:
    start, _ = fresh_game(3, seed=8)
    forward, _ = play(start, *(_choice(start, i) for i in (0, 1, 2)))
    backward, _ = play(start, *(_choice(start, i) for i in (2, 0, 1)))
    assert forward == backward


def test_pass_refuses_a_card_not_among_your_five() -> None:
    state, _ = fresh_game(3, seed=4)
    choice = first_choice(state.seats[0].dealt)
    other_person = next(
        c for c in state.seats[1].dealt if CARDS[c].category == Category.PERSON
    )
    choice["person"] = other_person
    refused(
        state,
        ChoosePass(seat=0, **choice),
        f"{CARDS[other_person].name} is not among your five cards.",
    )


def test_pass_refuses_a_card_in_the_wrong_category() -> None:
    state, _ = fresh_game(3, seed=4)
    choice = first_choice(state.seats[0].dealt)
    location = choice["location"]
    choice["person"] = location
    refused(
        state, ChoosePass(seat=0, **choice), f"{CARDS[location].name} is not a person."
    )


def test_pass_refuses_an_unknown_card() -> None:
    state, _ = fresh_game(3, seed=4)
    choice = first_choice(state.seats[0].dealt) | {"weapon": "banana"}
    refused(state, ChoosePass(seat=0, **choice), "There is no card called 'banana'.")


def test_pass_refuses_choosing_twice() -> None:
    start, _ = fresh_game(3, seed=4)
    state, _ = apply(start, _choice(start, 0))
    refused(state, _choice(start, 0), "You have already chosen the cards to pass left.")


def test_pass_refuses_a_pass_once_play_has_begun() -> None:
    start, _ = fresh_game(3, seed=4)
    state, _ = pass_first(start)
    refused(state, _choice(start, 0), "The cards have already been passed.")


def test_pass_refuses_a_seat_that_is_not_at_the_table() -> None:
    state, _ = fresh_game(3, seed=4)
    refused(
        state,
        ChoosePass(seat=3, **first_choice(state.seats[0].dealt)),
        "You are not seated at this table.",
    )


@pytest.mark.parametrize(
    "action",
    [
        Ask(seat=0, witness=1, subject="purple"),
        Consult(seat=0, letter="A"),
        Accuse(seat=0, person="officer", location="parlor", weapon="knife"),
        TakeGlass(seat=0, source=1),
    ],
)
def test_pass_no_turn_action_before_everyone_has_chosen(action: Action) -> None:
    state, _ = fresh_game(3, seed=4)
    state = state.model_copy(update={"turn": 0, "starter": 0})
    refused(state, action, "Everyone must first choose the cards to pass left.")
