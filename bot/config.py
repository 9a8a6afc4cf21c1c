"""Settings from the environment or `.env`: the process conventions the outside relies on."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_DATABASE = Path("data") / "deduction.sqlite3"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class ConfigError(Exception):
    """A setting that cannot be used; the message says which and how to fix it."""


@dataclass(frozen=True)
class Config:
    token: str | None
    database_path: Path
    database_url: str | None = None
    """PostgreSQL (`postgresql://…`), the database several processes can share: when set,
    it wins over `database_path`."""
    guild_id: int | None = None
    """Sync slash commands to this guild only (instant, for development)."""
    ai_delay: float = 1.5
    """Seconds an AI detective 'thinks' before acting, so a mixed table feels natural."""
    sync_commands: bool = True
    minute_seconds: float = 60.0
    """How long a `turn_minutes` minute lasts; only tests shorten it."""
    member_events: bool = False
    """Ask for the privileged Server Members intent to notice seated members who leave the
    server (enable it in the developer portal first, or Discord refuses the connection)."""
    retry_base: float = 0.5
    """The outbox's first back-off after a passing fault, doubled at each try (tests shorten
    it)."""
    lease_ttl: float = 30.0
    """Seconds the one-process lease lasts without renewal."""
    lease_wait: float = 90.0
    """Seconds a starting process waits for another to release the database."""
    ai_workers: int = 0
    """Processes the AI detectives think in, beside the bot's own (0: in the bot's process,
    which then stalls every table while an expert thinks). `python -m bot` reads AI_WORKERS,
    default 1; bots built in tests think in their own process unless they ask."""
    rest_per_second: float = 45.0
    """This process's share of Discord's global rate limit (50 requests a second per token,
    every process together; interaction answers are outside it): the outbox paces its
    requests below it. A cluster of N processes gives each 45 / N (REST_PER_SECOND)."""
    draw_workers: int = 0
    """Processes the pictures are drawn in (0: a thread of the bot's process, where half of
    each drawing holds the GIL and delays the event loop). `python -m bot` reads
    DRAW_WORKERS, default 2."""

    @classmethod
    def from_env(cls, env_file: str | Path | None = ".env") -> Config:
        if env_file is not None:
            load_dotenv(env_file, override=False)
        guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
        url = os.environ.get("DATABASE_URL", "").strip() or None
        if url is not None and not url.startswith(POSTGRES_SCHEMES):
            raise ConfigError(
                "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/db);"
                " leave it unset to keep the SQLite file of DATABASE_PATH."
            )
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=Path(os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE),
            database_url=url,
            guild_id=int(guild) if guild else None,
            ai_delay=float(os.environ.get("AI_DELAY_SECONDS", "1.5")),
            sync_commands=_flag(os.environ.get("SYNC_COMMANDS", "1")),
            member_events=_flag(os.environ.get("MEMBER_EVENTS", "0")),
            lease_wait=float(os.environ.get("LEASE_WAIT_SECONDS", "90")),
            ai_workers=int(os.environ.get("AI_WORKERS", "1")),
            draw_workers=int(os.environ.get("DRAW_WORKERS", "2")),
            rest_per_second=float(os.environ.get("REST_PER_SECOND", "45")),
        )


    @property
    def database(self) -> str:
        """The database in words, for messages (a URL's password left out)."""
        if self.database_url is None:
            return str(self.database_path)
        scheme, _, rest = self.database_url.partition("://")
        credentials, at, place = rest.rpartition("@")
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}{at}{place}"


def _flag(text: str) -> bool:
    return text.strip().lower() not in ("", "0", "false", "no", "off")
