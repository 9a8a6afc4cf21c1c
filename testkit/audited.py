"""What both secrecy audits share (testkit/secrecy.py for 13 Clues, mansion_audit.py for
the Mansion): tables of one game played through the real table service and SQLite outbox,
members' seats by the AI through `TableService.act` (with the reply a click gets), AI seats
through their stored timers (`TableService.on_timer`), and every change's stored letters
read back from the outbox and handed to the game's `check`.
"""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Self, TypeVar

from bot import sitting
from bot.archive import ArchiveError, Replay, record_of, transcript
from bot.errors import UserError
from bot.history import PAGE
from bot.messages import Outgoing
from bot.models import Letter, Table
from bot.plug import AnyGame
from bot.replay import Looker, finished_game
from bot.reviews import TITLE
from bot.storage import SqliteStorage
from bot.tables import Place, Reply, TableService
from bot.watching import toggle
from testkit.once import Reviewing, reviews_once
from testkit.standin import Message


@dataclass
class Tally:
    """What every audit counts."""

    games: int = 0
    finished: int = 0
    letters: int = 0
    checked: Counter[str] = field(default_factory=Counter)
    """Letters checked, by kind (channel, dm, reply, the lists skipped by design, end)."""
    delivered: Counter[str] = field(default_factory=Counter)
    """Private items found at their owner, by kind."""
    leaks: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Private items that did not reach their owner, and tables that did not play out."""

    @staticmethod
    def counts(counter: Counter[str]) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(counter.items()))

    def assert_clean(self, games: int) -> None:
        """Every game played out, no leak, nothing private missing, and every audit's rooms
        were read: the channel, DMs, replies, the archive (a game in play: no history,
        replay, download), a spectator (who reads what the channel reads) and then the AI
        seat they sit in (checked as that seat's, live and replayed), the end's reviews."""
        assert self.games == games and self.finished == games, self.missing
        assert self.leaks == []
        assert self.missing == []
        for kind in ("channel", "dm", "reply", "archive", "spectator", "sat", "sat replayed",
                     "review"):
            assert self.checked[kind] > 0, (kind, self.checked)
        assert self.delivered["review"] > 0


T = TypeVar("T", bound=Tally)


def as_message(body: Outgoing) -> Message:
    """A stored body as the stand-in would show it (its text, custom_ids, components)."""
    return Message(id=0, channel_id=0, guild_id=None, author_id=0, content=body.content or "",
                   embeds=body.embeds, components=body.components)


def is_review(body: Outgoing) -> bool:
    return any(e.get("title") == TITLE for e in body.embeds)


class AuditedPlay(Generic[T]):
    """Plays tables of `GAME` on one SQLite file; a game's audit says what a table looks like
    (`players`, `options`) and checks what each change stored (`check`)."""

    GAME: ClassVar[AnyGame]
    PLAYERS: ClassVar[tuple[int, ...]]
    """Seat counts to draw from."""
    NUMBERS: ClassVar[int]
    """Channel ids start at this, member ids at ten times it (apart for each game)."""
    MAX_STEPS: ClassVar[int]
    """Moves per table before the audit calls it stuck (a failure, not a timeout)."""
    REVIEWING: ClassVar[Reviewing]
    """The game's `bot.<game>.reviewing`: while the audit plays, each review is worked out
    once for the bot and the check of what it sent (`testkit.once.reviews_once`)."""

    def __init__(self, path: Path, seed: int, audit: T) -> None:
        self.path = path
        self.audit = audit
        self.rng = random.Random(seed)
        self.storage = SqliteStorage(path)
        self.service = TableService(self.storage, {self.GAME.key: self.GAME}, ai_delay=0.0,
                                    seed=lambda: self.rng.randrange(2**62))
        self._reader: sqlite3.Connection | None = None
        self._open = ExitStack()
        self._interactions = itertools.count(1)
        self._replies: dict[int, int] = {}
        """interaction id → the member it answers."""
        self.watchers: set[int] = set()
        """Members watching the tables without a seat: they may read what the channel reads."""
        self.watcher_sat = False
        """This table's watcher took over an AI seat (`sit`) during the game."""

    async def __aenter__(self) -> Self:
        await self.storage.open()
        self._open.enter_context(reviews_once(self.REVIEWING))
        return self.reading()

    async def __aexit__(self, *exc: object) -> None:
        self._open.close()
        self.close()
        await self.storage.close()

    def reading(self) -> Self:
        """Read the outbox of the database at `path`: this audit's own tables, or those a
        running bot writes (the conformance suite, tests/games, audits them so)."""
        self._reader = sqlite3.connect(self.path)
        return self

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()

    # -- what a game's audit says ----------------------------------------------------------

    def options(self) -> dict[str, Any]:
        raise NotImplementedError

    def begin(self) -> None:
        """A new table starts (forget what the last one taught)."""

    def check(self, state: Any, events: list[Any], mark: int) -> None:
        """Every letter stored by the change that led to `state` (through `events`)."""
        raise NotImplementedError

    # -- reading the outbox ----------------------------------------------------------------

    def reply(self, user: int, text: str) -> Reply:
        iid = next(self._interactions)
        self._replies[iid] = user
        return Reply(iid, f"token-{iid}", Outgoing(content=text))

    def to_watcher(self, letter: Letter) -> bool:
        """A DM to a member watching the table: checked as the channel's letters are."""
        if letter.kind == "u" and letter.address in self.watchers:
            self.audit.checked["spectator"] += 1
            return True
        return False

    def reader_of(self, letter: Letter) -> int | None:
        """The member a DM or an interaction's answer goes to (None: a channel)."""
        return letter.address if letter.kind == "u" else self._replies.get(letter.address)

    def watermark(self) -> int:
        assert self._reader is not None
        return int(self._reader.execute("SELECT COALESCE(MAX(id), 0) FROM outbox").fetchone()[0])

    def check_review(self, ended: bool, own: Outgoing | None, body: Outgoing, seat: int,
                     where: str) -> None:
        """A review goes out with the end of the game only (`ended`: this change ended it),
        and it is the reader's own (`own`: the one rendered for its seat)."""
        self.audit.checked["review"] += 1
        if not ended:
            self.audit.leaks.append(f"review to {where} before the end of the game")
        elif own is None or own.embeds != body.embeds:
            self.audit.leaks.append(f"review to {where} is not the review of seat {seat}")

    def reviews_owed(self, owed: set[int], got: dict[int, list[str]]) -> None:
        """Each member owed a review at the end gets exactly one."""
        for seat in owed:
            count = sum(TITLE in text for text in got.get(seat, []))
            if count == 1:
                self.audit.delivered["review"] += 1
            else:
                self.audit.missing.append(f"{count} reviews to seat {seat}")

    def stored_since(self, mark: int) -> list[Letter]:
        assert self._reader is not None
        rows = self._reader.execute(
            "SELECT letter FROM outbox WHERE id > ? ORDER BY id", (mark,)
        ).fetchall()
        return [Letter.model_validate_json(r[0]) for r in rows]

    def last_events(self, table_id: int) -> list[Any]:
        """The events of the table's last stored change."""
        return self.GAME.load_events(self._last_events(table_id))

    def _last_events(self, table_id: int) -> str:
        assert self._reader is not None
        row = self._reader.execute(
            "SELECT events FROM actions WHERE table_id = ? ORDER BY version DESC LIMIT 1",
            (table_id,),
        ).fetchone()
        return str(row[0])

    # -- what a game in play must not show ---------------------------------------------------

    async def archive_closed(self, table: Table) -> None:
        """A game in play is neither listed by the history (the newest game of its server,
        it would be on the first page) nor replayed or downloaded, by its number or as its
        channel's last game."""
        listed = await self.storage.finished_tables(table.guild_id, limit=PAGE)
        if any(t.id == table.id or t.status != "over" for t in listed):
            self.audit.leaks.append(f"history: table {table.id} listed while in play")
        for asked in (table.id, None):
            try:
                looker = Looker(0, table.guild_id, table.channel_id, everywhere=True)
                await finished_game(self.service, looker, table.game, asked)
            except UserError:
                continue
            self.audit.leaks.append(f"replay: table {table.id} shown while in play ({asked})")
        try:
            record_of(self.GAME, table, [])
        except ArchiveError:
            self.audit.checked["archive"] += 1
        else:
            self.audit.leaks.append(f"export: table {table.id} recorded while in play")

    # -- one table -------------------------------------------------------------------------

    async def game(self, number: int) -> None:
        rng, game = self.rng, self.GAME
        players = rng.choice(self.PLAYERS)
        members = rng.randint(1, players)
        options = self.options()
        guild, channel = 1 + number % 7, self.NUMBERS + number
        users = [self.NUMBERS * 10 + number * 10 + k for k in range(members)]
        host = users[0]
        self.begin()
        table = await self.service.open(guild, channel, game.key, host, "M0", options,
                                        reply=self.reply(host, "Table open."))
        for k, user in enumerate(users[1:], start=1):
            await self.service.join(table.id, user, f"M{k}", reply=self.reply(user, "Seated."))
        watcher = users[0] + 9  # never seated: members are users[0] + k for k < 6
        self.watchers.add(watcher)
        await toggle(self.service, table.id, watcher, Place(guild, channel), "en")
        ai = players - members
        if ai:
            level = rng.choice(("easy", "normal", "normal", "expert"))
            await self.service.add_ai(table.id, host, ai, level)
        self.audit.games += 1
        mark = self.watermark()
        applied = await self.service.start(table.id, host, reply=self.reply(host, "Started."))
        self.check(applied.state, applied.events, mark)
        sit_at = rng.randrange(1, 30) if ai else -1
        for step in range(self.MAX_STEPS):
            stored = await self.storage.table(table.id)
            assert stored is not None
            if stored.status != "playing":
                break
            await self.archive_closed(stored)
            if step == sit_at:
                await self.sit(stored, host, watcher)
                continue
            state = game.load(stored.state or "")
            seat = rng.choice(game.waiting_on(state))
            ref = stored.seats[seat]
            mark = self.watermark()
            if ref.human is not None:
                member = ref.human
                level = rng.choice(("easy", "normal"))

                def build(st: Any, s: int, level: str = level) -> Any:
                    return game.ai_action(st, s, level, random.Random(rng.random()))

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
            events = self.last_events(table.id)
            self.check(game.load(after.state), events, mark)
        else:
            self.audit.missing.append(
                f"table {table.id}: still playing after {self.MAX_STEPS} moves")
            return
        self.audit.finished += 1
        if self.watcher_sat:
            await self.replays_with_a_seat_taken(table.id)

    async def sit(self, table: Table, host: int, watcher: int) -> None:
        """The watcher takes over an AI seat mid-game, as `/… sit` does: a request, maybe
        declined first, then agreed by the host. From then on their letters are the seat's
        (the audit's `check` reads a DM's seat from the engine's ids), and the welcome DM
        with the seat's secrets is checked like any."""
        place = Place(table.guild_id, table.channel_id)
        name = table.seats[self.rng.choice(sitting.ai_seats(table))].name
        for agree in ([False, True] if self.rng.random() < 0.5 else [True]):
            mark = self.watermark()
            await sitting.sit(self.service, table.id, watcher, "W", name, place, "en")
            await sitting.answer(self.service, table.id, host, watcher, agree, place,
                                 self.reply(host, "…"))
            if agree:
                self.watchers.discard(watcher)
            after = await self.storage.table(table.id)
            assert after is not None
            self.check(self.GAME.load(after.state or ""), [], mark)
        self.audit.checked["sat"] += 1
        self.watcher_sat = True

    async def replays_with_a_seat_taken(self, table_id: int) -> None:
        """A finished game with a seat taken over plays again to its stored end."""
        self.watcher_sat = False
        table = await self.storage.table(table_id)
        assert table is not None
        try:
            record = record_of(self.GAME, table, await self.storage.action_log(table_id))
            Replay(self.GAME, record)
            read = transcript(self.GAME, record, "en")
        except ArchiveError as exc:
            self.audit.missing.append(f"table {table_id}: a seat taken over, no replay: {exc}")
            return
        if "takes over" not in read:
            self.audit.missing.append(f"table {table_id}: the transcript omits the seat taken")
        self.audit.checked["sat replayed"] += 1
