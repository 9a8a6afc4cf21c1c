"""Seeded 13 Clues games for the picture tests and bench: every state along a random game.

Random legal play through the engine's own `legal` queries (the engine tests' generator),
from the deal through the pass phase to the end (a correct accusation or the step limit).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.thirteen_clues import Abandon, GameState, Options, apply, new_game
from engine.thirteen_clues.state import Edition
from tests.thirteen_clues.helpers import random_action, refs

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
