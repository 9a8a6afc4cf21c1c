"""The review after the game, for one member (Mansion): by DM when the table ends, and
`/mansion review`, through the shell of every game's review (`bot.reviews`). Built from the
stored finished state (`engine.mansion.review`), so it reads the same whenever it is asked.
"""

from __future__ import annotations

import functools

import discord

from bot.i18n import N_
from bot.mansion.coaching import play_text
from bot.mansion.render.labels import Voice, action_name, card_label, fit_lines
from bot.mansion.render.lines import voice
from bot.messages import Outgoing
from bot.reviews import Reviewer, could_accuse_line, review_frame
from engine.mansion.actions import (
    Accuse,
    AllSnoop,
    Move,
    PrivateTip,
    Snoop,
    SuggestAny,
    SuggestPresent,
    SuperSleuth,
)
from engine.mansion.coach import Play
from engine.mansion.records import Dealt, TurnBegan
from engine.mansion.review import Moment, Review, Step, review
from engine.mansion.state import GameState
from engine.mansion.views import public_view

OLD_GAME = ("This game was stored before the bot kept the Action cards dealt, so there is no "
            "turn-by-turn review of it.")
NOTHING = "That game ended before play began: there is nothing to review."


def review_embed(state: GameState, result: Review, lang: str) -> discord.Embed:
    """Turn by turn, the member's play against the coach's best with the possible solutions
    expected to be left after each; when they could first accuse with certainty; when each
    card of the solution became certain for them."""
    v = voice(public_view(state), result.seat)
    solution = " · ".join(card_label(c) for c in result.solution)
    head = [f"The solution was {solution}."]
    if len(state.rounds) > 1:
        head[0] += f" This reviews the last game of the series (game {result.round})."
    if state.rounds[-1].fugitive == result.seat:
        head.append("You were the fugitive: you chose it, and took no turns.")
    else:
        head.append(could_accuse_line(result.could_accuse, lang))
    for card in result.solution:
        head.append(f"• {card_label(card)}: {_moment_text(v, result.certain[card])}")
    turns = [_step_line(v, s) for s in result.steps]
    return review_frame(head, turns, functools.partial(fit_lines, noun="moves"),
                        "Figures: possible solutions left on average after the outcome, from "
                        "what you knew then (outcome chances from sampled deals); for an "
                        "accusation, the chance it was right.", lang)


def _step_line(v: Voice, step: Step) -> str:
    mine = (f"T{step.turn} · {step.solutions} possible · you: "
            f"{play_text(v, step.here, step.played.move)} ({_figures(step)})")
    best = step.best
    if best is None:
        return f"{mine} · coach: end the turn without accusing"
    if step.played.move == best.move or (
            not isinstance(step.played.move, Accuse)
            and abs(step.played.left - best.left) < 1e-9):
        return f"{mine} ✓ the coach's choice"
    coach = play_text(v, step.here, best.move)
    figure = "certain" if isinstance(best.move, Accuse) else f"{best.left:.1f} left"
    return f"{mine} · coach: {coach} ({figure})"


def _figures(step: Step) -> str:
    if isinstance(step.played.move, Accuse):
        return f"right with chance {step.chance or 0.0:.0%}"
    return f"{step.played.left:.1f} left"


def _moment_text(v: Voice, moment: Moment | None) -> str:
    if moment is None:
        return "never certain for you"
    if moment.turn == 0 or moment.by is None:
        return "certain from the deal on"
    when = f"certain on turn {moment.turn}"
    if moment.move is None:
        return when
    if isinstance(moment.move, Accuse):
        if moment.by == v.me:
            return f"{when}, with your accusation (you saw the solution)"
        return f"{when}, when {v.who(moment.by)} accused rightly"
    return f"{when}, after {v.whose(moment.by)} {_kind(moment.move)}"


def _kind(move: Play) -> str:
    """A play by its card, as the table saw it."""
    match move:
        case SuggestAny() | SuggestPresent():
            return "Suggestion"
        case Move():
            return "move"
        case Snoop():
            return "Snoop"
        case AllSnoop() | SuperSleuth():
            return action_name(move.card)
        case PrivateTip():
            return "Private Tip"


def _missing(state: GameState, result: Review) -> str | None:
    if result.complete:
        return None
    log = state.rounds[-1].log if state.rounds else []
    kept = any(isinstance(r, Dealt) and r.actions for r in log)
    played = any(isinstance(r, TurnBegan) for r in log)
    return OLD_GAME if played and not kept else NOTHING


REVIEWER = Reviewer[GameState, Review](secret=N_("solution"), model=GameState, review=review,
                                       missing=_missing, embed=review_embed)


def review_letter(state: GameState, seat: int, lang: str) -> Outgoing | None:
    """The review DM at the end of a table whose last game was played."""
    return REVIEWER.letter(state, seat, lang)
