"""The event loop `python -m bot` runs on puts urgent tasks' steps (the gateway's, every
interaction's, a reply's) ahead of background work (`bot.urgency`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

import bot.__main__ as entry
from bot import collector
from bot.urgency import URGENT, UrgentFirstLoop, background, context, mark_urgent

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
        waiting = [background(steps(letter), name=letter) for letter in calm]
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
        await background(note("background"), name="background")
        loop = asyncio.get_running_loop()
        await loop.create_task(note("reply lane"), context=context(urgent=True))
        await loop.create_task(note("quiet lane"), context=context(urgent=False))

    asyncio.run(main())
    assert seen == {"before": False, "started": True, "background": False,
                    "reply lane": True, "quiet lane": False}


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
        settler = background(settle(), name="settle")
        others = [background(calm(letter), name=letter) for letter in "ab"]
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
