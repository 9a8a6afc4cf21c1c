"""AI detectives for 13 Clues that play a seat from its PlayerView only.

An AI sees exactly what a human in that seat sees: `choose_action` takes a PlayerView, never
the GameState. Levels: "easy" (random but legal), "normal" (notepad bookkeeping), "expert"
(exact deduction and information-maximising questions). Pure: randomness only from the
`random.Random` passed in (see `rng_for` for a reproducible one).
"""

from __future__ import annotations

import random
from typing import Literal

from engine.thirteen_clues import legal
from engine.thirteen_clues.actions import Action, ChoosePass, TakeGlass
from engine.thirteen_clues.ai import easy, expert, normal
from engine.thirteen_clues.ai.passing import choose_pass
from engine.thirteen_clues.state import GameState
from engine.thirteen_clues.views import PlayerView

Level = Literal["easy", "normal", "expert"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "expert")

__all__ = [
    "LEVELS",
    "Level",
    "choose_action",
    "rng_for",
]


def choose_action(
    view: PlayerView,
    level: Level,
    rng: random.Random,
    *,
    params: expert.Params | None = None,
) -> Action:
    """The action this seat's AI takes now. Raises ValueError if the game is not waiting on
    this seat (not its turn, already passed, or over). `params` tunes the expert (benchmarks)."""
    match legal.duty(view, view.seat):
        case "pass":
            return _pass(view, level, rng)
        case "take":
            return _take(view, level, rng)
        case "act":
            if level == "easy":
                return easy.act(view, rng)
            if level == "normal":
                return normal.act(view, rng)
            return expert.act(view, rng, params or expert.DEFAULT)
    raise ValueError(f"Seat {view.seat} has nothing to do now.")


def _pass(view: PlayerView, level: Level, rng: random.Random) -> ChoosePass:
    return choose_pass(view, careful=level != "easy", rng=rng)


def _take(view: PlayerView, level: Level, rng: random.Random) -> TakeGlass:
    """Easy takes from anyone; the others take from the richest player, ties going to the
    one who plays soonest, which costs the next actor an action."""
    sources = legal.take_sources(view, view.seat)
    if level == "easy":
        return TakeGlass(seat=view.seat, source=rng.choice(sources))
    n = view.options.players
    source = max(sources, key=lambda i: (view.seats[i].glasses, -((i - view.seat) % n)))
    return TakeGlass(seat=view.seat, source=source)


def rng_for(state: GameState, seat: int) -> random.Random:
    """A reproducible generator for one AI decision, derived from the table's seed, the turn
    and the number of actions already taken, so a replayed game replays the same moves."""
    step = len(state.questions) + len(state.consultations) + len(state.accusations)
    return random.Random(f"13clues-ai:{state.seed}:{state.turn_number}:{seat}:{step}")
