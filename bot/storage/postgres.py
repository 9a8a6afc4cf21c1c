"""The PostgreSQL backend (asyncpg), chosen by `DATABASE_URL=postgresql://…`: the database
that several bot processes can share.

What makes it safe for more than one process, already: table ids come from the
`tables_id_seq` sequence (never handed out in memory); a change locks its table's row
(`SELECT … FOR UPDATE`) inside its own transaction and checks the version under that lock;
migrations run under an advisory lock, so processes starting together apply each one once;
the lease is a session advisory lock, which the server releases the moment the holding
process (or its connection) dies. Each transaction runs whole on one pooled connection.

Several processes (a shard cluster) share it: the lease is one per shard set, a cached table
is used only while its row keeps the cached version (checked by a read before a change, heard
of by a NOTIFY for what a click shows), each destination's letters are sent by
the one process that claims it (`claims`, taken with FOR UPDATE SKIP LOCKED, expiring unless
renewed), each timer fires in the one process that claims it, and a commit that stores
letters or timers sends a NOTIFY that wakes every other process's sender and dispatcher
(coalesced; polling covers a lost one), and a write of a member's languages one that tells
every other process to read them again. See docs/decisions.md, "A shard cluster".
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import asyncpg

from bot.models import Letter, Posting, Table, Timer
from bot.storage.base import (
    Change,
    LogEntry,
    SchemaTooNew,
    StaleVersion,
    StorageError,
    TimerPlan,
)
from bot.storage.common import CLAIM_SECONDS, TIMER_CLAIM_SECONDS, SqlStorage
from bot.storage.rows import (
    result_rows,
    table_row,
    timer_from_row,
    timer_payload,
)
from bot.storage.schema import LEASE, MIGRATIONS, NOT_HELD, URGENT_FIRST, postgres

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

T = TypeVar("T")
Con: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"
"""A pooled connection (asyncpg's classes are generic only in its stubs)."""

LOCKS = 0x44454454
"""The advisory lock namespace of this bot ("DEDT"); with two int keys, pg_locks shows it
as `classid`, the lock's number as `objid`."""
MIGRATING = 1
LEASE_LOCK = 2
"""Held alone by a process playing every shard, shared by each process of a cluster: the two
never play on one database together."""
SHARD_LOCKS = 0x44454455
"""The namespace of one lock per shard, held by the process playing that shard."""
IDENTIFY_LOCKS = 0x44454456
"""The namespace of one lock per IDENTIFY bucket (`identify_turn`)."""
WAKE = "deduction_wake"
"""The NOTIFY channel of commits that store letters or timers; the payload names the process
that stored them (its `holder`), and in a cluster the shard whose process should look
(`PostgresStorage._wake`)."""
FOREIGN_WAKE = 0.25
"""Another process's commits wake this one's sender and dispatcher at most this often (the
first at once)."""
HANDOVER = 3.0
"""Seconds after its due time a timer of another shard's table may be fired here, and after
it was stored a letter another process sends best may be sent here (that process fires or
sends it at once; it hears of it within FOREIGN_WAKE, or at the 2 s look again when a NOTIFY
was lost): a dead or deaf process's timers and letters still go, late by this."""
TABLES = "deduction_tables"
"""The NOTIFY channel of changes of a table's row: the payload is the table's id, its new
version and the writing process's `holder` (`TableCache.heard`)."""
LANGUAGES = "deduction_languages"
"""The NOTIFY channel of writes of a member's languages; the payload is the member's id and
the writing process's `holder`."""
LIVING_HOLDER = "pid:"
"""A process holding the lease names its claims after its lease's session (`pid:<backend
pid>`): once that session is gone (the process died), its claims pass on at once."""


def gone(holder: str) -> str:
    """SQL: the claim's `holder` column names a session that no longer exists."""
    return (f"({holder} LIKE '{LIVING_HOLDER}%' AND substr({holder}, {len(LIVING_HOLDER) + 1})"
            "::int NOT IN (SELECT pid FROM pg_stat_activity))")


FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
"""What a database or connection failure raises; a change that meets one is not stored."""


def _marks(start: int, count: int) -> str:
    return ", ".join(f"${i}" for i in range(start, start + count))


async def _as_it_was(con: asyncpg.Connection[asyncpg.Record]) -> None:
    """A pooled connection is given back as it was taken: no statement here leaves session
    state behind (settings, LISTEN, cursors, a session lock: `migrate` unlocks its own), so
    asyncpg's reset query, one more round trip at every release, is skipped."""


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1`, `$2`, … (no statement here holds a literal `?`)."""
    count = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


QUICK_LANE = 3
"""Connections kept for the reads a member's click waits on (`_table_row`): with every
connection of the pool busy (the outbox's bookkeeping, the commits), 6,753 acquisitions in
47 s waited over 30 ms (median 119 ms, max 1.9 s) at 200 tables, one process, and the
pickers' first callbacks (which show the table) waited with them."""


class PostgresStorage(SqlStorage):
    shared = True

    def __init__(self, url: str, *, pool_size: int = 10,
                 shards: tuple[int, ...] | None = None, shard_count: int | None = None
                 ) -> None:
        """`shards`: the shards this process plays in a cluster (None: every shard), of
        `shard_count` (its timers go to the process that plays their table's shard)."""
        super().__init__()
        self.url = url
        self.pool_size = pool_size
        self.shards = shards
        self.shard_count = shard_count
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None
        self._quick: asyncpg.Pool[asyncpg.Record] | None = None
        """The clicks' lane (`QUICK_LANE`)."""
        self._lease: asyncpg.Connection[asyncpg.Record] | None = None
        """The session that holds the lease's advisory locks, kept apart from the pool."""
        self._listener: asyncpg.Connection[asyncpg.Record] | None = None

    @property
    def _cluster(self) -> tuple[tuple[int, ...], int] | None:
        """This process's shards and the shard count, in a cluster; None for a process that
        plays every shard."""
        if self.shards is None or self.shard_count is None:
            return None
        return self.shards, self.shard_count

    @property
    def lease_name(self) -> str:
        """The lease row of this process's shard set."""
        if self.shards is None:
            return LEASE
        return f"{LEASE} shards {','.join(map(str, self.shards))}"

    # connections --------------------------------------------------------------------------

    @property
    def pool(self) -> asyncpg.Pool[asyncpg.Record]:
        if self._pool is None:
            raise RuntimeError("Storage is not open.")
        return self._pool

    async def open(self) -> None:
        try:
            self._pool = await asyncpg.create_pool(
                self.url, min_size=1, max_size=self.pool_size, reset=_as_it_was
            )
            self._quick = await asyncpg.create_pool(
                self.url, min_size=1, max_size=QUICK_LANE, reset=_as_it_was
            )
        except FAILURES as exc:
            raise StorageError(f"cannot reach the PostgreSQL database: {exc}") from exc
        await self.migrate()
        await self._opened()

    async def close(self) -> None:
        if self._lease is not None:
            self._lease.terminate()
            self._lease = None
        if self._listener is not None:
            self.hears = False
            self._listener.terminate()
            self._listener = None
        if self._quick is not None:
            await self._quick.close()
            self._quick = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def migrate(self) -> int:
        """Apply the migrations this database has not seen, each in its own transaction,
        under an advisory lock: processes starting together wait for one another."""
        async with self.pool.acquire() as con:
            await con.execute("SELECT pg_advisory_lock($1, $2)", LOCKS, MIGRATING)
            try:
                await con.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                current = int(await con.fetchval(
                    "SELECT COALESCE(MAX(version), 0) FROM schema_version"))
                if current > len(MIGRATIONS):
                    raise SchemaTooNew(
                        f"The database has schema version {current}, but this bot knows only"
                        f" up to {len(MIGRATIONS)}: it was written by a newer release. Run"
                        " that release, or point DATABASE_URL at another database."
                    )
                for number, step in enumerate(MIGRATIONS[current:], start=current + 1):
                    async with con.transaction():
                        await con.execute(postgres(step))
                        await con.execute(
                            "INSERT INTO schema_version (version) VALUES ($1)", number)
            finally:
                await con.execute("SELECT pg_advisory_unlock($1, $2)", LOCKS, MIGRATING)
        return len(MIGRATIONS)

    async def listen(self, wake: Callable[[], None]) -> None:
        """LISTEN on a connection of its own (a pooled one must come back as it was).

        A commit's NOTIFY names the process that made it, which kicked its own sender and
        dispatcher already and delivers what it stored: its own is ignored, and so is one
        naming another shard than this process's (`_wake`: that shard's process sends and
        fires it first); another process's wake this one at once, then at most once per
        FOREIGN_WAKE (under load, dozens a second would each cost a look at the outbox and
        the timers, and find the letters claimed by the process that stored them). At once:
        a channel's letters that another process stored (a DM click reaches shard 0) are sent
        first by the channel's shard's process (`_sendable_at`), which learns of them here.
        A member's languages written anywhere move their `language_mark`; a table's row
        changed anywhere drops an older copy here, so a click shows the kept copy without a
        round trip (`recent_table`)."""
        loop = asyncio.get_running_loop()
        last = -FOREIGN_WAKE
        coming = False

        def rouse() -> None:
            nonlocal last, coming
            last, coming = loop.time(), False
            wake()

        def woken(payload: str) -> None:
            nonlocal coming
            writer, _, shard = payload.partition(" ")
            if writer == self.holder or coming:
                return
            if shard and self.shards is not None and int(shard) not in self.shards:
                return  # another process's shard: that one sends and fires it first
            coming = True
            loop.call_at(max(loop.time(), last + FOREIGN_WAKE), rouse)

        def language(payload: str) -> None:
            user_id, _, writer = payload.partition(" ")
            if writer != self.holder:  # its own writes were counted as they were stored
                self.language_written(int(user_id))

        def table(payload: str) -> None:
            table_id, version, writer = payload.split(" ", 2)
            if writer != self.holder:  # its own were kept as they were stored
                self._tables.heard(int(table_id), int(version))

        def deaf(_: object) -> None:
            self.hears = False

        try:
            self._listener = await asyncpg.connect(self.url)
            await self._listener.add_listener(WAKE, lambda *a: woken(str(a[-1])))
            await self._listener.add_listener(LANGUAGES, lambda *a: language(str(a[-1])))
            await self._listener.add_listener(TABLES, lambda *a: table(str(a[-1])))
        except FAILURES as exc:
            raise StorageError(f"cannot reach the PostgreSQL database: {exc}") from exc
        self._listener.add_termination_listener(deaf)
        self._tables.clear()  # what others wrote before this process heard of it
        self.hears = True

    async def _write_language(self, user_id: int, sql: str, args: tuple[Any, ...]) -> None:
        """The write and its NOTIFY (the member, and who wrote) in one statement, delivered
        at its commit."""
        await self._write(
            f"WITH written AS ({sql} RETURNING user_id)"
            f" SELECT pg_notify('{LANGUAGES}', user_id::text || ' ' || ?::text) FROM written",
            (*args, self.holder))
        self.language_written(user_id)

    @contextlib.asynccontextmanager
    async def _identify_lock(self, bucket: int) -> AsyncIterator[None]:
        """The bucket's advisory lock, on a pooled connection (unlocked before it goes
        back); a process that dies holding it releases it with its session."""
        async with self.pool.acquire() as con:
            await con.execute("SELECT pg_advisory_lock($1, $2)", IDENTIFY_LOCKS, bucket)
            try:
                yield
            finally:
                await con.execute("SELECT pg_advisory_unlock($1, $2)", IDENTIFY_LOCKS, bucket)

    async def _transaction(self, work: Callable[[Con], Awaitable[T]]) -> T:
        """One transaction on one pooled connection; a database error rolls it back whole
        and is a StorageError."""
        try:
            async with self.pool.acquire() as con, con.transaction():
                return await work(con)
        except FAILURES as exc:
            raise StorageError(f"the change was not stored: {exc}") from exc

    async def _write(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        try:
            await self.pool.execute(numbered(sql), *args)
        except FAILURES as exc:
            raise StorageError(f"the change was not stored: {exc}") from exc

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[asyncpg.Record]:
        """One read on a pooled connection; `?` placeholders, as the shared statements."""
        return await self.pool.fetch(numbered(sql), *args)

    async def _table_row(self, sql: str, args: tuple[Any, ...]) -> asyncpg.Record | None:
        """On the clicks' lane, never behind the outbox and the commits."""
        lane = self._quick if self._quick is not None else self.pool
        return await lane.fetchrow(numbered(sql), *args)

    # tables -------------------------------------------------------------------------------

    async def _new_table_id(self) -> int:
        """From the sequence, before the table's transaction, so that what it owes (its
        buttons carry the id) is rendered first; the same sequence for every process."""
        return int(await self._value("SELECT nextval('tables_id_seq')"))

    async def _insert_table(self, change: Change, now: float) -> tuple[int, ...]:
        created = change.table

        async def insert(con: Con) -> tuple[int, ...]:
            row = table_row(created, now)
            await con.execute(
                f"INSERT INTO tables ({', '.join(row)}) VALUES ({_marks(1, len(row))})",
                *row.values(),
            )
            ids = await _insert_letters(con, created.id, change.letters, now, self.holder)
            await _move_timers(con, created, change.timers)
            await _wake_others(con, self._wake(change))
            return ids

        try:
            return await self._transaction(insert)
        except StorageError as exc:
            if isinstance(exc.__cause__, asyncpg.UniqueViolationError):
                raise StaleVersion("A table is already open in this channel.") from exc
            raise

    async def _store_change(self, change: Change, columns: dict[str, Any], now: float
                            ) -> tuple[int, ...]:
        """The transaction first locks its table's row: a change of the same table in
        another process waits for this one, then finds the version moved."""
        new = change.table

        async def work(con: Con) -> tuple[int, ...]:
            version = await con.fetchval(
                "SELECT version FROM tables WHERE id = $1 FOR UPDATE", new.id)
            if change.read_at is not None and version != change.read_at:
                raise StaleVersion("This table changed in the meantime.")
            if change.expected is not None:
                if version != change.expected:
                    raise StaleVersion("This table changed in the meantime.")
                sets = ", ".join(f"{c} = ${i}" for i, c in enumerate(columns, start=2))
                await con.execute(
                    f"WITH changed AS (UPDATE tables SET {sets} WHERE id = $1"
                    " RETURNING id, version) SELECT pg_notify("
                    f"'{TABLES}', id || ' ' || version || ' ' || ${len(columns) + 2})"
                    " FROM changed", new.id, *columns.values(), self.holder)
            if change.log is not None:
                await _insert_log(con, new, change.log, now)
            ids = await _insert_letters(con, new.id, change.letters, now, self.holder)
            await _move_timers(con, new, change.timers)
            await _wake_others(con, self._wake(change))
            if change.winners is not None:
                await con.executemany(
                    "INSERT INTO results (guild_id, game, table_id, user_id, won, finished_at,"
                    " ai_level) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                    result_rows(new, change.winners, now),
                )
            if change.notes is not None:
                seat, notes = change.notes
                await con.execute(
                    "INSERT INTO seat_notes (table_id, seat, notes) VALUES ($1, $2, $3)"
                    " ON CONFLICT (table_id, seat) DO UPDATE SET notes = excluded.notes",
                    new.id, seat, json.dumps(notes),
                )
            return ids

        return await self._transaction(work)

    # the outbox ---------------------------------------------------------------------------

    async def _pending(self, now: float, limit: int, busy: Collection[str],
                       only: Collection[str] | None) -> list[asyncpg.Record]:
        """Without `only`, a destination another living process holds is left out: it sends
        those letters itself, and each look at the outbox would otherwise read them (their
        JSON parsed) only to find their claim taken."""
        args: tuple[Any, ...]
        if only is None:
            which, args = self._not_held_elsewhere(now)
        else:
            which, args = " AND o.dest = ANY(?::text[])", (list(only),)
        sendable, first = self._sendable_at()
        free, held = self._not_among("o.dest", busy)
        return await self._rows(
            f"SELECT o.id, o.table_id, o.dest, o.letter, o.tries, {sendable} AS next_at"
            " FROM outbox o LEFT JOIN tables t ON t.id = o.table_id"
            f" WHERE o.state = 'pending' AND {NOT_HELD}{free}{which}"
            f" ORDER BY {URGENT_FIRST} LIMIT ?",
            (*first, *held, *args, limit),
        )

    def _not_among(self, column: str, values: Collection[str]) -> tuple[str, tuple[Any, ...]]:
        return f" AND {column} <> ALL(?::text[])", (list(values),)

    def _sendable_at(self) -> tuple[str, tuple[Any, ...]]:
        """SQL: when this process may send letter `o` (of table `t`, joined LEFT), and its
        arguments: at once if it sends it best (`_sends_best`), else `HANDOVER` seconds
        after it was stored (its process dead, or deaf). Each letter's own process, not its
        destination's head's: a destination is still in one process's hands at a time, and
        a letter not yet sendable here holds back the rest of its destination."""
        if self._cluster is None:
            return super()._sendable_at()
        best, args = self._sends_best()
        return (f"(CASE WHEN {best} THEN o.next_at"
                f" ELSE GREATEST(o.next_at, o.created_at + {HANDOVER}) END)", args)

    def _sends_best(self) -> tuple[str, tuple[Any, ...]]:
        """SQL: in a cluster, this process sends letter `o` best: a channel's, if it plays
        its table's shard (`_fires_at`), which holds the tokens of the channel's
        interactions (`bot.message_tokens`: edits and posts through them are outside the
        global limit); an answer's or a DM's, if it stored it, or the process that did is
        gone. That one took the interaction: an answer's followups resolve its token there,
        and a click on a kept DM reaches shard 0, whose process stores the edit of that DM
        and holds the token that makes it. Sent by another process, a 2-process cluster
        made 1.7× one process's requests under the limit per interaction."""
        return (
            "(CASE WHEN o.dest LIKE 'c:%'"
            f" THEN COALESCE({self._mine('t.guild_id')}, TRUE)"
            f" ELSE o.made_by IS NULL OR o.made_by = ? OR {gone('o.made_by')} END)",
            (self.holder,),
        )

    async def postings_waiting(self, ids: Sequence[int]) -> tuple[int, int]:
        """One read for both counts (an answer that follows news asks it of every answer)."""
        if self._cluster is None or not ids:
            return await super().postings_waiting(ids)
        best, args = self._sends_best()
        row = await self._row(
            f"SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE NOT {best}) AS elsewhere"
            " FROM outbox o LEFT JOIN tables t ON t.id = o.table_id"
            " WHERE o.id = ANY(?::bigint[]) AND o.state = 'pending'",
            (*args, list(ids)))
        return (0, 0) if row is None else (int(row["n"]), int(row["elsewhere"]))

    def _not_held_elsewhere(self, now: float) -> tuple[str, tuple[Any, ...]]:
        return (" AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.dest = o.dest"
                f" AND c.holder <> ? AND c.expires >= ? AND NOT {gone('c.holder')})",
                (self.holder, now))

    async def _claim(self, dests: list[str], now: float) -> list[str]:
        """Claim what no other process holds of these destinations, in one statement (the
        sender claims at every look at the outbox): a new destination's row is made claimed,
        one already there is taken unless another process's claim is live, or another
        process is taking it right now (SKIP LOCKED: the two never wait for each other). A row
        made by another process meanwhile is left to it (ON CONFLICT DO NOTHING)."""
        try:
            rows = await self.pool.fetch(
                "WITH made AS (INSERT INTO claims (dest, holder, expires)"
                " SELECT unnest($3::text[]), $1, $2 ON CONFLICT DO NOTHING RETURNING dest),"
                " taken AS (UPDATE claims SET holder = $1, expires = $2 WHERE dest IN ("
                " SELECT dest FROM claims WHERE dest = ANY($3::text[])"
                f" AND (expires < $4 OR holder = $1 OR {gone('holder')})"
                " FOR UPDATE SKIP LOCKED) RETURNING dest)"
                " SELECT dest FROM made UNION ALL SELECT dest FROM taken",
                self.holder, now + CLAIM_SECONDS, dests, now,
            )
        except FAILURES as exc:
            raise StorageError(f"the change was not stored: {exc}") from exc
        return sorted(str(r["dest"]) for r in rows)

    async def posting_sent(self, posting: Posting, message_id: int | None) -> None:
        """Marked after its own send, in one statement with what the post becomes: the
        table's living message, or the message a slot's next letters edit (one statement is
        one transaction and one round trip: the outbox marks each letter it sends)."""
        letter, table_id = posting.letter, posting.table_id
        placed = table_id is not None and message_id is not None
        living = table_id if placed and letter.living else None
        try:
            await self.pool.execute(
                "WITH sent AS (UPDATE outbox SET state = 'sent', message_id = $1, done_at = $2"
                " WHERE id = $3), living AS (UPDATE tables SET message_id = $1 WHERE id = $4)"
                " INSERT INTO slots (table_id, dest, slot, message_id)"
                " SELECT $5, $6, $7, $1 WHERE $7::text IS NOT NULL"
                " ON CONFLICT (table_id, dest, slot)"
                " DO UPDATE SET message_id = excluded.message_id",
                message_id, time.time(), posting.id, living,
                table_id, letter.to, letter.slot if placed else None,
            )
        except BaseException as exc:
            if living is not None:
                self._tables.forget(living)
            if isinstance(exc, FAILURES):
                raise StorageError(f"the change was not stored: {exc}") from exc
            raise
        if living is not None:
            self._tables.message_stored(living, message_id)

    # timers -------------------------------------------------------------------------------

    def _fires_at(self) -> str:
        """SQL: when this process fires timer `t`: when it is due if its table's shard is
        this process's (`(guild_id >> 22) % shard_count`, Discord's routing), `HANDOVER`
        seconds later otherwise. The process that plays a table's shard has it in memory
        and takes its clicks: fired by another, half of a 2-process cluster's timers (an
        AI's move) cost that process a read and parse of the table, and the next click in
        the shard's process another (its copy was now stale). A timer whose shard's
        process is gone still fires, late by `HANDOVER`."""
        if self._cluster is None:
            return "t.due"
        return f"(CASE WHEN {self._mine('t.guild_id')} THEN t.due ELSE t.due + {HANDOVER} END)"

    def _wake(self, change: Change) -> str | None:
        """The NOTIFY that tells the other processes of what a change stores (None: none is
        sent, as it stores no letters or timers): this process's `holder`, and in a cluster
        the shard of the changed table's server. What it stores goes first from the process
        that plays that shard (a channel's letters, the timers) or from this one (answers
        and DMs: `_sends_best`), so only that shard's process looks (`listen`), and none is
        told when this process plays it."""
        if not (change.letters or change.timers.add):
            return None
        cluster = self._cluster
        if cluster is None:
            return self.holder
        shards, count = cluster
        shard = (change.table.guild_id >> 22) % count
        return None if shard in shards else f"{self.holder} {shard}"

    def _mine(self, guild_id: str) -> str:
        """SQL: the server in column `guild_id` is on one of this process's shards (Discord's
        routing, `(guild_id >> 22) % shard_count`)."""
        cluster = self._cluster
        assert cluster is not None
        shards, count = cluster
        return f"({guild_id} >> 22) % {int(count)} IN ({','.join(str(int(s)) for s in shards)})"

    async def due_timers(
        self, now: float, limit: int, running: Collection[int] = ()
    ) -> list[Timer]:
        """Due timers, earliest first, but for those `running` (in a handler's hands), those
        another process claims, and those of another shard until `HANDOVER` has passed
        (`_fires_at`): each is claimed here, so it fires in one process."""
        rows = await self._rows(
            "UPDATE timers SET claimed_until = ?, claimed_by = ? WHERE id IN ("
            " SELECT t.id FROM timers t JOIN tables b ON b.id = t.table_id"
            f" WHERE {self._fires_at()} <= ?"
            f" AND (t.claimed_until < ? OR t.claimed_by = ? OR {gone('t.claimed_by')})"
            " AND b.paused IS NULL AND t.id <> ALL(?::bigint[]) ORDER BY t.due, t.id LIMIT ?"
            " FOR UPDATE OF t SKIP LOCKED) RETURNING *",
            (now + TIMER_CLAIM_SECONDS, self.holder, now, now, self.holder, list(running),
             limit),
        )
        return sorted((timer_from_row(r) for r in rows), key=lambda t: (t.due, t.id))

    async def next_timer_due(self) -> float | None:
        """As SqlStorage's, another process's timer counted when its claim runs out, and
        another shard's when `HANDOVER` has passed."""
        fires = self._fires_at()
        row = await self._row(
            f"SELECT MIN(CASE WHEN t.claimed_by = ? OR {gone('t.claimed_by')} THEN {fires}"
            f" ELSE GREATEST({fires}, t.claimed_until) END) AS due FROM timers t"
            " JOIN tables b ON b.id = t.table_id WHERE b.paused IS NULL",
            (self.holder,),
        )
        return None if row is None or row["due"] is None else float(row["due"])

    # the lease ----------------------------------------------------------------------------

    async def acquire_lease(self, holder: str, ttl: float, now: float) -> str | None:
        """Take the lease's session advisory locks on a connection of their own, or renew
        them (the locks last as long as that connection: `expires` is only shown to others);
        the holder's name if another process has them. A lease whose connection was lost is
        lost: another process may have played meanwhile.

        Playing every shard, the lease is LEASE_LOCK alone; in a cluster, LEASE_LOCK shared
        with the other processes of the cluster and one lock per shard of this process's set:
        a second process for any of the same shards waits, one for other shards plays."""
        if self._lease is not None:
            try:
                await self._lease.execute(
                    "UPDATE lease SET expires = $1 WHERE name = $2", now + ttl,
                    self.lease_name)
            except Exception:  # any failure of its own session (asyncpg's protocol errors too)
                self._lease.terminate()
                self._lease = None
                return "nobody now: this process lost its database session, and its lease"
            return None
        try:
            con = await asyncpg.connect(self.url)
        except FAILURES as exc:
            raise StorageError(f"cannot reach the PostgreSQL database: {exc}") from exc
        if not await _lock_shards(con, self.shards):
            await con.close()  # the session ends: any lock it took goes with it
            return await self._lease_rival()
        await con.execute(
            "INSERT INTO lease (name, holder, expires) VALUES ($1, $2, $3)"
            " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,"
            " expires = excluded.expires",
            self.lease_name, holder, now + ttl,
        )
        self._lease = con
        self.holder = f"{LIVING_HOLDER}{await con.fetchval('SELECT pg_backend_pid()')}"
        return None

    async def _lease_rival(self) -> str:
        """Who holds what this process waits for, as far as the lease rows tell."""
        other = await self._value("SELECT holder FROM lease WHERE name = ?", (self.lease_name,))
        if other is not None:
            return str(other)
        if self.shards is None:
            return "a process of a shard cluster"
        return "another process for some of these shards, or one playing every shard"

    async def release_lease(self, holder: str) -> None:
        con, self._lease = self._lease, None
        if con is None:
            return
        try:
            await con.execute("DELETE FROM lease WHERE name = $1 AND holder = $2",
                              self.lease_name, holder)
            await con.close()  # the session ends: its advisory locks go with it
        except FAILURES:
            con.terminate()

    async def lease_holder(self) -> tuple[str, float] | None:
        """The holder, if a session holds the lock (a row left by a dead process is not)."""
        row = await self._row(
            "SELECT holder, expires FROM lease WHERE name = ? AND EXISTS ("
            " SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND classid = ? AND objid = ? AND objsubid = 2)",
            (self.lease_name, LOCKS, LEASE_LOCK),
        )
        return None if row is None else (str(row["holder"]), float(row["expires"]))

    async def take_lease_from(self, holder: str, dead: str, ttl: float, now: float) -> bool:
        """A dead process's lock went with its session: taking over is taking the lock."""
        return await self.acquire_lease(holder, ttl, now) is None

    # settings, notes, results -------------------------------------------------------------

    async def leaderboard(self, guild_id: int, limit: int = 10
                          ) -> list[tuple[int | str, int, int]]:
        """As SqliteStorage.leaderboard: most wins, then the best win rate, then the most
        games; members before AI levels on a full tie, as SQLite sorts numbers before text."""
        rows = await self._rows(
            "SELECT COALESCE('ai:' || ai_level, user_id::text) AS who, SUM(won) AS won,"
            " COUNT(*) AS played FROM results WHERE guild_id = ?"
            " GROUP BY who HAVING MIN(ai_level) IS NULL OR SUM(won) > 0"
            " ORDER BY SUM(won) DESC, SUM(won)::float8 / COUNT(*) DESC, COUNT(*) DESC,"
            " MIN(ai_level) IS NOT NULL, MIN(ai_level), MIN(user_id) LIMIT ?",
            (guild_id, limit),
        )
        return [(_who(r["who"]), int(r["won"] or 0), int(r["played"])) for r in rows]


# --- statements used inside a unit of work ------------------------------------------------


async def _wake_others(con: Con, wake: str | None) -> None:
    """Another process's sender or dispatcher looks again once this transaction commits
    (PostgreSQL delivers a NOTIFY at the commit, and never one of a rollback); `wake`: the
    payload (`PostgresStorage._wake`), None when no other process need look."""
    if wake is not None:
        await con.execute("SELECT pg_notify($1, $2)", WAKE, wake)


async def _insert_log(con: Con, table: Table, log: LogEntry, now: float) -> None:
    await con.execute(
        "INSERT INTO actions (table_id, version, actor, action, events, delivered, at)"
        " VALUES ($1, $2, $3, $4, $5, 1, $6)",
        table.id, table.version, log.actor, log.action, log.events, now,
    )


async def _insert_letters(
    con: Con, table_id: int, letters: Iterable[Letter], now: float, holder: str
) -> tuple[int, ...]:
    """Every letter in one statement, in order (ids from the sequence, row by row), named
    after the process that stores them (`holder`: `PostgresStorage._sendable_at`); a letter
    said `once` per table that is already stored is skipped."""
    letters = list(letters)
    if not letters:
        return ()
    rows = await con.fetch(
        "INSERT INTO outbox (table_id, dest, letter, once, created_at, made_by)"
        " SELECT $1, x.dest, x.letter, x.once, $5, $6"
        " FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY"
        " AS x(dest, letter, once, n) ORDER BY x.n"
        " ON CONFLICT (table_id, once) WHERE once IS NOT NULL DO NOTHING RETURNING id",
        table_id,
        [letter.to for letter in letters],
        [letter.model_dump_json() for letter in letters],
        [letter.once for letter in letters],
        now,
        holder,
    )
    return tuple(sorted(int(r["id"]) for r in rows))


async def _move_timers(con: Con, table: Table, plan: TimerPlan) -> None:
    if plan.delete:
        await con.execute("DELETE FROM timers WHERE id = ANY($1::bigint[])", list(plan.delete))
    if plan.seats_done:
        await con.execute(
            "DELETE FROM timers WHERE table_id = $1"
            " AND (payload::jsonb ->> 'seat')::int = ANY($2::int[])",
            table.id, list(plan.seats_done),
        )
    if plan.clear == "all":
        await con.execute("DELETE FROM timers WHERE table_id = $1", table.id)
    elif plan.clear:
        await con.execute(
            "DELETE FROM timers WHERE table_id = $1 AND kind = ANY($2::text[])",
            table.id, list(plan.clear),
        )
    if plan.add:
        await con.executemany(
            "INSERT INTO timers (guild_id, table_id, kind, due, payload)"
            " VALUES ($1, $2, $3, $4, $5)",
            [(table.guild_id, table.id, spec.kind, spec.due, timer_payload(spec))
             for spec in plan.add],
        )


async def _lock_shards(con: asyncpg.Connection[asyncpg.Record],
                       shards: tuple[int, ...] | None) -> bool:
    """Try the lease's locks on this session: all of them, or (False) none is kept."""
    if shards is None:
        return bool(await con.fetchval("SELECT pg_try_advisory_lock($1, $2)", LOCKS,
                                       LEASE_LOCK))
    taken = await con.fetchval(
        "SELECT pg_try_advisory_lock_shared($1, $2)"
        " AND (SELECT bool_and(pg_try_advisory_lock($3, s)) FROM unnest($4::int[]) s)",
        LOCKS, LEASE_LOCK, SHARD_LOCKS, list(shards))
    if not taken:
        await con.execute("SELECT pg_advisory_unlock_all()")
    return bool(taken)


def _loads(text: str | None) -> dict[str, Any]:
    return {} if text is None else dict(json.loads(text))


def _who(who: str) -> int | str:
    return who if who.startswith("ai:") else int(who)
