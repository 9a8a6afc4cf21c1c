"""End-to-end fixtures: the real bot, a real SQLite file (or PostgreSQL database), the local
Discord stand-in.

Every test's interaction latencies (dispatch → the bot's first callback, as the stand-in
measures them) are collected for the whole session: the terminal summary prints the median
and the worst, and `e2e-latencies.json` under pytest's base temp directory keeps them all.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from testkit.standin import running_standin
from testkit.standin.globallimit import DISCORD_GLOBAL_LIMIT
from testkit.world import World

LATENCIES: dict[str, list[float]] = {}
"""test node id → the latencies of its interactions."""


@pytest.fixture
def database_url() -> str | None:
    """None: the bot plays on a SQLite file. A module that overrides this fixture plays its
    tests on PostgreSQL (tests/e2e/test_postgres.py)."""
    return None


async def _world(tmp_path: Path, request: pytest.FixtureRequest, database_url: str | None,
                 **limits: Any) -> AsyncIterator[World]:
    async with running_standin(**limits) as dc:
        world = World(dc, tmp_path / "bot.sqlite3", database_url)
        yield world
        LATENCIES[request.node.nodeid] = list(dc.latencies)
        unexpected = world.unexpected_errors()
        assert not unexpected, "the bot logged errors:\n" + "\n".join(unexpected)


@pytest.fixture
async def world(tmp_path: Path, request: pytest.FixtureRequest, database_url: str | None
                ) -> AsyncIterator[World]:
    async for made in _world(tmp_path, request, database_url,
                             global_rate_limit=DISCORD_GLOBAL_LIMIT):
        yield made


@pytest.fixture
async def limited_world(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[World]:
    """A world whose stand-in also enforces Discord's per-channel message limit (5 posts in 5
    seconds), for the tests that count what a game costs."""
    async for made in _world(tmp_path, request, None, global_rate_limit=DISCORD_GLOBAL_LIMIT,
                             message_rate_limit=(5, 5.0)):
        yield made


WorldFactory = Callable[[], World]


def latency_summary() -> dict[str, float | int | str] | None:
    every = [x for values in LATENCIES.values() for x in values]
    if not every:
        return None
    worst_test = max(LATENCIES, key=lambda k: max(LATENCIES[k], default=0.0))
    return {
        "interactions": len(every),
        "median_ms": round(statistics.median(every) * 1000, 1),
        "p95_ms": round(sorted(every)[int(0.95 * (len(every) - 1))] * 1000, 1),
        "worst_ms": round(max(every) * 1000, 1),
        "worst_test": worst_test,
    }


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    summary = latency_summary()
    if summary is None:
        return
    base = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    path = Path(base) / "e2e-latencies.json"
    path.write_text(json.dumps({"summary": summary, "by_test": LATENCIES}, indent=1))
    terminalreporter.write_sep("-", "e2e interaction latencies (dispatch → first callback)")
    terminalreporter.write_line(
        f"{summary['interactions']} interactions: median {summary['median_ms']} ms, "
        f"p95 {summary['p95_ms']} ms, worst {summary['worst_ms']} ms "
        f"({summary['worst_test']})"
    )
    terminalreporter.write_line(f"all figures: {path}")
