"""`/… watch`: a member without a seat follows a table from their DMs. They receive what the
channel is told (the game's public news, nothing else) in one DM kept up to date in place, so
nothing pings them, and the end, reveal included, as a new DM.

Who watches is kept in the table's options (`watchers`, ignored by the game's settings), so
no schema changes; toggling it rewrites the row at the same version, under the table's lock:
the players' buttons, which carry the version, stay valid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import SOURCE, tr
from bot.messages import Outgoing
from bot.models import Letter, Table
from bot.news import headed
from bot.plug import AnyGame

WATCHERS = "watchers"
SLOT = "watch"
"""The DM slot that carries a watcher's news (posted once, then edited: edits ping nobody)."""


def watchers(table: Table) -> list[int]:
    return [int(u) for u in table.options.get(WATCHERS, [])]


def news_dm(game: AnyGame, table: Table, lang: str) -> Outgoing:
    """What a watcher's DM shows: the news the table's living message shows now (in the
    table's language, as the channel reads it; the watcher's own frames it)."""
    feed = "\n".join(table.feed) or tr(lang, "Nothing has happened yet.")
    head = tr(lang, "👀 **You are watching** (no pings; this message keeps the latest news):")
    return headed(game, table, Outgoing(content=f"{head}\n{feed}"[-1900:]), lang)


def letters(game: AnyGame, table: Table, state: Any, events: Sequence[Any],
            langs: Mapping[int, str]) -> list[Letter]:
    """What a stored change owes the table's watchers (`langs`: each one's language): its
    public news, in their news DM; at the end, the channel's last message (news and reveal)
    as a new DM, in the watcher's language."""
    people = [u for u in watchers(table) if table.seat_of(u) is None]
    if not people or game.news(table, state, events, lang=SOURCE) is None:
        return []
    if not game.is_over(state):
        return [Letter.dm(u, news_dm(game, table, langs.get(u, SOURCE)), slot=SLOT, later=True)
                for u in people]
    owed = []
    for u in people:
        lang = langs.get(u, SOURCE)
        news = game.news(table, state, events, lang=lang)
        end = game.table_message(table, state, lang=lang)
        owed.append(Letter.dm(u, headed(game, table, Outgoing(content=f"🏁 {news}",
                                                               embeds=end.embeds), lang),
                             later=True))
    return owed
