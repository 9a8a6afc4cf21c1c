"""The secrecy audit at scale: 1,000 AI-played 13 Clues games and 1,000 AI-played Mansion
tables through the table service, the rendering and the SQLite outbox, every stored letter
checked for its recipient.

    python -m bench.secrecy_audit [--games 1000] [--mansion-games 1000] [--seed 0]
                                  [--workers 2]

See testkit/secrecy.py (13 Clues) and testkit/mansion_audit.py (Mansion) for what is
checked. The games are played in chunks (each its own SQLite file and seed) by `--workers`
processes; the counts are added up per game. Each game's line gives games, letters checked,
private items delivered, leaks (must be 0) and private items missing (must be 0); exits 1
otherwise. The SQLite files live in /dev/shm when there is one: the audit is about what is
written, and a fsync per change on a slow disk would only make it wait.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

FOLDER = "/dev/shm" if Path("/dev/shm").is_dir() else None
CHUNK = {"13 Clues": 50, "Mansion": 20}


def chunk(game: str, games: int, seed: int) -> Any:
    """One chunk of games on its own file: the audit's counts."""
    from testkit.mansion_audit import run_mansion_audit
    from testkit.secrecy import run_audit

    run = run_audit if game == "13 Clues" else run_mansion_audit
    with tempfile.TemporaryDirectory(prefix="secrecy-audit-", dir=FOLDER) as folder:
        return asyncio.run(run(Path(folder) / "audit.sqlite3", games, seed))


def merge(audits: list[Any]) -> Any:
    """The counts of several audits of one game, added up."""
    total = type(audits[0])()
    for audit in audits:
        for f in dataclasses.fields(total):
            mine, theirs = getattr(total, f.name), getattr(audit, f.name)
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            else:
                setattr(total, f.name, mine + theirs)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.secrecy_audit", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="13 Clues games")
    parser.add_argument("--mansion-games", type=int, default=1000, help="Mansion tables")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=None,
                        help="start no chunk after this budget; report the games played")
    args = parser.parse_args(argv)
    budget = None if args.minutes is None else time.monotonic() + args.minutes * 60
    started = time.monotonic()
    wanted = {"Mansion": args.mansion_games, "13 Clues": args.games}
    results: dict[str, list[Any]] = {game: [] for game in wanted}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        plan = {game: [(min(CHUNK[game], games - first), args.seed * 1000 + k)
                       for k, first in enumerate(range(0, games, CHUNK[game]))]
                for game, games in wanted.items()}
        jobs = {}
        for i in range(max(len(p) for p in plan.values())):  # the games in turn
            for game, chunks in plan.items():
                if i < len(chunks):
                    jobs[pool.submit(chunk, game, *chunks[i])] = game
        for job in as_completed(jobs):
            if job.cancelled():
                continue
            game = jobs[job]
            results[game].append(job.result())
            done = sum(a.games for a in results[game])
            print(f"  {game}: {done}/{wanted[game]} ({time.monotonic() - started:.0f}s)",
                  flush=True)
            if budget is not None and time.monotonic() > budget:
                cut = sum(1 for j in jobs if j.cancel())
                if cut:
                    print(f"  (budget of {args.minutes:g} min spent: {cut} chunks not started)",
                          flush=True)
    ok = True
    for game in ("13 Clues", "Mansion"):
        if not results[game]:
            continue
        audit = merge(results[game])
        print(f"{game}: {audit.report()}")
        for leak in audit.leaks[:10]:
            print(f"  LEAK {leak}")
        for item in audit.missing[:10]:
            print(f"  MISSING {item}")
        ok &= not audit.leaks and not audit.missing and audit.finished == audit.games
        if audit.games < wanted[game]:
            print(f"  (only {audit.games} of {wanted[game]} {game} games within the budget)")
    print(f"({time.monotonic() - started:.0f}s, {args.workers} processes)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
