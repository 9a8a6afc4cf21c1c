"""The secrecy audit of what the bot SENDS, for Clue: Mystery Beyond the Mansion: AI-played
tables (standard and One Against All, single games and series) through the real table
service, rendering and SQLite outbox, every stored letter checked for its recipient.

As in tests/shell/secrecy.py (13 Clues), members' seats are played by the AI through
`TableService.act` (with the reply a click gets) and AI seats through their stored timers
(`TableService.on_timer`); every letter a change stored is read back from the outbox. The
line rules are the e2e scan's (tests/e2e/mansion_secrecy.py). Checked, for every letter
stored before the change that ends the table:

- to a channel: no select, no private phrase ("showed you", "Your Clue cards", ...), no
  Private Tip's question unless the card burned face up, and a card named only on a line
  the rules make public (markers, suggestions, swaps, a right accusation, the reveal of a
  finished game of a series);
- to a member (a DM or the reply to their interaction): every card named on a line that is
  not public is one this member may know at that moment: their own hands of every game so
  far, cards shown to them or by them, cards they snooped, tips they gave or received, the
  solution they chose (the fugitive) or saw when accusing, their own guesses; a Private
  Tip's question only if it is in their Action hand or they are one of its two players.
  Pickers and the notes grid list every card by design and are counted apart;

and every private item reaches its owner in the change that made it: their dealt Clue hand,
a card shown to them (a suggestion or a Super Sleuth), a card they snooped, the answer to a
Private Tip (both players), the solution an accuser saw, the solution a fugitive chose.
"""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.mansion.game import GAME
from bot.messages import Outgoing
from bot.models import Letter
from bot.storage import SqliteStorage
from bot.tables import Reply, TableService
from engine.mansion import GameState
from engine.mansion.events import (
    AccusationMade,
    ActionDrawn,
    CardShown,
    HandDealt,
    SnoopedCard,
    SolutionChosen,
    TipAnswered,
)
from engine.mansion.records import Tipped
from tests.e2e.mansion_drive import named
from tests.e2e.mansion_secrecy import (
    BURNED,
    PRIVATE_PHRASES,
    TIP_ASKS,
    is_picker,
    knowable,
    lines,
    public_card_line,
    revealed,
)
from tests.standin import Message

MAX_STEPS = 1500
"""Moves per table before the audit calls it stuck (a failure, not a timeout)."""


@dataclass
class MansionAudit:
    games: int = 0
    finished: int = 0
    letters: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    """Letters checked, by kind: channel, dm, reply, pickers (skipped by design), end."""
    lines: int = 0
    """Card-naming lines checked."""
    delivered: Counter[str] = field(default_factory=Counter)
    """Private items found at their owner: dealt, shown, snooped, tip, accusation, chosen."""
    leaks: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def report(self) -> str:
        return (
            f"games {self.games} (finished {self.finished}); letters checked {self.letters} "
            f"({', '.join(f'{k} {v}' for k, v in sorted(self.checked.items()))}); card-naming "
            f"lines {self.lines}; private items delivered "
            f"({', '.join(f'{k} {v}' for k, v in sorted(self.delivered.items()))}); leaks "
            f"{len(self.leaks)}; private items missing {len(self.missing)}"
        )


def as_message(body: Outgoing) -> Message:
    return Message(id=0, channel_id=0, guild_id=None, author_id=0, content=body.content or "",
                   embeds=body.embeds, components=body.components)


class MansionAuditor:
    """Plays and audits Mansion tables on one SQLite file."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path = path
        self.rng = random.Random(seed)
        self.storage = SqliteStorage(path)
        self.service = TableService(self.storage, {GAME.key: GAME}, ai_delay=0.0,
                                    seed=lambda: self.rng.randrange(2**62))
        self.audit = MansionAudit()
        self._reader: sqlite3.Connection | None = None
        self._interactions = itertools.count(1)
        self._replies: dict[int, int] = {}
        """interaction id → the member it answers."""
        self._tips: dict[int, set[str]] = {}
        """seat → the Private Tip questions it may read (its Action cards, dealt or drawn)."""

    async def __aenter__(self) -> MansionAuditor:
        await self.storage.open()
        self._reader = sqlite3.connect(self.path)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._reader is not None:
            self._reader.close()
        await self.storage.close()

    def reply(self, user: int, text: str) -> Reply:
        iid = next(self._interactions)
        self._replies[iid] = user
        return Reply(iid, f"token-{iid}", Outgoing(content=text))

    def watermark(self) -> int:
        assert self._reader is not None
        return int(self._reader.execute("SELECT COALESCE(MAX(id), 0) FROM outbox").fetchone()[0])

    def stored_since(self, mark: int) -> list[Letter]:
        assert self._reader is not None
        rows = self._reader.execute(
            "SELECT letter FROM outbox WHERE id > ? ORDER BY id", (mark,)
        ).fetchall()
        return [Letter.model_validate_json(r[0]) for r in rows]

    def _last_events(self, table_id: int) -> str:
        assert self._reader is not None
        row = self._reader.execute(
            "SELECT events FROM actions WHERE table_id = ? ORDER BY version DESC LIMIT 1",
            (table_id,),
        ).fetchone()
        return str(row[0])

    # -- one table -------------------------------------------------------------------------

    async def game(self, number: int) -> None:
        rng = self.rng
        players = rng.choice((3, 4, 4, 5))
        members = rng.randint(1, players)
        options = {
            "variant": "one-against-all" if rng.random() < 0.3 else "standard",
            "series": 1 if rng.random() < 0.8 else 2,
            "assist": rng.choice(("off", "bookkeeping", "full")),
        }
        guild, channel = 1 + number % 7, 20_000 + number
        users = [200_000 + number * 10 + k for k in range(members)]
        host = users[0]
        self._tips = {}
        table = await self.service.open(guild, channel, GAME.key, host, "M0", options,
                                        reply=self.reply(host, "Table open."))
        for k, user in enumerate(users[1:], start=1):
            await self.service.join(table.id, user, f"M{k}", reply=self.reply(user, "Seated."))
        ai = players - members
        if ai:
            level = rng.choice(("easy", "normal", "normal", "expert"))
            await self.service.add_ai(table.id, host, ai, level)
        self.audit.games += 1
        mark = self.watermark()
        applied = await self.service.start(table.id, host, reply=self.reply(host, "Started."))
        self.check(applied.state, applied.events, mark)
        for _ in range(MAX_STEPS):
            stored = await self.storage.table(table.id)
            assert stored is not None
            if stored.status != "playing":
                break
            state = GAME.load(stored.state or "")
            seat = rng.choice(GAME.waiting_on(state))
            ref = stored.seats[seat]
            mark = self.watermark()
            if ref.human is not None:
                member = ref.human
                level = rng.choice(("easy", "normal"))

                def build(st: GameState, s: int, level: str = level) -> Any:
                    return GAME.ai_action(st, s, level, random.Random(rng.random()))

                applied = await self.service.act(table.id, member, build,
                                                 reply=self.reply(member, "✅ Done."))
                self.check(applied.state, applied.events, mark)
                continue
            timer = next((t for t in await self.storage.timers(table.id)
                          if t.kind == "ai" and t.seat == seat), None)
            if timer is None:
                self.audit.missing.append(f"table {table.id}: no AI timer for seat {seat}")
                return
            await self.service.on_timer(timer)
            after = await self.storage.table(table.id)
            assert after is not None and after.state is not None
            if after.version == stored.version:
                continue  # a stale timer, dropped: nothing was said
            events = GAME.load_events(self._last_events(table.id))
            self.check(GAME.load(after.state), events, mark)
        else:
            self.audit.missing.append(f"table {table.id}: still playing after {MAX_STEPS} moves")
            return
        self.audit.finished += 1

    # -- the checks ------------------------------------------------------------------------

    def check(self, state: GameState, events: list[Any], mark: int) -> None:
        """Every letter stored by the change that led to `state` (through `events`)."""
        for event in events:
            if isinstance(event, HandDealt):
                self._tips.setdefault(event.seat, set()).update(
                    TIP_ASKS[c] for c in event.actions if c in TIP_ASKS)
            elif isinstance(event, ActionDrawn) and event.card in TIP_ASKS:
                self._tips.setdefault(event.seat, set()).add(TIP_ASKS[event.card])
        letters = self.stored_since(mark)
        seats = {s.id: i for i, s in enumerate(state.seats)}
        over = state.phase == "over"
        may_know = knowable(state)
        may_read = {seat: set(asks) for seat, asks in self._tips.items()}
        for game in [*state.rounds, state]:
            for record in game.log:
                if isinstance(record, Tipped):
                    for seat in (record.seat, record.target):
                        may_read.setdefault(seat, set()).add(TIP_ASKS[record.card])
        got: dict[int, list[str]] = {}
        for letter in letters:
            self.audit.letters += 1
            msg = as_message(letter.body)
            if letter.kind == "c":
                if over:
                    self.audit.checked["end"] += 1
                    continue
                self.audit.checked["channel"] += 1
                self.channel(letter, msg)
                continue
            user = letter.address if letter.kind == "u" else self._replies.get(letter.address)
            if user is None or f"u{user}" not in seats:
                continue  # a lobby reply: no game yet
            seat = seats[f"u{user}"]
            got.setdefault(seat, []).append(msg.text)
            if over:
                self.audit.checked["end"] += 1
                continue
            if is_picker(msg):
                self.audit.checked["pickers"] += 1
                continue
            self.audit.checked["dm" if letter.kind == "u" else "reply"] += 1
            for where, line in lines(msg):
                for ask in TIP_ASKS.values():
                    if ask in line and ask not in may_read.get(seat, set()) and BURNED not in line:
                        self.audit.leaks.append(f"{letter.kind}:{user} read a tip: {line!r}")
                cards = named(line)
                if not cards or public_card_line(where, line) or revealed(msg, line):
                    continue
                self.audit.lines += 1
                leaked = cards - may_know[seat]
                if leaked:
                    self.audit.leaks.append(
                        f"{letter.kind}:{user} (seat {seat}) shown {sorted(leaked)}: {line!r}")
        if over:
            return
        self.owed(state, events, got)

    def channel(self, letter: Letter, msg: Message) -> None:
        if msg.selects:
            self.audit.leaks.append(f"channel {letter.address}: a select {msg.custom_ids}")
        for where, line in lines(msg):
            if any(p in line for p in PRIVATE_PHRASES):
                self.audit.leaks.append(f"channel {letter.address}: private line {line!r}")
            if any(ask in line for ask in TIP_ASKS.values()) and BURNED not in line:
                self.audit.leaks.append(f"channel {letter.address}: tip text {line!r}")
            cards = named(line)
            if not cards:
                continue
            self.audit.lines += 1
            if revealed(msg, line) or public_card_line(where, line):
                continue
            self.audit.leaks.append(f"channel {letter.address}: card named {line!r}")

    def owed(self, state: GameState, events: list[Any], got: dict[int, list[str]]) -> None:
        """The private items of these events, each at its owner if the owner is a member."""
        members = {i for i, s in enumerate(state.seats) if s.id.startswith("u")}

        def names(seat: int) -> set[str]:
            return {c for text in got.get(seat, []) for c in named(text)}

        def owe(kind: str, seat: int, cards: set[str], what: str) -> None:
            if seat not in members:
                return
            if cards <= names(seat):
                self.audit.delivered[kind] += 1
            else:
                self.audit.missing.append(f"{what} to seat {seat}: {sorted(cards)}")

        for event in events:
            if event.audience.scope != "private":
                continue
            if isinstance(event, HandDealt):
                owe("dealt", event.seat, set(event.clues), "dealt hand")
            elif isinstance(event, CardShown):
                owe("shown", event.to, {event.card}, "card shown")
            elif isinstance(event, SnoopedCard):
                owe("snooped", event.seat, {event.card}, "snooped card")
            elif isinstance(event, TipAnswered) and event.cards is not None:
                for seat in set(event.audience.seats):
                    owe("tip", seat, set(event.cards), "tip answer")
            elif isinstance(event, AccusationMade) and event.solution is not None:
                owe("accusation", event.seat, set(event.solution.cards()), "solution seen")
            elif isinstance(event, SolutionChosen) and event.solution is not None:
                owe("chosen", event.seat, set(event.solution.cards()), "solution chosen")


async def run_mansion_audit(path: Path, games: int, seed: int = 0) -> MansionAudit:
    async with MansionAuditor(path, seed) as auditor:
        for number in range(games):
            await auditor.game(number)
        return auditor.audit
