"""Notes solve time for Clue: Mystery Beyond the Mansion (target: p99 ≤ 20 ms).

    python -m bench.mansion_notes [--games 40] [--per-game 10]

Positions come from real AI games (random tables of easy / normal / expert players, both
variants), each seen by the seat that must act at a random decision. Each position is
timed once, as the bot would call it (`notes(view, "full")`: facts, exact solve, the
grid), and as the best of 3 runs, which filters out other processes on a busy machine;
also the thread CPU time of the single run (`cpu`), which a machine shared with other
work does not inflate.
Also printed: the share of positions whose solution is certain, the median number of
consistent deals, and the bookkeeping level's time. Figures only.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bench.figures import ms_spread
from engine.mansion.ai.selfplay import ai_positions
from engine.mansion.deduction import solve
from engine.mansion.notes import notes
from engine.mansion.views import PlayerView


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def cpu_timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call."""
    cpu, wall = time.thread_time(), time.perf_counter()
    fn()
    return time.perf_counter() - wall, time.thread_time() - cpu


def views_for(players: int, games: int, per_game: int) -> list[PlayerView]:
    out = []
    for variant in ("standard", "one_against_all"):
        for _, view in ai_positions(players, variant, games // 2, seed=7, per_game=per_game):
            out.append(view)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="AI games per player count")
    parser.add_argument("--per-game", type=int, default=10)
    args = parser.parse_args()
    header: tuple[str, ...] = (
        "players", "positions", "full med", "p99", "max", "best3 med", "p99", "max")
    header += ("cpu med", "p99", "bookkeeping med", "p99", "certain", "deals med")
    print(" | ".join(f"{h:>9}" for h in header))
    for players in (3, 4, 5):
        views = views_for(players, args.games, args.per_game)
        both = [cpu_timed(lambda v=v: notes(v, "full")) for v in views]  # type: ignore[misc]
        once = [w for w, _ in both]
        cpu = [c for _, c in both]
        best = [min(timed(lambda v=v: notes(v, "full")) for _ in range(3)) for v in views]  # type: ignore[misc]
        books = [timed(lambda v=v: notes(v, "bookkeeping")) for v in views]  # type: ignore[misc]
        deductions = [solve(v) for v in views]
        cells = (
            str(players),
            str(len(views)),
            *ms_spread(once),
            *ms_spread(best),
            *ms_spread(cpu, worst=False),
            *ms_spread(books, worst=False),
            f"{sum(d.certain() is not None for d in deductions) / len(views):.0%}",
            f"{statistics.median(d.total for d in deductions):.1e}",
        )
        print(" | ".join(f"{c:>9}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
