"""Timing of the exact deduction solver, and its speed-up over the literal enumerator.

Run from the repo root: .venv/bin/python -m bench.deduction [--positions 300]

Positions: seeded random games (random passes, questions incl. Top Secret and 2016 category
ones, informant consults, wrong accusations), 4 moments per game between 5 and 45 actions
(mid-game), each seen from a random seat. Each solve() is timed once with time.perf_counter
(as the bot would call it) and also as the best of 3 runs, which filters out other processes
on a busy machine. The enumerator runs on the first `--brute` positions per count with a
budget; speed-up = its time / solve() time on the positions it finished. "worlds" is the
number of complete assignments solve() counted: what enumerating assignment by assignment
would visit.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench.figures import ms, ms_spread
from engine.thirteen_clues import PlayerView, player_view
from engine.thirteen_clues.bruteforce import TooLarge, brute_force, random_states
from engine.thirteen_clues.deduction import slot_joint, solve

BUDGET = 300_000
HEADER: tuple[str, ...] = (
    "players", "solve med", "p99", "max", "best3 med", "p99", "joint med", "p99")
HEADER += ("brute done", "brute med", "speed-up med", "overall", "worlds med")


def positions(players: int, count: int, seed: int = 2024) -> list[PlayerView]:
    rng = random.Random(seed * 10 + players)
    views: list[PlayerView] = []
    while len(views) < count:
        stops = sorted(rng.randint(5, 45) for _ in range(4))
        for state in random_states(rng, players, stops):
            views.append(player_view(state, rng.randrange(players)))
    return views[:count]


def timed(fn: Callable[[PlayerView], object], view: PlayerView) -> float:
    start = time.perf_counter()
    fn(view)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--brute", type=int, default=60, help="positions per count to enumerate")
    args = parser.parse_args()
    print(" | ".join(f"{h:>10}" for h in HEADER))
    for players in (2, 3, 4, 5, 6):
        views = positions(players, args.positions)
        once = [timed(solve, v) for v in views]
        best = [min(timed(solve, v) for _ in range(3)) for v in views]
        joint = [timed(slot_joint, v) for v in views]
        ratios: list[float] = []
        brute_times: list[float] = []
        solve_sum = 0.0
        tried = views[: args.brute]
        for v, t in zip(tried, best, strict=False):
            start = time.perf_counter()
            try:
                brute_force(v, budget=BUDGET)
            except TooLarge:
                continue
            elapsed = time.perf_counter() - start
            brute_times.append(elapsed)
            ratios.append(elapsed / t)
            solve_sum += t
        cells = (
            str(players),
            *ms_spread(once),
            *ms_spread(best, worst=False),
            *ms_spread(joint, worst=False),
            f"{len(brute_times)}/{len(tried)}",
            ms(statistics.median(brute_times)) if brute_times else "-",
            f"{statistics.median(ratios):.0f}x" if ratios else "-",
            f"{sum(brute_times) / solve_sum:.0f}x" if solve_sum else "-",
            f"{statistics.median(solve(v).total for v in views):.1e}",
        )
        print(" | ".join(f"{c:>10}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
