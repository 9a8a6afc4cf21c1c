"""The storage layer on its own: migrations, the unit of work, StaleVersion, the outbox,
timers, the lease, and the durability settings."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import cast

import asyncpg
import pytest

from bot.messages import Outgoing
from bot.models import Letter, TimerKind, TimerSpec
from bot.storage import (
    Change,
    LogEntry,
    SchemaTooNew,
    SqliteStorage,
    StaleVersion,
    Storage,
    StorageError,
    TimerPlan,
)
from bot.storage.common import SqlStorage
from bot.storage.postgres import PostgresStorage
from bot.storage.rows import Row
from bot.storage.schema import MIGRATIONS, postgres
from tests.shell.conftest import BACKENDS, lobby


@pytest.fixture
async def second(storage: Storage) -> AsyncIterator[Storage]:
    """Another process's storage on the same database as `storage`."""
    other: Storage = (SqliteStorage(storage.path) if isinstance(storage, SqliteStorage)
                      else PostgresStorage(cast(PostgresStorage, storage).url))
    await other.open()
    yield other
    await other.close()


def post(text: str, channel: int = 10) -> Letter:
    return Letter.post(channel, Outgoing(content=text))


def timer(kind: TimerKind, seat: int, key: str = "k", due: float | None = None) -> TimerSpec:
    return TimerSpec(kind=kind, seat=seat, key=key, due=time.time() - 1 if due is None else due)


@pytest.mark.parametrize("storage", ["sqlite"], indirect=True)
async def test_a_new_database_has_every_migration_and_durable_pragmas(
    storage: SqliteStorage,
) -> None:
    def writer_pragmas(con: sqlite3.Connection) -> list[object]:
        return [con.execute(f"PRAGMA {name}").fetchone()[0]
                for name in ("user_version", "synchronous", "journal_mode", "busy_timeout")]

    assert await storage._on_writer(writer_pragmas) == [len(MIGRATIONS), 2, "wal", 5000]
    db = storage._reader
    assert db is not None

    async def reader_pragma(name: str) -> object:
        async with db.execute(f"PRAGMA {name}") as cur:
            row = await cur.fetchone()
        assert row is not None, name
        return row[0]

    assert await reader_pragma("user_version") == len(MIGRATIONS)
    assert await reader_pragma("synchronous") == 2  # FULL
    assert await reader_pragma("journal_mode") == "wal"
    assert await reader_pragma("busy_timeout") == 5000


OLD_ROWS = (
    "INSERT INTO tables (guild_id, channel_id, game, status, host_id, options, seats,"
    " created_at, updated_at) VALUES (1, 10, '13clues', 'lobby', 100, '{}', '[]', 0, 0)",
    "INSERT INTO timers (guild_id, table_id, kind, due) VALUES (1, 1, 'ai', 0)",
)
"""A lobby and its timer, as a version-1 database holds them."""


async def version_1_database(backend: str, request: pytest.FixtureRequest, tmp_path: Path
                             ) -> Storage:
    """A storage, not yet open, on a database left at schema version 1 with `OLD_ROWS`."""
    if backend == "sqlite":
        path = tmp_path / "old.sqlite3"
        con = sqlite3.connect(path)
        con.executescript(f"BEGIN; {MIGRATIONS[0]}; PRAGMA user_version = 1;"
                          f" {'; '.join(OLD_ROWS)}; COMMIT;")
        con.close()
        return SqliteStorage(path)
    url = await request.getfixturevalue("postgres_server").fresh_database()
    pg = await asyncpg.connect(url)
    await pg.execute(f"{postgres(MIGRATIONS[0])}; CREATE TABLE schema_version (version INTEGER"
                     f" NOT NULL); INSERT INTO schema_version VALUES (1); {'; '.join(OLD_ROWS)}")
    await pg.close()
    return PostgresStorage(url)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_version_1_database_is_upgraded_in_place(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store = await version_1_database(backend, request, tmp_path)
    await store.open()
    try:
        table = await store.table(1)
        assert table is not None and table.channel_id == 10 and table.paused is None
        [old] = await store.timers(1)
        assert old.kind == "ai" and old.attempts == 0
        assert await store.nonce_salt()
        # table ids go on after the rows already there
        created = await store.create_table(lobby(11), lambda t: Change(t))
        assert created.table.id == 2
    finally:
        await store.close()


async def test_a_database_from_a_newer_release_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    con.close()
    store = SqliteStorage(path)
    with pytest.raises(SchemaTooNew, match="newer release"):
        await store.open()
    await store.close()


async def test_one_open_table_per_channel(storage: SqliteStorage) -> None:
    await storage.create_table(lobby(), lambda t: Change(t, letters=[post("lobby")]))
    with pytest.raises(StaleVersion):
        await storage.create_table(lobby(), lambda t: Change(t, letters=[post("again")]))
    assert len(await storage.due_postings(time.time(), 10)) == 1


async def test_a_change_is_stored_whole_or_not_at_all(storage: SqliteStorage) -> None:
    created = (await storage.create_table(lobby(), lambda t: Change(t))).table
    after = created.model_copy(update={"status": "playing", "state": "{}", "version": 1})
    change = Change(
        after, expected=0, log=LogEntry("u100", "start", "[]"),
        letters=[post("one"), post("two")], timers=TimerPlan(add=(timer("ai", 1),)),
    )
    committed = await storage.commit(change)
    assert committed.table.version == 1 and len(committed.letters) == 2
    # the same change again: the version moved on, so nothing of it is stored
    with pytest.raises(StaleVersion):
        await storage.commit(change)
    assert len(await storage.due_postings(time.time(), 10)) == 2
    assert len(await storage.timers(created.id)) == 1
    # a failure inside the unit of work (a duplicate log row) rolls everything back
    clash = Change(after.model_copy(update={"version": 2}), expected=1,
                   log=LogEntry("u100", "x", "[]"), letters=[post("three")],
                   timers=TimerPlan(clear="all"))
    await storage.commit(clash)
    broken = Change(after.model_copy(update={"version": 2}), expected=2,
                    log=LogEntry("u100", "y", "[]"), letters=[post("four")])
    with pytest.raises(StorageError, match="not stored"):
        await storage.commit(broken)
    texts = [p.letter.body.content for p in await storage.due_postings(time.time(), 10)]
    assert texts == ["one", "two", "three"]


@pytest.mark.parametrize("storage", ["sqlite"], indirect=True)
async def test_uncommitted_letters_are_invisible_to_the_sender(storage: SqliteStorage) -> None:
    created = (await storage.create_table(lobby(), lambda t: Change(t))).table

    def begin(con: sqlite3.Connection) -> None:
        con.execute("BEGIN IMMEDIATE")
        con.execute(
            "INSERT INTO outbox (table_id, dest, letter, created_at) VALUES (?, 'c:10', ?, 0)",
            (created.id, post("pending").model_dump_json()),
        )

    await storage._on_writer(begin)
    assert await storage.due_postings(time.time(), 10) == []
    await storage._on_writer(lambda con: con.execute("ROLLBACK"))
    assert await storage.due_postings(time.time(), 10) == []


async def test_the_next_letter_due_leaves_out_the_destinations_in_hand(
    storage: SqliteStorage,
) -> None:
    """A destination a worker is sending to needs no wake-up: the worker looks again when it
    is done. Counted, its due head made the sender look ten times a second for nothing."""
    await storage.create_table(lobby(), lambda t: Change(t, letters=[
        post("now"), Letter.dm(7, Outgoing(content="dm"))]))
    dm, _ = await storage.due_postings(time.time(), 10)
    later = time.time() + 60
    await storage.posting_retry(dm, later)
    due = await storage.next_posting_at()
    assert due is not None and due <= time.time()
    assert await storage.next_posting_at(busy=["c:10"]) == pytest.approx(later)
    assert await storage.next_posting_at(busy=["c:10", "u:7"]) is None


async def test_a_look_says_when_the_next_head_falls_due(storage: SqliteStorage) -> None:
    """The sender's look reads every pending letter but for the destinations in hand: when it
    read them all, it says when the next head it did not hand out falls due, as
    `next_posting_at` would, and the sender asks no more (half of the outbox's queries)."""
    await storage.create_table(lobby(), lambda t: Change(t, letters=[
        post("first"), post("second"), Letter.dm(7, Outgoing(content="seven")),
        Letter.dm(8, Outgoing(content="eight"))]))
    seven, eight, first, _ = await storage.due_postings(time.time(), 10)
    soon, later = time.time() + 60, time.time() + 90
    await storage.posting_retry(seven, soon)
    await storage.posting_retry(first, later)  # and the channel's second letter waits for it
    look = await storage.look(time.time(), 10)
    assert [p.id for p in look.postings] == [eight.id] and look.whole
    assert look.later == pytest.approx(soon)
    assert look.later == await storage.next_posting_at(busy=["u:8"])
    look = await storage.look(time.time(), 10, busy=["u:7"])
    assert look.later == pytest.approx(later) and look.whole
    assert not (await storage.look(time.time(), 2)).whole  # more pending than read
    look = await storage.look(time.time() + 120, 10)
    assert len(look.postings) == 4 and look.later is None and look.whole


async def test_the_outbox_marks_retries_fails_and_holds(storage: SqliteStorage) -> None:
    created = (await storage.create_table(
        lobby(), lambda t: Change(t, letters=[
            Letter.post(10, Outgoing(content="table"), living=True),
            Letter.dm(7, Outgoing(content="dm")), post("later")])
    )).table
    # DMs are read before channel letters (`URGENT_FIRST`); each destination's in order
    dm, first, later = await storage.due_postings(time.time(), 10)
    assert (dm.letter.to, first.letter.body.content, later.letter.body.content) == (
        "u:7", "table", "later")
    await storage.posting_sent(first, 555)
    assert await storage.living_message(created.id) == 555
    await storage.posting_retry(dm, time.time() + 60)
    due = await storage.due_postings(time.time(), 10)
    assert [p.id for p in due] == [later.id]
    assert (await storage.next_posting_at() or 0) <= time.time()
    await storage.posting_failed(later, "forbidden: 50013")
    assert await storage.due_postings(time.time(), 10) == []
    assert (await storage.due_postings(time.time() + 61, 10))[0].tries == 1
    # a paused table's channel letters wait; its DMs do not
    paused = created.model_copy(update={"paused": "no permission", "version": 1})
    await storage.commit(Change(paused, expected=0, letters=[post("held"), Letter.dm(8, Outgoing(
        content="told"))]))
    due = await storage.due_postings(time.time() + 61, 10)
    assert [p.letter.body.content for p in due] == ["dm", "told"]
    assert await storage.postings_pending([p.id for p in due]) == 2


async def test_answers_then_dms_are_read_first_from_a_backlog(storage: SqliteStorage) -> None:
    """Under a backlog longer than one read, the sender sees the answers to interactions and
    the DMs first: read in id order, an answer waited behind minutes of table edits."""
    await storage.create_table(lobby(), lambda t: Change(t, letters=[
        *(post(f"edit {i}") for i in range(5)), Letter.dm(7, Outgoing(content="dm")),
        Letter.reply(3, "token", Outgoing(content="answer"))]))
    due = await storage.due_postings(time.time(), 2)
    assert [p.letter.body.content for p in due] == ["answer", "dm"]
    due = await storage.due_postings(time.time(), 10)
    assert [p.letter.body.content for p in due][2:] == [f"edit {i}" for i in range(5)]


async def test_a_notice_said_once_per_table(storage: SqliteStorage) -> None:
    created = (await storage.create_table(lobby(), lambda t: Change(t))).table
    notice = Letter(to="c:10", op="send", once="dm:7", body=Outgoing(content="closed"))
    first = await storage.commit(Change(created, letters=[notice]))
    second = await storage.commit(Change(created, letters=[notice, post("other")]))
    assert len(first.letters) == 1 and len(second.letters) == 1
    assert len(await storage.due_postings(time.time(), 10)) == 2


async def test_letters_alone_never_put_an_older_table_back(storage: SqliteStorage) -> None:
    """A notice stored with a copy of the table read before a change (the closed-DM notice of
    an outbox failure) leaves the stored table, and the copy kept in memory, as they are: an
    older copy read back would refuse the member's next click as stale."""
    old = (await storage.create_table(lobby(), lambda t: Change(t))).table
    await storage.table(old.id)  # kept in memory
    newer = (await storage.commit(Change(old.model_copy(update={"version": old.version + 1}),
                                         expected=old.version))).table
    await storage.commit(Change(old, letters=[post("could not DM")]))
    seen = await storage.table(newer.id)
    assert seen is not None and seen.version == newer.version


async def test_timers_move_with_the_change(storage: SqliteStorage) -> None:
    created = (await storage.create_table(lobby(), lambda t: Change(t))).table
    await storage.commit(Change(created, timers=TimerPlan(add=(
        timer("ai", 1), timer("remind", 0), timer("idle", 0), timer("idle", 2),
    ))))
    assert len(await storage.due_timers(time.time(), 10)) == 4
    await storage.commit(Change(created, timers=TimerPlan(seats_done=(0,))))
    assert sorted((t.kind, t.seat) for t in await storage.timers(created.id)) == [
        ("ai", 1), ("idle", 2)]
    ai = next(t for t in await storage.timers(created.id) if t.kind == "ai")
    await storage.retry_timer(ai.id, time.time() + 30)
    assert [t.kind for t in await storage.due_timers(time.time(), 10)] == ["idle"]
    retried = next(t for t in await storage.timers(created.id) if t.kind == "ai")
    assert retried.attempts == 1
    await storage.commit(Change(created, timers=TimerPlan(clear=("idle",))))
    assert [t.kind for t in await storage.timers(created.id)] == ["ai"]
    # a paused table's timers do not fire
    paused = created.model_copy(update={"paused": "gone", "version": 1})
    await storage.commit(Change(paused, expected=0))
    assert await storage.due_timers(time.time() + 60, 10) == []
    assert await storage.next_timer_due() is None


async def test_the_lease_keeps_a_second_process_out(
    storage: Storage, second: Storage
) -> None:
    """Two processes on one database (two storages): the second is kept out and told who
    holds it, and comes in once the first releases it."""
    now = time.time()
    assert await storage.acquire_lease("a", 30, now) is None
    assert await second.acquire_lease("b", 30, now + 1) == "a"
    assert await storage.acquire_lease("a", 30, now + 10) is None  # renewed
    assert (await second.lease_holder() or ("",))[0] == "a"
    await second.release_lease("b")  # not the holder: nothing happens
    assert await second.acquire_lease("b", 30, now + 11) == "a"
    await storage.release_lease("a")
    assert await storage.lease_holder() is None
    assert await second.acquire_lease("b", 30, now + 12) is None
    assert await storage.acquire_lease("a", 30, now + 13) == "b"


@pytest.mark.parametrize("storage", ["sqlite"], indirect=True)
async def test_an_sqlite_lease_not_renewed_expires(storage: SqliteStorage) -> None:
    now = time.time()
    assert await storage.acquire_lease("a", 30, now) is None
    assert await storage.acquire_lease("a", 30, now + 10) is None  # renewed
    assert await storage.acquire_lease("b", 30, now + 35) == "a"
    assert await storage.acquire_lease("b", 30, now + 41) is None  # expired: taken
    assert await storage.take_lease_from("c", "a", 30, now + 42) is False
    assert await storage.take_lease_from("c", "b", 30, now + 42) is True
    assert (await storage.lease_holder() or ("",))[0] == "c"



async def test_a_read_never_sees_an_older_table_than_the_last_commit(
    storage: SqliteStorage,
) -> None:
    """Reads share one connection: reads overlapping without pause (as under load) must not
    keep one read transaction open, which would show every later read the database as it
    was when the first of them began (a table one version old, then a StaleVersion)."""
    import asyncio

    table = (await storage.create_table(lobby(), lambda t: Change(t))).table
    await storage.commit(Change(table, letters=[post(f"letter {i}") for i in range(50)]))
    done = False

    async def reader() -> None:
        while not done:
            await storage.table(table.id)
            await storage.due_postings(time.time(), 10)

    readers = [asyncio.create_task(reader()) for _ in range(8)]
    stale = 0
    try:
        for _ in range(30):
            after = table.model_copy(update={"version": table.version + 1})
            table = (await storage.commit(Change(after, expected=table.version))).table
            seen = await storage.table(table.id)
            assert seen is not None
            stale += seen.version != table.version
    finally:
        done = True
        await asyncio.gather(*readers)
    assert stale == 0


async def test_letters_to_busy_destinations_are_left_out(storage: SqliteStorage) -> None:
    table = (await storage.create_table(lobby(), lambda t: Change(t))).table
    await storage.commit(Change(table, letters=[post("a", 10), post("b", 11), post("c", 10)]))
    due = await storage.due_postings(time.time(), 10, busy=["c:10"])
    assert [p.letter.body.content for p in due] == ["b"]
    assert len(await storage.due_postings(time.time(), 10)) == 3


async def test_running_timers_are_left_out(storage: SqliteStorage) -> None:
    table = (await storage.create_table(lobby(), lambda t: Change(t))).table
    await storage.commit(Change(table, timers=TimerPlan(add=(timer("ai", 1), timer("ai", 2)))))
    first, second = await storage.due_timers(time.time(), 10)
    assert await storage.due_timers(time.time(), 10, running=[first.id]) == [second]


async def test_marks_sent_together_are_stored_together(storage: SqliteStorage) -> None:
    """Group commit: marks queued while the writer is busy go in one transaction, and each
    caller returns only once its own mark is stored."""
    import asyncio

    from bot.models import Posting

    table = (await storage.create_table(lobby(), lambda t: Change(t))).table
    letters = [post(f"letter {i}") for i in range(20)]
    letters.append(Letter.post(10, Outgoing(content="table"), living=True))
    ids = (await storage.commit(Change(table, letters=letters))).letters
    postings = await storage.due_postings(time.time(), 50)
    await asyncio.gather(*(storage.posting_sent(p, 1000 + p.id) for p in postings))
    assert await storage.postings_pending(ids) == 0
    assert await storage.living_message(table.id) == 1000 + ids[-1]
    assert isinstance(postings[0], Posting)


@pytest.mark.parametrize("storage", ["sqlite"], indirect=True)
async def test_tables_are_read_from_memory_and_agree_with_the_file(
    storage: SqliteStorage, second: Storage
) -> None:
    """After a write, a table and a channel's open table are found without a read (the cache
    and the open-table map), and what they show is what the file holds, the living message
    stored by a mark included. (PostgreSQL is shared by other processes: it checks the row
    first, `tests/shell/test_cluster_storage.py`.)"""
    table = (await storage.create_table(lobby(), lambda t: Change(t))).table
    after = table.model_copy(update={"version": 1, "status": "playing", "feed": ["news"]})
    living = Letter.post(10, Outgoing(content="table"), living=True)
    await storage.commit(Change(after, expected=0, letters=[living]))
    [posting] = await storage.due_postings(time.time(), 10)
    await storage.posting_sent(posting, 777)

    async def no_reads(sql: str, args: tuple[object, ...] = ()) -> Sequence[Row]:
        raise AssertionError(f"read from the file: {sql}")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(storage, "_rows", no_reads)
        cached = await storage.table(table.id)
        by_channel = await storage.open_table(10)
        assert await storage.living_message(table.id) == 777
        assert await storage.open_table(11) is None
    stored = await second.table(table.id)  # another process: what the database holds
    assert stored is not None
    assert cached == by_channel == stored
    assert stored.version == 1 and stored.feed == ["news"] and stored.message_id == 777

    over = stored.model_copy(update={"version": 2, "status": "over"})
    await storage.commit(Change(over, expected=1))
    assert await storage.open_table(10) is None  # the channel is free again
    again = (await storage.create_table(lobby(), lambda t: Change(t))).table
    found = await storage.open_table(10)
    assert found is not None and found.id == again.id != table.id


async def test_a_read_begun_before_a_write_never_caches_the_older_row(
    storage: SqlStorage,
) -> None:
    import asyncio

    table = (await storage.create_table(lobby(), lambda t: Change(t))).table
    storage._tables.forget(table.id)  # as after a restart: only the file knows it
    real = storage._rows
    gate = asyncio.Event()

    async def slow(sql: str, args: tuple[object, ...] = ()) -> Sequence[Row]:
        rows = await real(sql, args)
        await gate.wait()  # the row is read; the write below lands before it is returned
        return rows

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(storage, "_rows", slow)
        reading = asyncio.create_task(storage.table(table.id))
        await asyncio.sleep(0.05)
    newer = table.model_copy(update={"version": 1})
    await storage.commit(Change(newer, expected=0))
    gate.set()
    old = await reading
    assert old is not None and old.version == 0  # it began before the write
    latest = await storage.table(table.id)
    assert latest is not None and latest.version == 1


async def test_a_timer_plan_read_before_another_change_is_refused(storage: Storage) -> None:
    """A plan of timers decided from the table as read (a restart's reconciling) is refused
    if the table moved since: another process's change armed the timers it needs, and the
    plan would delete them."""
    table = (await storage.create_table(lobby(), lambda t: Change(t))).table
    moved = table.model_copy(update={"version": 1})
    await storage.commit(Change(moved, expected=0, timers=TimerPlan(add=(timer("ai", 1),))))
    with pytest.raises(StaleVersion):
        await storage.commit(Change(table, read_at=0, timers=TimerPlan(clear="all")))
    assert [t.kind for t in await storage.timers(table.id)] == ["ai"]
    await storage.commit(Change(moved, read_at=1, timers=TimerPlan(clear="all")))
    assert await storage.timers(table.id) == []
