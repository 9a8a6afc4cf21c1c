"""The event loop `python -m bot` runs on puts urgent tasks' steps (the gateway's, every
interaction's, a reply's) ahead of background work (`bot.urgency`)."""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.__main__ as entry
from bot import collector
from bot.storage.writer import WriterThread
from bot.urgency import AHEAD, URGENT, UrgentFirstLoop, mark_urgent, task, urgent_meanwhile

LoopFactory = Callable[[], asyncio.AbstractEventLoop]


def played(loop_factory: LoopFactory, urgent: list[str], calm: list[str]) -> str:
    """The order in which the steps of some tasks ran: each task appends its letter at each
    step; the `calm` ones are started (and have taken a step) before the `urgent` ones."""
    order: list[str] = []

    async def steps(letter: str, count: int = 4) -> None:
        for _ in range(count):
            order.append(letter)
            await asyncio.sleep(0)

    async def main() -> None:
        waiting = [task(steps(letter), name=letter) for letter in calm]
        await asyncio.sleep(0)
        mark_urgent()
        waiting += [asyncio.create_task(steps(letter)) for letter in urgent]
        await asyncio.gather(*waiting)

    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(main())
    return "".join(order)


def test_an_urgent_task_runs_all_its_steps_before_the_waiting_background() -> None:
    order = played(UrgentFirstLoop, urgent=["u"], calm=["a", "b", "c"])
    assert "uuuu" in order, order
    assert order.index("uuuu") <= 3 + 1  # after the background's first steps at most
    # asyncio's own loop takes turns, which is what an interaction waited behind
    assert "uuuu" not in played(asyncio.SelectorEventLoop, urgent=["u"], calm=["a", "b", "c"])


def test_urgent_tasks_take_turns_among_themselves() -> None:
    order = played(UrgentFirstLoop, urgent=["u", "v"], calm=["a", "b"])
    # first come, first served: neither jumps the other, and the background waits for both
    assert order.startswith("ab" + "uv" * 4), order


def test_urgency_passes_to_the_tasks_an_urgent_one_starts_but_not_to_background_ones() -> None:
    seen: dict[str, bool] = {}

    async def note(name: str) -> None:
        seen[name] = URGENT.get()

    async def main() -> None:
        await note("before")
        mark_urgent()
        await asyncio.create_task(note("started"))
        await task(note("background"), name="background")
        await task(note("reply lane"), name="reply", urgent=True)
        URGENT.set(False)
        with urgent_meanwhile():
            await note("holding")
        await note("after")

    asyncio.run(main())
    assert seen == {"before": False, "started": True, "background": False,
                    "reply lane": True, "holding": True, "after": False}


def test_a_future_an_urgent_task_awaits_wakes_it_ahead_of_the_background() -> None:
    """An urgent task waiting on I/O (here a future another task settles) is woken through
    the future's callback, scheduled in the task's context: ahead of queued background."""
    order: list[str] = []

    async def main() -> None:
        settled = asyncio.get_running_loop().create_future()

        async def calm(letter: str) -> None:
            for _ in range(3):
                order.append(letter)
                await asyncio.sleep(0)

        async def waiter() -> None:
            await settled
            order.append("U")

        async def settle() -> None:
            order.append("s")
            settled.set_result(None)

        mark_urgent()
        waiting = asyncio.create_task(waiter())
        await asyncio.sleep(0)  # it awaits the future now
        settler = task(settle(), name="settle")
        others = [task(calm(letter), name=letter) for letter in "ab"]
        await asyncio.gather(waiting, settler, *others)

    for loop_factory, first in ((UrgentFirstLoop, "sU"), (asyncio.SelectorEventLoop, "sab")):
        order.clear()
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(main())
        assert "".join(order).startswith(first), (loop_factory, order)


def test_python_m_bot_serves_on_the_urgent_first_loop(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    loops: list[type[asyncio.AbstractEventLoop]] = []

    async def serve(config: object) -> int:
        loops.append(type(asyncio.get_running_loop()))
        return 0

    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "bot.sqlite3"))
    monkeypatch.setattr(entry, "serve", serve)
    monkeypatch.setattr(collector, "tune", lambda: None)  # this process's collector
    assert entry.main([]) == 0
    assert loops == [UrgentFirstLoop]


async def test_the_suite_runs_on_the_urgent_first_loop() -> None:
    """tests/conftest.py's loop factory: the in-process bots schedule as `python -m bot`."""
    assert type(asyncio.get_running_loop()) is UrgentFirstLoop


def test_another_threads_callbacks_neither_lost_nor_reordered_around_urgent_work() -> None:
    """`call_soon_threadsafe` appends from another thread while the loop queues urgent steps
    (the database's writer thread settles its futures so): no callback is lost, duplicated or
    raised about, and each lane keeps its order."""
    settled: list[int] = []
    errors: list[dict[str, object]] = []
    count = 3000

    async def steps() -> None:
        for _ in range(count):
            await asyncio.sleep(0)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _, error: errors.append(error))
        mark_urgent()
        urgent = [asyncio.create_task(steps()) for _ in range(4)]

        def settle() -> None:
            for i in range(count):
                loop.call_soon_threadsafe(settled.append, i)

        await asyncio.gather(asyncio.to_thread(settle), *urgent)
        while len(settled) < count:
            await asyncio.sleep(0.01)

    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the threads take turns as often as they can
    try:
        with asyncio.Runner(loop_factory=UrgentFirstLoop) as runner:
            runner.run(main())
    finally:
        sys.setswitchinterval(switching)
    assert settled == list(range(count))
    assert errors == []


def test_background_work_still_runs_under_a_flood_of_urgent_steps() -> None:
    """At most `AHEAD` urgent callbacks in a row while background ones wait."""
    order: list[str] = []

    async def steps(letter: str, count: int) -> None:
        for _ in range(count):
            order.append(letter)
            await asyncio.sleep(0)

    async def main() -> None:
        calm = task(steps("b", 3), name="calm")
        await asyncio.sleep(0)
        mark_urgent()
        await asyncio.gather(asyncio.create_task(steps("u", 10 * AHEAD)), calm)

    with asyncio.Runner(loop_factory=UrgentFirstLoop) as runner:
        runner.run(main())
    assert order.count("b") == 3
    assert order.index("b", 1) < 2 * AHEAD  # not after the whole flood
    assert "u" * (AHEAD + 1) not in "".join(order).split("b", 2)[1]


async def test_the_writer_thread_settles_a_result_in_the_context_that_asked_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An urgent task's commit wakes it in the urgent lane: the writer thread schedules its
    result in the asking task's context."""
    loop = asyncio.get_running_loop()
    scheduled: list[bool] = []
    threadsafe = loop.call_soon_threadsafe

    def recording(callback: Any, *args: Any, context: Any = None) -> asyncio.Handle:
        scheduled.append(context is not None and context.get(URGENT, False))
        return threadsafe(callback, *args, context=context)

    monkeypatch.setattr(loop, "call_soon_threadsafe", recording)
    writer = WriterThread("test-writer")

    async def ask(value: int) -> int:
        return await writer.run(lambda: value)

    try:
        assert await task(ask(1), name="calm") == 1
        assert await task(ask(2), name="urgent", urgent=True) == 2
    finally:
        writer.close()
    assert scheduled == [False, True]


class ReadinessAsQueued(UrgentFirstLoop):
    """The same loop, but a socket's readiness queued by the context it was registered in."""

    def _add_callback(self, handle: asyncio.Handle) -> None:
        asyncio.SelectorEventLoop._add_callback(self, handle)  # type: ignore[attr-defined]


def read_after_background(loop_factory: LoopFactory) -> int:
    """How many background steps run between a write to a socket and the wake-up of the
    urgent task reading it, while ten background tasks keep the loop busy; the socket was
    opened by a background task, as a pooled connection often is."""
    order: list[str] = []

    async def spin() -> None:
        for _ in range(60):
            order.append("b")
            await asyncio.sleep(0)

    async def main() -> None:
        opened = await task(asyncio.open_connection(sock=left), name="open")
        reader, _ = opened
        mark_urgent()

        async def read() -> None:
            await reader.read(1)
            order.append("U")

        reading = asyncio.create_task(read())
        await asyncio.sleep(0)
        spinners = [task(spin(), name=f"spin{i}") for i in range(10)]

        async def write() -> None:
            await asyncio.sleep(0)
            order.append("w")
            right.send(b"x")

        await asyncio.gather(reading, task(write(), name="write"), *spinners)
        opened[1].close()

    left, right = socket.socketpair()
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(main())
    finally:
        left.close()
        right.close()
    between = "".join(order).split("w", 1)[1].split("U", 1)[0]
    return len(between)


def test_a_sockets_readiness_is_handled_ahead_of_the_background() -> None:
    assert read_after_background(UrgentFirstLoop) < 10
    assert read_after_background(ReadinessAsQueued) >= 5  # behind the spinners' steps
