"""The one error type of the bot layer: its message is shown to the user, ephemerally."""

from bot.i18n import tr


class UserError(Exception):
    """A request the bot refuses (not your turn, no table here, stale button, ...). Its
    message is the English text with `{placeholders}` filled from `params`; `text` gives it
    in the reader's language (a literal message is found by the catalogs' extraction)."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message.format(**params) if params else message)
        self.message = message
        self.params = params

    def text(self, lang: str) -> str:
        return tr(lang, self.message, **self.params)
