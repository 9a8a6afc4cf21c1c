"""The games this bot offers, by key."""

from __future__ import annotations

from bot.games import GameModule
from bot.thirteen_clues.game import ThirteenClues


def all_games() -> dict[str, GameModule]:
    return {"13clues": ThirteenClues()}
