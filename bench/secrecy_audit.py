"""The secrecy audit at scale: 1,000 AI-played 13 Clues games and 1,000 AI-played Mansion
tables through the table service, the rendering and the SQLite outbox, every stored letter
checked for its recipient.

    python -m bench.secrecy_audit [--games 1000] [--mansion-games 1000] [--seed 0]

See tests/shell/secrecy.py (13 Clues) and tests/shell/mansion_audit.py (Mansion) for what is
checked. The two audits run side by side in two processes (one per core). Each prints games,
letters checked, private items delivered, leaks (must be 0) and private items missing (must
be 0); exits 1 otherwise. The SQLite files live in /dev/shm when there is one: the audit is
about what is written, and a fsync per change on a slow disk would only make it wait.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

FOLDER = "/dev/shm" if Path("/dev/shm").is_dir() else None


def thirteen_clues(games: int, seed: int) -> tuple[bool, str]:
    from tests.shell.secrecy import run_audit

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="secrecy-audit-", dir=FOLDER) as folder:
        audit = asyncio.run(run_audit(Path(folder) / "audit.sqlite3", games, seed))
    lines = [f"13 Clues: {audit.report()} ({time.monotonic() - started:.0f}s)"]
    lines += [f"  LEAK {leak}" for leak in audit.leaks[:10]]
    lines += [f"  MISSING {item}" for item in audit.missing[:10]]
    ok = not audit.leaks and not audit.missing and audit.finished == audit.games
    return ok, "\n".join(lines)


def mansion(games: int, seed: int) -> tuple[bool, str]:
    from tests.shell.mansion_audit import run_mansion_audit

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mansion-audit-", dir=FOLDER) as folder:
        audit = asyncio.run(run_mansion_audit(Path(folder) / "audit.sqlite3", games, seed))
    lines = [f"Mansion: {audit.report()} ({time.monotonic() - started:.0f}s)"]
    lines += [f"  LEAK {leak}" for leak in audit.leaks[:10]]
    lines += [f"  MISSING {item}" for item in audit.missing[:10]]
    ok = not audit.leaks and not audit.missing and audit.finished == audit.games
    return ok, "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.secrecy_audit", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="13 Clues games")
    parser.add_argument("--mansion-games", type=int, default=1000, help="Mansion tables")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.monotonic()
    with ProcessPoolExecutor(max_workers=2) as pool:
        jobs = []
        if args.games:
            jobs.append(pool.submit(thirteen_clues, args.games, args.seed))
        if args.mansion_games:
            jobs.append(pool.submit(mansion, args.mansion_games, args.seed))
        results = [job.result() for job in jobs]
    for _, text in results:
        print(text)
    print(f"({time.monotonic() - started:.0f}s)")
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
