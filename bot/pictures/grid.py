"""Layout arithmetic: where boxes go, kept apart from drawing so it can be tested alone.

`grid` places equal cells in columns (the casebook); `first_fit` packs panels of any width
into rows (the table pictures); `row` lines boxes up side by side. Positions only.
"""

from __future__ import annotations

from collections.abc import Sequence

Point = tuple[float, float]
Size = tuple[float, float]


def grid(
    count: int, columns: int, cell: Size, gap: Size = (0, 0), origin: Point = (0, 0)
) -> list[Point]:
    """Top-left corners of `count` equal cells filled row by row, `columns` per row."""
    (w, h), (gx, gy), (x0, y0) = cell, gap, origin
    return [(x0 + (i % columns) * (w + gx), y0 + (i // columns) * (h + gy)) for i in range(count)]


def grid_size(count: int, columns: int, cell: Size, gap: Size = (0, 0)) -> Size:
    """Width and height that `grid` covers."""
    if count == 0:
        return (0, 0)
    cols = min(columns, count)
    rows = -(-count // columns)
    return (cols * cell[0] + (cols - 1) * gap[0], rows * cell[1] + (rows - 1) * gap[1])


def row(widths: Sequence[float], gap: float, x0: float = 0) -> list[float]:
    """Left edges of boxes of `widths` laid side by side."""
    out, x = [], x0
    for w in widths:
        out.append(x)
        x += w + gap
    return out


def first_fit(widths: Sequence[float], max_width: float, gap: float) -> list[list[int]]:
    """Indices of boxes grouped into rows no wider than `max_width`: each box joins the
    first row with room, else starts a new one. Fewer, fuller rows than plain flow (a
    narrow box at the end fills a gap above instead of sitting alone)."""
    rows: list[list[int]] = []
    used: list[float] = []
    for i, w in enumerate(widths):
        for r, width in enumerate(used):
            if width + gap + w <= max_width:
                rows[r].append(i)
                used[r] = width + gap + w
                break
        else:
            rows.append([i])
            used.append(w)
    return rows
