"""The one error type of the engine layer."""


class RuleError(Exception):
    """An action the rules do not allow; the message is written to be shown to the player."""
