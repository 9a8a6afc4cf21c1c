"""The words of 13 Clues' cards as members read them in their language: card names, the
question subjects (suits, sub-categories, categories) and the labels built from them, the
same everywhere (text, menus, autocomplete, pictures). The catalogs translate the names under
the context `13clues` (`python -m bot.locales` collects `WORDS`); the engine keeps the
English."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot import i18n
from engine.thirteen_clues.cards import CARDS, Category, SubCategory, Suit, subject_kind
from engine.thirteen_clues.cards import find_card as english_find
from engine.thirteen_clues.cards import subject_name as english_subject

CONTEXT = "13clues"
WORDS: tuple[str, ...] = (
    *(info.name for info in CARDS.values()),
    *(english_subject(s) for enum in (Suit, SubCategory, Category) for s in enum),
    *(category.value for category in Category),
)

SUIT_EMOJI: dict[str, str] = {
    Suit.PURPLE: "🟣",
    Suit.PINK: "🩷",
    Suit.RED: "🔴",
    Suit.GREEN: "🟢",
    Suit.YELLOW: "🟡",
    Suit.BLUE: "🔵",
    Suit.ORANGE: "🟠",
    Suit.WHITE: "⚪",
    Suit.BROWN: "🟤",
    Suit.GRAY: "🩶",
}
"""Suit value ("purple") → its coloured emoji; a suit reads at a glance in every list."""


CARD_WORDS = i18n.CardWords(CONTEXT, {c: i.name for c, i in CARDS.items()},
                            {c: SUIT_EMOJI[i.suit] for c, i in CARDS.items()}, english_find)
card_name = CARD_WORDS.name
card_label = CARD_WORDS.label
"""A card's suit and name: "🟣 Couteau" for "knife" in French."""


def cards_label(lang: str, cards: Iterable[str], sep: str = " · ") -> str:
    return sep.join(card_label(lang, c) for c in cards)


def subject_name(lang: str, subject: str) -> str:
    """ "Violet" for a suit, "À distance" for a sub-category, "Armes" for a category."""
    return i18n.named(lang, CONTEXT, english_subject(subject))


def subject_label(lang: str, subject: str) -> str:
    """ "🟣 Violet" for a suit, "À distance" for a sub-category, "Armes" for a category."""
    name = subject_name(lang, subject)
    return f"{SUIT_EMOJI[subject]} {name}" if subject_kind(subject) == "suit" else name


def subject_phrase(lang: str, subject: str) -> str:
    """What "how many ..." counts: "🟣 Purple cards", "Up close cards", "Weapons"."""
    if subject_kind(subject) == "category":
        return subject_name(lang, subject)
    return i18n.tr(lang, "{subject} cards", subject=subject_label(lang, subject))


def category_name(lang: str, category: Category) -> str:
    """A card's category in the singular, as written inside a sentence: "weapon", "Waffe"."""
    return i18n.named(lang, CONTEXT, category.value)


WORDED = ("card", "category", "suit")
"""The parameters of the engine's refusals that are the game's words (`RuleError`): an
English card name, a category, a suit; the others (a player's name, what was typed) stay."""


def worded(lang: str, params: Mapping[str, object]) -> dict[str, object]:
    """A refusal's parameters with the game's words in `lang`."""
    return {key: i18n.named(lang, CONTEXT, value) if key in WORDED and isinstance(value, str)
            else value for key, value in params.items()}
