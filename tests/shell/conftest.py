"""A real SQLite file per test, opened through the storage layer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.models import SeatRef, Table
from bot.storage import SqliteStorage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    store = SqliteStorage(tmp_path / "bot.sqlite3")
    await store.open()
    yield store
    await store.close()


def lobby(channel_id: int = 10, guild_id: int = 1) -> Table:
    return Table(
        guild_id=guild_id, channel_id=channel_id, game="13clues", host_id=100, options={},
        seats=[SeatRef(name="Ann", user_id=100)],
    )
