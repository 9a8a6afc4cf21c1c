"""Seeded 13 Clues games as the bot renders them: every message of each change (the letters
`bot.news.letters` stores: DMs, casebook slots, the channel) and, now and then, each seat's
`/13clues hand`, with the picture references they carry. For the picture tests and bench."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.messages import Outgoing
from bot.models import SeatRef, Table
from bot.news import letters
from bot.thirteen_clues.game import GAME

NAMES = ("Ann", "Bob", "Catherine", "Dan", "Eve", "Fay")


@dataclass
class Sent:
    """One message the bot would send: to whom (a seat, or None for the channel), while the
    game was still on or not, and its body."""

    seat: int | None
    over: bool
    body: Outgoing
    creating: bool = True
    """A new message (an edit may be empty: it keeps what it does not name)."""


def table_for(players: int, **options: Any) -> Table:
    seats = [SeatRef(name=NAMES[i], user_id=1000 + i) for i in range(players)]
    return Table(id=1, guild_id=1, channel_id=2, game=GAME.key, status="playing", host_id=1000,
                 options=options, seats=seats, place="Guild › #table")


def play(
    players: int, seed: int, *, edition: str = "2020", top_secret: bool = False,
    assist: str = "full", max_steps: int = 80, hands: bool = True,
) -> Iterator[Sent]:
    """Every message of one seeded game between AI detectives, as the bot renders them: the
    letters of each change (DMs, casebook slots, the channel) and, now and then, each
    seat's `/13clues hand`."""
    table = table_for(players, edition=edition, top_secret=top_secret, assist=assist)
    settings = GAME.settings.model_validate(table.options)
    state, events = GAME.start(table.seats, settings, seed)
    order = GAME.seat_ids(state)
    by_id = {s.player_id: s for s in table.seats}
    table = table.model_copy(update={"seats": [by_id[i] for i in order]})
    users = {s.user_id: i for i, s in enumerate(table.seats)}
    rng = random.Random(seed)
    earlier: set[int] = set()
    actor: int | None = None
    for step in range(max_steps + 2):
        over = GAME.is_over(state)
        if over:
            table = table.model_copy(update={"status": "over"})
        waiting = [] if over else GAME.waiting_on(state)
        newly = [s for s in waiting if s not in earlier]  # as the table service counts them
        earlier = set(waiting)
        table, owed = letters(GAME, table, state, events, newly_waiting=newly, alerts={},
                              acting=actor)
        for letter in owed:
            seat = users[letter.address] if letter.kind == "u" else None
            yield Sent(seat, over, letter.body, letter.op == "send" and letter.slot is None)
        if hands and step % 7 == 0:
            for seat in range(players):
                yield Sent(seat, over, GAME.hand(table, state, seat))
        if over:
            return
        if step >= max_steps:
            state, events = GAME.abandon(state, "The test ended the table.")
            continue
        actor = GAME.waiting_on(state)[0]
        state, events = GAME.apply(state, GAME.ai_action(state, actor, "easy", rng))
