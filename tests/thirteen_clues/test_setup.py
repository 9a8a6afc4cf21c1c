"""Rules reference: "The cards", "Players, suits in play, informants, magnifying glasses",
"Seating and direction" and "Setup" steps 1–4, 6–8."""

from __future__ import annotations

from collections import Counter

import pytest
from pydantic import ValidationError

from engine.errors import RuleError
from engine.thirteen_clues import GameState, Options, PlayerRef, new_game
from engine.thirteen_clues.cards import (
    CARDS,
    REMOVED_SUITS,
    Category,
    SubCategory,
    Suit,
    cards_in_play,
    suits_in_play,
)
from engine.thirteen_clues.events import CardsDealt, GameStarted, GlassTaken, PlayBegan, TurnStarted
from engine.thirteen_clues.state import DEFAULT_EDITION, EDITIONS, GLASSES_IN_BOX, Edition
from testkit.events import of_type
from testkit.thirteen_clues import NAMES, fresh_game, pass_first, refs, total_glasses

PLAYER_COUNTS = [2, 3, 4, 5, 6]
SEEDS = range(40)


# --- The cards ---------------------------------------------------------------------------


def test_cards_30_in_10_suits_each_one_person_location_weapon() -> None:
    assert len(CARDS) == 30
    by_suit = Counter(info.suit for info in CARDS.values())
    assert by_suit == dict.fromkeys(Suit, 3)
    for suit in Suit:
        assert sorted(c.category for c in CARDS.values() if c.suit == suit) == sorted(Category)


def test_cards_six_sub_categories_of_five_each_within_their_category() -> None:
    parent = {
        SubCategory.MALE: Category.PERSON,
        SubCategory.FEMALE: Category.PERSON,
        SubCategory.INDOOR: Category.LOCATION,
        SubCategory.OUTDOOR: Category.LOCATION,
        SubCategory.UP_CLOSE: Category.WEAPON,
        SubCategory.RANGED: Category.WEAPON,
    }
    for sub, category in parent.items():
        members = [c for c in CARDS.values() if c.sub == sub]
        assert len(members) == 5
        assert all(c.category == category for c in members)


def test_cards_table_matches_the_reference() -> None:
    """A few rows spelled out, so a typo in the table cannot hide."""
    expected = {
        "officer": (Suit.PURPLE, SubCategory.MALE),
        "market": (Suit.PINK, SubCategory.OUTDOOR),
        "poison": (Suit.RED, SubCategory.UP_CLOSE),
        "countess": (Suit.GREEN, SubCategory.FEMALE),
        "blowgun": (Suit.YELLOW, SubCategory.RANGED),
        "harbor": (Suit.BLUE, SubCategory.OUTDOOR),
        "dancer": (Suit.ORANGE, SubCategory.FEMALE),
        "candlestick": (Suit.WHITE, SubCategory.UP_CLOSE),
        "railcar": (Suit.BROWN, SubCategory.INDOOR),
        "racecourse": (Suit.GRAY, SubCategory.OUTDOOR),
    }
    for card, (suit, sub) in expected.items():
        assert (CARDS[card].suit, CARDS[card].sub) == (suit, sub)


# --- Players, suits in play, informants, glasses -------------------------------------------


@pytest.mark.parametrize(
    ("players", "removed"),
    [
        (2, {Suit.GRAY, Suit.BROWN, Suit.WHITE, Suit.ORANGE}),
        (3, {Suit.GRAY, Suit.BROWN, Suit.WHITE}),
        (4, {Suit.GRAY, Suit.BROWN}),
        (5, {Suit.GRAY}),
        (6, set()),
    ],
)
def test_setup_step1_suits_removed_per_player_count(players: int, removed: set[Suit]) -> None:
    assert set(REMOVED_SUITS[players]) == removed
    assert set(suits_in_play(players)) == set(Suit) - removed
    state, _ = fresh_game(players)
    dealt = {c for s in state.seats for c in s.dealt} | set(state.informants)
    assert {CARDS[c].suit for c in dealt} == set(Suit) - removed


@pytest.mark.parametrize(
    ("players", "cards", "informants", "letters"),
    [
        (2, 18, 8, "ABCDEFGH"),
        (3, 21, 6, "ABCDEF"),
        (4, 24, 4, "ABCD"),
        (5, 27, 2, "AB"),
        (6, 30, 0, ""),
    ],
)
def test_setup_card_and_informant_counts_and_letters(
    players: int, cards: int, informants: int, letters: str
) -> None:
    assert len(cards_in_play(players)) == cards
    state, _ = fresh_game(players)
    assert len(state.informants) == informants
    assert state.letters() == list(letters)
    dealt = [c for s in state.seats for c in s.dealt]
    assert sorted(dealt + state.informants) == sorted(cards_in_play(players))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_thirteen_unknown_cards_per_player(players: int) -> None:
    """Own holder 3 + 2 behind each other screen + the informants = 13."""
    state, _ = pass_first(fresh_game(players)[0])
    for seat in range(players):
        unknown = set(cards_in_play(players)) - state.sees(seat)
        assert len(unknown) == 13
        assert set(state.seats[seat].holder) <= unknown


# --- Setup steps 2-4: the deal -------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_step2_3_category_first_deal_five_cards_each(players: int) -> None:
    for seed in SEEDS:
        state, _ = fresh_game(players, seed=seed)
        for seat in state.seats:
            assert len(seat.dealt) == 5 and len(set(seat.dealt)) == 5
            categories = Counter(CARDS[c].category for c in seat.dealt)
            assert all(categories[cat] >= 1 for cat in Category), seat.dealt
        everything = [c for s in state.seats for c in s.dealt] + state.informants
        assert len(everything) == len(set(everything)) == len(cards_in_play(players))


def test_setup_step2_first_three_dealt_are_one_of_each_category() -> None:
    """The deal order is kept: dealt[:3] are the Person, Location, Weapon of step 2."""
    for seed in SEEDS:
        state, _ = fresh_game(4, seed=seed)
        for seat in state.seats:
            assert [CARDS[c].category for c in seat.dealt[:3]] == list(Category)


def test_setup_step4_informants_are_the_undealt_cards_lettered_in_order() -> None:
    state, _ = fresh_game(3, seed=7)
    dealt = {c for s in state.seats for c in s.dealt}
    assert set(state.informants) == set(cards_in_play(3)) - dealt
    assert state.letters() == ["A", "B", "C", "D", "E", "F"]


def test_setup_deal_varies_with_seed_and_repeats_with_same_seed() -> None:
    deals = {tuple(tuple(s.dealt) for s in fresh_game(4, seed=seed)[0].seats) for seed in SEEDS}
    assert len(deals) > 30
    assert fresh_game(4, seed=5) == fresh_game(4, seed=5)


# --- Seating and starting player -----------------------------------------------------------


def test_seating_order_is_shuffled_by_the_seed() -> None:
    orders = {tuple(s.id for s in fresh_game(5, seed=seed)[0].seats) for seed in SEEDS}
    assert len(orders) > 20
    assert all(sorted(order) == [f"u{i}" for i in range(5)] for order in orders)
    first = fresh_game(5, seed=3)[0]
    assert [s.id for s in first.seats] == [s.id for s in fresh_game(5, seed=3)[0].seats]


def test_seating_names_follow_their_players() -> None:
    state, events = fresh_game(4, seed=11)
    by_id = {p.id: p.name for p in refs(4)}
    assert all(s.name == by_id[s.id] for s in state.seats)
    started = of_type(events, GameStarted)[0]
    assert started.seat_names == [s.name for s in state.seats]
    assert started.audience.scope == "public"


def test_seating_left_is_the_next_seat_clockwise_and_right_the_previous() -> None:
    state, _ = fresh_game(4)
    assert [state.left_of(i) for i in range(4)] == [1, 2, 3, 0]
    assert [state.right_of(i) for i in range(4)] == [3, 0, 1, 2]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_step8_starting_player_is_random(players: int) -> None:
    starters = Counter(fresh_game(players, seed=seed)[0].starter for seed in range(200))
    assert set(starters) == set(range(players))
    state, events = fresh_game(players, seed=9)
    assert state.turn == state.starter
    assert of_type(events, GameStarted)[0].starter == state.starter


def test_setup_step8_first_turn_is_the_starting_players_and_turns_go_clockwise() -> None:
    state, events = pass_first(fresh_game(4, seed=2)[0])
    assert state.phase == "turns" and state.turn == state.starter and state.turn_number == 1
    started = of_type(events, TurnStarted)
    assert [e.seat for e in started] == [state.starter]


# --- Setup step 6: glasses -------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_setup_step6_one_glass_each_rest_in_supply(players: int, edition: Edition) -> None:
    assert GLASSES_IN_BOX == {"2020": 8, "2016": 10}
    state, events = pass_first(fresh_game(players, edition)[0])
    assert [s.glasses for s in state.seats] == [1] * players
    assert state.supply == GLASSES_IN_BOX[edition] - players
    assert total_glasses(state) == {"2020": 8, "2016": 10}[edition]
    began = of_type(events, PlayBegan)[0]
    assert began.glasses == [1] * players and began.supply == state.supply
    assert began.audience.scope == "public"


@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_setup_step6_no_glasses_with_two_players(edition: Edition) -> None:
    state, events = pass_first(fresh_game(2, edition)[0])
    assert [s.glasses for s in state.seats] == [0, 0] and state.supply == 0
    assert of_type(events, PlayBegan)[0].glasses == [0, 0]
    assert not of_type(events, GlassTaken)


def test_setup_no_glasses_during_the_pass() -> None:
    state, _ = fresh_game(4)
    assert total_glasses(state) == 0 and state.phase == "passing"


# --- Setup step 7 and Options ----------------------------------------------------------------


def test_setup_step7_top_secret_token_for_each_seat_unused_at_start() -> None:
    state, _ = pass_first(fresh_game(4, top_secret=True)[0])
    assert state.options.top_secret
    assert all(not s.top_secret_used for s in state.seats)


def test_options_refuse_top_secret_with_two_players() -> None:
    with pytest.raises(ValidationError, match="not used with two players"):
        Options(players=2, top_secret=True)


@pytest.mark.parametrize("players", [1, 7])
def test_options_refuse_player_counts_outside_two_to_six(players: int) -> None:
    with pytest.raises(ValidationError):
        Options(players=players)


def test_options_default_is_the_2020_edition_without_top_secret() -> None:
    """The reference: "the 2020 (second edition) rules are the default", in one constant."""
    assert DEFAULT_EDITION == "2020"
    assert EDITIONS == ("2020", "2016")
    options = Options(players=4)
    assert options.edition == DEFAULT_EDITION and not options.top_secret


def test_new_game_refuses_wrong_player_count() -> None:
    with pytest.raises(RuleError, match=r"This table is set for 3 players, not 2\."):
        new_game(refs(2), Options(players=3), seed=1)


def test_new_game_refuses_one_player_in_two_seats() -> None:
    twice = [PlayerRef(id="same", name=NAMES[0]), PlayerRef(id="same", name=NAMES[1])]
    with pytest.raises(RuleError, match=r"A player cannot take two seats\."):
        new_game([*twice, PlayerRef(id="x", name="Cat")], Options(players=3), seed=1)


def test_new_game_deals_privately_and_announces_publicly() -> None:
    state, events = fresh_game(3)
    assert [e.type for e in events] == ["game_started", *["cards_dealt"] * 3]
    for seat, event in enumerate(of_type(events, CardsDealt)):
        assert event.audience.scope == "private" and event.audience.seats == (seat,)
        assert event.cards == state.seats[seat].dealt
    assert state.phase == "passing" and state.turn_number == 0


def test_new_game_state_round_trips_through_json() -> None:
    state, _ = fresh_game(5, "2016", top_secret=True, seed=99)
    assert GameState.model_validate_json(state.model_dump_json()) == state
