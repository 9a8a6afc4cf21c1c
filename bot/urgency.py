"""A member's interaction before the bot's background work: an event loop that runs the steps
of urgent tasks ahead of the others.

Why: asyncio runs whatever is ready first come, first served, and under load most of what is
ready is background work. In `bench.load` at 200 busy tables one process's loop held a hundred
ready callbacks and more at once, mostly the outbox's sends and their HTTP callbacks, and every
step of an interaction waited behind all of them: the first callback's median was 29 ms and
its p99 182 ms for some 9 ms of work. With the interaction's steps first: 14 and 98 ms, the
table messages as far behind as before (docs/decisions.md).

What is urgent is a task's context: `DeductionBot.connect` marks the gateway's, so everything
discord.py dispatches from it (every interaction and event) is urgent, and so is a reply that a
member waits for (the outbox's reply lane). The outbox, the timers (the AI seats' moves), the
REST pacer and the database's batches run in `background` tasks. Among urgent steps it is
first come, first served; background steps wait while urgent ones are ready, which at 200
tables is about a third of the loop's work (`bench.load`'s profile).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar, TypeVarTuple

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

URGENT: contextvars.ContextVar[bool] = contextvars.ContextVar("urgent", default=False)


class UrgentFirstLoop(asyncio.SelectorEventLoop):
    """asyncio's selector loop, but a callback scheduled in an urgent context is queued after
    the urgent ones already waiting and before everything else. Every step of a task and every
    callback of a future it awaits is scheduled through `call_soon` in the task's context; I/O
    readiness and timers are queued as asyncio queues them (they wake a task through a future,
    whose wake-up is then scheduled here)."""

    def call_soon(self, callback: Callable[[*Ts], object], *args: *Ts,
                  context: contextvars.Context | None = None) -> asyncio.Handle:
        handle = super().call_soon(callback, *args, context=context)
        if context is not None and context.get(URGENT, False):
            ready: deque[asyncio.Handle] = self._ready  # type: ignore[attr-defined]
            ready.pop()  # the handle just queued, at the end
            ahead = 0
            for queued in ready:
                if not queued._context.get(URGENT, False):  # type: ignore[attr-defined]
                    break
                ahead += 1
            ready.insert(ahead, handle)
        return handle


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run`, on an `UrgentFirstLoop`."""
    with asyncio.Runner(loop_factory=UrgentFirstLoop) as runner:
        return runner.run(main)


def mark_urgent() -> None:
    """The current task, and every task it starts from now on, is urgent."""
    URGENT.set(True)


def context(*, urgent: bool) -> contextvars.Context:
    """A copy of the current context, urgent or not."""
    copy = contextvars.copy_context()
    copy.run(URGENT.set, urgent)
    return copy


def background(coro: Coroutine[Any, Any, T], *, name: str) -> asyncio.Task[T]:
    """A task that waits behind urgent work, wherever it is started from (an interaction
    starts the outbox's marks or the pacer's pump as often as the outbox does)."""
    return asyncio.get_running_loop().create_task(coro, name=name,
                                                  context=context(urgent=False))
