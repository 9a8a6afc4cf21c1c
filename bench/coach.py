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
from dataclasses import dataclass, field
from typing import Any

from bench.figures import percentile
from engine.thirteen_clues import (
    GameState,
    Options,
    PlayerRef,
    PlayerView,
    new_game,
)
from engine.thirteen_clues.bruteforce import TooLarge, move_left, random_positions
from engine.thirteen_clues.coach import advise, move_key
from engine.thirteen_clues.review import review
from testkit.thirteen_clues import ai_game

BUDGET = 300_000


def mid_game(rng: random.Random, players: int) -> PlayerView:
    while True:
        for _, view in random_positions(rng, players, 1, max_actions=40):
            if view.phase == "turns":
                return view


@dataclass
class Tally:
    """One game's agreement figures, overall and per player count: the one tally both
    games' benchmarks fill (13 Clues here, the Mansion in `bench/mansion_coach.py`)."""

    unit: str
    """What the figures count ("possible mysteries", "possible solutions")."""
    drawn: int = 0
    too_large: int = 0
    agree: dict[int, int] = field(default_factory=dict)
    regrets: dict[int, list[float]] = field(default_factory=dict)
    """Per player count: the regret of each position where the top moves differ."""
    errors: dict[int, list[float]] = field(default_factory=dict)
    """Per player count: |coach figure - brute-force figure| of every move ranked."""
    relative: dict[int, list[float]] = field(default_factory=dict)
    """The same errors over the possibilities the position had."""

    def add(self, players: int, regret: float, errors: list[float], possible: int) -> None:
        """One position compared (its player count, the regret of the coach's top move, each
        move's figure error, the possibilities left before the move)."""
        if regret <= 1e-9:
            self.agree[players] = self.agree.get(players, 0) + 1
        else:
            self.regrets.setdefault(players, []).append(regret)
        self.errors.setdefault(players, []).extend(errors)
        self.relative.setdefault(players, []).extend(e / possible for e in errors)

    def done(self) -> int:
        return sum(self.agree.values()) + sum(map(len, self.regrets.values()))

    def print(self, label: str, budget: int, seconds: float) -> None:
        done, agree = self.done(), sum(self.agree.values())
        print(f"{label}: {agree}/{done} positions ({agree / done:.2%}) where the coach's top "
              f"move is a best move by brute force ({self.drawn} drawn, {self.too_large} beyond "
              f"the enumerator's budget of {budget:,}); {seconds:.0f} s")
        counts = sorted(set(self.agree) | set(self.regrets))
        lines = [("all", sum(self.agree.values()), _joined(self.regrets), _joined(self.errors),
                  _joined(self.relative))]
        lines += [(f"{p}p", self.agree.get(p, 0), self.regrets.get(p, []),
                   self.errors.get(p, []), self.relative.get(p, [])) for p in counts]
        for name, agreed, regrets, errors, relative in lines:
            where = (f"regret where they differ mean {statistics.mean(regrets):.3f}, max "
                     f"{max(regrets):.3f}" if regrets else "no regret")
            print(f"  {name}: {agreed}/{agreed + len(regrets)} agree; {where}; "
                  f"|coach figure - brute force| over {len(errors)} moves mean "
                  f"{statistics.mean(errors):.3f}, p99 {percentile(errors, 0.99):.3f}, max "
                  f"{max(errors):.3f} {self.unit} (relative mean {statistics.mean(relative):.2%}"
                  f", p99 {percentile(relative, 0.99):.2%})")


def _joined(lists: dict[int, list[float]]) -> list[float]:
    return [x for values in lists.values() for x in values]


def agreement(count: int, seed: int) -> None:
    rng = random.Random(seed)
    tally = Tally("possible mysteries")
    started = time.perf_counter()
    while tally.done() < count:
        players = rng.randint(2, 6)
        view = mid_game(rng, players)
        tally.drawn += 1
        try:
            reference = move_left(view, budget=BUDGET)
        except TooLarge:
            tally.too_large += 1
            continue
        advice = advise(view)
        errors = [abs(r.left - reference[move_key(r.move)]) for r in advice.ranked]
        regret = reference[move_key(advice.ranked[0].move)] - min(reference.values())
        tally.add(players, regret, errors, advice.mysteries)
    tally.print("agreement", BUDGET, time.perf_counter() - started)


def timing(count: int, seed: int) -> None:
    rank_times("time to rank", (2, 3, 4, 5, 6), count, seed, mid_game, advise)


def rank_times(label: str, counts: tuple[int, ...], count: int, seed: int,
               position: Callable[[random.Random, int], Any], rank: Callable[[Any], object]
               ) -> None:
    """`rank` (the coach) on `count` seeded positions per player count, timed one by one."""
    for players in counts:
        rng = random.Random(seed * 10 + players)
        samples = []
        for _ in range(count):
            view = position(rng, players)
            start = time.perf_counter()
            rank(view)
            samples.append(time.perf_counter() - start)
        print(f"{label}, {players}p ({count} positions): median "
              f"{statistics.median(samples) * 1e3:.1f} ms, p99 "
              f"{percentile(samples, 0.99) * 1e3:.1f} ms, max {max(samples) * 1e3:.1f} ms")


def reviews(games: int, seed: int) -> None:
    def played(players: int, number: int) -> GameState:
        state, _ = new_game([PlayerRef(id=str(i), name=str(i)) for i in range(players)],
                            Options(players=players), seed * 1000 + number)
        return ai_game(state, "normal", random.Random(number))

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
        mansion_coach.end_wait(args.reviews, args.seed)


if __name__ == "__main__":
    main()
