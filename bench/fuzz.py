"""Bad input at bench size: 10,000 random interactions through the stand-in.

    python -m bench.fuzz [--cases 10000] [--per-world 1000] [--seed 0]

The suite's fuzz (testkit/fuzz.py) in fresh worlds of `--per-world` interactions each (a
world's message history grows, and the fuzzer picks among all of it). Prints the counts;
stops at the first problem (an unanswered interaction, a bot error, a Discord rule broken, a
refusal that changed the database) and exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
import traceback
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from testkit.fuzz import Counts, fuzz


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--per-world", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    worlds = max(1, -(-args.cases // args.per_world))
    total = Counts()
    started = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="bench-fuzz-"))
    runs = iter(range(worlds))

    @settings(max_examples=worlds, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(data=st.data())
    def world(data: st.DataObject) -> None:
        number = next(runs, worlds)
        db = folder / f"world-{number}.sqlite3"
        try:
            counts = asyncio.run(fuzz(db, data.draw, args.per_world, seed=args.seed + number))
        except BaseException:
            print(f"world {number} FAILED:\n{traceback.format_exc()[-6000:]}", flush=True)
            raise
        total.interactions += counts.interactions
        total.kinds.update(counts.kinds)
        total.refused += counts.refused
        total.changed += counts.changed
        total.looked += counts.looked
        total.unsendable += counts.unsendable
        print(f"world {number}: {counts.report()}", flush=True)

    try:
        world()
    except Exception as exc:
        print(f"FAILED after {total.interactions} interactions: {exc}")
        return 1
    print(f"\n{total.report()}")
    print("unanswered 0, bot errors 0, Discord rule violations 0, refusals that changed the "
          f"database 0 ({time.monotonic() - started:.0f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
