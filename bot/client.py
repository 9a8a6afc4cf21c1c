"""The bot: an AutoShardedBot wired with storage, the table service, the outbox sender, the
timer dispatcher and each game's cog; and its life, from the lease to a clean shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.components import TableButton
from bot.config import Config
from bot.interactions import UNCHANGED, answer
from bot.lease import Lease
from bot.outbox import Sender
from bot.plug import AnyGame
from bot.storage import SqliteStorage, Storage
from bot.tables import TableService
from bot.timers import TimerDispatcher
from bot.transport import Transport

log = logging.getLogger(__name__)

SHUTDOWN_ACTIONS = 4.0
"""Seconds a clean shutdown gives the changes in flight."""
SHUTDOWN_FLUSH = 3.0
"""Seconds it then gives the outbox."""


class DeductionBot(commands.AutoShardedBot):
    storage: Storage
    tables: TableService
    sender: Sender
    timers: TimerDispatcher

    def __init__(self, config: Config, games: Sequence[AnyGame] | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.members = config.member_events
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            help_command=None,
        )
        self.config = config
        if games is None:
            from bot.registry import GAMES

            games = GAMES
        self.games: Mapping[str, AnyGame] = {g.key: g for g in games}
        self._shutdown: asyncio.Task[None] | None = None
        self._lease: Lease | None = None

    async def setup_hook(self) -> None:
        storage = SqliteStorage(self.config.database_path)
        await storage.open()
        self.storage = storage
        self._lease = Lease(storage, ttl=self.config.lease_ttl, wait=self.config.lease_wait)
        await self._lease.acquire(str(self.config.database_path))
        self.tables = TableService(
            storage,
            self.games,
            ai_delay=self.config.ai_delay,
            minute_seconds=self.config.minute_seconds,
            on_commit=self._wake,
        )
        self.sender = Sender(
            storage, Transport(self), self.tables.on_undeliverable,
            backoff=lambda tries: min(60.0, self.config.retry_base * 2**tries),
        )
        self.timers = TimerDispatcher(storage, self.tables.on_timer)
        for extension in ("cogs.general", "bot.world", *(g.extension for g in self.games.values())):
            await self.load_extension(extension)
        self.add_dynamic_items(TableButton)
        self.tree.on_error = self.on_app_command_error
        if self.config.sync_commands:
            await self._sync()
        await self.tables.resume()
        self.sender.start()
        self.timers.start()
        self._lease.keep(lambda: asyncio.ensure_future(self.close()))

    def _wake(self) -> None:
        self.sender.kick()
        self.timers.wake()

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
        if isinstance(error, app_commands.CheckFailure):
            text = str(error) or "You cannot use this command here."
        else:
            log.exception("command %s failed", interaction.command, exc_info=error)
            text = UNCHANGED
        await answer(interaction, text)

    async def close(self) -> None:
        """A clean shutdown: refuse new changes, finish those in flight, deliver what is
        owed for a few seconds, release the database, then disconnect."""
        if self._shutdown is None:
            self._shutdown = asyncio.create_task(self._stop_playing(), name="shutdown")
        await asyncio.shield(self._shutdown)
        await super().close()

    async def _stop_playing(self) -> None:
        if not hasattr(self, "tables"):
            with contextlib.suppress(AttributeError):
                await self.storage.close()
            return
        if not await self.tables.quiesce(SHUTDOWN_ACTIONS):
            log.warning("shutting down with changes still in flight")
        await self.timers.stop()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.timers.drain(), SHUTDOWN_ACTIONS)
        if not await self.sender.flush(SHUTDOWN_FLUSH):
            log.info("letters left in the outbox: the next start delivers them")
        await self.sender.stop()
        if self._lease is not None:
            await self._lease.release()
        await self.storage.close()
