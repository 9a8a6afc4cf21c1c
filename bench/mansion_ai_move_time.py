"""Mansion AI move time per level (target: p99 ≤ 250 ms at every level).

    python -m bench.mansion_ai_move_time [--games 10] [--players 3 4 5]

Times every `choose_action` call (turns and every prompt: shows, picks, tips, the
fugitive's choice) of all-same-level tables, in both variants; prints per level and player
count the number of moves, the median, p99 and max, and separately the turn decisions
(play / accuse or end), where the expert does its work; and the p99 of the thread CPU time
of the same calls, which a machine shared with other work does not inflate. Figures only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.figures import percentile
from engine.mansion.ai import LEVELS, Level, choose_action
from engine.mansion.legal import waiting_on
from engine.mansion.rules import apply, new_game
from engine.mansion.state import Options, PlayerRef
from engine.mansion.views import player_view


def times_for(level: Level, players: int, games: int
              ) -> tuple[list[float], list[float], list[float]]:
    """Seconds per decision (all, and turn decisions only) over `games` games, and the CPU
    seconds of all."""
    every: list[float] = []
    turns: list[float] = []
    cpus: list[float] = []
    for seed in range(games):
        variant = "standard" if seed % 2 == 0 else "one_against_all"
        refs = [PlayerRef(id=str(i), name=str(i)) for i in range(players)]
        state, _ = new_game(refs, Options(players=players, variant=variant), seed)  # type: ignore[arg-type]
        rng = random.Random(seed)
        for _ in range(4000):
            if state.phase == "over":
                break
            seat = waiting_on(state)[0]
            view = player_view(state, seat)
            started, cpu = time.perf_counter(), time.thread_time()
            action = choose_action(view, level, rng)
            elapsed = time.perf_counter() - started
            cpus.append(time.thread_time() - cpu)
            every.append(elapsed)
            if view.prompt is not None and view.prompt.kind in ("play", "accuse_or_end"):
                turns.append(elapsed)
            state, _ = apply(state, action)
    return every, turns, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    args = parser.parse_args()
    for players in args.players:
        for level in LEVELS:
            every, turns, cpus = times_for(level, players, args.games)
            print(
                f"{players}p {level:6}  moves {len(every):5}  median "
                f"{statistics.median(every) * 1000:6.2f} ms  p99 "
                f"{percentile(every, 0.99) * 1000:6.1f} ms  max {max(every) * 1000:6.1f} ms"
                f"  | turn decisions {len(turns):4}  median "
                f"{statistics.median(turns) * 1000:6.2f} ms  p99 "
                f"{percentile(turns, 0.99) * 1000:6.1f} ms  max {max(turns) * 1000:6.1f} ms"
                f"  | cpu p99 {percentile(cpus, 0.99) * 1000:6.1f} ms"
                f" max {max(cpus) * 1000:6.1f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
