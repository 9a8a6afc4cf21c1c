"""Tournament of Mansion AI levels: one stronger AI against weaker ones, its seat rotated.

    python -m bench.mansion_tournament [--games 1000] [--players 4]
        [--match expert-normal expert-easy normal-easy] [--variant standard] [--workers 2]

The reported match (the default): the expert against three normal players. The others, and
other player counts, on request.

Each game seats one AI of the first level and the others of the second; the strong seat
moves round the table game by game (and so does the random dealer). Prints per player
count and match-up the strong AI's win rate with a 95% margin against its baseline, the
average table turns per game, the strong AI's average own turns in the games it won, and
games unfinished after the action cap.

The baseline is what that seat would win without the stronger AI. In the standard game
every seat is alike, so it is 1/players. In One Against All the fugitive seat (fixed per
game, never the strong one's) deals, and an escape is a loss for every detective, so a
detective's chance is well below 1/(players - 1): each game is played a second time with
the same seed and fugitive and the strong seat at the weaker level (the control), and the
baseline is that seat's win rate in the controls. Figures only: nothing asserts a target.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import statistics
import time
from collections.abc import Iterator

from engine.mansion.ai import Level, expert
from engine.mansion.ai.selfplay import level_policy, play
from engine.mansion.state import Options, Variant

MATCHES: dict[str, tuple[Level, Level]] = {
    "expert-normal": ("expert", "normal"),
    "expert-easy": ("expert", "easy"),
    "normal-easy": ("normal", "easy"),
}
REPORTED = ("expert-normal", 4)
"""The match and player count reported (issue 16): the expert against three normal."""
MAX_ACTIONS = 4000
Job = tuple[str, int, int, str, str, bool]
"""(match, players, game, variant, expert params, control: the strong seat plays weak)."""


def parse_params(text: str) -> expert.Params:
    """`samples=128,rival_odds=0.4` → expert.Params with those fields replaced."""
    if not text:
        return expert.DEFAULT
    fields: dict[str, float | int | str] = {}
    for item in text.split(","):
        key, value = item.split("=")
        default = getattr(expert.DEFAULT, key.strip())
        kind = type(default)
        fields[key.strip()] = value == "true" if kind is bool else kind(value)
    return dataclasses.replace(expert.DEFAULT, **fields)  # type: ignore[arg-type]


def run_game(job: Job) -> tuple[int, str, bool, bool, bool, int, int]:
    """(players, match, strong won, finished, table turns, strong's own turns)."""
    match, players, game, variant, params_text, control = job
    params = parse_params(params_text)
    strong, weak = MATCHES[match]
    if control:
        strong = weak
    position = game % players
    fugitive = None
    if variant == "one_against_all":
        fugitive = (position + 1 + game // players % (players - 1)) % players
    policies = [level_policy(strong if i == position else weak, params) for i in range(players)]
    options = Options(players=players, variant=variant, fugitive=fugitive)  # type: ignore[arg-type]
    result = play(policies, options, seed=game, max_actions=MAX_ACTIONS)
    state = result.state
    own = sum(1 for r in state.log if r.kind == "turn" and r.seat == position)
    if state.rounds:
        own = sum(1 for r in state.rounds[-1].log if r.kind == "turn" and r.seat == position)
    return (
        players,
        match,
        control,
        result.winner == position,
        state.phase == "over",
        state.turn_number,
        own,
    )


def jobs(args: argparse.Namespace) -> Iterator[Job]:
    """Game by game across player counts and match-ups, so a run cut short (see
    `--progress`) has about as many games of each."""
    controls = (False, True) if args.variant == "one_against_all" else (False,)
    for game in range(args.games):
        for players in args.players:
            for match in args.match:
                for control in controls:
                    yield match, players, game, args.variant, args.params, control


Results = dict[tuple[int, str, bool], list[tuple[bool, bool, int, int]]]
"""(players, match, control) → (strong seat won, finished, table turns, own turns)."""


def report(results: Results) -> None:
    print(
        f"{'players':>7} {'match':>14} {'games':>6} {'strong wins':>12} {'±95%':>6} "
        f"{'baseline':>8} {'±95%':>6} {'table turns':>11} {'own turns to win':>16} "
        f"{'unfinished':>10}"
    )
    for (players, match, control), rows in sorted(results.items()):
        if control:
            continue
        rate, margin = _rate(rows)
        base, base_margin = 1 / players, 0.0
        controls = results.get((players, match, True))
        if controls:  # One Against All: the same games with the strong seat at the weak level
            base, base_margin = _rate(controls)
        wins = [r for r in rows if r[0]]
        own = statistics.mean(r[3] for r in wins) if wins else 0.0
        print(
            f"{players:>7} {match:>14} {len(rows):>6} {rate:>12.1%} {margin:>6.1%} "
            f"{base:>8.1%} {base_margin:>6.1%} {statistics.mean(r[2] for r in rows):>11.1f} "
            f"{own:>16.1f} {sum(not r[1] for r in rows):>10}",
            flush=True,
        )


def _rate(rows: list[tuple[bool, bool, int, int]]) -> tuple[float, float]:
    """The win rate of the seat and its 95% margin."""
    rate = sum(r[0] for r in rows) / len(rows)
    return rate, 1.96 * (rate * (1 - rate) / len(rows)) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[REPORTED[1]])
    parser.add_argument("--match", nargs="+", default=[REPORTED[0]], choices=list(MATCHES))
    parser.add_argument("--variant", default="standard", choices=["standard", "one_against_all"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--params", default="", help="expert overrides: samples=128,...")
    parser.add_argument("--progress", type=int, default=0,
                        help="print the table so far every N games (0: only at the end)")
    args = parser.parse_args()
    variant: Variant = args.variant
    started = time.perf_counter()
    results: Results = {}
    print(
        f"{variant}, {args.games} games per player count and match-up, expert params: "
        f"{args.params or 'default'}",
        flush=True,
    )
    with multiprocessing.Pool(args.workers) as pool:
        for done, (players, match, control, won, finished, turns, own) in enumerate(
            pool.imap_unordered(run_game, jobs(args), chunksize=4), 1
        ):
            results.setdefault((players, match, control), []).append((won, finished, turns, own))
            if args.progress and done % args.progress == 0:
                print(f"--- after {done} games, {time.perf_counter() - started:.0f} s", flush=True)
                report(results)
    print("--- final")
    report(results)
    print(f"elapsed {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
