"""The toy's commands: `new` on the generic table cog, and its one button family."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.client import DeductionBot
from bot.interactions import place_of, reply_for, run, tables_of
from cogs.table import TableCog
from tests.toy.game import GAME, Reveal


class RevealButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"toy:reveal:(?P<table>\d+):(?P<version>\d+)"):
    def __init__(self, table_id: int, version: int) -> None:
        super().__init__(discord.ui.Button(label="Reveal",
                                           custom_id=f"toy:reveal:{table_id}:{version}"))
        self.table_id, self.version = table_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str], /) -> RevealButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        reply = reply_for(interaction, "Revealed.")

        async def work() -> None:
            await tables_of(interaction).act(
                self.table_id, interaction.user.id, lambda state, seat: Reveal(seat=seat),
                version=self.version, place=place_of(interaction), reply=reply)

        await run(interaction, work, stored=reply)


class ToyCog(TableCog, group_name="toy", group_description="High Card, a toy"):
    game = GAME.key
    families = (RevealButton,)

    @discord.app_commands.command(name="new", description="Open a High Card table")
    async def new(self, interaction: discord.Interaction) -> None:
        await self.open_table(interaction, {})


async def setup(bot: DeductionBot) -> None:
    await bot.add_cog(ToyCog(bot))
