"""A real database per test, opened through the storage layer: each storage test runs on
SQLite (a file) and on PostgreSQL (a fresh database of the test server)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.models import SeatRef, Table
from bot.storage import Storage, SqliteStorage
from bot.storage.postgres import PostgresStorage

BACKENDS = ("sqlite", "postgres")


async def open_storage(request: pytest.FixtureRequest, backend: str, tmp_path: Path
                       ) -> Storage:
    """An open storage of that backend on a new, empty database."""
    store: Storage
    if backend == "sqlite":
        store = SqliteStorage(tmp_path / "bot.sqlite3")
    else:
        server = request.getfixturevalue("postgres_server")
        store = PostgresStorage(await server.fresh_database())
    await store.open()
    return store


@pytest.fixture(params=BACKENDS)
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    """Parametrized: a test of the storage seam runs once per backend. A test of one backend
    alone asks `@pytest.mark.parametrize("storage", ["sqlite"], indirect=True)`."""
    store = await open_storage(request, request.param, tmp_path)
    yield store
    await store.close()


def lobby(channel_id: int = 10, guild_id: int = 1) -> Table:
    return Table(
        guild_id=guild_id, channel_id=channel_id, game="13clues", host_id=100, options={},
        seats=[SeatRef(name="Ann", user_id=100)],
    )
