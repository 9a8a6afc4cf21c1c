"""Rules reference: the two Suggestion cards, marker swaps, "or move", and "Making a
Suggestion" (refutation clockwise from the suggester's left, the refuter's choice)."""

from __future__ import annotations

import functools

import pytest

from engine.mansion import legal, player_view, public_view
from engine.mansion.actions import (
    Accuse,
    EndTurn,
    Move,
    ShowCard,
    SuggestAny,
    SuggestPresent,
)
from engine.mansion.events import (
    ActionBurned,
    CardShown,
    MarkersSwapped,
    PromptOpened,
    SuggestionAnswered,
    SuggestionMade,
)
from engine.mansion.observations import SuggestionSeen
from engine.mansion.records import Suggested
from engine.mansion.state import GameState
from testkit.events import of_type

from .helpers import HANDS, build_state, play, private_to, public, refused, waiting_kinds

# Solution: scarlet, balloon, niagara_falls. Markers: Ann niagara_falls, Bea coney_island,
# Cid mt_rushmore, Dee old_faithful; by the tray: the other five.
table = functools.partial(build_state, 4, hands=HANDS)
"""A 4-player table of HANDS (build_state's other keywords as given)."""


def last_suggestion(state: GameState) -> Suggested:
    return next(r for r in reversed(state.log) if isinstance(r, Suggested))


def test_present_suggestion_names_the_marker_in_front_of_you() -> None:
    _, events = play(table(), SuggestPresent(seat=0, suspect="white", vehicle="airliner"))
    made = of_type(events, SuggestionMade)[0]
    assert made.named.cards() == ("white", "airliner", "niagara_falls")
    assert made.audience.scope == "public" and made.card == "suggest_present"


def test_a_refuter_with_exactly_one_is_still_asked_which_to_show() -> None:
    """Rules reference, Making a Suggestion: "Nobody else learns whether the refuter held one
    or several of the three: the refuter is always asked which card to show, even when only
    one fits (an instant answer for one card and a prompt for several would tell the
    table)." """
    state, events = play(table(), SuggestPresent(seat=0, suspect="white", vehicle="airliner"))
    record = last_suggestion(state)
    assert (record.passed, record.refuter, record.shown) == ([], 1, None)
    assert waiting_kinds(state) == [(1, "show")]
    opened = of_type(events, PromptOpened)[0]
    assert opened.audience.seats == (1,) and opened.prompt.options == [["white"]]
    assert not of_type(events, CardShown)
    answered = of_type(events, SuggestionAnswered)[0]
    assert answered.audience.scope == "public"
    assert (answered.refuter, answered.passed) == (1, [])
    assert "had_choice" not in answered.model_dump()
    after, shown_events = play(state, ShowCard(seat=1, card="white"))
    shown = of_type(shown_events, CardShown)
    assert len(shown) == 1 and shown[0].audience.seats == (0, 1) and shown[0].card == "white"
    assert last_suggestion(after).shown == "white"
    assert waiting_kinds(after) == [(0, "accuse_or_end")]


def test_players_who_hold_none_pass_and_the_next_one_is_asked() -> None:
    after, _ = play(
        table(),
        SuggestPresent(seat=0, suspect="green", vehicle="train"),
        ShowCard(seat=2, card="green"),
    )
    record = last_suggestion(after)
    assert record.passed == [1]
    assert record.refuter == 2 and record.shown == "green"


def test_a_refuter_with_two_or_more_chooses_which_to_show() -> None:
    state, events = play(table(), SuggestPresent(seat=0, suspect="peacock", vehicle="automobile"))
    record = last_suggestion(state)
    assert (record.passed, record.refuter, record.shown) == ([1, 2], 3, None)
    assert waiting_kinds(state) == [(3, "show")]
    opened = of_type(events, PromptOpened)[0]
    assert opened.audience.seats == (3,)
    assert opened.prompt.options == [["peacock"], ["automobile"]]
    assert not of_type(events, CardShown)
    assert legal.legal_actions(state, 3) == [
        ShowCard(seat=3, card="peacock"),
        ShowCard(seat=3, card="automobile"),
    ]
    after, shown = play(state, ShowCard(seat=3, card="automobile"))
    assert last_suggestion(after).shown == "automobile"
    card_shown = of_type(shown, CardShown)[0]
    assert card_shown.audience.seats == (0, 3) and card_shown.card == "automobile"
    assert waiting_kinds(after) == [(0, "accuse_or_end")]


def test_the_refuter_may_only_show_a_named_card_it_holds() -> None:
    state, _ = play(table(), SuggestPresent(seat=0, suspect="peacock", vehicle="automobile"))
    refused(state, ShowCard(seat=3, card="train"), "Train is not one of the three cards named.")
    refused(state, ShowCard(seat=3, card="white"), "You do not hold Mrs. White.")
    refused(state, ShowCard(seat=3, card="batmobile"), "There is no card called 'batmobile'.")
    refused(state, ShowCard(seat=2, card="green"), "Nobody is waiting for you to show a card.")


def test_nobody_can_refute() -> None:
    after, events = play(table(), SuggestPresent(seat=0, suspect="scarlet", vehicle="balloon"))
    record = last_suggestion(after)
    assert (record.passed, record.refuter, record.shown) == ([1, 2, 3], None, None)
    assert of_type(events, SuggestionAnswered)[0].refuter is None
    assert not of_type(events, CardShown)


def test_you_may_name_your_own_cards_and_they_do_not_refute() -> None:
    after, _ = play(table(), SuggestPresent(seat=0, suspect="mustard", vehicle="seaplane"))
    assert last_suggestion(after).refuter is None


def test_refutation_starts_at_the_suggesters_left() -> None:
    """Cid suggests plum (Bea) and alamo (Cid's own): Dee, Ann pass, Bea refutes."""
    state = table(turn=2, actions={2: ["suggest_any", "snoop"]})
    after, _ = play(
        state, SuggestAny(seat=2, destination="mt_rushmore", suspect="plum", vehicle="balloon")
    )
    record = last_suggestion(after)
    assert record.passed == [3, 0] and record.refuter == 1


def test_a_wrong_accuser_still_refutes() -> None:
    after, _ = play(
        table(eliminated=[1]), SuggestPresent(seat=0, suspect="white", vehicle="balloon")
    )
    assert last_suggestion(after).refuter == 1


# --- Suggestion from ANY destination and marker swaps ----------------------------------------


def test_any_from_the_tray_swaps_with_the_tray() -> None:
    state = table()
    after, events = play(
        state, SuggestAny(seat=0, destination="alamo", suspect="green", vehicle="train")
    )
    assert after.seats[0].marker == "alamo"
    assert "niagara_falls" in after.tray and "alamo" not in after.tray
    swap = of_type(events, MarkersSwapped)[0]
    assert (swap.seat, swap.gave, swap.took, swap.other) == (0, "niagara_falls", "alamo", None)
    record = last_suggestion(after)
    assert record.named.destination == "alamo"
    assert record.passed == [1] and record.refuter == 2 and waiting_kinds(after) == [(2, "show")]


def test_any_from_a_players_marker_swaps_with_that_player() -> None:
    after, events = play(
        table(), SuggestAny(seat=0, destination="mt_rushmore", suspect="plum", vehicle="train")
    )
    assert after.seats[0].marker == "mt_rushmore"
    assert after.seats[2].marker == "niagara_falls"
    swap = of_type(events, MarkersSwapped)[0]
    assert swap.other == 2 and swap.audience.scope == "public"
    assert last_suggestion(after).refuter == 1


def test_any_from_your_own_destination_swaps_nothing() -> None:
    after, events = play(
        table(), SuggestAny(seat=0, destination="niagara_falls", suspect="plum", vehicle="train")
    )
    assert not of_type(events, MarkersSwapped)
    assert after.seats[0].marker == "niagara_falls"


def test_you_may_swap_with_a_wrong_accuser_and_with_the_fugitive() -> None:
    after, _ = play(
        table(eliminated=[1]),
        SuggestAny(seat=0, destination="coney_island", suspect="plum", vehicle="train"),
    )
    assert after.seats[1].marker == "niagara_falls"
    oaa = build_state(4, hands=HANDS, fugitive=3)
    moved, _ = play(oaa, Move(seat=0, destination="old_faithful"))
    assert moved.seats[3].marker == "niagara_falls" and moved.seats[0].marker == "old_faithful"


def test_suggestion_refuses_cards_of_the_wrong_kind() -> None:
    refused(
        table(),
        SuggestAny(seat=0, destination="plum", suspect="green", vehicle="train"),
        "Professor Plum is not a destination.",
    )
    refused(
        table(),
        SuggestPresent(seat=0, suspect="train", vehicle="train"),
        "Train is not a suspect.",
    )
    refused(
        table(),
        SuggestPresent(seat=0, suspect="plum", vehicle="jetpack"),
        "There is no card called 'jetpack'.",
    )


# --- "or move" ----------------------------------------------------------------------------


def test_move_swaps_and_makes_no_suggestion_then_accuse_or_end() -> None:
    after, events = play(table(), Move(seat=0, destination="coney_island"))
    assert after.seats[0].marker == "coney_island" and after.seats[1].marker == "niagara_falls"
    assert not of_type(events, SuggestionMade)
    swap = of_type(events, MarkersSwapped)[0]
    assert swap.card == "suggest_present"
    assert waiting_kinds(after) == [(0, "accuse_or_end")]
    won, _ = play(
        after, Accuse(seat=0, suspect="scarlet", vehicle="balloon", destination="niagara_falls")
    )
    assert won.is_over and won.master == 0


def test_move_to_the_tray() -> None:
    after, _ = play(table(), Move(seat=0, destination="miami_beach"))
    assert after.seats[0].marker == "miami_beach" and "niagara_falls" in after.tray


def test_move_to_where_you_are_is_refused() -> None:
    refused(table(), Move(seat=0, destination="niagara_falls"), "You are already at Niagara Falls")


def test_move_needs_the_present_card() -> None:
    state = table(actions={0: ["suggest_any", "snoop"]})
    refused(
        state,
        Move(seat=0, destination="alamo"),
        "You do not hold a Suggestion from PRESENT destination (or move) card.",
    )


# --- One Against All ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_detectives_refute_first_the_fugitive_only_if_none_can(players: int) -> None:
    """The fugitive sits at the suggester's left and holds the named suspect, but a detective
    further round holds the vehicle: the detective refutes."""
    hands = {1: ["plum", "mustard", "white"], players - 1: ["train", "airliner", "green"]}
    state = build_state(players, hands=hands, fugitive=1)
    after, _ = play(state, SuggestPresent(seat=0, suspect="plum", vehicle="train"))
    record = last_suggestion(after)
    assert record.refuter == players - 1
    assert record.passed == [s for s in range(2, players - 1)]
    assert record.burned is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fugitive_refutes_last_and_burns_the_top_action_card(players: int) -> None:
    hands = {1: ["plum", "mustard", "white"]}
    state = build_state(players, hands=hands, fugitive=1)
    top = state.draw[-1]
    after, events = play(
        state,
        SuggestPresent(seat=0, suspect="plum", vehicle="balloon"),
        ShowCard(seat=1, card="plum"),
    )
    record = last_suggestion(after)
    assert record.refuter == 1 and record.shown == "plum"
    assert record.passed == [s for s in range(2, players)]
    assert record.burned == top
    assert after.discard[-1].card == top and after.discard[-1].face_up
    assert len(after.draw) == len(state.draw) - 1
    burned = of_type(events, ActionBurned)[0]
    assert burned.audience.scope == "public" and burned.card == top
    seen = player_view(after, 2).observations[-1]
    assert isinstance(seen, SuggestionSeen) and seen.fugitive_refuted and seen.shown is None


def test_fugitive_with_a_choice_still_burns_once() -> None:
    state = build_state(3, hands={2: ["plum", "train", "white"]}, fugitive=2)
    after, _ = play(state, SuggestPresent(seat=0, suspect="plum", vehicle="train"))
    assert waiting_kinds(after) == [(2, "show")]
    assert len(after.draw) == len(state.draw) - 1
    done, _ = play(after, ShowCard(seat=2, card="train"))
    assert len(done.draw) == len(after.draw) and last_suggestion(done).shown == "train"


def test_fugitive_refuting_on_an_empty_pile_burns_nothing() -> None:
    state = build_state(3, hands={1: ["plum"]}, fugitive=1, draw=[])
    after, events = play(
        state,
        SuggestPresent(seat=0, suspect="plum", vehicle="balloon"),
        ShowCard(seat=1, card="plum"),
    )
    assert last_suggestion(after).burned is None and not of_type(events, ActionBurned)
    assert not after.is_over
    ended, _ = play(after, EndTurn(seat=0))
    # the next draw finds the pile empty: the fugitive escapes (and solved no crime)
    assert ended.is_over and ended.ended_by == "escaped" and ended.rounds[-1].winner == 1
    assert legal.winners(ended) == {1} and ended.master is None


def test_public_sees_the_suggestion_and_who_refuted_not_the_card() -> None:
    after, events = play(
        table(),
        SuggestPresent(seat=0, suspect="green", vehicle="train"),
        ShowCard(seat=2, card="green"),
    )
    for event in public(events):
        assert "card" not in event.model_dump() or event.type == "suggestion_made"
    entry = public_view(after).observations[-1]
    assert isinstance(entry, SuggestionSeen)
    assert entry.refuter == 2 and entry.passed == [1] and entry.shown is None
    for seat, sees in ((0, True), (2, True), (1, False), (3, False)):
        mine = player_view(after, seat).observations[-1]
        assert isinstance(mine, SuggestionSeen)
        assert (mine.shown is not None) == sees
    assert private_to(events, 1) == private_to(events, 3) == []
