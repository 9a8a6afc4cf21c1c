"""Side by side in one run (ratios, since the machine is noisy):

    python -m bench.side [--rounds 5] [--only persist fanout startup]

1. Persisting one action: the real `SqliteStorage.commit` of a realistic `Change` (the new
   state, the action log row, the letters a 4-seat question stores, the timer moves), against
   a raw single-row aiosqlite upsert of the same state with the same pragmas (WAL,
   synchronous=FULL). Target: ≤ 2×.
2. The start-of-game DM fan-out to 6 members through the stand-in with 50 ms injected on every
   REST request: the outbox as it is (destinations in parallel) against the same outbox
   sending one letter at a time. Target: ≥ 5× faster.
3. Start-up to ready (the bot as a child process, spawn to READY handled) with 10,000 stored
   games, 1,000 of them in play with timers and owed letters, against an empty database.
   Target: ≤ 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiosqlite

from bot import news
from bot.client import DeductionBot
from bot.config import Config
from bot.messages import Outgoing
from bot.models import Letter, SeatRef, Table, TimerSpec
from bot.plug import plug
from bot.storage import Change, LogEntry, SqliteStorage, Storage
from bot.storage.sqlite import PRAGMAS
from bot.tables import Reply, TableService
from bot.thirteen_clues.game import GAME
from engine.thirteen_clues import legal
from testkit.standin import running_standin

# --- 1. persisting one action ---------------------------------------------------------------


async def realistic_change(storage: Storage) -> tuple[Table, Change]:
    """On an open storage: a 4-seat table (2 members, 2 AI) in play, and the change one
    question stores: what `TableService._commit` builds for it."""
    service = TableService(storage, {GAME.key: plug(GAME)}, ai_delay=3600.0, seed=lambda: 7)
    table = await service.open(1, 10, GAME.key, 100, "Ann", {"assist": "full"})
    await service.join(table.id, 101, "Bea")
    await service.add_ai(table.id, 100, 2, "normal")
    await service.start(table.id, 100)
    rng = random.Random(1)
    while True:  # AI moves for everyone until the first question of the turns phase
        stored = await storage.table(table.id)
        assert stored is not None and stored.state is not None
        state = GAME.load(stored.state)
        if state.phase == "turns" and not legal.must_take(state):
            break
        seat = legal.waiting_on(state)[0]
        action = GAME.ai_action(state, seat, "normal", rng)
        ref = stored.seats[seat]
        if ref.user_id is not None and not ref.is_ai:
            await service.act(table.id, ref.user_id, lambda s, i, a=action: a)  # type: ignore[misc]
        else:
            await service._apply(stored, state, action, actor=f"ai:{seat}")
    action = GAME.ai_action(state, state.turn, "normal", rng)
    after_state, events = GAME.apply(state, action)
    after = stored.model_copy(update={"state": GAME.dump(after_state),
                                      "version": stored.version + 1})
    newly = [s for s in legal.waiting_on(after_state) if s not in legal.waiting_on(state)]
    after, letters = news.letters(plug(GAME), after, after_state, events, newly_waiting=newly,
                                  alerts=await service._alerts(after, newly), langs={})
    letters.append(Reply(1, "token", Outgoing(content="✅ Asked.")).letter(len(letters)))
    plan = service._plan(after, state, after_state)
    change = Change(after, expected=stored.version,
                    log=LogEntry("u100", GAME.dump_action(action), GAME.dump_events(events)),
                    letters=letters, timers=plan)
    return stored, change


async def persist(rounds: int, per_round: int) -> str:
    folder = Path(tempfile.mkdtemp(prefix="bench-side-"))
    storage = SqliteStorage(folder / "persist.sqlite3")
    await storage.open()
    table, change = await realistic_change(storage)
    state = change.table.state or ""
    raw = await aiosqlite.connect(folder / "raw.sqlite3", isolation_level=None)
    for pragma in PRAGMAS:
        await raw.execute(pragma)
    await raw.execute("CREATE TABLE kv (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
    version = table.version
    real: list[float] = []
    base: list[float] = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(per_round):
            after = change.table.model_copy(update={"version": version + 1})
            await storage.commit(Change(after, expected=version, log=change.log,
                                        letters=change.letters, timers=change.timers))
            version += 1
        real.append((time.perf_counter() - started) / per_round)
        started = time.perf_counter()
        for i in range(per_round):
            # a different value each time, as an action's state is (an identical one would
            # write no page at all, and SQLite would then skip the fsync)
            await raw.execute("INSERT INTO kv (id, v) VALUES (1, ?) ON CONFLICT (id) DO UPDATE"
                              " SET v = excluded.v", (f"{i:08d}{state}",))
        base.append((time.perf_counter() - started) / per_round)
    await raw.close()
    await storage.close()
    r, b = statistics.median(real), statistics.median(base)
    ratio = statistics.median(x / y for x, y in zip(real, base, strict=True))
    size = sum(len(x.model_dump_json()) for x in change.letters)
    return (f"persist one action: storage.commit {r * 1000:.2f} ms (state {len(state)} B, "
            f"{len(change.letters)} letters {size} B, the log row, the timer moves) vs raw "
            f"upsert {b * 1000:.2f} ms: {ratio:.2f}× (median of {rounds} rounds of "
            f"{per_round}, each side by side; range {min(real) * 1000:.2f}–"
            f"{max(real) * 1000:.2f} vs {min(base) * 1000:.2f}–{max(base) * 1000:.2f} ms; "
            "target ≤ 2×)")


# --- 2. the DM fan-out ----------------------------------------------------------------------


async def fanout(rounds: int) -> str:
    """From the start change's commit to the sixth DM's arrival, the bot drawing as `python -m
    bot` does (two helper processes). `warm`: the DM channels the bot opened as the members sat
    down; cold: the bot restarted since, so each DM first opens its channel (POST
    /users/@me/channels, one discord.py bucket for every member). `pictures`: the DMs carry each
    member's card picture (drawn at send time: CPU the two cores share); without, their text
    alone (a bot without Attach Files): the outbox's own parallelism."""
    times: dict[tuple[bool, bool, bool], list[float]] = {}
    async with running_standin(quiet=0.05) as dc:
        for pictures in (True, False):
            # a bot each: discord.py sends at most 120 gateway frames a minute, and each of
            # the stand-in's settle barriers asks for one
            for key, took in (await _fanout_rounds(dc, rounds, pictures)).items():
                times.setdefault((pictures, *key), []).extend(took)
    parts = []
    for pictures in (True, False):
        for warm in (True, False):
            p = statistics.median(times[(pictures, warm, False)])
            s = statistics.median(times[(pictures, warm, True)])
            parts.append(f"{'with their pictures' if pictures else 'text alone'}, "
                         f"{'DM channels opened at the join' if warm else 'after a restart'}: "
                         "outbox "
                         f"{p * 1000:.0f} ms vs one by one {s * 1000:.0f} ms, {s / p:.1f}× faster")
    return ("start-of-game DM fan-out to 6, 50 ms on every REST request, commit → sixth DM:\n"
            + "\n".join(f"    {x}" for x in parts) + "\n    (target ≥ 5×)")


async def _fanout_rounds(dc: Any, rounds: int, pictures: bool
                         ) -> dict[tuple[bool, bool], list[float]]:
    times: dict[tuple[bool, bool], list[float]] = {}
    folder = Path(tempfile.mkdtemp(prefix="bench-fanout-"))
    config = Config(token="standin-token", database_path=folder / "bot.sqlite3",
                    ai_delay=3600.0, ai_workers=0, draw_workers=2)
    bot = DeductionBot(config)
    async with dc.run_bot(bot):
        await asyncio.sleep(3.0)  # the drawing helpers start and warm up
        if not pictures:
            bot.transport.draw = None
        for n in range(rounds * 4):
            one_by_one, warm = n % 2 == 1, n % 4 >= 2
            guild = dc.add_guild(f"Fan-out {pictures} {n}")
            members = [dc.add_user(f"p{n}-{i}", guild_id=guild.id) for i in range(6)]
            await dc.settle()
            await dc.slash(members[0], guild, "13clues", "new")
            for user in members[1:]:
                await dc.slash(user, guild, "13clues", "join")
            await dc.settle()
            assert all(u.id in bot.transport._dm_channels for u in members)  # opened at join
            if not warm:  # as after a restart since they sat down
                bot.transport._dm_channels.clear()
            bot.sender._slots = asyncio.Semaphore(1 if one_by_one else 16)
            slow = dc.faults.delay(None, 0.05, times=None)
            await dc.slash(members[0], guild, "13clues", "start", timeout=30.0)
            await dc.settle(timeout=30.0)
            slow.cancel()
            assert all(dc.dms(u) for u in members)
            last = max(m.created_at for u in members for m in dc.dms(u))
            con = sqlite3.connect(config.database_path)
            committed = con.execute("SELECT MAX(created_at) FROM outbox WHERE dest LIKE 'u:%'"
                                    ).fetchone()[0]
            con.close()
            times.setdefault((warm, one_by_one), []).append(last - committed)
    return times


# --- 3. start-up with 10,000 stored games ---------------------------------------------------


def fill(db: Path, games: int, playing: int, standin: Any) -> None:
    """`games` tables, the last `playing` of them in play, each of those with its timers and
    two owed letters (a channel post, a DM); their channels and members exist in the
    stand-in (so the owed letters can be delivered after the start)."""
    con = sqlite3.connect(db)
    rng = random.Random(3)
    states: list[tuple[str, list[SeatRef], str, list[int]]] = []
    guilds = [standin.add_guild(f"Stored {g}") for g in range(max(1, playing // 10))]
    finished_state = None
    for i in range(playing):
        guild = guilds[i % len(guilds)]
        members = [standin.add_user(f"s{i}-{k}", guild_id=guild.id) for k in range(2)]
        seats = [SeatRef(name=m.name, user_id=m.id) for m in members]
        seats += [SeatRef(name=f"Holmes{k} (AI)", ai_level="normal") for k in range(2)]
        state, _ = GAME.start(seats, GAME.settings(), rng.randrange(2**40))
        while state.phase == "passing" and rng.random() < 0.8:
            seat = legal.waiting_on(state)[0]
            state, _ = GAME.apply(state, GAME.ai_action(state, seat, "easy", rng))
        by_id = {s.player_id: s for s in seats}
        ordered = [by_id[p] for p in GAME.seat_ids(state)]
        channel = standin.add_channel(guild.id, f"stored-{i}")
        states.append((GAME.dump(state), ordered, str(guild.id), [channel, members[0].id]))
        if finished_state is None:
            finished_state = GAME.dump(state)
    now = time.time()
    over = games - playing
    con.executemany(
        "INSERT INTO tables (guild_id, channel_id, game, status, host_id, options, seats, state,"
        " version, created_at, updated_at) VALUES (?, ?, '13clues', 'over', 1, '{}', '[]', ?,"
        " 40, ?, ?)",
        [(1 + i % 500, 10_000_000 + i, finished_state, now, now) for i in range(over)],
    )
    for raw, seats, guild, (channel, member) in states:
        cur = con.execute(
            "INSERT INTO tables (guild_id, channel_id, game, status, host_id, options, seats,"
            " state, version, created_at, updated_at) VALUES (?, ?, '13clues', 'playing', ?,"
            " '{}', ?, ?, 12, ?, ?)",
            (int(guild), channel, member, json.dumps([s.model_dump() for s in seats]), raw,
             now, now),
        )
        table_id = cur.lastrowid
        loaded = GAME.load(raw)
        key = GAME.turn_key(loaded)
        for seat in GAME.waiting_on(loaded):
            specs = ([TimerSpec(kind="ai", seat=seat, key=key, due=now + 3600)]
                     if seats[seat].is_ai else
                     [TimerSpec(kind="remind", seat=seat, key=key, due=now + 3600),
                      TimerSpec(kind="idle", seat=seat, key=key, due=now + 7200)])
            for spec in specs:
                con.execute(
                    "INSERT INTO timers (guild_id, table_id, kind, due, payload) VALUES"
                    " (?, ?, ?, ?, ?)",
                    (int(guild), table_id, spec.kind, spec.due,
                     json.dumps({"seat": spec.seat, "key": spec.key})),
                )
        for letter in (Letter.post(channel, Outgoing(content="🔎 The table carries on.")),
                       Letter.dm(member, Outgoing(content="⏳ Your turn is waiting."))):
            con.execute(
                "INSERT INTO outbox (table_id, dest, letter, created_at) VALUES (?, ?, ?, ?)",
                (table_id, letter.to, letter.model_dump_json(), now),
            )
    con.commit()
    con.close()


async def startup(games: int, playing: int, rounds: int) -> str:
    empty: list[float] = []
    full: list[float] = []
    async with running_standin(check=False) as dc:
        dc.add_guild("Home")
        folder = Path(tempfile.mkdtemp(prefix="bench-startup-"))
        stored = folder / "stored" / "bot.sqlite3"
        stored.parent.mkdir()
        storage = SqliteStorage(stored)
        await storage.open()
        await storage.close()
        began = time.monotonic()
        fill(stored, games, playing, dc)
        built = time.monotonic() - began
        size = stored.stat().st_size
        for n in range(rounds):
            for db, into in ((folder / f"empty-{n}" / "bot.sqlite3", empty), (stored, full)):
                db.parent.mkdir(exist_ok=True)
                started = time.monotonic()
                proc = await dc.start_bot_process(database_path=db, timeout=60.0,
                                                  env={"LEASE_WAIT_SECONDS": "5"})
                into.append(time.monotonic() - started)
                await proc.stop(grace=10.0)
                await dc.wait_disconnected(10.0)
    e, f = statistics.median(empty), statistics.median(full)
    return (f"start-up to ready: empty database {e:.2f} s; {games:,} stored games "
            f"({playing:,} in play, with timers and owed letters; {size / 2**20:.0f} MiB, built "
            f"in {built:.0f} s) {f:.2f} s: {f / e:.2f}×, +{f - e:.2f} s (target ≤ 5 s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.side", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="+", choices=("persist", "fanout", "startup"),
                        default=["persist", "fanout", "startup"])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--playing", type=int, default=1_000)
    args = parser.parse_args(argv)
    print("side by side:")
    if "persist" in args.only:
        print("  " + asyncio.run(persist(args.rounds, 200)), flush=True)
    if "fanout" in args.only:
        print("  " + asyncio.run(fanout(args.rounds)), flush=True)
    if "startup" in args.only:
        print("  " + asyncio.run(startup(args.games, args.playing, max(1, args.rounds // 2))),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
