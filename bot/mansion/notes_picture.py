"""The notes grid as a picture: the 21 Clue cards by seat and solution.

Drawn from the engine's `Notes` (`engine.mansion.notes`, one seat's view at the table's
assist level) and the seats' names, nothing else: marks at `bookkeeping`, marks and the
odds at `full`; at `off` the bot attaches no picture (the sheet is the player's own to fill
in, and the text already lists their hand and what they saw). The scene's JSON is exactly
what the picture shows (the cache key).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.i18n import SOURCE, tr, trn
from bot.mansion.faces import card_colour
from bot.mansion.words import KIND_PLURAL, card_name
from bot.pictures.cache import PictureCache
from bot.pictures.canvas import Canvas
from bot.pictures.colours import THEME, ink_on, mix, rgb
from bot.pictures.names import alt_name, drawn_name
from bot.pictures.numbers import percent
from bot.pictures.page import Scene, draw_header
from bot.pictures.picture import Picture, make_picture
from engine.mansion.cards import BY_KIND, Kind
from engine.mansion.notes import Notes
from engine.mansion.records import Triple

KIND = "mbm.notes"
CACHE = PictureCache(max_items=128)
DRAWN_ASSISTS = ("bookkeeping", "full")
"""The assist levels whose notes come with a picture."""


@dataclass(frozen=True)
class NoteRow:
    """One card: a mark per seat and the solution's, with the odds at `full`."""

    card: str
    name: str
    marks: tuple[str, ...]
    """One per seat, then the solution's: held, not_held or unknown."""
    odds: tuple[float, ...] = ()
    """At `full`: P(each seat holds it), then P(it is in the solution), to 3 decimals."""
    deduced: bool = False
    """At `full`: its verdict was worked out, not seen (tagged "deduced")."""


@dataclass(frozen=True)
class NotesScene(Scene):
    """Everything the notes picture shows (and nothing else): the cache key."""

    heads: tuple[str, ...]
    me: int
    blocks: tuple[tuple[str, tuple[NoteRow, ...]], ...]
    """(kind label, its rows), suspects, vehicles, destinations."""
    full: bool
    possible: int | None
    solved: tuple[str, str, str] | None
    top: tuple[tuple[float, tuple[str, str, str]], ...]
    description: str
    words: tuple[str, str, str, str]
    """The words drawn around the grid, in the reader's language: the solution's column,
    the "deduced" tag, the summary's first line, the odds' legend."""


def notes_data(grid: Notes, names: list[str], variant_line: str, lang: str = SOURCE
               ) -> dict[str, Any]:
    """The stored input of a notes picture: the seat's own grid and the seats' names, and
    the language it is drawn in."""
    data = {"notes": grid.model_dump(mode="json"), "names": names, "line": variant_line}
    return data if lang == SOURCE else {**data, "lang": lang}


def draw_notes(data: dict[str, Any]) -> Picture:
    return notes_picture(Notes.model_validate(data["notes"]), list(data["names"]),
                         str(data["line"]), lang=str(data.get("lang", SOURCE)))


def notes_picture(grid: Notes, names: list[str], line: str, *, lang: str = SOURCE,
                  cache: PictureCache | None = CACHE) -> Picture:
    scene = notes_scene(grid, names, line, lang)
    filename = f"mansion-notes-seat{grid.seat + 1}.png"

    def render() -> Picture:
        return make_picture(render_notes(scene), filename, scene.description)

    if cache is None:
        return render()
    return cache.get_or_render(filename, scene.to_json(), render)


def _names(triple: Triple, lang: str) -> tuple[str, str, str]:
    s, v, d = (card_name(lang, c) for c in triple.cards())
    return s, v, d


def notes_scene(grid: Notes, names: list[str], line: str, lang: str = SOURCE) -> NotesScene:
    """The grid's content for `grid.seat`, from its notes alone."""
    if grid.assist not in DRAWN_ASSISTS:
        raise ValueError("Notes at assist off are not drawn.")
    full = grid.assist == "full"
    blocks = []
    for kind in Kind:
        rows = []
        for card in BY_KIND[kind]:
            row = grid.row(card)
            odds: tuple[float, ...] = ()
            if full and row.holder_probabilities is not None:
                odds = tuple(round(p, 3) for p in [*row.holder_probabilities,
                                                    row.solution_probability or 0.0])
            rows.append(NoteRow(card, card_name(lang, card), (*row.marks, row.solution), odds,
                                full and row.deduced))
        blocks.append((tr(lang, KIND_PLURAL[kind]), tuple(rows)))
    heads = tuple(tr(lang, "You") if i == grid.seat else drawn_name(n, i)
                  for i, n in enumerate(names))
    me = drawn_name(names[grid.seat], grid.seat)
    top = tuple((round(o.probability, 3), _names(o.solution, lang))
                for o in grid.solutions[:4])
    solved = _names(grid.solved, lang) if grid.solved is not None else None
    if solved is not None:
        summary = tr(lang, "Solved: {cards}", cards=" · ".join(solved))
    elif full:
        summary = trn(lang, "{n} possible solution", "{n} possible solutions",
                      grid.possible or 0)
    else:
        summary = tr(lang, "Green: holds it · grey cross: does not · blank: not known yet")
    return NotesScene(
        title=tr(lang, "{name}'s notes", name=me),
        subtitle=(tr(lang, "{line} · assist full: exact, with the odds", line=line) if full
                  else tr(lang, "{line} · assist bookkeeping: direct marks", line=line)),
        heads=heads,
        me=grid.seat,
        blocks=tuple(blocks),
        full=full,
        possible=grid.possible,
        solved=solved,
        top=top if full else (),
        description=_alt(grid, names, lang),
        words=(tr(lang, "Solution"), tr(lang, "deduced"), summary,
               tr(lang, "% the chance · deduced: worked out, not seen")),
    )


def _alt(grid: Notes, names: list[str], lang: str) -> str:
    who = alt_name(names[grid.seat], grid.seat)
    parts = [tr(lang, "{name}'s notes grid (full assist): the 21 Clue cards by seat and "
                      "solution.", name=who) if grid.assist == "full" else
             tr(lang, "{name}'s notes grid (bookkeeping assist): the 21 Clue cards by seat and "
                      "solution.", name=who)]
    if grid.solved is not None:
        parts.append(tr(lang, "Solved: {cards}.", cards=", ".join(_names(grid.solved, lang))))
    for kind in Kind:
        rows = [grid.row(c) for c in BY_KIND[kind]]
        live = [r for r in rows if r.solution != "not_held"]
        if grid.assist == "full":
            text = ", ".join(f"{card_name(lang, r.card)} {percent(r.solution_probability or 0)}"
                             for r in sorted(live, key=lambda r: -(r.solution_probability or 0)))
        else:
            text = ", ".join(card_name(lang, r.card) for r in live)
        parts.append(tr(lang, "{kind} that may be in the solution: {cards}.",
                        kind=tr(lang, KIND_PLURAL[kind]), cards=text or tr(lang, "none")))
    deduced = [card_name(lang, r.card) for r in grid.cards if r.deduced]
    if grid.assist == "full" and deduced:
        parts.append(tr(lang, "Deduced, not seen: {cards}.", cards=", ".join(deduced)))
    return " ".join(parts)


# Geometry (logical pixels)
_MARGIN = 22
_HEADER_H = 25 + 10 + 15 + 8 + 8
_NAME_W = 196
_CELL_W, _CELL_H = 70, 27
_GAP = 3
_HEADS_H = 30
_KIND_H = 30
_LIKELY = rgb("#e6b450")
_TAG_W = 56
"""Room for the "deduced" tag at the end of a card's name."""


def _size(scene: NotesScene) -> tuple[int, int]:
    columns = len(scene.heads) + 1
    width = 2 * _MARGIN + _NAME_W + columns * (_CELL_W + _GAP)
    rows = sum(len(rows) for _, rows in scene.blocks)
    height = (_MARGIN + _HEADER_H + _HEADS_H + len(scene.blocks) * _KIND_H
              + rows * (_CELL_H + _GAP) + 12 + _summary_height(scene) + _MARGIN)
    return round(max(width, 560)), round(height)


def _summary_height(scene: NotesScene) -> float:
    if scene.solved is not None:
        return 34
    return 34 + 26 * len(scene.top) if scene.full else 24


def render_notes(scene: NotesScene, scale: int | None = None) -> Image.Image:
    """The grid's pixels: a column per seat and the solution's, a row per card."""
    width, height = _size(scene)
    canvas = Canvas(width, height, THEME.background, **({"scale": scale} if scale else {}))
    draw_header(canvas, scene.title, scene.subtitle)
    x0, y = _MARGIN, _MARGIN + _HEADER_H
    columns: list[float] = [x0 + _NAME_W + k * (_CELL_W + _GAP)
                            for k in range(len(scene.heads) + 1)]
    for k, head in enumerate([*scene.heads, scene.words[0]]):
        cx = columns[k]
        colour = THEME.accent if k in (scene.me, len(scene.heads)) else THEME.text
        canvas.text((cx + _CELL_W / 2, y + 8), head, 14, colour, anchor="ma", bold=True,
                    max_width=_CELL_W - 4, min_size=10)
    y += _HEADS_H
    for label, rows in scene.blocks:
        canvas.text((x0, y + 8), label.upper(), 13, THEME.accent)
        canvas.line([(x0 + 110, y + 15), (columns[-1] + _CELL_W, y + 15)], THEME.panel_edge, 1)
        y += _KIND_H
        for row in rows:
            _draw_row(canvas, scene, row, columns, y)
            y += _CELL_H + _GAP
    _draw_summary(canvas, scene, (x0, y + 12, width - _MARGIN))
    return canvas.finish()


def _draw_row(canvas: Canvas, scene: NotesScene, row: NoteRow, columns: list[float],
              y: float) -> None:
    x0 = _MARGIN
    mid = y + _CELL_H / 2
    canvas.rect((x0, y + 4, x0 + 6, y + _CELL_H - 4), card_colour(row.card), radius=2,
                outline=THEME.panel_edge, width=0.5)
    struck = row.marks[-1] == "not_held"
    tag = _TAG_W if row.deduced else 0
    canvas.text((x0 + 14, mid), row.name, 15, THEME.muted if struck else THEME.text,
                anchor="lm", max_width=_NAME_W - 20 - tag, bold=row.marks[-1] == "held")
    if row.deduced:
        canvas.text((x0 + _NAME_W - 8, mid), scene.words[1], 11, THEME.accent, anchor="rm")
    for k, mark in enumerate(row.marks):
        cx = columns[k]
        odds = row.odds[k] if row.odds else None
        _draw_cell(canvas, mark, odds, (cx, y, cx + _CELL_W, y + _CELL_H))


def _draw_cell(canvas: Canvas, mark: str, odds: float | None,
               box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    if mark == "held":
        canvas.rect(box, THEME.good, radius=6)
        canvas.glyph("check", (mx - 8, my - 8, mx + 8, my + 8), THEME.background, THEME.good)
        return
    if mark == "not_held":
        canvas.rect(box, mix(THEME.background, THEME.panel, 0.5), radius=6)
        canvas.glyph("cross", (mx - 5, my - 5, mx + 5, my + 5), mix(THEME.muted,
                     THEME.background, 0.35), THEME.background)
        return
    if odds is None:
        canvas.rect(box, THEME.panel, radius=6, outline=THEME.panel_edge, width=1)
        return
    fill = mix(THEME.panel, _LIKELY, 0.1 + 0.7 * odds)
    canvas.rect(box, fill, radius=6, outline=THEME.panel_edge, width=1)
    canvas.text((mx, my), percent(odds), 14, ink_on(fill, THEME.card_ink, THEME.text),
                anchor="mm", bold=True)


def _draw_summary(canvas: Canvas, scene: NotesScene, span: tuple[float, float, float]) -> None:
    x0, y, x1 = span
    summary = scene.words[2]
    if scene.solved is not None:
        canvas.text((x0, y), summary, 17, THEME.accent, bold=True, max_width=x1 - x0)
        return
    if not scene.full:
        canvas.text((x0, y), summary, 13, THEME.muted, max_width=x1 - x0)
        return
    canvas.text((x0, y), summary, 17, THEME.text, bold=True)
    canvas.text((x1, y + 3), scene.words[3], 13, THEME.muted, anchor="ra")
    y += 30
    for p, names in scene.top:
        canvas.rect((x0, y + 3, x0 + 100, y + 17), THEME.panel, radius=4)
        canvas.rect((x0, y + 3, x0 + max(4, 100 * p), y + 17), _LIKELY, radius=4)
        canvas.text((x0 + 110, y + 10), percent(p), 15, THEME.text, anchor="lm", bold=True)
        canvas.text((x0 + 162, y + 10), " · ".join(names), 15, THEME.text, anchor="lm",
                    max_width=x1 - x0 - 166)
        y += 26
