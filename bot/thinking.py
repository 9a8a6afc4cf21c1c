"""Pure engine work a member asked for (a coach's ranking, a review), off the event loop.

Shared by both games' coaches: the work runs where the AI detectives think (the table
service's process pool, when there is one), as a ranking is tens of milliseconds of pure
Python that would otherwise hold up every other table.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import discord

from bot.errors import UserError
from bot.i18n import N_, tr
from bot.interactions import borrow_first, tables_of
from bot.plug import Assist

T = TypeVar("T")
FULL_ONLY = N_("Hints are given at **full** assist only; this table's {sheet} is at "
              "**{assist}**.")
CASEBOOK, NOTES = N_("casebook"), N_("notes")
"""What a game calls the sheet its hints are on (13 Clues, the Mansion)."""


async def think(interaction: discord.Interaction, work: Callable[..., T], *args: Any) -> T:
    """`work(*args)`, in the thinkers' pool when there is one. A click on a channel message
    is acknowledged first (`borrow_first`): the pool may be thinking an AI's move meanwhile,
    and the Mansion's Notes button waited for it before its first callback (p99 60-200 ms at
    200 tables: `bench.cluster`)."""
    await borrow_first(interaction)
    thinker = tables_of(interaction).thinker
    if thinker is None:
        return work(*args)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(thinker, functools.partial(work, *args))


def require_full(assist: Assist, sheet: str = CASEBOOK) -> None:
    """Hints are for full assist only: below it, a (forged) Hint click is refused (`sheet`:
    a marked word, read in the member's language)."""
    if assist != "full":
        raise UserError(FULL_ONLY, sheet=lambda lang: tr(lang, sheet), assist=assist)


def ranked_hint(lang: str, certain: str | None, heading: str, rows: Sequence[str], note: str
                ) -> str:
    """A hint, the same shape in both games: the accusation alone once it is certain; else
    the heading, the best moves numbered with their figures, and how they were ranked."""
    if certain is not None:
        return tr(lang, "💡 **Certain**: {accusation}.", accusation=certain)
    numbered = [f"{i}. {row}" for i, row in enumerate(rows, start=1)]
    return "\n".join([f"💡 {heading}", *numbered, f"-# {note}"])
