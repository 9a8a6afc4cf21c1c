"""SQLite persistence (aiosqlite, WAL): tables, their action log and outbox, settings, timers.

Every row is keyed by guild; schema changes are numbered migrations applied at start-up.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite

from bot.models import SeatRef, Table

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
)


class StaleVersion(Exception):
    """The table changed since it was read: the write is refused, nothing is stored."""


class Storage:
    """One aiosqlite connection in autocommit mode.

    Coroutines share the connection, so every write takes `_write_lock`: otherwise one
    coroutine's COMMIT could land in the middle of another's multi-statement transaction.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._db: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("Storage is not open.")
        return self._db

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.rollback()
                raise
            await self.db.commit()

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA synchronous=NORMAL")
        await self.migrate()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def migrate(self) -> int:
        """Apply the migrations this database has not seen; return the schema version."""
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._write_lock:
                await self.db.executescript(
                    f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;"
                )
        return len(MIGRATIONS)

    async def _write(self, sql: str, args: tuple[Any, ...] = ()) -> int | None:
        """One statement in its own transaction; returns the new row id for an INSERT."""
        async with self._writing() as db:
            cur = await db.execute(sql, args)
            return cur.lastrowid

    # tables -------------------------------------------------------------------------------

    async def create_table(self, table: Table) -> Table:
        now = time.time()
        try:
            table_id = await self._write(
                "INSERT INTO tables (guild_id, channel_id, game, status, host_id, options,"
                " seats, state, version, message_id, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    now,
                    now,
                ),
            )
        except sqlite3.IntegrityError as exc:
            raise StaleVersion("A table is already open in this channel.") from exc
        return table.model_copy(update={"id": table_id})

    async def open_table(self, channel_id: int) -> Table | None:
        return await self._one(
            "SELECT * FROM tables WHERE channel_id = ? AND status != 'over'", (channel_id,)
        )

    async def last_game(self, channel_id: int) -> Table | None:
        """The channel's open table, else its most recently finished game."""
        return await self._one(
            "SELECT * FROM tables WHERE channel_id = ? AND (status != 'over' OR state IS NOT NULL)"
            " ORDER BY status = 'over', id DESC LIMIT 1",
            (channel_id,),
        )

    async def table(self, table_id: int) -> Table | None:
        return await self._one("SELECT * FROM tables WHERE id = ?", (table_id,))

    async def active_tables(self) -> list[Table]:
        async with self.db.execute("SELECT * FROM tables WHERE status != 'over'") as cur:
            return [_table(row) for row in await cur.fetchall()]

    async def save_table(
        self, table: Table, *, actor: str = "", action: str | None = None, events: str = "[]"
    ) -> Table:
        """Write `table` as version+1 if nobody wrote since it was read, with its log row."""
        new = table.model_copy(update={"version": table.version + 1})
        async with self._writing() as db:
            cur = await db.execute(
                "UPDATE tables SET status = ?, host_id = ?, options = ?, seats = ?, state = ?,"
                " version = ?, message_id = ?, updated_at = ? WHERE id = ? AND version = ?",
                (
                    new.status,
                    new.host_id,
                    json.dumps(new.options),
                    _dump_seats(new.seats),
                    new.state,
                    new.version,
                    new.message_id,
                    time.time(),
                    table.id,
                    table.version,
                ),
            )
            if cur.rowcount != 1:
                raise StaleVersion("This table changed in the meantime.")
            if action is not None:
                await db.execute(
                    "INSERT INTO actions (table_id, version, actor, action, events, at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (table.id, new.version, actor, action, events, time.time()),
                )
        return new

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """The living table message is presentation, not game state: no version bump."""
        await self._write(
            "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
        )

    async def undelivered(self) -> list[tuple[int, int, str]]:
        """(table id, version, events JSON) persisted but not yet delivered, oldest first."""
        async with self.db.execute(
            "SELECT table_id, version, events FROM actions WHERE delivered = 0"
            " ORDER BY table_id, version"
        ) as cur:
            return [(r["table_id"], r["version"], r["events"]) for r in await cur.fetchall()]

    async def mark_delivered(self, table_id: int, version: int) -> None:
        await self._write(
            "UPDATE actions SET delivered = 1 WHERE table_id = ? AND version = ?",
            (table_id, version),
        )

    # settings, notes, results -------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self.db.execute(
            "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return json.loads(row["settings"]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
            (guild_id, json.dumps(settings)),
        )

    async def seat_notes(self, table_id: int, seat: int) -> dict[str, Any]:
        async with self.db.execute(
            "SELECT notes FROM seat_notes WHERE table_id = ? AND seat = ?", (table_id, seat)
        ) as cur:
            row = await cur.fetchone()
        return json.loads(row["notes"]) if row else {}

    async def set_seat_notes(self, table_id: int, seat: int, notes: dict[str, Any]) -> None:
        await self._write(
            "INSERT INTO seat_notes (table_id, seat, notes) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO UPDATE SET notes = excluded.notes",
            (table_id, seat, json.dumps(notes)),
        )

    async def record_results(self, table: Table, winners: set[int]) -> None:
        now = time.time()
        async with self._writing() as db:
            await db.executemany(
                "INSERT OR IGNORE INTO results"
                " (guild_id, game, table_id, user_id, won, finished_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (table.guild_id, table.game, table.id, s.user_id, int(i in winners), now)
                    for i, s in enumerate(table.seats)
                    if s.user_id is not None
                ],
            )

    async def player_stats(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        """game → (played, won) for one member of one guild."""
        async with self.db.execute(
            "SELECT game, COUNT(*) AS played, SUM(won) AS won FROM results"
            " WHERE guild_id = ? AND user_id = ? GROUP BY game",
            (guild_id, user_id),
        ) as cur:
            return {r["game"]: (r["played"], r["won"] or 0) for r in await cur.fetchall()}

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[int, int, int]]:
        """(user id, wins, games played), most wins first."""
        async with self.db.execute(
            "SELECT user_id, SUM(won) AS won, COUNT(*) AS played FROM results WHERE guild_id = ?"
            " GROUP BY user_id ORDER BY won DESC, played ASC, user_id LIMIT ?",
            (guild_id, limit),
        ) as cur:
            return [(r["user_id"], r["won"] or 0, r["played"]) for r in await cur.fetchall()]

    # timers -------------------------------------------------------------------------------

    async def add_timer(
        self, guild_id: int, table_id: int, kind: str, due: float, payload: dict[str, Any]
    ) -> int:
        timer_id = await self._write(
            "INSERT INTO timers (guild_id, table_id, kind, due, payload)"
            " VALUES (?, ?, ?, ?, ?)",
            (guild_id, table_id, kind, due, json.dumps(payload)),
        )
        assert timer_id is not None
        return timer_id

    async def next_timer(self) -> Timer | None:
        async with self.db.execute(
            "SELECT id, table_id, kind, due, payload FROM timers ORDER BY due, id LIMIT 1"
        ) as cur:
            row = await cur.fetchone()
        return _timer(row) if row else None

    async def delete_timer(self, timer_id: int) -> None:
        await self._write("DELETE FROM timers WHERE id = ?", (timer_id,))

    async def clear_timers(self, table_id: int, kinds: Sequence[str] | None = None) -> None:
        if kinds is None:
            await self._write("DELETE FROM timers WHERE table_id = ?", (table_id,))
            return
        marks = ",".join("?" * len(kinds))
        await self._write(
            f"DELETE FROM timers WHERE table_id = ? AND kind IN ({marks})", (table_id, *kinds)
        )

    async def timers(self, table_id: int) -> list[Timer]:
        async with self.db.execute(
            "SELECT id, table_id, kind, due, payload FROM timers WHERE table_id = ?"
            " ORDER BY due, id",
            (table_id,),
        ) as cur:
            return [_timer(r) for r in await cur.fetchall()]

    # --------------------------------------------------------------------------------------

    async def _one(self, sql: str, args: tuple[Any, ...]) -> Table | None:
        async with self.db.execute(sql, args) as cur:
            row = await cur.fetchone()
        return _table(row) if row else None


class Timer(NamedTuple):
    id: int
    table_id: int
    kind: str
    due: float
    payload: dict[str, Any]


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
    )


def _timer(row: aiosqlite.Row) -> Timer:
    return Timer(row["id"], row["table_id"], row["kind"], row["due"], json.loads(row["payload"]))
