"""Playing cards drawn by the bot: a face (colour band, glyph, name, caption) and a back.

Game-agnostic: a game describes each card as a `FaceSpec`; this module only draws. Tiles are
cached by their spec and size, so a picture with thirty cards pays for each distinct card
once per process. Every face goes through `draw_face`, which records the card's id on the
canvas: tests compare that record with what the viewer may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.canvas import Canvas
from bot.pictures.colours import RGB, THEME, contrast, ink_on, mix
from bot.pictures.fonts import fit, font_for, text_width
from bot.pictures.glyphs import GLYPHS

Size = tuple[int, int]

CARD = (112, 156)
"""The usual card size in logical pixels (close to a real card's 5:7)."""
SMALL_CARD = (92, 128)
"""For rows of many cards (informants, the reveal)."""


@dataclass(frozen=True)
class FaceSpec:
    """What a card face shows; `colour` is its suit's, `glyph` a name in `GLYPHS`."""

    title: str
    caption: str
    band: str
    colour: RGB
    glyph: str


def deep(colour: RGB, against: RGB, minimum: float = 3.0) -> RGB:
    """`colour`, darkened until it reads on `against` (pale suits need it: yellow, white)."""
    out = colour
    step = 0
    while contrast(out, against) < minimum and step < 20:
        step += 1
        out = mix(colour, (30, 26, 36), step * 0.05)
    return out


PALE = 1.5
"""A suit colour whose contrast with the card's cream is below this (WCAG ratio; White:
1.19) cannot carry the band, the edge or the icon: such a card is drawn in `PALE_INK` with
the suit colour as the band's lettering and the icon's disc."""
PALE_INK: RGB = (58, 54, 68)


def face_colours(colour: RGB) -> tuple[RGB, RGB, RGB, RGB, RGB]:
    """Band, band lettering, card edge, icon disc and icon ink for a suit colour: a pale
    suit turns dark band and ink on its pale disc (every pair at least 9:1; White's band
    on the cream 1.19 → 11.0), the others keep their colour."""
    if contrast(colour, THEME.card) < PALE:
        return PALE_INK, colour, PALE_INK, colour, PALE_INK
    tint = mix(colour, (255, 255, 255), 0.78)
    return colour, ink_on(colour), deep(colour, THEME.card, 1.6), tint, deep(colour, tint, 3.0)


def title_lines(title: str, W: int) -> tuple[list[str], int]:
    """A card title on one line if it fits at the smallest title size, else on two lines
    split at the space that balances them ("Golden Gate / Bridge"), at the size both fit;
    cut with an ellipsis only if even that fails."""
    size, width, least = round(0.165 * W), round(0.88 * W), round(0.12 * W)
    one, one_size = fit(title, size, width, least)
    words = title.split()
    if one == title or len(words) < 2:
        return [one], one_size
    splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    first, second = min(splits, key=lambda p: max(text_width(p[0], least),
                                                 text_width(p[1], least)))
    longer = first if text_width(first, least) >= text_width(second, least) else second
    _, two_size = fit(longer, round(0.14 * W), width, round(0.11 * W))
    return [fit(first, two_size, width, two_size)[0], fit(second, two_size, width, two_size)[0]
            ], two_size


@lru_cache(maxsize=128)  # 30 cards x 2 sizes at ~280 KB: under 20 MB
def face_tile(spec: FaceSpec, size: Size, scale: int) -> Image.Image:
    """The card face as an RGBA tile at `scale` times `size` (transparent corners)."""
    w, h = size
    W, H = w * scale, h * scale
    tile = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    radius = round(0.085 * W)
    edge = max(2, round(0.035 * W))
    band, band_ink, outline, tint, ink = face_colours(spec.colour)
    draw.rounded_rectangle((0, 0, W - 1, H - 1), radius=radius, fill=outline)
    inner = (edge, edge, W - 1 - edge, H - 1 - edge)
    draw.rounded_rectangle(inner, radius=radius - edge, fill=THEME.card)
    band_h = round(0.15 * H)
    draw.rounded_rectangle(
        (edge, edge, W - 1 - edge, edge + band_h), radius=radius - edge, fill=band
    )
    draw.rectangle((edge, edge + band_h // 2, W - 1 - edge, edge + band_h), fill=band)
    band_text, band_size = fit(spec.band, round(0.095 * W), round(0.8 * W), round(0.07 * W))
    draw.text(
        (W // 2, edge + band_h // 2 + 1),
        band_text,
        font=font_for(band_text, band_size),
        fill=band_ink,
        anchor="mm",
    )
    cx, cy, r = W / 2, 0.435 * H, 0.25 * W
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tint)
    g = 0.7 * r
    GLYPHS[spec.glyph](draw, (cx - g, cy - g, cx + g, cy + g), ink, tint)
    lines, title_size = title_lines(spec.title, W)
    stroke = max(1, round(title_size / 26))
    step = round(0.98 * title_size)
    top = round((0.735 if len(lines) == 1 else 0.712) * H) - step * (len(lines) - 1) // 2
    for k, line in enumerate(lines):
        draw.text(
            (W // 2, top + k * step),
            line,
            font=font_for(line, title_size),
            fill=THEME.card_ink,
            anchor="mm",
            stroke_width=stroke,
            stroke_fill=THEME.card_ink,
        )
    if len(lines) == 1:  # two lines of title take the rule's place
        rule_y = round(0.82 * H)
        draw.line((round(0.3 * W), rule_y, round(0.7 * W), rule_y), fill=tint,
                  width=max(1, scale))
    caption, caption_size = fit(spec.caption, round(0.11 * W), round(0.86 * W))
    draw.text(
        (W // 2, round(0.89 * H)),
        caption,
        font=font_for(caption, caption_size),
        fill=THEME.card_muted,
        anchor="mm",
    )
    return tile


@lru_cache(maxsize=32)
def back_tile(size: Size, scale: int, label: str = "") -> Image.Image:
    """The card back: a lattice with a medallion holding `label` (a magnifier if empty)."""
    w, h = size
    W, H = w * scale, h * scale
    radius = round(0.085 * W)
    tile = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    body = Image.new("RGBA", (W, H), THEME.back)
    pattern = ImageDraw.Draw(body)
    step = max(4, round(0.14 * W))
    line = max(1, round(0.012 * W))
    for k in range(-H, W + H, step):
        pattern.line((k, 0, k + H, H), fill=THEME.back_pattern, width=line)
        pattern.line((k, H, k + H, 0), fill=THEME.back_pattern, width=line)
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, W - 1, H - 1), radius=radius, fill=255)
    tile.paste(body, (0, 0), mask)
    draw = ImageDraw.Draw(tile)
    inset = round(0.06 * W)
    draw.rounded_rectangle(
        (inset, inset, W - 1 - inset, H - 1 - inset),
        radius=max(1, radius - inset // 2),
        outline=THEME.back_ink,
        width=max(1, round(0.014 * W)),
    )
    cx, cy, r = W / 2, H / 2, 0.27 * W
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=THEME.back,
        outline=THEME.back_ink,
        width=max(1, round(0.022 * W)),
    )
    if label:
        text, text_size = fit(label, round(0.3 * W), round(1.5 * r), round(0.14 * W))
        draw.text(
            (cx, cy),
            text,
            font=font_for(text, text_size),
            fill=THEME.back_ink,
            anchor="mm",
            stroke_width=max(1, round(text_size / 22)),
            stroke_fill=THEME.back_ink,
        )
    else:
        g = 0.62 * r
        GLYPHS["magnifier"](draw, (cx - g, cy - g, cx + g, cy + g), THEME.back_ink, THEME.back)
    return tile


SHADOW: RGB = (12, 14, 22)
SHADOW_OFFSET = (2, 3)
"""A card's shadow: the card's shape, this far right and down, under it."""


def _sprite(tile: Image.Image, size: Size, scale: int, ox: int, oy: int) -> Image.Image:
    """A card tile with its shadow, drawn `(ox, oy)` working pixels into a block of whole
    final pixels and reduced to them (premultiplied, as `Image.reduce` does for RGBA): what
    drawing the two on the page and reducing the page gives, pasted in a quarter of the
    time, and the shadow's rounded rectangle drawn once per process instead of per card."""
    w = size[0]
    dx, dy = (round(d * scale) for d in SHADOW_OFFSET)
    width = -(-(ox + tile.width + dx) // scale) * scale
    height = -(-(oy + tile.height + dy) // scale) * scale
    block = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(block).rounded_rectangle(
        (ox + dx, oy + dy, ox + dx + tile.width - 1, oy + dy + tile.height - 1),
        radius=round(0.085 * w * scale), fill=SHADOW)
    block.paste(tile, (ox, oy), tile)
    return block.reduce(scale)


@lru_cache(maxsize=512)  # 50-75 KB each (final pixels): under 40 MB
def face_sprite(spec: FaceSpec, size: Size, scale: int, ox: int, oy: int) -> Image.Image:
    """The card face with its shadow, ready to stamp (see `Canvas.stamp`)."""
    return _sprite(face_tile(spec, size, scale), size, scale, ox, oy)


@lru_cache(maxsize=64)
def back_sprite(size: Size, scale: int, label: str, ox: int, oy: int) -> Image.Image:
    """The card back with its shadow, ready to stamp (see `Canvas.stamp`)."""
    return _sprite(back_tile(size, scale, label), size, scale, ox, oy)


def draw_face(
    canvas: Canvas, card_id: str, spec: FaceSpec, xy: tuple[float, float], size: Size = CARD
) -> None:
    """Draw a card face up at `xy` and record `card_id` as shown."""
    canvas.faces.append(card_id)
    canvas.stamp(lambda ox, oy: face_sprite(spec, size, canvas.scale, ox, oy), xy)


def draw_back(canvas: Canvas, xy: tuple[float, float], size: Size = CARD, label: str = "") -> None:
    """Draw a card face down at `xy`, `label` (a letter, "?") on its medallion."""
    canvas.stamp(lambda ox, oy: back_sprite(size, canvas.scale, label, ox, oy), xy)
