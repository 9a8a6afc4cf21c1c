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
"""On a shared database that does not tell this process of other processes' writes (one not
listening), how long a member's languages read here are used before they are read again."""
CHECK_SECONDS = 60.0
"""On a shared database that does tell (`Storage.language_mark`), how long they are used
without a word of a write before they are read again anyway: the net for a notification lost
with its connection."""


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
    it changes, and their row is read again only when another process may have written it. On
    a shared database every write of the row is notified to every process (`language_mark`
    moves): a member's choice in one process is followed by the others as soon as its commit
    is heard of there, without a read per member and second (issue 19's profile: 10% of a
    cluster process's time went to those reads)."""

    def __init__(self, storage: Storage, *, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.storage = storage
        self.clock = clock
        self._known: dict[int, tuple[str | None, str | None]] = {}
        """user → (latest locale seen, chosen language), as stored."""
        self._arriving: dict[int, str] = {}
        """user → the locale of an interaction of theirs whose `saw` is not stored yet: read
        in its place meanwhile, so that a DM written for them in that time (the letters of a
        `/start` that follows their `/join`) is in their language already."""
        self._read_at: dict[int, tuple[float, int | None]] = {}
        """user → when their row was last read here, and the storage's `language_mark` of
        them then (what this process writes is kept in `_known` without making the rest of it
        any fresher)."""

    async def _stored(self, user_id: int) -> tuple[str | None, str | None]:
        now, mark = self.clock(), self.storage.language_mark(user_id)
        if user_id not in self._known or self._stale(user_id, now, mark):
            self._known[user_id] = await self.storage.member_language(user_id)
            self._read_at[user_id] = (now, mark)
        return self._known[user_id]

    def _stale(self, user_id: int, now: float, mark: int | None) -> bool:
        if not self.storage.shared:
            return False  # one process: what it keeps is what it wrote
        read_at, read_mark = self._read_at[user_id]
        if mark is None:
            return now - read_at > FRESH_SECONDS
        return mark != read_mark or now - read_at > CHECK_SECONDS

    async def saw(self, user_id: int, locale: str) -> None:
        """Keep the locale of a member's latest interaction (a write only when it changed).
        It counts from this call's first step, before its read and its write."""
        self._arriving[user_id] = locale
        try:
            seen, chosen = await self._stored(user_id)
            if seen != locale:
                await self.storage.set_seen_locale(user_id, locale)
                self._wrote(user_id, (locale, chosen))
        finally:
            if self._arriving.get(user_id) == locale:
                del self._arriving[user_id]

    async def chosen(self, user_id: int) -> str | None:
        chosen = (await self._stored(user_id))[1]
        return chosen if chosen in i18n.languages() else None

    async def choose(self, user_id: int, language: str | None) -> None:
        """`/language`: a language of their own, or None to follow their Discord client."""
        seen, _ = await self._stored(user_id)
        await self.storage.set_chosen_language(user_id, language)
        self._wrote(user_id, (seen, language))

    def _wrote(self, user_id: int, known: tuple[str | None, str | None]) -> None:
        """What this process just stored is as good as read, unless another write of the
        row was heard of since it was read (then it is read again at its next use)."""
        self._known[user_id] = known
        read_at, read_mark = self._read_at[user_id]
        mark = self.storage.language_mark(user_id)
        if read_mark is not None and mark == read_mark + 1:  # this write alone
            self._read_at[user_id] = (read_at, mark)

    async def of_user(self, user_id: int) -> str:
        """The language a member reads their DMs in: their choice, else the locale of their
        latest interaction, else English."""
        seen, chosen = await self._stored(user_id)
        if chosen in i18n.languages():
            return str(chosen)
        seen = self._arriving.get(user_id, seen)
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
