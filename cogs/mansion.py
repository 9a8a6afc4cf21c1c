"""`/mansion`: the lobby and looks come from the generic table cog; here are Mansion's own
commands (`new`, `turn`, `accuse`, `notes`). Each builds its action with the same builder
as its button."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.client import DeductionBot
from bot.i18n import tr
from bot.interactions import Answer, as_outgoing, language_of, place_of, reply_for, run
from bot.mansion import actions
from bot.mansion.components import ACCUSED, FAMILIES, after, member_view, turn_panel
from bot.mansion.family import OWN
from bot.mansion.game import GAME
from bot.mansion.notes import notes_answer
from bot.mansion.reviewing import REVIEWER
from bot.models import Table
from cogs.table import TableCog

Text = app_commands.Range[str, 1, actions.MAX_INPUT]
Choices = list[app_commands.Choice[str]]


class MansionCog(
    TableCog,
    group_name="mansion",
    group_description="Clue: Mystery Beyond the Mansion: find the suspect, vehicle and "
                      "destination",
):
    game = GAME.key
    families = FAMILIES

    # the lobby ----------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a Mansion table in this channel")
    @app_commands.describe(
        variant="standard, or one-against-all (a fugitive chooses the solution)",
        assist="How much /mansion notes helps: off, bookkeeping, or full deduction",
        series="Wins needed to be Master Detective (1: a single game)",
        turn_minutes="Minutes per turn before the timer plays for an idle member (0 = off)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        variant: Literal["standard", "one-against-all"] | None = None,
        assist: Literal["off", "bookkeeping", "full"] | None = None,
        series: Literal[1, 2, 3] | None = None,
        turn_minutes: app_commands.Range[int, 0, 1440] | None = None,
    ) -> None:
        await self.open_table(interaction, {
            "variant": variant, "assist": assist, "series": series,
            "turn_minutes": turn_minutes,
        })

    # play ---------------------------------------------------------------------------------

    @app_commands.command(name="turn", description="Your turn panel: your Action cards and "
                                                   "what they need (only you see this)")
    async def turn(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> Answer:
            lang = await language_of(interaction)
            return turn_panel(self.tables, table, interaction.user.id, lang)

        await self.on_table(interaction, work)

    @app_commands.command(name="accuse",
                          description="Accuse: name the suspect, vehicle and destination")
    @app_commands.describe(suspect="The suspect", vehicle="The vehicle",
                           destination="The destination")
    async def accuse(self, interaction: discord.Interaction, suspect: Text, vehicle: Text,
                     destination: Text) -> None:
        reply = reply_for(interaction, ACCUSED)

        async def work() -> None:
            lang = await language_of(interaction)  # after the defer: it may read
            reply.body = as_outgoing(tr(lang, ACCUSED))
            table = await self.here(interaction)()
            seat = self.tables.seat(table, interaction.user.id)
            reply.then, reply.tells = OWN.then(after(table.id, seat, lang)), seat
            await self.tables.act(table.id, interaction.user.id,
                                  OWN.builder(actions.accuse(None, suspect, vehicle, destination)),
                                  place=place_of(interaction), reply=reply)

        await run(interaction, work, stored=reply)

    @app_commands.command(name="notes", description="Your notes grid (only you see this)")
    @app_commands.describe(why="A card: why your notes mark it as they do")
    async def notes(self, interaction: discord.Interaction, why: Text | None = None) -> None:
        async def work(table: Table) -> Answer:
            view = member_view(self.tables, table, interaction.user.id)
            return await notes_answer(interaction, table, view, why)

        await self.on_table(interaction, work, finished=True)

    @app_commands.command(name="review",
                          description="Your review of the last game here (only you see this)")
    @app_commands.describe(game="Which game of the series: 1 for the first (default: the last "
                                "one over)")
    async def review(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1, 99] | None = None) -> None:
        await REVIEWER.show(interaction, self.here(interaction, finished=True), game)

    # autocomplete -------------------------------------------------------------------------

    @accuse.autocomplete("suspect")
    @accuse.autocomplete("vehicle")
    @accuse.autocomplete("destination")
    async def _cards(self, interaction: discord.Interaction, current: str) -> Choices:
        """Autocomplete cannot defer: no reads at all, every card of the kind being typed, in
        the member's language."""
        kind = actions.focused_kind(interaction.data)
        lang = self.bot.languages.known(interaction)
        return [app_commands.Choice(name=n, value=v)
                for n, v in actions.card_choices(kind, current, lang)]

    @notes.autocomplete("why")
    async def _why_cards(self, interaction: discord.Interaction, current: str) -> Choices:
        """Every Clue card whose name holds what was typed (no reads: autocomplete cannot
        defer)."""
        lang = self.bot.languages.known(interaction)
        return [app_commands.Choice(name=n, value=v)
                for n, v in actions.why_choices(current, lang)]


async def setup(bot: DeductionBot) -> None:
    await bot.add_cog(MansionCog(bot))
