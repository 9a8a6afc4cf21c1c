"""The tiny discord.py bot the stand-in's own tests run, in-process or as a child process.

It uses every client feature the stand-in must serve (slash commands with autocomplete, a
persistent view, a DynamicItem, deferrals, DMs) and nothing of the project's bot, so a
stand-in failure is told apart from a bot bug. As a child process:
`python -m testkit.standin.botproc --standin URL --entry testkit.standin.tinybot:main -- NAME`.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

WORDS = ["alpha", "bravo", "charlie", "delta"]


class PokeView(discord.ui.View):
    """Persistent view: fixed custom_id, no timeout, so it survives restarts."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Poke", custom_id="test:poke", style=discord.ButtonStyle.primary)
    async def poke(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        """Answer ephemerally, naming the presser and the bot instance."""
        client: TinyBot = interaction.client  # type: ignore[assignment]
        await interaction.response.send_message(
            f"poked by {interaction.user.name} via {client.instance}", ephemeral=True
        )


class CountButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"test:count:(?P<n>\d+)"
):
    """DynamicItem: state lives in the custom_id, rebuilt on every click."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"test:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CountButton:
        """Rebuild from the custom_id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Defer the update, then edit the message to count up."""
        await interaction.response.defer()
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.n + 1))
        await interaction.edit_original_response(content=f"count {self.n + 1}", view=view)


class TinyBot(commands.AutoShardedBot):
    """The smallest bot using every feature the stand-in must support."""

    def __init__(self, instance: str = "first", intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents.default(),
            guild_ready_timeout=0.05,
        )
        self.instance = instance
        self.seen: dict[str, Any] = {}
        self.tree.add_command(build_group(self))

    async def setup_hook(self) -> None:
        """Register persistent components and sync globally and to every guild given."""
        self.add_view(PokeView())
        self.add_dynamic_items(CountButton)
        await self.tree.sync()
        for gid in self.seen.get("sync_guilds", []):
            guild = discord.Object(id=gid)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)


def build_group(bot: TinyBot) -> app_commands.Group:
    """The /tt command group."""
    group = app_commands.Group(name="tt", description="stand-in test commands", guild_only=True)

    @group.command(name="ping", description="Say pong")
    @app_commands.describe(target="who to ping", word="a word")
    async def ping(interaction: discord.Interaction, target: discord.User, word: str) -> None:
        await interaction.response.send_message(
            f"pong {target.name} {word} from {interaction.user.name}", view=PokeView()
        )

    @ping.autocomplete("word")
    async def ping_word(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=w, value=w) for w in WORDS if w.startswith(current)]

    @group.command(name="dm", description="DM someone")
    async def dm(interaction: discord.Interaction, target: discord.User) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await target.send("a secret for you")
        except discord.Forbidden as exc:
            bot.seen["dm_error"] = exc.code
            await interaction.followup.send("their DMs are closed", ephemeral=True)
        else:
            await interaction.followup.send("sent", ephemeral=True)

    @group.command(name="long", description="Too long")
    async def long(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as exc:
            bot.seen["long_error"] = exc.code
            await interaction.response.send_message("fallback", ephemeral=True)

    @group.command(name="twice", description="Acknowledge twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        interaction.response._response_type = None  # bypass discord.py's own guard
        try:
            await interaction.response.send_message("two")
        except discord.HTTPException as exc:
            bot.seen["twice_error"] = exc.code

    @group.command(name="counter", description="Post a counter")
    async def counter(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(0))
        await interaction.response.send_message("count 0", view=view)

    @group.command(name="announce", description="Post in the channel")
    async def announce(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel | discord.Thread)
        try:
            await interaction.channel.send("announcement", view=PokeView())
        except discord.HTTPException as exc:
            await interaction.followup.send(f"cannot post: {exc.code}", ephemeral=True)
        else:
            await interaction.followup.send("posted", ephemeral=True)

    @group.command(name="perms", description="What the bot may do here")
    async def perms(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel | discord.Thread)
        assert interaction.guild is not None
        cached = channel.permissions_for(interaction.guild.me)
        app = interaction.app_permissions
        in_thread = isinstance(channel, discord.Thread)
        send = "send_messages_in_threads" if in_thread else "send_messages"
        await interaction.response.send_message(
            f"app {getattr(app, send)} cache {getattr(cached, send)}", ephemeral=True
        )

    @group.command(name="keep", description="Defer; someone else finishes the answer")
    async def keep(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        bot.seen["kept"] = (interaction.application_id, interaction.token)

    return group


def main(argv: list[str]) -> int:
    """Child-process entry: run TinyBot named argv[0] with the token in DISCORD_TOKEN."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    bot = TinyBot(argv[0] if argv else "child")
    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)
    return 0
