"""`sit` at the table service: an AI's move timer that the dispatcher already holds when its
seat changes hands is dropped when it fires, never played for the member who sat down; the
seat change is one stored step with the engine's id and name for the seat."""

from __future__ import annotations

import pytest

from bot import sitting
from bot.messages import Outgoing
from bot.plug import plug
from bot.storage import Storage
from bot.tables import Place, Reply, TableService
from bot.thirteen_clues.game import GAME

GUILD, CHANNEL, HOST, MEMBER = 1, 10, 100, 200


@pytest.mark.parametrize("storage", ["sqlite"], indirect=True)
async def test_an_ai_timer_held_when_its_seat_changes_hands_is_dropped(storage: Storage) -> None:
    service = TableService(storage, {GAME.key: plug(GAME)}, ai_delay=0.0, seed=lambda: 7)
    table = await service.open(GUILD, CHANNEL, GAME.key, HOST, "Ann", {})
    await service.join(table.id, 101, "Bea")
    await service.add_ai(table.id, HOST, 1, "normal")
    await service.start(table.id, HOST)
    stored = await storage.table(table.id)
    assert stored is not None
    seat = next(i for i, s in enumerate(stored.seats) if s.is_ai)
    held = next(t for t in await storage.timers(table.id) if t.kind == "ai")
    assert held.seat == seat  # the pass phase waits on the AI too

    place = Place(GUILD, CHANNEL)
    await sitting.sit(service, table.id, MEMBER, "Cid", None, place, "en")
    await sitting.answer(service, table.id, HOST, MEMBER, True, place,
                         Reply(1, "token", Outgoing(content="…")))
    sat = await storage.table(table.id)
    assert sat is not None and sat.seats[seat].user_id == MEMBER and not sat.seats[seat].is_ai
    state = GAME.load(sat.state or "")
    assert (state.seats[seat].id, state.seats[seat].name) == (f"u{MEMBER}", "Cid")
    assert not [t for t in await storage.timers(table.id) if t.kind == "ai"]

    await service.on_timer(held)  # the dispatcher fires the timer it read before the change
    after = await storage.table(table.id)
    assert after is not None and after.version == sat.version
    assert GAME.load(after.state or "").seats[seat].passed is None  # Cid still chooses
    log = await storage.action_log(table.id)
    assert sitting.Sat.parse(log[-1].action) is not None and log[-1].actor == f"u{MEMBER}"
