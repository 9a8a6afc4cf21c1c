"""The slash commands in French, German and Spanish: every localization the bot syncs obeys
Discord's rules (the stand-in's own checks: the name pattern, lowercase, lengths, names
unique among siblings in each locale), and the stand-in refuses those that do not."""

from __future__ import annotations

from typing import Any

from discord.app_commands import Command, Group

from bot.locales.__main__ import commands_loaded
from bot.translator import CatalogTranslator
from testkit.standin import DiscordStandIn
from testkit.standin.server import shown_name


async def synced_payload() -> list[dict[str, Any]]:
    """What `tree.sync()` sends: each command with its localizations."""
    bot = await commands_loaded()
    translator = CatalogTranslator()
    payload = []
    for command in bot.tree.get_commands():
        assert isinstance(command, Command | Group)
        payload.append(await command.get_translated_payload(bot.tree, translator))
    return payload


def subcommands(payload: list[dict[str, Any]], group: str, locale: str) -> list[str]:
    node = next(c for c in payload if c["name"] == group)
    return sorted(shown_name(o, locale) for o in node["options"])


async def test_every_localized_command_obeys_discords_rules() -> None:
    payload = await synced_payload()
    assert DiscordStandIn()._check_commands(payload) == []
    help_ = next(c for c in payload if c["name"] == "help")
    assert help_["name_localizations"] == {"fr": "aide", "de": "hilfe", "es-ES": "ayuda",
                                           "es-419": "ayuda"}
    assert help_["description_localizations"]["de"] == "So spielst du mit diesem Bot"
    assert "rejoindre" in subcommands(payload, "13clues", "fr")
    assert "beitreten" in subcommands(payload, "mansion", "de")
    assert "unirse" in subcommands(payload, "13clues", "es-ES")
    assert "join" in subcommands(payload, "13clues", "ja")  # no catalog: English


async def test_every_name_option_and_choice_is_localized_in_each_language() -> None:
    """No part of a command is left in English for fr, de and es-ES (numbers and the
    languages' own names excepted, which read the same everywhere)."""
    payload = await synced_payload()
    missing: list[str] = []

    def walk(node: dict[str, Any], path: str) -> None:
        for locale in ("fr", "de", "es-ES"):
            if locale not in (node.get("name_localizations") or {}):
                missing.append(f"{path} name {locale}")
            if node.get("description") and locale not in (
                    node.get("description_localizations") or {}):
                missing.append(f"{path} description {locale}")
        for choice in node.get("choices") or ():
            localized = choice.get("name_localizations") or {}
            if not str(choice["name"]).isdigit() and choice["name"] not in (
                    "English", "Français", "Deutsch", "Español") and "fr" not in localized:
                missing.append(f"{path} choice {choice['name']}")
        for option in node.get("options") or ():
            walk(option, f"{path} {option['name']}")

    for command in payload:
        walk(command, command["name"])
    assert missing == []


def test_the_standin_refuses_localizations_discord_refuses() -> None:
    dc = DiscordStandIn()
    good = {"name": "join", "description": "Join", "type": 1}
    assert dc._check_commands([{**good, "name_localizations": {"fr": "rejoindre"}}]) == []
    for bad, why in (
        ({"name_localizations": {"fr": "Rejoindre"}}, "Invalid command name"),
        ({"name_localizations": {"de": "einem tisch beitreten"}}, "Invalid command name"),
        ({"name_localizations": {"es-ES": "u" * 33}}, "Invalid command name"),
        ({"name_localizations": {"xx": "join"}}, "Invalid locale"),
        ({"description_localizations": {"fr": "x" * 101}}, "between 1 and 100"),
        ({"description_localizations": {"fr": ""}}, "between 1 and 100"),
    ):
        problems = dc._check_commands([{**good, **bad}])
        assert problems and why in problems[0][1], (bad, problems)
    twins = {**good, "options": [
        {"name": "a", "description": "a", "type": 3, "name_localizations": {"fr": "x"}},
        {"name": "b", "description": "b", "type": 3, "name_localizations": {"fr": "x"}},
    ]}
    assert any("duplicated in fr" in why for _, why in dc._check_commands([twins]))
    long_choice = {**good, "options": [{"name": "a", "description": "a", "type": 3, "choices": [
        {"name": "one", "value": "1", "name_localizations": {"de": "e" * 101}}]}]}
    assert dc._check_commands([long_choice])
