"""Fault injection: chosen REST requests fail the way Discord (or the road to it) fails.

Tests add faults through `dc.faults` and get a `Fault` handle back::

    dc.faults.server_error("POST /channels/{channel_id}/messages", after_apply=True,
                           recipient=alice, times=3)

What discord.py 2.x does with each answer (read from discord/http.py, the bot's HTTPClient,
and discord/webhook/async_.py, which carries interaction callbacks and followups):

- 429 (with the `Via` header Discord always sends): sleeps the body's `retry_after`, retries;
  five tries in all, then `HTTPException` (status 429). `global: true` also holds every other
  request of the HTTPClient until then. Without `Via` (a Cloudflare ban, `cloudflare=True`)
  it raises `HTTPException` at once.
- 500, 502, 504 (and 524) on bot routes: sleeps 1 + 2·tries s (1, 3, 5, 7, 9) and retries,
  five tries in all, then `DiscordServerError`. 503 is not retried: `DiscordServerError` at
  once. The webhook adapter (interaction callbacks, followups, @original) retries every 5xx.
- a dropped connection: aiohttp raises `ServerDisconnectedError`, which is neither an
  `OSError` nor a `discord.HTTPException`; discord.py does not retry it and it reaches the
  caller. (aiohttp alone retries idempotent methods, GET/PUT/DELETE, once when the dropped
  connection was a reused keep-alive one.)

So only a nonce (`enforce_nonce`) keeps a retried create from posting twice after a 500 that
came *after* the message was made (`after_apply=True`).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal

from aiohttp import web

from .records import Channel, Guild, User

FaultKind = Literal["rate_limit", "server_error", "drop", "delay"]

DEFAULT_RETRY_AFTER = 0.05
"""retry_after of a 429 fault without a duration: short, so tests stay fast."""
MAX_TRIES = 5
"""discord.py's HTTPClient and webhook adapter both give up after five tries."""
RETRIED_5XX = frozenset({500, 502, 504, 524})
"""What the bot's HTTPClient retries; the webhook adapter retries every status >= 500."""
RETRY_MARGIN = 0.5
"""Seconds past the client's expected back-off before settle() stops waiting for a retry."""

_BODIES_5XX: dict[int, tuple[str, str]] = {
    500: ("application/json", '{"message": "500: Internal Server Error", "code": 0}'),
    502: ("text/html", "<html><head><title>502 Bad Gateway</title></head></html>"),
    503: (
        "text/plain",
        "upstream connect error or disconnect/reset before headers. reset reason: overflow",
    ),
    504: ("text/html", "<html><head><title>504 Gateway Time-out</title></head></html>"),
}


class _Unset:
    """Marks `times` as not given: 1, or unlimited when for_seconds is given."""


_UNSET = _Unset()


@dataclass
class FaultHit:
    """One request a fault acted on."""

    kind: FaultKind
    method: str
    path: str
    status: int | None
    at: float


@dataclass(eq=False)
class Fault:
    """A handle on one injected fault: how often it fired, and a way to call it off.

    Usable as a context manager: the fault is cancelled on exit.
    """

    kind: FaultKind
    route: str | None
    method: str | None
    pattern: re.Pattern[str] | None
    rng: random.Random
    status: int | None = None
    times: int | None = 1
    until: float | None = None
    after_apply: bool = False
    channel_id: int | None = None
    recipient_id: int | None = None
    probability: float = 1.0
    retry_after: float | None = None
    global_: bool = False
    scope: str = "user"
    cloudflare: bool = False
    seconds: float = 0.0
    hits: list[FaultHit] = field(default_factory=list)
    cancelled: bool = False

    @property
    def count(self) -> int:
        """How many requests this fault acted on."""
        return len(self.hits)

    @property
    def remaining(self) -> int | None:
        """Hits left (None: unlimited until its duration ends or it is cancelled)."""
        return None if self.times is None else max(0, self.times - self.count)

    def active(self, now: float) -> bool:
        """Would still act on a matching request at stand-in time `now`."""
        if self.cancelled or self.remaining == 0:
            return False
        return self.until is None or now < self.until

    def cancel(self) -> None:
        """Stop acting on requests (already answered ones stay answered)."""
        self.cancelled = True

    def __enter__(self) -> Fault:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.cancel()

    def __repr__(self) -> str:
        what = self.status if self.status is not None else self.kind
        return f"<Fault {what} {self.route or '*'} hits={self.count} remaining={self.remaining}>"


def compile_route(route: str | None) -> tuple[str | None, re.Pattern[str] | None]:
    """`"POST /channels/{channel_id}/messages"` → ("POST", regex over the request path).

    The method may be left out or be `*` (any method); `{anything}` matches one path segment
    (`@original` included), so discord.py's own route templates can be pasted as they are.
    """
    if route is None:
        return None, None
    parts = route.strip().split(None, 1)
    method: str | None = None
    path = parts[-1]
    if len(parts) == 2:
        method = None if parts[0] == "*" else parts[0].upper()
    path = path.removeprefix("/api/v10")
    if not path.startswith("/"):
        raise ValueError(f"route must look like 'POST /channels/{{channel_id}}': {route!r}")
    pieces = re.split(r"(\{\w+\})", path.rstrip("/") or "/")
    regex = "".join("[^/]+" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in pieces)
    return method, re.compile(f"^{regex}$")


def bucket_hash(key: str) -> str:
    """A stable X-RateLimit-Bucket value for a route."""
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def rate_limit_response(
    retry_after: float,
    *,
    global_: bool = False,
    scope: str = "user",
    bucket: str = "",
    limit: int = 5,
    cloudflare: bool = False,
) -> web.Response:
    """A 429 as Discord sends it: body and Retry-After / X-RateLimit-* headers, and `Via`."""
    if cloudflare:
        # A Cloudflare ban: HTML, no Via; discord.py raises instead of retrying.
        return web.Response(status=429, text="error code: 1015", content_type="text/html")
    retry = round(max(retry_after, 0.0), 3)
    headers = {
        "Content-Type": "application/json",
        "Retry-After": str(max(1, math.ceil(retry))),
        "X-RateLimit-Scope": "global" if global_ else scope,
        "Via": "1.1 google",
    }
    if global_:
        headers["X-RateLimit-Global"] = "true"
    else:
        headers.update(
            {
                "X-RateLimit-Limit": str(limit),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                "X-RateLimit-Reset-After": f"{retry:.3f}",
                "X-RateLimit-Bucket": bucket,
            }
        )
    body = (
        '{"message": "You are being rate limited.", '
        f'"retry_after": {retry}, "global": {"true" if global_ else "false"}}}'
    )
    return web.Response(status=429, body=body.encode(), headers=headers)


def server_error_response(status: int) -> web.Response:
    """A 5xx with the body Discord (500) or its proxies (502/503/504) would send."""
    ctype, text = _BODIES_5XX.get(
        status, ("application/json", f'{{"message": "{status}: Server Error", "code": 0}}')
    )
    return web.Response(status=status, body=text.encode(), headers={"Content-Type": ctype})


def drop_connection(request: web.Request) -> web.Response:
    """Close the TCP connection without answering; the returned response is never sent."""
    transport = request.transport
    if transport is not None:
        transport.close()
    return web.Response(status=204)


class FaultSet:
    """The faults in force on one stand-in (`dc.faults`), checked in the order added.

    Common keyword arguments of every adder:
      times: requests to act on (default 1, or unlimited when for_seconds is given; None:
          unlimited);
      for_seconds: act only during this long on the stand-in's clock (advance_time moves it);
      channel: only requests about this channel (id, Channel, or Guild for its default
          channel), interaction callbacks and followups in it included;
      recipient: only requests about the bot's DM channel with this user;
      probability, seed: act on each matching request with this probability, drawn from
          random.Random(seed), so a storm is the same on every run.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self.faults: list[Fault] = []
        self.hits: list[FaultHit] = []
        self._streak: dict[tuple[str, str], int] = {}
        self._awaiting: dict[tuple[str, str], float] = {}

    # -- adding -----------------------------------------------------------------------------

    def rate_limit(
        self,
        route: str | None = None,
        *,
        retry_after: float | None = None,
        global_: bool = False,
        scope: Literal["user", "shared"] = "user",
        cloudflare: bool = False,
        **when: Any,
    ) -> Fault:
        """Answer 429. retry_after defaults to the time left of a for_seconds fault, else
        0.05 s. global_=True answers the global limit (and, with route None, only bot-token
        routes: Discord exempts interaction callbacks and webhooks from it)."""
        return self._add(
            "rate_limit",
            route,
            status=429,
            retry_after=retry_after,
            global_=global_,
            scope=scope,
            cloudflare=cloudflare,
            **when,
        )

    def server_error(
        self, route: str | None = None, status: int = 500, *, after_apply: bool = False, **when: Any
    ) -> Fault:
        """Answer a 5xx; after_apply=True first does what was asked (the message IS created,
        its gateway event sent), then answers the error anyway."""
        if not 500 <= status <= 599:
            raise ValueError(f"server_error wants a 5xx status, not {status}")
        return self._add("server_error", route, status=status, after_apply=after_apply, **when)

    def drop(self, route: str | None = None, *, after_apply: bool = False, **when: Any) -> Fault:
        """Close the connection without an HTTP answer, before (default) or after applying."""
        return self._add("drop", route, after_apply=after_apply, **when)

    def delay(self, route: str | None = None, seconds: float = 1.0, **when: Any) -> Fault:
        """Hold matching requests for `seconds` (real time) before handling them normally."""
        return self._add("delay", route, seconds=seconds, **when)

    def clear(self) -> None:
        """Cancel every fault."""
        for fault in self.faults:
            fault.cancel()
        self.faults.clear()

    @property
    def active(self) -> list[Fault]:
        """Faults that would still act."""
        now = self._clock()
        return [f for f in self.faults if f.active(now)]

    def _add(
        self,
        kind: FaultKind,
        route: str | None,
        *,
        times: int | _Unset | None = _UNSET,
        for_seconds: float | None = None,
        channel: int | Channel | Guild | None = None,
        recipient: User | int | None = None,
        probability: float = 1.0,
        seed: int | None = 0,
        **spec: Any,
    ) -> Fault:
        if not 0.0 < probability <= 1.0:
            raise ValueError("probability must be in (0, 1]")
        method, pattern = compile_route(route)
        if isinstance(channel, Guild):
            channel = channel.channel_id
        elif isinstance(channel, Channel):
            channel = channel.id
        fault = Fault(
            kind=kind,
            route=route,
            method=method,
            pattern=pattern,
            rng=random.Random(seed),
            times=(None if for_seconds is not None else 1) if isinstance(times, _Unset) else times,
            until=self._clock() + for_seconds if for_seconds is not None else None,
            channel_id=channel,
            recipient_id=recipient.id if isinstance(recipient, User) else recipient,
            probability=probability,
            **spec,
        )
        self.faults.append(fault)
        return fault

    # -- matching (called by the server) ----------------------------------------------------

    def pick(
        self,
        method: str,
        path: str,
        *,
        channel_id: int | None,
        recipient_id: int | None,
        bot_route: bool,
        kinds: tuple[FaultKind, ...] = ("rate_limit", "server_error", "drop"),
    ) -> Fault | None:
        """The first fault of these kinds that acts on this request (the hit is recorded)."""
        now = self._clock()
        for fault in self.faults:
            if fault.kind not in kinds or not fault.active(now):
                continue
            if fault.method is not None and fault.method != method:
                continue
            if fault.pattern is None:
                if fault.global_ and not bot_route:
                    continue
            elif not fault.pattern.match(path):
                continue
            if fault.channel_id is not None and fault.channel_id != channel_id:
                continue
            if fault.recipient_id is not None and fault.recipient_id != recipient_id:
                continue
            if fault.probability < 1.0 and fault.rng.random() >= fault.probability:
                continue
            hit = FaultHit(fault.kind, method, path, fault.status, now)
            fault.hits.append(hit)
            self.hits.append(hit)
            return fault
        return None

    def respond(
        self, fault: Fault, request: web.Request, path: str, *, bot_route: bool
    ) -> web.Response:
        """The answer for a fault that acted on `path` (drop: closes the connection)."""
        key = (request.method, path)
        if fault.kind == "drop":
            self._streak.pop(key, None)
            return drop_connection(request)
        assert fault.status is not None
        if fault.kind == "rate_limit":
            retry = fault.retry_after
            if retry is None:
                left = fault.until - self._clock() if fault.until is not None else 0.0
                retry = left if left > 0 else DEFAULT_RETRY_AFTER
            if not fault.cloudflare:
                self._expect_retry(key, retry)
            route_key = fault.route or f"{request.method} {path}"
            return rate_limit_response(
                retry,
                global_=fault.global_,
                scope=fault.scope,
                bucket=bucket_hash(route_key),
                cloudflare=fault.cloudflare,
            )
        if fault.status in RETRIED_5XX or not bot_route:
            self._expect_retry(key, None)
        return server_error_response(fault.status)

    # -- telling settle() a retry is on its way ---------------------------------------------

    def _expect_retry(self, key: tuple[str, str], retry_after: float | None) -> None:
        tries = self._streak.get(key, 0) + 1
        self._streak[key] = tries
        if tries >= MAX_TRIES:
            self._streak.pop(key, None)
            return
        wait = retry_after if retry_after is not None else 1 + 2 * (tries - 1)
        self._awaiting[key] = time.monotonic() + wait + RETRY_MARGIN

    def expect_retry(self, method: str, path: str, retry_after: float) -> None:
        """A 429 the stand-in answered on its own (message rate limit): a retry will come."""
        self._expect_retry((method, path), retry_after)

    def arrived(self, method: str, path: str) -> None:
        """A request came in: whatever retry was awaited for it is here."""
        self._awaiting.pop((method, path), None)

    def answered(self, method: str, path: str) -> None:
        """A request got a normal answer: its failure streak ends."""
        self._streak.pop((method, path), None)

    def awaited_retries(self) -> list[str]:
        """Requests the client is still expected to retry (for settle())."""
        now = time.monotonic()
        for key in [k for k, end in self._awaiting.items() if end <= now]:
            with contextlib.suppress(KeyError):
                del self._awaiting[key]
        return [f"{m} {p}" for m, p in self._awaiting]
