"""Figures the benchmarks print: `bench.load`'s own DMs, told apart by whether they waited
for their member's DM channel to open (at 200 tables opening together those set the p99), and
`bench.cluster`'s first callback for each process and in DMs; and the tables `bench.load`
plays, alike on every shard."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from bench.cluster import by_process
from bench.load import LEVELS, Cluster, dm_delays, table_plan
from bot.workers import STARTED_ON


def test_own_dms_are_split_by_whether_their_channel_was_open() -> None:
    # two changes, each answered (i:) and DMing its member (u:): 3 s and 4 s after they acted
    rows = [
        (1, 1, 10.0, "i:100", None, 10.5, "sent"),
        (2, 1, 10.0, "u:7", 501, 12.0, "sent"),
        (3, 2, 10.0, "i:200", None, 10.5, "sent"),
        (4, 2, 10.0, "u:8", 502, 13.0, "sent"),
    ]
    dc = SimpleNamespace(
        _messages={501: SimpleNamespace(created_at=12.0), 502: SimpleNamespace(created_at=13.0)},
        dm_opened={7: 5.0, 8: 11.0},  # 7's channel was open when they acted at 9 s; 8's not
    )

    def split() -> tuple[list[float], list[float], list[float]]:
        delays = dm_delays(rows, cast(Any, dc), dispatched={100: 9.0, 200: 9.0},
                           users={100: 7, 200: 8}, end=20.0)
        return delays.own_dm, delays.own_dm_open, delays.own_dm_opening

    assert split() == ([3.0, 4.0], [3.0], [4.0])
    dc.dm_opened = {7: 9.5}  # opened after 7 acted; 8's never: both waited
    assert split() == ([3.0, 4.0], [], [3.0, 4.0])


def test_a_cluster_s_first_callbacks_are_also_given_for_each_process_and_in_dms() -> None:
    run = SimpleNamespace(bot_side_by_process=[[0.001] * 99 + [0.030], [0.002] * 50],
                          bot_side_dms=[0.004] * 10)
    assert by_process(cast(Any, run)) == (
        " (p99 by process: 30.0 ms of 100, 2.0 ms of 50; in DMs: 4.0 ms of 10)")
    one = SimpleNamespace(bot_side_by_process=[[0.001]], bot_side_dms=[])
    assert by_process(cast(Any, one)) == " (p99 in DMs: none)"


def test_every_game_and_every_shard_gets_every_ai_level_and_option() -> None:
    games = ("13clues", "mansion")
    for shards in (1, 2, 3):
        guilds = 200 // 4
        seen: dict[tuple[int, str], list[tuple[str, dict[str, Any]]]] = {}
        for t in range(200):
            game, humans, ai, level, options = table_plan(t, games, shards)
            assert game == games[t % 2] and 2 <= humans <= 3 and ai >= 1
            shard = (t // len(games)) % guilds % shards
            seen.setdefault((shard, game), []).append((level, options))
        assert len(seen) == 2 * shards
        for (shard, game), plans in seen.items():
            assert {level for level, _ in plans} == set(LEVELS), (shards, shard, game)
            assert {o["assist"] for _, o in plans} == {"off", "bookkeeping", "full"}
            if game == "13clues":
                assert {o["top_secret"] for _, o in plans} == {True, False}
                assert {o["edition"] for _, o in plans} == {"2016", "2020"}
            else:
                assert {o["variant"] for _, o in plans} == {"standard", "one-against-all"}


def test_only_a_cluster_s_loops_are_pinned_each_to_a_cpu_of_its_own() -> None:
    # the one process it is compared with runs as deployed alone: free on every CPU
    assert "LOOP_CPU" not in Cluster(1, "postgresql://x", pinned=True).env(0)
    assert "LOOP_CPU" not in Cluster(2, "postgresql://x").env(0)
    if STARTED_ON is not None and len(STARTED_ON) > 1:
        cpus = {Cluster(2, "postgresql://x", pinned=True).env(s)["LOOP_CPU"] for s in (0, 1)}
        assert len(cpus) == 2 and cpus <= {str(c) for c in STARTED_ON}
