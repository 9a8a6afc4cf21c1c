"""The world an end-to-end test plays in: the Discord stand-in with one guild and four
members, the bot's database, and a way to (re)start the real bot on it."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from bot.client import DeductionBot
from bot.config import Config
from bot.plug import AnyGame
from testkit.standin import DiscordStandIn, Guild, User


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
    no request in flight) or stored and not yet taken by its look (on a loaded machine the
    look came after the stand-in's quiet moment: a kill test once found 2 letters owed after
    `settle`), and a change whose slow letters (the reviews at a game's end) are
    being worked out in a thread, not stored yet: the stand-in's `settle` waits for them."""
    sender = getattr(bot, "sender", None)
    working = sender.working if sender is not None else 0
    if working:
        return f"{working} outbox destination(s) being delivered"
    if sender is not None and sender.looking:
        return "the outbox sender looking for the letters a change stored"
    tables = getattr(bot, "tables", None)
    if tables is not None and tables.working:
        return "a change's reviews being worked out"
    return None
