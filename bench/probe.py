"""The bot exactly as `python -m bot` runs it, with one probe for `bench.load`: the moment each
interaction's first callback leaves the bot, read on CLOCK_MONOTONIC (one clock for every
process of the machine, the stand-in's included), one line per interaction appended to
$BENCH_CALLBACKS. With the stand-in's moment of writing the INTERACTION_CREATE frame, that
is the bot-side time: from the event reaching the bot's socket to its answer leaving, with
none of the stand-in's own delays in reading the answer."""

from __future__ import annotations

import os
import time
from typing import Any

from discord.webhook.async_ import AsyncWebhookAdapter

from bot.__main__ import main as bot_main


def main(argv: list[str]) -> int:
    out = open(os.environ["BENCH_CALLBACKS"], "a", buffering=1)  # noqa: SIM115 (the process's life)
    original = AsyncWebhookAdapter.create_interaction_response

    def probed(self: AsyncWebhookAdapter, interaction_id: int, token: str, **kwargs: Any) -> Any:
        out.write(f"{interaction_id} {time.monotonic()}\n")
        return original(self, interaction_id, token, **kwargs)

    AsyncWebhookAdapter.create_interaction_response = probed  # type: ignore[method-assign]
    return bot_main(argv)


def read(path: str | os.PathLike[str]) -> dict[int, float]:
    """Interaction id → when its first callback left the bot."""
    sent: dict[int, float] = {}
    with open(path) as lines:
        for line in lines:
            iid, _, at = line.partition(" ")
            if at.strip():
                sent.setdefault(int(iid), float(at))
    return sent
