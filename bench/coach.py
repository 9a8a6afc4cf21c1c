"""The coach (13 Clues): its top move against the true best by brute force, and its speed.

    python -m bench.coach [--positions 2000] [--timed 500] [--reviews 30] [--seed 16]
                          [--game thirteen-clues|mansion|both] [--workers 1]

The Mansion's figures are `bench/mansion_coach.py`'s (its docstring says how).

1. Agreement: seeded random mid-game positions (2 to 6 players, random seat, up to 40
   random actions: questions incl. Top Secret and 2016 categories, informant looks, wrong
   accusations). For each, `coach.advise` ranks every legal question and informant letter;
   `bruteforce.move_left` computes every move's expected possible mysteries left the
   literal way (whole worlds enumerated, each answer counted as the rules say). The coach
   agrees when its top move is a best one by brute force (ties count); regret is the
   brute-force figure of its top move minus the best. Positions the enumerator cannot do
   within its budget are drawn again, and counted.
2. Time to rank: `advise` on `--timed` positions per player count, as the bot calls it
   (one call, time.perf_counter): median, p99, max. The target is p99 <= 200 ms at six.
3. Time of one member's review at the end of a game (normal AIs, 4 and 6 players).

The coach is exact: no sampling, so there is no sampling error to state.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.thirteen_clues import (
    GameState,
    Options,
    PlayerRef,
    PlayerView,
    apply,
    legal,
    new_game,
    player_view,
)
from engine.thirteen_clues.ai import choose_action
from engine.thirteen_clues.bruteforce import TooLarge, move_left, random_positions
from engine.thirteen_clues.coach import advise, move_key
from engine.thirteen_clues.review import review

BUDGET = 300_000


def mid_game(rng: random.Random, players: int) -> PlayerView:
    while True:
        for _, view in random_positions(rng, players, 1, max_actions=40):
            if view.phase == "turns":
                return view


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def agreement(count: int, seed: int) -> None:
    rng = random.Random(seed)
    agree = drawn = too_large = 0
    regrets: list[float] = []
    worst_figure = 0.0
    per_players: dict[int, list[int]] = {p: [0, 0] for p in range(2, 7)}
    started = time.perf_counter()
    while agree + len(regrets) < count:
        players = rng.randint(2, 6)
        view = mid_game(rng, players)
        drawn += 1
        try:
            reference = move_left(view, budget=BUDGET)
        except TooLarge:
            too_large += 1
            continue
        advice = advise(view)
        for rated in advice.ranked:
            worst_figure = max(worst_figure, abs(rated.left - reference[move_key(rated.move)]))
        best = min(reference.values())
        regret = reference[move_key(advice.ranked[0].move)] - best
        per_players[players][1] += 1
        if regret <= 1e-9:
            agree += 1
            per_players[players][0] += 1
        else:
            regrets.append(regret)
    done = agree + len(regrets)
    print(f"agreement: {agree}/{done} positions ({agree / done:.2%}) where the coach's top "
          f"move is a best move by brute force ({drawn} drawn, {too_large} beyond the "
          f"enumerator's budget of {BUDGET:,}); {time.perf_counter() - started:.0f} s")
    print("  by players: " + ", ".join(
        f"{p}p {a}/{n}" for p, (a, n) in per_players.items() if n))
    if regrets:
        print(f"  regret where they differ: mean {statistics.mean(regrets):.4f}, max "
              f"{max(regrets):.4f} possible mysteries")
    else:
        print("  regret where they differ: none (no position differs)")
    print(f"  largest |coach figure - brute-force figure| over every move: {worst_figure:.2e}")


def timing(count: int, seed: int) -> None:
    for players in (2, 3, 4, 5, 6):
        rng = random.Random(seed * 10 + players)
        samples = []
        for _ in range(count):
            view = mid_game(rng, players)
            start = time.perf_counter()
            advise(view)
            samples.append(time.perf_counter() - start)
        print(f"time to rank, {players}p ({count} positions): median "
              f"{statistics.median(samples) * 1e3:.1f} ms, p99 "
              f"{percentile(samples, 0.99) * 1e3:.1f} ms, max {max(samples) * 1e3:.1f} ms")


def reviews(games: int, seed: int) -> None:
    def played(players: int, number: int) -> GameState:
        state, _ = new_game([PlayerRef(id=str(i), name=str(i)) for i in range(players)],
                            Options(players=players), seed * 1000 + number)
        rng = random.Random(number)
        while state.phase != "over":
            for seat in legal.waiting_on(state):
                state, _ = apply(state, choose_action(player_view(state, seat), "normal", rng))
                if state.phase != "passing":
                    break
        return state

    review_times("one member's review", (4, 6), games, played, review)


def review_times(label: str, counts: tuple[int, ...], games: int,
                 played: Callable[[int, int], Any], reviewed: Callable[[Any, int], object]
                 ) -> None:
    """Each member's review of `games` finished games per player count, timed one by one."""
    for players in counts:
        samples = []
        for number in range(games):
            state = played(players, number)
            for seat in range(players):
                start = time.perf_counter()
                reviewed(state, seat)
                samples.append(time.perf_counter() - start)
        print(f"{label}, {players}p ({len(samples)} reviews of {games} games): "
              f"median {statistics.median(samples) * 1e3:.0f} ms, p99 "
              f"{percentile(samples, 0.99) * 1e3:.0f} ms, max {max(samples) * 1e3:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--timed", type=int, default=500)
    parser.add_argument("--reviews", type=int, default=30)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1, help="processes (Mansion agreement)")
    parser.add_argument("--game", choices=["thirteen-clues", "mansion", "both"], default="both")
    args = parser.parse_args()
    if args.game != "mansion":
        agreement(args.positions, args.seed)
        timing(args.timed, args.seed)
        reviews(args.reviews, args.seed)
    if args.game != "thirteen-clues":
        from bench import mansion_coach

        mansion_coach.agreement(args.positions, args.seed, args.workers)
        mansion_coach.timing(args.timed, args.seed)
        mansion_coach.reviews(args.reviews, args.seed)


if __name__ == "__main__":
    main()
