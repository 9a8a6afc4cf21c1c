"""Time and size of the pictures, per kind: 13 Clues at 2 to 6 players, the Mansion at 3 to 5.

Run from the repo root: .venv/bin/python -m bench.pictures [--games 4] [--per-game 6]
[--game 13clues|mansion|both]

Positions: seeded random games (both editions alternately), several moments per game seen
from a random seat. Each picture is rendered with the cache off and timed once with
time.perf_counter (PNG encoding included; the casebook's deduction and the Mansion's notes
grid are solved beforehand and not counted: they are the solver's cost, see bench.deduction
and bench.mansion_notes). The Mansion: seeded games between easy AIs, standard and One
Against All alternately; kinds hand, markers, notes at bookkeeping and full, the reveal.
The first render of a process also builds the card tiles; a warm-up game runs before
timing so the figures are the steady state a running bot sees. The 13 Clues cache table
shows what the cache saves: the same scene asked for again.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.figures import percentile
from bot.drawings import Drawings
from bot.pictures import Picture, PictureCache
from bot.thirteen_clues.game import GAME
from bot.thirteen_clues.pictures import CACHE as SCENES
from bot.thirteen_clues.pictures import casebook_picture, player_picture, reveal_picture
from engine import mansion
from engine.mansion.notes import notes
from engine.thirteen_clues import player_view, public_view, reveal
from engine.thirteen_clues.deduction import solve
from testkit.letters import play
from testkit.positions import game_states, mansion_states

KINDS = ("pass", "view", "casebook", "reveal")
MANSION_KINDS = ("hand", "markers", "notes-book", "notes-full", "reveal")


T = TypeVar("T")


def timed(render: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    picture = render()
    return time.perf_counter() - start, picture


def measure(players: int, games: int, per_game: int) -> dict[str, list[tuple[float, Picture]]]:
    out: dict[str, list[tuple[float, Picture]]] = {k: [] for k in KINDS}
    for seed in range(games):
        edition = "2020" if seed % 2 == 0 else "2016"
        states = game_states(players, seed, edition=edition, truth=0.0, max_steps=50)  # type: ignore[arg-type]
        rng = random.Random(seed)
        passing = [s for s in states if s.phase == "passing"]
        turns = [s for s in states if s.phase == "turns"]
        for state in rng.sample(passing, min(per_game, len(passing))):
            view = player_view(state, rng.randrange(players))
            out["pass"].append(timed(lambda v=view: player_picture(v, cache=None)))  # type: ignore[misc]
        for state in rng.sample(turns, min(per_game, len(turns))):
            view = player_view(state, rng.randrange(players))
            out["view"].append(timed(lambda v=view: player_picture(v, cache=None)))  # type: ignore[misc]
            deduction = solve(view)
            out["casebook"].append(
                timed(lambda v=view, d=deduction: casebook_picture(v, d, cache=None))  # type: ignore[misc]
            )
        end = states[-1]
        out["reveal"].append(
            timed(lambda s=end: reveal_picture(reveal(s), public_view(s), cache=None))  # type: ignore[misc]
        )
    return out


def measure_mansion(players: int, games: int, per_game: int
                    ) -> dict[str, list[tuple[float, Picture]]]:
    from bot.mansion import notes_picture
    from bot.mansion import pictures as mansion_pictures

    out: dict[str, list[tuple[float, Picture]]] = {k: [] for k in MANSION_KINDS}
    for seed in range(games):
        variant = "standard" if seed % 2 == 0 else "one_against_all"
        states = mansion_states(players, seed, variant)
        rng = random.Random(seed)
        playing = [s for s in states if s.phase == "playing"]
        for state in rng.sample(playing, min(per_game, len(playing))):
            view = mansion.player_view(state, rng.randrange(players))
            out["hand"].append(timed(lambda v=view: mansion_pictures.hand_picture(v, cache=None)))  # type: ignore[misc]
            public = mansion.public_view(state)
            out["markers"].append(
                timed(lambda v=public: mansion_pictures.markers_picture(v, cache=None)))  # type: ignore[misc]
            names = [s.name for s in view.seats]
            line = mansion_pictures.table_line(view)
            for kind, assist in (("notes-book", "bookkeeping"), ("notes-full", "full")):
                grid = notes(view, assist)  # type: ignore[arg-type]  # solved here, not timed
                out[kind].append(timed(lambda g=grid, n=names, t=line: notes_picture.notes_picture(  # type: ignore[misc]
                    g, n, t, cache=None)))
        end = mansion.public_view(states[-1])
        out["reveal"].append(timed(lambda v=end: mansion_pictures.reveal_picture(v, cache=None)))  # type: ignore[misc]
    return out


def print_rows(players: int, results: dict[str, list[tuple[float, Picture]]]) -> None:
    for kind, rows in results.items():
        if not rows:
            continue
        ms = [t * 1000 for t, _ in rows]
        kb = [p.size / 1024 for _, p in rows]
        dims = {f"{p.width}x{p.height}" for _, p in rows}
        line = (
            f"{players}",
            kind,
            f"{len(rows)}",
            f"{statistics.median(ms):.1f}",
            f"{percentile(ms, 0.99):.1f}",
            f"{statistics.median(kb):.1f}",
            f"{max(kb):.1f}",
            "/".join(sorted(dims)[:2]) + ("…" if len(dims) > 2 else ""),
        )
        print("  ".join(f"{c:>9}" for c in line))


def cache_figures(players: int) -> str:
    """One whole game replayed as a bot would: after every action each seat asks for its
    view picture and its casebook. How often does the cache answer, and how fast?"""
    cache = PictureCache()
    states = [s for s in game_states(players, 99, truth=0.0, max_steps=60) if s.phase == "turns"]
    hit_times: list[float] = []
    miss_times: list[float] = []
    for state in states:
        for seat in range(players):
            view = player_view(state, seat)
            deduction = solve(view)
            for render in (
                lambda v=view: player_picture(v, cache=cache),
                lambda v=view, d=deduction: casebook_picture(v, d, cache=cache),
            ):
                before = cache.stats.misses
                seconds, _ = timed(render)
                (miss_times if cache.stats.misses > before else hit_times).append(seconds)
    asked = len(hit_times) + len(miss_times)
    return (
        f"  {players} players: {asked} asked, {len(miss_times)} rendered "
        f"(hit rate {cache.stats.hit_rate:.0%}); miss {statistics.median(miss_times) * 1000:.1f}"
        f" ms, hit {statistics.median(hit_times) * 1000:.2f} ms; {len(cache)} held in "
        f"{cache.bytes / 1024:.0f} KB"
    )


def letter_figures(players: int, seed: int = 5) -> list[str]:
    """One seeded game as the bot sends it (assist full): every picture its letters and the
    seats' `hand` answers carry, drawn through the bot's registry (`bot.drawings`) as the
    transport does. Per kind: pictures asked, rendered (a miss of both caches: the
    registry's, keyed by the stored input, and the drawers' own, keyed by the scene), ms per
    rendering (input parsed, casebook solved, rendered, encoded), KB. Then every picture
    asked again, as a retried send would: all hits, the same bytes."""
    scenes = SCENES
    scenes.clear()
    drawings = Drawings.of([GAME])
    rows: dict[str, list[tuple[float, int, bool]]] = {}
    refs = []
    for sent in play(players, seed, max_steps=60):
        for ref in sent.body.pictures:
            refs.append(ref)
            before = scenes.stats.misses
            seconds, picture = timed(lambda r=ref: drawings.picture(r))  # type: ignore[misc]
            rendered = scenes.stats.misses > before
            rows.setdefault(ref.kind, []).append((seconds, picture.size, rendered))
    asked = len(refs)
    input_hits, input_misses = drawings.cache.stats.hits, drawings.cache.stats.misses
    rendered_all = scenes.stats.misses
    first = [drawings.draw(r) for r in refs]
    retry = [timed(lambda r=r: drawings.draw(r)) for r in refs]  # type: ignore[misc]
    assert [png for _, png in retry] == first
    out = []
    for kind, got in sorted(rows.items()):
        misses = [t * 1000 for t, _, m in got if m]
        hits = [t * 1000 for t, _, m in got if not m] or [0.0]
        kb = [b / 1024 for _, b, m in got if m]
        out.append(
            f"  {players}p {kind:<13} asked {len(got):>3}, rendered {len(misses):>3}; "
            f"{statistics.median(misses):6.1f} ms (p99 {percentile(misses, 0.99):6.1f}), "
            f"cached {statistics.median(hits):5.2f} ms; "
            f"{statistics.median(kb):5.1f} KB (max {max(kb):5.1f})"
        )
    out.append(
        f"  {players}p cache: {asked} asked, {rendered_all} rendered (hit rate "
        f"{1 - rendered_all / asked:.0%}: {input_hits} same input, "
        f"{input_misses - rendered_all} same scene); asked again, as a retried send: "
        f"{statistics.median(t for t, _ in retry) * 1000:.3f} ms, same bytes"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--per-game", type=int, default=6)
    parser.add_argument("--game", choices=("13clues", "mansion", "both"), default="both")
    args = parser.parse_args()
    header = ("players", "picture", "n", "ms med", "ms p99", "KB med", "KB max", "pixels")
    if args.game in ("13clues", "both"):
        measure(4, 1, 2)  # warm-up: fonts and card tiles
        print("13 Clues")
        print("  ".join(f"{h:>9}" for h in header))
        for players in range(2, 7):
            print_rows(players, measure(players, args.games, args.per_game))
        print()
        print("cache: one game, every seat's view and casebook after every action:")
        for players in (2, 4, 6):
            print(cache_figures(players))
        print()
        print("letters: one game as the bot sends it (full assist), through bot.drawings:")
        for players in (2, 3, 4, 5, 6):
            print("\n".join(letter_figures(players)))
    if args.game in ("mansion", "both"):
        measure_mansion(4, 1, 2)  # warm-up: the Mansion's card tiles
        print("Clue: Mystery Beyond the Mansion")
        print("  ".join(f"{h:>9}" for h in header))
        for players in range(3, 6):
            print_rows(players, measure_mansion(players, args.games, args.per_game))


if __name__ == "__main__":
    main()
