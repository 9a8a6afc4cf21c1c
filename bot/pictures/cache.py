"""A small LRU of rendered pictures, keyed by the JSON of what was drawn.

Why: the same picture is asked for again and again (a player opens `hand` twice, every seat
gets the same reveal, a casebook DM repeats after a question that changed nothing for that
seat). Rendering costs tens of milliseconds; a hit costs a dictionary look-up. The key is
the JSON of the *scene* (exactly what the picture shows), so two different game states
that look the same share one entry, and a changed state can never return a stale picture.
Thread-safe, because the bot may render in a worker thread.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.pictures.picture import Picture


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    evictions: int = 0

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


class PictureCache:
    """At most `max_items` pictures and `max_bytes` of PNG, least recently used out first."""

    def __init__(self, max_items: int = 256, max_bytes: int = 48 * 1024 * 1024) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self.stats = CacheStats()
        self._items: OrderedDict[str, Picture] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def key(kind: str, scene_json: str) -> str:
        """A short, fixed-length key: the kind plus a digest of the scene's JSON."""
        digest = hashlib.blake2b(scene_json.encode(), digest_size=16).hexdigest()
        return f"{kind}:{digest}"

    def peek(self, key: str) -> Picture | None:
        """The cached picture under `key` (from `key()`), or None (never renders)."""
        return self._get(key, miss=False)

    def get_or_render(self, kind: str, scene_json: str, render: Callable[[], Picture]) -> Picture:
        """The cached picture for this scene, rendering (outside the lock) on a miss."""
        key = self.key(kind, scene_json)
        hit = self._get(key, miss=True)
        if hit is not None:
            return hit
        picture = render()
        self.put(key, picture)
        return picture

    def _get(self, key: str, *, miss: bool) -> Picture | None:
        """A hit, counted and made the most recent; a miss counted if `miss`."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                self.stats.hits += 1
            elif miss:
                self.stats.misses += 1
            return hit

    def put(self, key: str, picture: Picture) -> None:
        """Keep a picture under `key` (from `key()`), drawn here or in a helper process."""
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old.size
            self._items[key] = picture
            self._bytes += picture.size
            while self._items and (
                len(self._items) > self.max_items or self._bytes > self.max_bytes
            ):
                _, evicted = self._items.popitem(last=False)
                self._bytes -= evicted.size
                self.stats.evictions += 1

    def __len__(self) -> int:
        return len(self._items)

    @property
    def bytes(self) -> int:
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0
            self.stats = CacheStats()


def cached(
    cache: PictureCache | None, kind: str, scene: str, render: Callable[[], Picture]
) -> Picture:
    """The picture for this scene from `cache`, rendered on a miss (always if no cache)."""
    if cache is None:
        return render()
    return cache.get_or_render(kind, scene, render)
