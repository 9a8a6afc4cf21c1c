"""Guards for the whole suite: a test that leaves tasks behind, or hangs where pytest-timeout
does not look (the event loop's own teardown), must fail the run, not stall it for hours.
And the PostgreSQL server the tests of that backend run against."""

from __future__ import annotations

import asyncio
import faulthandler
import gc
import os
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator

import pytest

import bot.parsed
from bot.urgency import UrgentFirstLoop
from testkit import pgserver
from testkit.pgserver import PostgresServer

# every shared parsed state is checked at each read: a change that mutates one fails here
bot.parsed.CHECKED = True

# compiled modules are kept (__pycache__, ignored by git) even where PYTHONDONTWRITEBYTECODE
# is set: else each test process, and each bot process a test starts, compiles and rewrites
# the whole tree again (5 s of CPU a process; the suite starts dozens)
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# the suite wants throughput, not short pauses: a young collection every 10,000 allocations
# rather than CPython's 700 makes the collections of the older generations, which walk every
# cached game, position and catalog a test process holds, 14 times rarer (their share of a
# test process's CPU: about 18 % -> 6-8 %, measured on Mansion and end-to-end tests)
YOUNG_COLLECTION = 10_000
gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])

HARD_LIMIT = float(os.environ.get("TEST_HARD_LIMIT", "420"))
"""Seconds a test may take, teardown included, before the worker is stopped with a dump of
every thread (pytest-timeout's own limit, 300 s, does not cover the loop's teardown)."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    def stop() -> None:
        capture = item.config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            capture.suspend_global_capture()  # let the dump reach the real stderr
        sys.stderr.write(f"\n{item.nodeid} ran past {HARD_LIMIT:.0f} s; every thread:\n")
        faulthandler.dump_traceback(file=sys.stderr)
        sys.stderr.flush()
        os._exit(3)

    watchdog = threading.Timer(HARD_LIMIT, stop)
    watchdog.daemon = True
    watchdog.start()
    try:
        yield
    finally:
        watchdog.cancel()


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> dict[str, Callable[[], asyncio.AbstractEventLoop]]:
    """Every asynchronous test runs on the loop `python -m bot` runs on, urgent tasks first
    (`bot.urgency`): the bots the tests start in this process schedule as the real one."""
    return {"urgent-first": UrgentFirstLoop}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("asyncio") is not None:
            item.add_marker(pytest.mark.usefixtures("_no_task_left_behind"))


@pytest.fixture
async def _no_task_left_behind() -> AsyncIterator[None]:
    """Cancel what a test left running, again and again if a task swallows a cancel (Python
    3.11's `wait_for`, inside discord.py's reconnect loop, can): the loop's own teardown
    cancels once and then waits forever."""
    before = asyncio.all_tasks()
    yield
    current = asyncio.current_task()
    for _ in range(100):
        left = [t for t in asyncio.all_tasks() - before if t is not current and not t.done()]
        if not left:
            return
        for task in left:
            task.cancel()
        await asyncio.wait(left, timeout=0.05)
    pytest.fail(f"tasks that cannot be cancelled: {left}")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server per test process (each pytest-xdist worker its own),
    started on first use; each test then takes a fresh database of it. In CI (CI=true) a
    server that cannot start fails the run with the reason; elsewhere it is skipped with it."""
    try:
        server = pgserver.start()
    except pgserver.NoPostgres as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"PostgreSQL is required in CI and could not start: {exc}",
                        pytrace=False)
        pytest.skip(f"no PostgreSQL here: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty database on the test server."""
    return await postgres_server.fresh_database()
