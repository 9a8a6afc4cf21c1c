"""The finished product: PNG bytes, a file name and an alt text, ready to attach.

No discord import: the bot wraps a `Picture` in `discord.File(io.BytesIO(p.png), p.filename,
description=p.description)`; everything here is testable alone.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

ATTACHMENT_LIMIT = 8 * 1024 * 1024
"""Discord's smallest upload limit (8 MiB); every picture stays far below it."""
TARGET_BYTES = 300_000
"""What we aim for, so that a picture loads at once on a phone."""
DESCRIPTION_LIMIT = 1024
"""Discord's limit on an attachment's description (its alt text)."""
PALETTE_SAMPLE = 4
"""The palette is chosen from one pixel in this many each way."""
MAX_SIDE = 2000
"""Longest side we draw: Discord scales anything larger down in chat anyway."""


@dataclass(frozen=True)
class Picture:
    """A rendered picture. `faces` lists the card ids drawn face up: the secrecy tests
    check it against what the viewer may see."""

    filename: str
    png: bytes
    description: str
    width: int
    height: int
    faces: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if len(self.description) > DESCRIPTION_LIMIT:
            cut = self.description[: DESCRIPTION_LIMIT - 1].rstrip() + "…"
            object.__setattr__(self, "description", cut)

    @property
    def size(self) -> int:
        return len(self.png)


def encode_png(image: Image.Image, *, colours: int = 256) -> bytes:
    """PNG bytes of `image`, reduced to a `colours`-entry palette (0 keeps full colour).

    Why a palette: the pictures are flat colours and anti-aliased edges, which 256 colours
    render without visible loss at about a third of the bytes; no dithering, so flat areas
    stay flat and compress well. Why zlib's fastest level: a 6-seat view was drawn in 22 ms
    instead of 30 (level 6) for 38 KB instead of 29 (`bench.pictures`): still far below
    `TARGET_BYTES`, and drawing time is what a table waits for under load.
    """
    if colours:
        # the palette chosen from every fourth pixel each way (nearest: real colours, no
        # blends), then each pixel mapped to its nearest entry: 7 ms instead of 13 for a
        # 6-seat view, flat colours as exact as before (within one level)
        sample = image
        if min(image.size) >= 4 * PALETTE_SAMPLE:
            size = (image.width // PALETTE_SAMPLE, image.height // PALETTE_SAMPLE)
            sample = image.resize(size, Image.Resampling.NEAREST)
        palette = sample.quantize(
            colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def make_picture(
    image: Image.Image, filename: str, description: str, faces: frozenset[str] = frozenset()
) -> Picture:
    if max(image.size) > MAX_SIDE:
        raise ValueError(f"{filename}: {image.size} is larger than {MAX_SIDE} pixels a side")
    return Picture(
        filename=filename,
        png=encode_png(image),
        description=description,
        width=image.width,
        height=image.height,
        faces=faces,
    )
