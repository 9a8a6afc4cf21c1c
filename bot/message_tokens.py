"""Interaction tokens that may post or edit a channel message outside the global rate limit.

A click on a component of a channel message, answered with a deferred update (callback type
6), makes that message the interaction's original response: for the token's 15 minutes its
webhook may edit it (`PATCH /webhooks/{app}/{token}/messages/@original`), and interaction
endpoints are outside the bot token's 50 requests a second (issue 21). A member's turn starts
with a click on the living table message (Ask, My turn), so the edits of that message during
their turn and its retiring edit cost the budget nothing.

Any interaction in a server channel also lets the bot post there for those 15 minutes: a
followup (`POST /webhooks/{app}/{token}`) is a message of the channel like any other, public
and pinging whom its allowed mentions name, and its webhook edits it later
(`PATCH /webhooks/{app}/{token}/messages/{id}`). So each channel keeps its latest usable token,
and a new table post (a turn's mention, a lobby) goes out through it. A token is usable once
its interaction's own answer is given (`loading`, then `resolved`): a slash command's
"thinking" defer (callback type 5) would be resolved by its first followup instead of a post
being made, and a click's answer (its menu) comes before any table post through its token.
Kept in memory only: after a restart the next interaction brings a token again, and until
then the bot's own token posts and edits as before.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

LIFETIME = 14 * 60.0
"""Discord's interaction tokens last 15 minutes; a minute is kept spare for an edit that
waits for its turn in the outbox."""
SWEEP_EVERY = 10.0
"""Seconds between sweeps of the expired tokens: every read checks a token's time anyway,
and a sweep at every click walked all the tokens of the last 14 minutes (3.6% of one
process's event loop at 200 tables, `bench.cluster`)."""


@dataclass(frozen=True)
class Borrowed:
    """A token that may edit a message: as its interaction's original response (`message`
    None: `@original`), or as one of its followups (`message`: that message's id)."""

    token: str
    until: float
    message: int | None = None


class MessageTokens:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._by_message: dict[int, Borrowed] = {}
        self._by_channel: dict[int, Borrowed] = {}
        """Each server channel's newest token that may post a followup there now."""
        self._loading: dict[str, tuple[int, float]] = {}
        """Tokens of deferred "thinking" answers not given yet: (channel, until)."""
        self._waiting: dict[tuple[str, int], list[asyncio.Future[None]]] = {}
        """Letters waiting for the budget that a token for this channel ("c") or message
        ("m") would send at once (`usable`)."""
        self._holding: dict[int, int] = {}
        """Letters that wait for a token on its way to their channel, by channel (`holding`)."""
        self._wanted: dict[int, asyncio.Event] = {}
        """Channels whose holding letters an answer not given yet watches for (`awaited`)."""
        self._swept = float("-inf")

    def remember(self, message_id: int, token: str) -> None:
        """A fresh token whose original response is this message (the newest one wins)."""
        now = self._clock()
        self._forget_expired(now)
        self._by_message[message_id] = Borrowed(token, now + LIFETIME)
        self._wake("m", message_id)

    def posted(self, message_id: int, through: Borrowed) -> None:
        """A followup posted through this channel token: the same token edits it while it
        lasts."""
        self._by_message[message_id] = Borrowed(through.token, through.until, message_id)
        self._wake("m", message_id)

    def token_for(self, message_id: int | None) -> Borrowed | None:
        """A token that may edit this message now, if a click brought one or it was posted
        through one."""
        return None if message_id is None else self._live(self._by_message, message_id)

    def forget(self, message_id: int, token: str) -> None:
        """Discord refused this token (expired, or the message is no longer its original)."""
        _drop(self._by_message, message_id, token)

    def offer(self, channel_id: int, token: str, *, loading: bool = False) -> None:
        """An interaction in this server channel, just acknowledged; `loading`: as a
        "thinking" defer, usable once its answer is given (`resolved`)."""
        now = self._clock()
        self._forget_expired(now)
        if loading:
            self._loading[token] = (channel_id, now + LIFETIME)
        else:
            self._by_channel[channel_id] = Borrowed(token, now + LIFETIME)
            self._wake("c", channel_id)

    def resolved(self, token: str | None) -> None:
        """The deferred answer of this token was given: it may post followups now."""
        held = None if token is None else self._loading.pop(token, None)
        if token is None or held is None:
            return
        channel_id, until = held
        newest = self._by_channel.get(channel_id)
        if until > self._clock() and (newest is None or newest.until < until):
            self._by_channel[channel_id] = Borrowed(token, until)
            self._wake("c", channel_id)

    def for_channel(self, channel_id: int) -> Borrowed | None:
        """The channel's newest token that may post a followup there now."""
        return self._live(self._by_channel, channel_id)

    def refused(self, channel_id: int, token: str) -> None:
        """Discord refused a followup through this token: the channel's next post goes by
        the bot's own route unless a newer interaction brings another."""
        _drop(self._by_channel, channel_id, token)

    async def usable(self, *, channel: int | None = None, message: int | None = None) -> None:
        """Return once a token may post in `channel`, or edit `message` (at once if one may
        now). A letter waiting for the budget races this (`Sender`): a slash command's post
        is stored before its "thinking" answer resolves the channel's token, and at 400
        tables such posts waited for the budget behind the DMs for up to 50 s, only to go
        out through the token that had come meanwhile (`bench.load`)."""
        kind, key = ("c", channel) if channel is not None else ("m", message)
        assert key is not None
        if (self.for_channel(key) if kind == "c" else self.token_for(key)) is not None:
            return
        future = asyncio.get_running_loop().create_future()
        waiting = self._waiting.setdefault((kind, key), [])
        waiting.append(future)
        try:
            await future
        finally:
            if future in waiting:
                waiting.remove(future)
            if not waiting and self._waiting.get((kind, key)) is waiting:
                del self._waiting[(kind, key)]

    def coming(self, channel_id: int) -> bool:
        """Whether a token for this channel is loading: a slash command's "thinking" answer,
        given soon, will let its followups post there."""
        now = self._clock()
        return any(c == channel_id and until > now for c, until in self._loading.values())

    async def holding(self, channel_id: int) -> None:
        """`usable` for a letter that waits for a token on its way (`coming`) rather than
        take the budget: the answer that gives it hears of it (`awaited`)."""
        self._holding[channel_id] = self._holding.get(channel_id, 0) + 1
        wanted = self._wanted.pop(channel_id, None)
        if wanted is not None:
            wanted.set()
        try:
            await self.usable(channel=channel_id)
        finally:
            self._holding[channel_id] -= 1
            if not self._holding[channel_id]:
                del self._holding[channel_id]

    async def awaited(self, token: str) -> None:
        """Return once a letter waits for a token of the channel this loading token will
        post in (`holding`); never, for a token that is not loading. The answer that gives
        it must not wait for that letter: a slash command's answer waits briefly for its
        change's news (`bot.outbox.REPLY_WAIT`), and its table post for its token."""
        held = self._loading.get(token)
        if held is None:
            await asyncio.get_running_loop().create_future()
            return
        channel_id = held[0]
        while channel_id not in self._holding:
            await self._wanted.setdefault(channel_id, asyncio.Event()).wait()

    def _wake(self, kind: str, key: int) -> None:
        for future in self._waiting.pop((kind, key), []):
            if not future.done():
                future.set_result(None)

    def _live(self, held: dict[int, Borrowed], key: int) -> Borrowed | None:
        """The token held under `key` while it lasts (an expired one is dropped)."""
        borrowed = held.get(key)
        if borrowed is not None and borrowed.until <= self._clock():
            del held[key]
            return None
        return borrowed

    def _forget_expired(self, now: float) -> None:
        if now < self._swept + SWEEP_EVERY:
            return
        self._swept = now
        for message_id in [m for m, b in self._by_message.items() if b.until <= now]:
            del self._by_message[message_id]
        for channel_id in [c for c, b in self._by_channel.items() if b.until <= now]:
            del self._by_channel[channel_id]
        for token in [t for t, (_, until) in self._loading.items() if until <= now]:
            del self._loading[token]


def _drop(held: dict[int, Borrowed], key: int, token: str) -> None:
    """Forget the token held under `key` if it is this one (a newer one stays)."""
    if key in held and held[key].token == token:
        del held[key]
