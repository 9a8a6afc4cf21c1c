"""The timer dispatcher: one task sleeps until the next stored timer is due (RoboDanny's
reminder pattern) and hands each due timer to its own task, so a slow table delays no other.

Timers are written and removed by the table service in the same transaction as the change
that arms or consumes them; the dispatcher never deletes one itself. A handler that fails is
retried with back-off, and the dispatcher survives any error of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable

from bot.models import Timer
from bot.outbox import polled, sleep_until
from bot.storage import Storage
from bot.urgency import task

log = logging.getLogger(__name__)

TimerHandler = Callable[[Timer], Awaitable[None]]
BATCH = 200


class TimerDispatcher:
    def __init__(self, storage: Storage, handler: TimerHandler) -> None:
        self.storage = storage
        self.handler = handler
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: dict[int, asyncio.Task[None]] = {}
        self._stopping = False
        self._asleep_until: float | None = None
        """When the dispatcher looks next while it sleeps (inf: only when woken); None while
        it looks, when what is stored meanwhile may be missed by that look."""

    def start(self) -> None:
        if self._task is None:
            self._task = task(self._run(), name="timer-dispatcher")

    async def stop(self) -> None:
        if self._task is not None:
            # Python 3.11's wait_for can swallow a cancel that meets a wake-up: the loop then
            # sees this flag instead of waiting forever
            self._stopping = True
            self._wake.set()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._stopping = False

    async def drain(self) -> None:
        """Wait for the handlers already running (a clean shutdown lets them finish)."""
        await asyncio.gather(*self._running.values(), return_exceptions=True)

    def wake(self) -> None:
        """Something changed: look at the next due time again."""
        self._wake.set()

    def armed(self, due: float) -> None:
        """A change armed a timer due at `due`: look again if that is before the next look.
        Most changes re-arm an AI seat's move timer later than the one they take away (at
        every change of a table an AI plays at), and woken for each, the dispatcher asked
        the database twice a commit."""
        if self._asleep_until is None or due < self._asleep_until:
            self._wake.set()

    async def _run(self) -> None:
        failures = 0
        while not self._stopping:
            self._wake.clear()
            try:
                running = list(self._running)
                for timer in await self.storage.due_timers(time.time(), BATCH, running):
                    if timer.id not in self._running:
                        self._running[timer.id] = asyncio.create_task(
                            self._fire(timer), name=f"timer:{timer.id}"
                        )
                due = await self.storage.next_timer_due()
                failures = 0
            except Exception:
                failures += 1
                log.exception("the timer dispatcher failed (%d in a row); it carries on", failures)
                await asyncio.sleep(min(30.0, 0.5 * 2**failures))
                continue
            delay = None if due is None else due - time.time()
            if delay is not None and delay <= 0:
                delay = 0.25  # due timers are being handled: look again shortly
            timeout = polled(delay, self.storage.poll_every)
            self._asleep_until = math.inf if timeout is None else time.time() + timeout
            try:
                await sleep_until(self._wake, timeout)
            finally:
                self._asleep_until = None

    async def _fire(self, timer: Timer) -> None:
        try:
            await self.handler(timer)
        except Exception:
            retry = min(300.0, 2.0 * 2**timer.attempts)
            log.exception(
                "timer %s (%s, table %s) failed; retrying in %.0fs",
                timer.id, timer.kind, timer.table_id, retry,
            )
            with contextlib.suppress(Exception):
                await self.storage.retry_timer(timer.id, time.time() + retry)
        finally:
            self._running.pop(timer.id, None)
            self.wake()
