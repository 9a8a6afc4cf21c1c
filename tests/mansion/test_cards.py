"""Rules reference: "The Clue cards (21)" and "The Action cards (39)"."""

from __future__ import annotations

import re
from collections import Counter

from engine.mansion.cards import (
    ACTION_DECK,
    ACTIONS,
    CLUES,
    DESTINATIONS,
    SUSPECTS,
    VEHICLES,
    Feature,
    Kind,
    find_clue,
    has_feature,
    matches,
)


def test_twenty_one_clue_cards_six_six_nine() -> None:
    assert len(CLUES) == 21
    assert (len(SUSPECTS), len(VEHICLES), len(DESTINATIONS)) == (6, 6, 9)


def test_display_names_are_exact() -> None:
    names = [c.name for c in CLUES.values()]
    assert names == [
        "Miss Scarlet",
        "Colonel Mustard",
        "Mrs. White",
        "Mr. Green",
        "Mrs. Peacock",
        "Professor Plum",
        "Hot Air Balloon",
        "Seaplane",
        "Limousine",
        "Airliner",
        "Automobile",
        "Train",
        "Niagara Falls",
        "Coney Island",
        "Mt. Rushmore",
        "Old Faithful",
        "Golden Gate Bridge",
        "Hoover Dam",
        "The Alamo",
        "Lincoln Memorial",
        "Miami Beach",
    ]


def test_ids_are_short_snake_case_and_distinct_from_action_ids() -> None:
    for card in [*CLUES, *ACTIONS]:
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", card), card
        assert len(card) <= 20
    assert not set(CLUES) & set(ACTIONS)


def test_suspect_genders() -> None:
    female = {c for c in SUSPECTS if has_feature(c, Feature.FEMALE)}
    male = {c for c in SUSPECTS if has_feature(c, Feature.MALE)}
    assert female == {"scarlet", "white", "peacock"}
    assert male == {"mustard", "green", "plum"}


def test_vehicle_features_follow_the_reference_table() -> None:
    blue = {c for c in VEHICLES if has_feature(c, Feature.BLUE)}
    red = {c for c in VEHICLES if has_feature(c, Feature.RED)}
    flies = {c for c in VEHICLES if has_feature(c, Feature.FLIES)}
    assert blue == {"balloon", "seaplane", "limousine"}
    assert red == {"airliner", "automobile", "train"}
    assert flies == {"balloon", "seaplane", "airliner"}


def test_destination_features_follow_the_reference_table() -> None:
    north = {c for c in DESTINATIONS if has_feature(c, Feature.NORTH)}
    west = {c for c in DESTINATIONS if has_feature(c, Feature.WEST)}
    assert north == {"niagara_falls", "coney_island", "mt_rushmore", "old_faithful"}
    assert west == {"mt_rushmore", "old_faithful", "golden_gate", "hoover_dam", "alamo"}
    for card in DESTINATIONS:
        assert has_feature(card, Feature.NORTH) != has_feature(card, Feature.SOUTH)
        assert has_feature(card, Feature.EAST) != has_feature(card, Feature.WEST)


def test_thirty_nine_action_cards_in_the_reference_counts() -> None:
    counts = Counter(ACTION_DECK)
    assert len(ACTION_DECK) == 39
    assert counts["suggest_any"] == 10
    assert counts["suggest_present"] == 9
    assert counts["snoop"] == 4
    assert counts["all_snoop_left"] == counts["all_snoop_right"] == 2
    sleuths = [c for c in ACTIONS.values() if c.effect == "super_sleuth"]
    tips = [c for c in ACTIONS.values() if c.effect == "private_tip"]
    assert len(sleuths) == len(tips) == 6
    assert all(counts[c.id] == 1 for c in sleuths + tips)


def test_action_names_are_exact() -> None:
    assert ACTIONS["suggest_any"].name == "Suggestion from ANY destination"
    assert ACTIONS["suggest_present"].name == "Suggestion from PRESENT destination (or move)"
    assert ACTIONS["all_snoop_left"].name == "All Snoop — Left"
    assert ACTIONS["all_snoop_right"].name == "All Snoop — Right"
    asks = {c.ask for c in ACTIONS.values() if c.effect == "super_sleuth"}
    assert asks == {
        "a female suspect",
        "a male suspect",
        "a flying vehicle",
        "a blue vehicle",
        "a southern destination",
        "a western destination",
    }
    tips = {c.ask for c in ACTIONS.values() if c.effect == "private_tip"}
    assert tips == {
        "all your suspects",
        "all your vehicles",
        "all your destinations",
        "one female suspect",
        "one red vehicle",
        "one northern destination",
    }


def test_matches_by_kind_and_feature() -> None:
    assert matches("peacock", ACTIONS["sleuth_female"])
    assert not matches("plum", ACTIONS["sleuth_female"])
    assert matches("airliner", ACTIONS["sleuth_flies"])
    assert not matches("limousine", ACTIONS["sleuth_flies"])
    assert matches("limousine", ACTIONS["sleuth_blue"])
    assert matches("alamo", ACTIONS["sleuth_south"]) and matches("alamo", ACTIONS["sleuth_west"])
    assert matches("train", ACTIONS["tip_vehicles"])
    assert not matches("train", ACTIONS["tip_suspects"])
    assert matches("train", ACTIONS["tip_red"]) and not matches("seaplane", ACTIONS["tip_red"])
    assert matches("old_faithful", ACTIONS["tip_north"])
    assert not matches("miami_beach", ACTIONS["tip_north"])


def test_every_card_kind_is_consistent() -> None:
    for card in CLUES.values():
        assert card.kind in Kind
        assert len(card.features) == (1 if card.kind is Kind.SUSPECT else 2)


def test_find_clue_accepts_ids_and_names() -> None:
    assert find_clue("Mt. Rushmore") == "mt_rushmore"
    assert find_clue("mt rushmore") == "mt_rushmore"
    assert find_clue("HOT AIR BALLOON") == "balloon"
    assert find_clue("plum") == "plum"
    assert find_clue("batmobile") is None
