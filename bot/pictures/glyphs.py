"""Small pictograms drawn from plain shapes (no third-party art): a person, a map pin, a
dagger, a magnifying glass, a check mark, a cross, a star, a car, an envelope.

Each glyph fills a square box given in pixels on the target image; `hole` is the colour of
whatever shows through its cut-outs (the pin's eye, the lens). Shapes are drawn without
anti-aliasing, so callers draw them on a supersampled image and scale it down.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import ImageDraw

from bot.pictures.colours import RGB

Box = tuple[float, float, float, float]
Glyph = Callable[[ImageDraw.ImageDraw, Box, RGB, RGB], None]


def _unit(box: Box) -> Callable[[float, float], tuple[float, float]]:
    """Map unit-square coordinates (0..1) into `box`."""
    x0, y0, x1, y1 = box
    return lambda u, v: (x0 + u * (x1 - x0), y0 + v * (y1 - y0))


def _rotated(
    points: Sequence[tuple[float, float]], degrees: float, centre: tuple[float, float] = (0.5, 0.5)
) -> list[tuple[float, float]]:
    a = math.radians(degrees)
    cx, cy = centre
    cos, sin = math.cos(a), math.sin(a)
    return [
        (cx + (u - cx) * cos - (v - cy) * sin, cy + (u - cx) * sin + (v - cy) * cos)
        for u, v in points
    ]


def _circle(draw: ImageDraw.ImageDraw, at: tuple[float, float], r: float, fill: RGB) -> None:
    draw.ellipse((at[0] - r, at[1] - r, at[0] + r, at[1] + r), fill=fill)


def person(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, hole: RGB) -> None:
    """A bust: round head over rounded shoulders."""
    p = _unit(box)
    size = box[2] - box[0]
    _circle(draw, p(0.5, 0.3), 0.2 * size, fill)
    x0, y0 = p(0.14, 0.56)
    x1, y1 = p(0.86, 1.3)
    draw.pieslice((x0, y0, x1, y1), 180, 360, fill=fill)
    # a collar notch, so the bust reads as a figure and not a bell
    draw.polygon([p(0.42, 0.56), p(0.58, 0.56), p(0.5, 0.72)], fill=hole)


def pin(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, hole: RGB) -> None:
    """A map pin: a disc with an eye, tapering to a point."""
    p = _unit(box)
    size = box[2] - box[0]
    r = 0.3 * size
    centre = p(0.5, 0.37)
    # the tangent points of the two straight sides, for a smooth join with the disc
    tip = p(0.5, 0.97)
    dy = tip[1] - centre[1]
    angle = math.asin(r / dy)
    tx, ty = r * math.cos(angle), r * math.sin(angle)
    draw.polygon(
        [(centre[0] - tx, centre[1] + ty), (centre[0] + tx, centre[1] + ty), tip], fill=fill
    )
    _circle(draw, centre, r, fill)
    _circle(draw, centre, 0.12 * size, hole)


def dagger(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, hole: RGB) -> None:
    """A dagger pointing up and to the right."""
    p = _unit(box)
    tilt = 40.0
    blade = [(0.5, 0.02), (0.58, 0.14), (0.575, 0.6), (0.425, 0.6), (0.42, 0.14)]
    guard = [(0.26, 0.6), (0.74, 0.6), (0.74, 0.68), (0.26, 0.68)]
    grip = [(0.455, 0.68), (0.545, 0.68), (0.545, 0.88), (0.455, 0.88)]
    for shape in (blade, guard, grip):
        draw.polygon([p(u, v) for u, v in _rotated(shape, tilt)], fill=fill)
    ((pu, pv),) = _rotated([(0.5, 0.93)], tilt)
    size = box[2] - box[0]
    _circle(draw, p(pu, pv), 0.065 * size, fill)
    # a fuller (groove) down the blade
    draw.line(
        [p(u, v) for u, v in _rotated([(0.5, 0.16), (0.5, 0.56)], tilt)],
        fill=hole,
        width=max(1, round(0.025 * size)),
    )


def magnifier(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, hole: RGB) -> None:
    """A magnifying glass: a ring and a handle."""
    p = _unit(box)
    size = box[2] - box[0]
    centre = p(0.42, 0.42)
    _circle(draw, centre, 0.32 * size, fill)
    _circle(draw, centre, 0.23 * size, hole)
    handle = _rotated([(0.385, 0.74), (0.455, 0.74), (0.47, 1.06), (0.37, 1.06)], -45, (0.42, 0.42))
    draw.polygon([p(u, v) for u, v in handle], fill=fill)


def check(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, hole: RGB) -> None:
    """A check mark (certain)."""
    p = _unit(box)
    width = max(1, round(0.16 * (box[2] - box[0])))
    draw.line([p(0.14, 0.54), p(0.4, 0.78), p(0.88, 0.24)], fill=fill, width=width, joint="curve")


def cross(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, hole: RGB) -> None:
    """An X (ruled out)."""
    p = _unit(box)
    width = max(1, round(0.15 * (box[2] - box[0])))
    draw.line([p(0.18, 0.18), p(0.82, 0.82)], fill=fill, width=width)
    draw.line([p(0.82, 0.18), p(0.18, 0.82)], fill=fill, width=width)


def star(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, hole: RGB) -> None:
    """A five-pointed star (the winner)."""
    p = _unit(box)
    points = []
    for k in range(10):
        r = 0.5 if k % 2 == 0 else 0.2
        a = math.radians(-90 + 36 * k)
        points.append(p(0.5 + r * math.cos(a), 0.53 + r * math.sin(a)))
    draw.polygon(points, fill=fill)


def car(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, hole: RGB) -> None:
    """A car seen from the side: a cabin with two windows on a body, two wheels."""
    p = _unit(box)
    size = box[2] - box[0]
    draw.polygon([p(0.26, 0.5), p(0.34, 0.26), p(0.68, 0.26), p(0.8, 0.5)], fill=fill)
    draw.rounded_rectangle((*p(0.04, 0.48), *p(0.96, 0.74)), radius=0.08 * size, fill=fill)
    draw.polygon([p(0.35, 0.47), p(0.39, 0.32), p(0.5, 0.32), p(0.5, 0.47)], fill=hole)
    draw.polygon([p(0.55, 0.47), p(0.55, 0.32), p(0.65, 0.32), p(0.72, 0.47)], fill=hole)
    for u in (0.27, 0.73):
        _circle(draw, p(u, 0.76), 0.13 * size, hole)
        _circle(draw, p(u, 0.76), 0.1 * size, fill)


def envelope(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, hole: RGB) -> None:
    """A closed envelope (a Private Tip, passed face down)."""
    p = _unit(box)
    size = box[2] - box[0]
    draw.rounded_rectangle((*p(0.06, 0.22), *p(0.94, 0.8)), radius=0.06 * size, fill=fill)
    width = max(1, round(0.06 * size))
    draw.line([p(0.1, 0.27), p(0.5, 0.56), p(0.9, 0.27)], fill=hole, width=width, joint="curve")


GLYPHS: dict[str, Glyph] = {
    "person": person,
    "pin": pin,
    "dagger": dagger,
    "magnifier": magnifier,
    "check": check,
    "cross": cross,
    "star": star,
    "car": car,
    "envelope": envelope,
}
"""Glyph name -> drawer; a game's card faces name their glyph here."""
