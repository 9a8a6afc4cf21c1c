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
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.models import Letter, Posting, Table, Timer
from bot.storage.base import (
    Change,
    LogEntry,
    SchemaTooNew,
    StaleVersion,
    StorageError,
    TimerPlan,
)
from bot.storage.common import SqlStorage
from bot.storage.rows import (
    result_rows,
    table_row,
    timer_from_row,
    timer_payload,
)
from bot.storage.schema import LEASE, MIGRATIONS, NOT_HELD, URGENT_FIRST
from bot.storage.writer import WriterThread
from bot.urgency import task

PRAGMAS = (
    "PRAGMA busy_timeout = 5000",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
)

T = TypeVar("T")


class SqliteStorage(SqlStorage):
    def __init__(self, path: Path | str) -> None:
        super().__init__()
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
        self._identifying: dict[int, asyncio.Lock] = {}
        """Table ids are handed out here (one process holds the database: the lease), so a
        new table's letters are rendered with its id before its one transaction."""

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
        await self._opened()

    async def close(self) -> None:
        if self._reader is not None:
            await self._reader.close()
        if self._writer is not None and self._thread is not None:
            await self._on_writer(lambda con: con.close())
        if self._thread is not None:
            self._thread.close()
        self._reader = self._writer = self._thread = None

    async def listen(self, wake: Callable[[], None]) -> None:
        """No other process writes here (the lease): this process's commits wake it."""

    def _identify_lock(self, bucket: int) -> asyncio.Lock:
        """One process: a lock of its own is the bucket's."""
        return self._identifying.setdefault(bucket, asyncio.Lock())

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

    async def _write(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        def work(con: sqlite3.Connection) -> None:
            con.execute(sql, args)

        await self._transaction(work)

    # tables -------------------------------------------------------------------------------

    async def _new_table_id(self) -> int:
        self._last_table_id += 1
        return self._last_table_id

    async def _insert_table(self, change: Change, now: float) -> tuple[int, ...]:
        created = change.table

        def insert(con: sqlite3.Connection) -> tuple[int, ...]:
            row = table_row(created, now)
            con.execute(
                f"INSERT INTO tables ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                tuple(row.values()),
            )
            ids = _insert_letters(con, created.id, change.letters, now)
            _move_timers(con, created, change.timers)
            return ids

        try:
            return await self._transaction(insert)
        except StorageError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise StaleVersion("A table is already open in this channel.") from exc
            raise

    async def _store_change(self, change: Change, columns: dict[str, Any], now: float
                            ) -> tuple[int, ...]:
        new = change.table

        def work(con: sqlite3.Connection) -> tuple[int, ...]:
            if change.expected is not None:
                cur = con.execute(
                    f"UPDATE tables SET {', '.join(f'{c} = ?' for c in columns)}"
                    " WHERE id = ? AND version = ?",
                    (*columns.values(), new.id, change.expected),
                )
                if cur.rowcount != 1:
                    raise StaleVersion("This table changed in the meantime.")
            elif change.read_at is not None:
                row = con.execute("SELECT version FROM tables WHERE id = ?", (new.id,)).fetchone()
                if row is None or row[0] != change.read_at:
                    raise StaleVersion("This table changed in the meantime.")
            if change.log is not None:
                _insert_log(con, new, change.log, now)
            ids = _insert_letters(con, new.id, change.letters, now)
            _move_timers(con, new, change.timers)
            if change.winners is not None:
                con.executemany(
                    "INSERT OR IGNORE INTO results (guild_id, game, table_id, user_id, won,"
                    " finished_at, ai_level) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    result_rows(new, change.winners, now),
                )
            if change.notes is not None:
                seat, notes = change.notes
                con.execute(
                    "INSERT INTO seat_notes (table_id, seat, notes) VALUES (?, ?, ?)"
                    " ON CONFLICT (table_id, seat) DO UPDATE SET notes = excluded.notes",
                    (new.id, seat, json.dumps(notes)),
                )
            return ids

        return await self._transaction(work)

    # the outbox ---------------------------------------------------------------------------

    async def _pending(self, now: float, limit: int, busy: Collection[str],
                       only: Collection[str] | None) -> list[aiosqlite.Row]:
        if only is not None:
            raise ValueError("one process on SQLite claims no destinations")
        # the ids chosen first, the letters read for those alone: sorting whole rows read
        # every pending letter's JSON (3,000 pending: some 40 ms a read against 6 ms)
        free, held = self._not_among("o.dest", busy)
        return await self._rows(
            "SELECT o.id, o.table_id, o.dest, o.letter, o.tries, o.next_at FROM outbox o"
            " WHERE o.id IN (SELECT o.id FROM outbox o LEFT JOIN tables t ON t.id = o.table_id"
            f" WHERE o.state = 'pending' AND {NOT_HELD}{free}"
            f" ORDER BY {URGENT_FIRST} LIMIT ?) ORDER BY {URGENT_FIRST}",
            (*held, limit),
        )

    def _not_among(self, column: str, values: Collection[str]) -> tuple[str, tuple[Any, ...]]:
        return f" AND {column} NOT IN (SELECT value FROM json_each(?))", (json.dumps(list(values)),)

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
            self._marking = task(self._store_marks(), name="outbox-marks")
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

    # timers -------------------------------------------------------------------------------

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
        return [timer_from_row(r) for r in rows]

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
    for number, step in enumerate(MIGRATIONS[current:], start=current + 1):
        con.executescript(f"BEGIN; {step}; PRAGMA user_version = {number}; COMMIT;")
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
            (table.guild_id, table.id, spec.kind, spec.due, timer_payload(spec))
            for spec in plan.add
        ],
    )
