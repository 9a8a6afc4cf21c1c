"""`/… watch` itself: start or stop following a table from the DMs (what a watcher receives
is `bot.spectators`, which the table service delivers; this acts through the service)."""

from __future__ import annotations

from bot.errors import UserError
from bot.i18n import tr
from bot.models import Letter
from bot.spectators import SLOT, WATCHERS, news_dm, watchers
from bot.storage import Change
from bot.tables import Place, TableService


async def toggle(tables: TableService, table_id: int, user_id: int, place: Place, lang: str
                 ) -> str:
    """Start or stop watching this table; refused for its players and a finished game.
    `lang`: the member's, for the answer and their news DM."""
    async with tables._operation(table_id):
        table = await tables.by_id(table_id, place)
        if table.status == "over":
            raise UserError("This game is over: `replay` shows it step by step.")
        if table.seat_of(user_id) is not None:
            raise UserError("You have a seat at this table: it tells you everything already.")
        game, now = tables.module(table), watchers(table)
        on = user_id not in now
        kept = [*now, user_id] if on else [u for u in now if u != user_id]
        after = table.model_copy(update={"options": {**table.options, WATCHERS: kept}})
        owed = [Letter.dm(user_id, news_dm(game, after, lang), slot=SLOT, own=True)] if on else []
        await tables._store(Change(after, expected=table.version, letters=owed))
    if on:
        return tr(lang, "👀 You are watching this {game} table: what the channel is told comes "
                  "to your DMs, in one message kept up to date (no pings), and the reveal at "
                  "the end. The same command stops it.", game=game.title)
    return tr(lang, "You no longer watch this table.")
