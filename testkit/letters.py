"""Seeded 13 Clues games as the bot renders them: every message of each change (the letters
`bot.news.letters` stores: DMs, casebook slots, the channel) and, now and then, each seat's
`/13clues hand`, with the picture references they carry; the same for Mansion games. For
the picture tests and bench."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.messages import Outgoing
from bot.models import SeatRef, Table
from bot.news import letters
from bot.plug import AnyGame, plug
from bot.thirteen_clues.game import GAME

NAMES = ("Ann", "Bob", "Catherine", "Dan", "Eve", "Fay")
PLUGGED = plug(GAME)


@dataclass
class Sent:
    """One message the bot would send: to whom (a seat, or None for the channel), while the
    game was still on or not, and its body."""

    seat: int | None
    over: bool
    body: Outgoing
    creating: bool = True
    """A new message (an edit may be empty: it keeps what it does not name)."""
    state: Any = None
    """The game's state when it was rendered (the secrecy tests compare with it)."""


def table_for(players: int, game: AnyGame = PLUGGED, **options: Any) -> Table:
    seats = [SeatRef(name=NAMES[i], user_id=1000 + i) for i in range(players)]
    return Table(id=1, guild_id=1, channel_id=2, game=game.key, status="playing", host_id=1000,
                 options=options, seats=seats, place="Guild › #table")


def seated(players: int, seed: int, game: AnyGame = PLUGGED, **options: Any
           ) -> tuple[Table, Any, list[Any]]:
    """A table of `players` and its game dealt by `seed`: the table's seats in the engine's
    order, and the state with the events of the deal."""
    table = table_for(players, game, **options)
    settings = game.settings.model_validate(table.options)
    state, events = game.start(table.seats, settings, seed)
    order = game.seat_ids(state)
    by_id = {s.player_id: s for s in table.seats}
    return table.model_copy(update={"seats": [by_id[i] for i in order]}), state, list(events)


def play(
    players: int, seed: int, *, game: AnyGame = PLUGGED, assist: str = "full", max_steps: int = 80,
    hands: bool = True, **options: Any,
) -> Iterator[Sent]:
    """Every message of one seeded game between AI detectives, as the bot renders them: the
    letters of each change (DMs, casebook slots, the channel) and, now and then, each
    seat's `hand` answer. `options` are the table's (13 Clues: edition, top_secret; the
    Mansion: variant, series)."""
    table, state, events = seated(players, seed, game, assist=assist, **options)
    users = {s.user_id: i for i, s in enumerate(table.seats)}
    rng = random.Random(seed)
    earlier: set[int] = set()
    for step in range(max_steps + 2):
        over = game.is_over(state)
        if over:
            table = table.model_copy(update={"status": "over"})
        waiting = [] if over else game.waiting_on(state)
        newly = [s for s in waiting if s not in earlier]  # as the table service counts them
        earlier = set(waiting)
        table, owed = letters(game, table, state, events, newly_waiting=newly, alerts={},
                              langs={})
        for letter in owed:
            seat = users[letter.address] if letter.kind == "u" else None
            yield Sent(seat, over, letter.body, letter.op == "send" and letter.slot is None,
                       state)
        if hands and step % 7 == 0:
            for seat in range(players):
                yield Sent(seat, over, game.hand(table, state, seat, lang="en"), True, state)
        if over:
            return
        if step >= max_steps:
            state, events = game.abandon(state, "The test ended the table.")
            continue
        actor = game.waiting_on(state)[0]
        state, events = game.apply(state, game.ai_action(state, actor, "easy", rng))
