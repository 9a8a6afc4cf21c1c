"""Clue: Mystery Beyond the Mansion as a pure, seeded rules engine (3–5 players, the
standard game and One Against All, series to a Master Detective)."""

from engine.mansion.actions import (
    ACTION_ADAPTER,
    Abandon,
    Accuse,
    Action,
    AllSnoop,
    AnswerTip,
    ChooseSolution,
    EndTurn,
    Move,
    PickCard,
    PrivateTip,
    ShowCard,
    Snoop,
    SuggestAny,
    SuggestPresent,
    SuperSleuth,
)
from engine.mansion.events import EVENT_ADAPTER, Event, PromptInfo
from engine.mansion.legal import (
    idle_action,
    is_over,
    legal_actions,
    turn_key,
    waiting_on,
    winners,
)
from engine.mansion.observations import Observation
from engine.mansion.records import Triple
from engine.mansion.rules import apply, new_game, reveal
from engine.mansion.state import GameState, Options, PlayerRef
from engine.mansion.views import PlayerView, PublicView, player_view, public_view

__all__ = [
    "ACTION_ADAPTER",
    "EVENT_ADAPTER",
    "Abandon",
    "Accuse",
    "Action",
    "AllSnoop",
    "AnswerTip",
    "ChooseSolution",
    "EndTurn",
    "Event",
    "GameState",
    "Move",
    "Observation",
    "Options",
    "PickCard",
    "PlayerRef",
    "PlayerView",
    "PrivateTip",
    "PromptInfo",
    "PublicView",
    "ShowCard",
    "Snoop",
    "SuggestAny",
    "SuggestPresent",
    "SuperSleuth",
    "Triple",
    "apply",
    "idle_action",
    "is_over",
    "legal_actions",
    "new_game",
    "player_view",
    "public_view",
    "reveal",
    "turn_key",
    "waiting_on",
    "winners",
]
