"""The review after the game, for one member: by DM when the game ends, and `/13clues review`.

It names the member's own mystery, so it exists only once the game is over, when the reveal
shows every card anyway; and it goes only to the member it reviews. Built from the stored
finished state (`engine.thirteen_clues.review`), so it reads the same whenever it is asked.
"""

from __future__ import annotations

import discord

from bot.components import Locate
from bot.errors import UserError
from bot.i18n import N_
from bot.interactions import run, tables_of
from bot.messages import Outgoing
from bot.thinking import think
from bot.thirteen_clues.coaching import move_text
from bot.thirteen_clues.render.labels import Voice, card_label, fit_lines, subject_label
from engine.thirteen_clues.coach import Rated
from engine.thirteen_clues.review import Moment, Review, move_of, review
from engine.thirteen_clues.state import GameState, Question
from engine.thirteen_clues.views import public_view

TITLE = "📋 Your review"
NOT_OVER = N_("The review comes once the game is over: it names your own mystery.")
OLD_GAME = N_("This game was stored before the bot kept the order of play, so there is no "
              "turn-by-turn review of it.")
NOTHING = N_("That game ended before play began: there is nothing to review.")


def review_embed(state: GameState, result: Review) -> discord.Embed:
    """Turn by turn, the member's move against the coach's best with the expected
    information of each; when they could first accuse with certainty; when each card of
    their mystery became certain."""
    voice = Voice.of(public_view(state), result.seat)
    mystery = " · ".join(card_label(c) for c in result.mystery)
    head = [f"Your mystery was {mystery}."]
    if result.could_accuse is None:
        head.append("Your deduction was never certain on one of your turns.")
    else:
        head.append(f"You could first have accused with certainty on turn "
                    f"**{result.could_accuse}**.")
    for card in result.mystery:
        head.append(f"• {card_label(card)}: {_moment_text(state, voice, result.certain[card])}")
    turns = [_step_line(voice, s.turn, s.played, s.best, s.mysteries) for s in result.steps]
    if not turns:
        turns = ["You made no move of play in this game."]
    body = "\n".join(head) + "\n\n**Turn by turn**\n"
    embed = discord.Embed(
        title=TITLE,
        description=body + fit_lines(turns, 4000 - len(body), noun="moves"),
        colour=discord.Colour.dark_teal(),
    )
    embed.set_footer(text="Figures: possible mysteries left on average after the answer, and "
                          "the expected information in bits, from what you knew then.")
    return embed


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


def review_letter(state: GameState, seat: int) -> Outgoing | None:
    """The review DM at the end of a game that was played (none for one ended in the pass)."""
    result = review(state, seat)
    return Outgoing.of(embeds=[review_embed(state, result)]) if result.complete else None


async def show_review(interaction: discord.Interaction, locate: Locate) -> None:
    """`/13clues review`: the member's review of the game here, once it is over."""
    async def work() -> Outgoing:
        table = await locate()
        tables = tables_of(interaction)
        seat = tables.seat(table, interaction.user.id)
        state: GameState = tables.state_of(table)
        if state.phase != "over":
            raise UserError(NOT_OVER)
        result = await think(interaction, review, state, seat)
        if not result.complete:
            played = state.questions or state.consultations or state.accusations
            raise UserError(OLD_GAME if played else NOTHING)
        return Outgoing.of(embeds=[review_embed(state, result)])

    await run(interaction, work)
