"""All-AI tables, for tests and benchmarks: the referee loop of state → view → action.

Only the referee touches the GameState; each AI gets its seat's PlayerView.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.thirteen_clues.actions import Action
from engine.thirteen_clues.ai import Level, choose_action, expert
from engine.thirteen_clues.legal import waiting_on
from engine.thirteen_clues.rules import apply, new_game
from engine.thirteen_clues.state import GameState, Options, PlayerRef
from engine.thirteen_clues.views import PlayerView, player_view

Policy = Callable[[PlayerView, random.Random], Action]


@dataclass(frozen=True)
class Result:
    state: GameState
    actions: int
    """Actions applied after the pass phase (questions, consults, accusations, takes)."""
    positions: tuple[int, ...]
    """For each seat of `state`, the index in `policies` of the AI that played it."""

    @property
    def winner_index(self) -> int | None:
        """Index in `policies` of the winner, None if nobody won."""
        return None if self.state.winner is None else self.positions[self.state.winner]


def level_policy(level: Level, params: expert.Params | None = None) -> Policy:
    return lambda view, rng: choose_action(view, level, rng, params=params)


def play(
    policies: Sequence[Policy],
    options: Options,
    seed: int,
    max_actions: int = 400,
) -> Result:
    """Play one game; `policies[i]` plays the seat `i` places clockwise from the starting
    player (so a benchmark can rotate a seat through every position). Stops after
    `max_actions` turn actions, leaving the game unfinished."""
    refs = [PlayerRef(id=str(i), name=f"AI {i}") for i in range(len(policies))]
    state, _ = new_game(refs, options, seed)
    n = len(policies)
    positions = tuple((seat - state.starter) % n for seat in range(n))
    by_seat = [policies[positions[seat]] for seat in range(n)]
    rng = random.Random(seed)
    actions = 0
    while state.phase != "over" and actions < max_actions:
        for seat in waiting_on(state):
            action = by_seat[seat](player_view(state, seat), rng)
            state, _ = apply(state, action)
            if state.phase != "passing" and action.type != "choose_pass":
                actions += 1
            if state.phase != "passing":
                break
    return Result(state, actions, positions)
