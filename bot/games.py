"""What the game-agnostic table service needs from each game: the plug a game fills in."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.models import SeatRef, Table


@dataclass
class Outgoing:
    """One message to send or edit: text, an embed, components."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None

    def kwargs(self) -> dict[str, Any]:
        """For an edit: every part is replaced, so a missing view removes the buttons."""
        return {"content": self.content, "embeds": self.embeds, "view": self.view}

    def send_kwargs(self) -> dict[str, Any]:
        """For a new message or an interaction reply: only the parts that are there."""
        kwargs: dict[str, Any] = {"embeds": self.embeds}
        if self.content:
            kwargs["content"] = self.content
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


class GameModule(Protocol):
    """A game as the bot sees it. State, actions and events are the engine's pydantic models."""

    key: str
    title: str
    command: str
    """The slash-command group, e.g. `13clues`."""
    min_players: int
    max_players: int
    ai_levels: tuple[str, ...]

    def start(self, seats: list[SeatRef], options: dict[str, Any], seed: int) -> tuple[Any, list]:
        """Seat the players (the engine may shuffle them) and deal."""

    def load(self, raw: str) -> Any: ...
    def dump(self, state: Any) -> str: ...
    def dump_action(self, action: Any) -> str: ...
    def dump_events(self, events: list) -> str: ...
    def load_events(self, raw: str) -> list: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list]:
        """The engine's apply; raises engine.errors.RuleError."""

    def abandon(self, state: Any, reason: str) -> tuple[Any, list]: ...
    def waiting_on(self, state: Any) -> list[int]:
        """Seats whose input the game waits for now."""

    def turn_key(self, state: Any) -> str:
        """Changes whenever the waiting situation changes (idle timers compare it)."""

    def is_over(self, state: Any) -> bool: ...
    def winners(self, state: Any) -> set[int]: ...
    def ai_action(self, state: Any, seat: int, level: str, rng: random.Random) -> Any: ...

    def table_message(self, table: Table, state: Any | None) -> Outgoing:
        """The living table message: public status and the buttons for what comes next."""

    def channel_text(self, table: Table, state: Any, events: list) -> str | None:
        """What the channel learns from these events (public and end-reveal only)."""

    def dm_message(self, table: Table, state: Any, events: list, seat: int) -> Outgoing | None:
        """What `seat` privately learns from these events, with any prompt it must answer."""
