"""The games this bot offers: one line per game."""

from __future__ import annotations

from bot.mansion.game import GAME as MANSION
from bot.plug import AnyGame, plug
from bot.thirteen_clues.game import GAME as THIRTEEN_CLUES

GAMES: tuple[AnyGame, ...] = (plug(THIRTEEN_CLUES), plug(MANSION))
