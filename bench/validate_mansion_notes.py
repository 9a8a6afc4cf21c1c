"""Check the exact Mansion notes against the brute-force enumerator on many positions.

Why a script and not a test: ten thousand positions take minutes. Run from the repo root:
    .venv/bin/python -m bench.validate_mansion_notes [--positions 10000] [--workers 2]

Positions: moments of seeded games at 3, 4 and 5 players, standard and One Against All,
half from random legal play (random Action cards, random answers, now and then a wrong
accusation) and half from AI games (random tables of easy / normal / expert), each seen by
a random seat (random play) or by the seat that must act (AI play). Positions with more
consistent deals than the enumerator's budget are skipped and counted; the others are
compared in full: the number of consistent deals, the count of every possible solution,
and for every card the count of deals in which each seat (and the solution) holds it.
A compared position whose solution is already certain (the seat chose it, accused, or has
deduced it) tests little, so each of the 12 cells plays on until it has compared its share
of `--positions` and at least half that share is not certain ("non-trivial"):
`--positions 10000` compares at least 10,000 positions, at least 5,000 of them non-trivial.
Also checked on every position, enumerable or not: the true deal is one the solver counts
(its solution has a positive count, every card's true holder a positive count), and the
bookkeeping notes never contradict the exact ones. Exits non-zero on any disagreement.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from engine.mansion.ai.selfplay import ai_positions
from engine.mansion.bruteforce import TooLarge, brute_force, random_positions
from engine.mansion.deduction import solve
from engine.mansion.notes import notes, notes_from
from engine.mansion.state import GameState, Variant
from engine.mansion.views import PlayerView

BUDGET = 25_000
"""Hands the enumerator may place per position before the position is skipped."""
PER_GAME = 8
COUNTS = (3, 4, 5)
VARIANTS: tuple[Variant, ...] = ("standard", "one_against_all")
SOURCES = ("random", "ai")

Job = tuple[str, int, Variant, int]


def positions(job: Job) -> list[tuple[GameState, PlayerView]]:
    source, players, variant, seed = job
    if source == "ai":
        return list(ai_positions(players, variant, 1, seed=seed, per_game=PER_GAME))
    rng = random.Random(f"validate:{players}:{variant}:{seed}")
    stops = sorted(rng.randint(4, 240) for _ in range(PER_GAME))
    return list(random_positions(rng, players, variant, stops))


def check(job: Job) -> tuple[Job, Counter[str], list[str]]:
    out: Counter[str] = Counter()
    problems: list[str] = []
    for state, view in positions(job):
        out["attempted"] += 1
        d = solve(view)
        truth = state.solution
        assert truth is not None
        if d.triples.get(truth.cards(), 0) <= 0:
            problems.append(f"{job}: the true solution is not counted")
        for seat, s in enumerate(state.seats):
            for card in s.clues:
                if d.holders[card][seat] <= 0:
                    problems.append(f"{job}: {card} at seat {seat} is not counted")
        exact = notes_from(view, d)
        for assist in ("off", "bookkeeping"):
            grid = notes(view, assist)
            for row, full in zip(grid.cards, exact.cards, strict=True):
                marks = [*row.marks, row.solution]
                truths = [*full.marks, full.solution]
                if any(m != "unknown" and m != t for m, t in zip(marks, truths, strict=True)):
                    problems.append(f"{job}: {assist} mark contradicts full for {row.card}")
        try:
            ref = brute_force(view, budget=BUDGET)
        except TooLarge:
            out["skipped"] += 1
            continue
        out["compared"] += 1
        same = (
            ref.total == d.total
            and ref.triples == d.triples
            and all(tuple(ref.holders[c]) == d.holders[c] for c in ref.holders)
        )
        out["agree"] += same
        if not same:
            problems.append(f"{job}: seat {view.seat}: brute {ref.total} vs notes {d.total}")
        out["certain"] += d.certain() is not None
        out["nontrivial"] += d.certain() is None
        out["fugitive_view"] += view.fugitive == view.seat
    return job, out, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000, help="positions to compare")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0,
                        help="game seeds start here (runs with seeds far apart add up)")
    args = parser.parse_args()
    start = time.perf_counter()
    cells = [(s, p, v) for s in SOURCES for p in COUNTS for v in VARIANTS]
    per_cell = -(-args.positions // len(cells))
    tallies: dict[tuple[str, int, str], Counter[str]] = {c: Counter() for c in cells}
    next_seed = {c: args.first_seed for c in cells}
    problems: list[str] = []
    with ProcessPoolExecutor(args.workers) as pool:
        while True:
            batch: list[Job] = []
            for cell in cells:
                tally = tallies[cell]
                missing = max(per_cell - tally["compared"],
                              2 * (-(-per_cell // 2) - tally["nontrivial"]))
                if missing <= 0:
                    continue
                games = max(2, -(-missing // (PER_GAME // 2)))
                source, players, variant = cell
                base = 1_000_000 * players + (500_000 if variant == "standard" else 0)
                seed = next_seed[cell]
                batch += [(source, players, variant, base + seed + g) for g in range(games)]
                next_seed[cell] = seed + games
            if not batch:
                break
            results = pool.map(check, batch, chunksize=2)
            for done, ((source, players, variant, _), tally, found) in enumerate(results, 1):
                tallies[(source, players, variant)].update(tally)
                problems += found
                if done % 50 == 0:  # a running total, so a long run can be read early
                    total: Counter[str] = sum(tallies.values(), Counter())
                    print(f"... {done}/{len(batch)} games: compared {total['compared']} "
                          f"(non-trivial {total['nontrivial']}), agree {total['agree']}, "
                          f"problems {len(problems)}, "
                          f"{time.perf_counter() - start:.0f} s", flush=True)
    grand: Counter[str] = Counter()
    for cell in cells:
        grand.update(tallies[cell])
        source, players, variant = cell
        print(_row(f"{source:6} {players}p {variant:15}", tallies[cell]))
    print(_row("all", grand))
    for problem in problems[:20]:
        print("DISAGREEMENT", problem)
    print(
        f"compared {grand['compared']} positions ({grand['nontrivial']} non-trivial: the "
        f"solution not yet certain), skipped over budget {grand['skipped']} of "
        f"{grand['attempted']} attempted, disagreements {grand['compared'] - grand['agree']}, "
        f"other problems {len(problems) - (grand['compared'] - grand['agree'])}, "
        f"{time.perf_counter() - start:.0f} s"
    )
    sys.exit(1 if problems else 0)


def _row(label: str, t: Counter[str]) -> str:
    return (
        f"{label:>30}: compared {t['compared']:>5} agree {t['agree']:>5} | non-trivial "
        f"{t['nontrivial']:>5} certain {t['certain']:>4} | skipped (budget) "
        f"{t['skipped']:>4} of {t['attempted']:>5} | "
        f"seen by the fugitive {t['fugitive_view']:>4}"
    )


if __name__ == "__main__":
    main()
