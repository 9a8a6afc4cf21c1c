"""`python -m bench.chaos`: many 13 Clues games through the local Discord stand-in while the
bot's process is SIGKILLed at random moments and restarted; prints games, kills, acknowledged
actions, actions lost, duplicated actions and messages, and stalled games (all must be 0)."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from testkit.chaos import run_chaos


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--limit", type=float, default=900.0, help="seconds per game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report = asyncio.run(run_chaos(Path(tmp), games=args.games, kills=args.kills,
                                       seed=args.seed, limit=args.limit))
    print("\n".join(report.lines()))
    for problem in report.problems[:20]:
        print("  problem:", problem)


if __name__ == "__main__":
    main()
