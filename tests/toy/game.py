"""High Card: two seats, each dealt a secret number by DM; on your turn you Reveal it; when
both are shown the higher one wins. Engine and plug in a few dozen lines."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, TypeAdapter

from bot.components import TableButton, button, view_of
from bot.messages import Outgoing
from bot.models import SeatRef, Table
from bot.plug import AnyGame, PydanticGame, TableSettings, plug
from engine.audience import Audience
from engine.errors import RuleError


class Seat(BaseModel):
    id: str
    name: str
    number: int
    shown: bool = False


class State(BaseModel):
    seats: list[Seat]
    turn: int = 0
    winner: int | None = None
    over: bool = False


class Reveal(BaseModel):
    type: Literal["reveal"] = "reveal"
    seat: int


class Shown(BaseModel):
    audience: Audience
    seat: int
    number: int


def apply(state: State, action: Reveal) -> tuple[State, list[Shown]]:
    if state.over or action.seat != state.turn:
        raise RuleError("It is not your turn.")
    seats = [s.model_copy(update={"shown": s.shown or i == action.seat})
             for i, s in enumerate(state.seats)]
    done = all(s.shown for s in seats)
    winner = max(range(2), key=lambda i: seats[i].number) if done else None
    after = State(seats=seats, turn=1 - state.turn, winner=winner, over=done)
    return after, [Shown(audience=Audience.public(), seat=action.seat,
                         number=seats[action.seat].number)]


class HighCard(PydanticGame[State, Reveal, Shown, TableSettings]):
    key = title = command = prefix = "toy"
    extension = "tests.toy.cog"
    min_players = max_players = 2
    ai_levels: tuple[str, ...] = ("easy",)
    default_level = "easy"
    idle_level = "easy"
    gone_level = "easy"
    settings = TableSettings
    started_text = "Dealt: your number is in your DMs."
    help = "High Card: reveal your number, the higher wins."
    state_model = State
    actions = TypeAdapter(Reveal)
    events = TypeAdapter(Shown)

    def start(self, seats: Sequence[SeatRef], settings: TableSettings, seed: int
              ) -> tuple[State, list[Shown]]:
        numbers = random.Random(seed).sample(range(1, 10), 2)
        return State(seats=[Seat(id=s.player_id, name=s.name, number=n)
                            for s, n in zip(seats, numbers, strict=True)]), []

    def seat_ids(self, state: State) -> list[str]:
        return [s.id for s in state.seats]

    def apply(self, state: State, action: Reveal) -> tuple[State, list[Shown]]:
        return apply(state, action)

    def abandon(self, state: State, reason: str) -> tuple[State, list[Shown]]:
        return state.model_copy(update={"over": True}), []

    def waiting_on(self, state: State) -> list[int]:
        return [] if state.over else [state.turn]

    def turn_key(self, state: State) -> str:
        return f"{sum(s.shown for s in state.seats)}"

    def is_over(self, state: State) -> bool:
        return state.over

    def winners(self, state: State) -> set[int]:
        return set() if state.winner is None else {state.winner}

    def ai_action(self, state: State, seat: int, level: str, rng: random.Random) -> Reveal:
        return Reveal(seat=seat)

    def idle_notice(self, table: Table, state: State, seat: int, *, lang: str) -> str:
        return f"{state.seats[seat].name} was slow: revealed for them."

    def table_message(self, table: Table, state: State | None, *, lang: str) -> Outgoing:
        if state is None:
            return Outgoing.of(f"High Card: {len(table.seats)} seated.",
                               view=view_of(*(TableButton("toy", v, table.id)
                                              for v in ("join", "start"))))
        shown = ", ".join(f"{s.name}: {s.number if s.shown else '?'}" for s in state.seats)
        if state.over:
            return Outgoing(content=f"High Card over. {shown}")
        reveal = button("Reveal", f"toy:reveal:{table.id}:{table.version}")
        return Outgoing.of(f"{state.seats[state.turn].name} to reveal. {shown}",
                           view=view_of(reveal, TableButton("toy", "hand", table.id)))

    def news(self, table: Table, state: State, events: Sequence[Shown], *, lang: str
             ) -> str | None:
        shown = "; ".join(f"{state.seats[e.seat].name} shows {e.number}" for e in events)
        if state.winner is not None:
            shown += f". High Card over: {state.seats[state.winner].name} wins"
        return shown or None

    def letter(self, table: Table, state: State, events: Sequence[Shown], seat: int, *,
               lang: str) -> Outgoing | None:
        return None if events else Outgoing(content=f"Your number: {state.seats[seat].number}")

    def hand(self, table: Table, state: State, seat: int, *, lang: str) -> Outgoing:
        return Outgoing(content=f"Your number: {state.seats[seat].number}")

    def log(self, table: Table, state: State, *, lang: str) -> str:
        return "Nothing to log."

    def rules(self, table: Table | None, lang: str) -> str:
        return "Reveal your number; the higher wins."


GAME = HighCard()
PLUGGED: AnyGame = plug(GAME)
"""mypy (strict, in the test command) proves the toy fills the typed plug."""
