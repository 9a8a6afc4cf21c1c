"""Rules reference: "A turn" — draw, play one of two cards (or accuse), optionally accuse,
end; play passes left, skipping wrong accusers and (One Against All) the fugitive."""

from __future__ import annotations

import functools

from engine.mansion import legal
from engine.mansion.actions import (
    Accuse,
    EndTurn,
    Move,
    PickCard,
    ShowCard,
    Snoop,
    SuggestPresent,
)
from engine.mansion.events import ActionDrawn, TurnEnded, TurnStarted
from testkit.events import of_type

from .helpers import HANDS, build_state, play, refused, waiting_kinds

table = functools.partial(build_state, 4, hands=HANDS)
"""A 4-player table of HANDS (build_state's other keywords as given)."""


def test_turn_starts_with_the_draw_then_a_play_prompt() -> None:
    state = table()
    top = state.draw[-1]
    after, events = play(state, Move(seat=0, destination="alamo"), EndTurn(seat=0))
    assert after.turn == 1 and after.turn_number == 2
    assert after.seats[1].actions == ["snoop", top]
    assert len(after.draw) == len(state.draw) - 1
    assert waiting_kinds(after) == [(1, "play")]
    started = of_type(events, TurnStarted)[0]
    assert (started.seat, started.turn_number, started.draw_size) == (1, 2, len(after.draw))
    drawn = of_type(events, ActionDrawn)[0]
    assert drawn.audience.seats == (1,) and drawn.card == top


def test_play_then_accuse_or_end_then_the_card_goes_to_the_discard() -> None:
    state = table()
    after, _ = play(state, Move(seat=0, destination="alamo"))
    assert after.played == "suggest_present"
    assert after.seats[0].actions == ["suggest_any"]
    assert waiting_kinds(after) == [(0, "accuse_or_end")]
    assert after.discard == []
    ended, events = play(after, EndTurn(seat=0))
    assert [d.card for d in ended.discard] == ["suggest_present"]
    assert ended.played is None
    assert of_type(events, TurnEnded)[0].seat == 0


def test_play_passes_left_and_wraps() -> None:
    state = table(turn=3, actions={3: ["suggest_present", "snoop"]})
    after, _ = play(state, Move(seat=3, destination="alamo"), EndTurn(seat=3))
    assert after.turn == 0


def test_wrong_accusers_are_skipped() -> None:
    state = table(eliminated=[1, 2])
    after, _ = play(state, Move(seat=0, destination="alamo"), EndTurn(seat=0))
    assert after.turn == 3


def test_the_fugitive_takes_no_turns() -> None:
    state = build_state(4, hands=HANDS, fugitive=1)
    after, _ = play(state, Move(seat=0, destination="alamo"), EndTurn(seat=0))
    assert after.turn == 2
    refused(after, Snoop(seat=1, target=0), "The fugitive takes no turns")


def test_last_detective_standing_keeps_playing() -> None:
    state = table(eliminated=[1, 2, 3])
    after, _ = play(state, Move(seat=0, destination="alamo"), EndTurn(seat=0))
    assert after.turn == 0 and after.turn_number == 2
    assert waiting_kinds(after) == [(0, "play")]


def test_waiting_on_is_the_turn_player_or_the_prompted_seats() -> None:
    state = table()
    assert legal.waiting_on(state) == [0]
    assert legal.can_accuse(state, 0) and not legal.can_accuse(state, 1)
    assert legal.playable_cards(state, 0) == ["suggest_any", "suggest_present"]
    assert legal.playable_cards(state, 1) == []
    after, _ = play(state, SuggestPresent(seat=0, suspect="peacock", vehicle="automobile"))
    assert legal.waiting_on(after) == [3]
    assert not legal.can_accuse(after, 0) and legal.legal_actions(after, 0) == []
    done, _ = play(after, ShowCard(seat=3, card="peacock"))
    assert legal.waiting_on(done) == [0] and legal.can_accuse(done, 0)


def test_turn_key_changes_with_every_change_of_who_is_waited_on() -> None:
    state = table()
    keys = [legal.turn_key(state)]
    for action in (
        SuggestPresent(seat=0, suspect="peacock", vehicle="automobile"),
        ShowCard(seat=3, card="peacock"),
        EndTurn(seat=0),
    ):
        state, _ = play(state, action)
        keys.append(legal.turn_key(state))
    assert len(set(keys)) == len(keys)


def test_turn_key_holds_through_the_turn_players_own_moves() -> None:
    """The turn timer runs once for a turn nobody else answers in: a Snoop, its pick and
    the end of the turn keep one key."""
    state = table(actions={0: ["snoop", "suggest_any"]})
    key = legal.turn_key(state)
    snooped, _ = play(state, Snoop(seat=0, target=1))
    picked, _ = play(snooped, PickCard(seat=0, position=0))
    assert legal.waiting_on(snooped) == legal.waiting_on(picked) == [0]
    assert legal.turn_key(snooped) == legal.turn_key(picked) == key
    ended, _ = play(picked, EndTurn(seat=0))
    assert legal.turn_key(ended) != key


# --- refusals -----------------------------------------------------------------------------


def test_not_your_turn() -> None:
    refused(table(), Snoop(seat=1, target=0), "It is Ann's turn, not yours.")
    refused(table(), EndTurn(seat=2), "It is Ann's turn, not yours.")
    refused(
        table(),
        Accuse(seat=2, suspect="plum", vehicle="train", destination="alamo"),
        "It is Ann's turn, not yours.",
    )


def test_end_before_playing_and_play_twice() -> None:
    state = table()
    refused(state, EndTurn(seat=0), "Play one of your Action cards (or accuse) before")
    after, _ = play(state, Move(seat=0, destination="alamo"))
    refused(
        after,
        SuggestPresent(seat=0, suspect="plum", vehicle="train"),
        "You have already played a card this turn",
    )


def test_a_card_you_do_not_hold() -> None:
    refused(table(), Snoop(seat=0, target=1), "You do not hold a Snoop card.")


def test_the_turn_player_waits_for_an_answer() -> None:
    state, _ = play(table(), SuggestPresent(seat=0, suspect="peacock", vehicle="automobile"))
    refused(state, EndTurn(seat=0), "Wait: Dee must answer first.")
    refused(state, ShowCard(seat=1, card="white"), "Nobody is waiting for you to show a card.")


def test_seats_outside_the_table() -> None:
    refused(table(), Snoop(seat=7, target=0), "You are not seated at this table.")
    refused(table(), Snoop(seat=-1, target=0), "You are not seated at this table.")
