"""What every Mansion component family shares: the custom_id scheme, the parsed click, and
a callback that answers whatever goes wrong.

A custom_id is `mbm:<verb>:<table id>[:<prompt id or ->[:<draft>]]`. Buttons that answer a
question carry the id of the prompt they answer (a prompt's "version"): a click on a prompt
already answered, or from an earlier step of the game, is refused politely, while answers
of other players meanwhile (an All Snoop, a Super Sleuth) never make a button stale.
Multi-step pickers carry their draft in the id itself, so nothing lives in memory and every
button works after a restart, from a DM as from the channel.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.errors import UserError
from bot.family import GameFamily, family_id, headed_in_dm
from bot.i18n import N_, tr
from bot.interactions import language_of, place_of, run_update, tables_of
from bot.messages import Outgoing
from bot.models import Table
from bot.plug import Own
from bot.tables import Reply
from engine.mansion import Action, Event, GameState, player_view
from engine.mansion.views import PlayerView

PREFIX = "mbm"
OWN: Own[GameState, Event] = Own(GameState)
"""The Mansion's state and events, given back by the shell (`bot.plug.Own`)."""

Build = Callable[[GameState, int], Action]
Then = Callable[[GameState, list[Event]], Outgoing]


def custom_id(verb: str, table_id: int, prompt: int | None = None, draft: str = "") -> str:
    return family_id(PREFIX, verb, table_id, prompt, draft)


class Family(GameFamily, template=r"mbm:never"):
    """Every Mansion component family."""


    async def seat_view(self, interaction: discord.Interaction, *, recent: bool = True
                        ) -> tuple[Table, PlayerView]:
        """The table and the clicking member's view of it (refused for strangers and for a
        game not in play)."""
        table = await self.table(interaction, recent=recent)
        if table.status != "playing":
            if table.status == "over":
                raise UserError("This game is over.")
            raise UserError("The game has not started yet.")
        tables = tables_of(interaction)
        seat = tables.seat(table, interaction.user.id)
        state = OWN.state(tables.state_of(table))
        return table, player_view(state, seat)

    async def current(self, interaction: discord.Interaction) -> tuple[Table, PlayerView]:
        """As `seat_view`, refused unless the prompt this button answers is still open."""
        table, view = await self.seat_view(interaction)
        if self.click.stamp is not None and (view.prompt is None
                                             or view.prompt.id < self.click.stamp):
            # made by a change not heard of here yet: the row says
            table, view = await self.seat_view(interaction, recent=False)
        check_prompt(view.prompt.id if view.prompt else None, self.click.stamp)
        return table, view

    def after(self, table_id: int, seat: int, lang: str, done: str) -> Then:
        """The answer once this family's action is stored, rendered from the new state
        (`bot.mansion.components.Acting`: the turn panel, built on this module)."""
        raise NotImplementedError

    async def act(self, interaction: discord.Interaction, build: Build, done: str) -> None:
        """A picker's last step: apply the action; the message becomes its result, rendered
        from the new state: what the member learned, then their next step. `done`: the
        English template of the answer when there is nothing else to say."""

        lang = await language_of(interaction)

        async def work(reply: Reply) -> None:
            table = await self.table(interaction)
            seat = tables_of(interaction).seat(table, interaction.user.id)
            then = self.after(table.id, seat, lang, done)
            reply.then = OWN.then(lambda state, events: headed_in_dm(interaction, table,
                                                                     then(state, events), lang))
            reply.tells = seat
            await tables_of(interaction).act(
                self.click.table_id, interaction.user.id, OWN.builder(build),
                place=place_of(interaction), reply=reply,
            )

        await run_update(interaction, work, tr(lang, done))


STALE_PROMPT = N_("That button is out of date: it was already answered, or the game has "
                  "moved on. Use the newest message, `/mansion turn` or `/mansion hand`.")


def check_prompt(open_id: int | None, wanted: int | None) -> None:
    if wanted is None or open_id != wanted:
        raise UserError(STALE_PROMPT)
