"""AI move time per level at a six-player table (target: expert p99 ≤ 250 ms).

    python -m bench.ai_move_time [--games 6] [--players 6] [--editions 2020 2016]

Times every `choose_action` of a seat of the measured level during its turns, at an
all-same-level table; prints median, p99 and max per level and edition. Figures only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.thirteen_clues.ai import LEVELS, Level, choose_action
from engine.thirteen_clues.legal import waiting_on
from engine.thirteen_clues.rules import apply, new_game
from engine.thirteen_clues.state import EDITIONS, Options, PlayerRef
from engine.thirteen_clues.views import player_view


def times_for(level: Level, options: Options, games: int) -> list[float]:
    """Seconds per turn-phase decision over `games` all-`level` games."""
    out: list[float] = []
    for seed in range(games):
        refs = [PlayerRef(id=str(i), name=str(i)) for i in range(options.players)]
        state, _ = new_game(refs, options, seed)
        rng = random.Random(seed)
        while state.phase != "over":
            for seat in waiting_on(state):
                view = player_view(state, seat)
                started = time.perf_counter()
                action = choose_action(view, level, rng)
                if state.phase == "turns":
                    out.append(time.perf_counter() - started)
                state, _ = apply(state, action)
                if state.phase != "passing":
                    break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--editions", nargs="+", default=list(EDITIONS), choices=EDITIONS)
    args = parser.parse_args()
    for edition in args.editions:
        for level in LEVELS:
            options = Options(players=args.players, edition=edition)
            samples = sorted(times_for(level, options, args.games))
            p99 = samples[min(len(samples) - 1, int(0.99 * len(samples)))]
            print(
                f"{edition} {args.players}p {level:6}  moves {len(samples):4}  "
                f"median {statistics.median(samples) * 1000:6.1f} ms  "
                f"p99 {p99 * 1000:6.1f} ms  max {samples[-1] * 1000:6.1f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
