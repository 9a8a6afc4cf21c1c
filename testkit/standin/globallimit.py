"""Discord's global rate limit: one bot token may make 50 requests a second in all, across every
shard and process; interaction callbacks and webhooks (followups, `@original`) are outside it.

The stand-in counts every bot-route request here whether or not it enforces the limit, so a
test or a benchmark can read how many requests a game cost and how close the bot came to the
limit (`peak`), and enforces it with a sliding one-second window per token when asked.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

WINDOW = 1.0
"""Discord's global limit is counted per second."""
DISCORD_GLOBAL_LIMIT = 50


@dataclass(frozen=True)
class Call:
    """One request on a bot route: when (stand-in clock) and which (`PATCH /channels/...`)."""

    at: float
    route: str


@dataclass
class GlobalCounter:
    calls: list[Call] = field(default_factory=list)
    """Requests carried out, in arrival order."""
    refused: list[Call] = field(default_factory=list)
    """Requests answered with a global 429."""
    _recent: dict[str, deque[float]] = field(default_factory=dict)

    def take(self, token: str, now: float, limit: int | None, route: str) -> float | None:
        """Count a request; None if it may go, else the seconds until the token may make
        another (it is then refused and not counted as made)."""
        recent = self._recent.setdefault(token, deque())
        while recent and now - recent[0] >= WINDOW:
            recent.popleft()
        if limit is not None and len(recent) >= limit:
            self.refused.append(Call(now, route))
            return max(0.001, recent[0] + WINDOW - now)
        recent.append(now)
        self.calls.append(Call(now, route))
        return None

    def mark(self) -> int:
        """A position to count from (`since`)."""
        return len(self.calls)

    def since(self, mark: int = 0) -> list[Call]:
        return self.calls[mark:]

    def peak(self, mark: int = 0) -> int:
        """The most requests made within any one second since `mark`."""
        times = [c.at for c in self.calls[mark:]]
        best, first = 0, 0
        for last, at in enumerate(times):
            while at - times[first] >= WINDOW:
                first += 1
            best = max(best, last - first + 1)
        return best

    def by_kind(self, mark: int = 0) -> dict[str, int]:
        """What the requests since `mark` were for: message posts, edits, deletes, DM
        channels opened, and anything else."""
        return self.by_kind_of(self.calls[mark:])

    @staticmethod
    def by_kind_of(calls: list[Call]) -> dict[str, int]:
        """What these requests were for (see `by_kind`)."""
        kinds: dict[str, int] = {}
        for call in calls:
            kind = _kind(call.route)
            kinds[kind] = kinds.get(kind, 0) + 1
        return kinds


def _kind(route: str) -> str:
    method, path = route.split(" ", 1)
    if path == "/users/@me/channels":
        return "dm channel"
    if path.startswith("/channels/") and "/messages" in path:
        return {"POST": "post", "PATCH": "edit", "DELETE": "delete"}.get(method, "read")
    return "other"
