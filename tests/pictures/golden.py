"""Golden-image comparison: a rendered PNG against one committed under tests/golden/.

Pixel-wise with a small tolerance, because FreeType's anti-aliasing may move by a level or
two between Pillow releases (measured: Pillow 10.4 against 13.0 differs in at most one pixel
in a million, by a few levels), while any real change to a picture (a card moved, a colour,
one caption word) changes hundreds of pixels by far more. `UPDATE_GOLDEN=1` rewrites the
files instead of comparing; a failure saves the picture it got and a diff beside the
golden one (`*.actual.png`, `*.diff.png`, ignored by git) to look at.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops

from bot.pictures import ATTACHMENT_LIMIT, TARGET_BYTES, Picture
from bot.pictures.picture import DESCRIPTION_LIMIT, MAX_SIDE

GOLDEN = Path(__file__).resolve().parent.parent / "golden"

MEAN_TOLERANCE = 0.1
"""Largest mean absolute difference per channel (0-255) that still passes."""
PIXEL_TOLERANCE = 48
"""A pixel counts as changed when a channel moved by more than this."""
CHANGED_FRACTION = 0.00003
"""Largest share of changed pixels that still passes (about 25 in a picture; one short
caption word changes a hundred)."""


@dataclass(frozen=True)
class Comparison:
    same_size: bool
    mean: float
    changed: float

    @property
    def ok(self) -> bool:
        return self.same_size and self.mean <= MEAN_TOLERANCE and self.changed <= CHANGED_FRACTION


def updating() -> bool:
    return os.environ.get("UPDATE_GOLDEN", "") not in ("", "0")


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    """The channels of one pixel of a multi-band picture (RGB, RGBA): Pillow types a pixel
    as a number, a tuple or None, whatever the mode."""
    value = image.getpixel(xy)
    assert isinstance(value, tuple), (image.mode, value)
    return value


def compare(actual: Image.Image, expected: Image.Image) -> tuple[Comparison, Image.Image | None]:
    a, e = actual.convert("RGB"), expected.convert("RGB")
    if a.size != e.size:
        return Comparison(False, 255.0, 1.0), None
    diff = ImageChops.difference(a, e)
    histogram = diff.histogram()  # 3 x 256 bins
    pixels = a.width * a.height
    total = sum(i * n for k in range(3) for i, n in enumerate(histogram[k * 256 : (k + 1) * 256]))
    mean = total / (3 * pixels)
    channel_max = Image.eval(diff, lambda v: 255 if v > PIXEL_TOLERANCE else 0)
    r, g, b = channel_max.split()
    changed_mask = ImageChops.lighter(ImageChops.lighter(r, g), b)
    changed = changed_mask.histogram()[255] / pixels
    return Comparison(True, mean, changed), changed_mask


def check_golden(name: str, png: bytes) -> Comparison | None:
    """Compare `png` with tests/golden/<name>.png (or write it when updating). Returns the
    comparison (None when written); raises AssertionError with paths on a mismatch."""
    path = GOLDEN / f"{name}.png"
    actual = Image.open(io.BytesIO(png))
    if updating() or not path.exists():
        if not updating():
            raise AssertionError(f"No golden picture {path}: run with UPDATE_GOLDEN=1 to create it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return None
    with Image.open(path) as expected_file:
        expected = expected_file.convert("RGB")
    result, mask = compare(actual, expected)
    if not result.ok:
        actual_path = path.with_suffix(".actual.png")
        actual_path.write_bytes(png)
        detail = f"got {actual.size}, golden {expected.size}"
        if mask is not None:
            diff_path = path.with_suffix(".diff.png")
            Image.composite(Image.new("RGB", mask.size, (255, 0, 64)), expected, mask).save(
                diff_path
            )
            detail = (
                f"mean difference {result.mean:.2f} (max {MEAN_TOLERANCE}), "
                f"{result.changed:.3%} pixels changed (max {CHANGED_FRACTION:.3%}); "
                f"diff in {diff_path}"
            )
        raise AssertionError(
            f"{name} differs from its golden picture: {detail}; got {actual_path}. "
            "If the change is intended, rerun with UPDATE_GOLDEN=1 and commit the new PNG."
        )
    return result


def assert_fit_for_discord(picture: Picture) -> None:
    assert picture.png.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(picture.png)) as image:
        assert image.format == "PNG"
        assert image.size == (picture.width, picture.height)
        image.verify()
    assert picture.size < TARGET_BYTES < ATTACHMENT_LIMIT
    assert 400 <= picture.width <= MAX_SIDE and 300 <= picture.height <= MAX_SIDE
    assert 0 < len(picture.description) <= DESCRIPTION_LIMIT
    assert re.fullmatch(r"[a-z0-9-]+\.png", picture.filename)


def check_golden_picture(name: str, picture: Picture) -> None:
    """A golden scene is what members get: it must fit Discord as well as match its file."""
    assert_fit_for_discord(picture)
    check_golden(name, picture.png)
