"""All-AI tables, for tests and benchmarks: the referee loop of state → view → action.

Only the referee touches the GameState; each AI gets its seat's PlayerView.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.mansion.actions import Action
from engine.mansion.ai import Level, choose_action, expert
from engine.mansion.legal import waiting_on
from engine.mansion.rules import apply, new_game
from engine.mansion.state import GameState, Options, PlayerRef, Variant
from engine.mansion.views import PlayerView, player_view

Policy = Callable[[PlayerView, random.Random], Action]


@dataclass(frozen=True)
class Result:
    state: GameState
    actions: int
    """Actions applied (answers to prompts included)."""

    @property
    def winner(self) -> int | None:
        """The seat that won the (single) game: a right accuser or an escaped fugitive."""
        return self.state.rounds[-1].winner if self.state.rounds else None

    @property
    def turns(self) -> int:
        return self.state.turn_number


def level_policy(level: Level, params: expert.Params | None = None) -> Policy:
    return lambda view, rng: choose_action(view, level, rng, params=params)


def steps(
    policies: Sequence[Policy], options: Options, seed: int, max_actions: int = 5000
) -> Iterator[tuple[GameState, int, PlayerView, Action]]:
    """Play one game (`policies[i]` plays seat i), yielding each decision as it is taken:
    (state before it, seat, the seat's view, the action). Stops at the end of the game or
    after `max_actions` actions."""
    refs = [PlayerRef(id=f"ai{i}", name=f"AI {i}") for i in range(len(policies))]
    state, _ = new_game(refs, options, seed)
    rng = random.Random(f"selfplay:{seed}")
    for _ in range(max_actions):
        if state.phase == "over":
            return
        seat = waiting_on(state)[0]
        view = player_view(state, seat)
        action = policies[seat](view, rng)
        yield state, seat, view, action
        state, _ = apply(state, action)


def play(
    policies: Sequence[Policy], options: Options, seed: int, max_actions: int = 5000
) -> Result:
    """Play one game to its end (or `max_actions` actions)."""
    refs = [PlayerRef(id=f"ai{i}", name=f"AI {i}") for i in range(len(policies))]
    state, _ = new_game(refs, options, seed)
    rng = random.Random(f"selfplay:{seed}")
    actions = 0
    while state.phase != "over" and actions < max_actions:
        seat = waiting_on(state)[0]
        action = policies[seat](player_view(state, seat), rng)
        state, _ = apply(state, action)
        actions += 1
    return Result(state, actions)


def mixed_levels(rng: random.Random, players: int) -> list[Level]:
    """A random table of levels (every level equally likely at each seat)."""
    levels: list[Level] = ["easy", "normal", "expert"]
    return [rng.choice(levels) for _ in range(players)]


def ai_positions(
    players: int, variant: Variant, games: int, seed: int, per_game: int = 8
) -> Iterator[tuple[GameState, PlayerView]]:
    """Positions from real AI games: `games` games at random tables of levels, each seen at
    `per_game` decisions drawn at random (a seat's view when it must act, any prompt)."""
    rng = random.Random(f"positions:{players}:{variant}:{seed}")
    options = Options(players=players, variant=variant)
    for game in range(games):
        policies = [level_policy(level) for level in mixed_levels(rng, players)]
        decisions = [
            (state, view)
            for state, _, view, _ in steps(policies, options, seed * 100_000 + game)
            if state.phase == "playing"
        ]
        for k in sorted(rng.sample(range(len(decisions)), min(per_game, len(decisions)))):
            yield decisions[k]
