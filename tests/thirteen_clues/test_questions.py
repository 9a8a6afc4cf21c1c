"""Rules reference: "Action 1 — Question a Witness" and its Top Secret variant."""

from __future__ import annotations

import pytest

from engine.thirteen_clues import legal, player_view, public_view
from engine.thirteen_clues.actions import Ask
from engine.thirteen_clues.cards import Category, SubCategory
from engine.thirteen_clues.events import GlassMoved, QuestionAnswered
from engine.thirteen_clues.rules import answer_for
from engine.thirteen_clues.state import DEFAULT_EDITION, Edition, GameState
from testkit.events import of_type
from testkit.thirteen_clues import build_state, card_ids_in, play, recount, refused

HOLDERS = {
    0: ["officer", "parlor", "knife"],  # purple: Male, Indoor, Up close
    1: ["duke", "market", "crossbow"],  # pink: Male, Outdoor, Ranged
    2: ["butcher", "library", "poison"],  # red: Male, Indoor, Up close
}
SCREENS = {
    0: ["countess", "park"],  # green: Female, Outdoor
    1: ["sword", "nurse"],  # green Up close, yellow Female
    2: ["museum", "blowgun"],  # yellow: Indoor, Ranged
}
# Informants (3 players): maid, harbor, rifle, dancer, theater, gun.


def table(
    edition: Edition = DEFAULT_EDITION, top_secret: bool = False, glasses: int = 1
) -> GameState:
    return build_state(
        3,
        edition=edition,
        top_secret=top_secret,
        holders=HOLDERS,
        screens=SCREENS,
        glasses=[glasses, 1, 1],
    )


# What Bob (seat 1) sees: Ann's and Cat's holders and his own screen (sword, nurse).
BOB_SEES = {
    "purple": 3,
    "pink": 0,  # his own holder: hidden from him
    "red": 3,
    "green": 1,  # sword; Ann's countess/park are behind HER screen
    "yellow": 1,  # nurse; Cat's museum/blowgun are behind HER screen
    "blue": 0,
    "orange": 0,
    "male": 2,
    "female": 1,
    "indoor": 2,
    "outdoor": 0,
    "up_close": 3,
    "ranged": 0,
}


@pytest.mark.parametrize(("subject", "answer"), BOB_SEES.items())
def test_question_answer_is_every_holder_but_the_witnesses_plus_its_screen(
    subject: str, answer: int
) -> None:
    state = table()
    after, events = play(state, Ask(seat=0, witness=1, subject=subject))
    answered = of_type(events, QuestionAnswered)
    assert [e.answer for e in answered] == [answer]
    assert answer == recount(state, 1, subject, asker=0)
    assert after.questions[-1].answer == answer


def test_question_answer_does_not_depend_on_who_asks() -> None:
    state = table()
    for subject in BOB_SEES:
        assert answer_for(state, 0, 1, subject, None) == answer_for(state, 2, 1, subject, None)


def test_question_answer_counts_the_askers_own_holder() -> None:
    """Ann asks Bob about purple: Ann's own holder (hidden from Ann) is what Bob sees."""
    _, events = play(table(), Ask(seat=0, witness=1, subject="purple"))
    assert of_type(events, QuestionAnswered)[0].answer == 3


def test_question_answers_for_every_witness_match_an_independent_recount() -> None:
    state = table(edition="2016")
    for witness in range(3):
        for subject in legal.question_subjects(state):
            asker = (witness + 1) % 3
            expected = recount(state, witness, subject, asker=asker)
            assert answer_for(state, asker, witness, subject, None) == expected


def test_question_and_answer_are_public_and_recorded() -> None:
    after, events = play(table(glasses=2), Ask(seat=0, witness=2, subject="male"))
    answered = of_type(events, QuestionAnswered)[0]
    assert answered.audience.scope == "public"
    asked = (answered.asker, answered.witness, answered.subject, answered.answer)
    assert asked == (0, 2, "male", 2)
    assert not answered.top_secret
    assert [e.type for e in events] == ["glass_moved", "question_answered"]
    assert all(not card_ids_in(e) for e in events)
    shown = public_view(after).questions[-1]
    assert (shown.asker, shown.witness, shown.subject, shown.answer) == (0, 2, "male", 2)


@pytest.mark.parametrize("subject", [s.value for s in SubCategory])
def test_question_every_sub_category_is_a_valid_subject(subject: str) -> None:
    after, _ = play(table(), Ask(seat=0, witness=1, subject=subject))
    assert after.questions[-1].answer == BOB_SEES[subject]


@pytest.mark.parametrize("suit", ["white", "brown", "gray"])
def test_question_refuses_a_suit_not_in_play(suit: str) -> None:
    refused(
        table(),
        Ask(seat=0, witness=1, subject=suit),
        f"The {suit.capitalize()} suit is not in play at this table.",
    )


def test_question_refuses_an_unknown_subject() -> None:
    refused(table(), Ask(seat=0, witness=1, subject="banana"), "'banana' is not something")


@pytest.mark.parametrize(("subject", "answer"), [("person", 3), ("location", 2), ("weapon", 3)])
def test_question_category_is_valid_in_2016(subject: str, answer: int) -> None:
    after, _ = play(table(edition="2016"), Ask(seat=0, witness=1, subject=subject))
    assert after.questions[-1].answer == answer == recount(after, 1, subject, asker=0)


@pytest.mark.parametrize("subject", [c.value for c in Category])
def test_question_category_is_refused_in_2020_with_a_clear_message(subject: str) -> None:
    message = refused(
        table(edition="2020"),
        Ask(seat=0, witness=1, subject=subject),
        "In the 2020 rules you cannot ask about a whole category",
    )
    assert "suit or a sub-category" in message


def test_question_subjects_offered_per_edition() -> None:
    in_play = ["purple", "pink", "red", "green", "yellow", "blue", "orange"]
    subs = [s.value for s in SubCategory]
    assert legal.question_subjects(table("2020")) == in_play + subs
    assert legal.question_subjects(table("2016")) == [*in_play, *subs, "person", "location",
                                                      "weapon"]


@pytest.mark.parametrize("witness", [0, 3, -1])
def test_question_refuses_yourself_or_a_seat_not_at_the_table(witness: int) -> None:
    refused(
        table(), Ask(seat=0, witness=witness, subject="red"), "Ask another player at this table."
    )


def test_question_refuses_a_side_with_three_or_more_players() -> None:
    refused(
        table(),
        Ask(seat=0, witness=1, subject="red", side="left"),
        "Sides are only named in a two-player game.",
    )


# --- Top Secret variant ------------------------------------------------------------------------


def test_top_secret_public_event_names_only_asker_and_witness() -> None:
    state = table(top_secret=True, glasses=2)
    after, events = play(state, Ask(seat=0, witness=1, subject="purple", top_secret=True))
    public = [e for e in events if e.audience.scope == "public"]
    assert [e.type for e in public] == ["secret_question_asked", "glass_moved"]
    asked = public[0]
    assert asked.model_dump(exclude={"audience", "type"}) == {"asker": 0, "witness": 1}
    (moved,) = of_type(public, GlassMoved)
    assert (moved.giver, moved.receiver, moved.reason) == (0, 1, "question")
    assert after.seats[1].glasses == 2  # the glass still goes to the witness publicly
    for event in public:
        assert '"purple"' not in event.model_dump_json()


def test_top_secret_answer_is_private_to_asker_and_witness() -> None:
    state = table(top_secret=True)
    after, events = play(state, Ask(seat=0, witness=1, subject="purple", top_secret=True))
    answered = of_type(events, QuestionAnswered)
    assert len(answered) == 1
    assert answered[0].audience.scope == "private" and answered[0].audience.seats == (0, 1)
    assert answered[0].top_secret and answered[0].answer == 3 == recount(state, 1, "purple", 0)
    assert not answered[0].audience.includes(2)
    assert after.seats[0].top_secret_used


def test_top_secret_views_hide_the_question_from_everyone_else() -> None:
    after, _ = play(table(top_secret=True), Ask(seat=0, witness=1, subject="red", top_secret=True))
    masked = public_view(after).questions[-1]
    assert (masked.subject, masked.answer, masked.top_secret) == ("", -1, True)
    for seat in (0, 1):
        secret = player_view(after, seat).secret_questions
        assert [(q.subject, q.answer) for q in secret] == [("red", 3)]
    outsider = player_view(after, 2)
    assert outsider.secret_questions == []
    assert (outsider.questions[-1].subject, outsider.questions[-1].answer) == ("", -1)
    assert '"red"' not in public_view(after).model_dump_json()


def test_top_secret_token_used_at_most_once_per_game() -> None:
    state = table(top_secret=True, glasses=2)
    state, _ = play(state, Ask(seat=0, witness=1, subject="red", top_secret=True))
    message = refused(
        state,
        Ask(seat=0, witness=2, subject="pink", top_secret=True),
        "You have already used your Top Secret token.",
    )
    assert message
    state, _ = play(state, Ask(seat=0, witness=2, subject="pink"))  # an open question is fine
    assert state.turn == 1


def test_top_secret_each_seat_has_its_own_token() -> None:
    state = table(top_secret=True)
    state, _ = play(
        state,
        Ask(seat=0, witness=1, subject="red", top_secret=True),
        Ask(seat=1, witness=2, subject="red", top_secret=True),
    )
    assert [s.top_secret_used for s in state.seats] == [True, True, False]


def test_top_secret_refused_when_the_table_does_not_play_the_variant() -> None:
    refused(
        table(top_secret=False),
        Ask(seat=0, witness=1, subject="red", top_secret=True),
        "This table does not play the Top Secret variant.",
    )


def test_top_secret_allowed_in_2016_even_with_a_category() -> None:
    state = table(edition="2016", top_secret=True)
    _, events = play(state, Ask(seat=0, witness=1, subject="person", top_secret=True))
    answered = of_type(events, QuestionAnswered)[0]
    assert answered.audience.seats == (0, 1) and answered.answer == 3
