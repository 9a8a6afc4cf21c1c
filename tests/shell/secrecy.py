"""The secrecy audit of what the bot SENDS: AI-played 13 Clues games through the real table
service, rendering and SQLite outbox, every stored letter checked for its recipient.

Members' seats are played by the AI through `TableService.act` (as a click would, with the
reply a click gets); AI seats move through their stored timers (`TableService.on_timer`),
so every letter is rendered and stored by the production path and read back from the outbox
exactly as the sender would deliver it. Checked, for every letter stored before the change
that ends the game:

- to a channel: no card is named at all;
- to a member (a DM, or the reply to their interaction): no card is named that the member
  may not know at that moment: their own holder above all (the engine's `player_view`:
  their dealt five, their screen, the holders they see, the informant cards they read, and
  the cards they named themselves in an accusation). The casebook grid and the accusation
  picker list candidate cards by design and are counted apart;
- pictures attached to a letter carry no card of the recipient's own holder in their input
  (but for the cards they named themselves in a wrong accusation: the casebook's deduction
  needs them);

and every private item reaches its owner in the change that made it: their five dealt cards,
each informant card they consult, each Top Secret answer they ask or give.
"""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.messages import Outgoing
from bot.models import Letter
from bot.storage import SqliteStorage
from bot.tables import Reply, TableService
from bot.thirteen_clues.game import GAME
from engine.thirteen_clues import GameState, legal, player_view
from engine.thirteen_clues.events import CardsDealt, InformantCard, QuestionAnswered
from tests.e2e.play import named_cards
from tests.standin import Message

MAX_STEPS = 800
"""Moves per game before the audit calls the game stuck (a failure, not a timeout)."""
CANDIDATE_LISTS = ("accp", "accl", "accw", "accgo", "mark")


@dataclass
class Audit:
    games: int = 0
    finished: int = 0
    letters: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    """Letters checked, by kind: channel, dm, reply, candidates (skipped by design), end."""
    delivered: Counter[str] = field(default_factory=Counter)
    """Private items found at their owner: dealt, informant, top_secret."""
    leaks: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Private items that did not reach their owner."""
    echoes: int = 0
    """Letters naming a member's own holder card only because they accused it themselves."""

    def report(self) -> str:
        return (
            f"games {self.games} (finished {self.finished}); letters checked {self.letters} "
            f"({', '.join(f'{k} {v}' for k, v in sorted(self.checked.items()))}); private items "
            f"delivered ({', '.join(f'{k} {v}' for k, v in sorted(self.delivered.items()))}); "
            f"own accusations echoed {self.echoes}; leaks {len(self.leaks)}; private items "
            f"missing {len(self.missing)}"
        )


def letter_text(body: Outgoing) -> str:
    """Everything a recipient reads in a message: as the stand-in reads it, plus the
    descriptions of select options."""
    msg = Message(id=0, channel_id=0, guild_id=None, author_id=0, content=body.content or "",
                  embeds=body.embeds, components=body.components)
    extra = [str(o.get("description", "")) for comp in msg.iter_components()
             for o in comp.get("options", []) if o.get("description")]
    return "\n".join([msg.text, *extra])


def lists_candidates(body: Outgoing) -> bool:
    msg = Message(id=0, channel_id=0, guild_id=None, author_id=0, content=body.content or "",
                  embeds=body.embeds, components=body.components)
    if any(c.split(":")[1] in CANDIDATE_LISTS for c in msg.custom_ids if ":" in c):
        return True
    return any("casebook" in str(e.get("title") or "").lower() for e in body.embeds)


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


class Auditor:
    """Plays and audits games on one SQLite file."""

    def __init__(self, path: Path, seed: int) -> None:
        self.path = path
        self.rng = random.Random(seed)
        self.storage = SqliteStorage(path)
        self.service = TableService(self.storage, {GAME.key: GAME}, ai_delay=0.0,
                                    seed=lambda: self.rng.randrange(2**62))
        self.audit = Audit()
        self._reader: sqlite3.Connection | None = None
        self._interactions = itertools.count(1)
        self._replies: dict[int, int] = {}
        """interaction id → the member it answers."""

    async def __aenter__(self) -> Auditor:
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

    # -- one game --------------------------------------------------------------------------

    async def game(self, number: int) -> None:
        rng = self.rng
        players = rng.choice((2, 3, 3, 4, 4, 5, 6))
        members = rng.randint(1, players)
        options = {
            "edition": rng.choice(("2020", "2016")),
            "top_secret": rng.random() < 0.5,
            "assist": rng.choice(("off", "bookkeeping", "full")),
        }
        guild, channel = 1 + number % 7, 10_000 + number
        users = [100_000 + number * 10 + k for k in range(members)]
        host = users[0]
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
            seat = rng.choice(legal.waiting_on(state))
            ref = stored.seats[seat]
            mark = self.watermark()
            if ref.human is not None:
                member = ref.human
                level = rng.choice(("easy", "normal"))

                def build(st: GameState, s: int, level: str = level) -> Any:
                    return GAME.ai_action(st, s, level, random.Random(rng.random()))

                applied = await self.service.act(table.id, member, build,
                                                 reply=self.reply(member, "✅ Done."))
            else:
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
                continue
            self.check(applied.state, applied.events, mark)
        else:
            self.audit.missing.append(f"table {table.id}: still playing after {MAX_STEPS} moves")
            return
        self.audit.finished += 1

    def _last_events(self, table_id: int) -> str:
        assert self._reader is not None
        row = self._reader.execute(
            "SELECT events FROM actions WHERE table_id = ? ORDER BY version DESC LIMIT 1",
            (table_id,),
        ).fetchone()
        return str(row[0])

    # -- the checks ------------------------------------------------------------------------

    def check(self, state: GameState, events: list[Any], mark: int) -> None:
        """Every letter stored by the change that led to `state` (through `events`)."""
        letters = self.stored_since(mark)
        seats = {s.id: i for i, s in enumerate(state.seats)}
        over = state.phase == "over"
        got: dict[int, list[str]] = {}
        for letter in letters:
            self.audit.letters += 1
            text = letter_text(letter.body)
            if letter.kind == "c":
                if over:
                    self.audit.checked["end"] += 1
                    continue
                self.audit.checked["channel"] += 1
                if named_cards(text):
                    self.audit.leaks.append(f"channel {letter.address}: {text[:200]}")
                continue
            user = letter.address if letter.kind == "u" else self._replies.get(letter.address)
            if user is None or f"u{user}" not in seats:
                continue  # a lobby reply: no game yet
            seat = seats[f"u{user}"]
            got.setdefault(seat, []).append(text)
            if over:
                self.audit.checked["end"] += 1
                continue
            view = player_view(state, seat)
            accused = {c for a in view.my_accusations for c in a.cards}
            own = set(state.seats[seat].holder) - accused  # named by the seat itself
            pictures = {v for p in letter.body.pictures for v in _strings(p.data)}
            if pictures & own:
                self.audit.leaks.append(f"picture to {user}: holds own card(s) {pictures & own}")
            if lists_candidates(letter.body):
                self.audit.checked["candidates"] += 1
                continue
            self.audit.checked["dm" if letter.kind == "u" else "reply"] += 1
            allowed = view.known() | set(view.dealt) | accused
            named = named_cards(text)
            if named - allowed:
                what = "own holder" if named & own - accused else "not theirs to know"
                self.audit.leaks.append(
                    f"{letter.kind}:{user} ({what}: {sorted(named - allowed)}): {text[:200]}"
                )
            elif named & own:
                self.audit.echoes += 1
        if over:
            return
        self.owed(state, events, got, seats)

    def owed(self, state: GameState, events: list[Any], got: dict[int, list[str]],
             seats: dict[str, int]) -> None:
        """The private items of these events, each at its owner if the owner is a member."""
        members = {i for i, s in enumerate(state.seats) if s.id.startswith("u")}

        def at(seat: int, *needles: str) -> bool:
            return any(all(n in text for n in needles) for text in got.get(seat, []))

        for event in events:
            if isinstance(event, CardsDealt) and event.seat in members:
                names = {c for text in got.get(event.seat, []) for c in named_cards(text)}
                if set(event.cards) <= names:
                    self.audit.delivered["dealt"] += 1
                else:
                    self.audit.missing.append(f"dealt cards of seat {event.seat}")
            elif isinstance(event, InformantCard) and event.seat in members:
                if any(event.card in named_cards(t) for t in got.get(event.seat, [])):
                    self.audit.delivered["informant"] += 1
                else:
                    self.audit.missing.append(f"informant {event.letter} of seat {event.seat}")
            elif isinstance(event, QuestionAnswered) and event.top_secret:
                for seat in {event.asker, event.witness} & members:
                    if at(seat, "Top Secret", f"**{event.answer}**"):
                        self.audit.delivered["top_secret"] += 1
                    else:
                        self.audit.missing.append(f"Top Secret answer to seat {seat}")


async def run_audit(path: Path, games: int, seed: int = 0) -> Audit:
    async with Auditor(path, seed) as auditor:
        for number in range(games):
            await auditor.game(number)
        return auditor.audit
