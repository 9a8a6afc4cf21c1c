"""The writer thread: work runs in the order handed over, its result or error reaches the
awaiting coroutine, and a cancelled caller does not stop it or break the thread."""

from __future__ import annotations

import asyncio
import functools
import threading

import pytest

from bot.storage.writer import WriterThread


async def test_work_runs_in_order_on_one_thread_and_returns_its_result() -> None:
    thread = WriterThread("test-writer")
    seen: list[tuple[int, str]] = []

    def job(n: int) -> int:
        seen.append((n, threading.current_thread().name))
        return n * 2

    results = await asyncio.gather(*(thread.run(functools.partial(job, n)) for n in range(20)))
    thread.close()
    assert results == [n * 2 for n in range(20)]
    assert seen == [(n, "test-writer") for n in range(20)]


async def test_an_error_is_raised_in_the_caller_and_the_thread_goes_on() -> None:
    thread = WriterThread("test-writer")

    def fails() -> None:
        raise ValueError("no such table")

    with pytest.raises(ValueError, match="no such table"):
        await thread.run(fails)
    assert await thread.run(lambda: "still here") == "still here"
    thread.close()


async def test_a_cancelled_caller_leaves_its_work_done_and_the_next_served() -> None:
    thread = WriterThread("test-writer")
    started, release, done = threading.Event(), threading.Event(), threading.Event()

    def slow() -> None:
        started.set()
        release.wait(5)
        done.set()

    waiting = asyncio.ensure_future(thread.run(slow))
    await asyncio.to_thread(started.wait, 5)
    waiting.cancel()
    release.set()
    assert await thread.run(lambda: 1) == 1
    assert done.is_set()
    thread.close()
