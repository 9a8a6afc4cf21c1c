"""Turns: a semaphore whose waiters are served most urgent first.

For work queued behind a limit the bot does not control, where first come first served would
keep a member waiting behind letters that can wait: the DM channels opened on discord.py's one
bucket for them (`bot.transport`), the pictures drawn in the drawing helpers
(`bot.drawings`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator


class Turns:
    """At most `size` holders at once, the waiters served by priority (lower first), then in
    arrival order."""

    def __init__(self, size: int = 1) -> None:
        self.size = size
        self._held = 0
        self._queue: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @contextlib.asynccontextmanager
    async def turn(self, priority: int) -> AsyncIterator[None]:
        if self._held < self.size and not self._queue:
            self._held += 1
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._queue, (priority, next(self._order), future))
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._release()  # handed its turn as it was cancelled: pass it on
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        """Hand the turn to the most urgent waiter still waiting, or free it."""
        while self._queue:
            _, _, future = heapq.heappop(self._queue)
            if not future.done():
                future.set_result(None)
                return
        self._held -= 1
