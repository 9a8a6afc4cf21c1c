"""How the Mansion's cards look face up: Clue cards, Action cards and destination markers.

One `FaceSpec` per card for the shared toolkit (`bot.pictures.cards`), and the id each face
records on the canvas (`Picture.faces`): a Clue card's own id, `action:<id>` for an Action
card, `marker:<destination>` for a destination marker (public), so the secrecy tests can tell
a secret Clue card from a marker of the same destination.
"""

from __future__ import annotations

from functools import lru_cache

from bot.i18n import N_, SOURCE, tr
from bot.mansion.words import ask, card_name
from bot.pictures.cards import FaceSpec
from bot.pictures.colours import RGB, rgb
from bot.pictures.panels import Slot
from engine.mansion.cards import ACTIONS, CLUES, Feature, Kind

SUSPECT_COLOURS: dict[str, RGB] = {
    "scarlet": rgb("#c8283a"),
    "mustard": rgb("#e0a82e"),
    "white": rgb("#ebe6da"),
    "green": rgb("#2f8a4a"),
    "peacock": rgb("#2166b0"),
    "plum": rgb("#7b3f8c"),
}
"""Each suspect in their own colour (Mrs. White's pale one is drawn dark-banded)."""
VEHICLE_COLOURS: dict[Feature, RGB] = {Feature.BLUE: rgb("#3b74c9"), Feature.RED: rgb("#c4453a")}
REGION_COLOURS: dict[tuple[Feature, Feature], RGB] = {
    (Feature.NORTH, Feature.EAST): rgb("#2a8c82"),
    (Feature.NORTH, Feature.WEST): rgb("#55679e"),
    (Feature.SOUTH, Feature.WEST): rgb("#c06a38"),
    (Feature.SOUTH, Feature.EAST): rgb("#c2507a"),
}
"""A destination's colour is its quarter of the map (north/south by east/west)."""
ACTION_COLOURS: dict[str, RGB] = {
    "suggest_any": rgb("#4a5b94"),
    "suggest_present": rgb("#3f7a9a"),
    "snoop": rgb("#6d4b94"),
    "all_snoop": rgb("#8e4a7c"),
    "super_sleuth": rgb("#a87b1c"),
    "private_tip": rgb("#2e7d67"),
}
KIND_GLYPHS: dict[Kind, str] = {Kind.SUSPECT: "person", Kind.VEHICLE: "car",
                                Kind.DESTINATION: "pin"}
KIND_BANDS: dict[Kind, str] = {Kind.SUSPECT: N_("SUSPECT"), Kind.VEHICLE: N_("VEHICLE"),
                               Kind.DESTINATION: N_("DESTINATION")}
ACTION_GLYPHS: dict[str, str] = {
    "suggest_any": "pin",
    "suggest_present": "pin",
    "snoop": "magnifier",
    "all_snoop": "magnifier",
    "super_sleuth": "star",
    "private_tip": "envelope",
}
ACTION_TITLES: dict[str, str] = {
    "suggest_any": "Suggestion",
    "suggest_present": "Suggestion",
    "snoop": "Snoop",
    "all_snoop": "All Snoop",
    "super_sleuth": "Super Sleuth",
    "private_tip": "Private Tip",
}


def card_colour(card: str) -> RGB:
    """The colour of a Clue card (and of a destination's marker)."""
    info = CLUES[card]
    if info.kind is Kind.SUSPECT:
        return SUSPECT_COLOURS[card]
    if info.kind is Kind.VEHICLE:
        return VEHICLE_COLOURS[Feature.BLUE if Feature.BLUE in info.features else Feature.RED]
    ns = Feature.NORTH if Feature.NORTH in info.features else Feature.SOUTH
    ew = Feature.EAST if Feature.EAST in info.features else Feature.WEST
    return REGION_COLOURS[(ns, ew)]


FEATURE_WORDS: dict[Feature, str] = {
    Feature.FEMALE: N_("Female"), Feature.MALE: N_("Male"), Feature.BLUE: N_("Blue"),
    Feature.RED: N_("Red"), Feature.NORTH: N_("North"), Feature.SOUTH: N_("South"),
    Feature.EAST: N_("East"), Feature.WEST: N_("West"), Feature.FLIES: N_("flies"),
}
"""A card's features as its face prints them (flying last, in lower case)."""


def features_text(card: str, lang: str = SOURCE) -> str:
    """What a Super Sleuth or Private Tip may ask of this card: "Female", "Blue · flies"."""
    info = CLUES[card]
    order = (Feature.FEMALE, Feature.MALE, Feature.BLUE, Feature.RED, Feature.NORTH,
             Feature.SOUTH, Feature.EAST, Feature.WEST, Feature.FLIES)
    return " · ".join(tr(lang, FEATURE_WORDS[f]) for f in order if f in info.features)


@lru_cache(maxsize=128)
def clue_face(card: str, lang: str = SOURCE) -> FaceSpec:
    info = CLUES[card]
    return FaceSpec(title=card_name(lang, card), caption=features_text(card, lang),
                    band=tr(lang, KIND_BANDS[info.kind]), colour=card_colour(card),
                    glyph=KIND_GLYPHS[info.kind])


@lru_cache(maxsize=160)
def action_face(card: str, lang: str = SOURCE) -> FaceSpec:
    """An Action card: its printed (English) title, what it does in `lang`."""
    info = ACTIONS[card]
    match info.effect:
        case "suggest_any":
            caption = tr(lang, "from ANY destination")
        case "suggest_present":
            caption = tr(lang, "from PRESENT or move")
        case "all_snoop":
            caption = tr(lang, "to the left") if info.direction == "left" \
                else tr(lang, "to the right")
        case "snoop":
            caption = tr(lang, "one opponent's card")
        case _:
            caption = ask(lang, card)
    return FaceSpec(title=ACTION_TITLES[info.effect], caption=caption, band=tr(lang, "ACTION"),
                    colour=ACTION_COLOURS[info.effect], glyph=ACTION_GLYPHS[info.effect])


@lru_cache(maxsize=64)
def marker_face(destination: str, lang: str = SOURCE) -> FaceSpec:
    return FaceSpec(title=card_name(lang, destination),
                    caption=features_text(destination, lang), band=tr(lang, "MARKER"),
                    colour=card_colour(destination), glyph="pin")


def clue_slot(card: str, caption: str = "", ring: RGB | None = None, lang: str = SOURCE
              ) -> Slot:
    return Slot(card=card, spec=clue_face(card, lang), caption=caption, ring=ring)


def action_slot(card: str, lang: str = SOURCE) -> Slot:
    return Slot(card=f"action:{card}", spec=action_face(card, lang))


def marker_slot(destination: str, caption: str = "", lang: str = SOURCE) -> Slot:
    return Slot(card=f"marker:{destination}", spec=marker_face(destination, lang),
                caption=caption)
