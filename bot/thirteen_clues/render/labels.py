"""Shared vocabulary for 13 Clues rendering: emoji, card and subject labels, names, limits.

Kept apart so every message says the same card, suit and player the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import discord

from engine.thirteen_clues.cards import CARDS, Category, Suit, subject_kind, subject_name
from engine.thirteen_clues.views import PlayerView, PublicView

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""

NAME_LIMIT = 32
"""Discord display names are at most 32 characters; longer names are clipped."""

SUIT_EMOJI: dict[str, str] = {
    Suit.PURPLE: "🟣",
    Suit.PINK: "🩷",
    Suit.RED: "🔴",
    Suit.GREEN: "🟢",
    Suit.YELLOW: "🟡",
    Suit.BLUE: "🔵",
    Suit.ORANGE: "🟠",
    Suit.WHITE: "⚪",
    Suit.BROWN: "🟤",
    Suit.GRAY: "🩶",
}
"""Suit value ("purple") → its coloured emoji; a suit reads at a glance in every list."""

NUMBER_EMOJI: dict[int, str] = {
    0: "0️⃣",
    1: "1️⃣",
    2: "2️⃣",
    3: "3️⃣",
    4: "4️⃣",
    5: "5️⃣",
    6: "6️⃣",
    7: "7️⃣",
    8: "8️⃣",
    9: "9️⃣",
    10: "🔟",
}
"""Answer counts as keycaps, for buttons and compact summaries."""

CATEGORY_EMOJI: dict[str, str] = {
    Category.PERSON: "👤",
    Category.LOCATION: "📍",
    Category.WEAPON: "🗡️",
}

GLASS = "🔎"
MYSTERY = "❓ ❓ ❓"


def card_label(card: str) -> str:
    """ "🟣 Knife" for the card id "knife"."""
    info = CARDS[card]
    return f"{SUIT_EMOJI[info.suit]} {info.name}"


def cards_label(cards: Iterable[str], sep: str = " · ") -> str:
    return sep.join(card_label(c) for c in cards)


def subject_label(subject: str) -> str:
    """ "🟣 Purple" for a suit, "Up close" for a sub-category, "Weapons" for a category."""
    if subject_kind(subject) == "suit":
        return f"{SUIT_EMOJI[subject]} {subject_name(subject)}"
    return subject_name(subject)


def subject_phrase(subject: str) -> str:
    """What "how many ..." counts: "🟣 Purple cards", "Up close cards", "Weapons"."""
    if subject_kind(subject) == "category":
        return subject_name(subject)
    return f"{subject_label(subject)} cards"


@lru_cache(maxsize=1024)
def plain_name(name: str) -> str:
    """A display name safe inside markdown: clipped and escaped, never bold."""
    clipped = name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"
    return discord.utils.escape_markdown(clipped)


def glasses_icons(count: int) -> str:
    """🔎 repeated (the box holds at most 10), or "no glass"."""
    return GLASS * count if count > 0 else "no glass"


@dataclass(frozen=True)
class Voice:
    """Names seats from one viewer's side: "you" for the viewer, **Name** for the others."""

    names: Sequence[str]
    me: int | None = None

    @classmethod
    def of(cls, view: PublicView, me: int | None = None) -> Voice:
        return cls([s.name for s in view.seats], me)

    @classmethod
    def viewer(cls, view: PublicView) -> Voice:
        """The view's own seat speaks as "you" when the view is a PlayerView."""
        return cls.of(view, view.seat if isinstance(view, PlayerView) else None)

    def plain(self, seat: int, start: bool = False) -> str:
        """Unbolded, for a second mention in the same sentence."""
        if seat == self.me:
            return "You" if start else "you"
        return plain_name(self.names[seat])

    def who(self, seat: int, start: bool = False) -> str:
        if seat == self.me:
            return "You" if start else "you"
        return f"**{plain_name(self.names[seat])}**"

    def whose(self, seat: int, start: bool = False, bold: bool = True) -> str:
        if seat == self.me:
            return "Your" if start else "your"
        name = plain_name(self.names[seat])
        return f"**{name}**'s" if bold else f"{name}'s"

    def verb(self, seat: int, third: str, second: str) -> str:
        """Agreement: "Ann takes" but "you take"."""
        return second if seat == self.me else third

    def names_list(self, seats: Iterable[int]) -> str:
        return ", ".join(self.who(s) for s in seats)


def clip(text: str, limit: int) -> str:
    """Cut `text` to `limit` characters, ending with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + "…"


def fit_lines(
    lines: Sequence[str],
    limit: int,
    *,
    keep: Literal["first", "last"] = "first",
    noun: str = "lines",
) -> str:
    """Join whole lines within `limit`, saying how many were left out (never a cut line
    unless a single line alone is too long)."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    for kept in range(len(lines) - 1, 0, -1):
        omitted = len(lines) - kept
        if keep == "first":
            chosen = [*lines[:kept], f"… {omitted} more {noun}"]
        else:
            chosen = [f"… {omitted} earlier {noun} omitted", *lines[-kept:]]
        text = "\n".join(chosen)
        if len(text) <= limit:
            return text
    return clip(lines[0] if keep == "first" else lines[-1], limit)


def range_label(letters: Sequence[str]) -> str:
    """ "A–F" for the informant letters in play."""
    if not letters:
        return "none"
    return letters[0] if len(letters) == 1 else f"{letters[0]}–{letters[-1]}"
