"""Rows to models and models to rows, the same for every backend: only the SQL dialect
differs between SQLite and PostgreSQL, never what a column holds."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from bot.models import Letter, Posting, SeatRef, Table, Timer, TimerSpec


class Row(Protocol):
    """A fetched row read by column name (sqlite3.Row, aiosqlite.Row, asyncpg.Record)."""

    def __getitem__(self, key: str | int, /) -> Any: ...


def table_row(table: Table, now: float) -> dict[str, Any]:
    """A new table's row: column → value."""
    return {
        "id": table.id, "guild_id": table.guild_id, "channel_id": table.channel_id,
        "game": table.game, "status": table.status, "host_id": table.host_id,
        "message_id": table.message_id, "place": table.place, "created_at": now,
        **changed_columns(table, now, status=False),
    }


def changed_columns(table: Table, now: float, *, status: bool) -> dict[str, Any]:
    """What a change rewrites in its table's row: column → value (the status only when it
    may have changed)."""
    return {
        **({"status": table.status} if status else {}),
        "host_id": table.host_id, "options": json.dumps(table.options),
        "seats": dump_seats(table.seats), "state": table.state, "version": table.version,
        "paused": table.paused, "feed": json.dumps(table.feed), "deadline": table.deadline,
        "updated_at": now,
    }


def dump_seats(seats: list[SeatRef]) -> str:
    return json.dumps([s.model_dump() for s in seats])


def table_from_row(row: Row) -> Table:
    return Table(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        status=row["status"],
        host_id=row["host_id"],
        options=json.loads(row["options"]),
        seats=[SeatRef.model_validate(s) for s in json.loads(row["seats"])],
        state=row["state"],
        version=row["version"],
        message_id=row["message_id"],
        paused=row["paused"],
        place=row["place"],
        feed=json.loads(row["feed"]),
        deadline=row["deadline"],
        updated_at=row["updated_at"],
    )


def timer_payload(spec: TimerSpec) -> str:
    return json.dumps({"seat": spec.seat, "key": spec.key, **spec.extra})


def timer_from_row(row: Row) -> Timer:
    payload = dict(json.loads(row["payload"]))
    seat = int(payload.pop("seat", -1))
    key = str(payload.pop("key", ""))
    return Timer(
        id=row["id"],
        table_id=row["table_id"],
        kind=row["kind"],
        seat=seat,
        key=key,
        due=row["due"],
        extra=payload,
        attempts=row["attempts"],
    )


def result_rows(table: Table, winners: set[int], now: float) -> list[tuple[Any, ...]]:
    """(guild, game, table, user, won, finished_at, ai_level) per seat; an AI seat is
    recorded under a negative user id and its level."""
    return [
        (
            table.guild_id,
            table.game,
            table.id,
            s.user_id if s.user_id is not None else -(i + 1),
            int(i in winners),
            now,
            s.ai_level if s.user_id is None else None,
        )
        for i, s in enumerate(table.seats)
    ]


def due_heads(rows: Iterable[Row], now: float) -> list[Posting]:
    """From pending letters (each destination's in id order): those due now, each behind
    every earlier letter to its destination (one waiting for a retry holds back the rest)."""
    due: list[Posting] = []
    waiting: set[str] = set()
    for r in rows:
        if r["dest"] in waiting or r["next_at"] > now:
            waiting.add(r["dest"])
            continue
        due.append(posting_from_row(r))
    return due


def later_head(rows: Iterable[Row], now: float) -> float | None:
    """From pending letters (each destination's in id order, `due_heads`): when the earliest
    head not due now falls due; None if every head is due."""
    heads: dict[str, float] = {}
    for r in rows:
        heads.setdefault(r["dest"], float(r["next_at"]))
    return min((at for at in heads.values() if at > now), default=None)


def posting_from_row(r: Row) -> Posting:
    return Posting(id=r["id"], table_id=r["table_id"],
                   letter=Letter.model_validate_json(r["letter"]), tries=r["tries"])
