"""The legal queries: one answer per rule, from the GameState or from a view.

The engine's `apply`, the AI (which sees only its PlayerView) and the bot's pickers (a
PlayerView, or the PublicView of the table message) all ask `legal`; these tests check that
every form of the table gives the same answer, and that the refusal texts are the engine's.
"""

from __future__ import annotations

import random

import pytest

from engine.errors import RuleError
from engine.thirteen_clues import apply, legal, player_view, public_view
from engine.thirteen_clues.actions import Accuse, Ask, Consult, TakeGlass
from engine.thirteen_clues.ai import choose_action
from engine.thirteen_clues.cards import CARDS, Category, cards_in_play
from engine.thirteen_clues.state import Edition, GameState
from testkit.thirteen_clues import (
    HOLDERS,
    SCREENS,
    build_state,
    choice_of,
    fresh_game,
    play,
    refused,
)

TABLES: list[tuple[int, Edition, bool]] = [
    (2, "2020", False),
    (2, "2016", False),
    (3, "2016", True),
    (4, "2020", True),
    (5, "2016", False),
    (6, "2020", False),
]


def _positions(players: int, edition: Edition, top_secret: bool, seed: int) -> list[GameState]:
    """Every state of an AI game (normal level), from the deal to the end."""
    state, _ = fresh_game(players, edition, top_secret, seed=seed)
    rng = random.Random(seed)
    states = [state]
    while state.phase != "over" and len(states) < 300:
        seat = legal.waiting_on(state)[0]
        state, _ = apply(state, choose_action(player_view(state, seat), "normal", rng))
        states.append(state)
    return states


@pytest.mark.parametrize(("players", "edition", "top_secret"), TABLES)
def test_queries_answer_alike_from_the_state_and_from_the_views(
    players: int, edition: Edition, top_secret: bool
) -> None:
    """Public queries from the GameState, the PublicView and every PlayerView; a seat's
    own queries from the GameState and that seat's PlayerView."""
    for state in _positions(players, edition, top_secret, seed=players):
        public = public_view(state)
        views = [player_view(state, seat) for seat in range(players)]
        for table in (public, *views):
            assert legal.waiting_on(table) == legal.waiting_on(state)
            assert legal.must_take(table) == legal.must_take(state)
            assert legal.informant_letters(table) == legal.informant_letters(state)
            assert legal.question_subjects(table) == legal.question_subjects(state)
            assert legal.sides(table) == legal.sides(state)
            for seat in range(players):
                assert legal.can_act(table, seat) == legal.can_act(state, seat)
                assert legal.take_sources(table, seat) == legal.take_sources(state, seat)
                assert legal.duty(table, seat) == legal.duty(state, seat)
                assert legal.witnesses(table, seat) == legal.witnesses(state, seat)
                assert legal.can_use_top_secret(table, seat) == legal.can_use_top_secret(
                    state, seat
                )
                if seat not in legal.waiting_on(state):
                    assert legal.not_your_turn_message(table, seat) == (
                        legal.not_your_turn_message(state, seat)
                    )
        for seat, view in enumerate(views):
            assert legal.sees(view, seat) == legal.sees(state, seat) == state.sees(seat)
            assert legal.accusable_cards(view, seat) == legal.accusable_cards(state, seat)
            assert legal.accusation_choices(view, seat) == legal.accusation_choices(state, seat)
            assert (legal.duty(view, seat) is not None) == (seat in legal.waiting_on(state))


def test_a_player_view_answers_only_for_its_own_seat() -> None:
    state = build_state(3)
    view = player_view(state, 0)
    for query in (legal.sees, legal.accusable_cards, legal.accusation_choices):
        with pytest.raises(ValueError, match="seat 0"):
            query(view, 1)


# --- must take a glass: one definition -------------------------------------------------------


@pytest.mark.parametrize(
    ("glasses", "supply", "expected"),
    [([0, 1, 7], 0, True), ([0, 1, 6], 1, False), ([1, 1, 6], 0, False)],
)
def test_must_take_reads_the_current_player_and_the_supply(
    glasses: list[int], supply: int, expected: bool
) -> None:
    state = build_state(3, glasses=glasses, supply=supply)
    for table in (state, public_view(state), player_view(state, 0), player_view(state, 2)):
        assert legal.must_take(table) is expected
        assert legal.duty(table, 0) == ("take" if expected else "act" if glasses[0] else None)
        assert (legal.take_sources(table, 0) != []) is expected


def test_must_take_never_with_two_players_or_outside_play() -> None:
    two = build_state(2)
    assert not legal.must_take(two) and legal.duty(two, 0) == "act"
    passing, _ = fresh_game(3)
    assert not legal.must_take(passing) and not legal.must_take(public_view(passing))


# --- "It is X's turn" -------------------------------------------------------------------------


def test_not_your_turn_message_is_the_engines_refusal() -> None:
    state = build_state(3, turn=1)  # Bob's turn
    message = refused(state, Ask(seat=0, witness=1, subject="red"), "It is Bob's turn")
    assert message == "It is Bob's turn, not yours."
    for table in (state, public_view(state), player_view(state, 2)):
        assert legal.not_your_turn_message(table, 0) == message
        assert legal.not_your_turn_message(table, 2) == message


def test_not_your_turn_message_before_play_and_after_the_end() -> None:
    passing, _ = fresh_game(3)
    message = refused(passing, Consult(seat=passing.turn, letter="A"), "pass left")
    assert legal.not_your_turn_message(public_view(passing), passing.turn) == message
    assert message == legal.PASS_FIRST
    holder = build_state(3).seats[0].holder
    over, _ = play(build_state(3), Accuse(seat=0, person=holder[0], location=holder[1],
                                          weapon=holder[2]))
    message = refused(over, Consult(seat=1, letter="A"), "over")
    assert legal.not_your_turn_message(player_view(over, 1), 1) == message == legal.GAME_OVER


def test_not_your_turn_message_refuses_to_say_it_to_the_player_whose_turn_it_is() -> None:
    state = build_state(3, turn=2)
    with pytest.raises(ValueError):
        legal.not_your_turn_message(public_view(state), 2)


# --- the accusation picker's cards -----------------------------------------------------------



def _flat(by_category: dict[Category, list[str]]) -> list[str]:
    return [c for category in Category for c in by_category[category]]


@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_accusation_choices_are_the_cards_in_play_the_seat_cannot_see(edition: Edition) -> None:
    state = build_state(4, edition=edition, holders=HOLDERS, screens=SCREENS)
    choices = legal.accusation_choices(state, 0)
    assert set(choices) == set(Category)
    for category, cards in choices.items():
        assert all(CARDS[c].category == category for c in cards)
        assert cards == [c for c in CARDS if c in cards]  # deck order
    unseen = [c for c in cards_in_play(4) if c not in state.sees(0)]
    assert sorted(_flat(choices)) == sorted(unseen)
    # her own holder, the other screens and the informants: 13 cards
    assert len(unseen) == 13 and set(HOLDERS[0]) <= set(unseen)
    assert {"blowgun", "maid", "gun", "sailor"} <= set(unseen)


def test_accusation_choices_under_2020_are_exactly_the_accusable_cards() -> None:
    state = build_state(4, edition="2020", holders=HOLDERS, screens=SCREENS)
    for seat in range(4):
        assert legal.accusation_choices(state, seat) == legal.accusable_cards(state, seat)


def test_accusation_choices_under_2016_leave_out_what_the_rules_allow_but_cannot_be_right(
) -> None:
    state = build_state(4, edition="2016", holders=HOLDERS, screens=SCREENS)
    allowed = _flat(legal.accusable_cards(state, 0))
    offered = _flat(legal.accusation_choices(state, 0))
    assert sorted(allowed) == sorted(CARDS)  # any card may be named in 2016
    left_out = set(allowed) - set(offered)
    assert left_out == state.sees(0) | (set(CARDS) - set(cards_in_play(4)))
    assert {"duke", "museum", "florist", "bow"} <= left_out


def test_accusation_choices_before_play_and_for_two_players() -> None:
    start, _ = fresh_game(2, seed=3)
    assert sorted(_flat(legal.accusation_choices(start, 0))) == sorted(cards_in_play(2))
    state = build_state(2, edition="2016")
    offered = _flat(legal.accusation_choices(player_view(state, 1), 1))
    assert len(offered) == 13 and not set(offered) & state.sees(1)


def test_choose_pass_is_checked_before_the_turn() -> None:
    """The pass is the one action every seat makes at once: no turn order applies."""
    start, _ = fresh_game(3)
    other = (start.turn + 1) % 3
    pick = {cat.value: next(c for c in start.seats[other].dealt if CARDS[c].category == cat)
            for cat in Category}
    state, _ = apply(start, choice_of(other, pick.values()))
    assert state.seats[other].passed is not None
    refused(state, TakeGlass(seat=other, source=0), "pass left")
    with pytest.raises(RuleError):
        apply(state, choice_of(other, pick.values()))
