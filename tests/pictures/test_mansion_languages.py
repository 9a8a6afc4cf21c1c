"""The Mansion's pictures in another language: French golden pictures beside the English
ones, and every character a translation brings is one the pictures' fonts can draw (the
bundled font draws ASCII; DejaVu Sans, shipped beside it, the rest)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest
from PIL import ImageFont

from bot import i18n
from bot.mansion import notes_picture
from bot.mansion.pictures import hand_picture, markers_picture, reveal_picture
from bot.pictures import Picture
from bot.pictures.fonts import LATIN, can_draw, font_for
from tests.pictures import mansion_tables as tables
from tests.pictures.golden import check_golden_picture

LINE = "Clue: Mystery Beyond the Mansion"

GOLDEN: dict[str, Callable[[], Picture]] = {
    "hand-4p": lambda: hand_picture(tables.hand_4p(), lang="fr", cache=None),
    "hand-fugitive-3p": lambda: hand_picture(tables.hand_fugitive_3p(), lang="fr", cache=None),
    "markers-5p-series": lambda: markers_picture(tables.markers_5p(), lang="fr", cache=None),
    "notes-full-4p": lambda: notes_picture.notes_picture(
        tables.notes_full_4p(), list(tables.NAMES[:4]), LINE, lang="fr", cache=None),
    "reveal-4p": lambda: reveal_picture(tables.reveal_4p(), lang="fr", cache=None),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_french_golden(name: str) -> None:
    check_golden_picture(f"mansion/fr/{name}", GOLDEN[name]())


def test_the_french_pictures_are_in_french() -> None:
    hand = hand_picture(tables.hand_4p(), lang="fr", cache=None)
    assert "Colonel Moutarde" in hand.description and "Vos cartes Indice" in hand.description
    english = hand_picture(tables.hand_4p(), cache=None)
    assert "Colonel Mustard" in english.description and hand.png != english.png


@cache
def _notdef() -> bytes:
    return _mask("\uffff")


def _mask(char: str) -> bytes:
    face = ImageFont.truetype(LATIN, 20)
    mask = face.getmask(char)
    return bytes(mask) + repr(mask.size).encode()


def drawable_by_the_fonts(char: str) -> bool:
    """The bundled font draws it, or DejaVu Sans has a glyph for it (not its empty box)."""
    return can_draw(char) or char.isspace() or _mask(char) != _notdef()


def test_every_character_a_translation_brings_can_be_drawn() -> None:
    """A character a translation adds to its English text (é, ß, ñ, ¿, «, „…) must be one
    the pictures' fonts draw: else a picture would show an empty box. Emoji the English
    already has are the chat's, never drawn."""
    missing: dict[str, set[str]] = {}
    for code in i18n.languages()[1:]:
        for message in i18n.language(code).catalog:
            if not message.id:
                continue
            english = "".join(message.id) if isinstance(message.id, tuple) else message.id
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in texts:
                for char in set(str(text or "")) - set(english):
                    if not drawable_by_the_fonts(char):
                        missing.setdefault(code, set()).add(char)
    assert not missing, missing


def test_a_text_the_bundled_font_cannot_draw_is_drawn_in_dejavu() -> None:
    assert font_for("Colonel Mustard", 14) is not font_for("Colonel Moutarde é", 14)
    assert font_for("Colonel Mustard", 14).getname()[0] != "DejaVu Sans"
    assert font_for("Fräulein Gloria", 14).getname()[0] == "DejaVu Sans"
    assert not drawable_by_the_fonts("\u4e00")  # the check finds a missing glyph
