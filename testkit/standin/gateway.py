"""Gateway plumbing: one websocket connection and the session it carries.

Split from the server so the frame ordering rules (one lock, pending frames flushed first)
live in one small place: the bot must see CHANNEL_UPDATE before the next interaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field

from aiohttp import web

from .records import JSON

HEARTBEAT_INTERVAL_MS = 41250


@dataclass
class Session:
    """What survives a reconnect: id, sequence counter, intents and shard."""

    session_id: str
    intents: int = 0
    shard: list[int] = field(default_factory=lambda: [0, 1])
    seq: int = 0


class Connection:
    """One gateway websocket; sends are serialised so frames keep their order."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: Session | None = None
        self.heartbeats = 0
        self.last_heartbeat_seq: int | None = None
        self._lock = asyncio.Lock()
        self._pending: list[tuple[str, JSON]] = []
        self._flushers: set[asyncio.Task[None]] = set()

    @property
    def identified(self) -> bool:
        """IDENTIFY or RESUME completed on this socket."""
        return self.session is not None and not self.ws.closed

    @property
    def seq(self) -> int:
        """Last sequence number sent."""
        return self.session.seq if self.session else 0

    async def send_op(self, op: int, d: object) -> None:
        """A non-dispatch frame (HELLO, HEARTBEAT_ACK, ...)."""
        async with self._lock:
            await self._write({"op": op, "d": d, "s": None, "t": None})

    async def dispatch(self, event: str, d: JSON) -> int:
        """A dispatch frame (op 0); returns its sequence number."""
        async with self._lock:
            await self._flush_locked()
            return await self._dispatch_locked(event, d)

    def enqueue(self, event: str, d: JSON) -> None:
        """Queue a dispatch from sync code; it goes out before any later dispatch."""
        self._pending.append((event, d))
        task = asyncio.get_running_loop().create_task(self.flush())
        self._flushers.add(task)
        task.add_done_callback(self._flushers.discard)

    async def flush(self) -> None:
        """Send queued dispatches."""
        async with self._lock:
            await self._flush_locked()

    async def _flush_locked(self) -> None:
        while self._pending:
            event, d = self._pending.pop(0)
            await self._dispatch_locked(event, d)

    async def _dispatch_locked(self, event: str, d: JSON) -> int:
        assert self.session is not None
        self.session.seq += 1
        seq = self.session.seq
        await self._write({"op": 0, "t": event, "s": seq, "d": d})
        return seq

    async def _write(self, frame: JSON) -> None:
        if self.ws.closed:
            return
        # If the client went away, its own reconnect logic takes over.
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.send_str(json.dumps(frame))
