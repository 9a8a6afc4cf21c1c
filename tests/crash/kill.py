"""Killing the bot in the middle of its work, in-process.

Every moment the world can see is an *effect*: a database COMMIT, or a request to Discord (REST
or interaction webhook). Killing between two effects covers every await point that matters:
what happens between them is invisible until the next effect. `Crasher` counts the effects of
a window and, when armed with `after=k`, kills the bot right before effect k+1 (k effects
happened, the rest never will): from then on the dead bot's every database call and request
raises `Killed`, as if the process had vanished. `bury()` then tears it down the way a SIGKILL
would: no clean shutdown, the open transaction rolled back by closing the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import aiosqlite
import discord
import pytest
from discord.ext import commands
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.client import DeductionBot
from bot.storage.sqlite import SqliteStorage


class Killed(BaseException):
    """The process died here (BaseException: no `except Exception` in the bot catches it)."""


@dataclass
class Crasher:
    after: int | None = None
    """Kill before effect `after + 1`; None: only count."""
    counting: bool = False
    effects: list[str] = field(default_factory=list)
    dead: bool = False
    killed_at: str = ""
    buried: dict[int, object] = field(default_factory=dict)
    """Database connections and HTTP sessions of bots already killed, by id. They are held
    here so that none is collected: a live bot's object could otherwise be given a dead
    one's id and be taken for dead."""

    def arm(self, after: int | None) -> None:
        self.after, self.counting, self.effects, self.killed_at = after, True, [], ""

    def disarm(self) -> None:
        self.counting = False

    def effect(self, what: str, owner: object) -> None:
        self.check(owner)
        if not self.counting:
            return
        if self.after is not None and len(self.effects) == self.after:
            self.dead, self.killed_at = True, what
            raise Killed(what)
        self.effects.append(what)

    def bury(self, *owners: object) -> None:
        for owner in owners:
            if owner is not None:
                self.buried[id(owner)] = owner

    def check(self, owner: object) -> None:
        if self.dead or id(owner) in self.buried:
            raise Killed("dead")


@contextlib.contextmanager
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Crasher]:
    """Route the bot's database calls and Discord requests through a Crasher."""
    crasher = Crasher()
    # aiosqlite's private hook is untyped: what it is called with is passed on as it came
    execute: Callable[..., Awaitable[Any]] = aiosqlite.Connection._execute
    request = discord.http.HTTPClient.request
    webhook = AsyncWebhookAdapter.request
    writer = SqliteStorage._on_writer

    async def db_call(self: aiosqlite.Connection, fn: Any, *args: Any, **kw: Any) -> Any:
        name = getattr(fn, "__name__", "")
        if name == "close":
            return await execute(self, fn, *args, **kw)
        if name == "commit":
            crasher.effect("db commit", self)
        else:
            crasher.check(self)
        return await execute(self, fn, *args, **kw)

    async def write_call(self: SqliteStorage, work: Any, *args: Any) -> Any:
        # a transaction is handed to the writer's thread whole: killing before the hand-over
        # is killing before its COMMIT
        if getattr(work, "__name__", "") in ("_transaction", "_store_marks"):
            crasher.effect("db commit", self)
        else:
            crasher.check(self)
        return await writer(self, work, *args)

    async def http_call(self: discord.http.HTTPClient, route: Any, **kw: Any) -> Any:
        crasher.effect(f"{route.method} {route.path}", self)
        return await request(self, route, **kw)

    async def webhook_call(self: AsyncWebhookAdapter, route: Any, session: Any, **kw: Any
                           ) -> Any:
        crasher.effect(f"{route.method} {route.path}", session)
        return await webhook(self, route, session, **kw)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", db_call)
    monkeypatch.setattr(SqliteStorage, "_on_writer", write_call)
    monkeypatch.setattr(discord.http.HTTPClient, "request", http_call)
    monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook_call)
    yield crasher


async def bury(bot: DeductionBot, crasher: Crasher) -> None:
    """Tear a killed bot down as a SIGKILL would: its tasks stop where they are, its
    connections drop, nothing is flushed and no lease is released."""
    crasher.dead = True
    storage = bot.storage
    assert isinstance(storage, SqliteStorage), "the kill tests play on SQLite"
    session = getattr(bot.http, "_HTTPClient__session", None)
    crasher.bury(storage._writer, storage._reader, storage, bot.http, session)
    tasks = [t for t in (bot.sender._task, bot.timers._task, bot._lease._task if bot._lease
                         else None) if t is not None]
    tasks += [*bot.sender._busy.values(), *bot.timers._running.values()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    with contextlib.suppress(BaseException):
        await commands.AutoShardedBot.close(bot)  # disconnect, without the clean shutdown
    if storage._reader is not None:
        with contextlib.suppress(BaseException):
            await storage._reader.close()
    thread, writer = storage._thread, storage._writer
    if thread is not None and writer is not None:  # after what was handed over before the kill
        closing = thread.run(writer.close)
        closing.add_done_callback(lambda f: f.cancelled() or f.exception())  # seen, not logged
        thread.close()
    await asyncio.sleep(0.05)  # the dead bot's other tasks meet their end
    crasher.dead = False
