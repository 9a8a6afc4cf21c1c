"""The review after the game, for one member (Mansion): by DM when each game of the table
ends (every game of a series, each at its own end), and `/mansion review game:<k>`, through
the shell of every game's review (`bot.reviews`). Built from the stored state
(`engine.mansion.review`, which reads only the games over), so it reads the same whenever
it is asked.
"""

from __future__ import annotations

import functools

import discord

from bot.i18n import N_, tr
from bot.mansion.coaching import play_text
from bot.mansion.render.labels import Voice, action_name, fit_lines
from bot.mansion.render.lines import voice
from bot.mansion.words import card_label
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

OLD_GAME = N_("This game was stored before the bot kept the Action cards dealt, so there is "
              "no turn-by-turn review of it.")
NOTHING = N_("That game ended before play began: there is nothing to review.")


def review_embed(state: GameState, result: Review, lang: str) -> discord.Embed:
    """Turn by turn, the member's play against the coach's best with the possible solutions
    expected to be left after each; when they could first accuse with certainty; when each
    card of the solution became certain for them."""
    v = voice(public_view(state), result.seat, lang)
    solution = " · ".join(card_label(lang, c) for c in result.solution)
    head = [tr(lang, "The solution was {solution}.", solution=solution)]
    if state.options.series_wins > 1:
        head[0] += " " + tr(lang, "This reviews game {round} of the series.",
                            round=result.round)
    if state.rounds[result.round - 1].fugitive == result.seat:
        head.append(tr(lang, "You were the fugitive: you chose it, and took no turns."))
    else:
        head.append(could_accuse_line(result.could_accuse, lang))
    for card in result.solution:
        head.append(f"• {card_label(lang, card)}: {_moment_text(v, result.certain[card])}")
    turns = [_step_line(v, s) for s in result.steps]
    return review_frame(head, turns, functools.partial(fit_lines, lang, moves=True),
                        tr(lang, "Figures: possible solutions left on average after the outcome, "
                                 "from what you knew then (outcome chances from sampled deals); "
                                 "for an accusation, the chance it was right."), lang)


def _step_line(v: Voice, step: Step) -> str:
    lang = v.lang
    mine = tr(lang, "T{turn} · {solutions} possible · you: {play} ({figures})", turn=step.turn,
              solutions=step.solutions, play=play_text(v, step.here, step.played.move),
              figures=_figures(lang, step))
    best = step.best
    if best is None:
        return tr(lang, "{mine} · coach: end the turn without accusing", mine=mine)
    if step.played.move == best.move or (
            not isinstance(step.played.move, Accuse)
            and abs(step.played.left - best.left) < 1e-9):
        return tr(lang, "{mine} ✓ the coach's choice", mine=mine)
    coach = play_text(v, step.here, best.move)
    figure = (tr(lang, "certain") if isinstance(best.move, Accuse)
              else tr(lang, "{left} left", left=f"{best.left:.1f}"))
    return tr(lang, "{mine} · coach: {coach} ({figure})", mine=mine, coach=coach, figure=figure)


def _figures(lang: str, step: Step) -> str:
    if isinstance(step.played.move, Accuse):
        return tr(lang, "right with chance {chance}", chance=f"{step.chance or 0.0:.0%}")
    return tr(lang, "{left} left", left=f"{step.played.left:.1f}")


def _moment_text(v: Voice, moment: Moment | None) -> str:
    lang = v.lang
    if moment is None:
        return tr(lang, "never certain for you")
    if moment.turn == 0 or moment.by is None:
        return tr(lang, "certain from the deal on")
    if moment.move is None:
        return tr(lang, "certain on turn {turn}", turn=moment.turn)
    if isinstance(moment.move, Accuse):
        if moment.by == v.me:
            return tr(lang, "certain on turn {turn}, with your accusation (you saw the solution)",
                      turn=moment.turn)
        return tr(lang, "certain on turn {turn}, when {seat} accused rightly", turn=moment.turn,
                  seat=v.who(moment.by))
    if moment.by == v.me:
        return tr(lang, "certain on turn {turn}, after your {play}", turn=moment.turn,
                  play=_kind(lang, moment.move))
    return tr(lang, "certain on turn {turn}, after {seat}'s {play}", turn=moment.turn,
              seat=v.who(moment.by), play=_kind(lang, moment.move))


def _kind(lang: str, move: Play) -> str:
    """A play by its card, as the table saw it."""
    match move:
        case SuggestAny() | SuggestPresent():
            return "Suggestion"
        case Move():
            return tr(lang, "move")
        case Snoop():
            return "Snoop"
        case AllSnoop() | SuperSleuth():
            return action_name(lang, move.card)
        case PrivateTip():
            return "Private Tip"


def _missing(state: GameState, result: Review) -> str | None:
    if result.complete:
        return None
    log = state.rounds[result.round - 1].log if state.rounds else []
    kept = any(isinstance(r, Dealt) and r.actions for r in log)
    played = any(isinstance(r, TurnBegan) for r in log)
    return OLD_GAME if played and not kept else NOTHING


def _finished(state: GameState) -> int:
    return len(state.rounds)


REVIEWER = Reviewer[GameState, Review](secret=N_("solution"), model=GameState, review=review,
                                       finished=_finished, missing=_missing,
                                       embed=review_embed)


def review_letter(state: GameState, seat: int, lang: str) -> Outgoing | None:
    """The review DM at the end of a game of the table (each game of a series at its own
    end): the review of the last game over."""
    return REVIEWER.letter(state, seat, lang)
