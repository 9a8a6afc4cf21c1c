"""What every 13 Clues component family shares: the custom_id scheme, the parsed click, and a
callback that answers whatever goes wrong.

A custom_id is `13c:<verb>:<table id>:<version or ->[:<draft>]`: the version refuses stale
clicks where the moment matters, and multi-step pickers carry their draft in the id itself.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

import discord

from bot.components import values
from bot.errors import UserError
from bot.family import GameFamily, family_id
from bot.i18n import N_, SOURCE, tr
from bot.interactions import language_of, place_of, run_update, tables_of
from bot.messages import Outgoing
from bot.models import Table
from bot.plug import Own
from bot.tables import STALE, Reply
from bot.thirteen_clues import actions
from engine.thirteen_clues import Event, GameState, legal

PREFIX = "13c"
OWN: Own[GameState, Event] = Own(GameState)
"""The 13 Clues state and events, given back by the shell (`bot.plug.Own`)."""
Then = Callable[[GameState, list[Event]], Outgoing]
"""Renders a member's answer from what their action did."""


PICK = N_("Pick one of the menu's choices.")


def picked(interaction: discord.Interaction, allowed: Collection[str] | None = None) -> str:
    """The one value chosen in a select, if the menu offers it: a forged or empty choice is
    refused, never parsed (its value could be anything, of any length)."""
    chosen = values(interaction)
    if len(chosen) != 1 or (allowed is not None and chosen[0] not in allowed):
        raise UserError(PICK)
    return chosen[0]


def custom_id(verb: str, table_id: int, version: int | None = None, draft: str = "") -> str:
    return family_id(PREFIX, verb, table_id, version, draft)


class Family(GameFamily, template=r"13c:never"):
    """Every 13 Clues component family."""


    async def my_turn(self, interaction: discord.Interaction) -> tuple[Table, GameState, int]:
        """The table, its game and the clicking seat, refused unless it is that seat's turn
        on the version the button was made for."""
        table = await self.table(interaction)
        if self.click.stamp is not None and self.click.stamp > table.version:
            table = await self.table(interaction, recent=False)  # made by a change not heard of
        if self.click.stamp is not None and self.click.stamp != table.version:
            raise UserError(STALE)
        tables = tables_of(interaction)
        seat = tables.seat(table, interaction.user.id)
        state = OWN.state(tables.state_of(table))
        if state.phase != "turns" or state.turn != seat:
            raise legal.not_your_turn(state, seat)
        return table, state, seat

    async def act(self, interaction: discord.Interaction, build: actions.Build, done: str,
                  *, params: Mapping[str, object] | None = None, vanish: bool = True,
                  then: Callable[[str, str], Then] | None = None) -> None:
        """A picker's last step: apply the action; the picker goes away (its news in the
        channel is the answer), or becomes its result when that says more (`then(lang,
        done)` renders it from what happened). `done` is a template for `tr`, worded in the
        member's language once the click is acknowledged (a language read may wait on the
        database)."""

        async def work(reply: Reply) -> None:
            lang = await language_of(interaction)
            text = tr(lang, done, **(params or {}))
            reply.body = Outgoing(content=f"✅ {text}", components=[], drop_pictures=True)
            reply.then = None if then is None else OWN.then(then(lang, text))
            await tables_of(interaction).act(
                self.click.table_id, interaction.user.id, OWN.builder(build),
                version=self.click.stamp,
                place=place_of(interaction), reply=reply,
            )

        await run_update(interaction, work, f"✅ {tr(SOURCE, done, **(params or {}))}",
                         vanish=vanish)
