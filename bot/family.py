"""What every game's component families share: a click parsed from the custom_id, and a
callback that answers whatever goes wrong (never "This interaction failed").

A game's base family names its template prefix and its parser (`parse`); each family below
it owns its verbs, its custom_id builder and its `clicked`.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.errors import UserError
from bot.interactions import place_of, refuse, tables_of
from bot.models import Table


def family_id(prefix: str, verb: str, table_id: int, stamp: int | None, draft: str) -> str:
    """`<prefix>:<verb>:<table>:<stamp or ->[:<draft>]`: the stamp is what makes a click stale
    (13 Clues: the table's version; Mansion: the prompt it answers)."""
    cid = f"{prefix}:{verb}:{table_id}:{'-' if stamp is None else stamp}"
    return f"{cid}:{draft}" if draft else cid


class GameFamily(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"never:family"):
    def __init__(self, item: discord.ui.Item[Any], click: Any) -> None:
        super().__init__(item)
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> Self:
        return cls(item, cls.parse(match))

    @classmethod
    def parse(cls, match: re.Match[str]) -> Any:
        """The game's custom_id parser: a match of a family's template → its click."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.clicked(interaction)
        except Exception as exc:
            await refuse(interaction, exc)

    async def clicked(self, interaction: discord.Interaction) -> None:
        """Each family answers its own verbs; a verb no family knows is from an old build."""
        raise UserError("This button belongs to an older version of the bot.")

    async def table(self, interaction: discord.Interaction) -> Table:
        return await tables_of(interaction).by_id(self.click.table_id, place_of(interaction))
