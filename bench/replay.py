"""What a replay and a download cost: per game set-up, the moves of a finished game, the time
to build its record and replay it to the stored end, the time of its transcript, and the
sizes of the two files.

    python -m bench.replay [--games 10]

Games are played by `normal` AI seats through the plug (no Discord, no database); the record
is built from the same log lines the table service stores. Figures only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from typing import Any

from bot.archive import Replay, record_of, transcript
from bot.models import SeatRef, Table
from bot.plug import AnyGame
from bot.registry import GAMES
from bot.storage import LogEntry

GAME = {g.key: g for g in GAMES}
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("13clues", 4, {}),
    ("13clues", 6, {"top_secret": True}),
    ("mansion", 4, {}),
    ("mansion", 5, {"variant": "one-against-all"}),
    ("mansion", 4, {"series": 3}),
]


def finished(module: AnyGame, players: int, options: dict[str, Any], seed: int
             ) -> tuple[Table, list[LogEntry]]:
    """A game played to its end, as the stored row and log would hold it."""
    settings = module.settings.merged({}, options)
    lobby = [SeatRef(name=f"P{i}", user_id=100 + i) for i in range(players)]
    state, events = module.start(lobby, settings, seed)
    log = [LogEntry("u100", "start", module.dump_events(events))]
    rng = random.Random(seed)
    while not module.is_over(state):
        seat = module.waiting_on(state)[0]
        action = module.ai_action(state, seat, "normal", rng)
        state, events = module.apply(state, action)
        log.append(LogEntry(f"u{100 + seat}", module.dump_action(action),
                            module.dump_events(events)))
    by_id = {s.player_id: s for s in lobby}
    table = Table(id=1, guild_id=1, channel_id=1, game=module.key, status="over", host_id=100,
                  options=settings.model_dump(mode="json"),
                  seats=[by_id[i] for i in module.seat_ids(state)], state=module.dump(state))
    return table, log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    print(f"{'set-up':40} {'moves':>5} {'play through ms':>20} {'a step ms':>10} "
          f"{'transcript ms':>13} {'kept MB':>8} {'record KB':>9} {'text KB':>8}")
    for key, players, options in SETUPS:
        module = GAME[key]
        moves, builds, steps, texts, kept_mb, records, sizes = [], [], [], [], [], [], []
        for seed in range(args.games):
            table, log = finished(module, players, options, seed)
            started = time.perf_counter()
            kept = Replay(module, record_of(module, table, log))
            builds.append(time.perf_counter() - started)
            asked = range(kept.steps - 1, 0, -max(1, kept.steps // 20))
            started = time.perf_counter()
            for step in asked:
                kept.frame(step)
            steps.append((time.perf_counter() - started) / len(asked))
            started = time.perf_counter()
            text = transcript(module, kept.record, "en")
            texts.append(time.perf_counter() - started)
            tracemalloc.start()
            again = Replay(module, kept.record)
            kept_mb.append(tracemalloc.get_traced_memory()[0] / 1e6)
            tracemalloc.stop()
            del again
            moves.append(len(kept.record.moves))
            records.append(len(kept.record.model_dump_json(indent=1)) / 1024)
            sizes.append(len(text.encode()) / 1024)
        label = f"{key} {players}p {options or ''}"
        print(f"{label:40} {statistics.median(moves):>5.0f} "
              f"{statistics.median(builds) * 1000:>8.0f} (max {max(builds) * 1000:>5.0f}) "
              f"{statistics.median(steps) * 1000:>10.1f} {statistics.median(texts) * 1000:>13.0f}"
              f" {max(kept_mb):>8.1f} {max(records):>9.1f} {max(sizes):>8.1f}")
    print("medians over the games (a step: from its checkpoint, 20 steps asked per game); "
          "kept MB, record KB and text KB are the largest game's")


if __name__ == "__main__":
    main()
