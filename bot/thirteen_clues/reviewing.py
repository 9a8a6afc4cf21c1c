"""The review after the game, for one member (13 Clues): by DM when the game ends, and
`/13clues review`, through the shell of every game's review (`bot.reviews`). Built from the
stored finished state (`engine.thirteen_clues.review`), so it reads the same whenever it is
asked.
"""

from __future__ import annotations

import functools

import discord

from bot.i18n import N_, tr
from bot.messages import Outgoing
from bot.reviews import TITLE as TITLE  # re-exported: the secrecy audit tells a review by it
from bot.reviews import Reviewer, could_accuse_line, review_frame
from bot.thirteen_clues.coaching import move_text
from bot.thirteen_clues.render.labels import Voice, fit_lines
from bot.thirteen_clues.words import card_label, subject_label
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
    voice = Voice.of(lang, public_view(state), result.seat)
    mystery = " · ".join(card_label(lang, c) for c in result.mystery)
    head = [tr(lang, "Your mystery was {cards}.", cards=mystery),
            could_accuse_line(result.could_accuse, lang)]
    for card in result.mystery:
        head.append(f"• {card_label(lang, card)}: "
                    f"{_moment_text(state, voice, result.certain[card])}")
    turns = [_step_line(voice, s.turn, s.played, s.best, s.mysteries) for s in result.steps]
    return review_frame(head, turns, functools.partial(fit_lines, lang, noun="moves"),
                        tr(lang, "Figures: possible mysteries left on average after the answer, "
                                 "and the expected information in bits, from what you knew "
                                 "then."), lang)


def _step_line(voice: Voice, turn: int, played: Rated, best: Rated, mysteries: int) -> str:
    lang = voice.lang
    mine = tr(lang, "T{turn} · {mysteries} possible · you: {move} ({figures})", turn=turn,
              mysteries=mysteries, move=move_text(voice, played.move),
              figures=_figures(lang, played))
    if _same(played, best):
        return tr(lang, "{mine} ✓ the coach's choice", mine=mine)
    return tr(lang, "{mine} · coach: {move} ({figures})", mine=mine,
              move=move_text(voice, best.move), figures=_figures(lang, best))


def _figures(lang: str, rated: Rated) -> str:
    return tr(lang, "{left} left, {bits} bits", left=f"{rated.left:.1f}", bits=f"{rated.bits:.2f}")


def _same(a: Rated, b: Rated) -> bool:
    """The same move, or one as good (the coach's ranking ties)."""
    return abs(a.left - b.left) < 1e-9 and abs(a.bits - b.bits) < 1e-9


def _moment_text(state: GameState, voice: Voice, moment: Moment | None) -> str:
    lang = voice.lang
    if moment is None:
        return tr(lang, "never certain for you")
    if moment.after == 0:
        return tr(lang, "certain from the start of play")
    move = move_of(state, moment.after - 1)
    if move.type == "ask":
        nth = sum(p.kind == "ask" for p in state.played[: moment.after - 1])
        q: Question = state.questions[nth]
        params = {"turn": moment.turn, "answer": q.answer,
                  "subject": subject_label(lang, q.subject)}
        if voice.mine(q.asker):  # "you" is the object here, another word in most languages
            return tr(lang, "certain on turn {turn}, when {witness} answered {answer} to you "
                            "about {subject}", witness=voice.who(q.witness), **params)
        if voice.mine(q.witness):
            return tr(lang, "certain on turn {turn}, when you answered {answer} to {asker} "
                            "about {subject}", asker=voice.who(q.asker), **params)
        return tr(lang, "certain on turn {turn}, when {witness} answered {answer} to {asker} "
                        "about {subject}", witness=voice.who(q.witness),
                  asker=voice.who(q.asker), **params)
    if move.type == "consult":
        return tr(lang, "certain on turn {turn}, after you consulted informant {letter}",
                  turn=moment.turn, letter=move.letter)
    right = state.accusations[sum(p.kind == "accuse" for p in state.played[: moment.after - 1])]
    if right.correct:
        return tr(lang, "certain only with your right accusation on turn {turn}",
                  turn=moment.turn)
    return tr(lang, "certain on turn {turn}, after your wrong accusation", turn=moment.turn)


def _missing(state: GameState, result: Review) -> str | None:
    if result.complete:
        return None
    return OLD_GAME if state.questions or state.consultations or state.accusations else NOTHING


def _review(state: GameState, seat: int, game: int) -> Review:
    """A 13 Clues table plays one game: `game` is always it."""
    return review(state, seat)


def _finished(state: GameState) -> int:
    return 1 if state.phase == "over" else 0


REVIEWER = Reviewer[GameState, Review](secret=N_("mystery"), model=GameState, review=_review,
                                       finished=_finished, missing=_missing,
                                       embed=review_embed)


def review_letter(state: GameState, seat: int, lang: str) -> Outgoing | None:
    """The review DM at the end of a game that was played (none for one ended in the pass)."""
    return REVIEWER.letter(state, seat, lang)
