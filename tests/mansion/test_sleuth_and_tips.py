"""Rules reference: Super Sleuth and Private Tip."""

from __future__ import annotations

import pytest

from engine.mansion import legal, player_view, public_view
from engine.mansion.actions import AnswerTip, EndTurn, PrivateTip, ShowCard, SuperSleuth
from engine.mansion.cards import ACTIONS, matches
from engine.mansion.events import (
    CardShown,
    PromptOpened,
    SleuthAnswered,
    SleuthPlayed,
    TipAnswered,
    TipPassed,
)
from engine.mansion.observations import SleuthSeen, TipSeen
from engine.mansion.records import Sleuthed, Tipped
from engine.mansion.state import GameState
from testkit.events import of_type

from .helpers import (
    HANDS,
    build_state,
    play,
    private_to,
    public,
    refused,
    show_all,
    waiting_kinds,
)


# Solution: scarlet, balloon, niagara_falls.
def table(*cards: str) -> GameState:
    return build_state(4, hands=HANDS, actions={0: [*cards, "snoop"][:2]})


def last(state: GameState, kind: type) -> object:
    return next(r for r in reversed(state.log) if isinstance(r, kind))


# --- Super Sleuth -------------------------------------------------------------------------


def test_sleuth_each_opponent_shows_a_matching_card_or_nothing() -> None:
    """Western destinations: Bea holds mt_rushmore and hoover_dam (a choice), Cid
    old_faithful and alamo (a choice), Dee none."""
    state, events = play(table("sleuth_west"), SuperSleuth(seat=0, card="sleuth_west"))
    assert sorted(waiting_kinds(state)) == [(1, "show"), (2, "show")]
    assert legal.waiting_on(state) == [1, 2]
    answered = of_type(events, SleuthAnswered)
    assert [(e.seat, e.showed) for e in answered] == [(3, False)]
    played = of_type(events, SleuthPlayed)[0]
    assert played.audience.scope == "public" and played.order == [1, 2, 3]
    refused(state, ShowCard(seat=1, card="white"), "Mrs. White is not a western destination.")
    after, shown = play(state, ShowCard(seat=2, card="alamo"), ShowCard(seat=1, card="hoover_dam"))
    record = last(after, Sleuthed)
    assert isinstance(record, Sleuthed)
    assert [(a.seat, a.card) for a in record.answers] == [
        (1, "hoover_dam"),
        (2, "alamo"),
        (3, None),
    ]
    cards = of_type(shown, CardShown)
    assert {(e.seat, e.card, e.audience.seats) for e in cards} == {
        (2, "alamo", (0, 2)),
        (1, "hoover_dam", (0, 1)),
    }
    assert waiting_kinds(after) == [(0, "accuse_or_end")]


def test_sleuth_single_matches_are_asked_too() -> None:
    """Rules reference, Making a Suggestion: the refuter is always asked which card to show,
    even when only one fits; "The same holds for Super Sleuth answers."
    Female suspects: Bea white, Cid none, Dee peacock."""
    state, events = play(table("sleuth_female"), SuperSleuth(seat=0, card="sleuth_female"))
    assert sorted(waiting_kinds(state)) == [(1, "show"), (3, "show")]
    options = {e.prompt.seat: e.prompt.options for e in of_type(events, PromptOpened)}
    assert options == {1: [["white"]], 3: [["peacock"]]}
    answered = of_type(events, SleuthAnswered)
    assert [(e.seat, e.showed) for e in answered] == [(2, False)]
    assert not of_type(events, CardShown)
    after, more = show_all(state)
    assert waiting_kinds(after) == [(0, "accuse_or_end")]
    answered = of_type(more, SleuthAnswered)
    assert [(e.seat, e.showed) for e in answered] == [(1, True), (3, True)]
    assert all(e.audience.scope == "public" for e in answered)
    assert all("had_choice" not in e.model_dump() for e in answered)
    shown = {e.card for e in of_type(more, CardShown)}
    assert shown == {"white", "peacock"}


def test_sleuth_observations_public_who_showed_private_what() -> None:
    after, _ = show_all(play(table("sleuth_female"), SuperSleuth(seat=0, card="sleuth_female"))[0])
    channel = public_view(after).observations[-1]
    assert isinstance(channel, SleuthSeen)
    assert [(a.seat, a.showed, a.card) for a in channel.answers] == [
        (1, True, None),
        (2, False, None),
        (3, True, None),
    ]
    mine = player_view(after, 0).observations[-1]
    assert isinstance(mine, SleuthSeen)
    assert [a.card for a in mine.answers] == ["white", None, "peacock"]
    bea = player_view(after, 1).observations[-1]
    assert isinstance(bea, SleuthSeen)
    assert [a.card for a in bea.answers] == ["white", None, None]


@pytest.mark.parametrize(
    "card",
    ["sleuth_female", "sleuth_male", "sleuth_flies", "sleuth_blue", "sleuth_south", "sleuth_west"],
)
def test_every_sleuth_card_asks_every_opponent_truthfully(card: str) -> None:
    state, _ = play(table(card), SuperSleuth(seat=0, card=card))
    for prompt in list(state.prompts):
        if prompt.kind == "show":
            assert isinstance(prompt.options, list)
            state, _ = play(state, ShowCard(seat=prompt.seat, card=prompt.options[-1]))
    record = last(state, Sleuthed)
    assert isinstance(record, Sleuthed)
    for answer in record.answers:
        holding = [c for c in HANDS[answer.seat] if matches(c, ACTIONS[card])]
        assert (answer.card is None) == (not holding)
        assert answer.card is None or answer.card in holding


def test_sleuth_asks_wrong_accusers_and_the_fugitive_too() -> None:
    state = build_state(
        4, hands=HANDS, actions={0: ["sleuth_female", "snoop"]}, fugitive=3, eliminated=[1]
    )
    after, _ = show_all(play(state, SuperSleuth(seat=0, card="sleuth_female"))[0])
    record = last(after, Sleuthed)
    assert isinstance(record, Sleuthed)
    assert [a.card for a in record.answers] == ["white", None, "peacock"]
    assert len(after.draw) == len(state.draw)  # no burn: only refuting a Suggestion burns


# --- Private Tip --------------------------------------------------------------------------


def test_tip_all_of_a_kind_returns_every_card_of_it() -> None:
    state, events = play(
        table("tip_destinations"), PrivateTip(seat=0, card="tip_destinations", target=1)
    )
    assert waiting_kinds(state) == [(1, "answer_tip")]
    passed = of_type(events, TipPassed)
    assert [(e.audience.scope, e.card) for e in passed] == [
        ("public", None),
        ("private", "tip_destinations"),
    ]
    assert passed[1].audience.seats == (0, 1)
    opened = of_type(events, PromptOpened)[0]
    assert opened.prompt.options == [["mt_rushmore", "hoover_dam"]]
    refused(state, AnswerTip(seat=1, cards=["mt_rushmore"]), "return every one of them")
    after, answered = play(state, AnswerTip(seat=1, cards=["hoover_dam", "mt_rushmore"]))
    record = last(after, Tipped)
    assert isinstance(record, Tipped) and record.answer == ["mt_rushmore", "hoover_dam"]
    assert [(e.audience.scope, e.cards) for e in of_type(answered, TipAnswered)] == [
        ("public", None),
        ("private", ["mt_rushmore", "hoover_dam"]),
    ]
    assert waiting_kinds(after) == [(0, "accuse_or_end")]


def test_tip_one_of_a_feature_is_the_answerers_choice() -> None:
    """Red vehicles: Dee holds automobile and train."""
    state, _ = play(table("tip_red"), PrivateTip(seat=0, card="tip_red", target=3))
    assert legal.legal_actions(state, 3) == [
        AnswerTip(seat=3, cards=["automobile"]),
        AnswerTip(seat=3, cards=["train"]),
    ]
    refused(state, AnswerTip(seat=3, cards=["automobile", "train"]), "return exactly one")
    refused(state, AnswerTip(seat=3, cards=["peacock"]), "Mrs. Peacock is not a red vehicle.")
    refused(state, AnswerTip(seat=3, cards=["plum"]), "You do not hold Professor Plum.")
    refused(state, AnswerTip(seat=3, cards=[]), "return exactly one")
    after, _ = play(state, AnswerTip(seat=3, cards=["train"]))
    record = last(after, Tipped)
    assert isinstance(record, Tipped) and record.answer == ["train"]


def test_tip_with_nothing_to_return_is_still_answered() -> None:
    """Cid holds no female suspect: the prompt has one answer, nothing."""
    state, _ = play(table("tip_female"), PrivateTip(seat=0, card="tip_female", target=2))
    assert legal.legal_actions(state, 2) == [AnswerTip(seat=2, cards=[])]
    refused(
        state, AnswerTip(seat=2, cards=["green"]), "You hold no female suspect: return nothing."
    )
    after, _ = play(state, AnswerTip(seat=2, cards=[]))
    record = last(after, Tipped)
    assert isinstance(record, Tipped) and record.answer == []


@pytest.mark.parametrize(
    ("card", "target", "answers"),
    [
        ("tip_suspects", 1, [["white", "plum"]]),
        ("tip_vehicles", 2, [["airliner"]]),
        ("tip_destinations", 3, [["lincoln_memorial"]]),
        ("tip_female", 3, [["peacock"]]),
        ("tip_red", 1, [[]]),
        ("tip_north", 1, [["mt_rushmore"]]),
        ("tip_north", 2, [["old_faithful"]]),
    ],
)
def test_tip_options_for_every_tip(card: str, target: int, answers: list[list[str]]) -> None:
    state, _ = play(table(card), PrivateTip(seat=0, card=card, target=target))
    assert [a.cards for a in legal.legal_actions(state, target)] == answers  # type: ignore[union-attr]


def test_the_table_learns_only_that_a_tip_passed() -> None:
    state, events = play(table("tip_red"), PrivateTip(seat=0, card="tip_red", target=3))
    after, more = play(state, AnswerTip(seat=3, cards=["automobile"]))
    for event in public([*events, *more]):
        dump = event.model_dump()
        assert "tip_red" not in str(dump) and "automobile" not in str(dump)
    for seat, sees in ((0, True), (3, True), (1, False), (2, False)):
        entry = player_view(after, seat).observations[-1]
        assert isinstance(entry, TipSeen) and entry.answered
        assert (entry.card, entry.cards) == (("tip_red", ["automobile"]) if sees else (None, None))
    assert player_view(after, 1).played == "private_tip"
    assert player_view(after, 0).played == "tip_red"
    assert public_view(after).played == "private_tip"
    waiting = public_view(state).waiting[0]
    assert waiting.kind == "answer_tip" and waiting.tip is None and waiting.options is None
    assert private_to([*events, *more], 1) == [] and private_to([*events, *more], 2) == []


def test_a_played_tip_lies_face_down_in_the_discard() -> None:
    after, _ = play(
        table("tip_red"),
        PrivateTip(seat=0, card="tip_red", target=3),
        AnswerTip(seat=3, cards=["train"]),
        EndTurn(seat=0),
    )
    tip = after.discard[-1]
    assert (tip.card, tip.face_up, tip.seen_by) == ("tip_red", False, [0, 3])
    for seat, sees in ((0, True), (3, True), (1, False), (2, False)):
        assert player_view(after, seat).discard[-1].card == ("tip_red" if sees else "private_tip")
    assert public_view(after).discard[-1].card == "private_tip"


def test_tip_refusals() -> None:
    refused(table("tip_red"), PrivateTip(seat=0, card="tip_red", target=0), "Choose another player")
    refused(
        table("tip_red"),
        PrivateTip(seat=0, card="tip_north", target=1),
        "You do not hold a Private Tip: one northern destination card.",
    )
    refused(
        table("tip_red"),
        PrivateTip(seat=0, card="sleuth_west", target=1),
        "'sleuth_west' is not a Private Tip card.",
    )
    state, _ = play(table("tip_red"), PrivateTip(seat=0, card="tip_red", target=3))
    refused(state, AnswerTip(seat=1, cards=[]), "You have no Private Tip to answer.")
    refused(state, EndTurn(seat=0), "Wait: Dee must answer first.")
