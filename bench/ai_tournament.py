"""Tournament of AI levels: one stronger AI against weaker ones, strong seat rotated.

    python -m bench.ai_tournament [--games 1000] [--editions 2020 2016] [--players 4]
        [--match expert-normal normal-easy] [--workers 2] [--params last=0.5,early=0.9]

Prints, per edition and match-up, the stronger AI's win rate (a random seat would win
1/players), the average table turns per game, the stronger AI's average own turns to win,
and unfinished games. Figures only: nothing here asserts a target.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import statistics
import time
from collections.abc import Iterator

from engine.thirteen_clues.ai import expert
from engine.thirteen_clues.ai.selfplay import level_policy, play
from engine.thirteen_clues.state import DEFAULT_EDITION, EDITIONS, Options

MATCHES = {"expert-normal": ("expert", "normal"), "normal-easy": ("normal", "easy")}
Job = tuple[str, str, int, int, str]


def parse_params(text: str) -> expert.Params:
    """`last=0.5,early=0.9` → expert.Params with those fields replaced."""
    if not text:
        return expert.DEFAULT
    fields = {}
    for item in text.split(","):
        key, value = item.split("=")
        fields[key.strip()] = float(value)
    return dataclasses.replace(expert.DEFAULT, **fields)


def run_game(job: Job) -> tuple[str, str, bool, bool, int, int]:
    """(edition, match, strong won, finished, table turns, strong seat's own turns)."""
    edition, match, players, game, params_text = job
    strong, weak = MATCHES[match]
    params = parse_params(params_text)
    position = game % players
    policies = [
        level_policy(strong if i == position else weak, params)  # type: ignore[arg-type]
        for i in range(players)
    ]
    result = play(policies, Options(players=players, edition=edition), seed=game)  # type: ignore[arg-type]
    state = result.state
    own_turns = (state.turn_number - 1 - position) // players + 1
    return (
        edition,
        match,
        result.winner_index == position,
        state.phase == "over",
        state.turn_number,
        own_turns,
    )


def jobs(args: argparse.Namespace) -> Iterator[Job]:
    for edition in args.editions:
        for match in args.match:
            for game in range(args.games):
                yield edition, match, args.players, game, args.params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--editions", nargs="+", default=[DEFAULT_EDITION], choices=EDITIONS)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--match", nargs="+", default=list(MATCHES), choices=list(MATCHES))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--params", default="", help="expert overrides: last=0.5,early=0.9")
    args = parser.parse_args()
    started = time.perf_counter()
    results: dict[tuple[str, str], list[tuple[bool, bool, int, int]]] = {}
    with multiprocessing.Pool(args.workers) as pool:
        for edition, match, won, finished, turns, own in pool.imap_unordered(
            run_game, jobs(args), chunksize=4
        ):
            results.setdefault((edition, match), []).append((won, finished, turns, own))
    params = args.params or "default"
    print(f"{args.players} players, {args.games} games per match-up, expert params: {params}")
    for (edition, match), rows in sorted(results.items()):
        wins = [r for r in rows if r[0]]
        rate = len(wins) / len(rows)
        margin = 1.96 * (rate * (1 - rate) / len(rows)) ** 0.5
        print(
            f"{edition} {match:14} strong wins {rate:6.1%} ±{margin:.1%}  "
            f"table turns {statistics.mean(r[2] for r in rows):5.1f}  "
            f"strong's own turns to win {statistics.mean(r[3] for r in wins) if wins else 0:4.1f}  "
            f"unfinished {sum(not r[1] for r in rows)}"
        )
    print(f"elapsed {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
