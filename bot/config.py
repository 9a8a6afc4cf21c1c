"""Settings from the environment or `.env`: the process conventions the outside relies on."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot.pacing import DEFAULT_RATE
from bot.workers import STARTED_ON

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
    rest_per_second: float = DEFAULT_RATE
    """This process's share of Discord's global rate limit (50 requests a second per token,
    every process together; interaction answers are outside it): the outbox paces its
    requests below it. REST_PER_SECOND, by default about 45 / the cluster's size (`rest_share`)."""
    shard_count: int | None = None
    """Shards of the whole bot (SHARD_COUNT); None: as many as Discord recommends."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process plays (SHARD_IDS); None: every shard, one process."""
    cluster_size: int = 1
    """Processes playing together on this token and database (CLUSTER_SIZE, by default
    SHARD_COUNT / the number of SHARD_IDS, rounded up): how many share the REST limit."""
    draw_workers: int = 0
    """Processes the pictures are drawn in (0: a thread of the bot's process, where half of
    each drawing holds the GIL and delays the event loop). `python -m bot` reads
    DRAW_WORKERS, default 2."""
    loop_cpu: int | None = None
    """The CPU the event loop keeps to (LOOP_CPU; `workers.pin_loop`): for the processes of a
    cluster that share a machine, a core each. None: any CPU."""

    @classmethod
    def from_env(cls, env_file: str | Path | None = ".env",
                 flags: Mapping[str, str] | None = None) -> Config:
        """`flags`: settings given on the command line, which win over the environment's
        (`python -m bot --shard-count 4 --shard-ids 0,1`)."""
        if env_file is not None:
            load_dotenv(env_file, override=False)
        given = {**os.environ, **(flags or {})}
        guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
        url = os.environ.get("DATABASE_URL", "").strip() or None
        if url is not None and not url.startswith(POSTGRES_SCHEMES):
            raise ConfigError(
                "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/db);"
                " leave it unset to keep the SQLite file of DATABASE_PATH."
            )
        shard_count, shard_ids = _shards(given.get("SHARD_COUNT", ""), given.get("SHARD_IDS", ""))
        if shard_ids is not None and shard_count is not None and url is None \
                and len(shard_ids) < shard_count:
            raise ConfigError(
                "SHARD_IDS names only some of the shards: the others' processes must share this"
                " one's database, and only PostgreSQL can be shared. Set DATABASE_URL, or leave"
                " SHARD_IDS unset to play every shard in this process."
            )
        size = _cluster_size(given.get("CLUSTER_SIZE", ""), shard_count, shard_ids)
        rest = given.get("REST_PER_SECOND", "").strip()
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
            rest_per_second=float(rest) if rest else rest_share(size),
            shard_count=shard_count,
            shard_ids=shard_ids,
            cluster_size=size,
            loop_cpu=_loop_cpu(given.get("LOOP_CPU", "")),
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


SKEW_MARGIN = 3.0
"""Requests a second left unspent for each process of a cluster past the first (`rest_share`)."""


def rest_share(processes: int) -> float:
    """One process's safe share of the global REST limit in a cluster of `processes`: 45 /
    N, less `SKEW_MARGIN` for each process past the first (2 processes: 21 each, 3: 13).

    Why the margin: each process paces its own requests, and none escapes its pacer (in a
    2-process `bench.cluster` run at 200 tables, each process's pacer granted 813 and 1,105
    requests for 723 and 1,014 made under the limit), yet 2 processes met 20–30 global 429s
    where 1 met 1–6. A request leaves its process some time after its grant (the event loop
    busy, or preempted in a send), and two processes' delays are independent: their requests,
    paced apart, reach Discord bunched, and a second of them can hold more than 2 × the
    share. One process's requests are all delayed together, which its sliding second
    (`Pacer.ceiling`) still bounds."""
    return (DEFAULT_RATE - SKEW_MARGIN * (processes - 1)) / processes


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0,1"), checked against each other."""
    try:
        count = int(count_text) if count_text.strip() else None
        ids = (tuple(int(i) for i in ids_text.split(",") if i.strip())
               if ids_text.strip() else None)
    except ValueError:
        raise ConfigError(
            "SHARD_COUNT must be a whole number and SHARD_IDS a list of them, such as 0,1."
        ) from None
    if count is not None and count < 1:
        raise ConfigError("SHARD_COUNT must be at least 1.")
    if ids is not None:
        if count is None:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT: the shards of the whole bot.")
        if len(set(ids)) != len(ids) or not all(0 <= i < count for i in ids):
            raise ConfigError(
                f"SHARD_IDS must name different shards from 0 to {count - 1} (SHARD_COUNT is"
                f" {count}).")
        ids = tuple(sorted(ids))
    return count, ids


def _cluster_size(text: str, count: int | None, ids: tuple[int, ...] | None) -> int:
    if text.strip():
        if not text.strip().isdigit() or int(text) < 1:
            raise ConfigError("CLUSTER_SIZE must be a whole number, at least 1.")
        return int(text)
    if count is None or ids is None:
        return 1
    return math.ceil(count / len(ids))


def _loop_cpu(text: str) -> int | None:
    """LOOP_CPU: one of the CPUs this process may run on (Linux only)."""
    if not text.strip():
        return None
    if STARTED_ON is None:
        raise ConfigError("LOOP_CPU works on Linux only: leave it unset here.")
    usable = sorted(STARTED_ON)
    if not text.strip().isdigit() or int(text) not in usable:
        raise ConfigError(
            f"LOOP_CPU must be one of the CPUs this process may run on: "
            f"{', '.join(map(str, usable))}.")
    return int(text)


def _flag(text: str) -> bool:
    return text.strip().lower() not in ("", "0", "false", "no", "off")
