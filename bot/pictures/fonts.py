"""Text with Pillow's bundled font, and DejaVu Sans shipped beside this module for the words
it cannot draw, so a picture renders the same on any machine.

Why these fonts only: `ImageFont.load_default(size=...)` (Pillow >= 10.1) is a subset of
Aileron shipped inside the Pillow wheel and laid out with Pillow's basic engine; nothing is
read from the OS font folders, so a fresh machine with only PyPI packages draws the same
pixels (the golden tests rely on it). The subset covers ASCII and a few signs: a text with
any other character (the French, German and Spanish words: é, ß, ñ, ¿...) is drawn whole in
DejaVu Sans (`font_for`; its licence is `DejaVuSans-LICENSE.txt`), which covers Latin-1, so an
English picture draws as it always did. Player names are still folded to what the bundled
font can draw (`drawable`), so a name reads the same in every language.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

Font = ImageFont.FreeTypeFont

ELLIPSIS = "…"
LATIN = Path(__file__).with_name("DejaVuSans.ttf")
"""DejaVu Sans 2.37: Latin-1 and the punctuation the translations use."""


@lru_cache(maxsize=128)
def font(size: int) -> Font:
    """The bundled font at `size` pixels (cached: loading parses the embedded TTF)."""
    loaded = ImageFont.load_default(size=max(1, size))
    assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow >= 10.1 with FreeType needed"
    return loaded


@lru_cache(maxsize=128)
def latin_font(size: int) -> Font:
    """DejaVu Sans at `size` pixels, with Pillow's basic layout as the bundled font's."""
    return ImageFont.truetype(LATIN, max(1, size), layout_engine=ImageFont.Layout.BASIC)


def font_for(text: str, size: int) -> Font:
    """The font that draws `text`: the bundled one when it has every character (so English
    pictures stay as they were), else DejaVu Sans. Chosen by the text alone, so every cache
    keyed by the text stays right."""
    return font(size) if all(can_draw(c) for c in text) else latin_font(size)


@lru_cache(maxsize=1)
def _notdef() -> bytes:
    """The mask the font draws for a character it lacks (the "tofu" box)."""
    return _mask("\uffff")


def _mask(char: str) -> bytes:
    mask = font(20).getmask(char)
    return bytes(mask) + repr(mask.size).encode()


@lru_cache(maxsize=4096)
def can_draw(char: str) -> bool:
    """Whether the bundled font has a glyph for `char` (else it would draw a box)."""
    return char == " " or (char.isprintable() and _mask(char) != _notdef())


@lru_cache(maxsize=2048)
def drawable(text: str, fallback: str = "?") -> str:
    """`text` as the bundled font can draw it: accents dropped ("José" -> "Jose"), dashes and
    quotes simplified, anything else left out; `fallback` if nothing drawable remains."""
    text = text.translate(_SIMPLER)
    out: list[str] = []
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(char):
            continue
        if can_draw(char):
            out.append(char)
        elif out and out[-1] != " " and char.isspace():
            out.append(" ")
    cleaned = " ".join("".join(out).split())
    return cleaned if any(c.isalnum() for c in cleaned) else fallback


_SIMPLER = str.maketrans(
    {
        "–": "-",
        "—": "-",
        "‐": "-",
        "ß": "ss",
        "Æ": "AE",
        "æ": "ae",
        "Ø": "O",
        "ø": "o",
        "Œ": "OE",
        "œ": "oe",
        "Ł": "L",
        "ł": "l",
        "Đ": "D",
        "đ": "d",
        "×": "x",
    }
)


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> int:
    return round(font_for(text, size).getlength(text))


def fit(text: str, size: int, max_width: int, min_size: int | None = None) -> tuple[str, int]:
    """The largest size from `size` down to `min_size` at which `text` fits `max_width`;
    at `min_size` the text is cut with an ellipsis. Names stay whole whenever possible."""
    floor = min_size if min_size is not None else max(8, size * 3 // 4)
    for candidate in range(size, floor - 1, -1):
        if text_width(text, candidate) <= max_width:
            return text, candidate
    cut = text
    while cut and text_width(cut + ELLIPSIS, floor) > max_width:
        cut = cut[:-1]
    return (cut.rstrip() + ELLIPSIS if cut else ELLIPSIS), floor
