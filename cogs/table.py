"""The generic table cog: what every game's command group has (lobby, status, log, rules,
hand, end). A game's cog extends it with `new` (its own options) and its own commands."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import components, lobby, sitting, watching
from bot.client import DeductionBot
from bot.errors import UserError
from bot.i18n import N_, tr, trn
from bot.interactions import Answer, acknowledge, language_of, place_of, reply_for, run
from bot.messages import Outgoing
from bot.models import Table
from bot.plug import AnyGame
from bot.replay import open_replay
from bot.tables import TableService
from bot.world import permits_posting

THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
           discord.ChannelType.news_thread)
UNPOSTABLE = N_("I need View Channel, Send Messages and Embed Links in this channel to run a "
                "table here. Ask a moderator to grant them, or use another channel.")
UNPOSTABLE_THREAD = N_("I need View Channel, Send Messages in Threads and Embed Links in this "
                       "thread to run a table here. Ask a moderator to grant them, or use "
                       "another channel.")


def place_name(interaction: discord.Interaction) -> str:
    """"Server › #channel", as a member reads it in a DM."""
    guild = interaction.guild.name if interaction.guild else "a server"
    channel = getattr(interaction.channel, "name", None)
    return f"{guild} › #{channel}" if channel else guild


class TableCog(commands.GroupCog):
    game: ClassVar[str]
    """The registry key of the game this group plays."""
    families: ClassVar[tuple[type[discord.ui.DynamicItem[Any]], ...]] = ()
    """The game's component families: registered while the cog is loaded."""

    def __init__(self, bot: DeductionBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.families)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.families)

    @property
    def tables(self) -> TableService:
        return self.bot.tables

    @property
    def module(self) -> AnyGame:
        return self.bot.games[self.game]

    def here(self, interaction: discord.Interaction, *, finished: bool = False
             ) -> components.Locate:
        """The table of this channel; `finished` also finds the last game, to look at."""

        async def locate() -> Table:
            if interaction.channel_id is None:
                raise UserError("Use this command in the table's channel.")
            return await self.tables.in_channel(interaction.channel_id, self.game,
                                                finished=finished)

        return locate

    async def on_table(
        self,
        interaction: discord.Interaction,
        work: Callable[[Table], Awaitable[Answer]],
        *,
        finished: bool = False,
    ) -> None:
        """Find this channel's table, run `work(table)`, answer with what it returns."""
        locate = self.here(interaction, finished=finished)

        async def run_it() -> Answer:
            return await work(await locate())

        await run(interaction, run_it)

    async def open_table(self, interaction: discord.Interaction, given: Mapping[str, object]
                         ) -> None:
        """`new`: a lobby here with the server's defaults, overridden by the options given."""
        if not await acknowledge(interaction):
            return
        reply = reply_for(interaction, tr(
            await language_of(interaction),
            "Table open. Others join with the **Join** button or `/{command} join`.",
            command=self.module.command,
        ))

        async def work() -> None:
            if interaction.guild_id is None or interaction.channel_id is None:
                raise UserError("Open a {game} table in a server's channel: tables play in "
                                "channels, not in DMs.", game=self.module.title)
            thread = getattr(interaction.channel, "type", None) in THREADS
            if not permits_posting(interaction.app_permissions, thread=thread):
                raise UserError(UNPOSTABLE_THREAD if thread else UNPOSTABLE)
            assert interaction.guild_id is not None and interaction.channel_id is not None
            await self.tables.open(
                interaction.guild_id, interaction.channel_id, self.game, interaction.user.id,
                interaction.user.display_name, given, reply=reply, place=place_name(interaction),
                language=await self.bot.languages.of_server(interaction),
            )
            self.bot.transport.open_dm_soon(interaction.user.id)

        await run(interaction, work, stored=reply)

    # the lobby ----------------------------------------------------------------------------

    @app_commands.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await lobby.join(interaction, self.here(interaction))

    @app_commands.command(name="leave", description="Leave the table before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await lobby.leave(interaction, self.here(interaction))

    @app_commands.command(name="add-ai", description="Seat AI players (host only)")
    @app_commands.describe(count="How many AI players to seat",
                           level="How strong they play (pick from the list)")
    async def add_ai(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 5] = 1,
        level: app_commands.Range[str, 1, 50] | None = None,
    ) -> None:
        level = level or self.module.default_level
        if not await acknowledge(interaction):
            return
        reply = reply_for(interaction, trn(await language_of(interaction),
                                           "Seated {n} {level} AI player.",
                                           "Seated {n} {level} AI players.", count, level=level))

        async def work() -> None:
            table = await self.here(interaction)()
            await self.tables.add_ai(table.id, interaction.user.id, count, level,
                                     place=place_of(interaction), reply=reply)

        await run(interaction, work, stored=reply)

    @add_ai.autocomplete("level")
    async def _levels(self, interaction: discord.Interaction, current: str
                      ) -> list[app_commands.Choice[str]]:
        """The game's own AI levels; autocomplete cannot defer, so no reads."""
        return [app_commands.Choice(name=lv, value=lv) for lv in self.module.ai_levels
                if current.lower() in lv]

    @app_commands.command(name="start", description="Deal the cards (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        await lobby.start(interaction, self.here(interaction))

    @app_commands.command(name="end", description="End the table (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        if not await acknowledge(interaction):
            return
        reply = reply_for(interaction, tr(await language_of(interaction), "The table is closed."))

        async def work() -> None:
            table = await self.here(interaction)()
            await self.tables.end(
                table.id, interaction.user.id, moderator=interaction.permissions.manage_guild,
                name=interaction.user.display_name, place=place_of(interaction), reply=reply,
            )

        await run(interaction, work, stored=reply)

    # looking ------------------------------------------------------------------------------

    @app_commands.command(name="status", description="The table: seats, whose turn")
    async def status(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> Answer:
            state = self.tables.state_of(table) if table.state else None
            return self.module.table_message(table, state, lang=await language_of(interaction))

        await self.on_table(interaction, work, finished=True)

    @app_commands.command(name="hand", description="Everything you may see (only you see this)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await lobby.show_hand(interaction, self.here(interaction, finished=True))

    @app_commands.command(name="log", description="Everything said in public so far")
    async def log(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> Answer:
            return self.module.log(table, self.tables.state_of(table),
                                   lang=await language_of(interaction))

        await self.on_table(interaction, work, finished=True)

    @app_commands.command(name="watch", description="Follow this table without a seat (again: "
                                                    "stop)")
    @app_commands.guild_only()
    async def watch(self, interaction: discord.Interaction) -> None:
        async def work() -> Answer:
            table = await self.here(interaction)()
            return await watching.toggle(self.tables, table.id, interaction.user.id,
                                           place_of(interaction), await language_of(interaction))

        await run(interaction, work)

    @app_commands.command(name="sit", description="Take over an AI's seat mid-game (the host "
                                                  "agrees), or take your own seat back")
    @app_commands.describe(seat="The AI seat to take over (pick from the list)")
    @app_commands.guild_only()
    async def sit(self, interaction: discord.Interaction,
                  seat: app_commands.Range[str, 1, 50] | None = None) -> None:
        async def work() -> Answer:
            table = await self.here(interaction)()
            answer = await sitting.sit(self.tables, table.id, interaction.user.id,
                                       interaction.user.display_name, seat,
                                       place_of(interaction), await language_of(interaction))
            self.bot.transport.open_dm_soon(interaction.user.id)
            return answer

        await run(interaction, work)

    @sit.autocomplete("seat")
    async def _ai_seats(self, interaction: discord.Interaction, current: str
                        ) -> list[app_commands.Choice[str]]:
        """The seats an AI plays here (autocomplete cannot defer: one read, from memory)."""
        try:
            table = await self.here(interaction)()
        except UserError:
            return []
        names = [table.seats[i].name for i in sitting.ai_seats(table)]
        return [app_commands.Choice(name=n, value=n) for n in names
                if current.lower() in n.lower()][:25]

    @app_commands.command(name="replay", description="Step through a finished game (only you "
                                                     "see it), and download it")
    @app_commands.describe(game="The game's number in /history (default: this channel's last "
                                "finished game)")
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1] | None = None) -> None:
        async def work() -> None:
            await open_replay(interaction, self.game, game)

        await run(interaction, work)

    @app_commands.command(name="rules", description="A summary of this table's rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        async def work() -> Answer:
            table = None
            if interaction.channel_id is not None:
                table = await self.tables.open_here(interaction.channel_id, self.game)
            text = self.module.rules(table, await language_of(interaction))
            return Outgoing(embeds=[{"description": text}])  # translations run long

        await run(interaction, work)
