"""`python -m bench.chaos`: many 13 Clues games through the local Discord stand-in while the
bot's process is SIGKILLed at random moments and restarted; prints games, kills, acknowledged
actions, actions lost, duplicated actions and messages, and stalled games (all must be 0).

`--cluster`: two processes (shards 0 and 1 of two) on one PostgreSQL database (a throwaway
server, started as the tests start theirs), the games split between a server on each shard,
each kill taking one of the two."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from testkit import pgserver
from testkit.chaos import Report, run_chaos


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--limit", type=float, default=900.0, help="seconds per game")
    parser.add_argument("--cluster", action="store_true",
                        help="two processes, one shard each, on PostgreSQL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report = asyncio.run(chaos(Path(tmp), args))
    print("\n".join(report.lines()))
    for problem in report.problems[:20]:
        print("  problem:", problem)


async def chaos(tmp: Path, args: argparse.Namespace) -> Report:
    if not args.cluster:
        return await run_chaos(tmp, games=args.games, kills=args.kills, seed=args.seed,
                               limit=args.limit)
    server = pgserver.start(durable=True)
    try:
        return await run_chaos(tmp, games=args.games, kills=args.kills, seed=args.seed,
                               limit=args.limit, url=await server.fresh_database("chaos"),
                               shards=2)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
