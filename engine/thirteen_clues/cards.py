"""The 30 Clue cards of 13 Clues and the question subjects they belong to."""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import NamedTuple


class Category(StrEnum):
    PERSON = "person"
    LOCATION = "location"
    WEAPON = "weapon"


class SubCategory(StrEnum):
    MALE = "male"
    FEMALE = "female"
    INDOOR = "indoor"
    OUTDOOR = "outdoor"
    UP_CLOSE = "up_close"
    RANGED = "ranged"


class Suit(StrEnum):
    PURPLE = "purple"
    PINK = "pink"
    RED = "red"
    GREEN = "green"
    YELLOW = "yellow"
    BLUE = "blue"
    ORANGE = "orange"
    WHITE = "white"
    BROWN = "brown"
    GRAY = "gray"


class CardInfo(NamedTuple):
    id: str
    name: str
    suit: Suit
    category: Category
    sub: SubCategory


_M, _F = SubCategory.MALE, SubCategory.FEMALE
_IN, _OUT = SubCategory.INDOOR, SubCategory.OUTDOOR
_CLOSE, _RANGED = SubCategory.UP_CLOSE, SubCategory.RANGED

# suit: (person, sub), (location, sub), (weapon, sub) — the rules reference's table.
_TABLE: dict[Suit, tuple[tuple[str, SubCategory], ...]] = {
    Suit.PURPLE: (("Officer", _M), ("Parlor", _IN), ("Knife", _CLOSE)),
    Suit.PINK: (("Duke", _M), ("Market", _OUT), ("Crossbow", _RANGED)),
    Suit.RED: (("Butcher", _M), ("Library", _IN), ("Poison", _CLOSE)),
    Suit.GREEN: (("Countess", _F), ("Park", _OUT), ("Sword", _CLOSE)),
    Suit.YELLOW: (("Nurse", _F), ("Museum", _IN), ("Blowgun", _RANGED)),
    Suit.BLUE: (("Maid", _F), ("Harbor", _OUT), ("Rifle", _RANGED)),
    Suit.ORANGE: (("Dancer", _F), ("Theater", _IN), ("Gun", _RANGED)),
    Suit.WHITE: (("Sailor", _M), ("Plaza", _OUT), ("Candlestick", _CLOSE)),
    Suit.BROWN: (("Florist", _F), ("Railcar", _IN), ("Hammer", _CLOSE)),
    Suit.GRAY: (("Coachman", _M), ("Racecourse", _OUT), ("Bow", _RANGED)),
}

CARDS: dict[str, CardInfo] = {
    name.lower(): CardInfo(name.lower(), name, suit, category, sub)
    for suit, row in _TABLE.items()
    for category, (name, sub) in zip(Category, row, strict=True)
}
"""Card id (lower-case name) → card data, in suit order then category order."""

REMOVED_SUITS: dict[int, tuple[Suit, ...]] = {
    2: (Suit.GRAY, Suit.BROWN, Suit.WHITE, Suit.ORANGE),
    3: (Suit.GRAY, Suit.BROWN, Suit.WHITE),
    4: (Suit.GRAY, Suit.BROWN),
    5: (Suit.GRAY,),
    6: (),
}

SUB_CATEGORY_NAMES: dict[SubCategory, str] = {
    SubCategory.MALE: "Male",
    SubCategory.FEMALE: "Female",
    SubCategory.INDOOR: "Indoor",
    SubCategory.OUTDOOR: "Outdoor",
    SubCategory.UP_CLOSE: "Up close",
    SubCategory.RANGED: "Ranged",
}
CATEGORY_NAMES: dict[Category, str] = {
    Category.PERSON: "Persons",
    Category.LOCATION: "Locations",
    Category.WEAPON: "Weapons",
}


@functools.cache
def suits_in_play(players: int) -> tuple[Suit, ...]:
    """Cached (as `cards_in_play`): the casebook and the solver ask for every card."""
    return tuple(s for s in Suit if s not in REMOVED_SUITS[players])


@functools.cache
def cards_in_play(players: int) -> tuple[str, ...]:
    suits = set(suits_in_play(players))
    return tuple(c.id for c in CARDS.values() if c.suit in suits)


def card_name(card: str) -> str:
    return CARDS[card].name


def find_card(text: str) -> str | None:
    """The card id a player meant by `text` (id or name, any case), or None."""
    key = text.strip().lower().replace(" ", "")
    return key if key in CARDS else None


def subject_name(subject: str) -> str:
    """How a question subject reads to players: "Purple", "Up close", "Weapons"."""
    if subject in SubCategory.__members__.values():
        return SUB_CATEGORY_NAMES[SubCategory(subject)]
    if subject in Category.__members__.values():
        return CATEGORY_NAMES[Category(subject)]
    return Suit(subject).value.capitalize()


def subject_kind(subject: str) -> str | None:
    """`suit`, `sub_category`, `category` or None for an unknown subject."""
    for kind, enum in (("suit", Suit), ("sub_category", SubCategory), ("category", Category)):
        if subject in enum.__members__.values():
            return kind
    return None


def in_subject(card: str, subject: str) -> bool:
    info = CARDS[card]
    return subject in (info.suit, info.category, info.sub)
