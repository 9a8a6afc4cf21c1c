"""One playthrough of a game through the real bot, its SQLite outbox and the Discord stand-in,
recorded for the conformance checks (tests/games/test_conformance.py).

Members open, join and start the table with the generic slash commands; then each step a
member the game waits on plays a random legal move (the game's own AI at its first level,
with a random generator) through `TableService.act`, so every change goes through the shell
that clicks go through and is delivered to the stand-in. Around the steps the driver tries
what must be refused (a move by a seat no longer to act, a move against an older version,
clicks on buttons of an older table message) and restarts the bot once in the middle.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import pickle
import random
import sqlite3
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pydantic import BaseModel

from bot.errors import UserError
from bot.models import Letter, SeatRef
from bot.plug import AnyGame
from bot.registry import GAMES
from testkit.standin import Message, running_standin
from testkit.standin.globallimit import DISCORD_GLOBAL_LIMIT
from testkit.standin.limits import check_message
from testkit.world import World
from tests.games.games import Spec

MAX_STEPS = 1500


@dataclass
class Step:
    """One stored move: the waiting situation around it and what was stored."""

    seat: int
    waiting_before: list[int]
    waiting_after: list[int]
    key_before: str
    key_after: str
    stored: str
    """The state as the database holds it after the move."""
    round_trips: bool
    """The state loads and dumps back to the same JSON, equal to the one the shell applied,
    and the move does too."""


@dataclass
class Refusal:
    """Something that had to be refused: what the member was told, and whether it changed
    anything in the database."""

    kind: str
    text: str
    ephemeral: bool
    changed: bool


@dataclass
class Playthrough:
    key: str
    steps: list[Step] = field(default_factory=list)
    over: bool = False
    status: str = ""
    letters: int = 0
    leaks: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    too_big: list[str] = field(default_factory=list)
    """Stored letters that break one of Discord's limits."""
    violations: list[str] = field(default_factory=list)
    """What the stand-in refused as Discord would."""
    errors: list[str] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    restarted_at: int | None = None
    after_restart: str = ""
    """A member's `hand` and a button posted before the restart, answered by the restarted
    bot ("" if either went unanswered or changed the game)."""


def snapshot(db: Path) -> tuple[object, ...]:
    """Everything a refusal must leave unchanged: tables, the action log, timers."""
    con = sqlite3.connect(db, timeout=5)
    try:
        tables = con.execute("SELECT id, status, version, state, seats, options FROM tables"
                             " ORDER BY id").fetchall()
        actions = con.execute("SELECT COUNT(*) FROM actions").fetchone()
        timers = con.execute("SELECT COUNT(*) FROM timers").fetchone()
        return tuple(tables), actions, timers
    finally:
        con.close()


def table_row(db: Path) -> sqlite3.Row:
    con = sqlite3.connect(db, timeout=5)
    con.row_factory = sqlite3.Row
    try:
        row: sqlite3.Row = con.execute("SELECT * FROM tables ORDER BY id DESC LIMIT 1").fetchone()
        return row
    finally:
        con.close()


def limit_problems(letter: Letter) -> list[str]:
    payload = letter.body.payload()
    problems = check_message(payload, creating=letter.op == "send",
                             interaction=letter.kind == "i",
                             has_files=bool(letter.body.pictures))
    return [f"{letter.to} {where}: {what}" for where, what in problems]


def buttons(msg: Message) -> list[str]:
    return [str(c["custom_id"]) for c in msg.iter_components()
            if c.get("type") == 2 and "custom_id" in c and not c.get("disabled")]


class Driver:
    """Plays one table of `spec.game`; `run` returns what it saw."""

    def __init__(self, spec: Spec, world: World, seed: int) -> None:
        self.spec, self.world, self.game = spec, world, spec.game
        self.rng = random.Random(seed)
        self.seen = Playthrough(spec.game.key)
        self.hook = spec.secrecy(world.db)
        self.members = world.users[:spec.players]
        self.games: tuple[AnyGame, ...] = (*GAMES, *(() if spec.registered else (spec.game,)))
        self.table_id = 0
        self.offered: dict[str, tuple[int, Message]] = {}
        """The buttons the table's messages carried a few steps back (for stale clicks)."""
        self.panels: list[tuple[int, Message]] = []
        """What the member to act opened from the table message a few steps back."""

    # -- what is stored ---------------------------------------------------------------------

    def state_raw(self) -> str:
        return str(table_row(self.world.db)["state"])

    def seats(self) -> list[SeatRef]:
        return [SeatRef.model_validate(s) for s in json.loads(table_row(self.world.db)["seats"])]

    def member_at(self, seat: int) -> int:
        user_id = self.seats()[seat].user_id
        assert user_id is not None, "every seat of a conformance table is a member's"
        return user_id

    def checked_since(self, mark: int, state: object, events: list[object]) -> None:
        """The letters stored since `mark`: the game's secrecy hook reads them for their
        readers, and each must fit Discord's limits."""
        for letter in self.hook.stored_since(mark):
            self.seen.letters += 1
            self.seen.too_big += limit_problems(letter)
        self.hook.check(state, events, mark)

    # -- the table --------------------------------------------------------------------------

    async def open(self) -> None:
        dc, command, host = self.world.dc, self.game.command, self.members[0]
        opened = await dc.slash(host, self.world.channel, command, "new")
        assert "Table open" in opened.text, opened.text
        for member in self.members[1:]:
            joined = await dc.slash(member, self.world.channel, command, "join")
            assert "seat" in joined.text, joined.text
        self.table_id = int(table_row(self.world.db)["id"])
        mark = self.hook.watermark()
        await dc.slash(host, self.world.channel, command, "start")
        state = self.game.load(self.state_raw())
        self.checked_since(mark, state, self.hook.last_events(self.table_id))

    async def step(self) -> bool:
        """One random legal move by a member the game waits on; False once the game is over."""
        game, rng, bot = self.game, self.rng, self.world.bot
        assert bot is not None
        raw = self.state_raw()
        state = game.load(raw)
        if game.is_over(state):
            return False
        waiting = game.waiting_on(state)
        seat = rng.choice(waiting)
        level, seed = game.ai_levels[0], rng.random()
        made: list[object] = []

        def build(now: BaseModel, acting: int) -> object:
            made.append(game.ai_action(now, acting, level, random.Random(seed)))
            return made[-1]

        mark = self.hook.watermark()
        applied = await bot.tables.act(self.table_id, self.member_at(seat), build)
        stored = self.state_raw()
        action = made[-1]
        again = game.load(stored)
        round_trips = (game.dump(again) == stored and again == applied.state
                       and game.load_action(game.dump_action(action)) == action)
        self.seen.steps.append(Step(seat, waiting, game.waiting_on(again), game.turn_key(state),
                                    game.turn_key(again), stored, round_trips))
        self.checked_since(mark, applied.state, applied.events)
        if not game.is_over(again):
            await self.refuse_illegal(seat, action, again, applied.table.version)
        return True

    async def refuse_illegal(self, seat: int, action: object, state: BaseModel,
                             version: int) -> None:
        """The move just made, made again by a seat no longer waited on, is refused; so is
        a move against the version before."""
        bot = self.world.bot
        assert bot is not None
        if seat not in self.game.waiting_on(state):
            await self.refused("illegal", bot.tables.act(
                self.table_id, self.member_at(seat), lambda now, acting: action))
        if len(self.seen.steps) % 5 == 1:
            waiting = self.game.waiting_on(state)[0]
            level, game = self.game.ai_levels[0], self.game
            await self.refused("stale", bot.tables.act(
                self.table_id, self.member_at(waiting),
                lambda now, acting: game.ai_action(now, acting, level, random.Random(0)),
                version=version - 1))

    async def refused(self, kind: str, attempt: Awaitable[object]) -> None:
        before = snapshot(self.world.db)
        try:
            await attempt
        except UserError as exc:
            self.seen.refusals.append(Refusal(kind, str(exc), True,
                                              snapshot(self.world.db) != before))
        else:
            self.seen.refusals.append(Refusal(kind, "", False, True))

    # -- clicks through the stand-in ---------------------------------------------------------

    def living_message(self) -> Message | None:
        prefix = f"{self.game.prefix}:"
        for msg in reversed(self.world.dc.channel_messages(self.world.channel)):
            if any(c.startswith(prefix) for c in msg.custom_ids):
                return msg
        return None

    def controls(self) -> dict[str, tuple[int, Message]]:
        """The buttons on the table's messages now, channel and members' DMs: custom_id →
        (who may click it: the DM's owner, or the first member to act; its message)."""
        dc = self.world.dc
        state = self.game.load(self.state_raw())
        first = self.member_at(self.game.waiting_on(state)[0])
        found: dict[str, tuple[int, Message]] = {}
        for user, messages in [(first, dc.channel_messages(self.world.channel)),
                               *((u.id, dc.dms(u)) for u in self.members)]:
            for msg in messages:
                found.update({c: (user, msg) for c in buttons(msg)})
        return found

    async def stale_clicks(self) -> None:
        """Buttons from a few steps back, clicked again: those no message carries any more,
        and those of the panels the member to act opened then (a turn panel, a picker).
        Each is refused and changes nothing."""
        dc = self.world.dc
        await dc.settle()
        state = self.game.load(self.state_raw())
        if self.game.is_over(state):
            return
        now = self.controls()
        gone = [(c, user, msg) for c, (user, msg) in self.offered.items() if c not in now]
        opened = [(c, user, msg) for user, msg in self.panels for c in buttons(msg)]
        for custom_id, user, msg in gone[:4] + opened[:4]:
            before = snapshot(self.world.db)
            result = await dc.forge(user, msg, {"custom_id": custom_id, "component_type": 2})
            self.seen.refusals.append(Refusal(
                "stale click", result.text, result.ephemeral, snapshot(self.world.db) != before))
        self.offered, self.panels = now, []
        living, user = self.living_message(), self.member_at(self.game.waiting_on(state)[0])
        version = str(table_row(self.world.db)["version"])
        for custom_id in buttons(living) if living is not None else []:
            if version in custom_id.split(":"):
                continue  # a button carrying the version may act at once: not a panel
            answer = await dc.click(user, living, custom_id)  # type: ignore[arg-type]
            if answer.ephemeral and answer.message is not None:
                self.panels.append((user, answer.message))

    async def after_restart(self, state: BaseModel) -> None:
        """The restarted bot answers a member's `hand`, and a button of the table message
        posted before the restart (one that does not act at once: no version in it)."""
        dc, world = self.world.dc, self.world
        member = self.member_at(self.game.waiting_on(state)[0])
        answer = await dc.slash(member, world.channel, self.game.command, "hand")
        living = self.living_message()
        assert living is not None, "no table message with buttons"
        version = str(table_row(world.db)["version"])
        posted = next(c for c in buttons(living) if version not in c.split(":"))
        before = snapshot(world.db)
        clicked = await dc.click(member, living, posted)
        answered = answer.ephemeral and clicked.ephemeral and snapshot(world.db) == before
        self.seen.after_restart = f"{answer.text}\n{clicked.text}" if answered else ""

    # -- the whole game ----------------------------------------------------------------------

    async def run(self, restart_after: int) -> Playthrough:
        world = self.world
        async with world.running(games=self.games):
            await self.open()
            await self.stale_clicks()
            for count in range(MAX_STEPS):
                if count == restart_after or not await self.step():
                    break
                if count % 4 == 0:
                    await self.stale_clicks()
            await world.dc.settle()
        self.seen.restarted_at = len(self.seen.steps)
        async with world.running(games=self.games):
            state = self.game.load(self.state_raw())
            if not self.game.is_over(state):
                await self.after_restart(state)
            for count in range(MAX_STEPS):
                if not await self.step():
                    break
                if count % 4 == 0:
                    await self.stale_clicks()
            await world.dc.settle()
        final = self.game.load(self.state_raw())
        self.seen.over = self.game.is_over(final)
        self.seen.status = str(table_row(world.db)["status"])
        self.seen.leaks, self.seen.missing = self.hook.audit.leaks, self.hook.audit.missing
        self.seen.violations = world.dc.take_violations()
        self.seen.errors = world.unexpected_errors()
        self.hook.close()
        return self.seen


async def _play(spec: Spec, directory: Path, seed: int) -> Playthrough:
    async with running_standin(check=False, global_rate_limit=DISCORD_GLOBAL_LIMIT) as dc:
        world = World(dc, directory / "bot.sqlite3")
        return await Driver(spec, world, seed).run(spec.restart_after)


def playthrough(spec: Spec, temp: pytest.TempPathFactory, seed: int = 0) -> Playthrough:
    """The game played once per test run: the first check to ask plays it, under a lock
    its test processes share, and the others read it back."""
    base = temp.getbasetemp()
    shared = base.parent if base.name.startswith("popen-gw") else base
    kept = shared / f"conformance-{spec.game.key}.pickle"
    with (shared / f"conformance-{spec.game.key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not kept.exists():
            directory = temp.mktemp(f"conformance-{spec.game.key}")
            kept.write_bytes(pickle.dumps(asyncio.run(_play(spec, directory, seed))))
        played: Playthrough = pickle.loads(kept.read_bytes())
        return played
