"""Slash commands in the member's language: discord.py asks this translator for every name,
description, option and choice when the commands are synced, and Discord shows each member
the localization of their client's locale. The English names stay the canonical ones (what
the bot receives, whatever the member typed)."""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot import i18n

CONTEXTS = {
    Where.command_name: "command",
    Where.group_name: "command",
    Where.parameter_name: "option",
    Where.choice_name: "choice",
}
"""The gettext context of each kind of name (a name and a word of text may differ, e.g. the
option `me` and the word "me"); descriptions take none."""


def context_of(where: Where) -> str | None:
    return CONTEXTS.get(where)


class CatalogTranslator(app_commands.Translator):
    """The catalogs' translations of the command tree; None (English) where one has none."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return i18n.translated(i18n.from_discord(locale), string.message,
                               context_of(context.location))
