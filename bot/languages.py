"""Who reads which language. A member reads their ephemeral answers (and, as rendering is
converted, their DMs) in their own language: the one they chose with `/language`, else their
Discord client's, which every interaction brings (`interaction.locale`) and which is stored
as the latest seen. A table's channel posts are in the table's language: the server's
`/settings language`, else the server's Discord language (`guild_locale`), kept on the table
when it opens (`TABLE_LANGUAGE` among its options), so a later `/settings` change does not
switch a game in play."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot import i18n
from bot.models import Table
from bot.storage import Storage

TABLE_LANGUAGE = "language"
"""The table option holding its channel's language."""
FRESH_SECONDS = 1.0
"""On a shared database (a cluster), how long a member's languages read by this process are
used before they are read again: another process may have stored their `/language` choice
since. One primary-key read per member and second at most; on SQLite (one process) what is in
memory is always true."""


def of_table(settings: Mapping[str, Any], guild_locale: object) -> str:
    """A table's language: the server's setting, else its Discord language."""
    chosen = settings.get("language")
    if isinstance(chosen, str) and chosen in i18n.languages():
        return chosen
    return i18n.from_discord(guild_locale) if guild_locale is not None else i18n.SOURCE


def of(table: Table) -> str:
    """The language of a table's channel posts, as it was kept when the table opened."""
    kept = table.options.get(TABLE_LANGUAGE)
    return kept if isinstance(kept, str) and kept in i18n.languages() else i18n.SOURCE


class Languages:
    """Members' languages, kept in memory once read: their latest locale is written only when
    it changes, and their choice is read once per process, or on a shared database once per
    FRESH_SECONDS (a NOTIFY would drop a copy only after its commit, too late for a click
    reaching another process at once; a version read would cost as much as the row)."""

    def __init__(self, storage: Storage, *, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.storage = storage
        self.clock = clock
        self._known: dict[int, tuple[str | None, str | None]] = {}
        """user → (latest locale seen, chosen language), as stored."""
        self._read_at: dict[int, float] = {}
        """user → when their row was last read here (what this process writes is kept in
        `_known` without making the rest of it any fresher)."""

    async def _stored(self, user_id: int) -> tuple[str | None, str | None]:
        now = self.clock()
        if user_id not in self._known or (
            self.storage.shared and now - self._read_at[user_id] > FRESH_SECONDS
        ):
            self._known[user_id] = await self.storage.member_language(user_id)
            self._read_at[user_id] = now
        return self._known[user_id]

    async def saw(self, user_id: int, locale: str) -> None:
        """Keep the locale of a member's latest interaction (a write only when it changed)."""
        seen, chosen = await self._stored(user_id)
        if seen != locale:
            await self.storage.set_seen_locale(user_id, locale)
            self._known[user_id] = (locale, chosen)

    async def chosen(self, user_id: int) -> str | None:
        chosen = (await self._stored(user_id))[1]
        return chosen if chosen in i18n.languages() else None

    async def choose(self, user_id: int, language: str | None) -> None:
        """`/language`: a language of their own, or None to follow their Discord client."""
        seen, _ = await self._stored(user_id)
        await self.storage.set_chosen_language(user_id, language)
        self._known[user_id] = (seen, language)

    async def of_user(self, user_id: int) -> str:
        """The language a member reads their DMs in: their choice, else the locale of their
        latest interaction, else English."""
        seen, chosen = await self._stored(user_id)
        if chosen in i18n.languages():
            return str(chosen)
        return i18n.from_discord(seen) if seen is not None else i18n.SOURCE

    def known(self, interaction: discord.Interaction) -> str:
        """`of_member` from memory alone, for autocomplete, which cannot wait for a read: a
        member's choice is in memory once any interaction of theirs was seen here."""
        chosen = self._known.get(interaction.user.id, (None, None))[1]
        return chosen if chosen in i18n.languages() else i18n.from_discord(interaction.locale)

    async def of_member(self, interaction: discord.Interaction) -> str:
        """The language a member's answer to this interaction is written in."""
        return await self.chosen(interaction.user.id) or i18n.from_discord(interaction.locale)

    async def of_server(self, interaction: discord.Interaction) -> str:
        """The language of a table opened where this interaction comes from."""
        if interaction.guild_id is None:
            return i18n.SOURCE
        settings = await self.storage.guild_settings(interaction.guild_id)
        return of_table(settings, interaction.guild_locale)
