"""A real database per test, opened through the storage layer: each storage test runs on
SQLite (a file) and on PostgreSQL (a fresh database of the test server)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Generic, ParamSpec, TypeVar

import pytest

from bot.models import SeatRef, Table
from bot.storage import SqliteStorage, Storage
from bot.storage.postgres import PostgresStorage

BACKENDS = ("sqlite", "postgres")
P = ParamSpec("P")
T = TypeVar("T")


@pytest.fixture(params=BACKENDS)
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    """Parametrized: a test of the storage seam runs once per backend. A test of one backend
    alone asks `@pytest.mark.parametrize("storage", ["sqlite"], indirect=True)`."""
    store: Storage
    if request.param == "sqlite":
        store = SqliteStorage(tmp_path / "bot.sqlite3")
    else:
        server = request.getfixturevalue("postgres_server")
        store = PostgresStorage(await server.fresh_database())
    await store.open()
    yield store
    await store.close()


def easy(game: Any) -> Callable[[Any, int], Any]:
    """A member's move as an easy AI would make it (`TableService.act`'s `make`)."""
    return lambda state, seat: game.ai_action(state, seat, "easy", random.Random(1))


def lobby(channel_id: int = 10, guild_id: int = 1) -> Table:
    return Table(
        guild_id=guild_id, channel_id=channel_id, game="13clues", host_id=100, options={},
        seats=[SeatRef(name="Ann", user_id=100)],
    )


class Flaky(Generic[P, T]):
    """A storage call whose first `failures` calls raise `error` (a database that stumbles),
    the later ones answered by the real call; `failed` counts the failures raised."""

    def __init__(self, call: Callable[P, Awaitable[T]], failures: int, error: str) -> None:
        self.call, self.failures, self.error, self.failed = call, failures, error, 0

    async def __call__(self, *args: P.args, **kwargs: P.kwargs) -> T:
        if self.failed < self.failures:
            self.failed += 1
            raise RuntimeError(self.error)
        return await self.call(*args, **kwargs)
