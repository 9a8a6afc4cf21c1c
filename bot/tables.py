"""The table service: the only writer of game state.

Every change follows one path: per-table lock → load the latest row → check → engine apply →
render what it owes (letters to the channel, DMs, the answer to the member) → store the new
state, the action log, those letters and the moved timers in ONE transaction → let the outbox
sender deliver. A kill at any point leaves either nothing or everything of a change stored,
and whatever was stored is delivered (once) by whichever process runs next.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import secrets
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from bot import languages, news, reasons, spectators
from bot.errors import UserError
from bot.i18n import N_, SOURCE, Command, tr
from bot.languages import Languages
from bot.messages import Outgoing
from bot.models import ON_ITS_WAY, Letter, SeatRef, Table, Timer, TimerSpec, player_id
from bot.plug import AnyGame, Built, Rendered, TableSettings, settings_of
from bot.storage import Change, Committed, LogEntry, StaleVersion, Storage, TimerPlan
from bot.urgency import urgent_meanwhile
from engine.errors import RuleError

log = logging.getLogger(__name__)

AI_NAMES = ("Holmes", "Poirot", "Marple", "Dupin", "Wolfe", "Vance", "Brown", "Queen")

STALE = N_("That button is out of date: the table has moved on since. Use the latest table "
           "message.")
LEFT_SERVER = N_("🤖 {name} left the server: an AI ({level}) plays their seat from now on.")
LEFT_TABLE = N_("🤖 {name} left the table: an AI ({level}) plays their seat from now on.")
RACES = 3
"""Times a timer is handled at once when other processes' changes keep moving its table;
past them the dispatcher retries it with back-off."""
CLOSING = N_("The bot is restarting right now: nothing was changed. Please try again in a "
             "moment.")


@dataclass
class Reply:
    """Where a member hears that their change was stored: their interaction's original
    response, edited by the outbox (so a crash after the commit still answers them)."""

    interaction_id: int
    token: str
    body: Outgoing
    stored: bool = False
    """Set once the change carrying this answer is stored: from then on it is owed."""
    vanish: bool = False
    """The answer is the news itself: the original response (a picker, "thinking…") is
    deleted instead of edited, and leaves nothing behind."""
    lang: str = SOURCE
    """The member's language (their answer's words the outbox adds, `Letter.pending`)."""
    then: Rendered | None = None
    """Renders the answer from the change's result (the new engine state and its events),
    for answers that depend on what happened: a panel that moves on to the next step."""
    tells: int | None = None
    """The seat whose private news (and next prompt) this answer shows: its DM about this
    change would say it twice, so it is not sent (one request less per member's step)."""

    def letter(self, follows: int) -> Letter:
        if self.vanish:
            return Letter.unsay(self.interaction_id, self.token, follows=follows)
        return Letter.reply(self.interaction_id, self.token, self.body, follows=follows,
                            pending=tr(self.lang, ON_ITS_WAY))

    def settle(self, state: BaseModel, events: Sequence[object]) -> None:
        """Render the answer from the result, if it depends on it (before it is stored)."""
        if self.then is not None:
            self.body = self.then(state, events)


@dataclass(frozen=True)
class Place:
    """Where a click or command came from: a table only answers in its own server and, for
    channel components and commands, its own channel (a DM has no guild)."""

    guild_id: int | None
    channel_id: int | None


@dataclass
class Applied:
    table: Table
    state: BaseModel
    events: list[object]
    letters: tuple[int, ...]


class TableService:
    def __init__(
        self,
        storage: Storage,
        games: Mapping[str, AnyGame],
        *,
        ai_delay: float = 1.5,
        minute_seconds: float = 60.0,
        seed: Callable[[], int] = lambda: secrets.randbits(63),
        on_commit: Callable[[Sequence[Letter], float | None], None] = lambda letters, armed: None,
        lobby_idle: float = 600.0,
        thinker: Executor | None = None,
    ) -> None:
        self.storage = storage
        self.games = games
        self.languages = Languages(storage)
        """Who reads which language: each member's DMs are rendered in theirs."""
        self.ai_delay = ai_delay
        self.minute_seconds = minute_seconds
        """The length of a turn-timer minute (tests shorten it)."""
        self.seed = seed
        self.on_commit = on_commit
        """Wakes the outbox sender after each stored change, with the letters it owes when it
        knows them (the sender may hurry their destinations), and tells the timer dispatcher
        when the earliest timer it armed falls due (None: it armed none; 0: not known here),
        so that it looks again only if that is before its next look (`TimerDispatcher.armed`)."""
        self.lobby_idle = lobby_idle
        """Seconds after which a quiet lobby may be started or ended by any seated member."""
        self.thinker = thinker
        """Where AI detectives think (a process pool: an expert's tens of milliseconds of
        pure Python would otherwise hold up every other table's interactions); None: here."""
        self.closing = False
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._channel_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.working = 0
        """Slow letters being worked out apart from the event loop (the reviews at a game's
        end): the change they belong to is not stored yet (tests wait for it)."""
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    # start-up and shutdown ----------------------------------------------------------------

    async def resume(self) -> None:
        """After a start: every game in play gets the timers it needs, stale ones go."""
        for table in await self.storage.active_tables():
            if table.status == "playing" and table.state is not None and table.paused is None:
                async with self._locks[table.id]:
                    await self._reconcile_timers(table)

    async def quiesce(self, timeout: float) -> bool:
        """Refuse new changes and wait for those in flight; True if none is left."""
        self.closing = True
        try:
            async with asyncio.timeout(timeout):
                await self._idle.wait()
        except TimeoutError:
            return False
        return True

    @asynccontextmanager
    async def _operation(self, table_id: int) -> AsyncIterator[None]:
        """One change at a time per table; none starts once the bot is shutting down."""
        if self.closing:
            raise UserError(CLOSING)
        self._inflight += 1
        self._idle.clear()
        try:
            async with self._holding(table_id):
                yield
        finally:
            self._inflight -= 1
            if self._inflight == 0:
                self._idle.set()

    # lookups ------------------------------------------------------------------------------

    async def in_channel(
        self, channel_id: int, game: str | None = None, *, finished: bool = False
    ) -> Table:
        """The open table here; with `finished`, else the last game played here (to look at)."""
        if finished:
            table = await self.storage.last_game(channel_id)
            if table is not None and game is not None and table.game != game:
                # another game's table took the channel: this game's last one is looked at
                table = await self.storage.last_finished(channel_id, game) or table
        else:
            table = await self.storage.open_table(channel_id)
        if table is None or (game is not None and table.game != game):
            if not finished and (last := await self.storage.last_game(channel_id)) is not None \
                    and last.status == "over" and (game is None or last.game == game):
                raise self._over_here(last)
            if game is None:
                raise UserError("There is no table in this channel. Open one with `new`.")
            raise UserError("There is no {game} table in this channel. Open one with {command}.",
                            game=self.games[game].title,
                            command=Command((self.games[game].command, "new")))
        return table

    def _over_here(self, last: Table) -> UserError:
        """Why a game command after the end finds nothing to act on, and what to do instead."""
        module = self.games[last.game]
        state = module.load(last.state) if last.state is not None else None
        named = {"game": module.title, "new": Command((module.command, "new")),
                 "status": Command((module.command, "status")),
                 "log": Command((module.command, "log"))}
        if state is not None and module.is_over(state) and module.under_way(state):
            return UserError("The {game} game in this channel is over: press 🔁 **Rematch** on "
                             "its last table message to play again with the same seats, or open "
                             "a new table with {new}. {status} and {log} still show it.", **named)
        return UserError("The {game} game in this channel is over: open a new table with {new}. "
                         "{status} and {log} still show it.", **named)

    async def by_id(self, table_id: int, place: Place | None = None, *, recent: bool = False
                    ) -> Table:
        """`recent`: for what a click shows before it acts (`Storage.recent_table`)."""
        storage = self.storage
        table = await (storage.recent_table if recent else storage.table)(table_id)
        if table is None:
            raise UserError("That table no longer exists.")
        if place is not None:
            _check_place(table, place)
        return table

    async def open_here(self, channel_id: int, game: str) -> Table | None:
        """This channel's open table of that game, if any (for reads that work without)."""
        table = await self.storage.open_table(channel_id)
        return table if table is not None and table.game == game else None

    def module(self, table: Table) -> AnyGame:
        return self.games[table.game]

    def settings(self, table: Table) -> TableSettings:
        return settings_of(self.module(table), table)

    def state_of(self, table: Table) -> BaseModel:
        if table.state is None:
            raise UserError("The game has not started yet.")
        return self.module(table).load(table.state)

    async def notes(self, table: Table, seat: int) -> dict[str, Any]:
        return await self.storage.seat_notes(table.id, seat)

    @staticmethod
    def seat(table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        return seat

    # lobby --------------------------------------------------------------------------------

    def _may_host(self, table: Table, user_id: int) -> bool:
        """The host; or, once a lobby has been left alone a while, any member seated at it
        (an abandoned lobby can be started or closed without its host)."""
        if user_id == table.host_id:
            return True
        idle = table.status == "lobby" and time.time() - table.updated_at > self.lobby_idle
        return idle and any(s.human == user_id for s in table.seats)

    async def _store(self, change: Change) -> Committed:
        """Store a change; the sender and the timers then look at what it owes."""
        committed = await self.storage.commit(change)
        self.on_commit(change.letters, min((t.due for t in change.timers.add), default=None))
        return committed

    def _require_host(self, table: Table, user_id: int) -> None:
        if not self._may_host(table, user_id):
            minutes = round(self.lobby_idle / 60)
            if minutes == 1:
                raise UserError("Only the host can do that (or any seated member, once the "
                                "lobby has been quiet for 1 minute).")
            raise UserError("Only the host can do that (or any seated member, once the lobby "
                            "has been quiet for {minutes} minutes).", minutes=minutes)

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        host_name: str,
        given: Mapping[str, object],
        reply: Reply | None = None,
        place: str = "",
        language: str = SOURCE,
    ) -> Table:
        """A lobby here: the server's defaults, overridden by the options given to `new`;
        `language`, its channel's (`bot.languages`), is kept with them."""
        if self.closing:
            raise UserError(CLOSING)
        module = self.games[game]
        defaults = await self.storage.guild_settings(guild_id)
        try:
            settings = module.settings.merged(defaults, given)
        except ValidationError as exc:
            raise UserError("Those options do not fit: {why}.",
                            why=exc.errors()[0]["msg"]) from exc
        lobby = Table(
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            host_id=host_id,
            options={**settings.model_dump(mode="json"), languages.TABLE_LANGUAGE: language},
            seats=[SeatRef(name=host_name, user_id=host_id)],
            place=place,
        )

        def render(table: Table) -> Change:
            out = [Letter.post(channel_id, module.table_message(
                table, None, lang=languages.of(table)), living=True)]
            return Change(table, letters=out + ([reply.letter(len(out))] if reply else []))

        async with self._channel_locks[channel_id]:
            if await self.storage.open_table(channel_id) is not None:
                raise UserError(
                    "A table is already open in this channel: join it, or ask its host to "
                    "`end` it first."
                )
            try:
                committed = await self.storage.create_table(lobby, render)
            except StaleVersion as exc:  # another process opened one at the same moment
                raise UserError("A table is already open in this channel.") from exc
        _stored(reply)
        self.on_commit((), 0.0)
        return committed.table

    async def join(self, table_id: int, user_id: int, name: str, *, place: Place | None = None,
                   reply: Reply | None = None) -> Table:
        def change(table: Table) -> Table:
            _require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise UserError("You are already seated at this table.")
            if len(table.seats) >= self.module(table).max_players:
                raise UserError("This table is full.")
            return table.model_copy(
                update={"seats": [*table.seats, SeatRef(name=name, user_id=user_id)]}
            )

        return await self._change_lobby(table_id, change, place, reply)

    async def leave(self, table_id: int, user_id: int, *, place: Place | None = None,
                    reply: Reply | None = None) -> Table:
        """Before the start a seat is freed; during the game it is handed to an AI."""
        async with self._operation(table_id):
            table = await self.by_id(table_id, place)
            seat = self.seat(table, user_id)
            if table.status == "playing":
                if table.seats[seat].human is None:
                    raise UserError("An AI already plays your seat.")
                await self.without(table, user_id, LEFT_TABLE, reply=reply)
                return await self.by_id(table_id)
            _require_lobby(table)
            if table.host_id == user_id:
                raise UserError("You are the host: `end` the table instead of leaving it.")
            seats = [s for i, s in enumerate(table.seats) if i != seat]
            return await self._store_lobby(table, table.model_copy(update={"seats": seats}),
                                           reply)

    async def without(self, table: Table, user_id: int, why: str, *,
                       reply: Reply | None = None) -> None:
        """A member leaves a table (`leave`, or they left the server): a lobby seat is freed,
        a game seat is played by an AI from now on, and the table is told. `why`: the
        channel's news (a marked text with `{name}` and `{level}`)."""
        seat = table.seat_of(user_id)
        if seat is None or table.status == "over":
            return
        module, ref = self.module(table), table.seats[seat]
        if table.status == "lobby":
            seats = [s for i, s in enumerate(table.seats) if i != seat]
            humans = [s.user_id for s in seats if s.human is not None]
            if not humans:
                closed = table.model_copy(update={"status": "over", "seats": seats})
                await self._store_lobby(table, closed, None)
                return
            host = table.host_id if table.host_id != user_id else humans[0]
            await self._store_lobby(
                table, table.model_copy(update={"seats": seats, "host_id": host}), None
            )
            return
        seats = list(table.seats)
        seats[seat] = ref.model_copy(update={"ai_level": module.gone_level})
        humans = [s.human for s in seats if s.human is not None]
        host = table.host_id if table.host_id != user_id or not humans else humans[0]
        after = table.model_copy(update={"seats": seats, "host_id": host,
                                         "version": table.version + 1})
        state = self.state_of(table)
        text = tr(languages.of(table), why, name=ref.name, level=module.gone_level)
        plan = self._plan(after, None, state)
        after, letters = news.living(module, after, state, text, fresh=True)
        if reply is not None:
            letters.append(reply.letter(len(letters)))
        await self._store(Change(
            after, expected=table.version, letters=letters,
            timers=TimerPlan(seats_done=(seat,), clear=plan.clear, add=plan.add),
        ))
        if reply is not None:
            reply.stored = True

    async def remove_ai(self, table_id: int, user_id: int, *, place: Place | None = None,
                        reply: Reply | None = None) -> Table:
        """The host takes back the last AI seated in the lobby."""
        def change(table: Table) -> Table:
            _require_lobby(table)
            self._require_host(table, user_id)
            last = max((i for i, s in enumerate(table.seats) if s.is_ai), default=None)
            if last is None:
                raise UserError("There is no AI seated at this table.")
            return table.model_copy(
                update={"seats": [s for i, s in enumerate(table.seats) if i != last]})

        return await self._change_lobby(table_id, change, place, reply)

    async def add_ai(self, table_id: int, user_id: int, count: int, level: str, *,
                     place: Place | None = None, reply: Reply | None = None) -> Table:
        def change(table: Table) -> Table:
            _require_lobby(table)
            self._require_host(table, user_id)
            module = self.module(table)
            if level not in module.ai_levels:
                raise UserError("AI level must be one of {levels}.",
                                levels=", ".join(module.ai_levels))
            free = module.max_players - len(table.seats)
            if count > free:
                if free == 0:
                    raise UserError("This table is full.")
                if free == 1:
                    raise UserError("Only 1 seat is left at this table.")
                raise UserError("Only {free} seats are left at this table.", free=free)
            taken = {s.name for s in table.seats}
            names = [f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in taken][:count]
            added = [SeatRef(name=name, ai_level=level) for name in names]
            return table.model_copy(update={"seats": [*table.seats, *added]})

        return await self._change_lobby(table_id, change, place, reply)

    async def start(self, table_id: int, user_id: int, *, place: Place | None = None,
                    reply: Reply | None = None) -> Applied:
        async with self._operation(table_id):
            table = await self.by_id(table_id, place)
            _require_lobby(table)
            self._require_host(table, user_id)
            module = self.module(table)
            if not module.min_players <= len(table.seats) <= module.max_players:
                raise UserError("{game} needs {least}–{most} players; {seated} seated.",
                                game=module.title, least=module.min_players,
                                most=module.max_players, seated=len(table.seats))
            try:
                state, events = module.start(table.seats, self.settings(table), self.seed())
            except RuleError as exc:
                raise refused(module, exc) from exc
            except ValueError as exc:
                raise UserError(str(exc)) from exc
            by_id = {s.player_id: s for s in table.seats}
            seats = [by_id[i] for i in module.seat_ids(state)]
            table = table.model_copy(update={"status": "playing", "seats": seats})
            return await self._commit(
                table, None, state, events, actor=player_id(user_id), action="start", reply=reply,
                was_lobby=True,
            )

    async def rematch(self, table_id: int, user_id: int, *, place: Place | None = None,
                      reply: Reply | None = None) -> Table:
        """The same seats and options again, dealt at once; the series score carries over.
        Any member who played the finished game may start it."""
        async with self._operation(table_id):
            old = await self.by_id(table_id, place)
            if old.status != "over" or old.state is None:
                raise UserError("A rematch follows a finished game.")
            if not any(s.user_id == user_id for s in old.seats):
                raise UserError("Only the players of that game can start its rematch.")
            module = self.module(old)
            finished = module.load(old.state)
            if not module.under_way(finished):
                raise UserError("That game ended before play began, so there is nothing to "
                                "play again: open a new table with `/{command} new`.",
                                command=module.command)
            tally: dict[str, int] = dict(old.options.get("tally", {}))
            for seat in module.winners(finished):
                pid = old.seats[seat].player_id
                tally[pid] = tally.get(pid, 0) + 1
            settings = self.settings(old)
            state, events = module.start(old.seats, settings, self.seed())
            by_id = {s.player_id: s for s in old.seats}
            seats = [by_id[i] for i in module.seat_ids(state)]
            score = " · ".join(f"{s.name} {tally.get(s.player_id, 0)}" for s in seats)
            moved = [s.player_id for s in seats] != [s.player_id for s in old.seats]
            lang = languages.of(old)
            headline = tr(lang, "🔁 **Rematch!** Wins so far: {score}.", score=score)
            if moved:
                headline += " " + tr(lang, "New seating, in turn order: {names}.",
                                     names=", ".join(s.name for s in seats))
            new = Table(
                guild_id=old.guild_id, channel_id=old.channel_id, game=old.game,
                status="playing", host_id=old.host_id, seats=seats, place=old.place,
                options={**settings.model_dump(mode="json"), "tally": tally,
                         languages.TABLE_LANGUAGE: lang},
                state=module.dump(state),
            )
            waiting = module.waiting_on(state)

            def render(table: Table) -> Change:
                plan = self._plan(table, None, state)
                table = table.model_copy(update={"deadline": self._deadline(
                    table, None, state, plan)})
                table, letters = news.letters(
                    module, table, state, events, newly_waiting=waiting, alerts=alerts,
                    langs=langs, fresh=True, headline=headline,
                )
                if reply is not None:
                    letters.append(reply.letter(len(letters)))
                return Change(table, letters=letters, timers=plan)

            alerts = await self._alerts(new, waiting)
            langs = await self._langs(new)
            async with self._channel_locks[old.channel_id]:
                if await self.storage.open_table(old.channel_id) is not None:
                    raise UserError("A table is already open in this channel.")
                try:
                    committed = await self.storage.create_table(new, render)
                except StaleVersion as exc:
                    raise UserError("A table is already open in this channel.") from exc
        _stored(reply)
        self.on_commit((), 0.0)
        return committed.table

    # play ---------------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        user_id: int,
        build: Built,
        *,
        version: int | None = None,
        place: Place | None = None,
        reply: Reply | None = None,
    ) -> Applied:
        """Apply the action `build` makes for the user's seat, if it is still current."""
        async with self._operation(table_id):
            table = await self.by_id(table_id, place)
            if version is not None and version != table.version:
                raise UserError(STALE)
            _require_playing(table)
            seat = self.seat(table, user_id)
            state = self.state_of(table)
            try:
                action = build(state, seat)
            except RuleError as exc:
                raise refused(self.module(table), exc) from exc
            return await self._apply(table, state, action, actor=player_id(user_id), reply=reply)

    async def end(self, table_id: int, user_id: int, *, moderator: bool, name: str,
                  place: Place | None = None, reply: Reply | None = None) -> Table:
        """Host or Manage Server: close the table; a game in play is revealed."""
        async with self._operation(table_id):
            table = await self.by_id(table_id, place)
            if table.status == "over":
                raise UserError("This table is already closed.")
            if not moderator and not self._may_host(table, user_id):
                raise UserError("Only the host or a member with Manage Server can end the table.")
            if table.status == "lobby":
                closed = table.model_copy(update={"status": "over"})
                return await self._store_lobby(table, closed, reply)
            state, events = self.module(table).abandon(
                self.state_of(table), reasons.written(reasons.ENDED_BY, name=name)
            )
            applied = await self._commit(
                table, self.state_of(table), state, events, actor=player_id(user_id),
                action="end", reply=reply,
            )
            return applied.table

    async def write_notes(
        self,
        table_id: int,
        user_id: int,
        change: Callable[[dict[str, Any]], dict[str, Any]],
        *,
        place: Place | None = None,
    ) -> tuple[Table, BaseModel, int, dict[str, Any]]:
        """A seat's private notes, changed under the table lock (two quick marks both stay)."""
        async with self._operation(table_id):
            table = await self.by_id(table_id, place)
            _require_playing(table)
            seat = self.seat(table, user_id)
            notes = change(await self.storage.seat_notes(table.id, seat))
            await self._store(Change(table, notes=(seat, notes)))
            return table, self.state_of(table), seat, notes

    # timers -------------------------------------------------------------------------------

    async def on_timer(self, timer: Timer) -> None:
        """Handle a due timer. On a shared database another process may change its table
        between this read and this commit (a member's click reaching that process, another
        seat's timer fired there): the version check refuses this change, the timer stays
        stored, and it is handled again at once on the new version (an expected race, not an
        error: the per-table lock is one process's)."""
        for attempt in range(1, RACES + 1):
            try:
                await self._on_timer(timer)
                return
            except (StaleVersion, UserError) as exc:
                if attempt == RACES or not _raced(exc):
                    raise
                log.info("timer %s (%s, table %s) met another process's change; again (%d)",
                         timer.id, timer.kind, timer.table_id, attempt)

    @asynccontextmanager
    async def _holding(self, table_id: int) -> AsyncIterator[None]:
        """A table's lock, its holder urgent meanwhile (`bot.urgency`): a click on the table
        waits for it, so an AI's move must not wait behind the background while it holds it."""
        async with self._locks[table_id]:
            with urgent_meanwhile():
                yield

    async def _on_timer(self, timer: Timer) -> None:
        async with self._holding(timer.table_id):
            table = await self.storage.table(timer.table_id)
            if table is None or table.status != "playing" or table.paused or not table.state:
                await self._drop_timers(table, timer)
                return
            module = self.module(table)
            state = module.load(table.state)
            if timer.seat not in module.waiting_on(state) or timer.key != module.turn_key(state):
                await self._drop_timers(table, timer)
                return
            ref = table.seats[timer.seat]
            if (timer.kind == "ai") != ref.is_ai:  # the seat changed hands since it was armed
                await self._drop_timers(table, timer)
                return
            if timer.kind == "ai":
                await self._ai_move(table, state, timer.seat, ref.ai_level or module.idle_level,
                                    done=timer)
            elif timer.kind == "remind":
                await self._store(Change(
                    table,
                    letters=await self._reminder(table, timer),
                    timers=TimerPlan(delete=(timer.id,)),
                ))
            else:
                notice = [] if timer.extra.get("continued") else [Letter.post(
                    table.channel_id,
                    Outgoing(content=module.idle_notice(table, state, timer.seat,
                                                        lang=languages.of(table))),
                )]
                await self._ai_move(table, state, timer.seat, module.idle_level, done=timer,
                                    notices=notice)

    async def _drop_timers(self, table: Table | None, timer: Timer) -> None:
        if table is not None:
            await self._store(Change(table, timers=TimerPlan(delete=(timer.id,))))

    async def _ai_move(
        self, table: Table, state: BaseModel, seat: int, level: str, *, done: Timer,
        notices: Sequence[Letter] = (),
    ) -> Applied:
        module = self.module(table)
        rng = random.Random(f"{table.id}:{table.version}:{seat}")
        if self.thinker is None:
            action = module.ai_action(state, seat, level, rng)
        else:
            think = functools.partial(module.ai_action, state, seat, level, rng)
            action = await asyncio.get_running_loop().run_in_executor(self.thinker, think)
        return await self._apply(table, state, action, actor=f"ai:{seat}", done=done,
                                 notices=notices)

    async def _reminder(self, table: Table, timer: Timer) -> list[Letter]:
        """Half the turn's time gone: said in the channel (its language) and by DM (theirs)."""
        ref = table.seats[timer.seat]
        mentions = [ref.user_id] if ref.user_id else []

        def reminder(lang: str) -> Outgoing:
            when = f"<t:{int(table.deadline)}:R>" if table.deadline else tr(lang, "soon")
            return Outgoing(content=tr(
                lang, "⏳ {member}, the table is waiting for you: an AI plays for you {when} if "
                "you do not.", member=f"<@{ref.user_id}>", when=when), mentions=mentions)

        letters = [Letter.post(table.channel_id, reminder(languages.of(table)))]
        if ref.user_id is not None:
            lang = await self.languages.of_user(ref.user_id)
            letters.append(Letter.dm(ref.user_id, news.headed(
                self.module(table), table, reminder(lang), lang)))
        return letters

    def _plan(
        self, table: Table, before: BaseModel | None, state: BaseModel, *, done: Timer | None = None
    ) -> TimerPlan:
        """The timers a stored change leaves: AI seats the game waits on get a move timer
        after every change; waiting members get a reminder and an idle timer when the waiting
        situation changes, and lose theirs when they no longer are waited on."""
        module = self.module(table)
        delete = (done.id,) if done is not None else ()
        if module.is_over(state) or table.paused:
            return TimerPlan(delete=delete, clear="all")
        key, waiting = module.turn_key(state), module.waiting_on(state)
        now = time.time()
        add = [
            TimerSpec(kind="ai", seat=s, key=key, due=now + self.ai_delay)
            for s in waiting if table.seats[s].is_ai
        ]
        if before is not None and module.turn_key(before) == key:
            gone = set(module.waiting_on(before)) - set(waiting)
            return TimerPlan(delete=delete, clear=("ai",), seats_done=tuple(sorted(gone)),
                             add=tuple(add))
        add += self._deadlines(table, key, [s for s in waiting if not table.seats[s].is_ai], now)
        return TimerPlan(delete=delete, clear=("ai", "remind", "idle"), add=tuple(add))

    def _deadlines(self, table: Table, key: str, seats: Sequence[int], now: float
                   ) -> list[TimerSpec]:
        minutes = self.settings(table).turn_minutes
        if minutes <= 0:
            return []
        limit = minutes * self.minute_seconds
        specs: list[TimerSpec] = []
        for seat in seats:
            specs.append(TimerSpec(kind="remind", seat=seat, key=key, due=now + limit / 2,
                                   extra={"left": minutes / 2}))
            specs.append(TimerSpec(kind="idle", seat=seat, key=key, due=now + limit))
        return specs

    async def _reconcile_timers(self, table: Table) -> None:
        """Drop the timers the stored game no longer needs, arm the ones it is missing."""
        module = self.module(table)
        state = module.load(table.state or "")
        key, waiting = module.turn_key(state), module.waiting_on(state)
        existing = await self.storage.timers(table.id)
        wanted = {(s, key) for s in waiting}
        stale = tuple(t.id for t in existing if (t.seat, t.key) not in wanted
                      or (t.kind == "ai") != table.seats[t.seat].is_ai)
        covered = {(t.seat, t.key) for t in existing if t.id not in stale}
        now = time.time()
        add: list[TimerSpec] = []
        for seat in waiting:
            if (seat, key) in covered:
                continue
            if table.seats[seat].is_ai:
                add.append(TimerSpec(kind="ai", seat=seat, key=key, due=now + self.ai_delay))
            else:
                add += self._deadlines(table, key, [seat], now)
        if stale or add:
            with contextlib.suppress(StaleVersion):  # the newer change armed what it needs
                await self._store(Change(table, timers=TimerPlan(delete=stale, add=tuple(add)),
                                         read_at=table.version))

    # internals ----------------------------------------------------------------------------

    async def _apply(
        self,
        table: Table,
        state: BaseModel,
        action: object,
        *,
        actor: str,
        reply: Reply | None = None,
        done: Timer | None = None,
        notices: Sequence[Letter] = (),
    ) -> Applied:
        module = self.module(table)
        try:
            new_state, events = module.apply(state, action)
        except RuleError as exc:
            raise refused(module, exc) from exc
        return await self._commit(
            table, state, new_state, events, actor=actor, action=module.dump_action(action),
            reply=reply, done=done, notices=notices,
        )

    async def _commit(
        self,
        table: Table,
        before: BaseModel | None,
        state: BaseModel,
        events: list[object],
        *,
        actor: str,
        action: str,
        reply: Reply | None = None,
        done: Timer | None = None,
        notices: Sequence[Letter] = (),
        channel: bool = True,
        was_lobby: bool = False,
    ) -> Applied:
        """Store the change with everything it owes, in one transaction."""
        module = self.module(table)
        over = module.is_over(state)
        after = table.model_copy(update={
            "state": module.dump(state),
            "status": "over" if over else "playing",
            "version": table.version + 1,
        })
        plan = self._plan(after, before, state, done=done)
        if done is not None and done.kind == "idle" and not over:
            plan = self._continue_idle(after, state, done, plan)
        after = after.model_copy(update={"deadline": self._deadline(after, before, state, plan)})
        waiting = [] if over else module.waiting_on(state)
        earlier = set() if before is None else set(module.waiting_on(before))
        newly = [s for s in waiting if s not in earlier]
        # an AI seat that plays on: this step's news waits for its next one (one edit a turn)
        hold = done is not None and done.kind == "ai" and waiting == [done.seat]
        after_ai = bool(earlier) and all(after.seats[s].is_ai for s in earlier)
        langs = await self._langs(after)
        slow = await self._slow_letters(module, after, state, events, langs)
        after, owed = news.letters(
            module, after, state, events, newly_waiting=newly,
            alerts=await self._alerts(after, newly), langs=langs, fresh=before is None,
            channel=channel, was_lobby=was_lobby or table.status == "lobby", hold=hold,
            after_ai=after_ai, told=reply.tells if reply is not None else None,
            acted=next((i for i, s in enumerate(after.seats) if s.player_id == actor), None),
            slow=slow,
        )
        letters = [*notices, *owed, *spectators.letters(module, after, state, events, langs)]
        if reply is not None:
            reply.settle(state, events)
            letters.append(reply.letter(len(letters)))
        change = Change(
            after,
            expected=table.version,
            log=LogEntry(actor, action, module.dump_events(events)),
            letters=letters,
            timers=plan,
            winners=module.winners(state) if over else None,
        )
        try:
            committed = await self._store(change)
        except StaleVersion as exc:
            raise UserError("The table changed at the same moment; please try again.") from exc
        _stored(reply)
        return Applied(committed.table, state, events, committed.letters)

    async def _slow_letters(self, module: AnyGame, table: Table, state: BaseModel,
                            events: list[object], langs: Mapping[int, str]
                            ) -> dict[int, Outgoing] | None:
        """The change's slow letters (the reviews at the end), rendered apart from the event
        loop: in the thinkers' process pool, else in a thread, one member at a time, so an
        AI move another table asks for meanwhile waits for one member's letter at most. The
        table's lock is held meanwhile, as for an AI's move; every other table goes on."""
        work = module.slow_letters(state, events)
        members = {i: langs.get(ref.human, SOURCE) for i, ref in enumerate(table.seats)
                   if ref.human is not None}
        if work is None or not members:
            return None
        out: dict[int, Outgoing] = {}
        self.working += 1
        try:
            for seat, lang in members.items():
                one = functools.partial(work, {seat: lang})
                if self.thinker is None:
                    out.update(await asyncio.to_thread(one))
                else:
                    loop = asyncio.get_running_loop()
                    out.update(await loop.run_in_executor(self.thinker, one))
        finally:
            self.working -= 1
        return out

    def _continue_idle(self, table: Table, state: BaseModel, done: Timer, plan: TimerPlan
                       ) -> TimerPlan:
        """An idle member's whole turn is played for them: one AI move per firing."""
        module = self.module(table)
        if done.seat not in module.waiting_on(state) or module.turn_key(state) != done.key:
            return plan
        again = TimerSpec(kind="idle", seat=done.seat, key=done.key,
                          due=time.time() + self.ai_delay, extra={"continued": True})
        return TimerPlan(delete=plan.delete, clear=plan.clear, seats_done=plan.seats_done,
                         add=(*plan.add, again))

    def _deadline(self, table: Table, before: BaseModel | None, state: BaseModel, plan: TimerPlan
                  ) -> float | None:
        """When the turn timer answers for the member waited on: set with a new waiting
        situation, kept while it lasts."""
        module = self.module(table)
        if module.is_over(state):
            return None
        idle = [t.due for t in plan.add if t.kind == "idle"]
        if idle:
            return min(idle)
        if before is not None and module.turn_key(before) == module.turn_key(state):
            return table.deadline
        return None

    async def _langs(self, table: Table) -> dict[int, str]:
        """Each member's and watcher's language, for their DMs of a change (read before it
        is rendered)."""
        people = dict.fromkeys([*table.humans(), *spectators.watchers(table)])
        return {user: await self.languages.of_user(user) for user in people}

    async def _alerts(self, table: Table, seats: Sequence[int]) -> dict[int, news.Alert]:
        """How each member newly waited on wants to hear it: their own choice, else the
        server's default, else a ping."""
        users = [u for s in seats if (u := table.seats[s].human) is not None]
        if not users:
            return {}
        default = (await self.storage.guild_settings(table.guild_id)).get("alert", "ping")
        chosen: dict[int, news.Alert] = {}
        for user in users:
            mode = (await self.storage.user_settings(user)).get("alert", default)
            chosen[user] = mode if mode in news.ALERTS else "ping"
        return chosen

    async def _change_lobby(self, table_id: int, change: Callable[[Table], Table],
                            place: Place | None, reply: Reply | None) -> Table:
        async with self._operation(table_id):
            table = await self.by_id(table_id, place)
            return await self._store_lobby(table, change(table), reply)

    async def _store_lobby(self, table: Table, changed: Table, reply: Reply | None) -> Table:
        after = changed.model_copy(update={"version": table.version + 1})
        after, letters = news.living(self.module(after), after, None, None)
        if reply is not None:
            letters.append(reply.letter(len(letters)))
        try:
            committed = await self._store(
                Change(after, expected=table.version, letters=letters)
            )
        except StaleVersion as exc:
            raise UserError("The table changed at the same moment; please try again.") from exc
        _stored(reply)
        return committed.table


def refused(module: AnyGame, error: RuleError) -> UserError:
    """An engine refusal, as its game words it in the reader's language."""
    return UserError.written_as(str(error), lambda lang: module.refusal(error, lang=lang))
def _raced(error: Exception) -> bool:
    """A change refused because the table moved since it was read (StaleVersion, or the
    refusal it became)."""
    return isinstance(error, StaleVersion) or isinstance(error.__cause__, StaleVersion)


def _stored(reply: Reply | None) -> None:
    if reply is not None:
        reply.stored = True


def _require_lobby(table: Table) -> None:
    if table.status != "lobby":
        if table.status == "playing":
            raise UserError("The game has already started.")
        raise UserError("This table is closed.")


def _require_playing(table: Table) -> None:
    if table.status != "playing":
        if table.status == "over":
            raise UserError("This game is over.")
        raise UserError("The game has not started yet.")
    if table.paused is not None:
        why = table.paused
        raise UserError("This table is paused: {why}. It carries on as soon as I can post in "
                        "its channel again.", why=lambda lang: tr(lang, why))




def _check_place(table: Table, place: Place) -> None:
    if place.guild_id is None:
        return  # a DM: the seat check decides
    if place.guild_id != table.guild_id:
        raise UserError("That button belongs to a table on another server.")
    if place.channel_id is not None and place.channel_id != table.channel_id:
        raise UserError("That table plays in <#{channel}>, not here.", channel=table.channel_id)
