"""A small chaos run in the suite (`python -m bench.chaos` runs 100 games and 50 kills)."""

from __future__ import annotations

from pathlib import Path

from testkit.chaos import run_chaos


async def test_games_survive_random_sigkills(tmp_path: Path) -> None:
    # no helper processes: 5 starts x 3 spawned imports of the games, ~10 s of CPU
    report = await run_chaos(tmp_path, games=3, kills=4, seed=11, limit=90, helpers=False)
    print("\n".join(report.lines()))
    assert report.kills == 4 and report.games == 3
    assert report.acknowledged > 20
    assert (report.lost, report.duplicated_actions, report.duplicated_messages,
            report.stalled, report.bot_errors) == (0, 0, 0, 0, 0), report.problems
    assert not report.problems, report.problems
