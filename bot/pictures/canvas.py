"""A drawing surface in logical pixels, supersampled so that shapes come out smooth.

Why supersample: Pillow draws polygons, ellipses and rounded corners without anti-aliasing.
Everything is drawn at `scale` times the size and reduced once at the end (a box filter,
which is both fast and exactly the average of each block of pixels), so callers think in
the final pixels and never in the working resolution.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.colours import RGB
from bot.pictures.fonts import fit, font_for
from bot.pictures.glyphs import GLYPHS

Box = tuple[float, float, float, float]
Sprite = Callable[[int, int], Image.Image]
"""An opaque thing drawn once (a card with its shadow): given the working-resolution offset
(0 to scale-1 each way) of its top-left inside a final pixel, its RGBA picture drawn at that
offset and reduced to final pixels, to paste after the reduction (see `Canvas.stamp`)."""

SCALE = 2
"""Working resolution per logical pixel: 2 removes the jaggies at a quarter of 4x's cost."""


@lru_cache(maxsize=1024)  # a few KB each: a few MB at most
def text_mask(
    text: str, size: int, stroke: int, anchor: str
) -> tuple[Image.Image, tuple[int, int], float]:
    """`text` rendered once as a coverage mask, with its offset from the anchor point and
    its advance width (working pixels, stroke included).

    Why: FreeType rendering (bold above all: a stroked outline) is the costliest step of a
    picture, and the same words come back in every picture (titles, names, captions); the
    width is measured once with it (measuring again cost a casebook about a millisecond)."""
    face = font_for(text, size)
    # whole pixels from FreeType; Pillow's stubs say float
    x0, y0, x1, y1 = (int(v) for v in face.getbbox(text, anchor=anchor, stroke_width=stroke))
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text(
        (-x0, -y0), text, font=face, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255
    )
    return mask, (x0, y0), face.getlength(text) + 2 * stroke


class Canvas:
    """An RGB picture under construction, with a record of the card faces drawn on it."""

    def __init__(self, width: int, height: int, background: RGB, scale: int = SCALE) -> None:
        self.width, self.height, self.scale = width, height, scale
        self.image = Image.new("RGB", (width * scale, height * scale), background)
        self.draw = ImageDraw.Draw(self.image)
        self.faces: list[str] = []
        """Ids of the card faces drawn, in order: what a secrecy test checks."""
        self._stamps: list[tuple[Image.Image, tuple[int, int]]] = []

    def px(self, value: float) -> int:
        return round(value * self.scale)

    def box(self, box: Box) -> tuple[int, int, int, int]:
        return (self.px(box[0]), self.px(box[1]), self.px(box[2]) - 1, self.px(box[3]) - 1)

    def rect(
        self,
        box: Box,
        fill: RGB | None,
        *,
        radius: float = 0,
        outline: RGB | None = None,
        width: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            self.box(box),
            radius=self.px(radius),
            fill=fill,
            outline=outline,
            width=self.px(width) if outline else 0,
        )

    def line(self, points: list[tuple[float, float]], fill: RGB, width: float = 1) -> None:
        self.draw.line(
            [(self.px(x), self.px(y)) for x, y in points], fill=fill, width=max(1, self.px(width))
        )

    def glyph(self, name: str, box: Box, fill: RGB, hole: RGB) -> None:
        x0, y0, x1, y1 = box
        GLYPHS[name](self.draw, (self.px(x0), self.px(y0), self.px(x1), self.px(y1)), fill, hole)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB,
        *,
        anchor: str = "la",
        bold: bool = False,
        max_width: float | None = None,
        min_size: int | None = None,
    ) -> float:
        """Draw `text` anchored at `xy` (Pillow anchors: "la" left-ascender, "mm" centre...),
        shrunk or cut to `max_width`; returns the width drawn, in logical pixels."""
        if max_width is not None:
            text, size = fit(text, size, int(max_width), min_size)
        px = self.px(size)
        stroke = max(1, round(size * self.scale / 26)) if bold else 0
        mask, (dx, dy), length = text_mask(text, px, stroke, anchor)
        x, y = self.px(xy[0]) + dx, self.px(xy[1]) + dy
        self.image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
        return length / self.scale

    def stamp(self, sprite: Sprite, xy: tuple[float, float]) -> None:
        """Put `sprite` with its top-left at `xy`, pasted in final pixels once the picture
        is reduced: the same pixels as drawing it here and reducing (within a level on its
        edges), at a quarter of the pasting, and the sprite is drawn once per process.
        Nothing may be drawn over a stamp afterwards (it would end up underneath)."""
        x, y = self.px(xy[0]), self.px(xy[1])
        ox, oy = x % self.scale, y % self.scale
        self._stamps.append((sprite(ox, oy), ((x - ox) // self.scale, (y - oy) // self.scale)))

    def finish(self) -> Image.Image:
        """The picture at its logical size, the stamps on it."""
        image = self.image if self.scale == 1 else self.image.reduce(self.scale)
        for sprite, xy in self._stamps:
            image.paste(sprite, xy, sprite)
        return image
