"""The timer dispatcher: supervised, failed handlers re-armed with back-off, and one slow
table delays no other."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.models import Timer, TimerSpec
from bot.plug import plug
from bot.storage import Change, SqliteStorage, TimerPlan
from bot.tables import TableService
from bot.thirteen_clues.game import GAME
from bot.timers import TimerDispatcher
from tests.shell.conftest import Flaky, easy, lobby


async def arm(storage: SqliteStorage, channel: int, *specs: TimerSpec) -> int:
    table = (await storage.create_table(lobby(channel), lambda t: Change(t))).table
    await storage.commit(Change(table, timers=TimerPlan(add=specs)))
    return table.id


def due(seat: int, after: float = 0.0) -> TimerSpec:
    return TimerSpec(kind="ai", seat=seat, key="k", due=time.time() + after)


async def consume(storage: SqliteStorage, timer: Timer) -> None:
    table = await storage.table(timer.table_id)
    assert table is not None
    await storage.commit(Change(table, timers=TimerPlan(delete=(timer.id,))))


async def test_a_slow_table_delays_no_other(storage: SqliteStorage) -> None:
    slow = await arm(storage, 10, due(0))
    await arm(storage, 11, due(0, after=0.1))
    finished: dict[int, float] = {}
    started = time.monotonic()

    async def handler(timer: Timer) -> None:
        if timer.table_id == slow:
            await asyncio.sleep(1.0)
        await consume(storage, timer)
        finished[timer.table_id] = time.monotonic() - started

    dispatcher = TimerDispatcher(storage, handler)
    dispatcher.start()
    try:
        while len(finished) < 2:
            await asyncio.sleep(0.02)
    finally:
        await dispatcher.stop()
    fast = next(t for t in finished if t != slow)
    assert finished[slow] >= 1.0 and finished[fast] < finished[slow] - 0.5


async def test_a_failed_handler_is_retried_with_back_off(storage: SqliteStorage) -> None:
    table_id = await arm(storage, 10, due(0))
    calls: list[float] = []

    async def handler(timer: Timer) -> None:
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise RuntimeError("a bug in one handler")
        await consume(storage, timer)

    dispatcher = TimerDispatcher(storage, handler)
    dispatcher.start()
    try:
        await asyncio.sleep(0.3)
        assert len(calls) == 1
        [retried] = await storage.timers(table_id)
        assert retried.attempts == 1 and retried.due > time.time() + 1
        await storage.retry_timer(retried.id, time.time())  # the back-off is over
        dispatcher.wake()
        async with asyncio.timeout(10):  # the second call consumes the timer
            while await storage.timers(table_id):
                await asyncio.sleep(0.02)
    finally:
        await dispatcher.stop()
    assert len(calls) == 2


async def test_the_dispatcher_survives_a_failing_database(
    storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    await arm(storage, 10, due(0))
    flaky = Flaky(storage.due_timers, 2, "database is locked")
    monkeypatch.setattr(storage, "due_timers", flaky)
    fired: list[int] = []

    async def handler(timer: Timer) -> None:
        fired.append(timer.id)
        await consume(storage, timer)

    dispatcher = TimerDispatcher(storage, handler)
    dispatcher.start()
    try:
        for _ in range(400):
            if fired:
                break
            await asyncio.sleep(0.02)
    finally:
        await dispatcher.stop()
    assert flaky.failed == 2 and len(fired) == 1



async def test_a_timer_armed_after_the_next_look_does_not_wake_the_dispatcher(
    storage: SqliteStorage,
) -> None:
    """Most changes re-arm an AI's move timer later than the one they take away: the
    dispatcher, asleep until that one, is not woken to ask the database again."""
    await arm(storage, 10, due(0, after=30))
    looks = 0
    next_timer_due = storage.next_timer_due

    async def counted() -> float | None:
        nonlocal looks
        looks += 1
        return await next_timer_due()

    storage.next_timer_due = counted  # type: ignore[method-assign]
    dispatcher = TimerDispatcher(storage, lambda timer: asyncio.sleep(0))
    dispatcher.start()
    try:
        async with asyncio.timeout(5):
            while looks == 0 or dispatcher._asleep_until is None:
                await asyncio.sleep(0.01)
        dispatcher.armed(time.time() + 60)  # after its next look: nothing to do before it
        await asyncio.sleep(0.2)
        assert looks == 1
        dispatcher.armed(time.time() + 1)  # before it: looks again, and plans for it
        async with asyncio.timeout(5):
            while looks < 2:
                await asyncio.sleep(0.01)
    finally:
        await dispatcher.stop()


async def test_a_change_tells_the_dispatcher_when_its_earliest_new_timer_is_due(
    storage: SqliteStorage,
) -> None:
    told: list[float | None] = []
    service = TableService(storage, {GAME.key: plug(GAME)}, ai_delay=5.0, seed=lambda: 7,
                           on_commit=lambda letters, armed: told.append(armed))
    table = await service.open(1, 10, GAME.key, 100, "Ann", {})
    await service.join(table.id, 101, "Bea")
    assert told == [0.0, None]  # a new table's timers are not known here; a join arms none
    await service.add_ai(table.id, 100, 1, "normal")
    await service.start(table.id, 100)
    [move] = await storage.timers(table.id)
    assert move.kind == "ai" and told[-1] == pytest.approx(move.due)
    await service.act(table.id, 100, easy(GAME))  # Ann passes: the AI's timer is armed again
    [again] = await storage.timers(table.id)
    assert told[-1] == pytest.approx(again.due) and again.due >= move.due
