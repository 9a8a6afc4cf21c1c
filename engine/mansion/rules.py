"""`new_game` and `apply(state, action) -> (state, events)`: the Mansion rules, pure and seeded.

All randomness comes from `random.Random(f"{seed}:{step}")`, `step` counting the actions
applied, so a game replays exactly from its seed and action log.
"""

from __future__ import annotations

import random

from engine.audience import Audience
from engine.errors import RuleError
from engine.mansion import flow, legal, plays
from engine.mansion.actions import (
    PLAY_TYPES,
    Abandon,
    Accuse,
    Action,
    AnswerTip,
    ChooseSolution,
    EndTurn,
    PickCard,
    ShowCard,
)
from engine.mansion.events import Event, GameStarted, SolutionChosen
from engine.mansion.flow import reveal
from engine.mansion.prompts import PickPrompt, ShowPrompt, TipPrompt
from engine.mansion.records import SolutionChosen as SolutionChosenRecord
from engine.mansion.records import Triple
from engine.mansion.state import GameState, Options, PlayerRef, Seat

__all__ = ["apply", "new_game", "reveal"]


def new_game(
    players: list[PlayerRef], options: Options, seed: int
) -> tuple[GameState, list[Event]]:
    """Seat the players in the order given, pick a dealer (and fugitive) at random, deal.

    In One Against All "the fugitive also acts as the dealer": the chosen seat, or one drawn
    at random, is both. The dealer is drawn first either way, so a standard table's draw is
    the same as before the fugitive dealt."""
    if len(players) != options.players:
        raise RuleError("This table is set for {players} players, not {seated}.",
                        players=options.players, seated=len(players))
    if len({p.id for p in players}) != len(players):
        raise RuleError("A player cannot take two seats.")
    rng = random.Random(f"{seed}:setup")
    dealer = rng.randrange(options.players)
    fugitive: int | None = None
    if options.one_against_all:
        fugitive = (
            options.fugitive if options.fugitive is not None else rng.randrange(options.players)
        )
        dealer = fugitive
    state = GameState(
        options=options,
        seed=seed,
        seats=[Seat(id=p.id, name=p.name) for p in players],
        dealer=dealer,
        fugitive=fugitive,
        turn=dealer,
    )
    events: list[Event] = [
        GameStarted(
            audience=Audience.public(), seat_names=[p.name for p in players], options=options
        )
    ]
    return state, events + flow.begin_round(state, rng)


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Validate `action` against `state`; return the next state and what happened.

    Raises RuleError (and leaves `state` untouched) when the rules forbid the action.
    """
    legal.check(state, action)
    new = _fork(state)
    rng = random.Random(f"{state.seed}:{state.step}")
    new.step += 1
    match action:
        case Abandon():
            events = flow.abandon(new, action.reason, rng)
        case _ if isinstance(action, PLAY_TYPES):
            events = plays.play(new, action, rng)
        case Accuse():
            named = Triple(
                suspect=action.suspect, vehicle=action.vehicle, destination=action.destination
            )
            events = flow.accuse(new, action.seat, named, rng)
        case EndTurn():
            events = flow.end_turn(new, rng)
        case ChooseSolution():
            events = _choose_solution(new, action, rng)
        case ShowCard():
            prompt = new.prompt_for(action.seat)
            assert isinstance(prompt, ShowPrompt)
            events = plays.show(new, action, prompt)
        case PickCard():
            prompt = new.prompt_for(action.seat)
            assert isinstance(prompt, PickPrompt)
            events = plays.pick(new, action, prompt)
        case AnswerTip():
            prompt = new.prompt_for(action.seat)
            assert isinstance(prompt, TipPrompt)
            events = plays.answer_tip(new, action, prompt)
    return new, events


def _fork(state: GameState) -> GameState:
    """An independent copy to mutate: a dump and re-validate is faster than a deep copy of the
    whole log, and checks the result."""
    return GameState.model_validate(state.model_dump())


def _choose_solution(state: GameState, action: ChooseSolution, rng: random.Random) -> list[Event]:
    solution = Triple(
        suspect=action.suspect, vehicle=action.vehicle, destination=action.destination
    )
    state.solution = solution
    flow.close_prompt(state, action.seat)
    state.log.append(SolutionChosenRecord(seat=action.seat))
    events: list[Event] = [
        SolutionChosen(audience=Audience.public(), seat=action.seat),
        SolutionChosen(audience=Audience.to(action.seat), seat=action.seat, solution=solution),
    ]
    return events + flow.solution_chosen(state, rng)
