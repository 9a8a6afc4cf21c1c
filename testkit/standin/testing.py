"""pytest helpers shared by the stand-in's own test files."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest


@pytest.fixture(autouse=True)
async def no_task_leaks() -> AsyncIterator[None]:
    """Every test must leave the loop clean: bots, shards, processes and server shut down.

    Import it into a test module (`from testkit.standin.testing import no_task_leaks`) to use.
    """
    yield
    await asyncio.sleep(0)
    current = asyncio.current_task()
    leftover = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
    assert leftover == []
