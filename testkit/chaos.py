"""Chaos: several 13 Clues games through the stand-in while the bot's process is SIGKILLed at
random moments and started again, as members would live it: they click, and when the bot
does not answer they look at the table and try again.

Shared by the suite (a small run) and `python -m bench.chaos` (100 games, 50 kills). What it
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
from testkit.standin import (
    DiscordStandIn,
    InteractionResult,
    NoBotConnected,
    StandInError,
    User,
    running_standin,
)
from testkit.standin.process import BotProcess

ENV = {"AI_DELAY_SECONDS": "0.05"}
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
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"games {self.games}, kills {self.kills}, acknowledged actions {self.acknowledged}",
            f"actions lost {self.lost}, duplicated actions {self.duplicated_actions}, "
            f"duplicated messages {self.duplicated_messages}, stalled games {self.stalled}",
            f"{self.seconds:.1f} s",
        ]


class Chaos:
    def __init__(self, dc: DiscordStandIn, db: Path, rng: random.Random) -> None:
        self.dc = dc
        self.db = db
        self.rng = rng
        self.proc: BotProcess | None = None
        self.up = asyncio.Event()
        self.report = Report()
        self.answers: list[tuple[InteractionResult, str, Callable[[], bool]]] = []
        """Every interaction fired: its expected success text, and whether its step is stored."""

    # the bot's life ----------------------------------------------------------------------

    async def start(self) -> None:
        self.proc = await self.dc.start_bot_process(database_path=self.db, env=ENV)
        self.up.set()

    async def killer(self, kills: int, every: float) -> None:
        """SIGKILL at random moments, start again after a short while."""
        for _ in range(kills):
            await asyncio.sleep(self.rng.uniform(0.3 * every, 1.7 * every))
            assert self.proc is not None
            self.up.clear()
            self.proc.kill()
            await self.proc.wait(10)
            self.report.kills += 1
            with contextlib.suppress(StandInError):
                await self.dc.wait_disconnected()
            await asyncio.sleep(self.rng.uniform(0.0, 0.3))
            await self.start()

    # reading the truth -------------------------------------------------------------------

    def row(self, channel: int) -> sqlite3.Row | None:
        con = sqlite3.connect(self.db, timeout=10)
        con.row_factory = sqlite3.Row
        try:
            row: sqlite3.Row | None = con.execute(
                "SELECT * FROM tables WHERE channel_id = ? ORDER BY id DESC", (channel,)
            ).fetchone()
            return row
        finally:
            con.close()

    def state(self, channel: int) -> GameState | None:
        row = self.row(channel)
        if row is None or row["state"] is None:
            return None
        return GameState.model_validate_json(row["state"])

    # a member's step ---------------------------------------------------------------------

    async def step(self, user: User, channel: int, command: str, done: str,
                   stored: Callable[[], bool], **options: Any) -> None:
        """Do one step until it is stored, once: never again once it is."""
        for _ in range(200):
            if stored():
                return
            await self.up.wait()
            try:
                rec = await self.dc.slash(user, channel, "13clues", command, wait=False,
                                          **options)
            except (NoBotConnected, StandInError):
                await asyncio.sleep(0.1)
                continue
            self.answers.append((rec, done, stored))
            with contextlib.suppress(StandInError):
                await self.dc.complete(rec, timeout=4)
            if stored():
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"{command} by {user.name} never went through")

    async def game(self, n: int, ann: User, bea: User, channel: int, limit: float) -> None:
        """One table: open, join, an AI, start, pass, ask a few questions, accuse right."""
        end = time.monotonic() + limit
        def row() -> sqlite3.Row | None:
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

    def judge(self, games: int) -> None:
        report = self.report
        report.games = games
        for rec, done, stored in self.answers:
            if done in rec.text:
                report.acknowledged += 1
                if not stored():
                    report.lost += 1
                    report.problems.append(f"acknowledged but not stored: {rec.text[:80]}")
        con = sqlite3.connect(self.db)
        try:
            for table_id, actor, action, n in con.execute(
                "SELECT table_id, actor, action, COUNT(*) FROM actions WHERE actor LIKE 'u%'"
                " GROUP BY table_id, actor, action"
            ):
                kind = json.loads(action)["type"] if action.startswith("{") else action
                limit = ASKS if kind == "ask" else 1
                if kind not in ("take_glass",) and n > limit:
                    report.duplicated_actions += n - limit
                    report.problems.append(f"table {table_id}: {actor} {kind} stored {n}×")
            salt = con.execute("SELECT value FROM meta WHERE key = 'nonce_salt'").fetchone()[0]
            sent = {f"{salt}{i}" for (i,) in con.execute(
                "SELECT id FROM outbox WHERE state = 'sent'")}
            owed = con.execute("SELECT COUNT(*) FROM outbox WHERE state = 'pending'").fetchone()[0]
        finally:
            con.close()
        by_nonce = Counter(str(m.nonce) for m in self.dc.messages
                           if m.author_id == self.dc.bot_user_id and m.nonce is not None)
        report.duplicated_messages = sum(n - 1 for n in by_nonce.values() if n > 1)
        unknown = [n for n in by_nonce if n not in sent]
        if unknown:
            report.problems.append(f"{len(unknown)} messages from no sent letter")
        if owed:
            report.problems.append(f"{owed} letters still owed at the end")


async def run_chaos(tmp: Path, *, games: int, kills: int, seed: int = 7,
                    limit: float = 120.0) -> Report:
    """Play `games` tables at once while the bot is killed `kills` times."""
    started = time.monotonic()
    async with running_standin(check=False) as dc:
        guild = dc.add_guild()
        channels = [guild.channel_id] + [dc.add_channel(guild.id, f"table-{i}")
                                         for i in range(1, games)]
        pairs = [(dc.add_user(f"Ann{i}", guild_id=guild.id),
                  dc.add_user(f"Bea{i}", guild_id=guild.id)) for i in range(games)]
        chaos = Chaos(dc, tmp / "chaos.sqlite3", random.Random(seed))
        await chaos.start()
        every = max(1.0, 2.0 * games / max(kills, 1))
        killer = asyncio.create_task(chaos.killer(kills, every))
        await asyncio.gather(*(chaos.game(i, a, b, c, limit)
                               for i, ((a, b), c) in enumerate(zip(pairs, channels, strict=True))))
        await killer
        await chaos.up.wait()
        end = time.monotonic() + 20
        while time.monotonic() < end:  # the last process delivers what is still owed
            con = sqlite3.connect(chaos.db)
            owed = con.execute("SELECT COUNT(*) FROM outbox WHERE state = 'pending'").fetchone()
            con.close()
            if not owed[0]:
                break
            await asyncio.sleep(0.1)
        with contextlib.suppress(StandInError):
            await dc.settle(timeout=10)
        chaos.judge(games)
        assert chaos.proc is not None
        await chaos.proc.stop(10)
    chaos.report.seconds = time.monotonic() - started
    return chaos.report
