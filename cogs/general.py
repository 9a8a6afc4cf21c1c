"""`/help`, `/settings`, `/stats` and `/leaderboard`: the commands not about one table."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import DeductionBot
from bot.thirteen_clues.game import Edition

HELP = """\
**Deduction games on Discord**
🔎 **13 Clues** (2–6 players) — `/13clues new` opens a table in this channel; others `join`, \
the host can `add-ai`, then `start`. Your secrets arrive by DM (or `/13clues hand`). \
On your turn use the **Ask / Informant / Accuse** buttons, or `/13clues ask`, `informant`, \
`accuse`. `/13clues rules` explains the game, `/13clues log` lists every answer, \
`/13clues casebook` keeps your notes.
📊 `/stats` shows your record here, `/leaderboard` the server's best detectives.
Only the host (or a member with Manage Server) can `/13clues end` a table."""


class General(commands.Cog):
    def __init__(self, bot: DeductionBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(HELP, ephemeral=True)

    @app_commands.command(name="settings", description="This server's defaults for new tables")
    @app_commands.describe(
        edition="Default 13 Clues rules for new tables",
        assist="Default casebook help for new tables",
        turn_minutes="Default minutes per turn before an AI plays it (0 = no limit)",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        edition: Edition | None = None,
        assist: Literal["off", "bookkeeping", "full"] | None = None,
        turn_minutes: app_commands.Range[int, 0, 1440] | None = None,
    ) -> None:
        """Manage Server only; with no option it shows the current defaults."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        if not interaction.permissions.manage_guild:
            await interaction.followup.send("Only members with Manage Server can change this.")
            return
        current = await self.bot.storage.guild_settings(interaction.guild_id)
        changes = {"edition": edition, "assist": assist, "turn_minutes": turn_minutes}
        current.update({k: v for k, v in changes.items() if v is not None})
        await self.bot.storage.set_guild_settings(interaction.guild_id, current)
        shown = {"edition": "2020", "assist": "off", "turn_minutes": 0, **current}
        await interaction.followup.send(
            "⚙️ Defaults for new tables here: "
            f"rules **{shown['edition']}**, assist **{shown['assist']}**, turn timer "
            f"**{shown['turn_minutes'] or 'off'}**"
            + (f" ({shown['turn_minutes']} min)" if shown["turn_minutes"] else "")
            + ". Options given to `new` still win."
        )

    @app_commands.command(name="stats", description="A player's record on this server")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = player or interaction.user
        assert interaction.guild_id is not None
        record = await self.bot.storage.player_stats(interaction.guild_id, who.id)
        if not record:
            await interaction.followup.send(f"{who.display_name} has no finished games here yet.")
            return
        lines = [
            f"**{self.bot.tables.games[g].title if g in self.bot.tables.games else g}**: "
            f"{won} won of {played} played"
            for g, (played, won) in sorted(record.items())
        ]
        await interaction.followup.send(f"📊 **{who.display_name}**\n" + "\n".join(lines))

    @app_commands.command(name="leaderboard", description="This server's best detectives")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        rows = await self.bot.storage.leaderboard(interaction.guild_id)
        if not rows:
            await interaction.followup.send("No finished games on this server yet.")
            return
        lines = [
            f"{rank}. <@{user}> — {won} win(s) in {played} game(s)"
            for rank, (user, won, played) in enumerate(rows, 1)
        ]
        await interaction.followup.send(
            "🏆 **Leaderboard**\n" + "\n".join(lines),
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: DeductionBot) -> None:
    await bot.add_cog(General(bot))
