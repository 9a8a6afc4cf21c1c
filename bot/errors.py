"""The one error type of the bot layer: its message is shown to the user, ephemerally."""


class UserError(Exception):
    """A request the bot refuses (not your turn, no table here, stale button, ...)."""
