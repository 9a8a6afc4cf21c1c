"""AI players for Clue: Mystery Beyond the Mansion, acting on a seat's PlayerView only.

An AI sees exactly what a human in that seat sees: `choose_action` takes a PlayerView,
never the GameState, and answers whatever the seat must do now (its turn, the "accuse or
end" step, showing a card, picking a face-down card, answering a Private Tip, or choosing
the solution as the fugitive). Levels: "easy" (bookkeeping, random plays), "normal"
(heuristics on bookkeeping), "expert" (exact notes, information-maximising plays). Pure:
randomness only from the `random.Random` passed in (see `rng_for` for a reproducible one).
"""

from __future__ import annotations

import random
from typing import Literal

from engine.mansion.actions import Action
from engine.mansion.ai import answers, easy, expert, normal
from engine.mansion.state import GameState
from engine.mansion.views import PlayerView

Level = Literal["easy", "normal", "expert"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "expert")

__all__ = ["LEVELS", "Level", "choose_action", "rng_for"]


def choose_action(
    view: PlayerView,
    level: Level,
    rng: random.Random,
    *,
    params: expert.Params | None = None,
) -> Action:
    """A legal action for whatever `view.seat` must answer now.

    Raises ValueError when the game is not waiting on this seat. `params` tunes the expert
    (benchmarks)."""
    prompt = view.prompt
    if prompt is None or view.phase == "over":
        raise ValueError(f"Seat {view.seat} has nothing to answer now.")
    match prompt.kind:
        case "choose_solution":
            return answers.choose_solution(view, rng)
        case "show":
            return answers.show(view, prompt, rng)
        case "pick":
            return answers.pick(view, prompt, rng)
        case "answer_tip":
            return answers.answer_tip(view, prompt, rng)
        case "play":
            if level == "expert":
                return expert.play(view, rng, params or expert.DEFAULT)
            if level == "normal":
                return normal.play(view, rng)
            return easy.play(view, rng)
        case "accuse_or_end":
            if level == "expert":
                return expert.accuse_or_end(view, rng, params or expert.DEFAULT)
            if level == "normal":
                return normal.accuse_or_end(view, rng)
            return easy.accuse_or_end(view, rng)


def rng_for(state: GameState, seat: int) -> random.Random:
    """A reproducible generator for one AI decision, derived from the table's seed, the game,
    the number of actions applied and the seat, so a replayed game replays the same moves."""
    return random.Random(f"mansion-ai:{state.seed}:{state.round}:{state.step}:{seat}")
