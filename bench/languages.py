"""What the languages cost: reading and compiling the catalogs (once per process, at the
first text in a language) and looking a text up.

    python -m bench.languages [--calls 200000]

Printed: the import of Babel and `bot.i18n`, then each catalog's read from its `.po` and
compilation in memory (wall time and this thread's CPU time, which a shared machine does not
inflate), then `tr` and `trn` per call (best of 5 runs). Figures only.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable


def clock() -> tuple[float, float]:
    return time.perf_counter(), time.thread_time()


def since(start: tuple[float, float]) -> str:
    wall, cpu = clock()
    return f"{(wall - start[0]) * 1000:.1f} ms (cpu {(cpu - start[1]) * 1000:.1f} ms)"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.languages")
    parser.add_argument("--calls", type=int, default=200_000)
    args = parser.parse_args()
    start = clock()
    from bot import i18n

    print(f"import bot.i18n (Babel included): {since(start)}")
    for code in i18n.languages()[1:]:
        start = clock()
        entries = len(i18n.language(code).catalog)
        print(f"catalog {code}: {entries} entries read and compiled in {since(start)}")
    for name, call in (
        ("tr", lambda: i18n.tr("fr", "You left the table.")),
        ("tr with a placeholder", lambda: i18n.tr("de", "{name} has no finished games here "
                                                        "yet.", name="Ann")),
        ("trn", lambda: i18n.trn("es", "{n} win", "{n} wins", 3)),
    ):
        best = min(_timed(call, args.calls) for _ in range(5))
        print(f"{name}: {best / args.calls * 1e6:.2f} µs per call (best of 5 × {args.calls})")


def _timed(call: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        call()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
