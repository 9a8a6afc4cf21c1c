"""Where the bot keeps everything: behind the `Storage` protocol, SQLite by default,
PostgreSQL when a `DATABASE_URL` names one."""

from pathlib import Path

from bot.storage.base import (
    Change,
    Committed,
    LogEntry,
    Look,
    SchemaTooNew,
    StaleVersion,
    Storage,
    StorageError,
    TimerPlan,
)
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage

__all__ = [
    "Change",
    "Committed",
    "LogEntry",
    "Look",
    "PostgresStorage",
    "SchemaTooNew",
    "SqliteStorage",
    "StaleVersion",
    "Storage",
    "StorageError",
    "TimerPlan",
    "storage_for",
]


def storage_for(database_url: str | None, database_path: Path,
                shards: tuple[int, ...] | None = None, shard_count: int | None = None
                ) -> Storage:
    """PostgreSQL at `database_url` if there is one, else the SQLite file; `shards`: the
    shard set of this process in a cluster (PostgreSQL only) of `shard_count`, None for
    every shard."""
    if database_url is not None:
        return PostgresStorage(database_url, shards=shards, shard_count=shard_count)
    return SqliteStorage(database_path)
