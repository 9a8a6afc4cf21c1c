"""Kill the bot at every effect between receiving an action and the end of its delivery, for
each kind of action, restart it, and check what a member would:

- the action was applied once or not at all, and the member was told which (a stored change
  answers its interaction after the restart; one that was not stored never claims success,
  and trying again works);
- every message owed was delivered exactly once per recipient: the final messages of every
  channel and DM are exactly those of the same game played without a crash;
- the timers are armed: the game plays on to the end.

Each run starts from a stored position prepared with the engine (fast and deterministic), so
a run costs a bot start, the action, a restart and the end of the game.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import pickle
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.client import DeductionBot
from bot.config import Config
from bot.models import SeatRef, Table, player_id
from bot.storage import Change, SqliteStorage
from bot.storage.rows import table_from_row as stored_table
from engine.thirteen_clues import GameState, Options, PlayerRef, apply, legal, new_game
from engine.thirteen_clues import actions as act
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.state import Side
from testkit.standin import DiscordStandIn, InteractionResult, User, running_standin
from testkit.world import delivering
from tests.crash.kill import Crasher, bury, installed

SEED = 20261123
AI_DELAY = 0.15
CLOCK_DELAY = 0.5
"""Where a timer is the action, it must not fire before the crasher is armed."""
MINUTE = 1.6
"""A turn-timer minute here: the idle timer fires 1.6 s after its turn began (members in the
rest of the game act well before their reminder, so it plays the same in every run)."""


# positions, prepared with the engine ----------------------------------------------------------


def first_of_each(cards: list[str]) -> list[str]:
    return [next(c for c in cards if CARDS[c].category == cat) for cat in Category]


def dealt(seats: list[SeatRef], **options: Any) -> GameState:
    players = [PlayerRef(id=s.player_id, name=s.name) for s in seats]
    state, _ = new_game(players, Options(players=len(seats), **options), SEED)
    return state


def passed(state: GameState, *seats: int) -> GameState:
    for seat in seats:
        person, location, weapon = first_of_each(state.seats[seat].dealt)
        state, _ = apply(state, act.ChoosePass(seat=seat, person=person, location=location,
                                               weapon=weapon))
    return state


def until_turn_of(state: GameState, seat: int) -> GameState:
    """Everyone else asks their left neighbour about red until it is `seat`'s turn."""
    while state.turn != seat:
        me = state.turn
        side: Side | None = "left" if state.players == 2 else None
        state, _ = apply(state, act.Ask(seat=me, witness=(me + 1) % state.players, subject="red",
                                        side=side))
    return state


def drained(state: GameState) -> GameState:
    """Three players, 2020: glasses piled up so that the supply empties and the next player
    holds none (5 turns start with no glass, each taking one from the supply)."""
    while not legal.must_take(state):
        me, n = state.turn, state.players
        nxt, other = (me + 1) % n, (me + 2) % n
        # give everything to the player after next, so the next one starts with none
        target = other if state.seats[nxt].glasses == 0 else nxt
        state, _ = apply(state, act.Ask(seat=me, witness=target, subject="red"))
    return state


@dataclass
class Position:
    seats: list[SeatRef]
    state: GameState | None
    turn_minutes: int = 0

    def table(self, world: Any) -> Table:
        return Table(
            guild_id=world.guild.id, channel_id=world.channel, game="13clues",
            status="lobby" if self.state is None else "playing", host_id=self.seats[0].user_id
            or 0, options={"turn_minutes": self.turn_minutes},
            seats=self.seats if self.state is None else [
                next(s for s in self.seats if s.player_id == p.id) for p in self.state.seats],
            state=None if self.state is None else self.state.model_dump_json(),
        )


# the world of one run -----------------------------------------------------------------------


@dataclass
class Run:
    dc: DiscordStandIn
    db: Path
    crasher: Crasher
    users: dict[str, User]
    guild: Any = None
    channel: int = 0
    bot: DeductionBot | None = None
    task: asyncio.Task[None] | None = None
    interactions: list[InteractionResult] = field(default_factory=list)
    ai_delay: float = AI_DELAY

    async def start(self) -> None:
        config = Config(token="standin-token", database_path=self.db, ai_delay=self.ai_delay,
                        minute_seconds=MINUTE, lease_ttl=5.0, lease_wait=5.0)
        self.bot = DeductionBot(config)
        self.bot._connection.guild_ready_timeout = 0.05
        bot = self.bot
        self.dc.busy_checks[:] = [lambda: delivering(bot)]  # letters paced or being drawn
        before = self.dc.identify_count
        self.task = asyncio.create_task(self.bot.start("standin-token"))
        await self.dc.wait_ready(10, after=before, task=self.task)
        await asyncio.wait_for(self.bot.wait_until_ready(), 10)

    async def kill_and_restart(self) -> None:
        assert self.bot is not None and self.task is not None
        await bury(self.bot, self.crasher)
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        await self.dc.wait_disconnected()
        await self.start()

    async def stop(self) -> None:
        if self.bot is not None and self.task is not None:
            await self.bot.close()
            await asyncio.wait_for(asyncio.gather(self.task, return_exceptions=True), 10)

    def state(self) -> Table:
        import sqlite3

        con = sqlite3.connect(self.db)
        con.row_factory = sqlite3.Row
        try:
            row = con.execute("SELECT * FROM tables ORDER BY id DESC LIMIT 1").fetchone()
            timers = con.execute("SELECT kind, payload FROM timers").fetchall()
            pending = con.execute(
                "SELECT COUNT(*) FROM outbox WHERE state = 'pending'").fetchone()[0]
        finally:
            con.close()
        self.timers = sorted((t["kind"], json.loads(t["payload"])["seat"]) for t in timers)
        self.pending = pending
        return stored_table(row)

    async def slash(self, user: str, command: str, *, wait: bool = True, **options: Any
                    ) -> InteractionResult:
        # 15 s at most: an answer waits for the bot's turn on a loaded machine
        rec = await self.dc.slash(self.users[user], self.channel, "13clues", command,
                                  wait=wait, timeout=15.0, **options)
        self.interactions.append(rec)
        return rec

    def fingerprint(self) -> dict[str, list[str]]:
        """What each recipient finally sees: every channel and DM message, in order (turn
        deadlines aside: they are set by the clock, and a restart takes time)."""
        seen: dict[str, list[str]] = {}
        answers = self.dc.answers()
        for msg in self.dc.messages:
            if msg.ephemeral or msg.author_id != self.dc.bot_user_id or msg.id in answers:
                continue
            where = f"dm:{msg.dm_recipient_id}" if msg.is_dm else f"channel:{msg.channel_id}"
            shown = json.dumps([msg.content, msg.embeds, msg.components], sort_keys=True)
            shown = re.sub(r"<t:\d+:R>", "<t:deadline:R>", shown)  # a restart takes time
            seen.setdefault(where, []).append(shown)
        return seen


@dataclass
class Kind:
    """One kind of action: its starting position and how a member (or the clock) does it."""

    name: str
    position: Callable[[], Position]
    act: Callable[[Run], Awaitable[InteractionResult | None]]
    done: str | None
    """What the member is told when it was applied (None: nobody is asked, a timer acts)."""
    ai_delay: float = AI_DELAY


AI = SeatRef(name="Holmes (AI)", ai_level="normal")


def seats(run_users: dict[str, User], *names: str, ai: bool = True) -> list[SeatRef]:
    out = [SeatRef(name=n, user_id=run_users[n].id) for n in names]
    return [*out, AI] if ai else out


def kinds(users: dict[str, User]) -> list[Kind]:
    """The kinds of action; `users` gives the members' ids (the stand-in's, fixed per run)."""
    two = seats(users, "Ann", "Bea")
    three = seats(users, "Ann", "Bea", "Cid", ai=False)

    def at_turn(name: str, table_seats: list[SeatRef]) -> GameState:
        state = passed(dealt(table_seats), *range(len(table_seats)))
        who = next(i for i, s in enumerate(state.seats) if s.id == player_id(users[name].id))
        return until_turn_of(state, who)

    def ai_to_move() -> Position:
        state = passed(dealt(two), 0, 1, 2)
        ai = next(i for i, s in enumerate(state.seats) if s.id.startswith("ai:"))
        return Position(two, until_turn_of(state, ai))

    def idle_ann() -> Position:
        duo = seats(users, "Ann")
        return Position(duo, at_turn("Ann", duo), turn_minutes=1)

    def passing() -> Position:
        state = dealt(two)
        others = [i for i, s in enumerate(state.seats) if s.id != player_id(users["Ann"].id)]
        return Position(two, passed(state, *others))

    def take_position() -> Position:
        state = drained(passed(dealt(three), 0, 1, 2))
        return Position(three, state)

    async def join(run: Run) -> InteractionResult:
        return await run.slash("Bea", "join", wait=False)

    async def start(run: Run) -> InteractionResult:
        return await run.slash("Ann", "start", wait=False)

    async def pass_(run: Run) -> InteractionResult:
        state = current(run)
        me = next(i for i, s in enumerate(state.seats) if s.id == player_id(users["Ann"].id))
        person, location, weapon = first_of_each(state.seats[me].dealt)
        return await run.slash("Ann", "pass", person=person, location=location, weapon=weapon,
                               wait=False)

    async def ask(run: Run) -> InteractionResult:
        return await run.slash("Ann", "ask", witness=users["Bea"], about="blue", wait=False)

    async def informant(run: Run) -> InteractionResult:
        return await run.slash("Ann", "informant", card="A", wait=False)

    async def accuse(run: Run) -> InteractionResult:
        state = current(run)
        me = state.turn
        wrong = [next(c for c in legal.accusable_cards(state, me)[cat]
                      if c not in state.seats[me].holder) for cat in Category]
        return await run.slash("Ann", "accuse", person=wrong[0], location=wrong[1],
                               weapon=wrong[2], wait=False)

    async def take(run: Run) -> InteractionResult:
        state = current(run)
        name = next(n for n in ("Ann", "Bea", "Cid")
                    if state.seats[state.turn].id == player_id(users[n].id))
        source = next(i for i, s in enumerate(state.seats) if s.glasses)
        giver = next(u for u in users.values() if player_id(u.id) == state.seats[source].id)
        rec = await run.dc.slash(users[name], run.channel, "13clues", "take", player=giver,
                                 wait=False)
        run.interactions.append(rec)
        return rec

    async def clock(run: Run) -> None:
        """Nobody acts: the AI's or the idle timer's move is the action."""
        await wait_for(lambda: run.crasher.dead or run.state().version > 0, 5,
                       "the timer to act")
        return None

    return [
        Kind("join", lambda: Position([SeatRef(name="Ann", user_id=users["Ann"].id), AI],
                                      None), join, "You have a seat"),
        Kind("start", lambda: Position(two, None), start, "Cards dealt"),
        Kind("pass", passing, pass_, "You pass"),
        Kind("ask", lambda: Position(two, at_turn("Ann", two)), ask, "Asked"),
        Kind("informant", lambda: Position(two, at_turn("Ann", two)), informant,
             "Informant **A** is"),
        Kind("accuse", lambda: Position(two, at_turn("Ann", two)), accuse, "Accusation made"),
        Kind("take", take_position, take, "You took a magnifying glass"),
        Kind("ai", ai_to_move, clock, None, CLOCK_DELAY),
        Kind("timer", idle_ann, clock, None, CLOCK_DELAY),
    ]


def current(run: Run) -> GameState:
    table = run.state()
    assert table.state is not None
    return GameState.model_validate_json(table.state)


# one run -----------------------------------------------------------------------------------

NAMES = ("Ann", "Bea", "Cid")


@dataclass
class Outcome:
    effects: list[str]
    fingerprint: dict[str, list[str]]
    timers: list[tuple[str, int]]
    killed_at: str


async def play(tmp: Path, monkeypatch: pytest.MonkeyPatch, kind_name: str,
               after: int | None) -> Outcome:
    """One run: the position, the action with a kill after `after` effects (None: no kill),
    a restart, then the game to its end. Returns what it saw."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)  # every run deals alike
    with installed(monkeypatch) as crasher:
        async with running_standin() as dc:
            guild = dc.add_guild()
            users = {n: dc.add_user(n, guild_id=guild.id) for n in NAMES}
            kind = next(k for k in kinds(users) if k.name == kind_name)
            db = tmp / f"{kind_name}-{after}.sqlite3"
            run = Run(dc, db, crasher, users, guild, guild.channel_id, ai_delay=kind.ai_delay)
            position = kind.position()
            storage = SqliteStorage(db)
            await storage.open()
            await storage.create_table(position.table(run), lambda t: Change(t))
            await storage.close()
            version = 0

            try:
                await run.start()
                crasher.arm(after)
                rec = await kind.act(run)
                await settle_or_die(run)
                killed = crasher.dead
                crasher.disarm()
                effects = list(crasher.effects)
                if killed or after is not None:
                    # a kill after every effect of the window is a kill all the same
                    await run.kill_and_restart()
                applied = run.state().version > version
                abandoned: list[int] = []
                if rec is not None:
                    await check_told(run, rec, kind, applied)
                    abandoned += [] if applied else [rec.id]
                await dc.settle()
                if rec is not None and not applied:
                    rec = await kind.act(run)  # the member tries again
                    assert rec is not None
                    await dc.complete(rec)
                    await dc.settle()
                    assert kind.done is not None and kind.done in rec.text, rec.text
                elif rec is None and not applied:
                    await wait_for(lambda: run.state().version > version, 5,
                                   "the timer to act after the restart")
                    await dc.settle()
                table = run.state()
                assert table.version > version
                assert run.pending == 0, "a letter is still owed after the bot settled"
                timers = armed(run, table)
                await finish(run)
                for violation in dc.take_violations(""):
                    # only an interaction the crash left unanswered may be reported
                    assert any(str(i) in violation for i in abandoned), violation
            finally:
                await run.stop()
            return Outcome(effects, run.fingerprint(), timers, crasher.killed_at)


def armed(run: Run, table: Table) -> list[tuple[str, int]]:
    """The stored timers, checked against what the stored game needs: a move timer for each
    AI it waits on, a reminder or idle timer for each member (with a turn timer), no other."""
    timers = list(run.timers)
    if table.status != "playing" or table.state is None:
        assert timers == [], timers
        return timers
    state = GameState.model_validate_json(table.state)
    for seat in legal.waiting_on(state):
        if table.seats[seat].is_ai:
            assert ("ai", seat) in timers, (seat, timers)
        elif table.options.get("turn_minutes"):
            assert {("remind", seat), ("idle", seat)} & set(timers), (seat, timers)
    stale = [t for t in timers if t[1] not in legal.waiting_on(state)]
    assert not stale, f"stale timers {stale}"
    return timers


async def settle_or_die(run: Run) -> None:
    """Wait until the action's effects are over, or the bot died."""
    end = time.monotonic() + 10
    while not run.crasher.dead and time.monotonic() < end:
        try:
            await run.dc.settle(timeout=0.2)  # short tries: a death is seen soon
            return
        except AssertionError:
            continue


async def check_told(run: Run, rec: InteractionResult, kind: Kind, applied: bool) -> None:
    """Applied: the member's interaction shows the success (answered after the restart if
    need be). Not applied: it never claims success."""
    done = kind.done
    assert done is not None
    if applied:
        # 15 s: after a restart the answer waits for the restarted bot and for the news of
        # its change (REPLY_WAIT); on a busy 2-core CI machine 5 s was once not enough
        await wait_for(lambda: done in rec.text, 15,
                       f"the stored answer {done!r} to reach the member")
    else:
        assert done not in rec.text, rec.text
        rec.done.set()  # the member gives up on it and tries again
        run.dc.expire(rec)  # it died with the bot: no need to wait out its 3 s


async def finish(run: Run) -> None:
    """Play on to the end: members pass, take a glass when they must, and accuse right."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        table = run.state()
        if table.status == "over":
            return
        if table.status == "lobby":
            await run.slash("Ann", "start")
            continue
        state = GameState.model_validate_json(table.state or "")
        waiting = legal.waiting_on(state)
        humans = [s for s in waiting if state.seats[s].id.startswith("u")]
        if not humans or len(humans) < len(waiting):  # AIs first: every run alike
            await asyncio.sleep(0.05)
            continue
        seat = humans[0]
        name = next(n for n, u in run.users.items() if player_id(u.id) == state.seats[seat].id)
        if state.phase == "passing":
            p, loc, w = first_of_each(state.seats[seat].dealt)
            await run.slash(name, "pass", person=p, location=loc, weapon=w)
        elif legal.must_take(state):
            source = next(i for i, s in enumerate(state.seats) if s.glasses)
            giver = next(u for u in run.users.values()
                         if player_id(u.id) == state.seats[source].id)
            await run.slash(name, "take", player=giver)
        else:
            p, loc, w = state.seats[seat].holder
            await run.slash(name, "accuse", person=p, location=loc, weapon=w)
        await run.dc.settle()
    raise AssertionError("the game did not end")


async def wait_for(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


# the tests ----------------------------------------------------------------------------------

KINDS = ("join", "start", "pass", "ask", "informant", "accuse", "take", "ai", "timer")
CHUNKS = {"join": 2, "start": 5, "pass": 4, "ask": 2, "informant": 3, "accuse": 3, "take": 2,
          "ai": 1, "timer": 3}
"""How many test items share each kind's kill points: item `chunk` kills after k effects for
every k = chunk, chunk + n, chunk + 2n, ... up to every effect (n the kind's number here), so
the test processes share one kind's runs. Each number stays below the kind's count of
effects (a chunk with no kill point fails)."""


async def reference(kind: str, tmp: Path, monkeypatch: pytest.MonkeyPatch,
                    temp: pytest.TempPathFactory) -> Outcome:
    """The kind played without a kill, once per test run: the first item to ask plays it,
    under a lock its test processes share, and the others read it back."""
    base = temp.getbasetemp()
    shared = base.parent if base.name.startswith("popen-gw") else base
    kept = shared / f"crash-reference-{kind}.pickle"
    with (shared / f"crash-reference-{kind}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait: there is nothing to do meanwhile
        if not kept.exists():
            kept.write_bytes(pickle.dumps(await play(tmp, monkeypatch, kind, None)))
        played: Outcome = pickle.loads(kept.read_bytes())
        return played


@pytest.mark.parametrize(("kind", "chunk"),
                         [(kind, chunk) for kind in KINDS for chunk in range(CHUNKS[kind])])
async def test_a_kill_at_every_effect_loses_and_repeats_nothing(
    kind: str, chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory
) -> None:
    played = await reference(kind, tmp_path, monkeypatch, tmp_path_factory)
    assert played.effects, "the action had no effect to kill at"
    kills = range(chunk, len(played.effects) + 1, CHUNKS[kind])
    assert kills, f"{kind} has {len(played.effects)} effects: lower CHUNKS[{kind!r}]"
    for after in kills:
        crashed = await play(tmp_path, monkeypatch, kind, after)
        where = (f"{kind}: killed after {after} of {len(played.effects)} effects "
                 f"({crashed.killed_at or 'at the end'})")
        if crashed.fingerprint != played.fingerprint:
            diff = difference(played.fingerprint, crashed.fingerprint)
            raise AssertionError(f"{where}: {diff}")


def difference(want: dict[str, list[str]], got: dict[str, list[str]]) -> str:
    """The first recipient whose messages differ, briefly (pytest's own diff of these is
    too slow to wait for)."""
    for where in sorted(set(want) | set(got)):
        a, b = want.get(where, []), got.get(where, [])
        if a != b:
            extra = [m for m in b if m not in a]
            missing = [m for m in a if m not in b]
            if extra and missing:  # show where the first pair parts
                cut = next((i for i, (x, y) in enumerate(zip(missing[0], extra[0], strict=False))
                            if x != y), 0)
                extra, missing = [extra[0][cut - 60:cut + 140]], [missing[0][cut - 60:cut + 140]]
            extra, missing = [m[:200] for m in extra], [m[:200] for m in missing]
            return (f"{where}: {len(a)} messages expected, {len(b)} seen; "
                    f"missing {missing[:2]}; unexpected {extra[:2]}")
    return "no difference"
