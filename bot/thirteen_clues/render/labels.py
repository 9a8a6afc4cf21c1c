"""Shared vocabulary for 13 Clues rendering: emoji, how seats are named from a reader's side,
limits. Kept apart so every message names the same player the same way; the cards' and
subjects' words are in `bot.thirteen_clues.words`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import discord

from bot.i18n import tr, trn
from bot.thirteen_clues.words import SUIT_EMOJI as SUIT_EMOJI
from engine.thirteen_clues.cards import Category
from engine.thirteen_clues.views import PlayerView, PublicView

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""

NAME_LIMIT = 32
"""Discord display names are at most 32 characters; longer names are clipped."""

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


@lru_cache(maxsize=1024)
def plain_name(name: str) -> str:
    """A display name safe inside markdown: clipped and escaped, never bold."""
    clipped = name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"
    return discord.utils.escape_markdown(clipped)


def glasses_icons(lang: str, count: int) -> str:
    """🔎 repeated (the box holds at most 10), or "no glass"."""
    return GLASS * count if count > 0 else tr(lang, "no glass")


@dataclass(frozen=True)
class Voice:
    """Names seats from one viewer's side: "you" for the viewer, **Name** for the others, in
    the reader's language. A sentence whose subject may be the viewer is two templates (the
    verb agrees differently in every language): `mine(seat)` picks one."""

    lang: str
    names: Sequence[str]
    me: int | None = None

    @classmethod
    def of(cls, lang: str, view: PublicView, me: int | None = None) -> Voice:
        return cls(lang, [s.name for s in view.seats], me)

    @classmethod
    def viewer(cls, lang: str, view: PublicView) -> Voice:
        """The view's own seat speaks as "you" when the view is a PlayerView."""
        return cls.of(lang, view, view.seat if isinstance(view, PlayerView) else None)

    def mine(self, seat: int) -> bool:
        return seat == self.me

    def plain(self, seat: int, start: bool = False) -> str:
        """Unbolded, for a second mention in the same sentence."""
        if seat == self.me:
            return self._you(start)
        return plain_name(self.names[seat])

    def who(self, seat: int, start: bool = False) -> str:
        if seat == self.me:
            return self._you(start)
        return f"**{plain_name(self.names[seat])}**"

    def _you(self, start: bool) -> str:
        return tr(self.lang, "You") if start else tr(self.lang, "you")

    def names_list(self, seats: Iterable[int]) -> str:
        return ", ".join(self.who(s) for s in seats)


def clip(text: str, limit: int) -> str:
    """Cut `text` to `limit` characters, ending with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + "…"


Noun = Literal["lines", "players", "accusations", "moves"]


def fit_lines(
    lang: str,
    lines: Sequence[str],
    limit: int,
    *,
    keep: Literal["first", "last"] = "first",
    noun: Noun = "lines",
) -> str:
    """Join whole lines within `limit`, saying how many were left out (never a cut line
    unless a single line alone is too long)."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    for kept in range(len(lines) - 1, 0, -1):
        omitted = len(lines) - kept
        if keep == "first":
            chosen = [*lines[:kept], _more(lang, noun, omitted)]
        else:
            chosen = [_earlier(lang, noun, omitted), *lines[-kept:]]
        text = "\n".join(chosen)
        if len(text) <= limit:
            return text
    return clip(lines[0] if keep == "first" else lines[-1], limit)


def _more(lang: str, noun: Noun, n: int) -> str:
    if noun == "players":
        return trn(lang, "… {n} more player", "… {n} more players", n)
    if noun == "accusations":
        return trn(lang, "… {n} more accusation", "… {n} more accusations", n)
    if noun == "moves":
        return trn(lang, "… {n} more move", "… {n} more moves", n)
    return trn(lang, "… {n} more line", "… {n} more lines", n)


def _earlier(lang: str, noun: Noun, n: int) -> str:
    if noun == "accusations":
        return trn(lang, "… {n} earlier accusation omitted", "… {n} earlier accusations omitted",
                   n)
    return trn(lang, "… {n} earlier line omitted", "… {n} earlier lines omitted", n)


def range_label(lang: str, letters: Sequence[str]) -> str:
    """ "A–F" for the informant letters in play."""
    if not letters:
        return tr(lang, "none")
    return letters[0] if len(letters) == 1 else f"{letters[0]}–{letters[-1]}"
