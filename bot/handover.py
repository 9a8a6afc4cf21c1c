"""A DM click, played by the process of its table's shard.

Discord sends every DM interaction to shard 0. In a cluster, the process of shard 0 then
answered a fifth more interactions than each other one, and each DM click on another
shard's table moved that table's copy to it and back (`bench.cluster`, docs/decisions.md).
So a DM click on a table is handed over, through the database (`Storage.hand_over`), to the
process that plays the table's shard, when that is another living process; else it is
played where it arrived, as every interaction is on one process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable, Collection
from typing import Any

from bot.storage import Storage
from bot.urgency import task, urgent_meanwhile

log = logging.getLogger(__name__)

TABLE_IN_ID = re.compile(r"([a-z0-9]{1,8}):[^:]+:(\d+)(?::|$)")
"""A game's component custom_id: `<game prefix>:<verb>:<table id>[:…]` (`family.family_id`,
`components`)."""
CLICKS = (3, 5)
"""The interaction types that carry a custom_id: a component's click, a modal's submit."""

Parse = Callable[[dict[str, Any]], None]
"""discord.py's parser of the gateway's INTERACTION_CREATE."""


def table_of(data: dict[str, Any], prefixes: Collection[str]) -> int | None:
    """The table a DM click on a game's component acts on (None: a server's click, a
    command, or another component: a replay's, the history's)."""
    if data.get("guild_id") is not None or data.get("type") not in CLICKS:
        return None
    found = TABLE_IN_ID.match(str((data.get("data") or {}).get("custom_id", "")))
    return None if found is None or found[1] not in prefixes else int(found[2])


class Handover:
    """Put in front of discord.py's INTERACTION_CREATE parser (`arrived`), and fed the clicks
    other processes hand over (`heard`)."""

    def __init__(self, storage: Storage, parse: Parse, prefixes: Collection[str]) -> None:
        """`prefixes`: the games' custom_id prefixes."""
        self.storage = storage
        self.parse = parse
        self.prefixes = frozenset(prefixes)
        self._routing: set[asyncio.Task[None]] = set()
        """The clicks being routed (asyncio keeps only a weak reference to a task)."""

    def arrived(self, data: dict[str, Any]) -> None:
        """From the gateway: a DM click on a table goes where its table is played (a task of
        the gateway's, urgent as it is); anything else is parsed at once."""
        table_id = table_of(data, self.prefixes)
        if table_id is None:
            self.parse(data)
        else:
            routing = task(self._route(table_id, data), name="DM click", urgent=True)
            self._routing.add(routing)
            routing.add_done_callback(self._routing.discard)

    async def _route(self, table_id: int, data: dict[str, Any]) -> None:
        try:
            if await self.storage.hand_over(table_id, data):
                return
        except Exception as exc:  # played here instead: any process may play any table
            log.warning("could not hand over a DM click on table %d: %r", table_id, exc)
        self.parse(data)

    def heard(self, payload: str) -> None:
        """A click another process handed over: parsed as if it came from this process's
        gateway, as urgent as its own."""
        try:
            with urgent_meanwhile():
                self.parse(json.loads(payload))
        except Exception:
            log.exception("a DM click handed over could not be played")
