"""The shell's own buttons, found again from their custom_id after a restart, and the small
builders every game's components use.

A custom_id is `<game prefix>:<verb>:<table id>`; the table id finds the game (a DM click
too), so nothing lives in memory. Each game adds its own component families next to these.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, ClassVar

import discord

from bot.i18n import N_, SOURCE, tr
from bot.messages import Outgoing
from bot.models import Table
from bot.plug import AnyGame, commands_of

Locate = Callable[[], Awaitable[Table]]
"""Finds the table an interaction is about (by a button's id, or the channel's table)."""


JOIN = N_("Join")


def button(
    label: str,
    custom_id: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    emoji: str | None = None,
    disabled: bool = False,
) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=label, custom_id=custom_id, style=style, emoji=emoji, disabled=disabled
    )


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def values(interaction: discord.Interaction) -> list[str]:
    """The chosen values of a select."""
    data: dict[str, Any] = dict(interaction.data or {})
    return [str(v) for v in data.get("values", [])]


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?P<prefix>[a-z0-9]{1,8}):(?P<verb>join|leave|start|hand|unai|again):"
    r"(?P<table>\d+)(?::-)?",
):
    """Join, Leave, Start on a lobby; My secrets on every table message and DM. Drawn and
    read back here; a click on one is answered by `bot.lobby.TableClick`, in the layer above
    (its handlers act through the table service)."""

    LOOK: ClassVar[dict[str, tuple[str, discord.ButtonStyle, str | None]]] = {
        "join": (JOIN, discord.ButtonStyle.success, "🪑"),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary, None),
        "start": (N_("Start"), discord.ButtonStyle.primary, "▶️"),
        "hand": (N_("My secrets"), discord.ButtonStyle.secondary, "🗝️"),
        "unai": (N_("Remove an AI"), discord.ButtonStyle.secondary, "🤖"),
        "again": (N_("Rematch"), discord.ButtonStyle.success, "🔁"),
    }

    def __init__(self, prefix: str, verb: str, table_id: int, lang: str = SOURCE) -> None:
        """`lang`: the label's (a click found again from its custom_id needs none)."""
        label, style, emoji = self.LOOK[verb]
        super().__init__(button(tr(lang, label), f"{prefix}:{verb}:{table_id}", style,
                                emoji=emoji))
        self.verb = verb
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        return cls(match["prefix"], match["verb"], int(match["table"]))


def lobby_message(table: Table, title: str, view: discord.ui.View,
                  embed: Callable[[str, list[str]], discord.Embed], lang: str) -> Outgoing:
    """The table message before the deal, in the table's language: a lobby closed, or who
    opened it, with the game's own embed (given the host's name and the seated names) and
    buttons."""
    if table.status == "over":
        return Outgoing(content=tr(lang, "This table was closed before the game started."))
    names = [s.name for s in table.seats]
    host = next((s.name for s in table.seats if s.user_id == table.host_id), "?")
    return Outgoing.of(tr(lang, "{title}: {host} opened a table here. Press **{join}** to "
                                "play.", title=title, host=host, join=tr(lang, JOIN)),
                       embeds=[embed(host, names)], view=view)


def not_routed(games: Iterable[AnyGame], lang: str) -> str:
    """The answer to a click no family takes: where the table is now."""
    status = commands_of(games, "status", lang, tr(lang, "or"))
    return tr(lang, "This button or menu is not one I can use any more: use the latest table "
                    "message (or {status}).", status=status)


def routed(
    families: Iterable[type[discord.ui.DynamicItem[Any]]], interaction: discord.Interaction
) -> bool:
    """Whether discord.py hands this component interaction to one of the bot's DynamicItem
    families: its custom_id must fully match a family's template, and the message must carry
    a component of that type with that custom_id (else discord.py drops it unanswered, and
    the member sees "This interaction failed")."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id, kind = str(data.get("custom_id", "")), data.get("component_type")
    if not any(
        getattr(family, "__discord_ui_compiled_template__", None) is not None
        and family.__discord_ui_compiled_template__.fullmatch(custom_id)
        for family in families
    ):
        return False
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id and child.type.value == kind:
                return True
    return False

