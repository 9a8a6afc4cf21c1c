"""The names of the Mansion's Clue cards as members read them in their language, with the
established names of the suspects in each language's edition of Cluedo. The catalogs
translate them under the context `mansion` (`python -m bot.locales` collects `WORDS`); the
engine keeps the English."""

from __future__ import annotations

from bot import i18n
from engine.mansion.cards import CLUES, Kind

CONTEXT = "mansion"
KIND_EMOJI: dict[Kind, str] = {
    Kind.SUSPECT: "👤",
    Kind.VEHICLE: "🚗",
    Kind.DESTINATION: "📍",
}
WORDS: tuple[str, ...] = tuple(info.name for info in CLUES.values())


def card_name(lang: str, card: str) -> str:
    return i18n.named(lang, CONTEXT, CLUES[card].name)


def card_label(lang: str, card: str) -> str:
    """ "👤 Mademoiselle Rose" for the card id "scarlet" in French."""
    return f"{KIND_EMOJI[CLUES[card].kind]} {card_name(lang, card)}"


def card_matches(lang: str, card: str, typed: str) -> bool:
    """Whether what a member typed is in the card's name, in their language or in English."""
    return i18n.typed_in(typed, CLUES[card].name, card_name(lang, card))
