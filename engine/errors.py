"""The one error type of the engine layer."""


class RuleError(Exception):
    """An action the rules do not allow, to be shown to the player. The engine writes no
    language but English: it keeps the template (`message`, with `{placeholders}`) and its
    `params` apart, so the bot can show it in the reader's language (each game translates
    its own parameters, such as card names); `str()` is the English text."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message.format(**params) if params else message)
        self.message = message
        self.params = params
