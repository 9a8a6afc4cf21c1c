"""Settings from the environment or `.env`: the process conventions the outside relies on."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_DATABASE = Path("data") / "deduction.sqlite3"


@dataclass(frozen=True)
class Config:
    token: str | None
    database_path: Path
    guild_id: int | None = None
    """Sync slash commands to this guild only (instant, for development)."""
    ai_delay: float = 1.5
    """Seconds an AI detective 'thinks' before acting, so a mixed table feels natural."""
    sync_commands: bool = True
    minute_seconds: float = 60.0
    """How long a `turn_minutes` minute lasts; only tests shorten it."""

    @classmethod
    def from_env(cls, env_file: str | Path | None = ".env") -> Config:
        if env_file is not None:
            load_dotenv(env_file, override=False)
        guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_path=Path(os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE),
            guild_id=int(guild) if guild else None,
            ai_delay=float(os.environ.get("AI_DELAY_SECONDS", "1.5")),
            sync_commands=os.environ.get("SYNC_COMMANDS", "1") not in ("0", "false", "no"),
        )
