"""The catalogs: every text the bot writes is in the template and translated in every
catalog, with the same placeholders and the language's plural forms; no entry is left over.
A new text without its translations fails here (run `python -m bot.locales`, translate)."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bot import i18n
from bot.locales.__main__ import COMMANDS, TEMPLATE, template

TRANSLATED = i18n.languages()[1:]
Key = tuple[str | tuple[str, ...], str | None]


def read(path: object) -> Catalog:
    with open(str(path), "rb") as source:
        return read_po(source)


def keys(catalog: Catalog) -> set[Key]:
    return {(m.id if isinstance(m.id, str) else tuple(m.id), m.context) for m in catalog if m.id}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def ids_of(message: Message) -> list[str]:
    return [message.id] if isinstance(message.id, str) else list(message.id)


def forms_of(message: Message) -> list[str]:
    assert message.string is not None, message.id
    return [message.string] if isinstance(message.string, str) else list(message.string)


@pytest.fixture(scope="module")
def fresh() -> Catalog:
    """The template as the source and the command tree make it now."""
    return template()


def test_three_languages_beside_english() -> None:
    assert set(TRANSLATED) >= {"fr", "de", "es"}


def test_the_stored_template_is_the_one_the_source_makes(fresh: Catalog) -> None:
    stored = keys(read(TEMPLATE))
    assert keys(fresh) - stored == set(), "new texts: run `python -m bot.locales`"
    assert stored - keys(fresh) == set(), "texts no longer used: run `python -m bot.locales`"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_catalog_has_exactly_the_templates_entries(fresh: Catalog, code: str) -> None:
    catalog = read(i18n.catalog_path(code))
    assert keys(fresh) - keys(catalog) == set(), f"{code}: missing entries"
    assert keys(catalog) - keys(fresh) == set(), f"{code}: unused entries"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_entry_is_translated_with_the_same_placeholders(code: str) -> None:
    catalog = read(i18n.catalog_path(code))
    for message in catalog:
        if not message.id:
            continue
        forms = forms_of(message)
        assert all(forms) and not message.fuzzy, f"{code}: untranslated {message.id!r}"
        wanted = set().union(*(placeholders(t) for t in ids_of(message)))
        for form in forms:
            assert placeholders(form) == wanted, f"{code}: {form!r} against {message.id!r}"
            assert form.format(**dict.fromkeys(wanted, 7)) != ""  # no stray brace


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_forms_are_the_languages_own(code: str) -> None:
    catalog = read(i18n.catalog_path(code))
    reference = Catalog(locale=code)
    assert (catalog.num_plurals, catalog.plural_expr) == (reference.num_plurals,
                                                          reference.plural_expr)
    plurals = [m for m in catalog if m.pluralizable]
    assert plurals
    for message in plurals:
        assert len(forms_of(message)) == catalog.num_plurals, message.id


def test_the_template_marks_the_command_trees_entries(fresh: Catalog) -> None:
    commands = [m for m in fresh if COMMANDS in m.auto_comments]
    assert {m.id for m in commands} >= {"join", "help", "language", "How to play with this bot"}
    named = [m for m in commands if m.context in ("command", "option")]
    assert all(isinstance(m.id, str) and re.fullmatch(r"[-_a-z0-9]{1,32}", m.id) for m in named)


def test_a_text_reads_in_the_language_asked_for() -> None:
    assert i18n.tr("fr", "You left the table.") == "Vous avez quitté la table."
    assert i18n.tr("de", "You left the table.") == "Du hast den Tisch verlassen."
    assert i18n.tr("es", "You left the table.") == "Has salido de la mesa."
    assert i18n.tr("en", "You left the table.") == "You left the table."
    assert i18n.tr("fr", "Not in any catalog {x}.", x=1) == "Not in any catalog 1."


def test_plural_forms_follow_each_language() -> None:
    assert i18n.trn("fr", "{n} win", "{n} wins", 0) == "0 victoire"  # French: 0 is singular
    assert i18n.trn("de", "{n} win", "{n} wins", 0) == "0 Siege"
    assert i18n.trn("es", "{n} win", "{n} wins", 1) == "1 victoria"
    assert i18n.trn("es", "{n} win", "{n} wins", 2) == "2 victorias"
    assert i18n.trn("en", "{n} win", "{n} wins", 1) == "1 win"


def test_discord_locales_map_to_a_catalog_or_english() -> None:
    assert [i18n.from_discord(x) for x in ("fr", "de", "es-ES", "es-419", "en-GB", "ja")] == [
        "fr", "de", "es", "es", "en", "en"]
    assert i18n.discord_locales("es") == ("es-419", "es-ES")
    assert i18n.name_of("fr") == "Français" and i18n.name_of("de") == "Deutsch"


COMMAND_IN_TEXT = re.compile(r"`/(?:\{command\}|[^\s`]+) ([a-z][a-z-]*)\b(?![-:])")
"""A subcommand named in a text ("`/13clues hand`"), not an option ("`/notify alert:`")."""


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_translated_text_names_each_command_as_the_readers_discord_shows_it(code: str) -> None:
    """A text naming "`/13clues hand`" names it "`/13clues main`" in French: the name the
    member's Discord shows them (the command tree's localization), never the English one."""
    catalog = read(i18n.catalog_path(code))
    checked = 0
    for message in catalog:
        if not message.id or message.context is not None:
            continue
        for english, form in zip(ids_of(message), forms_of(message), strict=False):
            for sub in COMMAND_IN_TEXT.findall(english):
                local = i18n.translated(code, sub, "command") or sub
                assert re.search(rf"`/(?:\{{command\}}|[^\s`]+) {re.escape(local)}\b", form), \
                    f"{code}: {form!r} should name `{sub}` as `{local}`"
                checked += 1
    assert checked >= 5, checked


def test_a_command_is_named_in_the_readers_language() -> None:
    assert i18n.command("fr", "13clues", "hand") == "`/13clues main`"
    assert i18n.command("en", "13clues", "hand") == "`/13clues hand`"
    assert i18n.command("de", "mansion", "replay", option=("game", "<number>")) \
        .startswith("`/mansion wiederholung ")
    assert i18n.Command(("13clues", "status"))("es") == "`/13clues estado`"


def test_why_a_game_ended_reads_in_each_language() -> None:
    from bot import reasons
    from bot.world_changes import CHANNEL_GONE

    closed = reasons.written(reasons.CLOSED, why=CHANNEL_GONE)
    assert reasons.read("en", closed) == "The table was closed: its channel is gone."
    assert reasons.read("fr", closed) == "La table a été fermée : son salon n'existe plus."
    ended = reasons.written(reasons.ENDED_BY, name="Ann (the host)")
    assert reasons.read("de", ended) == "Ann (the host) hat die Partie beendet."
    assert reasons.read("es", "solved") == "solved"  # no template made it: as stored


def test_a_card_typed_whole_is_found_in_any_language() -> None:
    """A value typed without picking it from autocomplete's list: its id, or its name in
    English or in any catalog's language, any case, accents or not."""
    from bot.errors import UserError
    from bot.mansion import actions as mansion
    from bot.mansion.words import CARD_WORDS as mansion_words
    from bot.thirteen_clues import actions
    from bot.thirteen_clues.words import CARD_WORDS
    from engine.mansion.cards import Kind

    assert [CARD_WORDS.find(t) for t in ("Couteau", "messer", "KNIFE", "knife")] == ["knife"] * 4
    assert CARD_WORDS.find("Couteau suisse") is None
    assert [mansion_words.find(t) for t in ("Fräulein Gloria", "fraulein gloria",
                                            "Mademoiselle Rose", "Señorita Amapola",
                                            "scarlet")] == ["scarlet"] * 5
    assert actions.card("Couteau") == "knife"
    assert mansion.card("Mademoiselle Rose", Kind.SUSPECT) == "scarlet"
    with pytest.raises(UserError):
        mansion.card("Mademoiselle Rose", Kind.VEHICLE)


def test_a_paused_table_is_refused_with_its_reason_in_the_readers_language() -> None:
    from bot.errors import UserError
    from bot.models import Table
    from bot.tables import _require_playing
    from bot.world_changes import ARCHIVED

    table = Table(guild_id=1, channel_id=2, game="13clues", status="playing", host_id=3,
                  options={}, paused=ARCHIVED)
    with pytest.raises(UserError) as refused:
        _require_playing(table)
    assert "its thread is archived" in refused.value.text("en")
    assert "son fil est archivé" in refused.value.text("fr")
