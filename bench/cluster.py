"""`python -m bench.cluster`: the load of `bench.load` on one process with SQLite, then on 1,
2 and 3 processes (a shard cluster, one shard each) with PostgreSQL, in one run.

    python -m bench.cluster [--tables 200] [--seconds 40] [--processes 1 2 3] [--rate 70]
                            [--unpinned]

PostgreSQL is a throwaway durable server on a unix socket, started as the tests start theirs
(testkit/pgserver.py), a fresh database for each run. For each setup it prints interactions per
second; INTERACTION_CREATE → the bot's first callback (median, p99, max, measured in the bot
process); the bots' CPU per interaction, in all and for each process; and the requests a
second the stand-in counted under Discord's global limit (mean and peak: at most 50); the
cores each part kept busy on average (the bots, their AI and drawing helpers, the stand-in
with the driver, PostgreSQL: on a small machine they share the cores the bots' tails wait
for); the machine's load average as the setup began and ended; and the first callback's
figures again for steady play, after the ramp in which every table opens (`bench.load`: a
cold start of every table within seconds, their lobbies and first deals, is one no running
bot meets). The driver plays the members from a copy of the tables polled every 50 ms, so its
reads are not charged to the bots. A cluster's processes keep their event loops each to a
CPU of its own (LOOP_CPU, as README deploys processes that share a machine; `--unpinned`:
any CPU). Every setup is offered the same load: at most `--rate` member interactions a
second (`RATE`; 0 lifts the cap, and each setup is then offered what it lets the members
make). Every figure moves with what else the machine runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg

from bench.load import HARNESS_NICE, Cluster, Run, pct, run, seconds_or_na, spread
from testkit import pgserver
from testkit.drive import postgres_query

POLL = 0.05
RATE = 70.0
"""Member interactions a second offered to every setup (`--rate`). The members act a moment
after the bot shows them the last change, so uncapped, each setup is offered what it lets
through: on 2 cores 1 process on PostgreSQL was offered 103–109 a second and 2 processes 84–86
in the same run (the REST budget split in two shows changes later), and their first callbacks
were compared at different loads. Every setup sustains 70 a second on a quiet machine (with
the cap, each made 62–65 a second at load 3), so all are compared at one load;
`interactions/s` says what each was offered."""


class PolledTables:
    """Each channel's latest table row, as PostgreSQL holds it, polled: a row's state is read
    again only when its version moved."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._by_channel: dict[int, dict[str, Any]] = {}
        self._versions: dict[int, int] = {}

    def get(self, channel_id: int) -> Mapping[str, Any] | None:
        return self._by_channel.get(channel_id)

    async def follow(self) -> None:
        con = await asyncpg.connect(self.url)
        try:
            while True:
                try:
                    heads = await con.fetch("SELECT id, version FROM tables")
                except asyncpg.UndefinedTableError:  # the first bot has not migrated yet
                    await asyncio.sleep(POLL)
                    continue
                moved = [r["id"] for r in heads if self._versions.get(r["id"]) != r["version"]]
                if moved:
                    for row in await con.fetch(
                        "SELECT id, channel_id, status, state, version FROM tables"
                        " WHERE id = ANY($1::bigint[]) ORDER BY id", moved):
                        self._versions[row["id"]] = row["version"]
                        known = self._by_channel.get(row["channel_id"])
                        if known is None or known["id"] <= row["id"]:
                            self._by_channel[row["channel_id"]] = dict(row)
                await asyncio.sleep(POLL)
        finally:
            await con.close()


async def on_postgres(server: pgserver.PostgresServer, args: argparse.Namespace,
                      processes: int) -> tuple[Run, float]:
    """The run, and the CPU seconds PostgreSQL spent in it (the driver's polling included)."""
    url = await server.fresh_database(f"cluster{processes}")
    tables = PolledTables(url)
    following = asyncio.create_task(tables.follow())

    def query(sql: str) -> Sequence[Sequence[Any]]:
        return [tuple(r) for r in postgres_query(url, sql, ())]

    before = server.cpu_seconds()
    try:
        result = await run(args.tables, args.seconds, args.ai_delay, args.seed, None,
                           cluster=Cluster(processes, url, tables.get, query,
                                           pinned=not args.unpinned),
                           rate=offered(args), harness_nice=args.harness_nice)
        return result, server.cpu_seconds() - before
    finally:
        following.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await following


def offered(args: argparse.Namespace) -> float | None:
    """The cap on the members' interactions a second, the same for every setup (None: none)."""
    return args.rate if args.rate > 0 else None


def figures(name: str, result: Run, server_cpu: float | None = None) -> str:
    ms = [x * 1000 for x in result.bot_side]
    per = [c / max(1, result.interactions) * 1000 for c in result.cpu_by_process]
    return (
        f"{name}: {result.rate:.1f} interactions/s ({result.interactions} in "
        f"{result.seconds:.0f} s); first callback median {statistics.median(ms):.1f} ms, "
        f"p99 {pct(ms, 0.99):.1f} ms, max {max(ms):.1f} ms{by_process(result)}; "
        f"bot CPU per interaction {result.cpu / max(1, result.interactions) * 1000:.2f} ms "
        "(per process: "
        f"{', '.join(f'{x:.2f}' for x in per)} ms); stand-in "
        f"{result.rest_window / result.seconds:.1f} requests/s, peak {result.rest_peak}/s, 429s "
        f"{result.rest_429}; unanswered {result.unanswered}, bot errors "
        f"{len(result.bot_errors)}, Discord rule violations {len(result.violations)}"
        + f"\n    cores busy on average: bots {result.cpu / result.seconds:.2f}, their helpers "
          f"{result.helpers_cpu / result.seconds:.2f}, stand-in and driver "
          f"{result.driver_cpu / result.seconds:.2f}"
        + ("" if server_cpu is None else f", PostgreSQL {server_cpu / result.seconds:.2f}")
        + f"; the loops waited {seconds_or_na(result.loop_waited)} for a core (the stand-in"
          f" and driver at nice {result.nices[0]}, the bots at {result.nices[1]})"
        + f"\n    letters: a member's action → their own last DM "
          f"{spread(result.delays.own_dm, 's')}; the table message behind its game "
          f"{spread(result.delays.table, 's')}"
        + f"\n    stand-in {result.rest_kinds}"
        + (f"\n    after the ramp ({result.ramp:g} s; every table open): first callback "
           + spread([x * 1000 for x in result.steady.bot_side], "ms")
           + f" (n={len(result.steady.bot_side)})" if result.steady is not None else "")
        + "\n    slowest kinds (bot side, p99): " + "; ".join(
            f"{kind} {pct(xs, 0.99) * 1000:.0f} ms (n={len(xs)})"
            for kind, xs in sorted(result.by_kind.items(), key=lambda kv: -pct(kv[1], 0.99))[:5])
        + "".join(f"\n    bot: {e[:240]}" for e in result.bot_errors[:3])
        + "".join(f"\n    violation: {v[:400]}" for v in result.violations[:3]))


def by_process(result: Run) -> str:
    """Each process's first-callback p99 in a cluster (which one sets the tail), and the DM
    interactions' (Discord sends them all to shard 0)."""
    processes = "" if len(result.bot_side_by_process) < 2 else "by process: " + ", ".join(
        p99_of(xs) for xs in result.bot_side_by_process) + "; "
    return f" (p99 {processes}in DMs: {p99_of(result.bot_side_dms)})"


def p99_of(seconds: Sequence[float]) -> str:
    return f"{pct([x * 1000 for x in seconds], 0.99):.1f} ms of {len(seconds)}" if seconds \
        else "none"


def load_average() -> str:
    """The machine's 1-minute load average now: every figure here moves with it."""
    return f"{os.getloadavg()[0]:.1f}"


async def main_async(args: argparse.Namespace) -> list[str]:
    lines = []
    server = pgserver.start(durable=True)  # before any run yields: it keeps the bots' niceness
    try:
        before = load_average()
        lite = await run(args.tables, args.seconds, args.ai_delay, args.seed, None,
                         rate=offered(args), harness_nice=args.harness_nice)
        lines.append(figures("1 process, SQLite", lite) + f"; load {before} → {load_average()}")
        print(lines[-1], flush=True)
        for processes in args.processes:
            before = load_average()
            result, server_cpu = await on_postgres(server, args, processes)
            pinned = ", each loop on a CPU of its own" if processes > 1 and not args.unpinned \
                else ""
            lines.append(figures(f"{processes} process{'es' * (processes > 1)}, PostgreSQL"
                                 f"{pinned}", result, server_cpu)
                         + f"; load {before} → {load_average()}")
            print(lines[-1], flush=True)
    finally:
        server.stop()
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--ai-delay", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rate", type=float, default=RATE,
                        help=f"member interactions a second offered to every setup, at most"
                             f" (default {RATE:g}; 0: as many as each setup lets the members"
                             " make)")
    parser.add_argument("--unpinned", action="store_true",
                        help="a cluster's event loops on any CPU (by default each process's "
                             "loop keeps to a CPU of its own, LOOP_CPU, as README deploys "
                             "processes sharing a machine)")
    parser.add_argument("--harness-nice", type=int, default=HARNESS_NICE, metavar="N",
                        help="this process's niceness while it measures (bench.load's "
                             f"--harness-nice; default {HARNESS_NICE})")
    args = parser.parse_args(argv)
    cap = "no cap" if offered(args) is None else f"at most {args.rate:g} interactions/s offered"
    print(f"bench.cluster: {os.cpu_count()} CPUs, {args.tables} tables, {args.seconds:.0f} s"
          f" each, {cap}\n", flush=True)
    lines = asyncio.run(main_async(args))
    print("\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
