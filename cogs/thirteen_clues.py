"""`/13clues`: the lobby and looks come from the generic table cog; here are 13 Clues' own
commands. Each builds its action with the same builder as its button."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import discord
from discord import app_commands

from bot.client import DeductionBot
from bot.errors import UserError
from bot.i18n import N_, tr
from bot.interactions import language_of, place_of, reply_for, run
from bot.messages import Outgoing
from bot.thirteen_clues import actions
from bot.thirteen_clues.casebook import show_casebook
from bot.thirteen_clues.components import FAMILIES, consult_reply, pass_reply
from bot.thirteen_clues.family import OWN, Then
from bot.thirteen_clues.game import GAME, Edition
from bot.thirteen_clues.reviewing import REVIEWER
from cogs.table import TableCog

Text = app_commands.Range[str, 1, actions.MAX_INPUT]
Choices = list[app_commands.Choice[str]]


class ThirteenCluesCog(
    TableCog,
    group_name="13clues",
    group_description="13 Clues: find the Person, Location and Weapon you hold",
):
    game = GAME.key
    families = FAMILIES

    async def act(self, interaction: discord.Interaction, build: actions.Build, done: str,
                  then: Callable[[str, str], Then] | None = None) -> None:
        """Apply `build`; the member is answered `done` (a template for `tr`) in their
        language, or what `then(lang, done)` makes of the change."""
        reply = reply_for(interaction, done)

        async def work() -> None:
            lang = await language_of(interaction)  # once deferred: it may read the database
            reply.body = Outgoing(content=tr(lang, done))
            reply.then = None if then is None else OWN.then(then(lang, tr(lang, done)))
            table = await self.here(interaction)()
            await self.tables.act(table.id, interaction.user.id, OWN.builder(build),
                                  place=place_of(interaction), reply=reply)

        await run(interaction, work, stored=reply)

    # the lobby ----------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a 13 Clues table in this channel")
    @app_commands.describe(
        edition="Rule set (2020 by default)",
        top_secret="Top Secret variant: one secret question per player",
        assist="How much the casebook helps: off, bookkeeping, or full deduction",
        turn_minutes="Minutes per turn before an AI plays it (0 = no limit)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        edition: Edition | None = None,
        top_secret: bool | None = None,
        assist: Literal["off", "bookkeeping", "full"] | None = None,
        turn_minutes: app_commands.Range[int, 0, 1440] | None = None,
    ) -> None:
        await self.open_table(interaction, {
            "edition": edition, "top_secret": top_secret, "assist": assist,
            "turn_minutes": turn_minutes,
        })

    # play ---------------------------------------------------------------------------------

    @app_commands.command(name="pass",
                          description="Choose the Person, Location, Weapon to pass left")
    @app_commands.describe(person="The Person to pass", location="The Location to pass",
                           weapon="The Weapon to pass")
    async def pass_(self, interaction: discord.Interaction, person: Text, location: Text,
                    weapon: Text) -> None:
        done = N_("Your choice is made; nothing is shown until everyone has chosen.")
        await self.act(interaction, actions.pass_named(person, location, weapon), done,
                       then=pass_reply)

    @app_commands.command(name="ask", description="Question a witness")
    @app_commands.describe(
        witness="The player you ask",
        about="A suit, a sub-category (or, 2016 rules, a category)",
        side="Two players only: including the witness's left or right card",
        top_secret="Spend your Top Secret token: only you and the witness learn this",
    )
    async def ask(
        self,
        interaction: discord.Interaction,
        witness: discord.User,
        about: Text,
        side: Literal["left", "right"] | None = None,
        top_secret: bool = False,
    ) -> None:
        def seat(state: actions.GameState) -> int:
            return actions.member_seat(state, witness.id)

        await self.act(interaction, actions.ask(seat, about, side, top_secret), N_("Asked."))

    @app_commands.command(name="informant", description="Look at a Secret Informant card")
    @app_commands.describe(card="The informant's letter")
    async def informant(self, interaction: discord.Interaction,
                        card: app_commands.Range[str, 1, 2]) -> None:
        await self.act(interaction, actions.consult(card),
                       N_("✅ Consulted (also in `/13clues hand`)."), then=consult_reply)

    @app_commands.command(name="accuse",
                          description="Name the Person, Location and Weapon on your holder")
    @app_commands.describe(person="The Person on your holder", location="The Location",
                           weapon="The Weapon")
    async def accuse(self, interaction: discord.Interaction, person: Text, location: Text,
                     weapon: Text) -> None:
        await self.act(interaction, actions.accuse(person, location, weapon),
                       N_("Accusation made."))

    @app_commands.command(name="take",
                          description="Take a magnifying glass from a player (empty supply)")
    @app_commands.describe(player="The player who gives you a glass")
    async def take(self, interaction: discord.Interaction, player: discord.User) -> None:
        def seat(state: actions.GameState) -> int:
            return actions.member_seat(state, player.id, taking=True)

        await self.act(interaction, actions.take(seat), N_("You took a magnifying glass."))

    @app_commands.command(name="casebook",
                          description="Your casebook of candidates (only you see this)")
    @app_commands.describe(why="A card: why your casebook marks it as it does")
    async def casebook(self, interaction: discord.Interaction, why: Text | None = None) -> None:
        await show_casebook(interaction, self.here(interaction, finished=True), why)

    @app_commands.command(name="review",
                          description="Your review of the last game here (only you see this)")
    async def review(self, interaction: discord.Interaction) -> None:
        await REVIEWER.show(interaction, self.here(interaction, finished=True))

    # autocomplete -------------------------------------------------------------------------

    async def _choices(
        self, interaction: discord.Interaction,
        pick: Callable[[actions.GameState, int, str], list[actions.Choice]],
    ) -> Choices:
        """Autocomplete cannot defer: one read, and nothing at all for a stranger; the
        choices read in the member's language."""
        try:
            table = await self.here(interaction)()
            seat = self.tables.seat(table, interaction.user.id)
            state = OWN.state(self.tables.state_of(table))
        except UserError:
            return []
        lang = self.bot.languages.known(interaction)
        return [app_commands.Choice(name=n, value=v) for n, v in pick(state, seat, lang)]

    async def _of_category(self, interaction: discord.Interaction, current: str,
                           pick: actions.CategoryChoices) -> Choices:
        """The cards of the category whose option is being typed (person, location, weapon)."""
        category = actions.focused_category(interaction.data)
        return await self._choices(
            interaction, lambda s, seat, lang: pick(s, seat, category, current, lang))

    @pass_.autocomplete("person")
    @pass_.autocomplete("location")
    @pass_.autocomplete("weapon")
    async def _pass_cards(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._of_category(interaction, current, actions.pass_choices)

    @accuse.autocomplete("person")
    @accuse.autocomplete("location")
    @accuse.autocomplete("weapon")
    async def _accusable(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._of_category(interaction, current, actions.accuse_choices)

    @ask.autocomplete("about")
    async def _subjects(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, _, lang: actions.subject_choices(s, current, lang))

    @casebook.autocomplete("why")
    async def _why_cards(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, seat, lang: actions.why_choices(s, seat, current, lang)
        )

    @informant.autocomplete("card")
    async def _letters(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._choices(
            interaction, lambda s, seat, lang: actions.letter_choices(s, seat, current, lang)
        )


async def setup(bot: DeductionBot) -> None:
    await bot.add_cog(ThirteenCluesCog(bot))
