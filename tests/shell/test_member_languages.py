"""Each member's language, stored on both backends: the locale of their latest interaction and
the language they chose (`/language`), and the table's language from the server's settings."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.errors import UserError
from bot.languages import FRESH_SECONDS, Languages, of_table
from bot.models import Letter, Table
from bot.storage import Change, Committed, SqliteStorage, Storage


class CountingStorage:
    """The storage, with its writes of members' languages counted."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.writes = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.storage, name)

    async def set_seen_locale(self, user_id: int, locale: str) -> None:
        self.writes += 1
        await self.storage.set_seen_locale(user_id, locale)


def interaction(user_id: int, locale: str) -> discord.Interaction:
    fake = SimpleNamespace(user=SimpleNamespace(id=user_id), locale=discord.Locale(locale))
    return cast(discord.Interaction, fake)


async def test_seen_and_chosen_languages_are_stored_apart(storage: Storage) -> None:
    assert await storage.member_language(7) == (None, None)
    await storage.set_seen_locale(7, "de")
    await storage.set_chosen_language(7, "fr")
    await storage.set_seen_locale(7, "es-ES")  # a later interaction keeps the choice
    assert await storage.member_language(7) == ("es-ES", "fr")
    await storage.set_chosen_language(7, None)
    assert await storage.member_language(7) == ("es-ES", None)
    await storage.set_chosen_language(8, "de")  # a choice before any locale was seen
    assert await storage.member_language(8) == (None, "de")


async def test_a_members_language_is_their_choice_else_their_clients(storage: Storage) -> None:
    counted = CountingStorage(storage)
    languages = Languages(cast(Storage, counted))
    await languages.saw(5, "fr")
    await languages.saw(5, "fr")  # unchanged: no write
    assert counted.writes == 1
    assert await languages.of_member(interaction(5, "fr")) == "fr"
    assert await languages.of_member(interaction(5, "es-419")) == "es"
    assert await languages.of_member(interaction(5, "ja")) == "en"
    await languages.choose(5, "de")
    assert await languages.of_member(interaction(5, "fr")) == "de"
    again = Languages(storage)  # another process, or after a restart: read from the database
    assert await again.of_member(interaction(5, "fr")) == "de"
    assert await storage.member_language(5) == ("fr", "de")
    await again.choose(5, None)
    assert await again.of_member(interaction(5, "es-ES")) == "es"


class HeldStorage(CountingStorage):
    """The storage, with each read and write of a member's language held until let go: the
    database is slow while the bot goes on."""

    def __init__(self, storage: Storage) -> None:
        super().__init__(storage)
        self.go = asyncio.Event()

    async def member_language(self, user_id: int) -> tuple[str | None, str | None]:
        await self.go.wait()
        return await self.storage.member_language(user_id)

    async def set_seen_locale(self, user_id: int, locale: str) -> None:
        await self.go.wait()
        await super().set_seen_locale(user_id, locale)


async def test_a_locale_counts_from_the_interaction_not_from_its_write(storage: Storage) -> None:
    """CI once saw a German member's card-passing DM in English: the host's `/start` was
    written while the member's `/join` locale was still being stored."""
    held = HeldStorage(storage)
    languages = Languages(cast(Storage, held))
    seeing = asyncio.ensure_future(languages.saw(9, "de"))  # their /join: read and write held
    await asyncio.sleep(0)
    writing = asyncio.ensure_future(languages.of_user(9))  # the /start's DM to them
    held.go.set()
    assert await writing == "de"
    await seeing
    held.go.clear()
    seeing = asyncio.ensure_future(languages.saw(9, "fr"))  # known now: only the write waits
    await asyncio.sleep(0)
    assert not seeing.done()
    assert await languages.of_user(9) == "fr"
    held.go.set()
    await seeing
    assert held.writes == 2
    assert await Languages(storage).of_user(9) == "fr"


def test_a_tables_language_is_the_servers_setting_else_its_discord_language() -> None:
    assert of_table({"language": "de"}, "fr") == "de"
    assert of_table({}, discord.Locale.french) == "fr"
    assert of_table({}, "es-ES") == "es"
    assert of_table({}, None) == "en"
    assert of_table({"language": "xx"}, "pt-BR") == "en"  # a language whose catalog went


class Recording(SqliteStorage):
    """The storage, keeping every letter a stored change owes (read before delivery)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.owed: list[Letter] = []

    async def commit(self, change: Change) -> Committed:
        self.owed += change.letters
        return await super().commit(change)

    async def create_table(self, table: Table, render: Callable[[Table], Change]) -> Committed:
        def kept(made: Table) -> Change:
            change = render(made)
            self.owed += change.letters
            return change

        return await super().create_table(table, kept)


def said(letters: list[Letter], to: str) -> str:
    return "\n".join(letter.body.content or "" for letter in letters if letter.to == to)


async def test_a_table_speaks_its_language_and_each_member_reads_theirs(tmp_path: Path) -> None:
    """A German server's table: the channel in German (kept when the server's setting
    changes later), each member's DMs in their own language, and an engine refusal in the
    language of whoever is refused."""
    from bot.registry import GAMES
    from bot.tables import TableService

    storage = Recording(tmp_path / "bot.sqlite3")
    await storage.open()
    try:
        tables = TableService(storage, {g.key: g for g in GAMES}, seed=lambda: 5)
        await storage.set_chosen_language(101, "fr")
        await storage.set_seen_locale(102, "es-ES")
        table = await tables.open(1, 10, "13clues", 100, "Ann", {}, language="de")
        await storage.set_guild_settings(1, {"language": "fr"})  # too late for this table
        await tables.join(table.id, 101, "Bea")
        await tables.join(table.id, 102, "Cid")
        await tables.start(table.id, 100)
        channel = said(storage.owed, "c:10")
        assert "die weiterzugebenden Karten wählen" in channel, channel
        assert "choose the cards" not in channel
        assert "aller à la table" in said(storage.owed, "u:101")
        assert "ir a la mesa" in said(storage.owed, "u:102")
        assert "go to the table" in said(storage.owed, "u:100")

        game, chosen = tables.module(table), list[Any]()

        def pass_twice(state: Any, seat: int) -> Any:
            chosen.append(chosen[0] if chosen else game.ai_action(state, seat, "normal",
                                                                  random.Random(seat)))
            return chosen[-1]

        await tables.act(table.id, 101, pass_twice)
        try:
            await tables.act(table.id, 101, pass_twice)
        except UserError as refused:
            assert refused.text("fr") == "Vous avez déjà choisi les cartes à passer à gauche."
            assert refused.text("de").startswith("Du hast die Karten")
        else:
            raise AssertionError("a second pass was not refused")
    finally:
        await storage.close()
async def test_a_choice_made_in_another_process_is_followed(storage: Storage) -> None:
    # on a shared database (a cluster) within FRESH_SECONDS; one process on SQLite writes
    # every change itself, so what it keeps in memory never needs reading again
    now = [0.0]
    here = Languages(storage, clock=lambda: now[0])
    elsewhere = Languages(storage)
    assert await here.of_member(interaction(6, "fr")) == "fr"
    await elsewhere.choose(6, "de")
    now[0] += FRESH_SECONDS + 0.1
    expected = "de" if storage.shared else "fr"
    assert await here.of_member(interaction(6, "fr")) == expected
