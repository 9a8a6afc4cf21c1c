"""The one thread that writes the database, in the order work is handed to it.

Why not a one-worker `ThreadPoolExecutor`: `loop.run_in_executor` chains a concurrent future
to an asyncio one, and the hop there and back cost 65 µs against 33 µs for a queue and a
`call_soon_threadsafe` (bench.side's persist: every action and every batch of outbox marks
pays it once).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_Job = tuple[Callable[[], Any], asyncio.Future[Any], asyncio.AbstractEventLoop,
             contextvars.Context]
"""The work, its future, the loop it belongs to, and the context of the task that handed it
over: the result is settled in that context, so an urgent task's commit wakes it in the
loop's urgent lane (`bot.urgency`), not behind every background callback."""


class WriterThread:
    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def run(self, work: Callable[[], T]) -> asyncio.Future[T]:
        """`work()` on the thread, after all work handed over before it. Cancelling the
        future does not stop work already handed over."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((work, future, loop, contextvars.copy_context()))
        return future

    def close(self) -> None:
        """End the thread once the work handed over is done (nobody waits for it)."""
        self._jobs.put(None)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            work, future, loop, context = job
            try:
                outcome: tuple[bool, Any] = (True, work())
            except BaseException as exc:  # handed to the waiting coroutine, raised there
                outcome = (False, exc)
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, outcome, context=context)


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():  # its caller was cancelled
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
