"""What lobby commands and the shell's buttons share: join, leave, start, my secrets, remove an
AI, rematch; each finds its table with the `Locate` it is given (a button's id, or the
channel's table for a slash command)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.components import Locate, TableButton
from bot.i18n import tr
from bot.interactions import (
    acknowledge,
    bot_of,
    language_of,
    place_of,
    reply_for,
    run,
    tables_of,
    unlinking,
)
from bot.messages import Outgoing
from bot.models import Table

__all__ = ["HANDLERS", "TableClick", "join", "leave", "place_of", "rematch", "remove_ai",
           "show_hand", "start", "tables_of"]


async def join(interaction: discord.Interaction, locate: Locate) -> None:
    if not await acknowledge(interaction):
        return
    reply = reply_for(interaction, tr(await language_of(interaction),
                                      "You have a seat. The host starts the game."))

    async def work() -> None:
        table = await locate()
        await tables_of(interaction).join(
            table.id, interaction.user.id, interaction.user.display_name,
            place=place_of(interaction), reply=reply,
        )
        bot_of(interaction).transport.open_dm_soon(interaction.user.id)

    await run(interaction, work, stored=reply)


async def leave(interaction: discord.Interaction, locate: Locate) -> None:
    if not await acknowledge(interaction):
        return
    reply = reply_for(interaction, tr(await language_of(interaction), "You left the table."))

    async def work() -> None:
        table = await locate()
        await tables_of(interaction).leave(
            table.id, interaction.user.id, place=place_of(interaction), reply=reply
        )

    await run(interaction, work, stored=reply)


async def start(interaction: discord.Interaction, locate: Locate) -> None:
    if not await acknowledge(interaction):
        return
    lang = await language_of(interaction)

    async def work() -> None:
        table = await locate()
        module = tables_of(interaction).module(table)
        reply.body = reply.body.model_copy(update={"content": tr(lang, module.started_text)})
        await tables_of(interaction).start(
            table.id, interaction.user.id, place=place_of(interaction), reply=reply
        )

    reply = reply_for(interaction, tr(lang, "The game starts."))
    await run(interaction, work, stored=reply)


async def show_hand(interaction: discord.Interaction, locate: Locate) -> None:
    async def work() -> Outgoing:
        table = await locate()
        tables = tables_of(interaction)
        seat = tables.seat(table, interaction.user.id)
        return tables.module(table).hand(table, tables.state_of(table), seat,
                                         lang=await language_of(interaction))

    await run(interaction, work)


async def remove_ai(interaction: discord.Interaction, locate: Locate) -> None:
    if not await acknowledge(interaction):
        return
    reply = reply_for(interaction, tr(await language_of(interaction), "One AI less at this table."))

    async def work() -> None:
        table = await locate()
        await tables_of(interaction).remove_ai(
            table.id, interaction.user.id, place=place_of(interaction), reply=reply)

    await run(interaction, work, stored=reply)


async def rematch(interaction: discord.Interaction, locate: Locate) -> None:
    if not await acknowledge(interaction):
        return
    reply = reply_for(interaction, tr(await language_of(interaction),
                                      "Rematch dealt: check your DMs."))

    async def work() -> None:
        table = await locate()
        await tables_of(interaction).rematch(
            table.id, interaction.user.id, place=place_of(interaction), reply=reply)

    await run(interaction, work, stored=reply)


HANDLERS: dict[str, Callable[[discord.Interaction, Locate], Awaitable[None]]] = {
    "join": join,
    "leave": leave,
    "start": start,
    "hand": show_hand,
    "unai": remove_ai,
    "again": rematch,
}


class TableClick(TableButton, template=TableButton.__discord_ui_compiled_template__):
    """A click on a `TableButton`: its handler finds the table by the button's id."""

    @unlinking
    async def callback(self, interaction: discord.Interaction) -> None:
        place = place_of(interaction)

        async def locate() -> Table:
            return await tables_of(interaction).by_id(self.table_id, place)

        await HANDLERS[self.verb](interaction, locate)
