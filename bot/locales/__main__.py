"""`python -m bot.locales`: extract every text the bot writes into `messages.pot` (the source's
`tr`/`trn` calls, found by Babel as `babel.cfg` maps them, and each slash command's names,
descriptions, options and choices, taken from the command tree itself) and bring every
catalog up to date with it: a new text arrives untranslated, so the catalog tests fail until
someone translates it; a text no longer used leaves every catalog."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from bot import i18n
from bot.client import DeductionBot
from bot.config import Config
from bot.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = i18n.LOCALES / f"{i18n.DOMAIN}.pot"
KEYWORDS: dict[str, Any] = {"tr": (2,), "trn": (2, 3), "N_": None, "UserError": None,
                           "ArchiveError": None, "RuleError": None}
"""Where the text is among each helper's arguments (the language comes first; a refusal's
or a marked constant's is their only one)."""
COMMANDS = "slash command"
"""The comment marking the command tree's entries."""
GAME_WORDS = "a game's word: its established term in the language's edition"
WORDLESS = re.compile(r"^[\d\W_]*$")
"""Names and descriptions with no letter (`2016`, `…`) are the same in every language."""


def source_messages() -> Iterator[tuple[str | tuple[str, ...], str | None]]:
    """(message id, or singular and plural, context) of every `tr`/`trn` call."""
    with (ROOT / "babel.cfg").open() as cfg:
        # Babel's frontend module has no annotations
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    for _file, _line, message, _comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS
    ):
        yield message, context


async def commands_loaded() -> DeductionBot:
    """A bot that is not started, with every command of every game loaded."""
    bot = DeductionBot(Config(token=None, database_path=Path("unused.sqlite3")))
    for extension in ("cogs.general", *(g.extension for g in GAMES)):
        await bot.load_extension(extension)
    return bot


def command_tree() -> list[dict[str, Any]]:
    """The commands as they are synced (English)."""

    async def build() -> list[dict[str, Any]]:
        bot = await commands_loaded()
        return [c.to_dict(bot.tree) for c in bot.tree.get_commands()]

    return asyncio.run(build())


def command_messages(nodes: list[dict[str, Any]], kind: str = "command"
                     ) -> Iterator[tuple[str, str | None]]:
    """(text, context) of every name (context: command, option or choice) and description."""
    for node in nodes:
        yield node["name"], kind
        yield node.get("description") or "", None
        for choice in node.get("choices") or ():
            yield str(choice["name"]), "choice"
        options = node.get("options") or []
        yield from command_messages([o for o in options if o["type"] in (1, 2)], "command")
        yield from command_messages([o for o in options if o["type"] not in (1, 2)], "option")


def game_words() -> Iterator[tuple[str, str]]:
    """(word, context) of each game's words (its cards, colours...): a game's package may
    hold a `words` module with its `WORDS` and their `CONTEXT`."""
    for game in GAMES:
        package = type(game).__module__.rsplit(".", 1)[0]
        if importlib.util.find_spec(f"{package}.words") is None:
            continue
        words = importlib.import_module(f"{package}.words")
        for word in words.WORDS:
            yield word, words.CONTEXT


def template() -> Catalog:
    catalog = Catalog(project="Deduction Table", domain=i18n.DOMAIN, fuzzy=False)
    for message, context in source_messages():
        catalog.add(message, context=context)
    own_names = {i18n.name_of(code) for code in i18n.languages()}  # each as it is written
    for text, context in command_messages(command_tree()):
        if not WORDLESS.match(text) and text not in own_names:
            catalog.add(text, context=context, auto_comments=[COMMANDS])
    for word, context in game_words():
        catalog.add(word, context=context, auto_comments=[GAME_WORDS])
    return catalog


def write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as out:
        write_po(out, catalog, width=100, no_location=True, omit_header=False,
                 ignore_obsolete=True, include_previous=False, sort_output=True)


def main() -> None:
    pot = template()
    write(pot, TEMPLATE)
    for code in i18n.languages()[1:]:
        path = i18n.catalog_path(code)
        with path.open("rb") as source:
            catalog = read_po(source, locale=code, domain=i18n.DOMAIN)
        catalog.update(pot, no_fuzzy_matching=True)
        write(catalog, path)
        missing = sum(1 for m in catalog if m.id and not m.string)
        print(f"{code}: {len(catalog)} entries, {missing} to translate")


if __name__ == "__main__":
    main()
