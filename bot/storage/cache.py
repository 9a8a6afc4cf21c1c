"""The latest stored version of the tables this process has read or written, so that a click
finds its table without a round trip to SQLite's thread (`bench.load`: at 200 busy tables a
read waited 35 ms at the median and 150 ms at p99 behind the others, and a picker's first
answer waited for one).

Why it stays true: one process holds the database (the lease), and every write to a table's
row goes through the storage, which tells the cache once the write is stored. A read fills
the cache only if no write to that table was told meanwhile: a read begun before a write may
return the row as it was. In a shard cluster other processes write too: each of their
commits is heard of (`heard`, a NOTIFY) and drops an older copy.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

from bot.models import Table
from bot.storage.base import Change
from bot.storage.rows import Row

TABLES_KEPT = 2048
"""Recently used tables kept (a few KB each, their state's JSON)."""


class TableCache:
    def __init__(self, size: int = TABLES_KEPT) -> None:
        self.size = size
        self._items: OrderedDict[int, Table] = OrderedDict()
        self._writes: dict[int, int] = {}

    def get(self, table_id: int) -> Table | None:
        """A copy of the cached table (callers build new versions with `model_copy`; a copy
        keeps an accidental change to one from reaching the cache)."""
        table = self._items.get(table_id)
        if table is None:
            return None
        self._items.move_to_end(table_id)
        return table.model_copy()

    def stamp(self, table_id: int) -> int:
        """Take before a read; `fill` with it after."""
        return self._writes.get(table_id, 0)

    def fill(self, table: Table, stamp: int) -> None:
        """A table as read, kept unless a write to it was stored since `stamp`."""
        if self._writes.get(table.id, 0) == stamp and table.id not in self._items:
            self._put(table.model_copy())

    def stored(self, table: Table, **written: object) -> None:
        """The whole row as just written: `table` with the fields the storage set itself."""
        self._bump(table.id)
        self._put(table.model_copy(update=written))

    def committed(self, table: Table, now: float) -> None:
        """A change of `table` as just stored: its living message is in the row, not in
        `table`, so a table not kept here is forgotten rather than kept without it."""
        known = self._items.get(table.id)
        if known is None:
            self.forget(table.id)
        else:
            self.stored(table, message_id=known.message_id, updated_at=now)

    def status_may_change(self, change: Change) -> bool:
        """False when the stored row is known to hold the status this change keeps: setting
        it anyway rewrites the two indexes that name it (`bench.side`)."""
        before = self._items.get(change.table.id)
        return not (before is not None and before.version == change.expected
                    and before.status == change.table.status)

    def message_stored(self, table_id: int, message_id: int | None) -> None:
        """The table's living message as just written."""
        self._bump(table_id)
        table = self._items.get(table_id)
        if table is not None:
            self._items[table_id] = table.model_copy(update={"message_id": message_id})

    def heard(self, table_id: int, version: int) -> None:
        """Another process stored this version of the table: an older copy goes, and a read
        begun before is not kept."""
        self._bump(table_id)
        known = self._items.get(table_id)
        if known is not None and known.version < version:
            del self._items[table_id]

    def clear(self) -> None:
        """Nothing kept: what other processes wrote before they were heard of is not known."""
        for table_id in list(self._items):
            self.forget(table_id)

    def forget(self, table_id: int) -> None:
        """A write whose outcome is not known here (a failed transaction)."""
        self._bump(table_id)
        self._items.pop(table_id, None)

    def peek(self, table_id: int) -> Table | None:
        return self._items.get(table_id)

    def _bump(self, table_id: int) -> None:
        self._writes[table_id] = self._writes.get(table_id, 0) + 1

    def _put(self, table: Table) -> None:
        self._items[table.id] = table
        self._items.move_to_end(table.id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


class OpenTables:
    """Channel → its open table (at most one, the schema says): read at `open`, kept by every
    write of a table's status, so a channel's table is found without a read."""

    def __init__(self) -> None:
        self._ids: dict[int, int] = {}

    def reset(self, rows: Iterable[Row]) -> None:
        """From rows of (id, channel_id) of the open tables."""
        self._ids = {r["channel_id"]: r["id"] for r in rows}

    def get(self, channel_id: int) -> int | None:
        return self._ids.get(channel_id)

    def place(self, table: Table) -> None:
        """Kept true after a write of this table."""
        if table.status != "over":
            self._ids[table.channel_id] = table.id
        elif self._ids.get(table.channel_id) == table.id:
            del self._ids[table.channel_id]
