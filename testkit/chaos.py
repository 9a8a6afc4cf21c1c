"""Chaos: several 13 Clues games through the stand-in while the bot's process is SIGKILLed at
random moments and started again, as members would live it: they click, and when the bot
does not answer they look at the table and try again.

Shared by the suite (a small run) and `python -m bench.chaos` (100 games, 50 kills). With
`cluster`, two processes (shards 0 and 1 of two) play on one PostgreSQL database, the games
split between a server on each shard, and each kill takes one of them. What it
counts: games, kills, acknowledged actions (the member was told it happened), actions lost
(acknowledged but not stored: must be 0), duplicated actions and messages (an action stored
twice, or one letter delivered twice: must be 0), stalled games (not over in time: must be 0).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.thirteen_clues import GameState, legal
from engine.thirteen_clues.cards import CARDS, Category
from testkit.drive import postgres_query
from testkit.standin import (
    DiscordStandIn,
    InteractionResult,
    NoBotConnected,
    StandInError,
    User,
    running_standin,
)
from testkit.standin.process import NO_HELPERS, BotProcess

ENV = {"AI_DELAY_SECONDS": "0.05"}
START_TIMEOUT = 120.0
"""Seconds a process may take to start (a hundred tables' timers reconciled, on a busy
machine)."""
ASKS = 2
"""Questions each member asks before accusing right."""


@dataclass
class Report:
    games: int = 0
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0
    duplicated_actions: int = 0
    duplicated_messages: int = 0
    stalled: int = 0
    bot_errors: int = 0
    """Lines of the bots' logs that are errors or tracebacks (expected cases log lower)."""
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"games {self.games}, kills {self.kills}, acknowledged actions {self.acknowledged}",
            f"actions lost {self.lost}, duplicated actions {self.duplicated_actions}, "
            f"duplicated messages {self.duplicated_messages}, stalled games {self.stalled}, "
            f"bot errors {self.bot_errors}",
            f"{self.seconds:.1f} s",
        ]


class Chaos:
    def __init__(self, dc: DiscordStandIn, db: Path, rng: random.Random,
                 url: str | None = None, shards: int = 1, helpers: bool = True) -> None:
        """`url`: a PostgreSQL database instead of the SQLite file `db`; `shards`: processes,
        one shard each (more than one needs `url`); `helpers`: the bot starts its helper
        processes, as deployed."""
        self.dc = dc
        self.db = db
        self.url = url
        self.shards = shards
        self.env = ENV if helpers else {**ENV, **NO_HELPERS}
        self.rng = rng
        self.procs: dict[int, BotProcess] = {}
        self.started: list[BotProcess] = []
        """Every process started, killed ones included (their logs are judged too)."""
        self.ups = {shard: asyncio.Event() for shard in range(shards)}
        self.report = Report()
        self.answers: list[tuple[InteractionResult, str, Callable[[], bool]]] = []
        """Every interaction fired: its expected success text, and whether its step is stored."""

    # the bot's life ----------------------------------------------------------------------

    async def start(self, shard: int = 0) -> None:
        env = dict(self.env)
        if self.url is not None:
            env["DATABASE_URL"] = self.url
        if self.shards > 1:
            env |= {"SHARD_COUNT": str(self.shards), "SHARD_IDS": str(shard)}
        self.procs[shard] = await self.dc.start_bot_process(database_path=self.db, env=env,
                                                            timeout=START_TIMEOUT)
        self.started.append(self.procs[shard])
        self.ups[shard].set()

    async def killer(self, kills: int, every: float) -> None:
        """SIGKILL one process at random moments, start it again after a short while."""
        for _ in range(kills):
            await asyncio.sleep(self.rng.uniform(0.3 * every, 1.7 * every))
            shard = self.rng.randrange(self.shards)
            self.ups[shard].clear()
            self.procs[shard].kill()
            await self.procs[shard].wait(60)  # a loaded machine reaps slowly
            self.report.kills += 1
            if self.shards == 1:
                with contextlib.suppress(StandInError):
                    await self.dc.wait_disconnected()
            await asyncio.sleep(self.rng.uniform(0.0, 0.3))
            await self.restart(shard)

    async def restart(self, shard: int) -> None:
        """Start a killed process again; one that fails to start is a problem reported, and
        is tried again (the games would otherwise wait for it forever)."""
        for _ in range(3):
            try:
                await self.start(shard)
                return
            except (StandInError, TimeoutError) as exc:
                self.report.problems.append(f"shard {shard} did not start: {str(exc)[-300:]}")
                with contextlib.suppress(KeyError, TimeoutError, RuntimeError):
                    await self.procs[shard].stop(10)
        raise AssertionError(f"shard {shard} did not start three times running")

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """One read of the bot's database (`?` placeholders, SQL both backends speak)."""
        if self.url is not None:
            return list(postgres_query(self.url, sql, args))
        con = sqlite3.connect(self.db, timeout=10)
        con.row_factory = sqlite3.Row
        try:
            return con.execute(sql, args).fetchall()
        finally:
            con.close()

    # reading the truth -------------------------------------------------------------------

    def row(self, channel: int) -> Any:
        found = self.query("SELECT * FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                           (channel,))
        return found[0] if found else None

    def state(self, channel: int) -> GameState | None:
        row = self.row(channel)
        if row is None or row["state"] is None:
            return None
        return GameState.model_validate_json(row["state"])

    # a member's step ---------------------------------------------------------------------

    async def step(self, user: User, channel: int, command: str, done: str,
                   stored: Callable[[], bool], **options: Any) -> None:
        """Do one step until it is stored, once: never again once it is."""
        last: str | None = None
        for _ in range(200):
            if stored():
                return
            await self.ups[self.shard_of(channel)].wait()
            try:
                rec = await self.dc.slash(user, channel, "13clues", command, wait=False,
                                          **options)
            except (NoBotConnected, StandInError):
                await asyncio.sleep(0.1)
                continue
            self.answers.append((rec, done, stored))
            with contextlib.suppress(StandInError):
                await self.dc.complete(rec, timeout=4)
            last = rec.text[:300]
            if stored():
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"{command} by {user.name} never went through; the last answer:"
                             f" {last!r}")

    def shard_of(self, channel: int) -> int:
        """The shard whose process hears this channel's server."""
        guild = self.dc.channels[channel].guild_id
        return 0 if guild is None else (guild >> 22) % self.shards

    async def game(self, n: int, ann: User, bea: User, channel: int, limit: float) -> None:
        """One table: open, join, an AI, start, pass, ask a few questions, accuse right."""
        end = time.monotonic() + limit
        def row() -> Any:
            return self.row(channel)

        await self.step(ann, channel, "new", "Table open", lambda: row() is not None)
        await self.step(bea, channel, "join", "You have a seat",
                        lambda: f'"user_id": {bea.id}' in (row() or {"seats": ""})["seats"])
        await self.step(ann, channel, "add-ai", "Seated", lambda: '"ai_level": "normal"' in (
            row() or {"seats": ""})["seats"], count=1, level="normal")
        await self.step(ann, channel, "start", "Cards dealt",
                        lambda: (row() or {"status": ""})["status"] != "lobby")
        members = {f"u{ann.id}": ann, f"u{bea.id}": bea}
        asked: Counter[str] = Counter()
        while time.monotonic() < end:
            state = self.state(channel)
            if state is None or state.phase == "over":
                return
            seat = next((s for s in legal.waiting_on(state)
                         if state.seats[s].id in members), None)
            if seat is None:
                await asyncio.sleep(0.05)
                continue
            me, pid = state.seats[seat], state.seats[seat].id
            user = members[pid]
            if state.phase == "passing":
                person, location, weapon = (next(c for c in me.dealt if CARDS[c].category == k)
                                            for k in Category)

                def passed(s: int = seat) -> bool:
                    now = self.state(channel)
                    return now is not None and now.seats[s].passed is not None

                await self.step(user, channel, "pass", "Your choice is made", passed,
                                person=person, location=location, weapon=weapon)
            elif legal.must_take(state):
                source = next(i for i, s in enumerate(state.seats) if s.glasses)
                giver = members.get(state.seats[source].id)
                if giver is None:
                    await asyncio.sleep(0.05)  # the AI holds them: use the picker instead
                    continue
                turn = state.turn_number

                def took(t: int = turn) -> bool:
                    now = self.state(channel)
                    return now is not None and (now.turn_number != t or not legal.must_take(
                        now))

                await self.step(user, channel, "take", "You took", took, player=giver)
            elif asked[pid] < ASKS:
                other = next(u for p, u in members.items() if p != pid)
                count = sum(q.asker == seat for q in state.questions)

                def questioned(s: int = seat, c: int = count) -> bool:
                    now = self.state(channel)
                    return now is not None and sum(q.asker == s for q in now.questions) > c

                await self.step(user, channel, "ask", "Asked", questioned, witness=other,
                                about="red")
                asked[pid] += 1
            else:
                person, location, weapon = me.holder

                def over() -> bool:
                    now = self.state(channel)
                    return now is not None and now.phase == "over"

                await self.step(user, channel, "accuse", "Accusation made", over,
                                person=person, location=location, weapon=weapon)
        self.report.stalled += 1
        self.report.problems.append(f"game {n} did not end")

    # the verdict -------------------------------------------------------------------------

    def trace(self, table_id: int, actor: str, kind: str) -> str:
        """Which interactions a duplicated action's stored answers came from (PROBE)."""
        fired = [r for r, _, _ in self.answers if f"u{r.user_id}" == actor
                 and _command(r) == kind]
        replies = Counter(dest for (dest,) in self.query(
            "SELECT dest FROM outbox WHERE table_id = ? AND dest LIKE 'i:%'", (table_id,)))
        mine = {f"i:{r.id}": r for r in fired}
        return (f"fired {[(r.id, r.shard, round(r.dispatched_at, 1), r.text[:20]) for r in fired]}"
                f"; stored answers {[(d, n) for d, n in replies.items() if d in mine]}")

    def judge(self, games: int) -> None:
        report = self.report
        report.games = games
        for rec, done, stored in self.answers:
            if done in rec.text:
                report.acknowledged += 1
                if not stored():
                    report.lost += 1
                    report.problems.append(f"acknowledged but not stored: {rec.text[:80]}")
        for table_id, actor, action, n in self.query(
            "SELECT table_id, actor, action, COUNT(*) FROM actions WHERE actor LIKE 'u%'"
            " GROUP BY table_id, actor, action"
        ):
            kind = json.loads(action)["type"] if action.startswith("{") else action
            limit = ASKS if kind == "ask" else 1
            if kind not in ("take_glass",) and n > limit:
                report.duplicated_actions += n - limit
                report.problems.append(f"table {table_id}: {actor} {kind} stored {n}×; "
                                       + self.trace(table_id, actor, kind))
        for dest, n in self.query("SELECT dest, COUNT(*) FROM outbox WHERE dest LIKE 'i:%'"
                                  " GROUP BY dest HAVING COUNT(*) > 1"):
            # each change stores one answer to its interaction: two are one interaction
            # applied twice (none is ever delivered twice to the bot)
            report.duplicated_actions += n - 1
            report.problems.append(f"interaction {dest[2:]} applied {n}×")
        salt = self.query("SELECT value FROM meta WHERE key = 'nonce_salt'")[0][0]
        sent = {f"{salt}{i}" for (i,) in self.query("SELECT id FROM outbox WHERE state = 'sent'")}
        owed = self.query("SELECT COUNT(*) FROM outbox WHERE state = 'pending'")[0][0]
        by_nonce = Counter(str(m.nonce) for m in self.dc.messages
                           if m.author_id == self.dc.bot_user_id and m.nonce is not None)
        report.duplicated_messages = sum(n - 1 for n in by_nonce.values() if n > 1)
        unknown = [n for n in by_nonce if n not in sent]
        if unknown:
            report.problems.append(f"{len(unknown)} messages from no sent letter")
        if owed:
            report.problems.append(f"{owed} letters still owed at the end")
        errors = [line for proc in self.started for line in proc.error_lines()]
        report.bot_errors = len(errors)
        report.problems += [f"bot: {line[:240]}" for line in errors[:10]]


async def run_chaos(tmp: Path, *, games: int, kills: int, seed: int = 7,
                    limit: float = 120.0, url: str | None = None, shards: int = 1,
                    helpers: bool = True) -> Report:
    """Play `games` tables at once while the bot is killed `kills` times; with `shards`
    above 1, a cluster of that many processes on the PostgreSQL database at `url`;
    `helpers`: each process starts its helper processes, as deployed."""
    started = time.monotonic()
    async with running_standin(check=False) as dc:
        dc.max_concurrency = shards  # each shard its own IDENTIFY bucket: restarts at once
        guilds = [dc.add_guild(f"guild {s}", shard=(s, shards) if shards > 1 else None)
                  for s in range(shards)]
        places = [(g, g.channel_id) for g in guilds] + [
            (g, dc.add_channel(g.id, f"table-{i}"))
            for i in range(shards, games) for g in [guilds[i % shards]]]
        channels = [c for _, c in places]
        pairs = [(dc.add_user(f"Ann{i}", guild_id=g.id), dc.add_user(f"Bea{i}", guild_id=g.id))
                 for i, (g, _) in enumerate(places)]
        chaos = Chaos(dc, tmp / "chaos.sqlite3", random.Random(seed), url, shards,
                      helpers)
        try:
            await play_all(chaos, dc, pairs, channels, games=games, kills=kills, limit=limit)
        finally:
            for proc in chaos.procs.values():
                await proc.stop(10)
    chaos.report.seconds = time.monotonic() - started
    return chaos.report


async def play_all(chaos: Chaos, dc: DiscordStandIn, pairs: list[tuple[User, User]],
                   channels: list[int], *, games: int, kills: int, limit: float) -> None:
    """Start the processes, play every game while the killer works, judge."""
    for shard in range(chaos.shards):
        await chaos.start(shard)
    every = max(1.0, 2.0 * games / max(kills, 1))
    killer = asyncio.create_task(chaos.killer(kills, every))
    await asyncio.gather(*(chaos.game(i, a, b, c, limit)
                           for i, ((a, b), c) in enumerate(zip(pairs, channels, strict=True))))
    await killer
    for up in chaos.ups.values():
        await up.wait()
    end = time.monotonic() + 20
    while time.monotonic() < end:  # the last process delivers what is still owed
        if not chaos.query("SELECT COUNT(*) FROM outbox WHERE state = 'pending'")[0][0]:
            break
        await asyncio.sleep(0.2)
    with contextlib.suppress(StandInError):
        await dc.settle(timeout=10)
    chaos.judge(games)


def _command(rec: InteractionResult) -> str:
    """A slash command's subcommand name (PROBE)."""
    options = rec.data.get("options") or [{}]
    return str(options[0].get("name", ""))
