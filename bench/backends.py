"""CPU per committed change, SQLite against PostgreSQL, side by side in one run:

    python -m bench.backends [--rounds 5] [--commits 200]

The change is bench.side's realistic one (a 4-seat 13 Clues question: the new state, the log
row, its letters, the timer moves), committed again and again through each backend's real
`commit`. For each backend: wall time per commit, the bot process's CPU per commit (for
SQLite this includes the database's work, done in the bot's own writer thread), and for
PostgreSQL the server's CPU per commit too (its backends, read from /proc), so that the
whole cost is comparable. PostgreSQL runs durable (fsync, synchronous_commit on) on a local
unix socket, as SQLite runs with synchronous=FULL: a server on another machine adds a network
round trip per statement. Needs PostgreSQL's binaries (testkit/pgserver.py finds them).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.side import realistic_change
from bot.storage import Change, PostgresStorage, SqliteStorage, Storage
from testkit import pgserver


@dataclass
class Figures:
    wall: list[float] = field(default_factory=list)
    bot_cpu: list[float] = field(default_factory=list)
    server_cpu: list[float] = field(default_factory=list)

    def line(self, name: str) -> str:
        wall, bot = statistics.median(self.wall), statistics.median(self.bot_cpu)
        text = (f"{name:<10} wall {wall * 1000:6.2f} ms/commit · bot CPU "
                f"{bot * 1000:6.2f} ms/commit")
        if self.server_cpu:
            server = statistics.median(self.server_cpu)
            text += (f" · server CPU {server * 1000:6.2f} ms/commit · together "
                     f"{(bot + server) * 1000:6.2f} ms/commit")
        return text


async def commit_round(storage: Storage, change: Change, version: int, commits: int,
                       server: pgserver.PostgresServer | None, figures: Figures) -> int:
    """`commits` commits of the change, one after the other; returns the version reached."""
    server_before = server.cpu_seconds() if server is not None else 0.0
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(commits):
        after = change.table.model_copy(update={"version": version + 1})
        await storage.commit(Change(after, expected=version, log=change.log,
                                    letters=change.letters, timers=change.timers))
        version += 1
    figures.wall.append((time.perf_counter() - wall) / commits)
    figures.bot_cpu.append((time.process_time() - cpu) / commits)
    if server is not None:
        figures.server_cpu.append((server.cpu_seconds() - server_before) / commits)
    return version


async def run(rounds: int, commits: int) -> str:
    server = pgserver.start(durable=True)
    try:
        lite = SqliteStorage(Path(tempfile.mkdtemp(prefix="bench-backends-")) / "b.sqlite3")
        pg = PostgresStorage(await server.fresh_database("bench"))
        sides: list[tuple[str, Storage, pgserver.PostgresServer | None]] = [
            ("sqlite", lite, None), ("postgres", pg, server)]
        prepared: list[list[Any]] = []
        for name, storage, watched in sides:
            await storage.open()
            table, change = await realistic_change(storage)
            prepared.append([name, storage, watched, change, table.version, Figures()])
        for _ in range(rounds):  # side by side, round after round: the machine is noisy
            for side in prepared:
                name, storage, watched, change, version, figures = side
                side[4] = await commit_round(storage, change, version, commits, watched,
                                             figures)
        for side in prepared:
            await side[1].close()
    finally:
        server.stop()
    lines = [side[5].line(side[0]) for side in prepared]
    sqlite_figures, pg_figures = prepared[0][5], prepared[1][5]
    bot_ratio = statistics.median(
        p / s for p, s in zip(pg_figures.bot_cpu, sqlite_figures.bot_cpu, strict=True))
    whole_ratio = statistics.median(
        (p + q) / s for p, q, s in zip(pg_figures.bot_cpu, pg_figures.server_cpu,
                                       sqlite_figures.bot_cpu, strict=True))
    return ("\n".join(
        [f"CPU per committed change (bench.side's realistic change; median of {rounds} rounds"
         f" of {commits} commits, side by side):", *(f"    {x}" for x in lines),
         f"    PostgreSQL / SQLite: bot CPU {bot_ratio:.2f}×, bot and server CPU together "
         f"{whole_ratio:.2f}× (issue 19's target: ≤ 1.5×, per process)"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.backends", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--commits", type=int, default=200)
    args = parser.parse_args(argv)
    try:
        print(asyncio.run(run(args.rounds, args.commits)))
    except pgserver.NoPostgres as exc:
        print(f"cannot start PostgreSQL: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
