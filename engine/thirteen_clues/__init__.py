"""13 Clues (daVinci Editrice, 2016 and 2020 rules) as a pure, seeded rules engine."""

from engine.thirteen_clues.actions import (
    ACTION_ADAPTER,
    Abandon,
    Accuse,
    Action,
    Ask,
    ChoosePass,
    Consult,
    TakeGlass,
)
from engine.thirteen_clues.events import EVENT_ADAPTER, Event
from engine.thirteen_clues.rules import answer_for, apply, new_game, reveal
from engine.thirteen_clues.state import (
    DEFAULT_EDITION,
    EDITIONS,
    Edition,
    GameState,
    Options,
    PlayerRef,
)
from engine.thirteen_clues.views import PlayerView, PublicView, player_view, public_view

__all__ = [
    "ACTION_ADAPTER",
    "DEFAULT_EDITION",
    "EDITIONS",
    "EVENT_ADAPTER",
    "Abandon",
    "Accuse",
    "Action",
    "Ask",
    "ChoosePass",
    "Consult",
    "Edition",
    "Event",
    "GameState",
    "Options",
    "PlayerRef",
    "PlayerView",
    "PublicView",
    "TakeGlass",
    "answer_for",
    "apply",
    "new_game",
    "player_view",
    "public_view",
    "reveal",
]
