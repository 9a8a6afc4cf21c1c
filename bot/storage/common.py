"""What both backends do alike, written once: the memory of tables (`cache.py`) and of each
channel's open table, and the statements SQLite and PostgreSQL read the same way. They are
written with `?` placeholders; the PostgreSQL backend numbers them (`$1`, `$2`, …).

A backend supplies `_rows` (one read) and `_write` (one statement in a transaction of its
own), and everything that differs between the dialects: its transactions (a change, a new
table, the outbox marks), the JSON and array forms of its queries, and the lease.

A `shared` database (PostgreSQL) may have other processes writing to it: a cached table is
used only once its row is found at the same version, a channel's open table is read from the
row, each destination's letters are claimed before they are read for sending (one process at
a time sends them, in order), and timers are claimed before they fire. SQLite is one process
(its lease): none of that costs it anything.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import secrets
import socket
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.models import Posting, Table, Timer
from bot.storage.base import Change, Committed, LogEntry, Look
from bot.storage.cache import OpenTables, TableCache
from bot.storage.rows import (
    Row,
    changed_columns,
    due_heads,
    later_head,
    posting_from_row,
    table_from_row,
    timer_from_row,
)
from bot.storage.schema import KEEP_DONE_LETTERS, NOT_HELD

CLAIM_SECONDS = 10.0
"""How long a process's claim on a destination lasts unless renewed (the sender renews its
claims every third of it): a dead process's destinations pass to another after this."""
TIMER_CLAIM_SECONDS = 120.0
"""How long a claimed timer is left to its process: its handler deletes it when its change
is stored (an AI's move included); a dead process's timers fire elsewhere after this."""
CLOSED_DM_SECONDS = 600.0
"""How long a DM found closed (403, 50007) is not tried again: each try is an invalid
request, and 10,000 of those in 10 minutes ban the bot's IP for an hour. The member plays on
through `hand` meanwhile, and opening their DMs is noticed after this."""
POLL_SECONDS = 2.0
"""On a shared database, how often the sender and the timer dispatcher look again without a
wake-up (a NOTIFY lost with its connection)."""


class SqlStorage(ABC):
    shared = False
    """Whether other processes write to this database too (see the module's docstring)."""

    def __init__(self) -> None:
        self._tables = TableCache()
        self._open = OpenTables()
        self._salt: str | None = None
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process, as its claims name it."""
        self._closed: dict[int, float] = {}
        """Members whose DMs were found closed → until when they are not tried again."""
        self._closed_read = 0.0
        self._language_marks: dict[int, int] = {}
        """Member → how many times their languages row was written since this process began
        hearing of such writes (`language_mark`)."""
        self.hears = not self.shared
        """Whether every write of what this process keeps copies of (a table's row: `_tables`;
        a member's languages: `_language_marks`) reaches it: always on one process (its own
        writes), on a shared database while it listens."""

    @property
    def poll_every(self) -> float | None:
        """Seconds between looks at the outbox and the timers without a wake-up; None: the
        process's own commits are the only wake-ups there are."""
        return POLL_SECONDS if self.shared else None

    @abstractmethod
    async def listen(self, wake: Callable[[], None]) -> None:
        """Call `wake` when another process stores letters or timers."""

    @abstractmethod
    async def _pending(self, now: float, limit: int, busy: Collection[str],
                       only: Collection[str] | None) -> Sequence[Row]:
        """Pending letters not held, in `URGENT_FIRST` order, but for the `busy` destinations
        (and, on a shared database, those another process claims at `now`); with `only`, of
        those destinations alone."""

    @abstractmethod
    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> Sequence[Row]:
        """One read, its rows fetched whole; committed data only."""

    @abstractmethod
    async def _write(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        """One statement in a transaction of its own; a failure is a StorageError."""

    async def _row(self, sql: str, args: tuple[Any, ...] = ()) -> Row | None:
        rows = await self._rows(sql, args)
        return rows[0] if rows else None

    async def _table_row(self, sql: str, args: tuple[Any, ...]) -> Row | None:
        """One table's row (or its head), read by key for a member's click, which waits on
        it: a backend may give these reads a lane of their own."""
        return await self._row(sql, args)

    async def _value(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        """The first column of the first row, or None."""
        rows = await self._rows(sql, args)
        return rows[0][0] if rows else None

    async def _opened(self) -> None:
        """Once the schema is current: each channel's open table read, and the letters done
        with long ago pruned."""
        self._open.reset(await self._rows(
            "SELECT id, channel_id FROM tables WHERE status != 'over'"))
        await self._read_closed_dms(time.time())
        await self._write(
            "DELETE FROM outbox WHERE state != 'pending' AND done_at < ?",
            (time.time() - KEEP_DONE_LETTERS,),
        )

    @abstractmethod
    async def _new_table_id(self) -> int:
        """An id no table of this database has, or will be given by anyone else."""

    @abstractmethod
    async def _insert_table(self, change: Change, now: float) -> tuple[int, ...]:
        """A new table's row with its letters and timers, in one transaction; the letters'
        ids in order. StaleVersion if its channel has an open table."""

    @abstractmethod
    async def _store_change(self, change: Change, columns: dict[str, Any], now: float
                            ) -> tuple[int, ...]:
        """One change in one transaction: with `expected`, the version checked and `columns`
        of the table's row rewritten; the log line, letters, timers, results and notes. The
        letters' ids in order."""

    # tables -------------------------------------------------------------------------------

    async def create_table(self, table: Table, render: Callable[[Table], Change]) -> Committed:
        """A new table, with what it owes and the timers it arms rendered once its id is known
        (its buttons carry it); StaleVersion if the channel has an open table."""
        now = time.time()
        change = render(table.model_copy(update={"id": await self._new_table_id()}))
        ids = await self._insert_table(change, now)
        self._tables.stored(change.table, updated_at=now)
        self._open.place(change.table)
        return Committed(change.table, ids)

    async def commit(self, change: Change) -> Committed:
        new, now = change.table, time.time()
        # the status is set only when it changes: setting it rewrites the two indexes that
        # name it, two of the pages a transaction writes (`bench.side`)
        columns = changed_columns(new, now, status=self._tables.status_may_change(change))
        try:
            ids = await self._store_change(change, columns, now)
        except BaseException:
            self._tables.forget(new.id)
            raise
        if change.expected is not None:  # letters alone leave the row, and its copy, as they are
            self._open.place(new)
            self._tables.committed(new, now)
        return Committed(new, ids)

    async def table(self, table_id: int) -> Table | None:
        cached = self._tables.get(table_id)
        if cached is not None:
            if not self.shared:
                return cached
            stamp = self._tables.stamp(table_id)
            head = await self._table_row(
                "SELECT version, message_id FROM tables WHERE id = ?", (table_id,))
            current = self._checked(cached, head, stamp)
            if current is not None:
                return current
        return await self._read_table(table_id)

    async def recent_table(self, table_id: int) -> Table | None:
        """What a click shows before it acts: the copy kept here when every other process's
        change of the table is heard of (on one process, always), without a round trip to
        the database; else `table`. It may be older than the row by a commit not yet heard
        of (a millisecond) and its living message may be behind: a change is checked against
        the row itself, under its lock, when it is stored."""
        if self.hears:
            cached = self._tables.get(table_id)
            if cached is not None:
                return cached
        return await self.table(table_id)

    async def _read_table(self, table_id: int) -> Table | None:
        stamp = self._tables.stamp(table_id)
        row = await self._table_row("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            return None
        table = table_from_row(row)
        self._tables.fill(table, stamp)
        return table

    def _checked(self, cached: Table, head: Row | None, stamp: int | None) -> Table | None:
        """The cached table if its row (`head`: its `version` and `message_id`, read after
        `stamp` was taken; None: not taken) is still at its version (another process may have
        changed it), with the living message the row names (another process's sender may have
        moved it without a new version); None if the row is newer."""
        if head is None or head["version"] > cached.version:
            self._tables.forget(cached.id)
            return None
        if head["version"] < cached.version:  # read as a commit of this process landed
            return cached
        if head["message_id"] != cached.message_id:
            if self._tables.stamp(cached.id) == stamp:
                self._tables.message_stored(cached.id, head["message_id"])
            return cached.model_copy(update={"message_id": head["message_id"]})
        return cached

    async def open_table(self, channel_id: int) -> Table | None:
        known = self._open.get(channel_id)
        if not self.shared:
            return None if known is None else await self.table(known)
        # another process may have opened or closed it: the row's id and version in one read
        stamp = None if known is None else self._tables.stamp(known)
        head = await self._table_row(
            "SELECT id, version, message_id FROM tables WHERE channel_id = ?"
            " AND status != 'over'", (channel_id,))
        if head is None:
            return None
        table_id = int(head["id"])
        cached = self._tables.get(table_id)
        if cached is not None:
            current = self._checked(cached, head, stamp if table_id == known else None)
            if current is not None:
                return current
        return await self._read_table(table_id)

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
        self, guild_id: int, *, user_id: int | None = None,
        visible: Collection[int] | None = None, viewer: int | None = None, limit: int = 10,
        offset: int = 0,
    ) -> list[Table]:
        """This server's games that were played and are over, newest first; with `user_id`,
        only those that member had a seat at (their results row); with `visible`, only
        those in these channels and those the `viewer` had a seat at."""
        mine, args = _played_by(user_id)
        seen, seen_args = _seen_by(visible, viewer)
        rows = await self._rows(
            f"SELECT * FROM tables WHERE guild_id = ? AND status = 'over' AND state IS NOT NULL"
            f"{mine}{seen} ORDER BY id DESC LIMIT ? OFFSET ?",
            (guild_id, *args, *seen_args, limit, offset),
        )
        return [table_from_row(r) for r in rows]

    async def finished_count(self, guild_id: int, *, user_id: int | None = None,
                             visible: Collection[int] | None = None, viewer: int | None = None
                             ) -> int:
        mine, args = _played_by(user_id)
        seen, seen_args = _seen_by(visible, viewer)
        row = await self._row(
            f"SELECT COUNT(*) AS n FROM tables WHERE guild_id = ? AND status = 'over'"
            f" AND state IS NOT NULL{mine}{seen}",
            (guild_id, *args, *seen_args),
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

    async def look(self, now: float, limit: int, busy: Collection[str] = ()) -> Look:
        """Pending letters due now (answers, then DMs, then channels: `URGENT_FIRST`), each
        behind every earlier letter to its destination (one waiting for a retry holds back
        the rest); a paused table's channel letters wait. Letters to the `busy` destinations
        (the sender's workers have them in hand) are left out unread: under load the backlog
        is read again at every wake-up. The same read says when the next head falls due, as
        `next_posting_at` would, if it held every pending letter: that query was half of the
        outbox's (`bench.cluster`: 2 a member interaction).

        On a shared database only the destinations this process claims: their letters are
        read again once claimed, so that none another process sent and marked meanwhile is
        handed out a second time."""
        rows = await self._pending(now, limit, busy, None)
        postings = due_heads(rows, now)
        found = Look(postings, later_head(rows, now), whole=len(rows) < limit)
        if not self.shared or not postings:
            return found
        claimed = await self._claim(sorted({p.letter.to for p in postings}), now)
        postings = due_heads(await self._pending(now, limit, (), claimed), now) if claimed else []
        return dataclasses.replace(found, postings=postings)

    async def due_postings(
        self, now: float, limit: int, busy: Collection[str] = ()
    ) -> list[Posting]:
        """The letters of a `look` (`Sender.flush`, and tests)."""
        return (await self.look(now, limit, busy)).postings

    async def _claim(self, dests: list[str], now: float) -> list[str]:
        """The destinations this process now claims of `dests` (a shared backend)."""
        return dests

    def _sendable_at(self) -> tuple[str, tuple[Any, ...]]:
        """SQL: when this process may send letter `o` (of table `t`, joined LEFT), and its
        arguments: when it is due, unless another process of a cluster sends it best."""
        return "o.next_at", ()

    @abstractmethod
    def _not_among(self, column: str, values: Collection[str]) -> tuple[str, tuple[Any, ...]]:
        """An SQL condition (` AND …`): `column` holds none of `values`; and its arguments."""

    def _not_held_elsewhere(self, now: float) -> tuple[str, tuple[Any, ...]]:
        """An SQL condition (` AND …` on `o`, the outbox) leaving out the destinations
        another living process claims at `now`, and its arguments; none on one process."""
        return "", ()

    async def release_destination(self, dest: str) -> bool:
        """The sender is done with a destination for now: another process may claim it. True
        if letters to it are pending still (stored while it was in hand, or put off): only
        then must the sender look at the outbox again, since every other destination was
        looked at with or after its last change (`bench.cluster`: a look at each worker's
        end, most of them finding nothing, made two thirds of the looks)."""
        pending = "SELECT EXISTS (SELECT 1 FROM outbox WHERE state = 'pending' AND dest = ?)"
        if not self.shared:
            return bool(await self._value(pending, (dest,)))
        return bool(await self._value(
            "WITH released AS (UPDATE claims SET expires = 0 WHERE dest = ? AND holder = ?)"
            f" {pending}", (dest, self.holder, dest)))

    async def renew_claims(self, now: float) -> None:
        """Keep this process's live claims (the destinations its sender works on)."""
        if self.shared:
            await self._write(
                "UPDATE claims SET expires = ? WHERE holder = ? AND expires >= ?",
                (now + CLAIM_SECONDS, self.holder, now),
            )

    async def identify_turn(self, bucket: int, spacing: float) -> None:
        """Wait until this IDENTIFY bucket's last IDENTIFY (by any process) is `spacing`
        seconds old, and take the turn: under the bucket's lock, its last turn is read from
        `meta`, waited out, and written (a process killed meanwhile leaves it written)."""
        key = f"identify {bucket}"
        async with self._identify_lock(bucket):
            last = await self._value("SELECT value FROM meta WHERE key = ?", (key,))
            wait = 0.0 if last is None else float(last) + spacing - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
            await self._write(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, repr(time.time())))

    @abstractmethod
    def _identify_lock(self, bucket: int) -> AbstractAsyncContextManager[None]:
        """Held by one process's shard of this IDENTIFY bucket at a time."""

    async def dm_closed(self, user_id: int, now: float) -> bool:
        """Whether this member's DMs were found closed lately (by any process)."""
        if self.shared and now - self._closed_read >= POLL_SECONDS:
            await self._read_closed_dms(now)
        return self._closed.get(user_id, 0.0) > now

    async def remember_closed_dm(self, user_id: int, now: float) -> None:
        until = now + CLOSED_DM_SECONDS
        self._closed[user_id] = until
        await self._write(
            "INSERT INTO closed_dms (user_id, expires) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET expires = excluded.expires",
            (user_id, until),
        )

    async def dm_channel(self, user_id: int) -> int | None:
        """The member's DM channel, if some process opened it before."""
        row = await self._row("SELECT channel_id FROM dm_channels WHERE user_id = ?",
                              (user_id,))
        return None if row is None else int(row["channel_id"])

    async def remember_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self._write(
            "INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
            (user_id, channel_id),
        )

    async def _read_closed_dms(self, now: float) -> None:
        self._closed_read = now
        self._closed = {int(r["user_id"]): float(r["expires"]) for r in await self._rows(
            "SELECT user_id, expires FROM closed_dms WHERE expires > ?", (now,))}

    async def next_posting_at(self, busy: Collection[str] = ()) -> float | None:
        """When the earliest letter at the head of its destination is due, or may be sent
        here (`_sendable_at`), but for the `busy` destinations and those another process
        holds: their holder sends them and looks again when it is done, and counted here
        they would wake this one again and again until they are sent (`bench.cluster`: 87%
        of the answers were due already, the heads of destinations in this process's own
        workers' hands, and the sender looked again every 0.1 s)."""
        sendable, first = self._sendable_at()
        elsewhere, args = self._not_held_elsewhere(time.time())
        free, held = self._not_among("o.dest", busy)
        row = await self._row(
            f"SELECT MIN({sendable}) AS at FROM outbox o"
            " JOIN (SELECT MIN(id) AS id FROM outbox WHERE state = 'pending' GROUP BY dest) h"
            " ON h.id = o.id LEFT JOIN tables t ON t.id = o.table_id"
            f" WHERE {NOT_HELD}{elsewhere}{free}", (*first, *args, *held)
        )
        return None if row is None or row["at"] is None else float(row["at"])

    async def posting_tried(self, posting: Posting) -> None:
        """A try begins that Discord cannot deduplicate (a followup has no nonce): counted
        first, so that a restart after it knows to look before sending again."""
        await self._write("UPDATE outbox SET tries = tries + 1 WHERE id = ?", (posting.id,))

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
        if cached is not None and not self.shared:
            return cached.message_id
        found = await self._value("SELECT message_id FROM tables WHERE id = ?", (table_id,))
        return None if found is None else int(found)

    async def slot_message(self, table_id: int, dest: str, slot: str) -> int | None:
        row = await self._row(
            "SELECT message_id FROM slots WHERE table_id = ? AND dest = ? AND slot = ?",
            (table_id, dest, slot),
        )
        return None if row is None else int(row["message_id"])

    async def pending_after(self, posting: Posting, limit: int) -> list[Posting]:
        """The letters stored after this one for its destination and still pending, in order:
        a newer edit of the message it edits replaces it (`Sender._newest`)."""
        rows = await self._rows(
            "SELECT id, table_id, letter, tries FROM outbox"
            " WHERE state = 'pending' AND dest = ? AND id > ? ORDER BY id LIMIT ?",
            (posting.letter.to, posting.id, limit),
        )
        return [posting_from_row(r) for r in rows]

    async def postings_pending(self, ids: Sequence[int]) -> int:
        if not ids:
            return 0
        marks = ",".join("?" * len(ids))
        row = await self._row(
            f"SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending' AND id IN ({marks})",
            tuple(ids),
        )
        return int(row["n"]) if row else 0

    async def postings_waiting(self, ids: Sequence[int]) -> tuple[int, int]:
        """How many of these letters are pending, and how many of those another process of a
        cluster sends first (`_sendable_at`: none on one process)."""
        return await self.postings_pending(ids), 0

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

    async def timers(self, table_id: int) -> list[Timer]:
        rows = await self._rows(
            "SELECT * FROM timers WHERE table_id = ? ORDER BY due, id", (table_id,)
        )
        return [timer_from_row(r) for r in rows]

    async def retry_timer(self, timer_id: int, due: float) -> None:
        await self._write(
            "UPDATE timers SET due = ?, attempts = attempts + 1, claimed_until = 0 WHERE id = ?",
            (due, timer_id),
        )

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

    async def member_language(self, user_id: int) -> tuple[str | None, str | None]:
        """(the locale of their latest interaction, the language they chose), None if unknown."""
        row = await self._row(
            "SELECT seen, chosen FROM member_languages WHERE user_id = ?", (user_id,)
        )
        return (row["seen"], row["chosen"]) if row else (None, None)

    async def set_seen_locale(self, user_id: int, locale: str) -> None:
        await self._write_language(
            user_id,
            "INSERT INTO member_languages (user_id, seen) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET seen = excluded.seen",
            (user_id, locale),
        )

    async def set_chosen_language(self, user_id: int, language: str | None) -> None:
        await self._write_language(
            user_id,
            "INSERT INTO member_languages (user_id, chosen) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET chosen = excluded.chosen",
            (user_id, language),
        )

    async def _write_language(self, user_id: int, sql: str, args: tuple[Any, ...]) -> None:
        """A write of a member's languages row; a shared backend also tells the others."""
        await self._write(sql, args)
        self.language_written(user_id)

    def language_written(self, user_id: int) -> None:
        """A member's languages row was written (here, or by another process)."""
        self._language_marks[user_id] = self._language_marks.get(user_id, 0) + 1

    def language_mark(self, user_id: int) -> int | None:
        """A count that moves whenever this member's languages row is written, by any
        process: what was read under the same mark is still true. None when writes of other
        processes are not heard of (a shared database not listening)."""
        if not self.hears:
            return None
        return self._language_marks.get(user_id, 0)

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
        return {r["game"]: (int(r["played"]), int(r["won"] or 0)) for r in rows}


PLAYED = "id IN (SELECT table_id FROM results WHERE user_id = ?)"
"""The SQL condition of the games a member (the argument) had a seat at."""


def _played_by(user_id: int | None) -> tuple[str, tuple[int, ...]]:
    """The SQL condition (and its argument) keeping the games a member had a seat at."""
    if user_id is None:
        return "", ()
    return f" AND {PLAYED}", (user_id,)


def _seen_by(visible: Collection[int] | None, viewer: int | None
             ) -> tuple[str, tuple[int, ...]]:
    """The SQL condition (and its arguments) keeping the games in channels a member views
    (`visible`; None: every game) and those the member (`viewer`) had a seat at."""
    if visible is None:
        return "", ()
    either, args = [], []
    if visible:
        either.append(f"channel_id IN ({', '.join('?' * len(visible))})")
        args += sorted(visible)
    if viewer is not None:
        either.append(PLAYED)
        args.append(viewer)
    return f" AND ({' OR '.join(either) or 'FALSE'})", tuple(args)
