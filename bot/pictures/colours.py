"""Colour arithmetic and the shared theme: one palette so every game's pictures match."""

from __future__ import annotations

RGB = tuple[int, int, int]


def rgb(hex_code: str) -> RGB:
    """ "#7b3fa0" -> (123, 63, 160)."""
    code = hex_code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """`a` moved a fraction `t` towards `b` (0: a, 1: b)."""
    t = min(1.0, max(0.0, t))
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def luminance(c: RGB) -> float:
    """Relative luminance (WCAG), 0 black to 1 white."""

    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio between two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(background: RGB, dark: RGB = (34, 30, 40), light: RGB = (255, 255, 255)) -> RGB:
    """The more readable of a dark and a light ink on `background`."""
    return dark if contrast(background, dark) >= contrast(background, light) else light


class Theme:
    """A night-time detective's desk: navy felt, brass accents, cream cards."""

    background: RGB = rgb("#1b2030")
    panel: RGB = rgb("#262d42")
    panel_edge: RGB = rgb("#3a4360")
    text: RGB = rgb("#f2ecdf")
    muted: RGB = rgb("#a9b0c4")
    accent: RGB = rgb("#e6b450")
    card: RGB = rgb("#fbf7ee")
    card_ink: RGB = rgb("#2a2630")
    card_muted: RGB = rgb("#6c6676")
    back: RGB = rgb("#6e1f31")
    back_pattern: RGB = rgb("#83293e")
    back_ink: RGB = rgb("#e9c46a")
    good: RGB = rgb("#47b870")
    bad: RGB = rgb("#e05a4f")


THEME = Theme()
