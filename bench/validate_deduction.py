"""Check the exact deduction solver against the literal enumerator on many random positions.

Why a script and not a test: ten thousand positions take minutes. Run from the repo root:
    .venv/bin/python -m bench.validate_deduction [--per-count 2000] [--workers 2]

Each position is a moment of a seeded random game (random passes, questions incl. Top Secret
and 2016 category ones, informant consults, wrong accusations) seen from a random seat.
For every position the solver's triple counts must equal the enumerator's; every 10th
position also compares `slot_joint` in full. Positions the enumerator cannot finish within
its budget are skipped (and counted); there the enumerator checks the count of two single
holders (the true one and a random one), and the solver must count the true holder.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from engine.thirteen_clues import GameState, PlayerView
from engine.thirteen_clues.bruteforce import (
    TooLarge,
    brute_force,
    random_positions,
    true_triple,
)
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.deduction import slot_joint, solve

BUDGET = 100_000
"""Screens the enumerator may place per position before the position is skipped."""
PER_GAME = 4
"""Positions taken from each simulated game (different moments and seats)."""


def check(job: tuple[int, int]) -> Counter[str]:
    """Validate the positions of one seeded game; return what happened, as counters."""
    players, seed = job
    out: Counter[str] = Counter()
    rng = random.Random(seed)
    for n, (state, view) in enumerate(random_positions(rng, players, PER_GAME, max_actions=60)):
        out.update(_check_one(state, view, with_joint=(seed + n) % 10 == 0))
    return out


def _check_one(state: GameState, view: PlayerView, *, with_joint: bool) -> Counter[str]:
    out: Counter[str] = Counter()
    deduction = solve(view)
    out["true_triple_counted"] += true_triple(state, view.seat) in deduction.triples
    out["attempted"] += 1
    try:
        ref = brute_force(view, joint=with_joint, budget=BUDGET)
    except TooLarge:
        out["skipped"] += 1
        # Too large in full: enumerate just two holders, the true one and a random one.
        rng = random.Random(len(deduction.triples) * 7919 + view.seat)
        persons, locations, weapons = (
            [c for c in deduction.unknown if CARDS[c].category == k] for k in Category
        )
        truth = true_triple(state, view.seat)
        for triple in {truth, (rng.choice(persons), rng.choice(locations), rng.choice(weapons))}:
            try:
                ref = brute_force(view, budget=BUDGET, only={triple})
            except TooLarge:
                continue
            out["partial_compared"] += 1
            out["partial_agree"] += ref.triples.get(triple, 0) == deduction.triples.get(triple, 0)
        return out
    out["compared"] += 1
    out["agree"] += ref.total == deduction.total and ref.triples == deduction.triples
    if with_joint:
        out["joint_compared"] += 1
        out["joint_agree"] += slot_joint(view) == ref.joint
    questions = [q for q in view.questions if not q.top_secret] + view.secret_questions
    out["with_own_top_secret"] += any(q.asker == view.seat for q in view.secret_questions)
    out["with_peeks"] += bool(view.peeks)
    out["with_wrong_accusation"] += any(not a.correct for a in view.my_accusations)
    out["with_category_question"] += any(
        q.subject in ("person", "location", "weapon") for q in questions
    )
    out["single_triple"] += len(deduction.triples) == 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-count", type=int, default=2000, help="compared positions per count")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    totals: dict[int, Counter[str]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for players in (2, 3, 4, 5, 6):
            tally: Counter[str] = Counter()
            seed = players * 1_000_000
            while tally["compared"] < args.per_count:
                missing = args.per_count - tally["compared"]
                games = max(-(-missing // PER_GAME), 4)
                batch = [(players, seed + i) for i in range(games)]
                seed += len(batch)
                for result in pool.map(check, batch, chunksize=4):
                    tally.update(result)
            totals[players] = tally
            print(_row(players, tally, time.perf_counter() - start), flush=True)
    grand: Counter[str] = Counter()
    for tally in totals.values():
        grand.update(tally)
    print(_row(0, grand, time.perf_counter() - start))
    ok = (
        grand["agree"] == grand["compared"]
        and grand["joint_agree"] == grand["joint_compared"]
        and grand["true_triple_counted"] == grand["attempted"]
        and grand["partial_agree"] == grand["partial_compared"]
    )
    print("ALL AGREE" if ok else "DISAGREEMENT FOUND")
    sys.exit(0 if ok else 1)


def _row(players: int, t: Counter[str], elapsed: float) -> str:
    label = f"{players} players" if players else "all"
    return (
        f"{label:>10}: compared {t['compared']:>5} agree {t['agree']:>5} | joint compared "
        f"{t['joint_compared']:>4} agree {t['joint_agree']:>4} | skipped (budget) "
        f"{t['skipped']:>4} of {t['attempted']:>5}, in those single holders compared "
        f"{t['partial_compared']} agree {t['partial_agree']} | true holder counted "
        f"{t['true_triple_counted']}/{t['attempted']} | positions with own Top Secret "
        f"{t['with_own_top_secret']}, peeks {t['with_peeks']}, wrong accusation "
        f"{t['with_wrong_accusation']}, category question {t['with_category_question']}, "
        f"single triple {t['single_triple']} | {elapsed:.0f}s"
    )


if __name__ == "__main__":
    main()
