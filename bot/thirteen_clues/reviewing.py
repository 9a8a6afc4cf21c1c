"""The review after the game, for one member (13 Clues): by DM when the game ends, and
`/13clues review`, through the shell of every game's review (`bot.reviews`). Built from the
stored finished state (`engine.thirteen_clues.review`), so it reads the same whenever it is
asked.
"""

from __future__ import annotations

import functools

import discord

from bot.i18n import N_
from bot.messages import Outgoing
from bot.reviews import TITLE as TITLE  # re-exported: the secrecy audit tells a review by it
from bot.reviews import Reviewer, could_accuse_line, review_frame
from bot.thirteen_clues.coaching import move_text
from bot.thirteen_clues.render.labels import Voice, card_label, fit_lines, subject_label
from engine.thirteen_clues.coach import Rated
from engine.thirteen_clues.review import Moment, Review, move_of, review
from engine.thirteen_clues.state import GameState, Question
from engine.thirteen_clues.views import public_view

OLD_GAME = N_("This game was stored before the bot kept the order of play, so there is no "
              "turn-by-turn review of it.")
NOTHING = N_("That game ended before play began: there is nothing to review.")


def review_embed(state: GameState, result: Review, lang: str) -> discord.Embed:
    """Turn by turn, the member's move against the coach's best with the expected
    information of each; when they could first accuse with certainty; when each card of
    their mystery became certain."""
    voice = Voice.of(public_view(state), result.seat)
    mystery = " · ".join(card_label(c) for c in result.mystery)
    head = [f"Your mystery was {mystery}.", could_accuse_line(result.could_accuse, lang)]
    for card in result.mystery:
        head.append(f"• {card_label(card)}: {_moment_text(state, voice, result.certain[card])}")
    turns = [_step_line(voice, s.turn, s.played, s.best, s.mysteries) for s in result.steps]
    return review_frame(head, turns, functools.partial(fit_lines, noun="moves"),
                        "Figures: possible mysteries left on average after the answer, and "
                        "the expected information in bits, from what you knew then.", lang)


def _step_line(voice: Voice, turn: int, played: Rated, best: Rated, mysteries: int) -> str:
    mine = f"T{turn} · {mysteries} possible · you: {move_text(voice, played.move)} " \
           f"({_figures(played)})"
    if _same(played, best):
        return f"{mine} ✓ the coach's choice"
    return f"{mine} · coach: {move_text(voice, best.move)} ({_figures(best)})"


def _figures(rated: Rated) -> str:
    return f"{rated.left:.1f} left, {rated.bits:.2f} bits"


def _same(a: Rated, b: Rated) -> bool:
    """The same move, or one as good (the coach's ranking ties)."""
    return abs(a.left - b.left) < 1e-9 and abs(a.bits - b.bits) < 1e-9


def _moment_text(state: GameState, voice: Voice, moment: Moment | None) -> str:
    if moment is None:
        return "never certain for you"
    if moment.after == 0:
        return "certain from the start of play"
    move = move_of(state, moment.after - 1)
    when = f"turn {moment.turn}"
    if move.type == "ask":
        nth = sum(p.kind == "ask" for p in state.played[: moment.after - 1])
        q: Question = state.questions[nth]
        return (f"certain on {when}, when {voice.who(q.witness)} answered {q.answer} to "
                f"{voice.who(q.asker)} about {subject_label(q.subject)}")
    if move.type == "consult":
        return f"certain on {when}, after you consulted informant {move.letter}"
    right = state.accusations[sum(p.kind == "accuse" for p in state.played[: moment.after - 1])]
    if right.correct:
        return f"certain only with your right accusation on {when}"
    return f"certain on {when}, after your wrong accusation"


def _missing(state: GameState, result: Review) -> str | None:
    if result.complete:
        return None
    return OLD_GAME if state.questions or state.consultations or state.accusations else NOTHING


REVIEWER = Reviewer[GameState, Review](secret=N_("mystery"), model=GameState, review=review,
                                       missing=_missing, embed=review_embed)


def review_letter(state: GameState, seat: int, lang: str) -> Outgoing | None:
    """The review DM at the end of a game that was played (none for one ended in the pass)."""
    return REVIEWER.letter(state, seat, lang)
