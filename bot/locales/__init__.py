"""The gettext catalogs, one folder per language (`<code>/LC_MESSAGES/messages.po`), and the
template they are kept up to date from (`messages.pot`). See `bot.i18n`."""
