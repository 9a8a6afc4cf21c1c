"""`/history`: this server's finished games (date, game, players, winner), newest first, ten
to a page with ◀ ▶, and a menu to replay one of them. `me` keeps the games the member
played.

Only games that are over are listed (the storage reads `status = 'over'` alone): a game in
play shows nothing here, not even that it exists. The buttons carry the page and whether the
list is the member's own (`hist:<verb>:<page>:<0|1>`), so they work after a restart.
"""

from __future__ import annotations

import time
from typing import Any

import discord

from bot.components import button, values, view_of
from bot.errors import UserError
from bot.family import GameFamily
from bot.i18n import tr
from bot.interactions import defer, language_of, tables_of
from bot.messages import Outgoing
from bot.models import Table
from bot.plug import commands_of
from bot.replay import Looker, open_replay
from bot.tables import TableService

PAGE = 10


def outcome(tables: TableService, table: Table, lang: str) -> str:
    """Who won, as the finished state says (`plug.winners`: none for a game ended before
    anyone won; a Mansion series also names each fugitive who escaped in one of its games)."""
    module = tables.module(table)
    state = module.load(table.state or "")
    won = sorted(module.winners(state))
    if not won:
        return tr(lang, "no winner")
    return "🏆 " + ", ".join(table.seats[s].name for s in won if s < len(table.seats))


def players(table: Table) -> str:
    return ", ".join(("🤖 " if s.is_ai else "") + s.name for s in table.seats)


def day(at: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(at))


async def history_page(tables: TableService, looker: Looker, user_id: int | None, page: int,
                       lang: str) -> Outgoing:
    """One page of the looker's server's finished games that they may see (`user_id`: only
    those that member played), in `lang`."""
    storage, visible, viewer, guild_id = (tables.storage, looker.visible(), looker.user_id,
                                          looker.guild_id)
    assert guild_id is not None, "the history is a server's (its commands are guild-only)"
    total = await storage.finished_count(guild_id, user_id=user_id, visible=visible,
                                         viewer=viewer)
    if total == 0:
        return Outgoing(content=tr(lang, "📜 No finished games in your history yet.")
                        if user_id is not None else
                        tr(lang, "📜 No finished games in this server's history yet."))
    pages = (total + PAGE - 1) // PAGE
    page = max(0, min(page, pages - 1))
    games = await storage.finished_tables(guild_id, user_id=user_id, visible=visible,
                                          viewer=viewer, limit=PAGE, offset=page * PAGE)
    where = dict(page=page + 1, pages=pages, total=total)
    lines = [tr(lang, "📜 **History** — your finished games, newest first (page {page} of "
                      "{pages}, {total} in all)", **where) if user_id is not None else
             tr(lang, "📜 **History** — this server's finished games, newest first (page "
                      "{page} of {pages}, {total} in all)", **where)]
    for t in games:
        line = (f"**#{t.id}** · <t:{int(t.updated_at)}:d> · {tables.module(t).title} · "
                f"{players(t)} · {outcome(tables, t, lang)}")
        lines.append(line[:180])
    both = tr(lang, "and")  # outside the call below: Babel finds no call nested in another
    lines.append(tr(lang, "-# Replay one with the menu below, or {command}.", command=commands_of(
        tables.games.values(), "replay", lang, both, option=("game", "<number>"))))
    mine = int(user_id is not None)
    menu = discord.ui.Select[Any](
        custom_id=f"hist:pick:{page}:{mine}", placeholder=tr(lang, "📼 Replay one of these games"),
        options=[discord.SelectOption(
            label=f"#{t.id} · {tables.module(t).title} · {day(t.updated_at)}"[:100],
            value=str(t.id), description=players(t)[:100]) for t in games],
    )
    nav = [
        button(tr(lang, "Newer"), f"hist:prev:{page}:{mine}", emoji="◀️", disabled=page == 0),
        button(tr(lang, "Older"), f"hist:next:{page}:{mine}", emoji="▶️",
               disabled=page >= pages - 1),
    ]
    return Outgoing.of("\n".join(lines), view=view_of(*nav, menu))


class HistoryButton(GameFamily, template=r"hist:(?P<verb>prev|next|pick):(?P<table>\d{1,6}):"
                                         r"(?P<stamp>[01])"):
    """◀ ▶ turn the page in place; the menu opens a replay of the game picked. A family like
    the games' (its click parsed the same way), whose table slot carries the page and whose
    stamp says whether the list is the member's own."""

    async def clicked(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError("The history is a server's: use it in the server.")
        if self.click.verb == "pick":
            chosen = values(interaction)
            if len(chosen) != 1 or not chosen[0].isdigit() or len(chosen[0]) > 18:
                raise UserError("Pick one of the menu's games.")  # forged: never looked up
            if await defer(interaction, ephemeral=True, thinking=True):
                await open_replay(interaction, None, int(chosen[0]))
            return
        if not await defer(interaction):
            return
        page = self.click.table_id + (1 if self.click.verb == "next" else -1)
        user_id = interaction.user.id if self.click.stamp else None
        out = await history_page(tables_of(interaction), Looker.of(interaction), user_id,
                                 page, await language_of(interaction))
        await interaction.edit_original_response(**out.reply_kwargs())
