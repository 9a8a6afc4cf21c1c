"""Text with Pillow's bundled font only, so a picture renders the same on any machine.

Why only the bundled font: `ImageFont.load_default(size=...)` (Pillow >= 10.1) is a subset of
Aileron shipped inside the Pillow wheel and laid out with Pillow's basic engine; nothing is
read from the OS font folders, so a fresh machine with only PyPI packages draws the same
pixels (the golden tests rely on it). The subset covers ASCII and a few signs, so player
names are folded to what it can draw (`drawable`).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from PIL import ImageFont

Font = ImageFont.FreeTypeFont

ELLIPSIS = "…"


@lru_cache(maxsize=128)
def font(size: int) -> Font:
    """The bundled font at `size` pixels (cached: loading parses the embedded TTF)."""
    loaded = ImageFont.load_default(size=max(1, size))
    assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow >= 10.1 with FreeType needed"
    return loaded


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
    return round(font(size).getlength(text))


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
