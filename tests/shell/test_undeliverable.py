"""What the table service does with a letter Discord refused for good."""

from __future__ import annotations

import time

from bot.messages import Outgoing
from bot.models import Letter, Posting, SeatRef
from bot.registry import GAMES
from bot.storage import Change, SqliteStorage
from bot.tables import TableService
from bot.transport import Outcome
from bot.world_changes import WorldChanges
from tests.shell.conftest import lobby


async def service_with_table(storage: SqliteStorage) -> tuple[TableService, int]:
    tables = TableService(storage, {g.key: g for g in GAMES})
    table = lobby().model_copy(update={"seats": [SeatRef(name="Ann", user_id=100),
                                                 SeatRef(name="Bea", user_id=200)]})
    created = (await storage.create_table(table, lambda t: Change(t))).table
    return tables, created.id


def posting(table_id: int, letter: Letter) -> Posting:
    return Posting(id=1, table_id=table_id, letter=letter)


async def owed(storage: SqliteStorage) -> list[Letter]:
    return [p.letter for p in await storage.due_postings(time.time(), 50)]


async def test_closed_dms_are_said_once_in_the_channel(storage: SqliteStorage) -> None:
    tables, table_id = await service_with_table(storage)
    dm = posting(table_id, Letter.dm(200, Outgoing(content="your cards")))
    for _ in range(3):
        await WorldChanges(tables).on_undeliverable(dm, Outcome("closed_dms"))
    [notice] = await owed(storage)
    assert notice.to == "c:10" and "<@200>" in (notice.body.content or "")
    assert notice.body.mentions == [200]


async def test_a_channel_letter_given_up_is_told_to_the_members(storage: SqliteStorage) -> None:
    tables, table_id = await service_with_table(storage)
    news = posting(table_id, Letter.post(10, Outgoing(content="news")))
    await WorldChanges(tables).on_undeliverable(news, Outcome("retry", detail="gave up: 502"))
    letters = await owed(storage)
    assert sorted(letter.to for letter in letters) == ["u:100", "u:200"]
    assert all("could not post" in (letter.body.content or "") for letter in letters)


async def test_a_forbidden_channel_pauses_the_table(storage: SqliteStorage) -> None:
    tables, table_id = await service_with_table(storage)
    news = posting(table_id, Letter.post(10, Outgoing(content="news")))
    await WorldChanges(tables).on_undeliverable(
        news, Outcome("forbidden", detail="403 50013: Missing"))
    table = await storage.table(table_id)
    assert table is not None and table.paused == "I am missing the permission to post there"
    await WorldChanges(tables).on_undeliverable(news, Outcome("deleted", detail="404 10003"))
    table = await storage.table(table_id)
    assert table is not None and table.status == "over"
