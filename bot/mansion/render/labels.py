"""Shared vocabulary for Mansion rendering: emoji, card and action labels, names, limits.

Kept apart so every message names a card, an Action card and a player the same way, in the
reader's language (card names through `bot.mansion.words`). The Action cards keep their
printed English names: the game had no French, German or Spanish edition (docs/decisions.md,
"Established terms").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import discord

from bot.i18n import tr, trn
from bot.mansion.words import KIND_EMOJI, ask, card_name
from engine.mansion.cards import ACTIONS, BY_KIND, FACE_DOWN, PRIVATE_TIP
from engine.mansion.records import Triple

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""
NAME_LIMIT = 32
"""Display names are at most 32 characters; longer ones are clipped."""
TITLE = "Clue: Mystery Beyond the Mansion"

EFFECT_EMOJI: dict[str, str] = {
    "suggest_any": "💬",
    "suggest_present": "🏠",
    "snoop": "👀",
    "all_snoop": "🔄",
    "super_sleuth": "🔎",
    "private_tip": "🤫",
}


def names(lang: str, cards: Iterable[str]) -> str:
    """Card names joined by commas; "none" when there are none."""
    return ", ".join(card_name(lang, c) for c in cards) or tr(lang, "none")


def cards_label(lang: str, cards: Iterable[str], sep: str = ", ") -> str:
    return sep.join(f"**{card_name(lang, c)}**" for c in cards)


def by_kind(lang: str, cards: Iterable[str]) -> str:
    """A hand, one line per kind, in the table's order: "👤 Miss Scarlet, Mr. Green"."""
    held = set(cards)
    lines = []
    for kind, ids in BY_KIND.items():
        mine = [card_name(lang, c) for c in ids if c in held]
        if mine:
            lines.append(f"{KIND_EMOJI[kind]} {', '.join(mine)}")
    return "\n".join(lines) or tr(lang, "none")


def triple_text(lang: str, triple: Triple) -> str:
    """ "**Miss Scarlet** in the **Train** to **Niagara Falls**"."""
    return tr(lang, "**{suspect}** in the **{vehicle}** to **{destination}**",
              suspect=card_name(lang, triple.suspect), vehicle=card_name(lang, triple.vehicle),
              destination=card_name(lang, triple.destination))


def action_name(lang: str, card: str) -> str:
    """An Action card's printed name (English: the game had no other edition), what a Super
    Sleuth or Private Tip asks for in `lang`; a face-down Private Tip is just "Private Tip",
    a wrong accuser's unplayed card (kind unknown) "Action card"."""
    if card == PRIVATE_TIP:
        return "Private Tip"
    if card == FACE_DOWN:
        return "Action card"
    info = ACTIONS[card]
    if not info.ask:
        return info.name
    return f"{info.name.split(':')[0]}: {ask(lang, card)}"


def count(lang: str, n: int, noun: str) -> str:
    """ "1 card", "3 cards" in `lang` (the nouns the table counts)."""
    match noun:
        case "card":
            return trn(lang, "{n} card", "{n} cards", n)
        case "clue":
            return trn(lang, "{n} clue", "{n} clues", n)
        case _:
            return trn(lang, "{n} action", "{n} actions", n)


@lru_cache(maxsize=1024)
def plain_name(name: str) -> str:
    """A display name safe inside markdown: clipped and escaped."""
    clipped = name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"
    return discord.utils.escape_markdown(clipped)


@dataclass(frozen=True)
class Voice:
    """Names seats from one reader's side, in the reader's language: "you" for the reader,
    **Name** for the others. A sentence whose grammar changes with the reader is a template
    of its own; `who` and `plain` only name."""

    names: Sequence[str]
    me: int | None = None
    lang: str = "en"

    def who(self, seat: int, start: bool = False) -> str:
        if seat == self.me:
            return tr(self.lang, "You") if start else tr(self.lang, "you")
        return f"**{plain_name(self.names[seat])}**"

    def plain(self, seat: int, start: bool = False) -> str:
        if seat == self.me:
            return tr(self.lang, "You") if start else tr(self.lang, "you")
        return plain_name(self.names[seat])

    def names_list(self, seats: Iterable[int]) -> str:
        named = [self.who(s) for s in seats]
        if len(named) <= 1:
            return "".join(named)
        return tr(self.lang, "{names} and {last}", names=", ".join(named[:-1]), last=named[-1])


def clip(text: str, limit: int) -> str:
    """Cut `text` to `limit` characters, ending with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + "…"


def fit_lines(lang: str, lines: Sequence[str], limit: int = MESSAGE_LIMIT, *,
              keep_last: bool = False, moves: bool = False) -> str:
    """Join whole lines within `limit`, saying how many were left out (of lines, or of
    `moves`)."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    for kept in range(len(lines) - 1, 0, -1):
        omitted = len(lines) - kept
        chosen = (
            [_omitted(lang, omitted, moves), *lines[-kept:]] if keep_last
            else [*lines[:kept], _more(lang, omitted, moves)]
        )
        text = "\n".join(chosen)
        if len(text) <= limit:
            return text
    return clip(lines[-1] if keep_last else lines[0], limit)


def _omitted(lang: str, n: int, moves: bool) -> str:
    if moves:
        return trn(lang, "… {n} earlier move omitted", "… {n} earlier moves omitted", n)
    return trn(lang, "… {n} earlier line omitted", "… {n} earlier lines omitted", n)


def _more(lang: str, n: int, moves: bool) -> str:
    if moves:
        return trn(lang, "… {n} more move", "… {n} more moves", n)
    return trn(lang, "… {n} more line", "… {n} more lines", n)
