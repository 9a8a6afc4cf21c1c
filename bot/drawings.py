"""Pictures drawn when a letter is sent: the registry of drawers (a picture's kind → the game
function that draws it from its stored JSON), with a cache.

A letter carries a `bot.messages.Picture`, a reference (kind and input JSON) rendered at
commit time; the pixels are drawn only when the letter is sent, in the drawing thread (the
tens of milliseconds of Pillow must not hold up the event loop). Drawing is a pure function
of the stored JSON, and the cache answers the same input with the very same bytes: a
retried send uploads exactly what the first try did, and a picture asked for again costs a
look-up.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord

from bot.messages import Picture as PictureRef
from bot.pictures.cache import PictureCache
from bot.pictures.picture import ATTACHMENT_LIMIT, DESCRIPTION_LIMIT, Picture

log = logging.getLogger(__name__)

Drawer = Callable[[dict[str, Any]], Picture]
"""Draws one kind of picture from its stored input (the game's pure rendering)."""

MAX_ATTACHMENTS = 10
"""Discord's limit of files per message."""


class UnknownPicture(LookupError):
    """A letter names a picture kind no game draws (a game removed since it was stored)."""


class Drawings:
    """Every game's drawers, by kind, and one cache for all of them."""

    def __init__(
        self,
        drawers: Mapping[str, Drawer],
        cache: PictureCache | None = None,
        warmers: Sequence[Callable[[], object]] = (),
    ) -> None:
        self.drawers = dict(drawers)
        self.warmers = list(warmers)
        """Each draws a sample once (fonts, card tiles), so the first letter's picture is
        not the slow one."""
        self.cache = cache if cache is not None else PictureCache(max_items=128)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="draw")
        """One drawing thread: most of a drawing holds the GIL (the layout in Python, parts
        of Pillow), so more threads would not draw faster and would take the event loop's
        turns (a storm of `hand` commands then missed Discord's 3 s to defer)."""

    @classmethod
    def of(cls, games: Iterable[Any], cache: PictureCache | None = None) -> Drawings:
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
        return cls(drawers, cache, warmers)

    def warm(self) -> asyncio.Future[None]:
        """Draw the samples in the drawing thread, before any letter asks (not awaited: the
        first letter's picture simply waits behind it)."""
        def run() -> None:
            for warm in self.warmers:
                try:
                    warm()
                except Exception:
                    log.exception("warming the pictures up failed")

        return asyncio.get_running_loop().run_in_executor(self._thread, run)

    def close(self) -> None:
        """Stop the drawing thread (a drawing under way finishes; none is started after)."""
        self._thread.shutdown(wait=False, cancel_futures=True)

    def picture(self, ref: PictureRef) -> Picture:
        """The picture `ref` names, from the cache or drawn now (blocking: call it in a
        thread). Same kind and input, same bytes."""
        drawer = self.drawers.get(ref.kind)
        if drawer is None:
            raise UnknownPicture(f"no drawer for pictures of kind {ref.kind!r}")
        scene = json.dumps(ref.data, sort_keys=True, separators=(",", ":"))
        picture = self.cache.get_or_render(ref.kind, scene, lambda: drawer(ref.data))
        if picture.size > ATTACHMENT_LIMIT:
            raise ValueError(f"{ref.kind}: {picture.size} bytes is over Discord's upload limit")
        return picture

    def draw(self, ref: PictureRef) -> bytes:
        """The PNG bytes of `ref`."""
        return self.picture(ref).png

    async def files(self, refs: Sequence[PictureRef]) -> list[tuple[PictureRef, discord.File]]:
        """The attachments for these references (at most Discord's 10), drawn in a worker
        thread; each described by the reference's text, else by the picture's alt text. A
        picture that cannot be drawn is left out (logged): the text still says everything."""
        chosen = list(refs[:MAX_ATTACHMENTS])
        loop = asyncio.get_running_loop()
        drawn = await loop.run_in_executor(self._thread, lambda: [self._try(r) for r in chosen])
        return [(r, as_file(r, p)) for r, p in zip(chosen, drawn, strict=True) if p is not None]

    def _try(self, ref: PictureRef) -> Picture | None:
        try:
            return self.picture(ref)
        except Exception:
            log.exception("cannot draw a picture of kind %s (%s)", ref.kind, ref.filename)
            return None


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
