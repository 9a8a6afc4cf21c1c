"""Pacing below Discord's global rate limit: one bot token makes 50 requests a second in all,
every shard and process together (interaction answers are outside it). Meeting the limit
costs a 429 and a wait for every request in flight; a token bucket spends a share of it
instead, and when it runs short it serves the requests that matter most first.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Hashable

from bot.models import Letter
from bot.turns import Waitlist
from bot.urgency import task

DISCORD_LIMIT = 50
JITTER = 3
"""Requests a second kept spare for requests that leave together though paced apart (a
busy event loop, a connection pool): their bunching met the limit on the stand-in."""
CATCH_UP = 0.2
"""Seconds of budget a late wake-up of a busy event loop makes up at once. A bucket of 2
requests (the spare below the limit) lost most of it: with the loop busy 20 ms at a time,
45 a second became 25 (`bench.load` at 200 tables sent 28 a second with its table messages
a minute behind). A sliding second caps what this lets through (`ceiling`)."""
BACK_OFF = 2.0
"""Seconds a process spends half its share after one of its requests met a global 429."""
DEFAULT_RATE = 45.0
"""Requests a second one process spends (REST_PER_SECOND): a margin below Discord's 50 for
what discord.py sends on its own (command sync, member lookups). A cluster of N processes on
one token gives each 45 / N."""

# Who waits for the budget when it is short, first served first.
ANSWER = -1
"""An interaction's answer: outside the budget, but first for what it needs before it goes
(its pictures: `bot.drawings`)."""
OWN = 0
"""The DMs of the member whose click or command made the change: their private news (a
consulted informant, a shown card), a new game's hand, what they asked for. They are looking
at their screen for it."""
TABLE = 1
"""The table's living message."""
PROMPT = 2
"""The DMs of the members to act now, whom someone else's change (a deal, the turn passing, a
question) calls: their prompt, their casebook, the alert that their turn has come. After the
table message, as issue 21 orders it: at 400 tables opening together the deals' prompts (every
13 Clues member passes at once) kept table messages 47 s behind, and the members who had just
acted waited 20 s for their own DMs behind them (`bench.load`)."""
KEPT = 3
"""Others' DMs (their casebooks and news, a watcher's): they can wait for the member's turn,
which brings their casebook up to date."""


def rank_of(letter: Letter) -> int:
    """Who goes first when the budget is short: it depends on whom a DM is for (`own`,
    `later`), not on what it is: a casebook is urgent to the member about to act on it, and
    can wait for the others."""
    if not paced(letter):
        return ANSWER
    if letter.kind == "u":
        return KEPT if letter.later else OWN if letter.own else PROMPT
    return TABLE


def paced(letter: Letter) -> bool:
    """Whether a letter's request is under the global limit (interaction answers are not)."""
    return letter.op not in ("reply", "unsay")


class Pacer:
    """A token bucket: `rate` requests a second, at most `burst` at once after a quiet spell
    (by default one: requests are spread evenly). While requests wait, a late wake-up of the
    event loop is made up (`CATCH_UP` seconds' worth at once), or a busy loop would spend
    less than its share; and never more than `ceiling` in any second, `JITTER` below
    Discord's 50 (its share of them when `rate` is a share of `DEFAULT_RATE`). Waiters are
    served by priority (lower first), then in arrival order."""

    def __init__(self, rate: float = DEFAULT_RATE, burst: float | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 gate: Callable[[], asyncio.Event | None] | None = None) -> None:
        """`gate`: the event set while requests may go, cleared while a global 429 is waited
        out (discord.py's own): no budget is handed out meanwhile, or the requests given it
        would all go at once when the hold ends, and meet the limit again."""
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.burst = burst if burst is not None else 1.0
        self.catch_up = max(self.burst, rate * CATCH_UP)
        self.ceiling = rate * (DISCORD_LIMIT - JITTER) / DEFAULT_RATE
        """The most requests handed out within any one second."""
        self._granted: deque[float] = deque()
        """When the requests of the last second were handed out."""
        self._clock = clock
        self._gate = gate
        self._tokens = self.burst
        self._at = clock()
        self._waiting = Waitlist(clock=clock)
        self._pump: asyncio.Task[None] | None = None
        self.waited = 0
        """Requests that had to wait for the budget (a figure for benchmarks)."""
        self._slow_until = float("-inf")
        self.refusals = 0
        """Requests that met a global 429 (a figure for tests and benchmarks)."""

    def refused(self) -> None:
        """A request met a global 429 (`GlobalHold`). discord.py sends it again itself when
        the hold ends, outside the pacer: that try is charged to the budget now (it may go
        below zero). And the token's 50 a second are being spent elsewhere too (the other
        processes of a cluster, each with a static share; requests that left together), so
        this process spends half its share for `BACK_OFF` seconds: the retries went into a
        second the other processes kept full, up to discord.py's five tries (3 processes at
        200 tables met 98 global 429s in 40 s on a quiet machine)."""
        self.refusals += 1
        self._tokens -= 1
        self._slow_until = self._clock() + BACK_OFF

    def _share(self) -> float:
        """The part of the rate and ceiling spent now: all of it, or half while backing off."""
        return 0.5 if self._clock() < self._slow_until else 1.0

    def _refill(self, cap: float) -> None:
        now = self._clock()
        self._tokens = min(cap, self._tokens + (now - self._at) * self.rate * self._share())
        self._at = now

    def _full_for(self) -> float:
        """Seconds until the last second's requests leave room for one more (0: room now)."""
        now = self._clock()
        while self._granted and now - self._granted[0] >= 1.0:
            self._granted.popleft()
        if len(self._granted) < self.ceiling * self._share():
            return 0.0
        return max(0.001, self._granted[0] + 1.0 - now)

    def _grant(self) -> None:
        self._tokens -= 1
        self._granted.append(self._clock())

    async def take(self, priority: int, key: Hashable | None = None) -> bool:
        """Wait for one request's share of the budget; True if it had to wait. `key`: what
        the request is for (a letter's destination), by which `hurry` finds it."""
        waiting = bool(self._waiting)
        self._refill(self.catch_up if waiting else self.burst)
        if not waiting and self._tokens >= 1 and self._open() and not self._full_for():
            self._grant()
            return False
        self.waited += 1
        waiter = self._waiting.join(priority, key)
        if self._pump is None or self._pump.done():
            self._pump = task(self._serve(), name="rest-pacer")
        try:
            await waiter.turn
        finally:
            self._waiting.leave(waiter)
        return True

    @property
    def short(self) -> bool:
        """Whether requests wait for the budget now."""
        return bool(self._waiting)

    def hurry(self, key: Hashable, priority: int) -> None:
        """Serve the request waiting for `key` at `priority` if that is more urgent than its
        own: a destination's letters go in order, so a DM that can wait holds back the
        member's own DM stored after it (at 400 tables 223 of the 1,186 prompts that waited
        over 2 s waited behind one, `bench.load`): see `Waitlist`."""
        self._waiting.hurry(key, priority)

    async def _serve(self) -> None:
        while self._waiting:
            gate = self._gate() if self._gate is not None else None
            if gate is not None and not gate.is_set():
                await gate.wait()
                self._at = self._clock()  # no budget piles up during the hold
            self._refill(self.catch_up)
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / (self.rate * self._share()))
                continue
            full = self._full_for()
            if full:
                await asyncio.sleep(full)
                continue
            waiter = self._waiting.next()
            if waiter is not None:  # a cancelled waiter gave its turn away
                self._grant()
                waiter.turn.set_result(None)

    def _open(self) -> bool:
        gate = self._gate() if self._gate is not None else None
        return gate is None or gate.is_set()

    async def close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.gather(self._pump, return_exceptions=True)
        self._waiting.cancel()


class GlobalHold(asyncio.Event):
    """discord.py's hold during a global 429 (its `HTTPClient._global_over`: set while requests
    may go), which also tells the pacer of each refused request: discord.py clears it once
    for every request a global 429 refused, before it sends that request again itself."""

    def __init__(self, refused: Callable[[], None]) -> None:
        super().__init__()
        self.set()
        self._refused = refused

    def clear(self) -> None:
        super().clear()
        self._refused()
