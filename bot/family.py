"""What every game's component families share: a click parsed from the custom_id, and a
callback that answers whatever goes wrong (never "This interaction failed").

A game's base family names its template prefix; each family below it owns its verbs, its
custom_id builder and its `clicked`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Self

import discord

from bot import news
from bot.errors import UserError
from bot.interactions import place_of, refuse, tables_of, unlinking
from bot.messages import Outgoing
from bot.models import Table

NONE = "_"
"""A draft's empty choice, in a custom_id."""
BLUE, GREY, RED, GREEN = (
    discord.ButtonStyle.primary,
    discord.ButtonStyle.secondary,
    discord.ButtonStyle.danger,
    discord.ButtonStyle.success,
)


def family_id(prefix: str, verb: str, table_id: int, stamp: int | None, draft: str) -> str:
    """`<prefix>:<verb>:<table>:<stamp or ->[:<draft>]`: the stamp is what makes a click stale
    (13 Clues: the table's version; Mansion: the prompt it answers)."""
    cid = f"{prefix}:{verb}:{table_id}:{'-' if stamp is None else stamp}"
    return f"{cid}:{draft}" if draft else cid


@dataclass(frozen=True)
class Click:
    """A parsed custom_id (`family_id`'s parts): the templates name them verb, table, stamp
    and draft."""

    verb: str
    table_id: int
    stamp: int | None
    draft: str

    @classmethod
    def of(cls, match: re.Match[str]) -> Click:
        groups = match.groupdict()
        stamp = groups.get("stamp") or "-"
        return cls(
            verb=match["verb"],
            table_id=int(match["table"]),
            stamp=None if stamp == "-" else int(stamp),
            draft=groups.get("draft") or "",
        )


class GameFamily(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"never:family"):
    def __init__(self, item: discord.ui.Item[Any], click: Click) -> None:
        super().__init__(item)
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls(item, Click.of(match))

    @unlinking
    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.clicked(interaction)
        except Exception as exc:
            await refuse(interaction, exc)

    async def clicked(self, interaction: discord.Interaction) -> None:
        """Each family answers its own verbs; a verb no family knows is from an old build."""
        raise UserError("This button belongs to an older version of the bot.")

    async def table(self, interaction: discord.Interaction, *, recent: bool = True) -> Table:
        """The clicked table as this process last knew it (`Storage.recent_table`: without a
        round trip, before the first answer); `recent=False` reads its row, for a refusal
        that a newer row might not make (the change itself is checked when it is stored)."""
        return await tables_of(interaction).by_id(self.click.table_id, place_of(interaction),
                                                  recent=recent)


def headed_in_dm(interaction: discord.Interaction, table: Table, out: Outgoing, lang: str
                 ) -> Outgoing:
    """A DM that becomes its answer keeps naming its table (the header every DM has); the
    table's own game writes the header, in `lang`."""
    game = tables_of(interaction).module(table)
    return news.headed_in_dm(game, table, out, interaction.guild_id, lang)
