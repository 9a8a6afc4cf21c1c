"""13 Clues' pictures in another language: French golden pictures beside the English ones,
the language carried by the stored picture input (English inputs unchanged), and every
character a catalog gives a 13 Clues picture text is one the pictures' fonts can draw."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

from bot import i18n
from bot.pictures import Picture
from bot.thirteen_clues import pictures, shown
from bot.thirteen_clues.pictures import casebook_picture, player_picture, reveal_picture
from bot.thirteen_clues.words import CONTEXT, WORDS
from engine.thirteen_clues import player_view
from engine.thirteen_clues.deduction import solve
from tests.pictures import tables
from tests.pictures.golden import assert_fit_for_discord, check_golden_picture
from tests.pictures.test_mansion_languages import drawable_by_the_fonts

PICTURES = Path(pictures.__file__)


def _casebook() -> Picture:
    view = player_view(tables.casebook_state(), 0)
    return casebook_picture(view, solve(view), lang="fr", cache=None)


GOLDEN: dict[str, Callable[[], Picture]] = {
    "view-4p-2020": lambda: player_picture(tables.turns_view(4), lang="fr", cache=None),
    "view-2p-2016": lambda: player_picture(tables.turns_view(2, "2016"), lang="fr", cache=None),
    "pass-2p": lambda: player_picture(tables.passing_view(True), lang="fr", cache=None),
    "casebook-3p-2016": _casebook,
    "reveal-5p": lambda: reveal_picture(*tables.finished(5), lang="fr", cache=None),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_french_golden(name: str) -> None:
    check_golden_picture(f"thirteen_clues/fr/{name}", GOLDEN[name]())


def test_the_french_pictures_are_in_french() -> None:
    view = tables.turns_view(4)
    french = player_picture(view, lang="fr", cache=None)
    english = player_picture(view, cache=None)
    assert "Votre porte-cartes" in french.description and "Your holder" not in french.description
    assert "Your holder" in english.description and french.png != english.png
    over = reveal_picture(*tables.finished(5), lang="de", cache=None)
    assert "Auflösung" in over.description


def test_the_language_travels_in_the_stored_input_only_when_not_english() -> None:
    view = tables.turns_view(4)
    english = shown.view_picture(view, "en")
    assert "lang" not in english.data and english.data == pictures.view_data(view)
    french = shown.view_picture(view, "fr")
    assert french.data == {**english.data, "lang": "fr"}
    drawn = pictures.draw_view(french.data)
    assert drawn.png == player_picture(view, lang="fr", cache=None).png
    assert pictures.draw_view(english.data).png == player_picture(view, cache=None).png
    state = tables.casebook_state()
    casebook = shown.casebook_picture(player_view(state, 0), "es")
    assert casebook.data["lang"] == "es"
    assert "Cuaderno" in pictures.draw_casebook(casebook.data).description
    end_over, end_view = tables.finished(5)
    stored = shown.reveal_picture(end_over, end_view, "fr")
    assert stored.data["lang"] == "fr"
    assert "lang" not in shown.reveal_picture(end_over, end_view, "en").data
    assert "Révélation" in pictures.draw_reveal(stored.data).description


def _picture_texts() -> set[str]:
    """Every text the 13 Clues pictures draw or describe: their `tr`/`trn`/`N_` messages."""
    texts: set[str] = set()
    for _line, message, _comments, _context in extract_from_file(
        "python", str(PICTURES), keywords={"tr": (2,), "trn": (2, 3), "N_": None}
    ):
        texts.update([message] if isinstance(message, str) else message)
    return texts


def test_every_character_of_a_13_clues_picture_text_can_be_drawn() -> None:
    """Every character (not only those a translation adds) of every catalog's version of a
    text the 13 Clues pictures draw: else a picture shows an empty box."""
    texts = _picture_texts()
    assert "Your holder" in texts and "{n} wrong accusation" in texts
    missing: dict[str, set[str]] = {}
    for code in i18n.languages()[1:]:
        catalog = i18n.language(code).catalog
        found = 0
        for message in catalog:
            ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
            ours = (message.context is None and any(i in texts for i in ids)) or (
                message.context == CONTEXT and message.id in WORDS)
            if not ours:
                continue
            found += 1
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in strings:
                for char in set(str(text or "")):
                    if not drawable_by_the_fonts(char):
                        missing.setdefault(code, set()).add(char)
        assert found > 60, (code, found)
    assert not missing, missing


@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_german_and_spanish_pictures_fit_discord(lang: str) -> None:
    view = player_view(tables.casebook_state(), 0)
    for picture in (
        player_picture(tables.turns_view(4), lang=lang, cache=None),
        player_picture(tables.turns_view(2, "2016"), lang=lang, cache=None),
        player_picture(tables.passing_view(True), lang=lang, cache=None),
        casebook_picture(view, solve(view), lang=lang, cache=None),
        reveal_picture(*tables.finished(5), lang=lang, cache=None),
    ):
        assert_fit_for_discord(picture)
        assert "Your holder" not in picture.description
