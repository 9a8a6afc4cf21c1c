"""The secrecy audit at scale: 1,000 AI-played 13 Clues games through the table service, the
rendering and the SQLite outbox, every stored letter checked for its recipient.

    python -m bench.secrecy_audit [--games 1000] [--seed 0]

See tests/shell/secrecy.py for what is checked. Prints games, letters checked, private items
delivered, leaks (must be 0) and private items missing (must be 0); exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from tests.shell.secrecy import run_audit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.secrecy_audit", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="secrecy-audit-") as folder:
        audit = asyncio.run(run_audit(Path(folder) / "audit.sqlite3", args.games, args.seed))
    print(audit.report())
    print(f"({time.monotonic() - started:.0f}s)")
    for leak in audit.leaks[:10]:
        print(f"  LEAK {leak}")
    for item in audit.missing[:10]:
        print(f"  MISSING {item}")
    return 0 if not audit.leaks and not audit.missing and audit.finished == audit.games else 1


if __name__ == "__main__":
    sys.exit(main())
