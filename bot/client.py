"""The bot: an AutoShardedBot wired with storage, the table service and the game cogs."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.delivery import Delivery
from bot.errors import UserError
from bot.games import GameModule
from bot.storage import Storage
from bot.tables import TableService
from engine.errors import RuleError

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.general", "cogs.thirteen_clues")


class DeductionBot(commands.AutoShardedBot):
    storage: Storage
    tables: TableService

    def __init__(self, config: Config, games: dict[str, GameModule] | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            help_command=None,
        )
        self.config = config
        self._games = games

    async def setup_hook(self) -> None:
        from bot.registry import all_games

        self.storage = Storage(self.config.database_path)
        await self.storage.open()
        self.tables = TableService(
            self.storage,
            self._games or all_games(),
            Delivery(self),
            ai_delay=self.config.ai_delay,
            minute_seconds=self.config.minute_seconds,
        )
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.tree.on_error = self.on_app_command_error
        if self.config.sync_commands:
            await self._sync()
        await self.tables.resume()

    async def _sync(self) -> None:
        if self.config.guild_id is not None:
            guild = discord.Object(self.config.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The last line of defence: log, and never leave "This interaction failed"."""
        original = getattr(error, "original", error)
        if isinstance(original, UserError | RuleError):
            text = str(original)
        elif isinstance(error, app_commands.CheckFailure):
            text = str(error) or "You cannot use this command here."
        else:
            log.exception("command %s failed", interaction.command, exc_info=error)
            text = "Something went wrong on my side; the game is unchanged. Please try again."
        await reply(interaction, text)

    async def close(self) -> None:
        if hasattr(self, "tables"):
            await self.tables.close()
        if hasattr(self, "storage"):
            await self.storage.close()
        await super().close()


async def reply(interaction: discord.Interaction, text: str, **kwargs: object) -> None:
    """Answer ephemerally whether or not the interaction was already deferred."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=True, **kwargs)
    except discord.NotFound:
        log.info("interaction expired before the answer: %s", text)
