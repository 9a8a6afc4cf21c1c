"""The one path by which the bot posts: channel messages, edits and DMs, with Discord's
expected failures (closed DMs, missing permissions, deleted messages) turned into results."""

from __future__ import annotations

import logging

import discord

from bot.games import Outgoing

log = logging.getLogger(__name__)

CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
MISSING_ACCESS = 50001
UNKNOWN_MESSAGE = 10008
UNKNOWN_CHANNEL = 10003


class Delivery:
    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def send(self, channel_id: int, out: Outgoing) -> discord.Message | None:
        """Post in a channel; None when the bot may not post there or it is gone."""
        channel = self.client.get_partial_messageable(channel_id)
        try:
            return await channel.send(**out.send_kwargs())
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning("cannot post in channel %s: %s", channel_id, exc)
            return None

    async def edit(self, channel_id: int, message_id: int, out: Outgoing) -> bool:
        return await self.edit_parts(channel_id, message_id, **out.kwargs())

    async def retire(self, channel_id: int, message_id: int) -> None:
        """An old living table message keeps its news text but loses status and buttons."""
        await self.edit_parts(channel_id, message_id, embeds=[], view=None)

    async def edit_parts(self, channel_id: int, message_id: int, **parts: object) -> bool:
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(**parts)
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("cannot edit message %s: %s", message_id, exc)
            return False
        return True

    async def dm(self, user_id: int, out: Outgoing) -> bool:
        """DM a member; False when their DMs are closed (the caller tells the table)."""
        try:
            channel = await self.client.create_dm(discord.Object(user_id))
            await channel.send(**out.send_kwargs())
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                log.warning("DM to %s refused: %s", user_id, exc)
            return False
        except discord.NotFound:
            return False
        return True

