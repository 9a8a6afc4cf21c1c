"""The 21 Clue cards and 39 Action cards of Clue: Mystery Beyond the Mansion, as data.

Card ids are stable snake_case strings (they are stored in saved games and action logs);
display names are the printed ones. Every card feature lives in `FEATURES`, one table, so
the features the rules reference marks as single-source (*) are easy to correct.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Literal, NamedTuple


class Kind(StrEnum):
    SUSPECT = "suspect"
    VEHICLE = "vehicle"
    DESTINATION = "destination"


class Feature(StrEnum):
    """A property a Super Sleuth or Private Tip card can ask about."""

    FEMALE = "female"
    MALE = "male"
    BLUE = "blue"
    RED = "red"
    FLIES = "flies"
    GROUNDED = "grounded"
    NORTH = "north"
    SOUTH = "south"
    EAST = "east"
    WEST = "west"


class ClueCard(NamedTuple):
    id: str
    name: str
    kind: Kind
    features: frozenset[Feature]


_F, _M = Feature.FEMALE, Feature.MALE
_BLUE, _RED, _FLIES, _GROUND = Feature.BLUE, Feature.RED, Feature.FLIES, Feature.GROUNDED
_N, _S, _E, _W = Feature.NORTH, Feature.SOUTH, Feature.EAST, Feature.WEST

# id: (display name, kind, features). Vehicle colour/flies and destination north-south /
# east-west are the reference's (*) single-source features: correct them here only.
FEATURES: dict[str, tuple[str, Kind, tuple[Feature, ...]]] = {
    "scarlet": ("Miss Scarlet", Kind.SUSPECT, (_F,)),
    "mustard": ("Colonel Mustard", Kind.SUSPECT, (_M,)),
    "white": ("Mrs. White", Kind.SUSPECT, (_F,)),
    "green": ("Mr. Green", Kind.SUSPECT, (_M,)),
    "peacock": ("Mrs. Peacock", Kind.SUSPECT, (_F,)),
    "plum": ("Professor Plum", Kind.SUSPECT, (_M,)),
    "balloon": ("Hot Air Balloon", Kind.VEHICLE, (_BLUE, _FLIES)),  # (*)
    "seaplane": ("Seaplane", Kind.VEHICLE, (_BLUE, _FLIES)),  # (*)
    "limousine": ("Limousine", Kind.VEHICLE, (_BLUE, _GROUND)),  # (*)
    "airliner": ("Airliner", Kind.VEHICLE, (_RED, _FLIES)),  # (*)
    "automobile": ("Automobile", Kind.VEHICLE, (_RED, _GROUND)),  # (*)
    "train": ("Train", Kind.VEHICLE, (_RED, _GROUND)),  # (*)
    "niagara_falls": ("Niagara Falls", Kind.DESTINATION, (_N, _E)),  # (*)
    "coney_island": ("Coney Island", Kind.DESTINATION, (_N, _E)),  # (*)
    "mt_rushmore": ("Mt. Rushmore", Kind.DESTINATION, (_N, _W)),  # (*)
    "old_faithful": ("Old Faithful", Kind.DESTINATION, (_N, _W)),  # (*)
    "golden_gate": ("Golden Gate Bridge", Kind.DESTINATION, (_S, _W)),  # (*)
    "hoover_dam": ("Hoover Dam", Kind.DESTINATION, (_S, _W)),  # (*)
    "alamo": ("The Alamo", Kind.DESTINATION, (_S, _W)),  # (*)
    "lincoln_memorial": ("Lincoln Memorial", Kind.DESTINATION, (_S, _E)),  # (*)
    "miami_beach": ("Miami Beach", Kind.DESTINATION, (_S, _E)),  # (*)
}

CLUES: dict[str, ClueCard] = {
    cid: ClueCard(cid, name, kind, frozenset(features))
    for cid, (name, kind, features) in FEATURES.items()
}
"""Clue card id → card, suspects then vehicles then destinations (the table's order)."""

SUSPECTS: tuple[str, ...] = tuple(c.id for c in CLUES.values() if c.kind is Kind.SUSPECT)
VEHICLES: tuple[str, ...] = tuple(c.id for c in CLUES.values() if c.kind is Kind.VEHICLE)
DESTINATIONS: tuple[str, ...] = tuple(c.id for c in CLUES.values() if c.kind is Kind.DESTINATION)
BY_KIND: dict[Kind, tuple[str, ...]] = {
    Kind.SUSPECT: SUSPECTS,
    Kind.VEHICLE: VEHICLES,
    Kind.DESTINATION: DESTINATIONS,
}


# --- Action cards ------------------------------------------------------------------------

SuggestCard = Literal["suggest_any", "suggest_present"]
Effect = Literal[
    "suggest_any", "suggest_present", "snoop", "all_snoop", "super_sleuth", "private_tip"
]
Direction = Literal["left", "right"]


class ActionCard(NamedTuple):
    id: str
    name: str
    copies: int
    effect: Effect
    direction: Direction | None = None
    """All Snoop: the side each hand is offered to."""
    kind: Kind | None = None
    """Super Sleuth and Private Tip: the kind of Clue card asked for."""
    feature: Feature | None = None
    """Super Sleuth and the "one ..." Private Tips: the feature asked for."""
    all_of_kind: bool = False
    """Private Tip: the answer is every card of `kind` (else one card with `feature`)."""
    ask: str = ""
    """Super Sleuth / Private Tip: what the card asks for, as printed."""


def _sleuth(feature: Feature, kind: Kind, ask: str) -> ActionCard:
    return ActionCard(
        f"sleuth_{feature.value}",
        f"Super Sleuth: {ask}",
        1,
        "super_sleuth",
        kind=kind,
        feature=feature,
        ask=ask,
    )


def _tip(key: str, kind: Kind, ask: str, feature: Feature | None = None) -> ActionCard:
    return ActionCard(
        f"tip_{key}",
        f"Private Tip: {ask}",
        1,
        "private_tip",
        kind=kind,
        feature=feature,
        all_of_kind=feature is None,
        ask=ask,
    )


_ACTION_LIST: tuple[ActionCard, ...] = (
    ActionCard("suggest_any", "Suggestion from ANY destination", 10, "suggest_any"),
    ActionCard(
        "suggest_present", "Suggestion from PRESENT destination (or move)", 9, "suggest_present"
    ),
    ActionCard("snoop", "Snoop", 4, "snoop"),
    ActionCard("all_snoop_left", "All Snoop — Left", 2, "all_snoop", direction="left"),
    ActionCard("all_snoop_right", "All Snoop — Right", 2, "all_snoop", direction="right"),
    _sleuth(Feature.FEMALE, Kind.SUSPECT, "a female suspect"),
    _sleuth(Feature.MALE, Kind.SUSPECT, "a male suspect"),
    _sleuth(Feature.FLIES, Kind.VEHICLE, "a flying vehicle"),
    _sleuth(Feature.BLUE, Kind.VEHICLE, "a blue vehicle"),
    _sleuth(Feature.SOUTH, Kind.DESTINATION, "a southern destination"),
    _sleuth(Feature.WEST, Kind.DESTINATION, "a western destination"),
    _tip("suspects", Kind.SUSPECT, "all your suspects"),
    _tip("vehicles", Kind.VEHICLE, "all your vehicles"),
    _tip("destinations", Kind.DESTINATION, "all your destinations"),
    _tip("female", Kind.SUSPECT, "one female suspect", Feature.FEMALE),
    _tip("red", Kind.VEHICLE, "one red vehicle", Feature.RED),
    _tip("north", Kind.DESTINATION, "one northern destination", Feature.NORTH),
)

ACTIONS: dict[str, ActionCard] = {card.id: card for card in _ACTION_LIST}
"""Action card id → card. Copies of a card share its id; `copies` says how many exist."""

ACTION_DECK: tuple[str, ...] = tuple(c.id for c in _ACTION_LIST for _ in range(c.copies))
"""The 39 Action cards in box order (a multiset of ids)."""

PRIVATE_TIP = "private_tip"
"""What a face-down Private Tip shows to those who may not read it (never a card id)."""
FACE_DOWN = "face_down"
"""What a card of a wrong accuser's unplayed Action hand shows to the others: not even its
kind, as the hand was theirs alone (never a card id)."""


def clue_name(card: str) -> str:
    return CLUES[card].name


def action_name(card: str) -> str:
    return ACTIONS[card].name


def kind_of(card: str) -> Kind:
    return CLUES[card].kind


def has_feature(card: str, feature: Feature) -> bool:
    return feature in CLUES[card].features


def matches(card: str, action: ActionCard) -> bool:
    """`card` answers a Super Sleuth or Private Tip card."""
    info = CLUES[card]
    if info.kind is not action.kind:
        return False
    return action.feature is None or action.feature in info.features


def find_clue(text: str) -> str | None:
    """The Clue card id a player meant by `text` (id or display name, any case), or None."""
    key = text.strip().lower()
    if key in CLUES:
        return key
    for card in CLUES.values():
        if card.name.lower() == key or _squash(card.name) == _squash(key):
            return card.id
    return None


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def deck_counts() -> Counter[str]:
    return Counter(ACTION_DECK)
