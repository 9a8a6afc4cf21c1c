"""When the world changes under a table: its channel deleted, the bot removed from the
server, a permission lost or given back, a thread archived, a seated member gone."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.client import DeductionBot
from bot.i18n import N_
from bot.world_changes import ARCHIVED, UNPERMITTED

log = logging.getLogger(__name__)

POSTING = ("view_channel", "send_messages", "embed_links")


class World(commands.Cog):
    def __init__(self, bot: DeductionBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.bot.world.channel_gone(channel.id, N_("its channel was deleted"))

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.world.channel_gone(payload.thread_id, N_("its thread was deleted"))

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.bot.world.guild_gone(guild.id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """Needs the members intent (config MEMBER_EVENTS); without it a gone member's seat
        is played by the turn timer's AI like any idle seat."""
        await self.bot.world.member_left(payload.guild_id, payload.user.id)

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        await self.check(after)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self.check(after)

    @commands.Cog.listener()
    async def on_thread_join(self, thread: discord.Thread) -> None:
        """discord.py forgets an archived thread: unarchived, it comes back as a join."""
        await self.check(thread)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        for table in await self.bot.storage.active_tables(after.guild.id):
            if table.paused is not None:
                channel = after.guild.get_channel_or_thread(table.channel_id)
                if channel is not None:
                    await self.check(channel)

    async def check(self, channel: discord.abc.GuildChannel | discord.Thread) -> None:
        """A paused table carries on once the bot may post in its channel again; a table
        whose channel the bot lost is paused before its next message fails."""
        if may_post(channel):
            await self.bot.world.can_post(channel.id)
        else:
            await self.bot.world.cannot_post(channel.id, why_not(channel))


def may_post(channel: discord.abc.GuildChannel | discord.Thread) -> bool:
    if isinstance(channel, discord.Thread) and (channel.archived or channel.locked):
        return False
    return permits_posting(channel.permissions_for(channel.guild.me),
                           thread=isinstance(channel, discord.Thread))


def permits_posting(perms: discord.Permissions, *, thread: bool) -> bool:
    """What a table's posts need: a thread takes Send Messages in Threads, not Send
    Messages (`new` asks it of the interaction's permissions, before any post)."""
    sending = perms.send_messages_in_threads if thread else perms.send_messages
    return sending and perms.view_channel and perms.embed_links


def why_not(channel: discord.abc.GuildChannel | discord.Thread) -> str:
    if isinstance(channel, discord.Thread) and channel.archived:
        return ARCHIVED
    return UNPERMITTED


async def setup(bot: DeductionBot) -> None:
    await bot.add_cog(World(bot))
