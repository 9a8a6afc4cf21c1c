"""Pictures drawn when a letter is sent: the registry of drawers (a picture's kind → the game
function that draws it from its stored JSON), with a cache.

A letter carries a `bot.messages.Picture`, a reference (kind and input JSON) rendered at
commit time; the pixels are drawn only when the letter is sent, apart from the event loop
(tens of milliseconds of Pillow each): in helper processes in `python -m bot`
(`DRAW_WORKERS`), else in a thread. Drawing is a pure function of the stored JSON, and the
cache answers the same input with the very same bytes: a retried send uploads exactly what
the first try did, and a picture asked for again costs a look-up on the event loop, never a
wait behind other drawings.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import discord

from bot.messages import Picture as PictureRef
from bot.pacing import ANSWER
from bot.pictures.cache import PictureCache
from bot.pictures.picture import ATTACHMENT_LIMIT, DESCRIPTION_LIMIT, Picture
from bot.turns import Turns
from bot.workers import helper_pool, stop_pool

log = logging.getLogger(__name__)

Drawer = Callable[[dict[str, object]], Picture]
"""Draws one kind of picture from its stored input, the JSON a letter carries (the game's
pure rendering; run in a worker when the letter is sent)."""

MAX_ATTACHMENTS = 10
"""Discord's limit of files per message."""
DRAWING_NICENESS = 5
"""The drawing processes run at a lower CPU priority than the bot: when the cores are busy,
a member's click is acknowledged first and a picture waits (`bench.load`). The AI helpers'
(`THINKING_NICENESS`), not lower: at 10 the AI's thinking took the drawings' turns, and at 400
tables (some 35 pictures a second, 11 ms of CPU each) the letters carrying pictures waited for
them 17 s at the median, a member's hand among them."""

IN_HAND = 8
"""Drawings handed to each helper at once; the others wait in the bot, most urgent first. One
each left the helpers idle while a drawing's result came back and the next was handed over
(a drawing takes some 11 ms of CPU; under load the round trip took longer: `bench.load` at
400 tables drew a third as much), and 8 of 11 ms keep an urgent picture's wait under 0.1 s of
drawing."""
Drawn = list[tuple[PictureRef, Picture]]
"""The pictures of a letter, drawn, each beside the reference it was drawn from."""


class UnknownPicture(LookupError):
    """A letter names a picture kind no game draws (a game removed since it was stored)."""


class Drawings:
    """Every game's drawers, by kind, and one cache for all of them.

    `workers` > 0 draws in that many helper processes: a drawing holds the GIL for about
    half its time (the layout in Python), and in the bot's process two drawing threads made
    the event loop wait for its turns (p99 of the first callback at 200 tables 155 → 450 ms).
    0 draws in one thread of this process (tests, and bots built without helpers)."""

    def __init__(
        self,
        drawers: Mapping[str, Drawer],
        cache: PictureCache | None = None,
        warmers: Sequence[Callable[[], object]] = (),
        workers: int = 0,
    ) -> None:
        self.drawers = dict(drawers)
        self.warmers = list(warmers)
        """Each draws a sample once (fonts, card tiles), so the first letter's picture is
        not the slow one: module-level functions, run in each helper as it starts."""
        self.cache = cache if cache is not None else PictureCache(max_items=512)
        self.workers = workers
        self._executor = self._start()
        self._closed = False
        self._drawing: dict[str, asyncio.Future[Picture | None]] = {}
        """Pictures being drawn, by cache key: a second letter asking for one waits for it
        (every seat's copy of the reveal is drawn once)."""
        self._turns = Turns(IN_HAND * max(1, workers))
        """The drawings handed to the helpers (`IN_HAND` each), most urgent first: in the
        executor's own queue, first come first served, the acting member's hand waited
        behind every other seat's pictures."""

    @classmethod
    def of(cls, games: Iterable[Any], cache: PictureCache | None = None,
           workers: int = 0) -> Drawings:
        """The drawers the games declare (`drawers`, a mapping of kind to drawer)."""
        drawers: dict[str, Drawer] = {}
        warmers = []
        for game in games:
            warm = getattr(game, "warm_pictures", None)
            if warm is not None:
                warmers.append(warm)
            for kind, drawer in getattr(game, "drawers", {}).items():
                if kind in drawers:
                    raise ValueError(f"two games draw pictures of kind {kind!r}")
                drawers[kind] = drawer
        return cls(drawers, cache, warmers, workers)

    def _start(self) -> Executor:
        if self.workers > 0:
            return helper_pool(self.workers, niceness=DRAWING_NICENESS, warmers=self.warmers)
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="draw")

    def warm(self) -> asyncio.Future[Any]:
        """Start the helpers (or warm the thread up) before any letter asks; not awaited:
        the first letter's picture simply waits behind it."""
        loop = asyncio.get_running_loop()
        if self.workers > 0:
            return asyncio.gather(*(loop.run_in_executor(self._executor, _ready)
                                    for _ in range(self.workers)), return_exceptions=True)
        return loop.run_in_executor(self._executor, _warm, self.warmers)

    async def close(self) -> None:
        """Stop drawing (a drawing under way finishes; none is started after)."""
        self._closed = True
        await stop_pool(self._executor)

    def picture(self, ref: PictureRef) -> Picture:
        """The picture `ref` names, from the cache or drawn now, in this thread (blocking).
        Same kind and input, same bytes."""
        drawer = self._drawer(ref)
        return self.cache.get_or_render(ref.kind, _scene(ref), lambda: _checked(drawer, ref))

    def draw(self, ref: PictureRef) -> bytes:
        """The PNG bytes of `ref`."""
        return self.picture(ref).png

    async def pictures(self, refs: Sequence[PictureRef], priority: int = ANSWER) -> Drawn:
        """These references' pictures (at most Discord's 10): the cached ones at once, the
        others drawn apart, each in its own turn, by `priority` (lower first: the rank of
        the letter that carries them, `bot.pacing.rank_of`). A picture that cannot be drawn
        is left out (logged): the text still says everything."""
        chosen = list(refs[:MAX_ATTACHMENTS])
        drawn = await asyncio.gather(*(self._picture(r, priority) for r in chosen))
        return [(r, p) for r, p in zip(chosen, drawn, strict=True) if p is not None]

    async def files(self, refs: Sequence[PictureRef]) -> list[tuple[PictureRef, discord.File]]:
        """The attachments for these references; each described by the reference's text,
        else by the picture's alt text."""
        return [(r, as_file(r, p)) for r, p in await self.pictures(refs)]

    async def _picture(self, ref: PictureRef, priority: int) -> Picture | None:
        key = self.cache.key(ref.kind, _scene(ref))
        found = self.cache.peek(key)
        if found is not None:
            return found
        pending = self._drawing.get(key)
        if pending is None:
            pending = self._drawing[key] = asyncio.ensure_future(
                self._draw_apart(ref, key, priority))
            pending.add_done_callback(lambda _: self._drawing.pop(key, None))
        return await asyncio.shield(pending)

    async def _draw_apart(self, ref: PictureRef, key: str, priority: int) -> Picture | None:
        try:
            drawer = self._drawer(ref)
            loop = asyncio.get_running_loop()
            async with self._turns.turn(priority):
                if self._closed:  # the bot is stopping: as a drawing the closing cancelled
                    raise asyncio.CancelledError
                try:
                    picture = await loop.run_in_executor(self._executor, _checked, drawer, ref)
                except BrokenProcessPool:
                    # a helper died (killed, out of memory): a fresh pool, and one more try
                    log.warning("a drawing process died; starting fresh ones")
                    self._executor.shutdown(wait=False, cancel_futures=True)
                    self._executor = self._start()
                    picture = await loop.run_in_executor(self._executor, _checked, drawer,
                                                         ref)
        except Exception:
            log.exception("cannot draw a picture of kind %s (%s)", ref.kind, ref.filename)
            return None
        self.cache.put(key, picture)
        return picture

    def _drawer(self, ref: PictureRef) -> Drawer:
        drawer = self.drawers.get(ref.kind)
        if drawer is None:
            raise UnknownPicture(f"no drawer for pictures of kind {ref.kind!r}")
        return drawer


def _checked(drawer: Drawer, ref: PictureRef) -> Picture:
    """Draw (in a helper process or thread); refuse what Discord would not take."""
    picture = drawer(ref.data)
    if picture.size > ATTACHMENT_LIMIT:
        raise ValueError(f"{ref.kind}: {picture.size} bytes is over Discord's upload limit")
    return picture


def _warm(warmers: Sequence[Callable[[], object]]) -> None:
    for warm in warmers:
        try:
            warm()
        except Exception:
            log.exception("warming the pictures up failed")


def _ready() -> None:
    """Nothing: submitting it makes a helper start (and warm itself up)."""


def _scene(ref: PictureRef) -> str:
    return json.dumps(ref.data, sort_keys=True, separators=(",", ":"))


def as_file(ref: PictureRef, picture: Picture) -> discord.File:
    description = (ref.description or picture.description)[:DESCRIPTION_LIMIT] or None
    return discord.File(io.BytesIO(picture.png), ref.filename, description=description)
def with_images(embeds: list[dict[str, Any]], refs: Sequence[PictureRef]) -> list[dict[str, Any]]:
    """The embeds with each picture shown in the embed it names (`attachment://` is only
    written when the file goes with it: a message sent without its pictures, such as an
    ephemeral answer from a process that cannot draw, shows no broken image)."""
    out = [dict(e) for e in embeds]
    for ref in refs[:MAX_ATTACHMENTS]:
        if ref.embed is not None and 0 <= ref.embed < len(out):
            out[ref.embed]["image"] = {"url": f"attachment://{ref.filename}"}
    return out
