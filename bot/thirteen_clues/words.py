"""The words of 13 Clues' cards as members read them in their language: card names and the
question subjects (suits, sub-categories, categories). The catalogs translate them under the
context `13clues` (`python -m bot.locales` collects `WORDS`); the engine keeps the English."""

from __future__ import annotations

from bot import i18n
from bot.thirteen_clues.render.labels import SUIT_EMOJI
from engine.thirteen_clues.cards import CARDS, Category, SubCategory, Suit, subject_kind
from engine.thirteen_clues.cards import subject_name as english_subject

CONTEXT = "13clues"
WORDS: tuple[str, ...] = (
    *(info.name for info in CARDS.values()),
    *(english_subject(s) for enum in (Suit, SubCategory, Category) for s in enum),
)


def card_name(lang: str, card: str) -> str:
    return i18n.named(lang, CONTEXT, CARDS[card].name)


def card_label(lang: str, card: str) -> str:
    """ "🟣 Couteau" for the card id "knife" in French."""
    return f"{SUIT_EMOJI[CARDS[card].suit]} {card_name(lang, card)}"


def subject_label(lang: str, subject: str) -> str:
    """ "🟣 Violet" for a suit, "À distance" for a sub-category, "Armes" for a category."""
    name = i18n.named(lang, CONTEXT, english_subject(subject))
    return f"{SUIT_EMOJI[subject]} {name}" if subject_kind(subject) == "suit" else name


def card_matches(lang: str, card: str, typed: str) -> bool:
    """Whether what a member typed is in the card's name, in their language or in English."""
    return i18n.typed_in(typed, CARDS[card].name, card_name(lang, card))
