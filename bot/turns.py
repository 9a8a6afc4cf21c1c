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
from collections.abc import AsyncIterator, Callable, Hashable

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
        self._waiting: dict[Hashable, tuple[float, int, asyncio.Future[None]]] = {}
        """The waiters that came with a key, by key: when they came, their priority, their
        turn."""

    @contextlib.asynccontextmanager
    async def turn(self, priority: int, key: Hashable | None = None) -> AsyncIterator[None]:
        """`key`: what the turn is for, by which `hurry` finds it."""
        if self._held < self.size and all(f.done() for _, _, f in self._queue):
            self._queue.clear()  # no waiter: only places `hurry` left behind
            self._held += 1
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            came = self._clock()
            heapq.heappush(self._queue, (came + priority * self.step, next(self._order), future))
            if key is not None:
                self._waiting[key] = (came, priority, future)
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled():
                    self._release()  # handed its turn as it was cancelled: pass it on
                raise
            finally:
                if key is not None and self._waiting.get(key, (0, 0, None))[2] is future:
                    del self._waiting[key]
        try:
            yield
        finally:
            self._release()

    def hurry(self, key: Hashable, priority: int) -> None:
        """Serve the waiter for `key` at `priority` if that is more urgent than its own (a
        member's opening begun ahead, `open_dm_soon`, that their own DM now waits for); its
        old place is passed over when reached."""
        waiting = self._waiting.get(key)
        if waiting is None or waiting[1] <= priority or waiting[2].done():
            return
        came, _, future = waiting
        self._waiting[key] = (came, priority, future)
        heapq.heappush(self._queue, (came + priority * self.step, next(self._order), future))

    def _release(self) -> None:
        """Hand the turn to the most urgent waiter still waiting, or free it."""
        while self._queue:
            _, _, future = heapq.heappop(self._queue)
            if not future.done():
                future.set_result(None)
                return
        self._held -= 1
