"""One bot process per database: a lease row, renewed while the process plays.

An overlapping deploy starts the new process while the old one still runs: the new one
waits for the lease (the old one releases it on SIGTERM), and refuses to play if it does not
come within `wait` seconds. A holder on this host whose process is gone is taken over at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable

from bot.storage import Storage
from bot.urgency import task

log = logging.getLogger(__name__)


class LeaseHeld(Exception):
    """Another process plays on this database."""


class Lease:
    def __init__(self, storage: Storage, *, ttl: float = 30.0, wait: float = 90.0) -> None:
        self.storage = storage
        self.ttl = ttl
        self.wait = wait
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._task: asyncio.Task[None] | None = None

    async def acquire(self, describe: str) -> None:
        """Take the lease, waiting for another holder up to `wait` seconds."""
        end = time.monotonic() + self.wait
        told = False
        while True:
            other = await self.storage.acquire_lease(self.holder, self.ttl, time.time())
            if other is None:
                return
            if _gone(other) and await self.storage.take_lease_from(
                self.holder, other, self.ttl, time.time()
            ):
                log.info("took over the lease of %s, whose process is gone", other)
                return
            if time.monotonic() >= end:
                raise LeaseHeld(
                    f"Another bot process ({other}) is playing on {describe}. Two processes on "
                    "one database would answer every click twice, so this one stops. Stop the "
                    "other process first, or give this one its own database (DATABASE_PATH, or"
                    " DATABASE_URL for PostgreSQL)."
                )
            if not told:
                log.warning("waiting for %s to release %s (up to %.0fs)", other, describe,
                            self.wait)
                told = True
            await asyncio.sleep(min(1.0, self.ttl / 4))

    def keep(self, on_lost: Callable[[], object]) -> None:
        """Renew in the background; `on_lost` runs if another process took it meanwhile."""
        self._task = task(self._renew(on_lost), name="lease")

    async def _renew(self, on_lost: Callable[[], object]) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                other = await self.storage.acquire_lease(self.holder, self.ttl, time.time())
            except Exception:
                log.exception("could not renew the lease; trying again")
                continue
            if other is not None:
                log.error("the lease was taken by %s: this process stops playing", other)
                on_lost()
                return

    async def release(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        with contextlib.suppress(Exception):
            await self.storage.release_lease(self.holder)


def _gone(holder: str) -> bool:
    """The holder ran on this host and its process no longer exists."""
    host, _, rest = holder.partition(":")
    pid_text = rest.split(":", 1)[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True  # an earlier process with our pid: it cannot be running
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False
