"""A whole picture made of panels: a header, rows of panels, a footer.

A `Page` is a plain description (frozen dataclasses all the way down), so its JSON is the
exact content of the picture: the cache keys on it, and `render_page` is the only place
that turns it into pixels.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass, replace

from PIL import Image

from bot.pictures.cache import PictureCache, cached
from bot.pictures.canvas import Canvas
from bot.pictures.colours import THEME
from bot.pictures.grid import first_fit
from bot.pictures.panels import PAD, Panel
from bot.pictures.picture import Picture, make_picture

MARGIN = 22
ROW_GAP = 16
PANEL_GAP = 16
TITLE = 25
SUBTITLE = 15
FOOTER = 13


ROW_WIDTH = 960
"""Panels share a row up to this width: pictures stay under ~1000 pixels wide, which Discord
shows large enough to read on a desktop and scales evenly on a phone."""


def pack_rows(panels: list[Panel], width: float = ROW_WIDTH) -> list[list[Panel]]:
    """Panels in reading order, packed into rows (a narrow one may fill a gap above)."""
    widths = [p.size[0] for p in panels]
    return [[panels[i] for i in row] for row in first_fit(widths, width, PANEL_GAP)]


def same_width(panels: list[Panel]) -> list[Panel]:
    """The panels again, all as wide as the widest: rows of holders line up."""
    if not panels:
        return panels
    width = max(p.size[0] for p in panels) - 2 * PAD
    return [replace(p, min_width=width) for p in panels]


@dataclass(frozen=True)
class Page:
    """Rows of panels under a title. Panels in a row share its height and align their
    cards; rows are stretched to one width (`justify`) or centred."""

    title: str
    rows: Sequence[Sequence[Panel]]
    subtitle: str = ""
    footer: str = ""
    min_width: float = 0
    justify: bool = True
    """Stretch every row to the widest one, so panels form a tidy block."""

    def to_json(self) -> str:
        """Everything the picture shows, as canonical JSON (the cache key)."""
        return to_json(self)


@dataclass(frozen=True)
class Scene:
    """Everything one picture shows (and nothing else), under its title: each kind adds its
    own fields after these, and the canonical JSON of the whole is the picture's cache key."""

    title: str
    subtitle: str

    def to_json(self) -> str:
        return to_json(self)


def to_json(value: object) -> str:
    """Canonical JSON of nested frozen dataclasses (fields in order, no deep copies: this
    runs on every cache look-up, where `dataclasses.asdict` would cost milliseconds)."""
    return json.dumps(value, separators=(",", ":"), default=_fields, ensure_ascii=False)


def _fields(value: object) -> object:
    if is_dataclass(value):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    raise TypeError(f"{type(value).__name__} is not a picture description")


def _row_size(panels: Sequence[Panel]) -> tuple[float, float]:
    """Width and height of a row whose panels align their cards on the tallest header."""
    width = sum(p.size[0] for p in panels) + PANEL_GAP * (len(panels) - 1)
    header = _row_header(panels)
    return width, max(p.size[1] - p.header_height + header for p in panels)


def _row_header(panels: Sequence[Panel]) -> float:
    return max(p.header_height for p in panels)


def _header_height(page: Page) -> float:
    return TITLE + 10 + (SUBTITLE + 8 if page.subtitle else 0) + 8


def page_size(page: Page) -> tuple[int, int]:
    rows = [_row_size(r) for r in page.rows if r]
    width = max([w for w, _ in rows] + [page.min_width, 420]) + 2 * MARGIN
    height = MARGIN + _header_height(page) + sum(h for _, h in rows)
    height += ROW_GAP * max(0, len(rows) - 1)
    if page.footer:
        height += FOOTER + 14
    return round(width), round(height + MARGIN)


def render_page(page: Page, scale: int | None = None) -> tuple[Image.Image, list[str]]:
    """The page's pixels and the ids of the card faces drawn, in drawing order."""
    width, height = page_size(page)
    canvas = Canvas(width, height, THEME.background, **({"scale": scale} if scale else {}))
    draw_header(canvas, page.title, page.subtitle)
    y = MARGIN + _header_height(page)
    inner = width - 2 * MARGIN
    for panels in page.rows:
        if not panels:
            continue
        row_w, row_h = _row_size(panels)
        extra = (inner - row_w) / len(panels) if page.justify else 0
        x = MARGIN if page.justify else (width - row_w) / 2
        for panel in panels:
            panel.draw(canvas, (x, y), (panel.size[0] + extra, row_h), _row_header(panels))
            x += panel.size[0] + extra + PANEL_GAP
        y += row_h + ROW_GAP
    if page.footer:
        canvas.text(
            (MARGIN, height - MARGIN - FOOTER),
            page.footer,
            FOOTER,
            THEME.muted,
            max_width=width - 2 * MARGIN,
        )
    return canvas.finish(), canvas.faces


def draw_header(canvas: Canvas, title: str, subtitle: str) -> None:
    """The magnifier mark, the title and a subtitle, across the top of a picture."""
    x, y = MARGIN, MARGIN
    canvas.glyph("magnifier", (x, y, x + TITLE + 2, y + TITLE + 2), THEME.accent, THEME.background)
    canvas.text(
        (x + TITLE + 12, y + 1),
        title,
        TITLE,
        THEME.text,
        bold=True,
        max_width=canvas.width - 2 * MARGIN - TITLE - 12,
    )
    if subtitle:
        canvas.text(
            (x, y + TITLE + 12),
            subtitle,
            SUBTITLE,
            THEME.muted,
            max_width=canvas.width - 2 * MARGIN,
        )


def page_picture(
    page: Page, filename: str, description: str, cache: PictureCache | None
) -> Picture:
    """A page drawn as a picture, cached by the page and its description."""
    def render() -> Picture:
        image, faces = render_page(page)
        return make_picture(image, filename, description, frozenset(faces))

    return cached(cache, filename, page.to_json() + "\n" + description, render)
