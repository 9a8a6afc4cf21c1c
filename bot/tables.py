"""The table service: the only writer of game state.

Every change follows one path: per-table lock → load the latest row → check → engine apply →
persist (state, action log, events) → deliver → mark delivered → arm timers. A click built
on an old version is refused, and events persisted but not delivered before a crash are
delivered at the next start-up.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.delivery import Delivery
from bot.errors import UserError
from bot.games import GameModule, Outgoing
from bot.models import SeatRef, Table, player_id
from bot.storage import StaleVersion, Storage, Timer
from bot.timers import TimerDispatcher
from engine.errors import RuleError

log = logging.getLogger(__name__)

AI_NAMES = ("Holmes", "Poirot", "Marple", "Dupin", "Wolfe", "Vance", "Brown", "Queen")

MAX_ACTIONS_PER_TURN = 20
"""More than any turn can take (a player holds at most every glass in the box)."""

ActionBuilder = Callable[[Any, int], Any]
"""(engine state, acting seat) → engine action; may raise UserError or RuleError."""


@dataclass
class Applied:
    table: Table
    state: Any
    events: list


class TableService:
    def __init__(
        self,
        storage: Storage,
        games: dict[str, GameModule],
        delivery: Delivery,
        *,
        ai_delay: float = 1.5,
        minute_seconds: float = 60.0,
        seed: Callable[[], int] = lambda: secrets.randbits(63),
    ) -> None:
        self.storage = storage
        self.games = games
        self.delivery = delivery
        self.ai_delay = ai_delay
        self.minute_seconds = minute_seconds
        """The length of a turn-timer minute (tests shorten it)."""
        self.seed = seed
        self.timers = TimerDispatcher(storage, self.on_timer)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._channel_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # start-up -----------------------------------------------------------------------------

    async def resume(self) -> None:
        """After a restart: deliver what was persisted but not delivered, re-arm timers."""
        for table_id, version, raw in await self.storage.undelivered():
            async with self._locks[table_id]:
                table = await self.storage.table(table_id)
                if table is None or table.state is None:
                    await self.storage.mark_delivered(table_id, version)
                    continue
                module = self.games[table.game]
                state, events = module.load(table.state), module.load_events(raw)
                await self._publish(table, state, events, version)
        for table in await self.storage.active_tables():
            if table.status == "playing" and table.state and not await self.storage.timers(
                table.id
            ):
                await self._arm(table, self.games[table.game].load(table.state), None)
        self.timers.start()

    async def close(self) -> None:
        await self.timers.stop()

    # lookups ------------------------------------------------------------------------------

    async def in_channel(
        self, channel_id: int, game: str | None = None, *, finished: bool = False
    ) -> Table:
        """The open table here; with `finished`, else the last game played here (to look at)."""
        if finished:
            table = await self.storage.last_game(channel_id)
        else:
            table = await self.storage.open_table(channel_id)
        if table is None or (game is not None and table.game != game):
            title = self.games[game].title if game else "game"
            raise UserError(f"There is no {title} table in this channel. Open one with `new`.")
        return table

    async def by_id(self, table_id: int) -> Table:
        table = await self.storage.table(table_id)
        if table is None:
            raise UserError("That table no longer exists.")
        return table

    def module(self, table: Table) -> GameModule:
        return self.games[table.game]

    def state_of(self, table: Table) -> Any:
        if table.state is None:
            raise UserError("The game has not started yet.")
        return self.module(table).load(table.state)

    # lobby --------------------------------------------------------------------------------

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
    ) -> Table:
        async with self._channel_locks[channel_id]:
            if await self.storage.open_table(channel_id) is not None:
                raise UserError(
                    "A table is already open in this channel: join it, or ask its host to "
                    "`end` it first."
                )
            try:
                table = await self.storage.create_table(
                    Table(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        game=game,
                        host_id=host_id,
                        options=options,
                        seats=[SeatRef(name=host_name, user_id=host_id)],
                    )
                )
            except StaleVersion as exc:
                raise UserError(str(exc)) from exc
        await self._show_table(table, None, fresh=True)
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        def change(table: Table) -> Table:
            self._require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise UserError("You are already seated at this table.")
            if len(table.seats) >= self.module(table).max_players:
                raise UserError("This table is full.")
            return table.model_copy(
                update={"seats": [*table.seats, SeatRef(name=name, user_id=user_id)]}
            )

        return await self._change_lobby(table_id, change)

    async def leave(self, table_id: int, user_id: int) -> Table:
        def change(table: Table) -> Table:
            if table.status == "playing":
                raise UserError(
                    "The game is under way: a seat cannot be left mid-game. The host (or a "
                    "member with Manage Server) can `end` the table."
                )
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not seated at this table.")
            if table.host_id == user_id:
                raise UserError("You are the host: `end` the table instead of leaving it.")
            seats = [s for i, s in enumerate(table.seats) if i != seat]
            return table.model_copy(update={"seats": seats})

        return await self._change_lobby(table_id, change)

    async def add_ai(self, table_id: int, user_id: int, count: int, level: str) -> Table:
        def change(table: Table) -> Table:
            self._require_lobby(table)
            self._require_host(table, user_id)
            module = self.module(table)
            if level not in module.ai_levels:
                raise UserError(f"AI level must be one of {', '.join(module.ai_levels)}.")
            free = module.max_players - len(table.seats)
            if count > free:
                raise UserError(f"Only {free} seat(s) left at this table.")
            taken = {s.name for s in table.seats}
            names = [f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in taken][:count]
            added = [SeatRef(name=name, ai_level=level) for name in names]
            return table.model_copy(update={"seats": [*table.seats, *added]})

        return await self._change_lobby(table_id, change)

    async def start(self, table_id: int, user_id: int) -> Applied:
        async with self._locks[table_id]:
            table = await self.by_id(table_id)
            self._require_lobby(table)
            self._require_host(table, user_id)
            module = self.module(table)
            if not module.min_players <= len(table.seats) <= module.max_players:
                raise UserError(
                    f"{module.title} needs {module.min_players}–{module.max_players} players; "
                    f"{len(table.seats)} seated."
                )
            try:
                state, events = module.start(table.seats, table.options, self.seed())
            except (RuleError, ValueError) as exc:
                raise UserError(str(exc)) from exc
            by_id = {s.player_id: s for s in table.seats}
            seats = [by_id[s.id] for s in state.seats]
            table = table.model_copy(update={"status": "playing", "seats": seats})
            return await self._commit(
                table, state, events, actor=player_id(user_id), action="start"
            )

    # play ---------------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        user_id: int,
        build: ActionBuilder,
        *,
        version: int | None = None,
    ) -> Applied:
        """Apply the action `build` makes for the user's seat, if it is still current."""
        async with self._locks[table_id]:
            table = await self.by_id(table_id)
            if version is not None and version != table.version:
                raise UserError(
                    "That button is out of date: the table has moved on since. Use the latest "
                    "table message."
                )
            if table.status != "playing":
                raise UserError(
                    "This game is over." if table.status == "over" else "The game has not "
                    "started yet."
                )
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not seated at this table.")
            state = self.state_of(table)
            try:
                action = build(state, seat)
            except RuleError as exc:
                raise UserError(str(exc)) from exc
            return await self._apply(table, state, action, actor=player_id(user_id))

    async def end(self, table_id: int, user_id: int, *, moderator: bool, name: str) -> Table:
        """Host or Manage Server: close the table; a game in play is revealed."""
        async with self._locks[table_id]:
            table = await self.by_id(table_id)
            if table.status == "over":
                raise UserError("This table is already closed.")
            if user_id != table.host_id and not moderator:
                raise UserError("Only the host or a member with Manage Server can end the table.")
            if table.status == "lobby":
                table = await self.storage.save_table(table.model_copy(update={"status": "over"}))
                await self._show_table(table, None)
                return table
            module = self.module(table)
            state, events = module.abandon(self.state_of(table), f"{name} ended the game.")
            applied = await self._commit(
                table, state, events, actor=player_id(user_id), action="end"
            )
            return applied.table

    # timers -------------------------------------------------------------------------------

    async def on_timer(self, timer: Timer) -> None:
        async with self._locks[timer.table_id]:
            table = await self.storage.table(timer.table_id)
            if table is None or table.status != "playing":
                return
            module = self.module(table)
            state = module.load(table.state or "")
            seat = timer.payload.get("seat", -1)
            if seat not in module.waiting_on(state):
                return
            if timer.payload.get("key") not in (None, module.turn_key(state)):
                return
            if timer.kind == "ai":
                level = table.seats[seat].ai_level or "normal"
                await self._ai_move(table, state, seat, level)
            elif timer.kind == "remind":
                await self._remind(table, seat, timer.payload.get("left", 0))
            elif timer.kind == "idle":
                await self.delivery.send(
                    table.channel_id,
                    Outgoing(
                        content=f"⏰ {table.seats[seat].name} took too long: an AI detective "
                        "plays this turn for them."
                    ),
                )
                await self._play_turn_for(table, state, seat)

    async def _ai_move(self, table: Table, state: Any, seat: int, level: str) -> Applied:
        module = self.module(table)
        rng = random.Random(f"{table.id}:{table.version}:{seat}")
        action = module.ai_action(state, seat, level, rng)
        return await self._apply(table, state, action, actor=f"ai:{seat}")

    async def _play_turn_for(self, table: Table, state: Any, seat: int) -> None:
        """An idle human's whole turn (every glass) is played by a `normal` AI."""
        module = self.module(table)
        key = module.turn_key(state)
        for _ in range(MAX_ACTIONS_PER_TURN):
            applied = await self._ai_move(table, state, seat, "normal")
            table, state = applied.table, applied.state
            if seat not in module.waiting_on(state) or module.turn_key(state) != key:
                return

    async def _remind(self, table: Table, seat: int, minutes_left: float) -> None:
        ref = table.seats[seat]
        text = (
            f"⏳ <@{ref.user_id}>, the table is waiting for you: about {minutes_left:g} "
            "minute(s) left before an AI detective plays this turn for you."
        )
        await self.delivery.send(table.channel_id, Outgoing(content=text))
        if ref.user_id is not None:
            await self.delivery.dm(ref.user_id, Outgoing(content=text))

    # internals ----------------------------------------------------------------------------

    async def _apply(self, table: Table, state: Any, action: Any, *, actor: str) -> Applied:
        module = self.module(table)
        try:
            new_state, events = module.apply(state, action)
        except RuleError as exc:
            raise UserError(str(exc)) from exc
        return await self._commit(
            table,
            new_state,
            events,
            actor=actor,
            action=module.dump_action(action),
            previous_key=module.turn_key(state),
        )

    async def _commit(
        self,
        table: Table,
        state: Any,
        events: list,
        *,
        actor: str,
        action: str,
        previous_key: str | None = None,
    ) -> Applied:
        module = self.module(table)
        over = module.is_over(state)
        updated = table.model_copy(
            update={"state": module.dump(state), "status": "over" if over else "playing"}
        )
        try:
            saved = await self.storage.save_table(
                updated, actor=actor, action=action, events=module.dump_events(events)
            )
        except StaleVersion as exc:
            raise UserError("The table changed at the same moment; please try again.") from exc
        if over:
            await self.storage.record_results(saved, module.winners(state))
            await self.storage.clear_timers(saved.id)
        await self._publish(saved, state, events, saved.version)
        if not over:
            await self._arm(saved, state, previous_key)
        return Applied(saved, state, events)

    async def _publish(self, table: Table, state: Any, events: list, version: int) -> None:
        """Deliver the events of `version` and mark them delivered. A failure leaves them
        stored: the action stands, and its news goes out at the next start-up."""
        try:
            await self._deliver(table, state, events)
        except Exception:
            log.exception("delivery of table %s version %s failed", table.id, version)
            return
        await self.storage.mark_delivered(table.id, version)

    async def _deliver(self, table: Table, state: Any, events: list) -> None:
        module = self.module(table)
        letters = {
            ref.user_id: out
            for seat, ref in enumerate(table.seats)
            if ref.user_id is not None
            and (out := module.dm_message(table, state, events, seat)) is not None
        }
        sent = await asyncio.gather(
            *(self.delivery.dm(user_id, out) for user_id, out in letters.items())
        )
        unreachable = [f"<@{u}>" for u, ok in zip(letters, sent, strict=True) if not ok]
        text = module.channel_text(table, state, events)
        await self._show_table(table, state, fresh=text is not None, text=text)
        if unreachable:
            await self.delivery.send(
                table.channel_id,
                Outgoing(
                    content=f"📪 I could not DM {', '.join(unreachable)}: open your DMs to this "
                    f"server's members, or use `/{module.command} hand` to see your secrets "
                    "here."
                ),
            )

    async def _show_table(
        self, table: Table, state: Any, *, fresh: bool = False, text: str | None = None
    ) -> None:
        """Keep one living table message: a new one at the bottom when the channel hears
        news (the old one keeps its text but loses its status and buttons), else an edit."""
        out = self.module(table).table_message(table, state)
        if text is not None:
            out.content = text
        if table.message_id is not None and not fresh and await self.delivery.edit(
            table.channel_id, table.message_id, out
        ):
            return
        message = await self.delivery.send(table.channel_id, out)
        if table.message_id is not None:
            await self.delivery.retire(table.channel_id, table.message_id)
        await self.storage.set_message(table.id, message.id if message else None)

    async def _arm(self, table: Table, state: Any, previous_key: str | None) -> None:
        """AI seats the game waits on get a move timer after every change; waiting humans get
        a reminder and an idle timer when the waiting situation changes (a new turn)."""
        module = self.module(table)
        key = module.turn_key(state)
        waiting = module.waiting_on(state)
        await self.storage.clear_timers(table.id, ["ai"])
        for seat in waiting:
            if table.seats[seat].is_ai:
                payload = {"seat": seat, "key": key}
                await self.timers.add(table.guild_id, table.id, "ai", self.ai_delay, payload)
        if previous_key == key:
            return
        await self.storage.clear_timers(table.id, ["remind", "idle"])
        minutes = float(table.options.get("turn_minutes") or 0)
        if minutes <= 0:
            return
        for seat in waiting:
            if not table.seats[seat].is_ai:
                payload = {"seat": seat, "key": key}
                remind = {**payload, "left": minutes / 2}
                limit = minutes * self.minute_seconds
                await self.timers.add(table.guild_id, table.id, "remind", limit / 2, remind)
                await self.timers.add(table.guild_id, table.id, "idle", limit, payload)

    async def _change_lobby(self, table_id: int, change: Callable[[Table], Table]) -> Table:
        async with self._locks[table_id]:
            table = change(await self.by_id(table_id))
            table = await self.storage.save_table(table)
            await self._show_table(table, None)
            return table

    def _require_lobby(self, table: Table) -> None:
        if table.status != "lobby":
            raise UserError(
                "The game has already started." if table.status == "playing" else
                "This table is closed."
            )

    @staticmethod
    def _require_host(table: Table, user_id: int) -> None:
        if user_id != table.host_id:
            raise UserError("Only the host can do that.")
