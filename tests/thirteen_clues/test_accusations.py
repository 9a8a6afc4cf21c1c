"""Rules reference: "Action 3 — Make an Accusation", and the rulebook's example of Mary."""

from __future__ import annotations

import pytest

from engine.thirteen_clues import legal, player_view, public_view
from engine.thirteen_clues.actions import Accuse, Ask, Consult
from engine.thirteen_clues.cards import Category
from engine.thirteen_clues.events import AccusationMade, GlassMoved, TurnStarted
from engine.thirteen_clues.state import DEFAULT_EDITION, GLASSES_IN_BOX, Edition, GameState
from testkit.events import of_type
from testkit.thirteen_clues import (
    HOLDERS,
    SCREENS,
    build_state,
    card_ids_in,
    play,
    refused,
    total_glasses,
)

RIGHT = Accuse(seat=0, person="officer", location="parlor", weapon="knife")
WRONG = Accuse(seat=0, person="sailor", location="plaza", weapon="gun")  # informants: unseen


def table(edition: Edition = DEFAULT_EDITION, glasses: int = 1) -> GameState:
    return build_state(
        4, edition=edition, holders=HOLDERS, screens=SCREENS, glasses=[glasses, 1, 1, 1]
    )


# --- Right accusations ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_accusation_right_wins_and_ends_the_game(edition: Edition) -> None:
    state, events = play(table(edition, glasses=2), RIGHT)
    assert state.phase == "over" and state.winner == 0 and state.ended_by == "solved"
    assert not of_type(events, TurnStarted)
    made = of_type(events, AccusationMade)
    public = [e for e in made if e.audience.scope == "public"]
    assert [(e.seat, e.correct, e.cards) for e in public] == [(0, True, [])]
    assert total_glasses(state) == GLASSES_IN_BOX[edition]
    assert public_view(state).winner == 0


def test_accusation_right_reveal_event_has_every_holder_screen_and_informant() -> None:
    state, events = play(table(), RIGHT)
    over = events[-1]
    assert over.type == "game_over" and over.audience.scope == "reveal"
    assert all(over.audience.includes(seat) for seat in range(4))
    assert over.winner == 0 and over.reason == "solved"
    assert over.holders == [HOLDERS[i] for i in range(4)]
    assert over.screens == [SCREENS[i] for i in range(4)]
    assert over.informants == ["gun", "sailor", "plaza", "candlestick"]
    assert over.dealt == [s.dealt for s in state.seats]
    assert over.accusations == [(0, ["officer", "parlor", "knife"], True)]
    everything = {c for h in over.holders for c in h} | {c for s in over.screens for c in s}
    assert everything | set(over.informants) == set(state.informants) | {
        c for s in state.seats for c in (*s.holder, *s.screen)
    }


def test_accusation_right_whole_truth_in_every_view_once_over() -> None:
    state, _ = play(table(), RIGHT)
    assert public_view(state).reveal == state
    assert player_view(state, 1).reveal == state


def test_accusation_is_a_set_the_names_fill_one_slot_per_category() -> None:
    """Each slot takes its category; the engine compares the three named cards as a set."""
    refused(
        table(),
        Accuse(seat=0, person="parlor", location="officer", weapon="knife"),
        "Parlor is not a person.",
    )


# --- Wrong accusations ---------------------------------------------------------------------------


def test_accusation_result_public_says_only_right_or_wrong() -> None:
    state, events = play(table(), WRONG)
    made = of_type(events, AccusationMade)
    public = [e for e in made if e.audience.scope == "public"]
    assert [(e.seat, e.correct, e.cards) for e in public] == [(0, False, [])]
    assert all(not card_ids_in(e) for e in events if e.audience.scope == "public")
    private = [e for e in made if e.audience.scope == "private"]
    assert [(e.audience.seats, e.cards) for e in private] == [((0,), ["sailor", "plaza", "gun"])]
    assert "sailor" not in card_ids_in(player_view(state, 1))


def test_2020_wrong_accusation_ends_turn_and_returns_glasses_to_supply() -> None:
    state = table("2020", glasses=3)  # supply 8 - 6 = 2
    state, events = play(state, WRONG)
    moves = of_type(events, GlassMoved)
    assert [(e.giver, e.receiver, e.count, e.reason) for e in moves] == [
        (0, None, 1, "accusation"),  # every other player holds one: to the supply
        (0, None, 2, "wrong_accusation"),
    ]
    assert state.seats[0].glasses == 0 and state.supply == 5
    assert state.turn == 1 and state.phase == "turns"
    assert total_glasses(state) == 8


def test_2020_wrong_accusation_allows_only_one_accusation_per_turn() -> None:
    state, _ = play(table("2020", glasses=3), WRONG)
    refused(state, RIGHT, "It is Bob's turn, not yours.")


def test_2020_wrong_accusation_with_one_glass_just_ends_the_turn() -> None:
    state, events = play(table("2020", glasses=1), WRONG)
    assert not [e for e in of_type(events, GlassMoved) if e.reason == "wrong_accusation"]
    assert state.turn == 1 and state.supply == 5


def test_2016_wrong_accusation_turn_continues_while_glasses_remain() -> None:
    state = table("2016", glasses=3)
    state, events = play(state, WRONG)
    assert state.turn == 0 and state.seats[0].glasses == 2 and state.supply == 4
    assert not of_type(events, TurnStarted)
    assert not [e for e in of_type(events, GlassMoved) if e.reason == "wrong_accusation"]
    state, _ = play(state, WRONG.model_copy(update={"person": "dancer"}))
    assert state.turn == 0 and state.seats[0].glasses == 1
    assert len(state.accusations) == 2
    assert total_glasses(state) == 10


@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_accusation_wrong_never_eliminates(edition: Edition) -> None:
    state, _ = play(table(edition), WRONG)
    assert state.turn == 1
    while state.turn != 0:
        seat = state.turn
        state, _ = play(state, Ask(seat=seat, witness=(seat + 1) % 4, subject="red"))
    assert state.seats[0].glasses >= 1 and legal.can_act(state, 0)
    state, _ = play(state, RIGHT)
    assert state.winner == 0


# --- 2020: no accusing visible cards ----------------------------------------------------------


def test_2020_accusation_refuses_a_card_behind_your_own_screen() -> None:
    state = table("2020", glasses=2)
    refused(
        state,
        Accuse(seat=0, person="sailor", location="museum", weapon="gun"),
        "Museum is behind your own screen: in the 2020 rules you cannot accuse a card you can see.",
    )


@pytest.mark.parametrize(
    ("named", "message"),
    [
        ({"person": "duke"}, "Duke is on Bob's card holder"),
        ({"location": "library"}, "Library is on Cat's card holder"),
        ({"weapon": "sword"}, "Sword is on Dan's card holder"),
    ],
)
def test_2020_accusation_refuses_a_card_on_another_players_holder(
    named: dict[str, str], message: str
) -> None:
    full = refused(table("2020", glasses=2), WRONG.model_copy(update=named), message)
    assert full.endswith("in the 2020 rules you cannot accuse a card you can see.")


def test_2020_refused_accusation_spends_no_glass() -> None:
    state = table("2020", glasses=2)
    refused(state, WRONG.model_copy(update={"person": "duke"}), "Duke")
    assert state.seats[0].glasses == 2 and state.accusations == []


def test_2020_accusable_cards_exclude_every_visible_card() -> None:
    state = table("2020")
    allowed = legal.accusable_cards(state, 0)
    flat = {c for cards in allowed.values() for c in cards}
    assert flat.isdisjoint(state.sees(0))
    assert {"officer", "parlor", "knife"} <= flat  # her own holder is hidden from her
    assert {"gun", "sailor", "dancer", "blowgun"} <= flat  # informants, other screens
    assert set(allowed) == set(Category)


def test_2020_accusation_may_name_a_card_seen_at_the_informant() -> None:
    """Referee decision: the ban covers the screen and other holders only, as the reference
    says; an informant card is hidden from the table, so naming it is just wrong."""
    state, _ = play(table("2020", glasses=3), Consult(seat=0, letter="A"))
    assert state.seats[0].peeks == {"A": "gun"}
    state, _ = play(state, WRONG)
    assert state.accusations[-1].correct is False


def test_2016_accusation_may_name_visible_cards() -> None:
    state = table("2016", glasses=2)
    visible = Accuse(seat=0, person="duke", location="museum", weapon="poison")
    state, _ = play(state, visible)
    assert state.accusations[-1].cards == ("duke", "museum", "poison")
    assert not state.accusations[-1].correct
    assert state.seats[0].glasses == 1
    allowed = legal.accusable_cards(table("2016"), 0)
    assert "duke" in allowed[Category.PERSON] and "museum" in allowed[Category.LOCATION]


# --- Malformed accusations ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("named", "message"),
    [
        ({"location": "gun"}, "Gun is not a location."),
        ({"weapon": "sailor"}, "Sailor is not a weapon."),
        ({"person": "batman"}, "There is no card called 'batman'."),
        ({"person": "florist", "weapon": "sailor"}, "Sailor is not a weapon."),
    ],
)
@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_accusation_refuses_cards_of_the_wrong_category_or_unknown(
    named: dict[str, str], message: str, edition: Edition
) -> None:
    refused(table(edition), WRONG.model_copy(update=named), message)


# --- Cards of the suits set aside -------------------------------------------------------------


@pytest.mark.parametrize(
    ("named", "message"),
    [
        (
            {"person": "florist"},
            "Florist is not in play at this table: the Brown suit is set aside with 4 "
            "players. In the 2020 rules you may only accuse cards in play.",
        ),
        (
            {"weapon": "bow"},
            "Bow is not in play at this table: the Gray suit is set aside with 4 players. "
            "In the 2020 rules you may only accuse cards in play.",
        ),
    ],
)
def test_2020_accusation_refuses_cards_of_suits_set_aside(
    named: dict[str, str], message: str
) -> None:
    """Referee decision (docs/decisions.md): such a card is known by everyone to be out of
    the game, so, like a visible card, 2020 does not let it be named; no glass is spent."""
    state = table("2020", glasses=2)
    full = refused(state, WRONG.model_copy(update=named), message)
    assert full == message
    assert state.seats[0].glasses == 2 and state.accusations == []
    flat = {c for cards in legal.accusable_cards(state, 0).values() for c in cards}
    assert not {"florist", "bow", "coachman", "railcar"} & flat


def test_2016_accusation_may_name_cards_of_suits_set_aside() -> None:
    """The reference: in 2016 "any cards may be named". The accusation is simply wrong: a
    glass is spent the 2016 way (to the fewest) and the turn goes on while glasses remain."""
    state = table("2016", glasses=2)
    aside = WRONG.model_copy(update={"person": "florist", "weapon": "bow"})
    after, events = play(state, aside)
    assert after.accusations[-1].cards == ("florist", "plaza", "bow")
    assert after.accusations[-1].correct is False
    assert [(e.giver, e.receiver, e.reason) for e in of_type(events, GlassMoved)] == [
        (0, 1, "accusation")  # all hold one: the first clockwise
    ]
    assert after.turn == 0 and after.seats[0].glasses == 1 and after.phase == "turns"
    assert total_glasses(after) == 10
    flat = {c for cards in legal.accusable_cards(state, 0).values() for c in cards}
    assert {"florist", "bow", "coachman", "railcar"} <= flat
    # the whole accusation out of the game: still just wrong, and the turn ends
    gone = Accuse(seat=0, person="coachman", location="railcar", weapon="hammer")
    after, _ = play(after, gone)
    assert after.accusations[-1].correct is False and after.turn == 1


# --- The rulebook's example: Mary's two accusations -------------------------------------------

MARY_HOLDERS = {
    0: ["officer", "parlor", "knife"],
    1: ["duke", "market", "crossbow"],
    2: ["butcher", "library", "poison"],
}
MARY_SCREENS = {0: ["countess", "park"], 1: ["sword", "nurse"], 2: ["museum", "blowgun"]}
MARY_WRONG = Accuse(seat=0, person="maid", location="harbor", weapon="rifle")
MARY_RIGHT = Accuse(seat=0, person="officer", location="parlor", weapon="knife")


def mary_table(edition: Edition) -> GameState:
    """Mary (seat 0) starts her turn with 2 glasses; Nick and Olga hold one each."""
    return build_state(
        3,
        edition=edition,
        holders=MARY_HOLDERS,
        screens=MARY_SCREENS,
        glasses=[2, 1, 1],
        names=("Mary", "Nick", "Olga"),
    )


def test_mary_2016_wrong_then_right_accusation_in_the_same_turn_wins() -> None:
    state, events = play(mary_table("2016"), MARY_WRONG)
    spent = of_type(events, GlassMoved)
    assert [(e.receiver, e.reason) for e in spent] == [(1, "accusation")]  # tie: Nick first
    assert state.turn == 0 and state.seats[0].glasses == 1 and state.phase == "turns"
    state, events = play(state, MARY_RIGHT)
    assert state.phase == "over" and state.winner == 0
    assert [a.correct for a in state.accusations] == [False, True]
    assert state.turn_number == 1  # all in Mary's one turn
    assert total_glasses(state) == 10


def test_mary_2020_wrong_accusation_ends_her_turn_second_is_refused_next_turn_wins() -> None:
    state, _ = play(mary_table("2020"), MARY_WRONG)
    assert state.seats[0].glasses == 0 and state.supply == 6  # 4 + spent 1 + returned 1
    assert state.turn == 1 and state.phase == "turns"
    refused(state, MARY_RIGHT, "It is Nick's turn, not yours.")
    state, _ = play(
        state,
        Ask(seat=1, witness=2, subject="red"),  # Nick's only glass goes to Olga
        Ask(seat=2, witness=0, subject="pink"),  # Olga: one to Mary
        Ask(seat=2, witness=1, subject="purple"),  # and one to Nick
    )
    assert state.turn == 0 and state.turn_number == 4 and state.seats[0].glasses == 1
    state, _ = play(state, MARY_RIGHT)
    assert state.phase == "over" and state.winner == 0
    assert [a.correct for a in state.accusations] == [False, True]
    assert total_glasses(state) == 8
