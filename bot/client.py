"""The bot: an AutoShardedBot wired with storage, the table service, the outbox sender, the
timer dispatcher and each game's cog; and its life, from the lease to a clean shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.collector import unlink_interaction
from bot.components import not_routed, routed
from bot.config import Config
from bot.drawings import Drawings
from bot.i18n import tr
from bot.interactions import answer, expired, language_of, unchanged
from bot.languages import Languages
from bot.lease import Lease
from bot.lobby import TableClick
from bot.models import Letter
from bot.outbox import Sender
from bot.pacing import GlobalHold, Pacer
from bot.plug import AnyGame
from bot.sitting import SitAnswer
from bot.storage import Storage, StorageError, storage_for
from bot.tables import TableService
from bot.timers import TimerDispatcher
from bot.translator import CatalogTranslator
from bot.transport import Transport
from bot.urgency import mark_urgent, task
from bot.workers import helper_pool, stop_pool
from bot.world_changes import WorldChanges

log = logging.getLogger(__name__)

SHUTDOWN_ACTIONS = 4.0
"""Seconds a clean shutdown gives the changes in flight."""
SHUTDOWN_FLUSH = 3.0
"""Seconds it then gives the outbox."""
IDENTIFY_SPACING = 5.5
"""Discord lets each `max_concurrency` bucket IDENTIFY once every 5 seconds; the turn is
taken just before the IDENTIFY is sent, which then takes a moment to arrive (half a second
kept spare)."""
THINKING_NICENESS = 5
"""The AI helpers run at a lower CPU priority than the bots' event loops: in a cluster on few
cores every process's helper thought at the loops' priority, and clicks waited for the
cores. An AI's move comes after a pause of `AI_DELAY_SECONDS` anyway, so its thinking a few
milliseconds longer shows less than a late acknowledgement; above the drawings' 10, as a
member may be waiting for a hint."""


def import_games() -> None:
    """Run in each AI helper as it starts: import every game (half a second) before the first
    piece of work waits for it (`bot.workers` is below the registry and names no game)."""
    import bot.registry  # noqa: F401


class CommandTree(app_commands.CommandTree[Any]):
    async def _call(self, interaction: discord.Interaction) -> None:
        """A command, its errors answered within (`on_app_command_error`), then its
        interaction unlinked (`bot.collector`). One that names no known command raises here
        and is left to the collector."""
        await super()._call(interaction)
        unlink_interaction(interaction)


class DeductionBot(commands.AutoShardedBot):
    storage: Storage
    tables: TableService
    sender: Sender
    transport: Transport
    timers: TimerDispatcher
    languages: Languages
    world: WorldChanges
    """What happens to tables when their channel, server or members change."""

    def __init__(self, config: Config, games: Sequence[AnyGame] | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.members = config.member_events
        shards: dict[str, Any] = {}
        if config.shard_count is not None:  # else as many as Discord recommends
            shards["shard_count"] = config.shard_count
        if config.shard_ids is not None:  # else every shard
            shards["shard_ids"] = list(config.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            help_command=None,
            tree_cls=CommandTree,
            **shards,
        )
        self.config = config
        if games is None:
            from bot.registry import GAMES

            games = GAMES
        self.games: Mapping[str, AnyGame] = {g.key: g for g in games}
        self.drawings = Drawings.of(self.games.values(), workers=self.config.draw_workers)
        """The pictures letters and answers carry, drawn when sent (off the event loop)."""
        self._shutdown: asyncio.Task[None] | None = None
        self._lease: Lease | None = None
        self._thinker: ProcessPoolExecutor | None = None
        self.families: set[type[discord.ui.DynamicItem[Any]]] = set()
        """The DynamicItem classes registered: what a component click can be routed to."""
        self._buckets: int | None = None
        """Discord's `max_concurrency` in a cluster: shards IDENTIFY in that many buckets,
        each one at a time across every process (`before_identify_hook`)."""

    async def connect(self, *, reconnect: bool = True) -> None:
        """Everything from here on in this task is urgent: the gateway's tasks and all
        discord.py dispatches from them (every interaction, every event) run ahead of the
        outbox and the timers (`bot.urgency`), which `setup_hook` started as background."""
        mark_urgent()
        await super().connect(reconnect=reconnect)

    async def setup_hook(self) -> None:
        storage = storage_for(self.config.database_url, self.config.database_path,
                              self.config.shard_ids, self.config.shard_count)
        self.storage = storage
        await storage.open()
        i18n.preload()
        self._lease = Lease(storage, ttl=self.config.lease_ttl, wait=self.config.lease_wait)
        await self._lease.acquire(self.config.database)
        if self.config.shard_ids is not None:
            limits = await self.fetch_session_start_limits()
            self._buckets = max(1, limits.max_concurrency)
        warming: asyncio.Future[int] | None = None
        if self.config.ai_workers > 0:
            self._thinker = helper_pool(self.config.ai_workers, niceness=THINKING_NICENESS,
                                       warmers=(import_games,))
            warming = asyncio.get_running_loop().run_in_executor(self._thinker, os.getpid)
        self.tables = TableService(
            storage,
            self.games,
            ai_delay=self.config.ai_delay,
            minute_seconds=self.config.minute_seconds,
            on_commit=self._wake,
            thinker=self._thinker,
        )
        self.languages = self.tables.languages  # one memory of members' languages
        self.world = WorldChanges(self.tables)
        self.pacer = Pacer(self.config.rest_per_second, gate=self._global_hold)
        self.http._global_over = GlobalHold(self.pacer.refused)  # discord.py's, told to us
        self.transport = Transport(self, self.drawings, self.pacer, storage)
        self.sender = Sender(
            storage, self.transport, self.world.on_undeliverable,
            backoff=lambda tries: min(60.0, self.config.retry_base * 2**tries),
            pacer=self.pacer,
        )
        self.timers = TimerDispatcher(storage, self.tables.on_timer)
        await storage.listen(self._wake)  # another process's letters and timers
        self.drawings.warm()
        for extension in ("cogs.general", "bot.world", *(g.extension for g in self.games.values())):
            await self.load_extension(extension)
        self.add_dynamic_items(TableClick, SitAnswer)
        self.tree.error(self.on_app_command_error)
        await self.tree.set_translator(CatalogTranslator())
        if self.config.sync_commands:
            await self._sync()
        await self.tables.resume()
        if warming is not None:
            await warming  # the worker imported the games meanwhile: no first move waits
        self.sender.start()
        self.timers.start()
        self._lease.keep(lambda: asyncio.ensure_future(self.close()))

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        self.families.update(items)
        super().add_dynamic_items(*items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        self.families.difference_update(items)
        super().remove_dynamic_items(*items)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click discord.py will route nowhere (a custom_id no family knows, or one that is
        not on its message) is answered here instead of failing silently. Every interaction
        brings the member's client locale: the latest is kept (`bot.languages`)."""
        if interaction.type is discord.InteractionType.component and not routed(
            self.families, interaction
        ):
            await answer(interaction, not_routed(self.games.values(),
                                                 await language_of(interaction)))
        try:
            await self.languages.saw(interaction.user.id, str(interaction.locale))
        except StorageError:
            log.warning("could not store the locale of %s", interaction.user.id)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False
                                   ) -> None:
        """In a cluster, a shard's IDENTIFY waits for its bucket's turn across every process
        (Discord answers INVALID_SESSION to one sent sooner); one process keeps discord.py's
        own pacing."""
        if self._buckets is None or shard_id is None:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        await self.storage.identify_turn(shard_id % self._buckets, IDENTIFY_SPACING)

    def _wake(self, letters: Sequence[Letter] = (), armed: float | None = 0.0) -> None:
        """After a change (`TableService.on_commit`); with no arguments, another process's
        (its letters and timers are not known here)."""
        self.sender.urge(letters)
        self.sender.kick()
        if armed is not None:
            self.timers.armed(armed)

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
        if expired(getattr(error, "original", error)):
            log.warning("command %s expired before it was answered", interaction.command)
            return
        if isinstance(error, app_commands.CheckFailure):
            text = str(error) or tr(await language_of(interaction),
                                    "You cannot use this command here.")
        else:
            log.exception("command %s failed", interaction.command, exc_info=error)
            text = await unchanged(interaction)
        await answer(interaction, text)

    def _global_hold(self) -> asyncio.Event | None:
        """discord.py's own hold during a global 429: set while requests may go (it has no
        public name; before the login it is not an event yet)."""
        event = getattr(self.http, "_global_over", None)
        return event if isinstance(event, asyncio.Event) else None

    async def close(self) -> None:
        """A clean shutdown: refuse new changes, finish those in flight, deliver what is
        owed for a few seconds, release the database, then disconnect."""
        if self._shutdown is None:
            # urgent: a stop (a signal, or the lease lost to another process) must not wait
            # behind the outbox it is about to flush
            self._shutdown = task(self._stop_playing(), name="shutdown", urgent=True)
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
            async with asyncio.timeout(SHUTDOWN_ACTIONS):
                await self.timers.drain()
        if not await self.sender.flush(SHUTDOWN_FLUSH):
            log.info("letters left in the outbox: the next start delivers them")
        await self.sender.stop()
        await self.pacer.close()
        if self._lease is not None:
            await self._lease.release()
        await self.storage.close()
        await self.drawings.close()
        if self._thinker is not None:
            await stop_pool(self._thinker)
