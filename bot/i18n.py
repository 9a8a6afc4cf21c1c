"""The bot's words in its readers' languages: gettext catalogs (`bot/locales/<lang>/LC_MESSAGES/
messages.po`, handled with Babel) and the helpers that look a text up for one explicit
language. A bot serves many languages at once, so nothing is installed globally: every call
names the language it writes in.

The catalogs are read from their `.po` files at the bot's start (`preload`; elsewhere when
first needed) and compiled in memory (Babel's `write_mo`): the repository keeps only the `.po`
sources, there is no build step at install, and a fixed catalog is read at the next start.
English is the source language: its texts are the message ids, so it needs no catalog.
`python -m bot.locales` extracts the ids and brings every catalog up to date (README,
"Adding a language").
"""

from __future__ import annotations

import functools
import io
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import babel
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES = Path(__file__).with_name("locales")
"""One folder per language, named by its code (`fr`, `de`, `es`): adding one adds a language."""
DOMAIN = "messages"
SOURCE = "en"
"""The language the texts are written in (their message ids)."""

DISCORD_LOCALES = (
    "en-US", "en-GB", "bg", "zh-CN", "zh-TW", "hr", "cs", "id", "da", "nl", "fi", "fr", "de",
    "el", "hi", "hu", "it", "ja", "ko", "es-419", "lt", "no", "pl", "pt-BR", "ro", "ru", "es-ES",
    "sv-SE", "th", "tr", "uk", "vi",
)
"""Every locale Discord sends or accepts in a command's localizations (its `Locale` values)."""


@dataclass(frozen=True)
class Language:
    """One catalog: its entries (to ask whether a text is translated) and its compiled form."""

    code: str
    catalog: Catalog
    translations: Translations


def catalog_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def languages() -> tuple[str, ...]:
    """English and every language with a catalog, in a stable order."""
    found = sorted(p.name for p in LOCALES.iterdir() if catalog_path(p.name).is_file())
    return (SOURCE, *found)


@functools.cache
def language(code: str) -> Language:
    """The catalog of `code`, read and compiled once per process."""
    with catalog_path(code).open("rb") as source:
        catalog = read_po(source, locale=code, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Language(code, catalog, Translations(compiled, domain=DOMAIN))


def preload() -> None:
    """Read every catalog now (the bot's start): a broken catalog stops the start, not a
    member's first interaction in its language."""
    for code in languages()[1:]:
        language(code)


def from_discord(locale: object) -> str:
    """The language of a Discord locale (`fr`, `es-ES`, `es-419`, a `discord.Locale`): its own
    catalog if there is one (`pt_BR` for `pt-BR`), else its language's (`es` for both Spanish
    locales), else English."""
    code = str(locale)
    known = languages()
    for candidate in (code.replace("-", "_"), code.split("-")[0]):
        if candidate in known:
            return candidate
    return SOURCE


def discord_locales(code: str) -> tuple[str, ...]:
    """The Discord locales that read `code`: those a command's localizations are given for."""
    return tuple(loc for loc in DISCORD_LOCALES if loc.split("-")[0] != SOURCE
                 and from_discord(loc) == code)


def tr(lang: str, message: str, **params: object) -> str:
    """`message` in `lang`, its `{placeholders}` filled from `params`."""
    found = message if lang == SOURCE else language(lang).translations.gettext(message)
    return found.format(**params) if params else found


def trn(lang: str, singular: str, plural: str, n: int, **params: object) -> str:
    """The form of `singular`/`plural` that `n` takes in `lang`; `{n}` and `params` filled."""
    if lang == SOURCE:
        found = singular if n == 1 else plural
    else:
        found = language(lang).translations.ngettext(singular, plural, n)
    return found.format(n=n, **params)


def N_(message: str) -> str:
    """Marks a text kept in a constant for the catalogs' extraction; `tr` translates it where
    it is shown."""
    return message


def translated(lang: str, message: str, context: str | None = None) -> str | None:
    """`message` (with its gettext context) in `lang` if its catalog translates it, else None:
    for Discord's command localizations, where a missing one falls back to English."""
    if lang == SOURCE:
        return None
    entry = language(lang).catalog.get(message, context)
    if entry is None or entry.fuzzy or not isinstance(entry.string, str) or not entry.string:
        return None
    return entry.string


@dataclass(frozen=True)
class Command:
    """A command to name in a text written later in a language not known yet (a refusal)."""

    path: tuple[str, ...]

    def __call__(self, lang: str) -> str:
        return command(lang, *self.path)


def command(lang: str, *path: str, option: tuple[str, str] | None = None) -> str:
    """A slash command as a member reading `lang` sees it in their Discord (which shows the
    command tree's localizations), e.g. "`/13clues main`" in French; with an option and the
    value to type ("game", "<number>")."""
    words = [translated(lang, p, "command") or p for p in path]
    if option is not None:
        words.append(f"{translated(lang, option[0], 'option') or option[0]}:{option[1]}")
    return "`/" + " ".join(words) + "`"


def named(lang: str, context: str, english: str) -> str:
    """A game's word (a card, a colour) in `lang`, under the game's context; English if its
    catalog has none."""
    return translated(lang, english, context) or english


def name_typed(text: str, english: Mapping[str, str], context: str) -> str | None:
    """The id whose name a member typed whole (`english`: id → English name), in English or
    in any language's catalog under `context`, any case, accents or not: a command's value
    typed without picking it from autocomplete's list."""
    key = folded(text.strip())
    for code in languages():
        for item, name in english.items():
            if folded(name if code == SOURCE else named(code, context, name)) == key:
                return item
    return None


def folded(text: str) -> str:
    """`text` as typing compares it: any case, accents dropped ("épée" finds "Épée")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                   if not unicodedata.combining(c))


def typed_in(typed: str, *names: str) -> bool:
    """Whether what a member typed is part of one of `names` (autocomplete: a card matches
    in the member's language or in English)."""
    needle = folded(typed.strip())
    return any(needle in folded(name) for name in names)


@dataclass(frozen=True)
class CardWords:
    """A game's cards as members read and type them in their language: each game's `words`
    module holds one, under its catalog context."""

    context: str
    english: Mapping[str, str]
    """Card id → its English name (the message id)."""
    icons: Mapping[str, str]
    """Card id → the emoji its label begins with."""
    find_english: Callable[[str], str | None]
    """The engine's own lookup of a card by its id or English name."""

    def find(self, text: str) -> str | None:
        """The card a member typed: its id, or its name in English or any catalog's language."""
        return self.find_english(text) or name_typed(text, self.english, self.context)

    def name(self, lang: str, card: str) -> str:
        return named(lang, self.context, self.english[card])

    def label(self, lang: str, card: str) -> str:
        """ "👤 Mademoiselle Rose" for the Mansion's card id "scarlet" in French."""
        return f"{self.icons[card]} {self.name(lang, card)}"

    def matches(self, lang: str, card: str, typed: str) -> bool:
        """Whether what a member typed is in the card's name, in their language or in
        English."""
        return typed_in(typed, self.english[card], self.name(lang, card))


def name_of(code: str) -> str:
    """A language's name as its readers write it (Babel's locale data): "Français"."""
    name = str(babel.Locale.parse(code).get_display_name(code))
    return name[:1].upper() + name[1:]
