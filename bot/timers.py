"""Durable timers: stored in the database, re-armed at start-up, one dispatcher task that
sleeps until the next one is due (RoboDanny's reminder pattern)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.storage import Storage, Timer

log = logging.getLogger(__name__)

TimerHandler = Callable[[Timer], Awaitable[None]]


class TimerDispatcher:
    def __init__(self, storage: Storage, handler: TimerHandler) -> None:
        self.storage = storage
        self.handler = handler
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="timer-dispatcher")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def add(
        self, guild_id: int, table_id: int, kind: str, delay: float, payload: dict[str, Any]
    ) -> None:
        await self.storage.add_timer(guild_id, table_id, kind, time.time() + delay, payload)
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            timer = await self.storage.next_timer()
            if timer is None:
                await self._wake.wait()
                continue
            delay = timer.due - time.time()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=delay)
                continue
            try:
                await self.handler(timer)
            except Exception:
                log.exception("timer %s (%s) failed", timer.id, timer.kind)
            await self.storage.delete_timer(timer.id)
