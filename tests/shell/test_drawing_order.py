"""Pictures waiting to be drawn are handed to the drawing helpers most urgent first (the rank
of the letter that carries them): a member's own hand does not wait behind every other
seat's pictures, nor an interaction's answer behind the table's."""

from __future__ import annotations

import asyncio
import threading

from bot.drawings import IN_HAND, Drawings
from bot.messages import Picture as PictureRef
from bot.pacing import ANSWER, KEPT, OWN, PROMPT, TABLE
from bot.pictures.picture import Picture


async def test_the_most_urgent_pictures_are_drawn_first() -> None:
    gate = threading.Event()
    drawn: list[str] = []

    def drawer(data: dict[str, object]) -> Picture:
        gate.wait(5.0)  # the first ones hold the helper until the others are queued
        drawn.append(str(data["name"]))
        return Picture("x.png", b"png", "a picture", 1, 1)

    drawings = Drawings({"test": drawer})  # one drawing thread: handed IN_HAND at once

    def ref(name: str) -> PictureRef:
        return PictureRef(kind="test", data={"name": name}, filename=f"{name}.png")

    try:
        early = [asyncio.create_task(drawings.pictures([ref(f"early {i}")], KEPT))
                 for i in range(IN_HAND)]
        await asyncio.sleep(0.05)
        waiting = [asyncio.create_task(drawings.pictures([ref(name)], priority))
                   for name, priority in (("others' casebook", KEPT), ("a prompt", PROMPT),
                                          ("table", TABLE), ("own hand", OWN),
                                          ("an answer", ANSWER))]
        await asyncio.sleep(0.05)
        gate.set()
        results = await asyncio.wait_for(asyncio.gather(*early, *waiting), 5.0)
    finally:
        await drawings.close()
    assert all(len(r) == 1 for r in results)
    assert drawn[:IN_HAND] == [f"early {i}" for i in range(IN_HAND)]
    assert drawn[IN_HAND:] == ["an answer", "own hand", "table", "a prompt", "others' casebook"]
