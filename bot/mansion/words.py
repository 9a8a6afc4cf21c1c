"""The names of the Mansion's Clue cards as members read them in their language, with the
established names of the suspects in each language's edition of Cluedo, and what the Super
Sleuth and Private Tip cards ask for (the cards keep their English names: the game had no
French, German or Spanish edition). The catalogs translate them under the context `mansion`
(`python -m bot.locales` collects `WORDS`); the engine keeps the English."""

from __future__ import annotations

from bot import i18n
from engine.mansion.cards import ACTIONS, CLUES, Kind, find_clue

CONTEXT = "mansion"
VARIANT_NAME = {"standard": i18n.N_("standard game"),
                "one_against_all": i18n.N_("One Against All")}
KIND_PLURAL: dict[Kind, str] = {
    Kind.SUSPECT: i18n.N_("Suspects"),
    Kind.VEHICLE: i18n.N_("Vehicles"),
    Kind.DESTINATION: i18n.N_("Destinations"),
}
KIND_EMOJI: dict[Kind, str] = {
    Kind.SUSPECT: "👤",
    Kind.VEHICLE: "🚗",
    Kind.DESTINATION: "📍",
}
ASKS: tuple[str, ...] = tuple(info.ask for info in ACTIONS.values() if info.ask)
"""What a Super Sleuth or Private Tip card asks for, as printed ("a female suspect")."""
TERMS: tuple[str, ...] = ("female suspect", "red vehicle", "northern destination", "suspects",
                          "vehicles", "destinations")
"""What a Private Tip's answer lacks, as the engine's refusals name it ("You hold no
suspects")."""
WORDS: tuple[str, ...] = (*(info.name for info in CLUES.values()), *ASKS, *TERMS)


CARD_WORDS = i18n.CardWords(CONTEXT, {c: i.name for c, i in CLUES.items()},
                            {c: KIND_EMOJI[i.kind] for c, i in CLUES.items()}, find_clue)
card_name = CARD_WORDS.name
card_label = CARD_WORDS.label
"""A card's kind and name: "👤 Mademoiselle Rose" for "scarlet" in French."""


def ask(lang: str, card: str) -> str:
    """What the Action card `card` asks for, in `lang`: "un véhicule bleu"."""
    return i18n.named(lang, CONTEXT, ACTIONS[card].ask)


def term(lang: str, english: str) -> str:
    """One of the game's words (a card's name, an ask, a term) given in English, in `lang`;
    anything else as given (a name a member typed)."""
    return i18n.named(lang, CONTEXT, english) if english in WORDS else english
