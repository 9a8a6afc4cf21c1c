"""The SQLite backend: WAL, numbered migrations, one writer connection and one reader.

Coroutines share the writer, so every transaction takes `_write_lock` (otherwise one
coroutine's COMMIT could land inside another's transaction). Reads go through a second
connection, which only ever sees committed data: the sender can never pick up a letter whose
transaction is still open and might roll back. Durability: `synchronous=FULL` (see
docs/decisions.md for the measured cost).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

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


class SqliteStorage:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._salt: str | None = None

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
        await db.execute("PRAGMA busy_timeout = 5000")
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA synchronous = FULL")
        await db.execute("PRAGMA foreign_keys = ON")
        return db

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = await self._connect()
        await self.migrate()
        self._reader = await self._connect()
        async with self._writing() as db:
            await db.execute(
                "DELETE FROM outbox WHERE state != 'pending' AND done_at < ?",
                (time.time() - KEEP_DONE_LETTERS,),
            )

    async def close(self) -> None:
        for db in (self._reader, self._writer):
            if db is not None:
                await db.close()
        self._reader = self._writer = None

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction; a database error rolls it back whole and is a StorageError."""
        if self._writer is None:
            raise RuntimeError("Storage is not open.")
        db = self._writer
        async with self._write_lock:
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException as exc:
                await db.rollback()
                if isinstance(exc, sqlite3.Error):
                    raise StorageError(f"the change was not stored: {exc}") from exc
                raise
            await db.commit()

    async def migrate(self) -> int:
        """Apply the migrations this database has not seen; return the schema version."""
        assert self._writer is not None
        async with self._writer.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        if current > len(MIGRATIONS):
            raise SchemaTooNew(
                f"{self.path} has schema version {current}, but this bot knows only up to "
                f"{len(MIGRATIONS)}: it was written by a newer release. Run that release, or "
                "point DATABASE_PATH at another file."
            )
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._write_lock:
                await self._writer.executescript(
                    f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;"
                )
        return len(MIGRATIONS)

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[aiosqlite.Row]:
        async with self.db.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def _row(self, sql: str, args: tuple[Any, ...] = ()) -> aiosqlite.Row | None:
        async with self.db.execute(sql, args) as cur:
            return await cur.fetchone()

    async def _write(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        async with self._writing() as db:
            await db.execute(sql, args)

    # tables -------------------------------------------------------------------------------

    async def create_table(
        self, table: Table, letters: Callable[[Table], Sequence[Letter]]
    ) -> Committed:
        """A new lobby and its first letters, rendered once its id is known (its buttons carry
        it); StaleVersion if the channel has an open table."""
        now = time.time()
        try:
            async with self._writing() as db:
                cur = await db.execute(
                    "INSERT INTO tables (guild_id, channel_id, game, status, host_id, options,"
                    " seats, state, version, message_id, paused, place, feed, deadline,"
                    " created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table.guild_id,
                        table.channel_id,
                        table.game,
                        table.status,
                        table.host_id,
                        json.dumps(table.options),
                        _dump_seats(table.seats),
                        table.state,
                        table.version,
                        table.message_id,
                        table.paused,
                        table.place,
                        json.dumps(table.feed),
                        table.deadline,
                        now,
                        now,
                    ),
                )
                assert cur.lastrowid is not None
                created = table.model_copy(update={"id": cur.lastrowid})
                ids = await _insert_letters(db, created.id, letters(created), now)
        except StorageError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise StaleVersion("A table is already open in this channel.") from exc
            raise
        return Committed(created, ids)

    async def commit(self, change: Change) -> Committed:
        new, now = change.table, time.time()
        async with self._writing() as db:
            if change.expected is not None:
                cur = await db.execute(
                    "UPDATE tables SET status = ?, host_id = ?, options = ?, seats = ?,"
                    " state = ?, version = ?, paused = ?, feed = ?, deadline = ?, updated_at = ?"
                    " WHERE id = ? AND version = ?",
                    (
                        new.status,
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
                await _insert_log(db, new, change.log, now)
            ids = await _insert_letters(db, new.id, change.letters, now)
            await _move_timers(db, new, change.timers)
            if change.winners is not None:
                await _record_results(db, new, change.winners, now)
            if change.notes is not None:
                seat, notes = change.notes
                await db.execute(
                    "INSERT INTO seat_notes (table_id, seat, notes) VALUES (?, ?, ?)"
                    " ON CONFLICT (table_id, seat) DO UPDATE SET notes = excluded.notes",
                    (new.id, seat, json.dumps(notes)),
                )
        return Committed(new, ids)

    async def table(self, table_id: int) -> Table | None:
        row = await self._row("SELECT * FROM tables WHERE id = ?", (table_id,))
        return _table(row) if row else None

    async def open_table(self, channel_id: int) -> Table | None:
        row = await self._row(
            "SELECT * FROM tables WHERE channel_id = ? AND status != 'over'", (channel_id,)
        )
        return _table(row) if row else None

    async def last_game(self, channel_id: int) -> Table | None:
        """The channel's open table, else its most recently finished game."""
        row = await self._row(
            "SELECT * FROM tables WHERE channel_id = ? AND (status != 'over' OR state IS NOT NULL)"
            " ORDER BY status = 'over', id DESC LIMIT 1",
            (channel_id,),
        )
        return _table(row) if row else None

    async def active_tables(self, guild_id: int | None = None) -> list[Table]:
        if guild_id is None:
            rows = await self._rows("SELECT * FROM tables WHERE status != 'over'")
        else:
            rows = await self._rows(
                "SELECT * FROM tables WHERE status != 'over' AND guild_id = ?", (guild_id,)
            )
        return [_table(r) for r in rows]

    async def tables_of(self, user_id: int) -> list[Table]:
        """Open tables where this member holds a seat."""
        return [t for t in await self.active_tables() if t.seat_of(user_id) is not None]

    # the outbox ---------------------------------------------------------------------------

    async def due_postings(self, now: float, limit: int) -> list[Posting]:
        """Pending letters due now, oldest first, each behind every earlier letter to its
        destination (one waiting for a retry holds back the rest); a paused table's channel
        letters wait."""
        rows = await self._rows(
            "SELECT o.id, o.table_id, o.dest, o.letter, o.tries, o.next_at FROM outbox o"
            " LEFT JOIN tables t ON t.id = o.table_id"
            f" WHERE o.state = 'pending' AND {_NOT_HELD} ORDER BY o.id LIMIT ?",
            (limit,),
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
        slot's letter the message its next letters edit."""
        letter = posting.letter
        async with self._writing() as db:
            await db.execute(
                "UPDATE outbox SET state = 'sent', message_id = ?, done_at = ? WHERE id = ?",
                (message_id, time.time(), posting.id),
            )
            if posting.table_id is None or message_id is None:
                return
            if letter.living:
                await db.execute(
                    "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, posting.table_id)
                )
            if letter.slot is not None:
                await db.execute(
                    "INSERT INTO slots (table_id, dest, slot, message_id) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (table_id, dest, slot) DO UPDATE"
                    " SET message_id = excluded.message_id",
                    (posting.table_id, letter.to, letter.slot, message_id),
                )

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

    async def due_timers(self, now: float, limit: int) -> list[Timer]:
        rows = await self._rows(
            "SELECT t.* FROM timers t JOIN tables b ON b.id = t.table_id"
            " WHERE t.due <= ? AND b.paused IS NULL ORDER BY t.due, t.id LIMIT ?",
            (now, limit),
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
        async with self._writing() as db:
            async with db.execute(
                "SELECT holder, expires FROM lease WHERE name = ?", (LEASE,)
            ) as cur:
                row = await cur.fetchone()
            if row is not None and row["holder"] != holder and row["expires"] > now:
                return str(row["holder"])
            await db.execute(
                "INSERT INTO lease (name, holder, expires) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,"
                " expires = excluded.expires",
                (LEASE, holder, now + ttl),
            )
        return None

    async def release_lease(self, holder: str) -> None:
        await self._write("DELETE FROM lease WHERE name = ? AND holder = ?", (LEASE, holder))

    async def lease_holder(self) -> tuple[str, float] | None:
        row = await self._row("SELECT holder, expires FROM lease WHERE name = ?", (LEASE,))
        return None if row is None else (str(row["holder"]), float(row["expires"]))

    async def take_lease_from(self, holder: str, dead: str, ttl: float, now: float) -> bool:
        """Take the lease from a holder known to be dead (its process is gone)."""
        async with self._writing() as db:
            cur = await db.execute(
                "UPDATE lease SET holder = ?, expires = ? WHERE name = ? AND holder = ?",
                (holder, now + ttl, LEASE, dead),
            )
            return cur.rowcount == 1

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

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[int, int, int]]:
        """(user id, wins, games played), most wins first."""
        rows = await self._rows(
            "SELECT user_id, SUM(won) AS won, COUNT(*) AS played FROM results"
            " WHERE guild_id = ? AND ai_level IS NULL"
            " GROUP BY user_id ORDER BY won DESC, played ASC, user_id LIMIT ?",
            (guild_id, limit),
        )
        return [(r["user_id"], r["won"] or 0, r["played"]) for r in rows]


# --- statements used inside a unit of work ------------------------------------------------


async def _insert_log(db: aiosqlite.Connection, table: Table, log: LogEntry, now: float) -> None:
    await db.execute(
        "INSERT INTO actions (table_id, version, actor, action, events, delivered, at)"
        " VALUES (?, ?, ?, ?, ?, 1, ?)",
        (table.id, table.version, log.actor, log.action, log.events, now),
    )


async def _insert_letters(
    db: aiosqlite.Connection, table_id: int, letters: Iterable[Letter], now: float
) -> tuple[int, ...]:
    ids: list[int] = []
    for letter in letters:
        cur = await db.execute(
            "INSERT OR IGNORE INTO outbox (table_id, dest, letter, once, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (table_id, letter.to, letter.model_dump_json(), letter.once, now),
        )
        if cur.rowcount == 1 and cur.lastrowid is not None:
            ids.append(cur.lastrowid)
    return tuple(ids)


async def _move_timers(db: aiosqlite.Connection, table: Table, plan: TimerPlan) -> None:
    if plan.delete:
        marks = ",".join("?" * len(plan.delete))
        await db.execute(f"DELETE FROM timers WHERE id IN ({marks})", plan.delete)
    if plan.seats_done:
        marks = ",".join("?" * len(plan.seats_done))
        await db.execute(
            f"DELETE FROM timers WHERE table_id = ? AND json_extract(payload, '$.seat')"
            f" IN ({marks})",
            (table.id, *plan.seats_done),
        )
    if plan.clear == "all":
        await db.execute("DELETE FROM timers WHERE table_id = ?", (table.id,))
    elif plan.clear:
        marks = ",".join("?" * len(plan.clear))
        await db.execute(
            f"DELETE FROM timers WHERE table_id = ? AND kind IN ({marks})",
            (table.id, *plan.clear),
        )
    for spec in plan.add:
        payload = {"seat": spec.seat, "key": spec.key, **spec.extra}
        await db.execute(
            "INSERT INTO timers (guild_id, table_id, kind, due, payload) VALUES (?, ?, ?, ?, ?)",
            (table.guild_id, table.id, spec.kind, spec.due, json.dumps(payload)),
        )


async def _record_results(
    db: aiosqlite.Connection, table: Table, winners: set[int], now: float
) -> None:
    await db.executemany(
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


def _dump_seats(seats: list[SeatRef]) -> str:
    return json.dumps([s.model_dump() for s in seats])


def _table(row: aiosqlite.Row) -> Table:
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
