"""The review after a game, one shell for every game: the DM each member gets at the end and
`/… review`, later, from the stored finished game.

A review names the member's own secret (their mystery, the solution), so it exists only once
the game is over, when the reveal shows every card anyway, and it goes only to the member it
reviews. Each game brings its engine's review (a pure function of the finished state: it
reads the same whenever asked) and its embed. Reviewing is seconds of solving for a whole
table, so it runs in the thinkers' pool: the `/… review` answer through `think`, the DMs at
the end through the table service before the change is stored (`GameModule.slow_letters`).
A table of several games (a Mansion series) has one review per game, each from its own end
on: a DM at that end, and `/… review game:<k>`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import discord
from pydantic import BaseModel

from bot.components import Locate
from bot.errors import UserError
from bot.i18n import N_, tr
from bot.interactions import language_of, run, tables_of
from bot.messages import Outgoing
from bot.plug import Own
from bot.thinking import think

S = TypeVar("S", bound=BaseModel)
R = TypeVar("R")

TITLE = N_("📋 Your review")
NOT_OVER = N_("The review comes once the game is over: it names your own {secret}.")
NO_SUCH_GAME = N_("There is no finished game {game} to review here: the games over so far "
                  "are numbered 1 to {count}.")


@dataclass(frozen=True)
class Reviewer(Generic[S, R]):
    """How a game reviews one seat. Every field is a module-level function, so a reviewer
    travels to the thinkers' pool with the state it reviews."""

    secret: str
    """What the review names that only the end may show ("mystery", "solution"; a marked
    text)."""
    review: Callable[[S, int, int], R]
    """The engine's review of a seat in a finished game of the table (1: its first)."""
    finished: Callable[[S], int]
    """How many games of the table are over, so reviewed (several in a series, each from
    its own end on)."""
    missing: Callable[[S, R], str | None]
    """Why there is nothing to review (a game stored before its record was kept, one ended
    before play), or None."""
    embed: Callable[[S, R, str], discord.Embed]
    """The review in a language."""
    model: type[S]
    """The game's state model: a stored state is checked to be one (`bot.plug.Own`)."""

    def letter(self, state: S, seat: int, lang: str, game: int | None = None
               ) -> Outgoing | None:
        """The review DM of game `game` (None: the one that just ended, the table's last
        finished one; none for a game with nothing to review)."""
        result = self.review(state, seat, game or self.finished(state))
        if self.missing(state, result) is not None:
            return None
        return Outgoing.of(embeds=[self.embed(state, result, lang)])

    async def show(self, interaction: discord.Interaction, locate: Locate,
                   game: int | None = None) -> None:
        """`/… review`: the member's review of game `game` here (None: the last finished
        one), once it is over."""
        async def work() -> Outgoing:
            table = await locate()
            tables = tables_of(interaction)
            own = Own[S, object](self.model)
            state = None if table.status == "lobby" else own.state(tables.state_of(table))
            if state is None or (table.status == "playing" and not self.finished(state)):
                # a rematch or a new lobby took the channel: the game before it is reviewed
                last = await tables.storage.last_finished(table.channel_id, table.game)
                if last is not None and last.seat_of(interaction.user.id) is not None:
                    table, state = last, own.state(tables.state_of(last))
            seat = tables.seat(table, interaction.user.id)
            if state is None:  # a lobby: `state_of` says the game has not started
                state = own.state(tables.state_of(table))
            count = self.finished(state)
            if count == 0:
                raise UserError(NOT_OVER, secret=lambda lang: tr(lang, self.secret))
            if game is not None and not 1 <= game <= count:
                raise UserError(NO_SUCH_GAME, game=game, count=count)
            result = await think(interaction, self.review, state, seat, game or count)
            why = self.missing(state, result)
            if why is not None:
                raise UserError(why)
            return Outgoing.of(embeds=[self.embed(state, result,
                                                  await language_of(interaction))])

        await run(interaction, work)


def review_letters(letter: Callable[[Any, int, str], Outgoing | None], state: Any,
                   seats: Mapping[int, str]) -> dict[int, Outgoing]:
    """Each seat's review DM in its member's language (`seats`: seat → language), by seat
    (run in the thinkers' pool: `letter` and `state` must pickle, so `letter` is a
    module-level function)."""
    return {seat: out for seat, lang in seats.items()
            if (out := letter(state, seat, lang)) is not None}


def could_accuse_line(turn: int | None, lang: str) -> str:
    """The first of the member's turns on which their deduction was certain, if any."""
    if turn is None:
        return tr(lang, "Your deduction was never certain on one of your turns.")
    return tr(lang, "You could first have accused with certainty on turn **{turn}**.", turn=turn)


def review_frame(head: Sequence[str], turns: Sequence[str],
                 fit: Callable[[Sequence[str], int], str], footer: str, lang: str
                 ) -> discord.Embed:
    """The review's one embed: the head (the secret, when the seat could have accused, when
    each card became certain), then the moves turn by turn, as many as fit."""
    body = "\n".join(head) + "\n\n**" + tr(lang, "Turn by turn") + "**\n"
    return discord.Embed(
        title=tr(lang, TITLE),
        description=body + fit(turns or [tr(lang, "You made no move of play in this game.")],
                               4000 - len(body)),
        colour=discord.Colour.dark_teal(),
    ).set_footer(text=footer)
