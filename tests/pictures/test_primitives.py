"""The game-agnostic drawing pieces: fonts, layout, cards, PNG, cache; and no discord."""

from __future__ import annotations

import functools
import io
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.pictures import Picture, PictureCache, encode_png
from bot.pictures.canvas import Canvas
from bot.pictures.cards import CARD, FaceSpec, back_tile, draw_back, draw_face, face_tile
from bot.pictures.colours import THEME, contrast, ink_on, mix
from bot.pictures.fonts import can_draw, drawable, fit, font, text_width
from bot.pictures.grid import first_fit, grid, grid_size, row
from bot.pictures.picture import DESCRIPTION_LIMIT, make_picture
from tests.pictures.golden import pixel

SPEC = FaceSpec("Candlestick", "Up close", "WHITE", (233, 228, 216), "dagger")


def test_the_font_is_pillows_own() -> None:
    """Identical pixels everywhere: the embedded Aileron, never an OS font."""
    assert font(20).getname() == ("Aileron", "Regular")
    assert font(20) is font(20)


def test_names_are_folded_to_what_the_font_draws() -> None:
    assert drawable("José Ñandú") == "Jose Nandu"
    assert drawable("Zoë 🕵️ Smith") == "Zoe Smith"
    assert drawable("Straße — Ørsted") == "Strasse - Orsted"
    assert drawable("🕵️🎲", "Seat 2") == "Seat 2"
    assert drawable("李小龍", "Seat 1") == "Seat 1"
    assert can_draw("A") and can_draw("…") and not can_draw("é")


def test_fit_shrinks_then_cuts() -> None:
    assert fit("Knife", 18, 200) == ("Knife", 18)
    text, size = fit("Candlestick", 20, text_width("Candlestick", 17))
    assert (text, size) == ("Candlestick", 17)
    text, size = fit("Bartholomew Maximilian the Third", 16, 120, 12)
    assert text.endswith("…") and size == 12 and text_width(text, 12) <= 120


def test_colours() -> None:
    assert mix((0, 0, 0), (255, 255, 255), 0.5) == (128, 128, 128)
    assert ink_on((240, 194, 59)) != (255, 255, 255)  # yellow takes dark ink
    assert ink_on((47, 111, 196)) == (255, 255, 255)
    assert contrast(THEME.text, THEME.background) > 7
    assert contrast(THEME.muted, THEME.panel) > 4.5


def test_grid_and_flow() -> None:
    assert grid(3, 2, (10, 20), (5, 5)) == [(0, 0), (15, 0), (0, 25)]
    assert grid_size(3, 2, (10, 20), (5, 5)) == (25, 45)
    assert row([50, 20, 30], 10, 5) == [5, 65, 95]
    assert first_fit([60, 60, 60, 20], 130, 10) == [[0, 1], [2, 3]]
    assert first_fit([100, 100, 20], 130, 10) == [[0, 2], [1]]


def test_canvas_records_faces_not_backs() -> None:
    canvas = Canvas(300, 200, THEME.background)
    draw_face(canvas, "candlestick", SPEC, (10, 10))
    draw_back(canvas, (150, 10), CARD, "A")
    assert canvas.faces == ["candlestick"]
    image = canvas.finish()
    assert image.size == (300, 200)
    # the face is cream in the middle, the back burgundy
    assert image.getpixel((10 + CARD[0] // 2, 10 + 115)) != image.getpixel((150 + 20, 10 + 115))


@pytest.mark.parametrize("xy", [(10, 10), (10.5, 11), (11.25, 10.75), (12.4, 13.5)])
def test_a_stamped_card_is_the_card_drawn_and_reduced(xy: tuple[float, float]) -> None:
    """A card is stamped in final pixels after the reduction (`Canvas.stamp`): the pixels
    are those of drawing its shadow and tile at the working resolution and reducing the
    page, within a level or two on its anti-aliased edges, at any position (odd working
    pixels included); a ring drawn before it differs in at most 3 pixels, where the
    ring's edge and the shadow's rounded corner share a final pixel."""
    x, y = xy
    w, h = CARD
    stamped = Canvas(300, 200, THEME.panel)
    stamped.rect((x - 4, y - 4, x + w + 4, y + h + 4), None, radius=12, outline=THEME.accent,
                 width=2.5)
    draw_face(stamped, "candlestick", SPEC, (x, y))
    draw_back(stamped, (x + 140, y), CARD, "A")
    drawn = Canvas(300, 200, THEME.panel)
    drawn.rect((x - 4, y - 4, x + w + 4, y + h + 4), None, radius=12, outline=THEME.accent,
               width=2.5)
    for left, tile in ((x, face_tile(SPEC, CARD, 2)), (x + 140, back_tile(CARD, 2, "A"))):
        drawn.rect((left + 2, y + 3, left + w + 2, y + h + 3), (12, 14, 22), radius=0.085 * w)
        drawn.image.paste(tile, (drawn.px(left), drawn.px(y)), tile)
    difference = ImageChops.difference(stamped.finish(), drawn.finish()).convert("L")
    changed = difference.point(lambda v: 255 if v > 2 else 0).histogram()[255]
    assert changed <= 3 and ImageStat.Stat(difference).mean[0] < 0.05
    assert ImageStat.Stat(difference.crop((round(x) + 130, 0, 300, 200))).extrema[0][1] <= 2


def test_tiles_are_cached_and_anti_aliased() -> None:
    assert face_tile(SPEC, CARD, 2) is face_tile(SPEC, CARD, 2)
    tile = back_tile(CARD, 2, "?")
    assert tile.size == (CARD[0] * 2, CARD[1] * 2) and tile.mode == "RGBA"
    alphas = {pixel(tile, (x, 0))[3] for x in range(0, 40)}
    assert 0 in alphas and 255 in alphas  # rounded, transparent corner


def test_png_encoding_is_a_small_valid_png() -> None:
    canvas = Canvas(400, 300, THEME.background)
    for i in range(3):
        draw_face(canvas, "x", SPEC, (10 + i * 125, 10))
    png = encode_png(canvas.finish())
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(png)) as image:
        image.verify()
    assert len(png) < 60_000
    assert len(encode_png(canvas.finish(), colours=0)) > len(png)


def test_the_palette_keeps_flat_colours_and_edges_close() -> None:
    """The palette is chosen from a sample of the pixels: every flat colour (the theme, each
    suit's band) must still come out within a level of itself, and the whole picture
    within one level on average."""
    canvas = Canvas(640, 200, THEME.background)
    suits = [(233, 228, 216), (200, 40, 60), (40, 120, 200), (250, 200, 40), (90, 60, 140)]
    for i, colour in enumerate(suits):
        draw_face(canvas, "x", FaceSpec("Rope", "Upstairs", "SUIT", colour, "dagger"),
                  (10 + i * 125, 10))
    original = canvas.finish()
    with Image.open(io.BytesIO(encode_png(original))) as decoded:
        got = decoded.convert("RGB")
    assert sum(ImageStat.Stat(ImageChops.difference(original, got)).mean) / 3 < 0.6
    flat = {colour for n, colour in original.getcolors(1 << 20) or [] if n > 200}
    assert THEME.background in flat and set(suits) <= flat
    width = original.width
    for y in range(0, original.height, 3):
        for x in range(0, width, 3):
            here = pixel(original, (x, y))
            if here in flat:
                shift = max(abs(a - b) for a, b in zip(here, pixel(got, (x, y)), strict=True))
                assert shift <= 1, (here, pixel(got, (x, y)))


def test_picture_clips_its_description_and_refuses_huge_images() -> None:
    image = Image.new("RGB", (10, 10))
    picture = make_picture(image, "a.png", "x" * 5000)
    assert len(picture.description) == DESCRIPTION_LIMIT
    assert picture.description.endswith("…")
    with pytest.raises(ValueError, match="larger"):
        make_picture(Image.new("RGB", (2100, 10)), "b.png", "")


def _picture(n: int, size: int = 100) -> Picture:
    return Picture(f"{n}.png", b"x" * size, f"#{n}", 1, 1)


def test_cache_is_an_lru_bounded_by_items_and_bytes() -> None:
    cache = PictureCache(max_items=2, max_bytes=1000)
    calls: list[int] = []

    def render(n: int, size: int = 100) -> Picture:
        calls.append(n)
        return _picture(n, size)

    first = cache.get_or_render("k", "1", lambda: render(1))
    assert cache.get_or_render("k", "1", lambda: render(1)) is first
    cache.get_or_render("k", "2", lambda: render(2))
    cache.get_or_render("k", "1", lambda: render(1))  # 1 is now the most recent
    cache.get_or_render("k", "3", lambda: render(3))  # evicts 2
    assert calls == [1, 2, 3]
    cache.get_or_render("k", "1", lambda: render(1))
    cache.get_or_render("k", "2", lambda: render(2))
    assert calls == [1, 2, 3, 2]
    assert (cache.stats.hits, cache.stats.misses) == (3, 4)
    assert len(cache) == 2
    cache.get_or_render("other", "1", lambda: render(9, 900))  # kind is part of the key
    assert calls[-1] == 9 and cache.bytes <= 1000
    cache.clear()
    assert len(cache) == 0 and cache.bytes == 0


def test_cache_is_thread_safe() -> None:
    cache = PictureCache(max_items=8)

    def work(k: int) -> None:
        for i in range(200):
            cache.get_or_render("k", str((i * 7 + k) % 12), functools.partial(_picture, i))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 8
    assert cache.bytes == 8 * 100
    assert cache.stats.hits + cache.stats.misses == 800


def test_pictures_never_import_discord() -> None:
    """The renderers stand alone: testable and usable without discord.py loaded."""
    code = "import sys, bot.pictures, bot.thirteen_clues.pictures; print('discord' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "False"


def test_every_suit_reads_on_the_cream_card() -> None:
    """The White suit was pale grey on cream (band 1.19:1, icon 3.28:1 on its disc): a pale
    suit is drawn with a dark band, edge and icon instead, each at least 9:1; every suit's
    band lettering and icon stay readable."""
    from bot.pictures.cards import PALE, face_colours
    from bot.thirteen_clues.pictures import SUIT_COLOURS
    from engine.thirteen_clues.cards import Suit

    for suit, colour in SUIT_COLOURS.items():
        band, lettering, edge, disc, ink = face_colours(colour)
        assert contrast(lettering, band) >= 4.5, suit
        assert contrast(ink, disc) >= 3.0, suit
        assert contrast(edge, THEME.card) >= 1.6, suit
        if contrast(colour, THEME.card) < PALE:
            assert min(contrast(band, THEME.card), contrast(edge, THEME.card),
                       contrast(ink, disc), contrast(lettering, band)) >= 9.0, suit
    white = face_colours(SUIT_COLOURS[Suit.WHITE])
    assert contrast(white[0], THEME.card) > 10 and white[1] == SUIT_COLOURS[Suit.WHITE]
    # drawn: the band of the White card is dark, its middle still cream
    tile = face_tile(SPEC, CARD, 1)
    red, green, blue, *_ = pixel(tile, (CARD[0] // 2, 8))
    assert contrast((red, green, blue), THEME.card) > 9
