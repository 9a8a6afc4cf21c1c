"""Interaction tokens that may edit a channel message outside the global rate limit.

A click on a component of a channel message, answered with a deferred update (callback type
6), makes that message the interaction's original response: for the token's 15 minutes its
webhook may edit it (`PATCH /webhooks/{app}/{token}/messages/@original`), and interaction
endpoints are outside the bot token's 50 requests a second (issue 21). A member's turn starts
with a click on the living table message (Ask, My turn), so the edits of that message during
their turn and its retiring edit cost the budget nothing. Kept in memory only: after a restart
the next click brings a token again, and until then the bot's own token edits as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable

LIFETIME = 14 * 60.0
"""Discord's interaction tokens last 15 minutes; a minute is kept spare for an edit that
waits for its turn in the outbox."""


class MessageTokens:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._by_message: dict[int, tuple[str, float]] = {}

    def remember(self, message_id: int, token: str) -> None:
        """A fresh token whose original response is this message (the newest one wins)."""
        now = self._clock()
        self._forget_expired(now)
        self._by_message[message_id] = (token, now + LIFETIME)

    def token_for(self, message_id: int | None) -> str | None:
        """A token that may edit this message now, if a click brought one."""
        if message_id is None:
            return None
        held = self._by_message.get(message_id)
        if held is None:
            return None
        token, until = held
        if until <= self._clock():
            del self._by_message[message_id]
            return None
        return token

    def forget(self, message_id: int, token: str) -> None:
        """Discord refused this token (expired, or the message is no longer its original)."""
        if self._by_message.get(message_id, ("", 0.0))[0] == token:
            del self._by_message[message_id]

    def _forget_expired(self, now: float) -> None:
        for message_id in [m for m, (_, until) in self._by_message.items() if until <= now]:
            del self._by_message[message_id]
