"""Where the bot keeps everything: behind the `Storage` protocol, SQLite by default."""

from bot.storage.base import (
    Change,
    Committed,
    LogEntry,
    SchemaTooNew,
    StaleVersion,
    Storage,
    StorageError,
    TimerPlan,
)
from bot.storage.sqlite import SqliteStorage

__all__ = [
    "Change",
    "Committed",
    "LogEntry",
    "SchemaTooNew",
    "SqliteStorage",
    "StaleVersion",
    "Storage",
    "StorageError",
    "TimerPlan",
]
