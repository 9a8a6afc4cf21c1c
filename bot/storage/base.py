"""The storage seam: what the shell needs from a database, with nothing SQL above it.

Everything a change owes is written in one unit of work (`Change`): the table row with its
version check, the action log, the letters (the outbox) and the timers. A second backend
(PostgreSQL, for several shard processes) implements this protocol and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.models import Letter, Posting, Table, Timer, TimerSpec


class StorageError(Exception):
    """The one error type of the storage layer."""


class StaleVersion(StorageError):
    """The table changed since it was read: the write is refused, nothing is stored."""


class SchemaTooNew(StorageError):
    """The database was written by a newer version of the bot than this one."""


@dataclass(frozen=True)
class LogEntry:
    actor: str
    action: str
    events: str


@dataclass(frozen=True)
class TimerPlan:
    """How a change moves the table's timers: delete the timers `delete` (the one that fired,
    stale ones), every timer of the kinds in `clear` ("all": every timer), every timer acting
    for the seats in `seats_done`, then arm `add`."""

    delete: tuple[int, ...] = ()
    clear: Literal["all"] | tuple[str, ...] = ()
    seats_done: tuple[int, ...] = ()
    add: tuple[TimerSpec, ...] = ()


@dataclass
class Change:
    """One unit of work: all of it is stored, or none of it.

    `table` is the table as it should be stored. With `expected` set, the stored version must
    still be that one (else StaleVersion) and `table` (one version later) replaces the row;
    without it only letters, timers and notes are written.
    """

    table: Table
    expected: int | None = None
    log: LogEntry | None = None
    letters: list[Letter] = field(default_factory=list)
    timers: TimerPlan = field(default_factory=TimerPlan)
    winners: set[int] | None = None
    """Set when the game ended: each member's result is recorded."""
    notes: tuple[int, dict[str, Any]] | None = None
    """A seat's private notes (seat, notes)."""


@dataclass(frozen=True)
class Committed:
    table: Table
    letters: tuple[int, ...]
    """The stored letters' ids, in order."""


class Storage(Protocol):
    async def open(self) -> None: ...
    async def close(self) -> None: ...

    # tables
    async def create_table(self, table: Table, render: Callable[[Table], Change]) -> Committed:
        ...
    async def commit(self, change: Change) -> Committed: ...
    async def table(self, table_id: int) -> Table | None: ...
    async def open_table(self, channel_id: int) -> Table | None: ...
    async def last_game(self, channel_id: int) -> Table | None: ...
    async def active_tables(self, guild_id: int | None = None) -> list[Table]: ...
    async def tables_of(self, user_id: int) -> list[Table]: ...

    # finished games: history, replays, exports (only games that are over, never one in play)
    async def finished_tables(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[Table]: ...
    async def finished_count(self, guild_id: int, *, user_id: int | None = None) -> int: ...
    async def last_finished(self, channel_id: int, game: str) -> Table | None: ...
    async def action_log(self, table_id: int) -> list[LogEntry]: ...

    # the outbox
    async def due_postings(
        self, now: float, limit: int, busy: Collection[str] = ()
    ) -> list[Posting]: ...
    async def next_posting_at(self) -> float | None: ...
    async def posting_sent(self, posting: Posting, message_id: int | None) -> None: ...
    async def posting_retry(self, posting: Posting, at: float) -> None: ...
    async def posting_failed(self, posting: Posting, reason: str) -> None: ...
    async def living_message(self, table_id: int) -> int | None: ...
    async def slot_message(self, table_id: int, dest: str, slot: str) -> int | None: ...
    async def postings_pending(self, ids: Sequence[int]) -> int: ...
    async def nonce_salt(self) -> str: ...

    # timers
    async def next_timer_due(self) -> float | None: ...
    async def due_timers(
        self, now: float, limit: int, running: Collection[int] = ()
    ) -> list[Timer]: ...
    async def timers(self, table_id: int) -> list[Timer]: ...
    async def retry_timer(self, timer_id: int, due: float) -> None: ...

    # one process at a time
    async def acquire_lease(self, holder: str, ttl: float, now: float) -> str | None: ...
    async def release_lease(self, holder: str) -> None: ...
    async def lease_holder(self) -> tuple[str, float] | None: ...
    async def take_lease_from(self, holder: str, dead: str, ttl: float, now: float) -> bool: ...

    # settings, notes, results
    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None: ...
    async def user_settings(self, user_id: int) -> dict[str, Any]: ...
    async def set_user_settings(self, user_id: int, settings: dict[str, Any]) -> None: ...
    async def member_language(self, user_id: int) -> tuple[str | None, str | None]: ...
    async def set_seen_locale(self, user_id: int, locale: str) -> None: ...
    async def set_chosen_language(self, user_id: int, language: str | None) -> None: ...
    async def seat_notes(self, table_id: int, seat: int) -> dict[str, Any]: ...
    async def player_stats(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]: ...
    async def leaderboard(
        self, guild_id: int, limit: int = 10
    ) -> list[tuple[int | str, int, int]]: ...
