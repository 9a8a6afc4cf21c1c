"""Seeded games for the picture tests and bench: every state along a random game.

13 Clues: random legal play through the engine's own `legal` queries (the engine tests'
generator), from the deal through the pass phase to the end (a correct accusation or the
step limit). The Mansion: easy AIs, from the deal to the end.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import mansion
from engine.mansion.ai import choose_action
from engine.thirteen_clues import Abandon, GameState, Options, apply, new_game
from engine.thirteen_clues.state import Edition
from testkit.thirteen_clues import random_action, refs

NAMES = ("Ann", "Bob", "Catherine", "Dan", "Eve", "Fay")


def game_states(
    players: int,
    seed: int,
    *,
    edition: Edition = "2020",
    top_secret: bool = False,
    max_steps: int = 60,
    truth: float = 0.03,
) -> list[GameState]:
    """Every state of one random game, the fresh deal first; the last is over (a correct
    accusation, or the table abandoned at `max_steps`)."""
    rng = random.Random(f"pictures:{players}:{edition}:{seed}")
    options = Options(players=players, edition=edition, top_secret=top_secret and players > 2)
    state, _ = new_game(refs(players, NAMES), options, seed)
    states = [state]
    while state.phase != "over":
        if len(states) > max_steps:
            state, _ = apply(state, Abandon(reason="The bench ended the table."))
        else:
            state, _ = apply(state, random_action(state, rng, truth=truth))
        states.append(state)
    return states


def mid_game(states: list[GameState]) -> Iterator[GameState]:
    """The states of the turns phase."""
    return (s for s in states if s.phase == "turns")


def mansion_states(players: int, seed: int, variant: str = "standard", series: int = 1,
                   steps: int | None = None) -> list[mansion.GameState]:
    """Every state of a seeded Mansion game between easy AIs, the deal first; the last is
    over (`steps` cuts it short: the table abandoned)."""
    seats = [mansion.PlayerRef(id=f"p{i}", name=MANSION_NAMES[i]) for i in range(players)]
    options = mansion.Options.model_validate({"players": players, "variant": variant,
                                              "series_wins": series})
    state, _ = mansion.new_game(seats, options, seed)
    rng = random.Random(seed)
    states = [state]
    while not mansion.legal.is_over(state):
        if steps is not None and len(states) > steps:
            state, _ = mansion.apply(state, mansion.Abandon(reason="The test ended the table."))
        else:
            seat = mansion.legal.waiting_on(state)[0]
            view = mansion.player_view(state, seat)
            state, _ = mansion.apply(state, choose_action(view, "easy", rng))
        states.append(state)
    return states


MANSION_NAMES = ("Ann", "Bartholomew Maximilian", "Cid", "Zoë", "Eve")
