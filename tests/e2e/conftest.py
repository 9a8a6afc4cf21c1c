"""End-to-end fixtures: the real bot, a real SQLite file (or PostgreSQL database), the local
Discord stand-in.

Every test's interaction latencies (dispatch → the bot's first callback, as the stand-in
measures them) are collected for the whole session: the terminal summary prints the median
and the worst, and `e2e-latencies.json` under pytest's base temp directory keeps them all.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest

from bot.client import DeductionBot
from bot.config import Config
from bot.plug import AnyGame
from tests.standin import DiscordStandIn, Guild, User, running_standin
from tests.standin.globallimit import DISCORD_GLOBAL_LIMIT

LATENCIES: dict[str, list[float]] = {}
"""test node id → the latencies of its interactions."""


class World:
    """A stand-in Discord with one guild, four members, and a way to (re)start the bot."""

    def __init__(self, dc: DiscordStandIn, db: Path, database_url: str | None = None) -> None:
        self.dc = dc
        self.db = db
        self.database_url = database_url
        """PostgreSQL instead of the SQLite file `db`, when set."""
        self.guild: Guild = dc.add_guild()
        self.channel = self.guild.channel_id
        self.users: list[User] = [
            dc.add_user(name, guild_id=self.guild.id) for name in ("Ann", "Bea", "Cid", "Dee")
        ]
        self.bot: DeductionBot | None = None
        self.expected_errors: list[str] = []
        """Parts of the ERROR log lines this test expects the bot to write (the allow-list);
        any other error the bot logs fails the test."""

    def expect_error(self, part: str) -> None:
        self.expected_errors.append(part)

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.dc.bot_errors
                if not any(part in e for part in self.expected_errors)]

    def make_bot(self, games: Sequence[AnyGame] | None = None, **overrides: object
                 ) -> DeductionBot:
        settings: dict[str, object] = {"token": "standin-token", "database_path": self.db,
                                       "database_url": self.database_url,
                                       "ai_delay": 0.05, "retry_base": 0.05}
        config = Config(**{**settings, **overrides})  # type: ignore[arg-type]
        return DeductionBot(config, games)

    def running(self, games: Sequence[AnyGame] | None = None, **overrides: object
                ) -> AbstractAsyncContextManager[DeductionBot]:
        """Start the bot (Config fields as overrides; `games` instead of the registry's);
        again after exit restarts it on the same database."""
        self.bot = self.make_bot(games, **overrides)
        bot = self.bot
        self.dc.busy_checks[:] = [lambda: delivering(bot)]
        return self.dc.run_bot(self.bot)  # type: ignore[return-value]


def delivering(bot: DeductionBot) -> str | None:
    """Letters in the outbox sender's hands (a picture is drawn in a thread meanwhile, with
    no request in flight), and a change whose slow letters (the reviews at a game's end) are
    being worked out in a thread, not stored yet: the stand-in's `settle` waits for them."""
    sender = getattr(bot, "sender", None)
    working = sender.working if sender is not None else 0
    if working:
        return f"{working} outbox destination(s) being delivered"
    tables = getattr(bot, "tables", None)
    if tables is not None and tables.working:
        return "a change's reviews being worked out"
    return None


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
