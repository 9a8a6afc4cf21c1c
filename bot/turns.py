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
import time
from collections.abc import AsyncIterator, Callable

STEP = 3.0
"""Seconds of head start a waiter gets over one a rank less urgent (`Turns`)."""


class Turns:
    """At most `size` holders at once, the waiters served by priority (lower first), then in
    arrival order, except that no waiter is passed by one that came `step` seconds per rank
    after it. Strictly by priority, a picture for a member not to act waited 80 s behind a
    steady stream of more urgent ones at 400 tables (`bench.load`), and that member's own
    prompt, the next letter to them, waited behind it: a destination keeps its order."""

    def __init__(self, size: int = 1, step: float = STEP,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self.step = step
        self._clock = clock
        self._held = 0
        self._queue: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @contextlib.asynccontextmanager
    async def turn(self, priority: int) -> AsyncIterator[None]:
        if self._held < self.size and not self._queue:
            self._held += 1
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            due = self._clock() + priority * self.step
            heapq.heappush(self._queue, (due, next(self._order), future))
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
