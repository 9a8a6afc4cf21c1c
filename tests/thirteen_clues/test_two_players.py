"""Rules reference: "Two players"."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from pydantic import ValidationError

from engine.thirteen_clues import Options, legal, player_view
from engine.thirteen_clues.actions import Accuse, Action, Ask, ChoosePass, Consult, TakeGlass
from engine.thirteen_clues.cards import CARDS, Category, cards_in_play
from engine.thirteen_clues.deduction import slot_joint
from engine.thirteen_clues.events import (
    CaseFile,
    GlassMoved,
    GlassTaken,
    InformantCard,
    QuestionAnswered,
)
from engine.thirteen_clues.rules import answer_for, apply
from engine.thirteen_clues.state import DEFAULT_EDITION, Edition, GameState, Side
from testkit.events import of_type
from testkit.thirteen_clues import (
    build_state,
    choice_of,
    fresh_game,
    pass_first,
    play,
    recount,
    refused,
)

HOLDERS = {0: ["officer", "parlor", "knife"], 1: ["duke", "market", "crossbow"]}
SCREENS = {
    0: ["butcher", "library"],  # Ann: left butcher (Male, red), right library (Indoor, red)
    1: ["poison", "countess"],  # Bob: left poison (Up close, red), right countess (Female)
}
INFORMANTS = ["park", "sword", "nurse", "museum", "blowgun", "maid", "harbor", "rifle"]


def table(edition: Edition = DEFAULT_EDITION, turn: int = 0) -> GameState:
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
    assert [e.answer for e in of_type(events, QuestionAnswered)] == [answer]
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
    assert not of_type(events, GlassMoved) and not of_type(events, GlassTaken)
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
    assert of_type(events, InformantCard)[0].card == "rifle"
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


@pytest.mark.parametrize("edition", ["2020", "2016"])
@pytest.mark.parametrize(
    ("named", "message"),
    [
        ({"person": "butcher"}, "Butcher is behind your own screen"),
        ({"location": "library"}, "Library is behind your own screen"),
        ({"person": "duke"}, "Duke is on Bob's card holder"),
        ({"weapon": "crossbow"}, "Crossbow is on Bob's card holder"),
    ],
)
def test_two_players_ban_on_accusing_visible_cards_applies_under_either_rule_set(
    edition: Edition, named: dict[str, str], message: str
) -> None:
    """The reference's two-player rules: "The 2020 no-visible-cards rule applies", with no
    edition named (as "wrong simply ends the turn" beside it holds under 2016 too)."""
    accuse = Accuse(seat=0, person="maid", location="harbor", weapon="rifle")
    refused(table(edition), accuse.model_copy(update=named), message)
    assert legal.accusable(table(edition).options, legal.sees(table(edition), 0)) == (
        legal.accusation_choices(table(edition), 0))


@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_two_players_refuse_cards_of_suits_set_aside(edition: Edition) -> None:
    accuse = Accuse(seat=0, person="maid", location="railcar", weapon="rifle")
    refused(table(edition), accuse, "Railcar is not in play at this table: the Brown suit is "
            "set aside with 2 players.")


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
    case_files = of_type(events, CaseFile)
    assert [list(f.holders) for f in case_files] == [[1], [0]]


# --- which kept card is "left" -------------------------------------------------------------

SETUPS = 3000
"""Seeded two-player set-ups (6,000 screens): one standard error of a 1/3 share is 0.006."""
TOLERANCE = 0.025
"""About 4 standard errors. In deal order (Person, Location, Weapon, then two random cards)
the first kept card is a Person 39% of the time and the second a Weapon 39%."""


@cache
def _setups() -> tuple[GameState, ...]:
    """Seeded set-ups in the turns phase, each seat having passed a random legal choice."""
    states = []
    for seed in range(SETUPS):
        rng = random.Random(seed)
        state, _ = fresh_game(2, seed=seed)
        for i, seat in enumerate(state.seats):
            pick = {
                cat.value: rng.choice([c for c in seat.dealt if CARDS[c].category == cat])
                for cat in Category
            }
            state, _ = apply(state, choice_of(i, pick.values()))
        states.append(state)
    return tuple(states)


def _shares(index: int) -> dict[Category, float]:
    counts = Counter(CARDS[s.screen[index]].category for st in _setups() for s in st.seats)
    return {cat: counts[cat] / (2 * SETUPS) for cat in Category}


@pytest.mark.parametrize("side", ["left", "right"])
def test_two_players_each_category_is_left_and_right_a_third_of_the_time(side: Side) -> None:
    shares = _shares(0 if side == "left" else 1)
    for category, share in shares.items():
        assert abs(share - 1 / 3) < TOLERANCE, (side, category, shares)


def test_two_players_screen_sides_are_a_seeded_shuffle_of_the_kept_cards() -> None:
    """Both orders occur, and a replay of the same seed and passes gives the same sides."""
    orders: Counter[bool] = Counter()
    for state in _setups()[:200]:
        for seat in state.seats:
            kept = [c for c in seat.dealt if c not in (seat.passed or [])]
            assert sorted(seat.screen) == sorted(kept)
            orders[seat.screen == kept] += 1
    assert min(orders[True], orders[False]) > 150  # 400 screens, about half each way
    first = _setups()[7]
    again, _ = fresh_game(2, seed=7)
    for i, seat in enumerate(first.seats):
        assert seat.passed is not None
        again, _ = apply(again, ChoosePass(seat=i, person=seat.passed[0],
                                           location=seat.passed[1], weapon=seat.passed[2]))
    assert [s.screen for s in again.seats] == [s.screen for s in first.seats]


def test_two_players_solver_uniform_sides_match_the_deal() -> None:
    """The solver counts every (left, right) order alike: with nothing asked yet it gives
    each unknown card off my own holder the same chance to be the opponent's left card.
    Over the seeded
    set-ups, the chance it gives a category must match how often that category is dealt
    there; with the kept cards in deal order it did not (a Person 39% of the time)."""
    predicted = dict.fromkeys(Category, 0.0)
    observed: Counter[Category] = Counter()
    for n, state in enumerate(_setups()):
        for me in (0, 1):
            view = player_view(state, me)
            unknown = [c for c in cards_in_play(2) if c not in view.known()]
            assert len(unknown) == 13
            # one card of each category is on my own holder; the left card is any of the
            # other 10 alike
            chance = {
                cat: (sum(CARDS[c].category == cat for c in unknown) - 1) / 10 for cat in Category
            }
            if n < 3:  # the formula is the solver's own reading of a fresh table
                joint = slot_joint(view)["screen:" + str(1 - me)]
                total = sum(joint.values())
                for cat in Category:
                    mass = sum(k for (_, (left, _r)), k in joint.items()
                               if CARDS[left].category == cat)
                    assert mass / total == pytest.approx(chance[cat])
            for cat in Category:
                predicted[cat] += chance[cat]
            observed[CARDS[state.seats[1 - me].screen[0]].category] += 1
    for cat in Category:
        gap = (observed[cat] - predicted[cat]) / (2 * SETUPS)
        assert abs(gap) < TOLERANCE, (cat, observed, predicted)
