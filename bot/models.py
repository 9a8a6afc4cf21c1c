"""The bot's own records of a table: who sits where, the game's options, its stored state."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

TableStatus = Literal["lobby", "playing", "over"]


def player_id(user_id: int) -> str:
    """The engine's opaque id for a Discord member (also the action log's actor)."""
    return f"u{user_id}"


class SeatRef(BaseModel):
    """A seat as the bot knows it: a Discord member or an AI detective."""

    name: str
    user_id: int | None = None
    ai_level: str | None = None

    @property
    def player_id(self) -> str:
        return player_id(self.user_id) if self.user_id is not None else f"ai:{self.name}"

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


class Table(BaseModel):
    id: int = 0
    guild_id: int
    channel_id: int
    game: str
    status: TableStatus = "lobby"
    host_id: int
    options: dict
    seats: list[SeatRef] = []
    """Lobby order until the game starts; then the engine's seat order."""
    state: str | None = None
    """The engine's state as JSON (None in the lobby)."""
    version: int = 0
    message_id: int | None = None

    def seat_of(self, user_id: int) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)
