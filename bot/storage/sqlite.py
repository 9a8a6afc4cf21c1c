"""The SQLite backend: WAL, numbered migrations, one writer connection and one reader.

The writer is a plain sqlite3 connection owned by one thread of its own, and each transaction
runs there whole, as one function handed over once (BEGIN IMMEDIATE … COMMIT); that thread's
queue puts the transactions one after the other. No lock on the event loop: a write lock
handed from coroutine to coroutine made every write wait for event-loop turns, and under load
every write waited seconds for it (see docs/decisions.md). Reads go through a second
connection (aiosqlite), which only ever sees committed data: the sender can never pick up a
letter whose transaction is still open and might roll back. Durability: `synchronous=FULL`
(see docs/decisions.md for the measured cost).
"""

from __future__ import annotations

import asyncio
import functools
import json
import queue
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.models import Letter, Posting, SeatRef, Table, Timer
from bot.storage.base import (
    Change,
    Committed,
    LogEntry,
    SchemaTooNew,
    StaleVersion,
    StorageError,
    TimerPlan,
)
from bot.storage.cache import TableCache
from bot.storage.writer import WriterThread

MIGRATIONS: Sequence[str] = (
    # 1: tables, action log with outbox, guild settings, timers, finished-game results
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'over')),
        host_id INTEGER NOT NULL,
        options TEXT NOT NULL,
        seats TEXT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        message_id INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_open_table_per_channel ON tables (channel_id) WHERE status != 'over';
    CREATE INDEX tables_by_guild ON tables (guild_id, status);
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        version INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        events TEXT NOT NULL,
        delivered INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    CREATE INDEX undelivered ON actions (delivered) WHERE delivered = 0;
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL
    );
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        table_id INTEGER NOT NULL REFERENCES tables (id),
        kind TEXT NOT NULL,
        due REAL NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX timers_by_due ON timers (due);
    CREATE TABLE results (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        table_id INTEGER NOT NULL REFERENCES tables (id),
        user_id INTEGER NOT NULL,
        won INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    CREATE TABLE seat_notes (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        seat INTEGER NOT NULL,
        notes TEXT NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    """,
    # 2: the outbox (one row per message and recipient), timers retried with back-off, paused
    # tables, the one-process lease, AI results, per-member settings. Letters of version-1
    # databases were events, not rendered messages: any left undelivered are dropped.
    """
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id INTEGER REFERENCES tables (id),
        dest TEXT NOT NULL,
        letter TEXT NOT NULL,
        once TEXT,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
        tries INTEGER NOT NULL DEFAULT 0,
        next_at REAL NOT NULL DEFAULT 0,
        message_id INTEGER,
        reason TEXT,
        created_at REAL NOT NULL,
        done_at REAL
    );
    CREATE INDEX outbox_pending ON outbox (id) WHERE state = 'pending';
    CREATE INDEX outbox_heads ON outbox (dest, id) WHERE state = 'pending';
    CREATE INDEX outbox_done ON outbox (done_at) WHERE state != 'pending';
    CREATE UNIQUE INDEX outbox_once ON outbox (table_id, once) WHERE once IS NOT NULL;
    ALTER TABLE timers ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX timers_by_table ON timers (table_id);
    ALTER TABLE tables ADD COLUMN paused TEXT;
    ALTER TABLE tables ADD COLUMN place TEXT NOT NULL DEFAULT '';
    ALTER TABLE tables ADD COLUMN feed TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE tables ADD COLUMN deadline REAL;
    CREATE TABLE slots (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        dest TEXT NOT NULL,
        slot TEXT NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (table_id, dest, slot)
    );
    ALTER TABLE results ADD COLUMN ai_level TEXT;
    DROP INDEX undelivered;
    UPDATE actions SET delivered = 1;
    CREATE TABLE lease (
        name TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires REAL NOT NULL
    );
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    INSERT INTO meta (key, value) VALUES ('nonce_salt', lower(hex(randomblob(4))));
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL
    );
    """,
)

LEASE = "bot"
_NOT_HELD = "NOT (t.paused IS NOT NULL AND o.dest = 'c:' || t.channel_id)"
"""A paused table's channel letters are held until it carries on."""
KEEP_DONE_LETTERS = 3 * 24 * 3600.0
"""Sent and failed letters are kept a few days (for inspection), then pruned at start-up."""
PRAGMAS = (
    "PRAGMA busy_timeout = 5000",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
)

T = TypeVar("T")


class SqliteStorage:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._writer: sqlite3.Connection | None = None
        """Used on the writer thread only (`_on_writer`)."""
        self._thread: WriterThread | None = None
        self._reader: aiosqlite.Connection | None = None
        self._marks: queue.SimpleQueue[_Mark] = queue.SimpleQueue()
        """Outbox marks waiting for the writer, which stores all those queued in one
        transaction (group commit): under load most writes are marks."""
        self._mark_waiters: dict[int, asyncio.Future[None]] = {}
        self._marking: asyncio.Task[None] | None = None
        self._last_table_id = 0
        """Table ids are handed out here (one process holds the database: the lease), so a
        new table's letters are rendered with its id before its one transaction."""
        self._salt: str | None = None
        self._tables = TableCache()
        self._open: dict[int, int] = {}
        """Channel → its open table (at most one, the schema says): read at `open`, kept by
        every write of a table's status, so a channel's table is found without a read."""

    # connections --------------------------------------------------------------------------

    @property
    def db(self) -> aiosqlite.Connection:
        """The reader: committed data only."""
        if self._reader is None:
            raise RuntimeError("Storage is not open.")
        return self._reader

    async def _connect(self) -> aiosqlite.Connection:
        db = await aiosqlite.connect(self.path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        for pragma in PRAGMAS:
            await db.execute(pragma)
        return db

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._thread = WriterThread("sqlite-writer")
        self._writer = await self._on_writer(_connect_writer, self.path)
        await self.migrate()
        self._reader = await self._connect()
        self._last_table_id = await self._on_writer(_last_table_id)
        self._open = {r["channel_id"]: r["id"] for r in await self._rows(
            "SELECT id, channel_id FROM tables WHERE status != 'over'")}
        await self._write(
            "DELETE FROM outbox WHERE state != 'pending' AND done_at < ?",
            (time.time() - KEEP_DONE_LETTERS,),
        )

    async def close(self) -> None:
        if self._reader is not None:
            await self._reader.close()
        if self._writer is not None and self._thread is not None:
            await self._on_writer(lambda con: con.close())
        if self._thread is not None:
            self._thread.close()
        self._reader = self._writer = self._thread = None

    async def _on_writer(self, work: Callable[..., T], *args: Any) -> T:
        """Run `work(writer connection, *args)` on the writer's thread (the connection is
        None while it is being opened)."""
        if self._thread is None:
            raise RuntimeError("Storage is not open.")
        return await self._thread.run(functools.partial(work, self._writer, *args))

    async def _transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """One transaction, run whole on the writer's thread (never joined by another: the
        thread runs one function at a time); a database error rolls it back whole and is a
        StorageError. Cancelling the caller does not stop a transaction already handed over."""
        if self._writer is None:
            raise RuntimeError("Storage is not open.")
        return await self._on_writer(_transaction, work)

    async def migrate(self) -> int:
        """Apply the migrations this database has not seen; return the schema version."""
        return await self._on_writer(_migrate, self.path)

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[aiosqlite.Row]:
        """One read, executed and fetched whole in a single step on the reader's thread.

        Never an execute and a fetch apart: between the two, another coroutine's read on the
        same connection would join the first statement's read transaction and see the
        database as it was when that statement began (a table one version old, then a
        StaleVersion on write)."""
        return list(await self.db.execute_fetchall(sql, args))

    async def _row(self, sql: str, args: tuple[Any, ...] = ()) -> aiosqlite.Row | None:
        rows = await self._rows(sql, args)
        return rows[0] if rows else None

    async def _write(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        def work(con: sqlite3.Connection) -> None:
            con.execute(sql, args)

        await self._transaction(work)

    # tables -------------------------------------------------------------------------------

    async def create_table(self, table: Table, render: Callable[[Table], Change]) -> Committed:
        """A new table, with what it owes and the timers it arms rendered once its id is known
        (its buttons carry it); StaleVersion if the channel has an open table."""
        now = time.time()
        self._last_table_id += 1
        change = render(table.model_copy(update={"id": self._last_table_id}))
        created = change.table

        def insert(con: sqlite3.Connection) -> tuple[int, ...]:
            con.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game, status, host_id, options,"
                " seats, state, version, message_id, paused, place, feed, deadline,"
                " created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    created.id,
                    created.guild_id,
                    created.channel_id,
                    created.game,
                    created.status,
                    created.host_id,
                    json.dumps(created.options),
                    _dump_seats(created.seats),
                    created.state,
                    created.version,
                    created.message_id,
                    created.paused,
                    created.place,
                    json.dumps(created.feed),
                    created.deadline,
                    now,
                    now,
                ),
            )
            ids = _insert_letters(con, created.id, change.letters, now)
            _move_timers(con, created, change.timers)
            return ids

        try:
            ids = await self._transaction(insert)
        except StorageError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise StaleVersion("A table is already open in this channel.") from exc
            raise
        self._tables.stored(created, updated_at=now)
        self._placed(created)
        return Committed(created, ids)

    async def commit(self, change: Change) -> Committed:
        new, now = change.table, time.time()
        before = self._tables.peek(new.id)
        # the status is set only when it changes: setting it rewrites the two indexes that
        # name it, two of the pages a transaction writes (`bench.side`)
        keeps_status = (before is not None and before.version == change.expected
                        and before.status == new.status)
        status = () if keeps_status else (new.status,)

        def work(con: sqlite3.Connection) -> tuple[int, ...]:
            if change.expected is not None:
                cur = con.execute(
                    f"UPDATE tables SET {'' if keeps_status else 'status = ?, '}host_id = ?,"
                    " options = ?, seats = ?, state = ?, version = ?, paused = ?, feed = ?,"
                    " deadline = ?, updated_at = ? WHERE id = ? AND version = ?",
                    (
                        *status,
                        new.host_id,
                        json.dumps(new.options),
                        _dump_seats(new.seats),
                        new.state,
                        new.version,
                        new.paused,
                        json.dumps(new.feed),
                        new.deadline,
                        now,
                        new.id,
                        change.expected,
                    ),
                )
                if cur.rowcount != 1:
                    raise StaleVersion("This table changed in the meantime.")
            if change.log is not None:
                _insert_log(con, new, change.log, now)
            ids = _insert_letters(con, new.id, change.letters, now)
            _move_timers(con, new, change.timers)
            if change.winners is not None:
                _record_results(con, new, change.winners, now)
            if change.notes is not None:
                seat, notes = change.notes
                con.execute(
                    "INSERT INTO seat_notes (table_id, seat, notes) VALUES (?, ?, ?)"
                    " ON CONFLICT (table_id, seat) DO UPDATE SET notes = excluded.notes",
                    (new.id, seat, json.dumps(notes)),
                )
            return ids

        try:
            ids = await self._transaction(work)
        except BaseException:
            self._tables.forget(new.id)
            raise
        self._placed(new)
        known = self._tables.peek(new.id)
        if known is None:  # its living message is in the row, not in `new`
            self._tables.forget(new.id)
        else:
            self._tables.stored(new, message_id=known.message_id, updated_at=now)
        return Committed(new, ids)

    async def table(self, table_id: int) -> Table | None:
        cached = self._tables.get(table_id)
        if cached is not None:
            return cached
        stamp = self._tables.stamp(table_id)
        row = await self._row("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            return None
        table = table_from_row(row)
        self._tables.fill(table, stamp)
        return table

    async def open_table(self, channel_id: int) -> Table | None:
        table_id = self._open.get(channel_id)
        return None if table_id is None else await self.table(table_id)

    def _placed(self, table: Table) -> None:
        """Keep `_open` true after a write of this table."""
        if table.status != "over":
            self._open[table.channel_id] = table.id
        elif self._open.get(table.channel_id) == table.id:
            del self._open[table.channel_id]

    async def last_game(self, channel_id: int) -> Table | None:
        """The channel's open table, else its most recently finished game."""
        row = await self._row(
            "SELECT * FROM tables WHERE channel_id = ? AND (status != 'over' OR state IS NOT NULL)"
            " ORDER BY status = 'over', id DESC LIMIT 1",
            (channel_id,),
        )
        return table_from_row(row) if row else None

    async def active_tables(self, guild_id: int | None = None) -> list[Table]:
        if guild_id is None:
            rows = await self._rows("SELECT * FROM tables WHERE status != 'over'")
        else:
            rows = await self._rows(
                "SELECT * FROM tables WHERE status != 'over' AND guild_id = ?", (guild_id,)
            )
        return [table_from_row(r) for r in rows]

    async def tables_of(self, user_id: int) -> list[Table]:
        """Open tables where this member holds a seat."""
        return [t for t in await self.active_tables() if t.seat_of(user_id) is not None]

    # finished games -----------------------------------------------------------------------

    async def finished_tables(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[Table]:
        """This server's games that were played and are over, newest first; with `user_id`,
        only those that member had a seat at (their results row)."""
        mine, args = _played_by(user_id)
        rows = await self._rows(
            f"SELECT * FROM tables WHERE guild_id = ? AND status = 'over' AND state IS NOT NULL"
            f"{mine} ORDER BY id DESC LIMIT ? OFFSET ?",
            (guild_id, *args, limit, offset),
        )
        return [table_from_row(r) for r in rows]

    async def finished_count(self, guild_id: int, *, user_id: int | None = None) -> int:
        mine, args = _played_by(user_id)
        row = await self._row(
            f"SELECT COUNT(*) AS n FROM tables WHERE guild_id = ? AND status = 'over'"
            f" AND state IS NOT NULL{mine}",
            (guild_id, *args),
        )
        return int(row["n"]) if row else 0

    async def last_finished(self, channel_id: int, game: str) -> Table | None:
        """The channel's most recently finished game of this kind (a lobby closed unplayed
        is no game)."""
        row = await self._row(
            "SELECT * FROM tables WHERE channel_id = ? AND game = ? AND status = 'over'"
            " AND state IS NOT NULL ORDER BY id DESC LIMIT 1",
            (channel_id, game),
        )
        return table_from_row(row) if row else None

    async def action_log(self, table_id: int) -> list[LogEntry]:
        """The table's action log, in the order the actions were applied."""
        rows = await self._rows(
            "SELECT actor, action, events FROM actions WHERE table_id = ? ORDER BY version",
            (table_id,),
        )
        return [LogEntry(r["actor"], r["action"], r["events"]) for r in rows]

    # the outbox ---------------------------------------------------------------------------

    async def due_postings(
        self, now: float, limit: int, busy: Collection[str] = ()
    ) -> list[Posting]:
        """Pending letters due now, oldest first, each behind every earlier letter to its
        destination (one waiting for a retry holds back the rest); a paused table's channel
        letters wait. Letters to the `busy` destinations (the sender's workers have them in
        hand) are left out unread: under load the backlog is read again at every wake-up."""
        rows = await self._rows(
            "SELECT o.id, o.table_id, o.dest, o.letter, o.tries, o.next_at FROM outbox o"
            " LEFT JOIN tables t ON t.id = o.table_id"
            f" WHERE o.state = 'pending' AND {_NOT_HELD}"
            " AND o.dest NOT IN (SELECT value FROM json_each(?)) ORDER BY o.id LIMIT ?",
            (json.dumps(list(busy)), limit),
        )
        due: list[Posting] = []
        waiting: set[str] = set()
        for r in rows:
            if r["dest"] in waiting or r["next_at"] > now:
                waiting.add(r["dest"])
                continue
            due.append(Posting(
                id=r["id"],
                table_id=r["table_id"],
                letter=Letter.model_validate_json(r["letter"]),
                tries=r["tries"],
            ))
        return due

    async def next_posting_at(self) -> float | None:
        """When the earliest letter at the head of its destination is due."""
        row = await self._row(
            "SELECT MIN(o.next_at) AS at FROM outbox o"
            " JOIN (SELECT MIN(id) AS id FROM outbox WHERE state = 'pending' GROUP BY dest) h"
            " ON h.id = o.id LEFT JOIN tables t ON t.id = o.table_id"
            f" WHERE {_NOT_HELD}"
        )
        return None if row is None or row["at"] is None else float(row["at"])

    async def posting_sent(self, posting: Posting, message_id: int | None) -> None:
        """Marked after its own send; a living post also becomes the table's message, and a
        slot's letter the message its next letters edit. Returns once the mark is stored,
        together with the marks queued alongside it."""
        if self._writer is None:
            raise RuntimeError("Storage is not open.")
        letter, table_id = posting.letter, posting.table_id
        placed = table_id is not None and message_id is not None
        living = table_id if placed and letter.living else None
        slot = (
            (table_id, letter.to, letter.slot)
            if table_id is not None and message_id is not None and letter.slot is not None
            else None
        )
        waiter = asyncio.get_running_loop().create_future()
        self._mark_waiters[posting.id] = waiter
        self._marks.put(_Mark(posting.id, living, message_id, time.time(), slot))
        if self._marking is None or self._marking.done():
            self._marking = asyncio.create_task(self._store_marks(), name="outbox-marks")
        await asyncio.shield(waiter)

    async def _store_marks(self) -> None:
        """Hand the writer one job per batch until no mark is left waiting."""
        while not self._marks.empty():
            batch, error = await self._on_writer(_store_marks, self._marks)
            for mark in batch:
                if mark.living is None:
                    continue
                if error is None:
                    self._tables.message_stored(mark.living, mark.message_id)
                else:
                    self._tables.forget(mark.living)
            for i in (m.posting for m in batch):
                waiter = self._mark_waiters.pop(i, None)
                if waiter is None or waiter.done():
                    continue
                if error is None:
                    waiter.set_result(None)
                else:
                    waiter.set_exception(StorageError(f"the mark was not stored: {error}"))

    async def posting_retry(self, posting: Posting, at: float) -> None:
        await self._write(
            "UPDATE outbox SET tries = tries + 1, next_at = ? WHERE id = ?", (at, posting.id)
        )

    async def posting_failed(self, posting: Posting, reason: str) -> None:
        await self._write(
            "UPDATE outbox SET state = 'failed', reason = ?, tries = tries + 1, done_at = ?"
            " WHERE id = ?",
            (reason, time.time(), posting.id),
        )

    async def living_message(self, table_id: int) -> int | None:
        cached = self._tables.peek(table_id)
        if cached is not None:
            return cached.message_id
        row = await self._row("SELECT message_id FROM tables WHERE id = ?", (table_id,))
        return None if row is None else row["message_id"]

    async def slot_message(self, table_id: int, dest: str, slot: str) -> int | None:
        row = await self._row(
            "SELECT message_id FROM slots WHERE table_id = ? AND dest = ? AND slot = ?",
            (table_id, dest, slot),
        )
        return None if row is None else int(row["message_id"])

    async def postings_pending(self, ids: Sequence[int]) -> int:
        if not ids:
            return 0
        marks = ",".join("?" * len(ids))
        row = await self._row(
            f"SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending' AND id IN ({marks})",
            tuple(ids),
        )
        return int(row["n"]) if row else 0

    async def nonce_salt(self) -> str:
        if self._salt is None:
            row = await self._row("SELECT value FROM meta WHERE key = 'nonce_salt'")
            assert row is not None
            self._salt = str(row["value"])
        return self._salt

    # timers -------------------------------------------------------------------------------

    async def next_timer_due(self) -> float | None:
        row = await self._row(
            "SELECT MIN(due) AS due FROM timers t JOIN tables b ON b.id = t.table_id"
            " WHERE b.paused IS NULL"
        )
        return None if row is None or row["due"] is None else float(row["due"])

    async def due_timers(
        self, now: float, limit: int, running: Collection[int] = ()
    ) -> list[Timer]:
        """Due timers, earliest first, but for those `running` (already in a handler's hands:
        under load they are many, and were read and parsed again at every wake-up)."""
        rows = await self._rows(
            "SELECT t.* FROM timers t JOIN tables b ON b.id = t.table_id"
            " WHERE t.due <= ? AND b.paused IS NULL"
            " AND t.id NOT IN (SELECT value FROM json_each(?)) ORDER BY t.due, t.id LIMIT ?",
            (now, json.dumps(list(running)), limit),
        )
        return [_timer(r) for r in rows]

    async def timers(self, table_id: int) -> list[Timer]:
        rows = await self._rows(
            "SELECT * FROM timers WHERE table_id = ? ORDER BY due, id", (table_id,)
        )
        return [_timer(r) for r in rows]

    async def retry_timer(self, timer_id: int, due: float) -> None:
        await self._write(
            "UPDATE timers SET due = ?, attempts = attempts + 1 WHERE id = ?", (due, timer_id)
        )

    # the lease ----------------------------------------------------------------------------

    async def acquire_lease(self, holder: str, ttl: float, now: float) -> str | None:
        """Take or renew the lease; the other holder's name if it is someone else's."""

        def work(con: sqlite3.Connection) -> str | None:
            row = con.execute(
                "SELECT holder, expires FROM lease WHERE name = ?", (LEASE,)
            ).fetchone()
            if row is not None and row["holder"] != holder and row["expires"] > now:
                return str(row["holder"])
            con.execute(
                "INSERT INTO lease (name, holder, expires) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,"
                " expires = excluded.expires",
                (LEASE, holder, now + ttl),
            )
            return None

        return await self._transaction(work)

    async def release_lease(self, holder: str) -> None:
        await self._write("DELETE FROM lease WHERE name = ? AND holder = ?", (LEASE, holder))

    async def lease_holder(self) -> tuple[str, float] | None:
        row = await self._row("SELECT holder, expires FROM lease WHERE name = ?", (LEASE,))
        return None if row is None else (str(row["holder"]), float(row["expires"]))

    async def take_lease_from(self, holder: str, dead: str, ttl: float, now: float) -> bool:
        """Take the lease from a holder known to be dead (its process is gone)."""

        def work(con: sqlite3.Connection) -> bool:
            cur = con.execute(
                "UPDATE lease SET holder = ?, expires = ? WHERE name = ? AND holder = ?",
                (holder, now + ttl, LEASE, dead),
            )
            return cur.rowcount == 1

        return await self._transaction(work)

    # settings, notes, results -------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        row = await self._row(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return dict(json.loads(row["settings"])) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
            (guild_id, json.dumps(settings)),
        )

    async def user_settings(self, user_id: int) -> dict[str, Any]:
        row = await self._row("SELECT settings FROM user_settings WHERE user_id = ?", (user_id,))
        return dict(json.loads(row["settings"])) if row else {}

    async def set_user_settings(self, user_id: int, settings: dict[str, Any]) -> None:
        await self._write(
            "INSERT INTO user_settings (user_id, settings) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings",
            (user_id, json.dumps(settings)),
        )

    async def seat_notes(self, table_id: int, seat: int) -> dict[str, Any]:
        row = await self._row(
            "SELECT notes FROM seat_notes WHERE table_id = ? AND seat = ?", (table_id, seat)
        )
        return dict(json.loads(row["notes"])) if row else {}

    async def player_stats(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        """game → (played, won) for one member of one guild."""
        rows = await self._rows(
            "SELECT game, COUNT(*) AS played, SUM(won) AS won FROM results"
            " WHERE guild_id = ? AND user_id = ? AND ai_level IS NULL GROUP BY game",
            (guild_id, user_id),
        )
        return {r["game"]: (r["played"], r["won"] or 0) for r in rows}

    async def leaderboard(self, guild_id: int, limit: int = 10
                          ) -> list[tuple[int | str, int, int]]:
        """(user id, or "ai:<level>" for the AI detectives of a level, wins, games played):
        most wins first, then the best win rate, then the most games. An AI level is listed
        only once it has won."""
        rows = await self._rows(
            "SELECT COALESCE('ai:' || ai_level, user_id) AS who, SUM(won) AS won,"
            " COUNT(*) AS played FROM results WHERE guild_id = ?"
            " GROUP BY who HAVING ai_level IS NULL OR SUM(won) > 0"
            " ORDER BY won DESC, CAST(won AS REAL) / played DESC, played DESC, who LIMIT ?",
            (guild_id, limit),
        )
        return [(r["who"], r["won"] or 0, r["played"]) for r in rows]


# --- the writer's thread: connecting, migrating, one unit of work ---------------------------


def _connect_writer(_: None, path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    con.row_factory = sqlite3.Row
    for pragma in PRAGMAS:
        con.execute(pragma).fetchall()
    return con


def _migrate(con: sqlite3.Connection, path: Path) -> int:
    current = con.execute("PRAGMA user_version").fetchone()[0]
    if current > len(MIGRATIONS):
        raise SchemaTooNew(
            f"{path} has schema version {current}, but this bot knows only up to "
            f"{len(MIGRATIONS)}: it was written by a newer release. Run that release, or "
            "point DATABASE_PATH at another file."
        )
    for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
        con.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
    return len(MIGRATIONS)


@dataclass(frozen=True)
class _Mark:
    posting: int
    living: int | None
    """The table whose living message this post becomes."""
    message_id: int | None
    at: float
    slot: tuple[int, str, str] | None = None
    """(table, destination, slot) whose next letters edit this message."""


def _store_marks(
    con: sqlite3.Connection, marks: queue.SimpleQueue[_Mark]
) -> tuple[list[_Mark], str | None]:
    """Every mark queued by now, in one transaction: (those marks, the error if any)."""
    batch: list[_Mark] = []
    while True:
        try:
            batch.append(marks.get_nowait())
        except queue.Empty:
            break

    def work(db: sqlite3.Connection) -> None:
        db.executemany(
            "UPDATE outbox SET state = 'sent', message_id = ?, done_at = ? WHERE id = ?",
            [(m.message_id, m.at, m.posting) for m in batch],
        )
        db.executemany(
            "UPDATE tables SET message_id = ? WHERE id = ?",
            [(m.message_id, m.living) for m in batch if m.living is not None],
        )
        db.executemany(
            "INSERT INTO slots (table_id, dest, slot, message_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, dest, slot) DO UPDATE SET message_id = excluded.message_id",
            [(*m.slot, m.message_id) for m in batch if m.slot is not None],
        )

    try:
        _transaction(con, work)
    except StorageError as exc:
        return batch, str(exc)
    return batch, None


def _last_table_id(con: sqlite3.Connection) -> int:
    row = con.execute(
        "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'tables'), 0),"
        " COALESCE((SELECT MAX(id) FROM tables), 0))"
    ).fetchone()
    return int(row[0])


def _transaction(con: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    con.execute("BEGIN IMMEDIATE")
    try:
        result = work(con)
    except BaseException as exc:
        con.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise StorageError(f"the change was not stored: {exc}") from exc
        raise
    con.execute("COMMIT")
    return result


# --- statements used inside a unit of work ------------------------------------------------


def _insert_log(db: sqlite3.Connection, table: Table, log: LogEntry, now: float) -> None:
    db.execute(
        "INSERT INTO actions (table_id, version, actor, action, events, delivered, at)"
        " VALUES (?, ?, ?, ?, ?, 1, ?)",
        (table.id, table.version, log.actor, log.action, log.events, now),
    )


def _insert_letters(
    db: sqlite3.Connection, table_id: int, letters: Iterable[Letter], now: float
) -> tuple[int, ...]:
    ids: list[int] = []
    for letter in letters:
        cur = db.execute(
            "INSERT OR IGNORE INTO outbox (table_id, dest, letter, once, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (table_id, letter.to, letter.model_dump_json(), letter.once, now),
        )
        if cur.rowcount == 1 and cur.lastrowid is not None:
            ids.append(cur.lastrowid)
    return tuple(ids)


def _move_timers(db: sqlite3.Connection, table: Table, plan: TimerPlan) -> None:
    if plan.delete:
        marks = ",".join("?" * len(plan.delete))
        db.execute(f"DELETE FROM timers WHERE id IN ({marks})", plan.delete)
    if plan.seats_done:
        marks = ",".join("?" * len(plan.seats_done))
        db.execute(
            f"DELETE FROM timers WHERE table_id = ? AND json_extract(payload, '$.seat')"
            f" IN ({marks})",
            (table.id, *plan.seats_done),
        )
    if plan.clear == "all":
        db.execute("DELETE FROM timers WHERE table_id = ?", (table.id,))
    elif plan.clear:
        marks = ",".join("?" * len(plan.clear))
        db.execute(
            f"DELETE FROM timers WHERE table_id = ? AND kind IN ({marks})",
            (table.id, *plan.clear),
        )
    db.executemany(
        "INSERT INTO timers (guild_id, table_id, kind, due, payload) VALUES (?, ?, ?, ?, ?)",
        [
            (table.guild_id, table.id, spec.kind, spec.due,
             json.dumps({"seat": spec.seat, "key": spec.key, **spec.extra}))
            for spec in plan.add
        ],
    )


def _record_results(
    db: sqlite3.Connection, table: Table, winners: set[int], now: float
) -> None:
    db.executemany(
        "INSERT OR IGNORE INTO results (guild_id, game, table_id, user_id, won, finished_at,"
        " ai_level) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                table.guild_id,
                table.game,
                table.id,
                s.user_id if s.user_id is not None else -(i + 1),
                int(i in winners),
                now,
                s.ai_level if s.user_id is None else None,
            )
            for i, s in enumerate(table.seats)
        ],
    )


def _played_by(user_id: int | None) -> tuple[str, tuple[int, ...]]:
    """The SQL condition (and its argument) keeping the games a member had a seat at."""
    if user_id is None:
        return "", ()
    return " AND id IN (SELECT table_id FROM results WHERE user_id = ?)", (user_id,)


def _dump_seats(seats: list[SeatRef]) -> str:
    return json.dumps([s.model_dump() for s in seats])


def table_from_row(row: aiosqlite.Row) -> Table:
    return Table(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        status=row["status"],
        host_id=row["host_id"],
        options=json.loads(row["options"]),
        seats=[SeatRef.model_validate(s) for s in json.loads(row["seats"])],
        state=row["state"],
        version=row["version"],
        message_id=row["message_id"],
        paused=row["paused"],
        place=row["place"],
        feed=json.loads(row["feed"]),
        deadline=row["deadline"],
        updated_at=row["updated_at"],
    )


def _timer(row: aiosqlite.Row) -> Timer:
    payload = dict(json.loads(row["payload"]))
    seat = int(payload.pop("seat", -1))
    key = str(payload.pop("key", ""))
    return Timer(
        id=row["id"],
        table_id=row["table_id"],
        kind=row["kind"],
        seat=seat,
        key=key,
        due=row["due"],
        extra=payload,
        attempts=row["attempts"],
    )
