"""End-to-end fixtures: the real bot, a real SQLite file, the local Discord stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest

from bot.client import DeductionBot
from bot.config import Config
from tests.standin import DiscordStandIn, Guild, User, running_standin


class World:
    """A stand-in Discord with one guild, four members, and a way to (re)start the bot."""

    def __init__(self, dc: DiscordStandIn, db: Path) -> None:
        self.dc = dc
        self.db = db
        self.guild: Guild = dc.add_guild()
        self.channel = self.guild.channel_id
        self.users: list[User] = [
            dc.add_user(name, guild_id=self.guild.id) for name in ("Ann", "Bea", "Cid", "Dee")
        ]
        self.bot: DeductionBot | None = None

    def make_bot(self, **overrides: object) -> DeductionBot:
        config = Config(
            token="standin-token", database_path=self.db, ai_delay=0.05, **overrides  # type: ignore[arg-type]
        )
        return DeductionBot(config)

    def running(self, **overrides: object) -> AbstractAsyncContextManager[DeductionBot]:
        self.bot = self.make_bot(**overrides)
        return self.dc.run_bot(self.bot)  # type: ignore[return-value]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with running_standin() as dc:
        yield World(dc, tmp_path / "bot.sqlite3")


WorldFactory = Callable[[], World]
