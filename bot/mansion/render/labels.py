"""Shared vocabulary for Mansion rendering: emoji, card and action labels, names, limits.

Kept apart so every message names a card, an Action card and a player the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import discord

from engine.mansion.cards import ACTIONS, BY_KIND, CLUES, PRIVATE_TIP, Kind
from engine.mansion.records import Triple

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""
NAME_LIMIT = 32
"""Display names are at most 32 characters; longer ones are clipped."""
TITLE = "Clue: Mystery Beyond the Mansion"

KIND_EMOJI: dict[Kind, str] = {
    Kind.SUSPECT: "👤",
    Kind.VEHICLE: "🚗",
    Kind.DESTINATION: "📍",
}
KIND_PLURAL: dict[Kind, str] = {
    Kind.SUSPECT: "Suspects",
    Kind.VEHICLE: "Vehicles",
    Kind.DESTINATION: "Destinations",
}
EFFECT_EMOJI: dict[str, str] = {
    "suggest_any": "💬",
    "suggest_present": "🏠",
    "snoop": "👀",
    "all_snoop": "🔄",
    "super_sleuth": "🔎",
    "private_tip": "🤫",
}


def card_name(card: str) -> str:
    return CLUES[card].name


def card_label(card: str) -> str:
    """ "👤 Miss Scarlet" for the card id "scarlet"."""
    info = CLUES[card]
    return f"{KIND_EMOJI[info.kind]} {info.name}"


def cards_label(cards: Iterable[str], sep: str = ", ") -> str:
    return sep.join(f"**{card_name(c)}**" for c in cards)


def by_kind(cards: Iterable[str]) -> str:
    """A hand, one line per kind, in the table's order: "👤 Miss Scarlet, Mr. Green"."""
    held = set(cards)
    lines = []
    for kind, ids in BY_KIND.items():
        mine = [CLUES[c].name for c in ids if c in held]
        if mine:
            lines.append(f"{KIND_EMOJI[kind]} {', '.join(mine)}")
    return "\n".join(lines) or "none"


def triple_text(triple: Triple) -> str:
    """ "**Miss Scarlet** in the **Train** to **Niagara Falls**"."""
    return (
        f"**{card_name(triple.suspect)}** in the **{card_name(triple.vehicle)}** "
        f"to **{card_name(triple.destination)}**"
    )


def action_name(card: str) -> str:
    """An Action card's printed name; a face-down Private Tip is just "a Private Tip"."""
    if card == PRIVATE_TIP:
        return "Private Tip"
    return ACTIONS[card].name


def action_label(card: str) -> str:
    if card == PRIVATE_TIP:
        return f"{EFFECT_EMOJI['private_tip']} Private Tip (face down)"
    return f"{EFFECT_EMOJI[ACTIONS[card].effect]} {ACTIONS[card].name}"


@lru_cache(maxsize=1024)
def plain_name(name: str) -> str:
    """A display name safe inside markdown: clipped and escaped."""
    clipped = name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"
    return discord.utils.escape_markdown(clipped)


@dataclass(frozen=True)
class Voice:
    """Names seats from one reader's side: "you" for the reader, **Name** for the others."""

    names: Sequence[str]
    me: int | None = None

    def who(self, seat: int, start: bool = False) -> str:
        if seat == self.me:
            return "You" if start else "you"
        return f"**{plain_name(self.names[seat])}**"

    def plain(self, seat: int, start: bool = False) -> str:
        if seat == self.me:
            return "You" if start else "you"
        return plain_name(self.names[seat])

    def whose(self, seat: int, start: bool = False) -> str:
        if seat == self.me:
            return "Your" if start else "your"
        return f"**{plain_name(self.names[seat])}**'s"

    def verb(self, seat: int, third: str, second: str) -> str:
        """Agreement: "Ann takes" but "you take"."""
        return second if seat == self.me else third

    def names_list(self, seats: Iterable[int]) -> str:
        named = [self.who(s) for s in seats]
        if len(named) <= 1:
            return "".join(named)
        return ", ".join(named[:-1]) + " and " + named[-1]


def clip(text: str, limit: int) -> str:
    """Cut `text` to `limit` characters, ending with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + "…"


def fit_lines(lines: Sequence[str], limit: int = MESSAGE_LIMIT, *, keep_last: bool = False,
              noun: str = "lines") -> str:
    """Join whole lines within `limit`, saying how many were left out."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    for kept in range(len(lines) - 1, 0, -1):
        omitted = len(lines) - kept
        chosen = (
            [f"… {omitted} earlier {noun} omitted", *lines[-kept:]] if keep_last
            else [*lines[:kept], f"… {omitted} more {noun}"]
        )
        text = "\n".join(chosen)
        if len(text) <= limit:
            return text
    return clip(lines[-1] if keep_last else lines[0], limit)
