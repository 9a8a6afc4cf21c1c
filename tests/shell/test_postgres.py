"""What PostgreSQL adds to the storage seam: several processes on one database. Migrations
under an advisory lock, table ids from a sequence, a change locking its table's row, the
lease as a session lock that dies with its process, and the same schema as SQLite's."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bench.backends import main as backends_bench
from bot.messages import Outgoing
from bot.models import Letter
from bot.storage import Change, SchemaTooNew, SqliteStorage, StaleVersion
from bot.storage.postgres import PostgresStorage
from bot.storage.schema import MIGRATIONS
from testkit.pgserver import PostgresServer
from tests.shell.conftest import lobby

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def pair(postgres_url: str) -> AsyncIterator[tuple[PostgresStorage, PostgresStorage]]:
    """Two processes' storages on one database, opened together (migrating at once)."""
    one, two = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    await asyncio.gather(one.open(), two.open())
    yield one, two
    await asyncio.gather(one.close(), two.close())


async def test_processes_starting_together_apply_each_migration_once(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, _ = pair
    versions = [r["version"] for r in await one.pool.fetch(
        "SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, len(MIGRATIONS) + 1))
    assert len(await one.pool.fetch("SELECT * FROM meta")) == 1  # one salt, not two
    # the pool gives connections back without asyncpg's reset: none keeps a session lock
    assert await one.pool.fetchval(
        "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'") == 0


async def test_a_database_from_a_newer_release_is_refused(postgres_url: str) -> None:
    con = await asyncpg.connect(postgres_url)
    await con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    await con.execute("INSERT INTO schema_version VALUES ($1)", len(MIGRATIONS) + 1)
    await con.close()
    store = PostgresStorage(postgres_url)
    with pytest.raises(SchemaTooNew, match="newer release"):
        await store.open()
    await store.close()


async def test_both_backends_build_the_same_schema(postgres_url: str, tmp_path: Path) -> None:
    """The two dialects of each migration stay in step: the same tables, the same columns,
    the same nullability, the same indexes."""
    lite = SqliteStorage(tmp_path / "s.sqlite3")
    await lite.open()
    await lite.close()
    con = sqlite3.connect(tmp_path / "s.sqlite3")
    names = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    sqlite_columns = {
        (t, c[1], bool(c[3]) or bool(c[5])) for t in names
        for c in con.execute(f"PRAGMA table_info({t})")
    }
    sqlite_indexes = {r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    con.close()

    pg = PostgresStorage(postgres_url)
    await pg.open()
    rows = await pg.pool.fetch(
        "SELECT c.table_name, c.column_name, c.is_nullable = 'NO' AS required"
        " FROM information_schema.columns c WHERE c.table_schema = 'public'"
        " AND c.table_name != 'schema_version'")
    pg_indexes = {r["indexname"] for r in await pg.pool.fetch(
        "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
        " AND indexname NOT LIKE '%_pkey'")}
    await pg.close()
    assert {(r["table_name"], r["column_name"], r["required"]) for r in rows} == sqlite_columns
    assert pg_indexes == sqlite_indexes


async def test_table_ids_come_from_one_sequence_for_every_process(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    made = await asyncio.gather(*(
        store.create_table(lobby(channel), lambda t: Change(t, letters=[
            Letter.post(t.channel_id, Outgoing(content=f"lobby {t.id}"))]))
        for channel in range(100, 120) for store in [(one, two)[channel % 2]]
    ))
    ids = [c.table.id for c in made]
    assert len(set(ids)) == 20
    # each lobby's letter was rendered with the id its row got
    for posting in await one.due_postings(time.time(), 50):
        assert posting.letter.body.content == f"lobby {posting.table_id}"


async def test_one_change_wins_when_two_processes_change_a_table_at_once(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """Both read version 0 and commit version 1: the row lock makes one wait for the other,
    which then finds the version moved and stores nothing."""
    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    seen = await two.table(table.id)
    assert seen is not None
    changes = [
        store.commit(Change(t.model_copy(update={"version": 1, "feed": [name]}), expected=0,
                            letters=[Letter.post(10, Outgoing(content=name))]))
        for store, t, name in ((one, table, "one"), (two, seen, "two"))
    ]
    outcomes = await asyncio.gather(*changes, return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["Committed", "StaleVersion"]
    winner = next(o for o in outcomes if not isinstance(o, BaseException))
    stored = await PostgresStorage.table(two, table.id)  # the loser forgot its cached copy
    assert stored is not None and stored.version == 1 and stored.feed == winner.table.feed
    assert [p.letter.body.content for p in await one.due_postings(time.time(), 10)] == (
        winner.table.feed)


async def test_a_change_waits_for_the_row_lock_of_another_process(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """The change takes its table's row lock first: while another session holds it, the
    change waits; once that session's change is stored, the version check refuses it."""
    one, _ = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    other = await asyncpg.connect(one.url)
    transaction = other.transaction()
    await transaction.start()
    await other.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table.id)
    waiting = asyncio.create_task(one.commit(Change(table.model_copy(update={"version": 1}),
                                                    expected=0)))
    await asyncio.sleep(0.3)
    assert not waiting.done()
    await other.execute("UPDATE tables SET version = 1 WHERE id = $1", table.id)
    await transaction.commit()
    await other.close()
    with pytest.raises(StaleVersion):
        await waiting


async def test_uncommitted_letters_are_invisible_to_the_sender(postgres_url: str) -> None:
    store = PostgresStorage(postgres_url)
    await store.open()
    created = (await store.create_table(lobby(), lambda t: Change(t))).table
    other = await asyncpg.connect(postgres_url)
    transaction = other.transaction()
    await transaction.start()
    await other.execute(
        "INSERT INTO outbox (table_id, dest, letter, created_at) VALUES ($1, 'c:10', $2, 0)",
        created.id, Letter.post(10, Outgoing(content="pending")).model_dump_json())
    assert await store.due_postings(time.time(), 10) == []
    await transaction.rollback()
    await other.close()
    assert await store.due_postings(time.time(), 10) == []
    await store.close()


async def test_the_lease_dies_with_its_process(postgres_url: str) -> None:
    """A process killed with SIGKILL leaves no lease behind: the server ends its session,
    and with it the advisory lock, so the next process plays at once."""
    store = PostgresStorage(postgres_url)
    await store.open()  # migrated before the child starts
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_LEASE, postgres_url], cwd=ROOT,
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout is not None
        assert (await asyncio.to_thread(child.stdout.readline)).strip() == "held"
        assert await store.acquire_lease("me", 30, time.time()) == f"child:{child.pid}"
        assert (await store.lease_holder() or ("",))[0] == f"child:{child.pid}"
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for _ in range(50):  # the server notices the closed socket at once; allow a moment
            if await store.acquire_lease("me", 30, time.time()) is None:
                break
            await asyncio.sleep(0.1)
        assert (await store.lease_holder() or ("",))[0] == "me"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        await store.close()


async def test_a_lease_whose_session_is_lost_is_lost(postgres_url: str) -> None:
    """If the lease's own connection dies, another process may have played meanwhile: the
    renewal says so (and the bot stops) rather than quietly taking the lock again."""
    store = PostgresStorage(postgres_url)
    await store.open()
    try:
        assert await store.acquire_lease("me", 30, time.time()) is None
        assert await store.acquire_lease("me", 30, time.time()) is None  # renewed
        await store.pool.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
            " AND objid = 2 AND granted")
        lost = await store.acquire_lease("me", 30, time.time())
        assert lost is not None and "lost" in lost
        assert await store.lease_holder() is None
    finally:
        await store.close()


async def test_the_server_fixture_gives_each_test_its_own_database(
    postgres_server: PostgresServer,
) -> None:
    first, second = (await postgres_server.fresh_database(),
                     await postgres_server.fresh_database())
    assert first != second and "host=" in first  # a unix socket, not the network


HOLD_THE_LEASE = """
import asyncio, os, sys, time
from bot.storage.postgres import PostgresStorage

async def main():
    store = PostgresStorage(sys.argv[1])
    await store.open()
    assert await store.acquire_lease(f"child:{os.getpid()}", 30, time.time()) is None
    print("held", flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_the_backends_bench_prints_both_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m bench.backends`, tiny: it runs and prints each backend's cost per commit."""
    assert backends_bench(["--rounds", "1", "--commits", "3"]) == 0
    out = capsys.readouterr().out
    assert "sqlite" in out and "server CPU" in out and "PostgreSQL / SQLite" in out


async def test_a_clicks_table_read_does_not_wait_for_a_busy_pool(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """Every pooled connection held (the outbox and the commits under load): a member's
    click still reads its table, its channel's open table and a table it has not seen, on
    the clicks' own lane."""
    one, two = pair
    table = (await one.create_table(lobby(321), lambda t: Change(t))).table
    other = (await two.create_table(lobby(322), lambda t: Change(t))).table
    held = [await one.pool.acquire() for _ in range(one.pool_size)]
    try:
        async with asyncio.timeout(5):
            cached = await one.table(table.id)
            opened = await one.open_table(321)
            unseen = await one.table(other.id)
        assert cached is not None and opened is not None and cached.id == opened.id
        assert unseen is not None and unseen.id == other.id
    finally:
        for con in held:
            await one.pool.release(con)
