"""Waiters served most urgent first: `Waitlist`, their queue, which lets a waiter be moved up,
and `Turns`, a semaphore built on it.

For work queued behind a limit the bot does not control, where first come first served would
keep a member waiting behind letters that can wait: the budget under Discord's global limit
(`bot.pacing`), the DM channels opened on discord.py's one bucket for them (`bot.transport`),
the pictures drawn in the drawing helpers (`bot.drawings`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections.abc import AsyncIterator, Callable, Hashable
from dataclasses import dataclass, field

STEP = 3.0
"""Seconds of head start a waiter gets over one a rank less urgent (`Turns`)."""


@dataclass(eq=False)
class Waiter:
    came: float
    priority: int
    """Its priority now: its own, or a more urgent one `Waitlist.hurry` gave it."""
    key: Hashable | None
    turn: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class Waitlist:
    """Waiters in order of `place(came, priority)` (lower first), then of arrival. One that
    came with a key can be moved up (`hurry`): it gets a second place, and the one it leaves
    is passed over when reached, as is a waiter cancelled or served."""

    def __init__(self, place: Callable[[float, int], float] = lambda came, priority: priority,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._place = place
        self._clock = clock
        self._heap: list[tuple[float, int, Waiter]] = []
        self._order = itertools.count()
        self._keyed: dict[Hashable, Waiter] = {}

    def join(self, priority: int, key: Hashable | None = None) -> Waiter:
        waiter = Waiter(self._clock(), priority, key)
        self._push(waiter)
        if key is not None:
            self._keyed[key] = waiter
        return waiter

    def leave(self, waiter: Waiter) -> None:
        """The waiter is done waiting (served, or cancelled): `hurry` no longer finds it."""
        if waiter.key is not None and self._keyed.get(waiter.key) is waiter:
            del self._keyed[waiter.key]

    def hurry(self, key: Hashable, priority: int) -> None:
        """Serve the waiter for `key` at `priority` if that is more urgent than its own."""
        waiter = self._keyed.get(key)
        if waiter is not None and priority < waiter.priority and not waiter.turn.done():
            waiter.priority = priority
            self._push(waiter)

    def __bool__(self) -> bool:
        """Whether anyone waits (the places left behind are dropped on the way)."""
        while self._heap and self._heap[0][2].turn.done():
            heapq.heappop(self._heap)
        return bool(self._heap)

    def next(self) -> Waiter | None:
        """The next waiter, taken off the list (None: nobody waits)."""
        return heapq.heappop(self._heap)[2] if self else None

    def most_urgent(self) -> int | None:
        """The most urgent priority among the waiters (None: nobody waits)."""
        return min((w.priority for _, _, w in self._heap if not w.turn.done()), default=None)

    def cancel(self) -> None:
        for _, _, waiter in self._heap:
            waiter.turn.cancel()
        self._heap.clear()

    def _push(self, waiter: Waiter) -> None:
        heapq.heappush(self._heap, (self._place(waiter.came, waiter.priority),
                                    next(self._order), waiter))


class Turns:
    """At most `size` holders at once, the waiters served by priority (lower first), then in
    arrival order, except that no waiter is passed by one that came `step` seconds per rank
    after it. Strictly by priority, a picture for a member not to act waited 80 s behind a
    steady stream of more urgent ones at 400 tables (`bench.load`), and that member's own
    prompt, the next letter to them, waited behind it: a destination keeps its order."""

    def __init__(self, size: int = 1, step: float = STEP,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self._held = 0
        self.waiting = Waitlist(lambda came, priority: came + priority * step, clock)

    @contextlib.asynccontextmanager
    async def turn(self, priority: int, key: Hashable | None = None) -> AsyncIterator[int]:
        """Yields the priority the turn was given at: `priority`, or a more urgent one
        `hurry` gave it (`key`: what the turn is for, by which `hurry` finds it)."""
        if self._held < self.size and not self.waiting:
            self._held += 1
        else:
            waiter = self.waiting.join(priority, key)
            try:
                await waiter.turn
            except asyncio.CancelledError:
                if waiter.turn.done() and not waiter.turn.cancelled():
                    self._release()  # handed its turn as it was cancelled: pass it on
                raise
            finally:
                self.waiting.leave(waiter)
            priority = waiter.priority
        try:
            yield priority
        finally:
            self._release()

    def hurry(self, key: Hashable, priority: int) -> None:
        """Serve the waiter for `key` at `priority` if that is more urgent than its own (a
        member's opening begun ahead, `open_dm_soon`, that their own DM now waits for)."""
        self.waiting.hurry(key, priority)

    def _release(self) -> None:
        """Hand the turn to the most urgent waiter still waiting, or free it."""
        waiter = self.waiting.next()
        if waiter is None:
            self._held -= 1
        else:
            waiter.turn.set_result(None)
