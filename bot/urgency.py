"""A member's interaction before the bot's background work: an event loop that runs urgent
callbacks ahead of the others.

Why: asyncio runs whatever is ready first come, first served, and under load most of what is
ready is background work. In `bench.load` at 200 busy tables one process's loop held 70 to 137
ready callbacks at once in its busiest seconds, mostly the outbox's sends and their HTTP
callbacks, and every step of an interaction waited behind all of them: the first callback's
median was 29 ms and its p99 182 ms for some 9 ms of work; with urgent steps first, 14 and 98
ms in the same hour (docs/decisions.md, issue 19).

What is urgent is a task's context. `DeductionBot.connect` marks the gateway's task, so all
discord.py dispatches from it (every interaction and event) is urgent; so are the outbox's
lane for the answers a member waits for, whoever holds a table's lock (`urgent_meanwhile`: a
click on that table waits for it) and the shutdown. The outbox, the timers' dispatcher, the
REST pacer, the lease and the database's batches are background (`task`). Every file
descriptor's readiness joins the urgent lane, and a thread hands a result back in the context
that asked for it (`bot.storage.writer`): an urgent task's answers from the database or
Discord do not wait behind the background.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import selectors
from collections import deque
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

URGENT: contextvars.ContextVar[bool] = contextvars.ContextVar("urgent", default=False)
AHEAD = 32
"""Urgent callbacks (readiness included, a background connection's too) run in a row at most
while background ones wait: background work slows down under a flood of interactions but
never stops (discord.py's heartbeats are scheduled from their own thread, as background: a
shard whose heartbeats stop is dropped)."""


class ReadyQueue(deque[asyncio.Handle]):
    """An event loop's queue of ready callbacks in two lanes: a callback scheduled in an urgent
    context joins the urgent lane (and so does readiness: `UrgentFirstLoop._add_callback`),
    and the loop takes that lane first, each in order. Only `append` (from any thread:
    `call_soon_threadsafe`), the loop's readiness and the loop's own `popleft`, `len` (which
    `bool` uses too) and `clear` touch it, and each step is one deque operation: another
    thread's append cannot come between them."""

    def __init__(self) -> None:
        super().__init__()
        self.urgent: deque[asyncio.Handle] = deque()
        self._streak = 0
        """Urgent callbacks taken in a row while others waited (`AHEAD`)."""

    def append(self, handle: asyncio.Handle) -> None:
        if handle._context.get(URGENT, False):  # type: ignore[attr-defined]
            self.urgent.append(handle)
        else:
            super().append(handle)

    def popleft(self) -> asyncio.Handle:
        if self.urgent and (self._streak < AHEAD or not super().__len__()):
            self._streak += 1
            return self.urgent.popleft()
        self._streak = 0
        return super().popleft()

    def __len__(self) -> int:
        return super().__len__() + len(self.urgent)

    def clear(self) -> None:
        self.urgent.clear()
        super().clear()


class UrgentFirstLoop(asyncio.SelectorEventLoop):
    """asyncio's selector loop with a `ReadyQueue`. A task's every step, and the wake-up of a
    future it awaits, is scheduled in the task's context, so an urgent task runs ahead of the
    queued background; so do the timers set in an urgent context, and every socket's
    readiness (`_add_callback`). asyncio's loop reads `_ready` only through `append`, `popleft`,
    `len` and `clear`, and queues I/O readiness through `_add_callback` (CPython
    3.11–3.13)."""

    def __init__(self, selector: selectors.BaseSelector | None = None) -> None:
        super().__init__(selector)
        self._ready = ReadyQueue()

    def _add_callback(self, handle: asyncio.Handle) -> None:
        """A file descriptor ready to read or write (and a signal's callback: here
        `stop.set`) joins the urgent lane. In the lane of whoever opened the connection, an
        interaction's answer from PostgreSQL or Discord was read only after the whole
        background queue (a pooled connection is opened by whichever task first needs it).
        The cost: one `recv` (at most 256 KiB) and the protocol's parsing run urgent for
        background connections too (aiohttp's parser, asyncpg's row decoding of the
        outbox's batch reads); what a task then does with the data keeps its own urgency."""
        if not handle._cancelled:
            self._ready.urgent.append(handle)


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run`, on an `UrgentFirstLoop`."""
    with asyncio.Runner(loop_factory=UrgentFirstLoop) as runner:
        return runner.run(main)


def mark_urgent() -> None:
    """The current task, and every task it starts from now on, is urgent."""
    URGENT.set(True)


@contextlib.contextmanager
def urgent_meanwhile() -> Iterator[None]:
    """The current task is urgent inside the block: a background task holding what an urgent
    one may wait for (a table's lock) must not wait behind the urgent work meanwhile."""
    token = URGENT.set(True)
    try:
        yield
    finally:
        URGENT.reset(token)


def task(coro: Coroutine[Any, Any, T], *, name: str, urgent: bool = False) -> asyncio.Task[T]:
    """A task at this urgency, wherever it is started from: background by default (an
    interaction starts the outbox's marks or the pacer's pump as often as the outbox does)."""
    context = contextvars.copy_context()
    context.run(URGENT.set, urgent)
    return asyncio.get_running_loop().create_task(coro, name=name, context=context)
