"""The one error type of the bot layer: its message is shown to the user, ephemerally."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import SOURCE, tr


class UserError(Exception):
    """A request the bot refuses (not your turn, no table here, stale button, ...). Its
    message is the English text with `{placeholders}` filled from `params`; `text` gives it
    in the reader's language (a literal message is found by the catalogs' extraction). A
    parameter that is itself worded per language (a command as the member's Discord names
    it: `i18n.Command`) is a callable taking the language."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message.format(**_in(SOURCE, params)) if params else message)
        self.message = message
        self.params = params
        self.written: Callable[[str], str] | None = None
        """Writes the text in a language, for a refusal whose words are not a catalog
        template alone (an engine rule, with its game's card names)."""

    @classmethod
    def written_as(cls, english: str, write: Callable[[str], str]) -> UserError:
        """A refusal another layer words (`write(lang)`), such as a game's rule."""
        refused = cls(english)
        refused.written = write
        return refused

    def text(self, lang: str) -> str:
        if self.written is not None:
            return self.written(lang)
        return tr(lang, self.message, **_in(lang, self.params))


def _in(lang: str, params: dict[str, object]) -> dict[str, object]:
    return {k: v(lang) if callable(v) else v for k, v in params.items()}
