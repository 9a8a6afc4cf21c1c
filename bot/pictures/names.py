"""Player names on a picture and in its alt text: the one rule for every game.

Why: the bundled font draws ASCII and a few signs only, and a long name would push a panel
wide; the alt text keeps the real name (screen readers read any script), clipped longer.
"""

from __future__ import annotations

from bot.pictures.fonts import drawable

NAME_LIMIT = 24
"""Characters of a player's name drawn on a picture (the alt text keeps 32)."""
ALT_LIMIT = 32


def drawn_name(name: str, seat: int) -> str:
    """A seat's name as the bundled font can draw it, clipped; "Seat 3" if nothing is left."""
    shown = drawable(name, f"Seat {seat + 1}")
    return shown if len(shown) <= NAME_LIMIT else shown[: NAME_LIMIT - 1].rstrip() + "…"


def alt_name(name: str, seat: int) -> str:
    """A seat's name for the alt text: the real name, spaces tidied, clipped."""
    clean = " ".join(name.split()) or f"Seat {seat + 1}"
    return clean if len(clean) <= ALT_LIMIT else clean[: ALT_LIMIT - 1] + "…"


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"
