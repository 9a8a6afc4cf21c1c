"""Layout arithmetic: where boxes go, kept apart from drawing so it can be reasoned about.

`flow` packs panels of any size into rows like words in a paragraph; `grid` places equal
cells in columns. Both return positions only.
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


def flow(
    sizes: Sequence[Size], max_width: float, gap: float, *, breaks: Sequence[int] = ()
) -> tuple[list[Point], Size]:
    """Pack boxes left to right into rows no wider than `max_width` (a box wider than that
    gets a row alone); indices in `breaks` always start a new row. Within a row boxes are
    top-aligned; rows are as tall as their tallest box. Returns corners and the size used."""
    points: list[Point] = []
    x = y = row_h = used_w = 0.0
    for i, (w, h) in enumerate(sizes):
        if points and (x + w > max_width or i in breaks) and x > 0:
            y += row_h + gap
            x = row_h = 0.0
        points.append((x, y))
        x += w + gap
        row_h = max(row_h, h)
        used_w = max(used_w, x - gap)
    return points, (used_w, y + row_h if sizes else 0.0)


def even_rows(count: int, per_row: int) -> list[int]:
    """Row lengths for `count` items at most `per_row` a row, as even as possible
    (7 at 3 a row: 3, 2, 2 rather than 3, 3, 1)."""
    if count <= 0:
        return []
    rows = -(-count // per_row)
    base, extra = divmod(count, rows)
    return [base + 1] * extra + [base] * (rows - extra)


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
