"""Many tables at once, 13 Clues and Mansion: the bot in its own process, driven through the
stand-in.

    python -m bench.load [--tables 10 50 200] [--seconds 40] [--ai-delay 1.5]
                         [--pace busy|table] [--think LOW HIGH] [--ramp SECONDS]
                         [--games 13clues mansion] [--profile DIR] [--no-side]
                         [--harness-nice N]

For each N a fresh bot process (the project's own entry point, `python -m bot`, via
`testkit.standin.botproc`) on a fresh SQLite file plays N tables spread over N/4 guilds, one
channel each, the games in turn (half 13 Clues, half Mansion by default), each guild hosting
every game. Every table has 2–3 members driven from this process and 1–3 AI seats; a
finished game is followed by a new one at once. 13 Clues members: lobby by commands and
buttons, the pass by the DM select, turns by the Ask picker, the slash commands and the glass
picker. Mansion members (3–5 seats, some
One Against All): their turns through the My turn panel (action card, its selects, go, end
turn), their answers (show a card, pick a face-down card, answer a tip, choose the solution)
through `/mansion hand`, the move itself chosen by the engine's `normal` AI in this process.
Lookers-on ask for `status`, `hand`, `casebook`/`notes`, `log` now and then. The stand-in and
the driver share this process, so the bot's CPU (read from /proc/<pid>/stat) is its own; while
it measures, this process yields the cores to the bot (`--harness-nice`, `HARNESS_NICE`).
Loopback only, and every loop ends with `--seconds`.

Two paces (`--pace`): `busy` (the default, and the only one before issue 21), every member
acting 1–3 s after the last change and every table opened within the first 5 s: a stress
test, some five times a real table's pace, and a cold start of every table at once; `table`,
a member taking 6–14 s to read the table and act (a 13 Clues turn, its picker's two or three
steps, every 20–30 s; a turn every 20 s is what the REST budget counts with) and the tables
opened over the first quarter of the run (at most 30 s). `--think` overrides the pace's
reading time, `--ramp` the seconds over which the tables open.

Printed for each N: interactions per second; INTERACTION_CREATE → the bot's first callback
(median, p99, max; the stand-in's clock), overall and per game; a member's action → the last
DM it caused (p99, matched through the stored outbox: the reply and the DMs of one change
share its commit); any stored change → its last DM (p99); a member's action → their own
last DM (p99; and apart, those that waited for the member's DM channel to open, as every
new member's first DM does, and the others); any change → the table message showing it
(p99, and how many were more than 5 s behind); the bot's CPU per applied action; its
resident memory per active table; the interactions past Discord's 3 s or never answered; and
the requests under Discord's global limit, which the stand-in enforces (50 a second per
token):
`REST under the global limit: X/s (peak Y/s), Z per turn, 429s: W`, with what they were (DM
channels opened, posts and edits in the tables' channels and in DMs); and issue 21's targets,
each said met or NOT met. Then the same for the part of the run after the ramp (steady play:
every table open, the changes stored from then on; the ramp's requests still waiting are
counted there, not dropped): a cold start of every table within seconds, each costing its
lobby, a DM channel per new member and its deal, is one no running bot meets, so the whole
run and steady play are both printed, labelled.

Then, side by side in this run (see `bench/side.py`): persisting one action against a raw
upsert, a 6-player DM fan-out with 50 ms REST latency against one-by-one sends, and start-up
with 10,000 stored games against an empty database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import resource
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bench import probe
from bot.mansion.game import GAME as MANSION
from bot.workers import STARTED_ON
from engine.mansion import GameState as MansionState
from engine.thirteen_clues import GameState, legal
from engine.thirteen_clues.cards import CARDS, Category, suits_in_play
from testkit.mansion_drive import Driver as MansionDriver
from testkit.mansion_drive import find
from testkit.standin import DiscordStandIn, InteractionResult, Message, User, running_standin
from testkit.standin.globallimit import DISCORD_GLOBAL_LIMIT, Call

CLOCK_TICK = os.sysconf("SC_CLK_TCK")
TABLE_BEHIND = 5.0
"""Issue 21: every table message at most this many seconds behind its game."""
PACES: dict[str, tuple[tuple[float, float], float]] = {
    "busy": ((1.0, 3.0), 5.0),
    "table": ((6.0, 14.0), 30.0),
}
"""By pace: the seconds a member takes before each move (uniform), and the most seconds over
which the tables are opened (at most a quarter of the run)."""
ANSWER_TIMEOUT = 10.0
"""How long the driver waits for an answer before it counts the interaction as unanswered."""


# --- the bot process ------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def helpers_cpu_seconds(pid: int) -> float:
    """User + system CPU of the process's living children (its AI and drawing helpers)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICK
    return total


def loop_waited_seconds(pids: Sequence[int]) -> float | None:
    """Seconds the processes' main threads (the bots' event loops) were ready to run but
    waited for a core, summed (/proc/<pid>/task/<pid>/schedstat): how much of the first
    callback's delay is a loop starved rather than busy. None where the kernel keeps no
    such statistics (the file is missing, or its run time reads 0)."""
    total = 0.0
    for pid in pids:
        try:
            run, waited, _ = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
        except (OSError, ValueError):
            return None
        if int(run) == 0:
            return None
        total += int(waited) / 1e9
    return total


def seconds_or_na(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}s"


HARNESS_NICE = 10
"""The niceness this process (the stand-in and the members it plays) takes while it measures:
it stands in for Discord's servers and the members' machines, which never share the bot's
cores. Competing as an equal, it took 0.4 of this machine's two cores and the bot's event
loop waited for a core 12 s in a 45 s run at 200 tables (8 s once it yielded)."""


STARTED_NICE = os.getpriority(os.PRIO_PROCESS, 0)
"""This process's niceness as it started: every measuring window yields from it, so a window
after one whose niceness could not be put back takes no more."""


@contextlib.contextmanager
def yielding(nice: int) -> Iterator[int]:
    """Every thread of this process `nice` steps nicer than it started (a thread's niceness is
    its own on Linux, and a process inherits its starter's: the bots are started before), and
    back after. Yields this process's niceness inside. Putting it back needs CAP_SYS_NICE;
    without it, it stays, said on stderr, and what is started later inherits it (each report
    says the bots' niceness)."""
    tasks = Path("/proc/self/task")
    if nice and tasks.is_dir():
        renice(tasks, min(19, STARTED_NICE + nice))
    try:
        yield nice_of(os.getpid())
    finally:
        if nice and tasks.is_dir() and not renice(tasks, STARTED_NICE):
            print(f"bench: this process stays at nice {nice_of(os.getpid())} (putting it back "
                  "needs CAP_SYS_NICE): what it starts from now on inherits it", file=sys.stderr)


def renice(tasks: Path, value: int) -> bool:
    """Every thread of this process at `value`; False if one may not be set so."""
    done = True
    for tid in os.listdir(tasks):
        try:
            os.setpriority(os.PRIO_PROCESS, int(tid), value)
        except ProcessLookupError:
            pass  # a thread that ended meanwhile
        except PermissionError:
            done = False
    return done


def nice_of(pid: int) -> int:
    """A process's niceness (its main thread's)."""
    return os.getpriority(os.PRIO_PROCESS, pid)


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- what the driver sees -------------------------------------------------------------------


class Watch:
    """Per-channel and per-member wake-ups from the stand-in's message records, so hundreds of
    driven tables wait without polling (the stand-in's own wait_for scans every message)."""

    def __init__(self, dc: DiscordStandIn) -> None:
        self.dc = dc
        self.events: dict[int, asyncio.Event] = {}
        self.living: dict[int, Message] = {}
        """channel → the newest bot message carrying 13 Clues or Mansion components."""
        self.pass_prompts: dict[int, Message] = {}
        """member → the newest DM carrying the pass select."""
        original = dc._bump

        def bump(msg: Message) -> None:
            original(msg)
            self._seen(msg)

        dc._bump = bump  # type: ignore[method-assign]

    def event(self, key: int) -> asyncio.Event:
        return self.events.setdefault(key, asyncio.Event())

    def _seen(self, msg: Message) -> None:
        if msg.ephemeral:
            return
        ids = msg.custom_ids
        if msg.dm_recipient_id is not None:
            if any(c.startswith("13c:pass:") for c in ids):
                self.pass_prompts[msg.dm_recipient_id] = msg
            self.event(msg.dm_recipient_id).set()
            return
        if any(c.startswith(("13c:", "mbm:")) for c in ids):
            current = self.living.get(msg.channel_id)
            if current is None or msg.id >= current.id:
                self.living[msg.channel_id] = msg
        self.event(msg.channel_id).set()

    async def wait(self, keys: list[int], timeout: float) -> None:
        events = [self.event(k) for k in keys]
        for e in events:
            e.clear()
        waiters = [asyncio.ensure_future(e.wait()) for e in events]
        try:
            await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waiters:
                w.cancel()


@dataclass
class Figures:
    interactions: list[InteractionResult] = field(default_factory=list)
    kinds: dict[int, str] = field(default_factory=dict)
    """interaction id → what it was (for the report)."""
    unanswered: int = 0
    timed_out: list[InteractionResult] = field(default_factory=list)
    """Interactions not completed within ANSWER_TIMEOUT (acknowledged or not)."""
    driver_errors: list[str] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    retries: int = 0
    """Mansion members who found the message they would click moved on, and read again."""


class Offered:
    """At most `rate` member interactions a second, in all (bursts of a quarter second's
    worth): the members act when the bot lets them (after the last change), so without a
    cap a faster setup is offered more work than a slower one, and two setups compared
    (`bench.cluster`'s 1 and 2 processes) are not measured at the same load."""

    BURST = 0.25

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self._tokens = rate * self.BURST
        self._at = time.monotonic()
        self._lock = asyncio.Lock()

    async def admit(self) -> None:
        async with self._lock:  # first come, first served
            now = time.monotonic()
            self._tokens = min(self.rate * self.BURST,
                               self._tokens + (now - self._at) * self.rate)
            self._at = now
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.rate)
                self._tokens, self._at = 1.0, time.monotonic()
            self._tokens -= 1


class Driver:
    """Plays the members of every table through the stand-in until the deadline."""

    def __init__(self, dc: DiscordStandIn, db: Path, deadline: float, seed: int,
                 think: tuple[float, float] = (1.0, 3.0),
                 rows: Callable[[int], Mapping[str, Any] | None] | None = None,
                 offered: Offered | None = None) -> None:
        """`rows`: where a channel's latest table row is read, instead of the SQLite file
        `db` (a PostgreSQL database: `bench.cluster`); `offered`: a cap on the members'
        interactions a second (None: as fast as the bot lets them act)."""
        self.dc = dc
        self.offered = offered
        self.rows = rows
        self.think = think
        """Seconds a member takes to read the table and act, drawn uniformly."""
        self.db = db
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.watch = Watch(dc)
        self.figures = Figures()
        self._reader: sqlite3.Connection | None = None

    # -- reading the truth (the driver may know everything; the bot's process is not charged)

    def row(self, channel_id: int) -> Mapping[str, Any] | None:
        if self.rows is not None:
            return self.rows(channel_id)
        if self._reader is None:
            self._reader = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5)
            self._reader.row_factory = sqlite3.Row
        row: Mapping[str, Any] | None = self._reader.execute(
            "SELECT id, status, state, version FROM tables WHERE channel_id = ?"
            " ORDER BY id DESC LIMIT 1", (channel_id,),
        ).fetchone()
        return row

    # -- interactions ----------------------------------------------------------------------

    async def _admit(self) -> None:
        if self.offered is not None:
            await self.offered.admit()

    async def answered(self, rec: InteractionResult, kind: str) -> InteractionResult:
        self.figures.interactions.append(rec)
        self.figures.kinds[rec.id] = kind
        try:
            await asyncio.wait_for(rec.done.wait(), ANSWER_TIMEOUT)
        except TimeoutError:
            self.figures.unanswered += 1
            self.figures.timed_out.append(rec)
        return rec

    async def slash(self, user: User, channel: int, name: str, group: str = "13clues",
                    **options: Any) -> InteractionResult:
        await self._admit()
        rec = await self.dc.slash(user, channel, group, name, wait=False, **options)
        return await self.answered(rec, f"/{group} {name}")

    async def click(self, user: User, msg: Message, custom_id: str) -> InteractionResult:
        await self._admit()
        rec = await self.dc.click(user, msg, custom_id, wait=False)
        return await self.answered(rec, f"click {':'.join(custom_id.split(':')[:2])}")

    async def select(self, user: User, msg: Message, custom_id: str, values: list[str]
                     ) -> InteractionResult:
        await self._admit()
        rec = await self.dc.select(user, msg, custom_id, values, wait=False)
        return await self.answered(rec, f"select {':'.join(custom_id.split(':')[:2])}")

    # -- one table -------------------------------------------------------------------------

    async def table(self, game: str, channel: int, humans: list[User], ai: int, level: str,
                    options: dict[str, Any], start_after: float) -> None:
        await asyncio.sleep(start_after)
        group = "mansion" if game == "mansion" else "13clues"
        looker = asyncio.create_task(self.lookers_on(channel, humans, group))
        try:
            while time.monotonic() < self.deadline:
                if game == "mansion":
                    await self.mansion_game(channel, humans, ai, level, options)
                else:
                    await self.one_game(channel, humans, ai, level, options)
        except Exception as exc:  # a driver bug must not hide the figures of the others
            self.figures.driver_errors.append(f"table {channel}: {exc!r}")
        finally:
            looker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await looker

    async def seat_everyone(self, channel: int, humans: list[User], ai: int, level: str,
                            options: dict[str, Any], group: str) -> bool:
        """The first member opens the table, the others join (by button or command), the AI
        seats are added and the game started; False if the table could not be opened."""
        host, *others = humans
        opened = await self.slash(host, channel, "new", group, **options)
        if "Table open" not in opened.text:
            await asyncio.sleep(1.0)
            return False
        for i, user in enumerate(others):
            lobby = self.watch.living.get(channel)
            if i % 2 == 0 and lobby is not None and any(":join:" in c for c in lobby.custom_ids):
                await self.click(user, lobby, next(c for c in lobby.custom_ids if ":join:" in c))
            else:
                await self.slash(user, channel, "join", group)
        await self.slash(host, channel, "add-ai", group, count=ai, level=level)
        await self.slash(host, channel, "start", group)
        return True

    async def one_game(self, channel: int, humans: list[User], ai: int, level: str,
                       options: dict[str, Any]) -> None:
        if not await self.seat_everyone(channel, humans, ai, level, options, "13clues"):
            return
        self.figures.games_started += 1
        while time.monotonic() < self.deadline:
            row = self.row(channel)
            if row is None or row["status"] != "playing" or row["state"] is None:
                self.figures.games_finished += 1
                return
            state = GameState.model_validate_json(row["state"])
            acted = await self.act(channel, humans, state)
            if not acted:
                await self.watch.wait([channel, *(u.id for u in humans)], 1.0)

    async def act(self, channel: int, humans: list[User], state: GameState) -> bool:
        """One member's move if the game waits for a member; False if it waits for an AI."""
        seats = {s.id: i for i, s in enumerate(state.seats)}
        await asyncio.sleep(self.rng.uniform(*self.think))  # a member reads, then clicks
        if state.phase == "passing":
            done = False
            for user in humans:
                seat = seats[f"u{user.id}"]
                prompt = self.watch.pass_prompts.get(user.id)
                if state.seats[seat].passed is None and prompt is not None:
                    select = next(c for c in prompt.custom_ids if c.startswith("13c:pass:"))
                    dealt = [o["value"] for o in prompt.options(select)]
                    picked = [next(c for c in dealt if CARDS[c].category == cat)
                              for cat in Category]
                    await self.select(user, prompt, select, picked)
                    done = True
            return done
        if state.phase != "turns":
            return False
        user = next(  # type: ignore[assignment]
            (u for u in humans if seats[f"u{u.id}"] == state.turn), None)
        if user is None:
            return False
        me = state.turn
        living = self.watch.living.get(channel)
        if living is None:
            return False
        ids = living.custom_ids
        version = self.row(channel)
        if version is None or not any(f":{version['version']}" in c for c in ids):
            return False  # the table message for this turn is not here yet
        if legal.must_take(state):
            take = next((c for c in ids if c.startswith("13c:take:")), None)
            if take is None:
                return False
            opened = await self.click(user, living, take)
            picker = opened.message
            if picker is not None and picker.custom_ids:
                go = picker.custom_ids[0]
                source = self.rng.choice([o["value"] for o in picker.options(go)])
                await self.select(user, picker, go, [source])
            return True
        others = [u for u in humans if u is not user]
        roll = self.rng.random()
        letters = legal.informant_letters(state)
        if roll < 0.15 and letters:
            await self.slash(user, channel, "informant", card=self.rng.choice(letters))
        elif roll < 0.4 and others:
            suits = [s.value for s in suits_in_play(len(state.seats))]
            await self.slash(user, channel, "ask", witness=self.rng.choice(others),
                             about=self.rng.choice(suits))
        else:
            ask = next((c for c in ids if c.startswith("13c:ask:")), None)
            if ask is None:
                return False
            opened = await self.click(user, living, ask)
            picker = opened.message
            if picker is None or not picker.custom_ids:
                return True
            witness = next(c for c in picker.custom_ids if c.startswith("13c:askw:"))
            options = [o["value"] for o in picker.options(witness) if o["value"] != str(me)]
            await self.select(user, picker, witness, [self.rng.choice(options)])
            subject = next(c for c in picker.custom_ids if c.startswith("13c:asks:"))
            await self.select(user, picker, subject,
                              [self.rng.choice([o["value"] for o in picker.options(subject)])])
            if any(c.startswith("13c:askd:") for c in picker.custom_ids):
                side = next(c for c in picker.custom_ids if c.startswith("13c:askd:"))
                await self.select(user, picker, side, [self.rng.choice(["left", "right"])])
            go = next(c for c in picker.custom_ids if c.startswith("13c:askgo:"))
            await self.click(user, picker, go)
        return True

    # -- one Mansion table -----------------------------------------------------------------

    async def mansion_game(self, channel: int, humans: list[User], ai: int, level: str,
                           options: dict[str, Any]) -> None:
        if not await self.seat_everyone(channel, humans, ai, level, options, "mansion"):
            return
        self.figures.games_started += 1
        members = MansionMembers(self, channel)
        while time.monotonic() < self.deadline:
            row = self.row(channel)
            if row is None or row["status"] != "playing" or row["state"] is None:
                self.figures.games_finished += 1
                return
            state = MansionState.model_validate_json(row["state"])
            acted = await members.act(state, humans)
            if not acted:
                await self.watch.wait([channel, *(u.id for u in humans)], 1.0)

    async def lookers_on(self, channel: int, humans: list[User], group: str = "13clues"
                         ) -> None:
        """Members look at the table now and then, whoever's turn it is."""
        while time.monotonic() < self.deadline:
            await asyncio.sleep(self.rng.uniform(3.0, 8.0))
            user = self.rng.choice(humans)
            living = self.watch.living.get(channel)
            roll = self.rng.random()
            try:
                if roll < 0.25 and living is not None:
                    mine = [c for c in living.custom_ids
                            if ":hand:" in c or ":book:" in c or ":notes:" in c]
                    if mine:
                        await self.click(user, living, self.rng.choice(mine))
                        continue
                looks = ["status", "hand", "notes" if group == "mansion" else "casebook", "log"]
                await self.slash(user, channel, self.rng.choice(looks), group)
            except Exception as exc:
                self.figures.driver_errors.append(f"looker {channel}: {exc!r}")


class MansionMembers(MansionDriver):
    """The members of one Mansion table, through the e2e driver's panels and `/mansion hand`,
    every interaction recorded by the load driver."""

    def __init__(self, load: Driver, channel: int) -> None:
        super().__init__(SimpleNamespace(dc=load.dc, channel=channel))  # type: ignore[arg-type]
        self.load = load
        self.channel = channel

    async def open_panel(self, user: User, how: str = "button") -> Message:
        table = self.load.watch.living.get(self.channel)
        if table is None or not any(c.startswith("mbm:turn:") for c in table.custom_ids):
            raise NotReady("no table message with My turn yet")
        opened = await self.click(user, table, "turn")
        if opened.message is None:
            raise NotReady(f"no panel: {opened.text[:80]}")
        self.panels[user.id] = opened.message
        return opened.message

    async def answer_message(self, user: User, pid: int, via: str) -> Message:
        hand = await self.load.slash(user, self.channel, "hand", "mansion")
        if hand.message is None:
            raise NotReady(f"no hand: {hand.text[:80]}")
        return hand.message

    async def click(self, user: User, msg: Message, verb: str, draft: str | None = None
                    ) -> InteractionResult:
        return await self.load.click(user, msg, find(self.fresh(msg), verb, draft))

    async def select(self, user: User, msg: Message, verb: str, value: str
                     ) -> InteractionResult:
        return await self.load.select(user, msg, find(self.fresh(msg), verb), [value])

    async def act(self, state: MansionState, humans: list[User]) -> bool:
        """One member's move (a turn's step or an answer to a prompt); False if the table
        waits for no member."""
        members = {f"u{u.id}": u for u in humans}
        waiting = [s for s in MANSION.waiting_on(state) if state.seats[s].id in members]
        if not waiting:
            return False
        await asyncio.sleep(self.load.rng.uniform(*self.load.think))
        row = self.load.row(self.channel)
        if row is None or row["status"] != "playing" or row["state"] is None:
            return True
        state = MansionState.model_validate_json(row["state"])
        waiting = [s for s in MANSION.waiting_on(state) if state.seats[s].id in members]
        if not waiting:
            return True
        seat = self.load.rng.choice(waiting)
        action = MANSION.ai_action(state, seat, "normal", random.Random(self.load.rng.random()))
        prompt = state.prompt_for(seat)
        via = "hand" if prompt is not None and prompt.kind in (
            "show", "pick", "answer_tip", "choose_solution") else "panel"
        try:
            await self.perform(state, action, via)  # type: ignore[arg-type]
        except (NotReady, AssertionError):
            self.load.figures.retries += 1  # a message moved on under the member: read again
        return True


class NotReady(Exception):
    """The message a member would click is not there yet."""


# --- one run --------------------------------------------------------------------------------


@dataclass
class Run:
    tables: int
    seconds: float
    interactions: int
    rate: float
    latencies: list[float]
    """INTERACTION_CREATE written → the callback read, both on the stand-in's clock (its own
    delays in reading the callback included)."""
    bot_side: list[float]
    """INTERACTION_CREATE written → the callback sent by the bot (`bench.probe`)."""
    delays: Delays
    actions: int
    cpu: float
    helpers_cpu: float
    """CPU of the bot's helper processes (AI thinking, drawing pictures) in the same time."""
    driver_cpu: float
    """CPU of this process (the stand-in and the members it plays) in the same time."""
    loop_waited: float | None
    """Seconds the bot processes' event loops waited for a core (`loop_waited_seconds`)."""
    nices: tuple[int, int]
    """This process's niceness while it measured (`yielding`), and the bot's."""
    rss_base: int
    rss_peak: int
    late: int
    unanswered: int
    games_started: int
    games_finished: int
    violations: list[str]
    """Discord's rules the stand-in saw broken (what a real Discord would refuse)."""
    errors: list[str]
    bot_errors: list[str]
    by_game: dict[str, list[float]] = field(default_factory=dict)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    """The bot-side first-callback latencies of each kind of interaction (command, button)."""
    """The first-callback latencies of each game's interactions."""
    retries: int = 0
    rest: int = 0
    """Requests under Discord's global limit (bot-token routes) during the run and the last
    letters' delivery after it (per turn)."""
    rest_window: int = 0
    """Of them, those made while the members played: the mean rate's (per second) count."""
    rest_peak: int = 0
    """The most of them in any one second."""
    rest_429: int = 0
    """Global 429s the stand-in answered (it enforces Discord's 50 a second)."""
    rest_kinds: str = ""
    """What the requests were (posts, edits, DM channels opened), and the 429s."""
    turns: int = 0
    """Turns begun at every table (each game's turn number), for the requests per turn."""
    slow_followups: int = 0
    """Acknowledged (a defer) in time, but the answer itself came after ANSWER_TIMEOUT."""
    cpu_by_process: list[float] = field(default_factory=list)
    """Each bot process's CPU (`cpu` is their sum)."""
    bot_side_by_process: list[list[float]] = field(default_factory=list)
    """`bot_side` of the interactions each bot process answered (shard 0's takes every
    DM's)."""
    bot_side_dms: list[float] = field(default_factory=list)
    """`bot_side` of the interactions in DMs (in a cluster, shard 0's process answers them
    all)."""
    steady: Steady | None = None
    """The figures after the ramp (None: the run ended before its last table opened)."""
    ramp: float = 0.0
    """The seconds over which the tables were opened."""

    def report(self) -> str:
        ms = [x * 1000 for x in self.latencies]
        lines = [
            rest_line("", self.rest, self.seconds, self.rest_peak, self.turns, self.rest_429,
                      window=self.rest_window),
            f"  {self.rest_kinds}",
            f"N={self.tables:<4} {self.interactions} interactions in {self.seconds:.0f}s: "
            f"{self.rate:.1f}/s; games started {self.games_started}, finished "
            f"{self.games_finished}; actions applied {self.actions}",
            "  INTERACTION_CREATE → first callback, bot side (frame written → callback sent): "
            + spread([x * 1000 for x in self.bot_side], "ms")
            + f" (n={len(self.bot_side)})",
            f"  the same, round trip read at the stand-in: median {statistics.median(ms):.1f} ms,"
            f" p99 {pct(ms, 0.99):.1f} ms, max {max(ms):.1f} ms",
            f"  member's action → last DM it caused: {_ms(self.delays.action_dm)}; any "
            f"change → last DM: {_ms(self.delays.change_dm)}",
            f"  member's action → their own last DM: {_ms(self.delays.own_dm)}"
            + own_dm_channels(self.delays) + "; any change → "
            f"the table message shows it: {_ms(self.delays.table)}, "
            f"{sum(1 for x in self.delays.table if x > TABLE_BEHIND)} more than "
            f"{TABLE_BEHIND:g} s behind; letters still pending at the end (counted as sent "
            f"then): {self.delays.unsent}",
            f"  bot CPU {self.cpu:.1f}s: {self.cpu / max(1, self.actions) * 1000:.1f} ms per "
            f"applied action, {self.cpu / max(1, self.interactions) * 1000:.1f} ms per "
            f"interaction; its helpers (AI, drawing) {self.helpers_cpu:.1f}s, "
            f"{self.helpers_cpu / max(1, self.actions) * 1000:.1f} ms per action; the stand-in "
            f"and driver {self.driver_cpu:.1f}s (cores busy on average: bot "
            f"{self.cpu / self.seconds:.2f}, helpers {self.helpers_cpu / self.seconds:.2f}, "
            f"stand-in {self.driver_cpu / self.seconds:.2f}); the bot's event loop waited "
            f"{seconds_or_na(self.loop_waited)} for a core (the stand-in and driver at nice "
            f"{self.nices[0]}, the bot at {self.nices[1]})",
            f"  RSS {self.rss_base / 2**20:.0f} → {self.rss_peak / 2**20:.0f} MiB: "
            f"{(self.rss_peak - self.rss_base) / self.tables / 1024:.0f} KiB per active table",
            *(f"  {game}: {len(xs)} interactions; first callback (bot side) median "
              f"{statistics.median(xs) * 1000:.1f} ms, p99 {pct(xs, 0.99) * 1000:.1f} ms, max "
              f"{max(xs) * 1000:.1f} ms" for game, xs in sorted(self.by_game.items()) if xs),
            "  slowest kinds (bot side, p99): " + "; ".join(
                f"{kind} {pct(xs, 0.99) * 1000:.0f} ms (median {statistics.median(xs) * 1000:.0f},"
                f" n={len(xs)})"
                for kind, xs in sorted(self.by_kind.items(), key=lambda kv: -pct(kv[1], 0.99))[:6]
            ),
            f"  past 3 s: {self.late}; never acknowledged: {self.unanswered}; deferred, "
            f"answer later than {ANSWER_TIMEOUT:g} s: {self.slow_followups}; Discord rule "
            f"violations: {len(self.violations)}; bot errors: {len(self.bot_errors)}; driver "
            f"errors: {len(self.errors)}; Mansion members who read again: {self.retries}",
            *(f"  violation: {v[:400]}" for v in self.violations[:3]),
        ]
        lines.append(targets("whole run", self.late, self.unanswered, self.delays,
                             self.rest_peak))
        if self.steady is not None:
            st = self.steady
            lines += [
                rest_line(f", after the ramp ({self.ramp:g} s; {st.seconds:.0f} s of steady "
                          "play)", st.rest, st.seconds, st.peak, st.turns, st.refused),
                f"  made {st.kinds}",
                "  INTERACTION_CREATE → first callback, bot side: "
                + spread([x * 1000 for x in st.bot_side], "ms") + f" (n={len(st.bot_side)})",
                f"  member's action → their own last DM: {_ms(st.delays.own_dm)}"
                + own_dm_channels(st.delays) + "; any change "
                f"→ the table message shows it: {_ms(st.delays.table)}, "
                f"{sum(1 for x in st.delays.table if x > TABLE_BEHIND)} more than "
                f"{TABLE_BEHIND:g} s behind; still pending at the end: {st.delays.unsent}",
                targets("after the ramp", st.late, st.unanswered, st.delays, st.peak),
            ]
        lines += [f"    bot: {e[:200]}" for e in self.bot_errors[:5]]
        lines += [f"    driver: {e[:200]}" for e in self.errors[:5]]
        return "\n".join(lines)


def _ms(values: list[float]) -> str:
    return (f"p99 {pct(values, 0.99) * 1000:.0f} ms (median {pct(values, 0.5) * 1000:.0f} ms, "
            f"max {max(values, default=0.0) * 1000:.0f} ms, n={len(values)})")


def by_kind(kinds: dict[int, str], recs: list[InteractionResult], left: dict[int, float]
            ) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for r in recs:
        if r.id in left:
            out.setdefault(kinds[r.id], []).append(left[r.id] - r.dispatched_at)
    return out


def spread(values: list[float], unit: str) -> str:
    if not values:
        return "none measured"
    return (f"median {statistics.median(values):.1f} {unit}, p99 {pct(values, 0.99):.1f} {unit},"
            f" max {max(values):.1f} {unit}")


LETTERS = ("SELECT id, table_id, created_at, dest, message_id, done_at, state FROM outbox"
           " WHERE state IN ('sent', 'pending') ORDER BY id")
"""The letters sent, and those still pending when the run ended."""
ACTIONS = "SELECT COUNT(*) FROM actions"
TURNS = {
    "sqlite": "SELECT COALESCE(SUM(json_extract(state, '$.turn_number')), 0) FROM tables"
              " WHERE state IS NOT NULL",
    "postgres": "SELECT COALESCE(SUM((state::jsonb ->> 'turn_number')::int), 0) FROM tables"
                " WHERE state IS NOT NULL",
}
"""Turns begun at every table, in each backend's JSON."""


@dataclass
class Delays:
    """How long the letters of the stored changes took to be seen, in seconds."""

    action_dm: list[float] = field(default_factory=list)
    """A member's interaction → the last DM its change caused (to anyone)."""
    own_dm_open: list[float] = field(default_factory=list)
    """A member's interaction → the last DM its change sent that member, their DM channel
    open when they acted (issue 21: the acting member's own DMs come first when the budget
    is short)."""
    own_dm_opening: list[float] = field(default_factory=list)
    """The same for a member whose DM channel was not open yet: the DM waited for its
    opening (see `bot.transport.OPENING`). One whose channel this run's stand-in never
    opened counts here too: each run starts from a fresh stand-in and database, so it is
    still waiting for it."""
    change_dm: list[float] = field(default_factory=list)
    """Any change → its last DM."""
    table: list[float] = field(default_factory=list)
    """Any change → its table message shown (posted or edited): how far the table message is
    behind the game. A letter skipped because a later one replaced it counts until that one
    went out."""
    unsent: int = 0
    """Letters (of the changes measured) still pending when the run ended: counted as
    arriving then."""

    @property
    def own_dm(self) -> list[float]:
        """Every member's own DM, their channel open or not."""
        return self.own_dm_open + self.own_dm_opening


def own_dm_channels(delays: Delays) -> str:
    """What of the own DMs' delay is the wait for DM channels: those that waited, apart."""
    if not delays.own_dm:
        return ""
    if not delays.own_dm_opening:
        return " (none waited for its DM channel to open)"
    return (f" (waiting for the member's DM channel to open: {_ms(delays.own_dm_opening)}; "
            f"the channel open: {_ms(delays.own_dm_open)})")


def dm_delays(rows: Sequence[Sequence[Any]], dc: DiscordStandIn, dispatched: dict[int, float],
              users: dict[int, int], end: float, since: float = 0.0) -> Delays:
    """The delays of `Delays`, from the letters' rows (`LETTERS`). A change's letters share
    its commit time and table; the interaction (and its member, `users`) is found through its
    reply letter (`i:<interaction id>`), a DM's arrival through its stored message id (the
    time it was marked sent, for an edit of a kept DM), a table letter's through the time it
    was marked sent. A letter still pending when the run ended counts as arriving at `end`
    (its delay is at least that): a slow letter is never left out. `since`: only the changes
    stored from then on (wall clock)."""
    shown = table_shown(rows, end)
    changes: dict[tuple[int, float], list[tuple[int, str, float | None]]] = {}
    for pid, table_id, created, dest, mid, done, state in rows:
        if created < since:
            continue
        arrived: float | None = None
        if dest.startswith("u:"):
            if state == "pending":
                arrived = end
            elif mid in dc._messages:
                posted = dc._messages[mid].created_at
                arrived = posted if posted >= created else done
        changes.setdefault((table_id, created), []).append((pid, dest, arrived))
    out = Delays()
    for (_, created), letters in changes.items():
        at_table = [shown[pid] for pid, dest, _ in letters if pid in shown]
        if at_table:
            out.table.append(max(at_table) - created)
        arrivals = {dest: at for _, dest, at in letters if at is not None}
        if not arrivals:
            continue
        out.change_dm.append(max(arrivals.values()) - created)
        for _, dest, _ in letters:
            if dest.startswith("i:") and int(dest[2:]) in dispatched:
                when = dispatched[int(dest[2:])]
                out.action_dm.append(max(arrivals.values()) - when)
                user = users.get(int(dest[2:]), 0)
                own = arrivals.get(f"u:{user}")
                if own is not None:
                    opened = dc.dm_opened.get(user, math.inf) <= when
                    (out.own_dm_open if opened else out.own_dm_opening).append(own - when)
    out.unsent = sum(1 for row in rows if row[6] == "pending" and row[2] >= since)
    return out


def table_shown(rows: Sequence[Sequence[Any]], end: float) -> dict[int, float]:
    """When each table letter (outbox id) was shown: its own send, or for one skipped (no
    message id: a later letter to the channel replaced it) the next one sent after it; `end`
    for one still pending when the run ended, or replaced by one still pending."""
    shown: dict[int, float] = {}
    waiting: dict[str, list[int]] = {}
    for pid, _, _, dest, mid, done, state in rows:
        if not dest.startswith("c:"):
            continue
        waiting.setdefault(dest, []).append(pid)
        if state == "sent" and mid is not None:
            for skipped in waiting.pop(dest):
                shown[skipped] = done
    for left in waiting.values():
        shown.update((pid, end) for pid in left)
    return shown


def sqlite_query(db: Path, sql: str) -> list[sqlite3.Row]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


@dataclass
class Cluster:
    """Where `run` plays: `processes` bot processes, one shard each, on the PostgreSQL
    database at `url` (`bench.cluster`); by default one process on a SQLite file."""

    processes: int = 1
    url: str | None = None
    rows: Callable[[int], Mapping[str, Any] | None] | None = None
    """How the driver reads a table's row from `url`."""
    query: Callable[[str], Sequence[Sequence[Any]]] | None = None
    """One read of `url`, for the figures at the end."""
    pinned: bool = False
    """Each process's event loop on a CPU of its own (LOOP_CPU), as a cluster sharing a
    machine is deployed (README). One process is not pinned: deployed alone, it is not."""

    def env(self, shard: int) -> dict[str, str]:
        if self.url is None:
            return {}
        shards = {} if self.processes == 1 else {
            "SHARD_COUNT": str(self.processes), "SHARD_IDS": str(shard)}
        if self.pinned and self.processes > 1 and STARTED_ON is not None:
            cpus = sorted(STARTED_ON)
            shards["LOOP_CPU"] = str(cpus[shard % len(cpus)])
        return {"DATABASE_URL": self.url, **shards}


LEVELS = ("easy", "normal", "normal", "expert")


def table_plan(t: int, games: Sequence[str], shards: int
               ) -> tuple[str, int, int, str, dict[str, Any]]:
    """Table `t`'s game, members, AI seats, AI level and options. Table t is in guild
    `(t // len(games)) % guilds`, and guild g on shard `g % shards`: each setting is taken
    from the table's place in its game (`k`) so that every game, and every shard of a
    cluster, gets every level and option. (Taken from `t` itself, 13 Clues never met an
    expert AI or Top Secret, the Mansion never an easy AI, and shard 1 of 2 had every expert:
    shard 0's process answered different work.)"""
    k = t // len(games)
    humans = 2 + (t % 3 == 0)
    level = LEVELS[(k // shards) % len(LEVELS)]
    assist = ("off", "bookkeeping", "full", "off", "bookkeeping")[k % 5]
    game = games[t % len(games)]
    if game == "mansion":  # 3–5 seats
        ai = 1 + t % 3 if humans == 2 else 1 + t % 2
        options: dict[str, Any] = {
            "assist": assist, "variant": "one-against-all" if k % 5 == 3 else "standard"}
    else:
        ai = 1 + t % 3
        options = {"assist": assist, "edition": "2016" if k % 7 == 0 else "2020",
                   "top_secret": (k // shards) % 3 == 1}
    return game, humans, ai, level, options


async def run(n: int, seconds: float, ai_delay: float, seed: int, profile: Path | None,
              entry: str = "bench.probe:main", think: tuple[float, float] = (1.0, 3.0),
              games: tuple[str, ...] = ("13clues", "mansion"),
              cluster: Cluster | None = None, ramp: float = PACES["busy"][1],
              rate: float | None = None, harness_nice: int = HARNESS_NICE) -> Run:
    """`ramp`: the tables are opened over this many seconds (each at a random moment);
    `rate`: at most this many member interactions a second (`Offered`); `harness_nice`:
    this process's niceness while it measures (`HARNESS_NICE`)."""
    where = cluster or Cluster()
    workdir = Path(tempfile.mkdtemp(prefix=f"bench-load-{n}-"))
    db = workdir / "bot.sqlite3"
    rng = random.Random(seed)
    if where.query is None:
        query: Callable[[str], Sequence[Sequence[Any]]] = lambda sql: sqlite_query(db, sql)  # noqa: E731
        backend = "sqlite"
    else:
        query, backend = where.query, "postgres"

    def count_turns() -> int:
        return int(query(TURNS[backend])[0][0])

    async with running_standin(check=False, quiet=0.05,
                               global_rate_limit=DISCORD_GLOBAL_LIMIT) as dc:
        dc.max_concurrency = where.processes  # every shard its own IDENTIFY bucket
        shards = where.processes
        guilds = [dc.add_guild(f"Guild {g}", shard=(g % shards, shards) if shards > 1 else None)
                  for g in range(max(1, n // 4))]
        plans = []
        hosting: set[int] = set()
        for t in range(n):
            # each turn of the games in one guild: every guild, so every shard, hosts all the
            # games alike (with `t % guilds`, 2 shards had 13 Clues on one and the Mansion on
            # the other, and one process of a cluster did two thirds of the work)
            guild = guilds[(t // len(games)) % len(guilds)]
            channel = guild.channel_id if guild.id not in hosting else dc.add_channel(
                guild.id, f"t{t}")
            hosting.add(guild.id)
            game, seated, ai, level, options = table_plan(t, games, shards)
            humans = [dc.add_user(f"m{t}-{h}", guild_id=guild.id) for h in range(seated)]
            plans.append((game, channel, humans, ai, level, options))
        callbacks = [workdir / f"callbacks-{shard}.txt" for shard in range(shards)]
        procs = [await dc.start_bot_process(
            database_path=db, timeout=60.0, entry=entry,
            env={"AI_DELAY_SECONDS": str(ai_delay), "LEASE_WAIT_SECONDS": "5",
                 "BENCH_CALLBACKS": str(callbacks[shard]), **where.env(shard)},
        ) for shard in range(shards)]
        proc, pids = procs[0], [p.pid for p in procs]
        spy: subprocess.Popen[bytes] | None = None
        try:
            await asyncio.sleep(1.0)
            if profile is not None:  # before yielding: the sampler keeps the bot's niceness
                spy = start_profiler(proc.pid, profile / f"load-{n}.txt", seconds)
            with yielding(harness_nice) as yielded:
                bot_nice = nice_of(proc.pid)
                rss_base = sum(rss_bytes(p.pid) for p in procs)
                cpu0 = [cpu_seconds(p.pid) for p in procs]
                helpers0 = sum(helpers_cpu_seconds(p.pid) for p in procs)
                own0 = own_cpu_seconds()
                waited0 = loop_waited_seconds(pids)
                begin = time.monotonic()
                rest_mark = dc.under_limit.mark()
                refused_mark = len(dc.under_limit.refused)
                driver = Driver(dc, db, begin + seconds, seed, think, where.rows,
                                None if rate is None else Offered(rate))
                tasks = [
                    asyncio.create_task(driver.table(*plan, start_after=rng.uniform(0, ramp)))
                    for plan in plans
                ]
                steady = asyncio.create_task(steady_mark(dc, begin + ramp, count_turns))
                rss_peak = rss_base
                while not all(t.done() for t in tasks):
                    await asyncio.sleep(0.5)
                    rss_peak = max(rss_peak, sum(rss_bytes(p.pid) for p in procs))
                    if time.monotonic() > begin + seconds + 30:
                        for task in tasks:
                            task.cancel()
                        break
                await asyncio.gather(*tasks, return_exceptions=True)
                ended = time.monotonic()
                elapsed = ended - begin
                rest_until = dc.under_limit.mark()
                after_ramp = steady.result() if steady.done() else None
                steady.cancel()
                cpus = [cpu_seconds(p.pid) - c for p, c in zip(procs, cpu0, strict=True)]
                cpu = sum(cpus)
                helpers_cpu = sum(helpers_cpu_seconds(p.pid) for p in procs) - helpers0
                driver_cpu = own_cpu_seconds() - own0
                waited = loop_waited_seconds(pids)
                loop_waited = None if waited is None or waited0 is None else waited - waited0
            await asyncio.sleep(2.0)  # the last letters go out
        finally:
            if spy is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    spy.wait(timeout=30)
            for p in procs:
                await p.stop(grace=10.0)
        figures = driver.figures
        recs = figures.interactions
        latencies = [r.latency for r in recs if r.latency is not None]
        answered = [probe.read(path) if path.exists() else {} for path in callbacks]
        left = {i: at for each in answered for i, at in each.items()}

        def bot_side_of(sent: Mapping[int, float],
                        keep: Callable[[InteractionResult], bool] = lambda r: True
                        ) -> list[float]:
            return [sent[r.id] - r.dispatched_at for r in recs if r.id in sent and keep(r)]

        def mansion(r: InteractionResult) -> bool:
            return "mbm:" in figures.kinds[r.id] or "/mansion" in figures.kinds[r.id]

        bot_side = bot_side_of(left)
        actions = query(ACTIONS)[0][0]
        turns = count_turns()
        offset = time.time() - dc.now()
        dispatched = {r.id: r.dispatched_at + offset for r in recs}
        users = {r.id: r.user_id for r in recs}
        letters = query(LETTERS)
        stopped = time.time()
        delays = dm_delays(letters, dc, dispatched, users, stopped)
        steady_figures = None if after_ramp is None else Steady.of(
            after_ramp, dc, ended, turns, dm_delays(letters, dc, dispatched, users, stopped,
                                                    since=after_ramp.wall), recs, left)
        return Run(
            tables=n, seconds=elapsed, interactions=len(recs), rate=len(recs) / elapsed,
            latencies=latencies, bot_side=bot_side, delays=delays,
            actions=actions, helpers_cpu=helpers_cpu, turns=turns,
            rest=len(dc.under_limit.since(rest_mark)), rest_window=rest_until - rest_mark,
            rest_peak=dc.under_limit.peak(rest_mark),
            rest_429=len(dc.under_limit.refused) - refused_mark,
            rest_kinds=f"made {destinations(dc, dc.under_limit.since(rest_mark))}; refused "
                       f"{Counter(c.route.split('/')[1] for c in dc.under_limit.refused)}",
            steady=steady_figures, ramp=ramp,
            driver_cpu=driver_cpu, loop_waited=loop_waited, nices=(yielded, bot_nice),
            cpu=cpu, rss_base=rss_base, rss_peak=rss_peak,
            late=sum(1 for x in latencies if x > 3.0),
            unanswered=sum(1 for r in recs if r.callback_type is None),
            slow_followups=sum(1 for r in figures.timed_out if r.callback_type is not None),
            games_started=figures.games_started, games_finished=figures.games_finished,
            violations=list(dc.violations), errors=figures.driver_errors,
            bot_errors=[e for p in procs for e in p.error_lines()],
            cpu_by_process=cpus,
            bot_side_by_process=[bot_side_of(each) for each in answered],
            bot_side_dms=bot_side_of(left, lambda r: r.guild_id is None),
            by_kind=by_kind(figures.kinds, recs, left),
            by_game={"13 Clues": bot_side_of(left, lambda r: not mansion(r)),
                     "Mansion": bot_side_of(left, mansion)},
            retries=figures.retries,
        )


@dataclass(frozen=True)
class Mark:
    """Where steady play begins: the last table opened (the end of the ramp)."""

    at: float
    """time.monotonic()."""
    wall: float
    """time.time(), the clock of the stored letters."""
    standin: float
    """The stand-in's clock, that of the interactions."""
    calls: int
    refused: int
    turns: int


async def steady_mark(dc: DiscordStandIn, at: float, count_turns: Callable[[], int]) -> Mark:
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    return Mark(time.monotonic(), time.time(), dc.now(), dc.under_limit.mark(),
                len(dc.under_limit.refused), count_turns())


@dataclass
class Steady:
    """The figures of the part of a run after its ramp (every table opened): steady play,
    without the cold start of opening them (each table's lobby, its members' DM channels,
    the first deal). Its delays count only the changes stored after the ramp; a letter of
    the ramp still waiting for the budget is in the requests, not hidden."""

    seconds: float
    rest: int
    peak: int
    refused: int
    turns: int
    kinds: str
    delays: Delays
    late: int
    unanswered: int
    bot_side: list[float]
    """INTERACTION_CREATE written → the callback sent, of the interactions after the ramp."""

    @classmethod
    def of(cls, mark: Mark, dc: DiscordStandIn, end: float, turns: int, delays: Delays,
           recs: Sequence[InteractionResult], left: Mapping[int, float]) -> Steady:
        calls = dc.under_limit.since(mark.calls)
        recs = [r for r in recs if r.dispatched_at >= mark.standin]
        return cls(seconds=end - mark.at, rest=len(calls), peak=dc.under_limit.peak(mark.calls),
                   refused=len(dc.under_limit.refused) - mark.refused, turns=turns - mark.turns,
                   kinds=destinations(dc, calls), delays=delays,
                   bot_side=[left[r.id] - r.dispatched_at for r in recs if r.id in left],
                   late=sum(1 for r in recs if r.latency is not None and r.latency > 3.0),
                   unanswered=sum(1 for r in recs if r.callback_type is None))


def destinations(dc: DiscordStandIn, calls: Sequence[Call]) -> str:
    """What the requests were, and where: DM channels opened, posts and edits in the tables'
    channels and in DMs."""
    kinds: Counter[str] = Counter()
    for call in calls:
        method, path = call.route.split(" ", 1)
        parts = path.split("/")
        if path == "/users/@me/channels":
            kinds["DM channels opened"] += 1
        elif len(parts) > 3 and parts[1] == "channels" and parts[3] == "messages":
            channel = dc.channels.get(int(parts[2]))
            where = "DM" if channel is not None and channel.is_dm else "table"
            what = {"POST": "posts", "PATCH": "edits"}.get(method, method)
            kinds[f"{where} {what}"] += 1
        else:
            kinds[call.route] += 1
    return ", ".join(f"{kind} {n}" for kind, n in kinds.most_common())


def rest_line(label: str, rest: int, seconds: float, peak: int, turns: int, refused: int,
              *, window: int | None = None) -> str:
    """`window`: the requests made within the `seconds` (the rest went out after them, the
    letters the last turns owed): the mean rate counts those alone, the turns all."""
    made = rest if window is None else window
    return (f"REST under the global limit{label}: {made / seconds:.1f}/s (peak {peak}/s), "
            f"{rest / max(1, turns):.2f} per turn, 429s: {refused}")


OWN_DM = 2.0
"""Issue 21: the acting member's own DMs, p99 at most this many seconds."""


def targets(label: str, late: int, unanswered: int, delays: Delays, peak: int) -> str:
    """Issue 21's bench targets, each said met or not."""
    def said(ok: bool) -> str:
        return "met" if ok else "NOT met"

    def measured(values: list[float], figure: float, limit: float, what: str) -> str:
        if not values:
            return f"{what}: none measured (NOT shown)"
        return f"{what} {figure:.1f} s ({said(figure <= limit)}, at most {limit:g} s)"

    return (f"  issue 21's targets, {label}: answered past 3 s {late} ({said(late == 0)}); "
            f"never acknowledged {unanswered} ({said(unanswered == 0)}); "
            + measured(delays.own_dm, pct(delays.own_dm, 0.99), OWN_DM, "own DM p99") + "; "
            + measured(delays.table, max(delays.table, default=0.0), TABLE_BEHIND,
                       "table message behind at most")
            + f"; peak {peak}/s ({said(peak <= DISCORD_GLOBAL_LIMIT)}, at most "
              f"{DISCORD_GLOBAL_LIMIT})")


def start_profiler(pid: int, out: Path, seconds: float) -> subprocess.Popen[bytes] | None:
    """py-spy (if installed) samples the bot process for the run: collapsed stacks in `out`."""
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        print("(py-spy is not installed in this environment: no profile)")
        return None
    out.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [str(spy), "record", "-p", str(pid), "-d", str(int(seconds)), "-r", "200",
         "-f", "raw", "-o", str(out), "--nonblocking", "--gil"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def summarize_profile(path: Path, top: int = 25) -> str:
    """Self and inclusive sample shares per function from py-spy's collapsed stacks."""
    if not path.exists():
        return f"(no profile at {path})"
    own: dict[str, int] = {}
    total: dict[str, int] = {}
    samples = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue  # a frame whose name holds a line break (code compiled from a string)
        n = int(count)
        samples += n
        frames = stack.split(";")
        for f in set(frames):
            total[f] = total.get(f, 0) + n
        own[frames[-1]] = own.get(frames[-1], 0) + n
    lines = [f"profile {path} ({samples} samples)", "  self%   incl%  function"]
    for f, n in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {n / samples:5.1%}  {total[f] / samples:5.1%}  {f[:140]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--ai-delay", type=float, default=1.5,
                        help="AI_DELAY_SECONDS of the bot (its default: 1.5)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--pace", choices=sorted(PACES), default="busy",
                        help="busy: members act every 1-3 s, tables opened within 5 s (the "
                             "default); table: 6-14 s, opened over up to 30 s")
    parser.add_argument("--think", type=float, nargs=2, default=None,
                        metavar=("LOW", "HIGH"),
                        help="seconds a member takes before each move (uniform; default: "
                             "the pace's)")
    parser.add_argument("--ramp", type=float, default=None, metavar="SECONDS",
                        help="open the tables over this many seconds (default: the pace's, "
                             "at most a quarter of the run)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="sample the bot with py-spy into this folder (largest N)")
    parser.add_argument("--no-side", action="store_true", help="skip the side-by-side part")
    parser.add_argument("--games", nargs="+", choices=["13clues", "mansion"],
                        default=["13clues", "mansion"],
                        help="the games of the tables, in turn (default: both, half each)")
    parser.add_argument("--harness-nice", type=int, default=HARNESS_NICE, metavar="N",
                        help="this process's niceness while it measures, so that it yields "
                             f"the cores to the bot (default {HARNESS_NICE}; 0: as an equal)")
    parser.add_argument("--entry", default="bench.probe:main",
                        help="the bot's entry point (module:function), e.g. a probe around it")
    args = parser.parse_args(argv)
    pace_think, pace_ramp = PACES[args.pace]
    args.think = args.think or list(pace_think)
    ramp = args.ramp if args.ramp is not None else min(pace_ramp, args.seconds / 4)
    print(f"bench.load: {os.cpu_count()} CPUs, {args.seconds:.0f}s per N, AI delay "
          f"{args.ai_delay}s, pace {args.pace}: members think {args.think[0]:g}–"
          f"{args.think[1]:g}s, tables opened over {ramp:g}s: "
          f"{' and '.join(args.games)} in turn\n")
    failed = False
    for n in args.tables:
        profile = args.profile if args.profile is not None and n == max(args.tables) else None
        result = asyncio.run(run(n, args.seconds, args.ai_delay, args.seed, profile, args.entry,
                                 tuple(args.think), tuple(args.games), ramp=ramp,
                                 harness_nice=args.harness_nice))
        print(result.report(), flush=True)
        if profile is not None:
            print(summarize_profile(profile / f"load-{n}.txt"))
        failed |= bool(result.unanswered or result.bot_errors)
        print()
    if not args.no_side:
        from bench import side

        side.main([])
    return 1 if failed else 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(main())

