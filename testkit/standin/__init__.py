"""A local Discord stand-in for end-to-end tests of the real discord.py bot.

Usage (pytest-asyncio, asyncio_mode=auto)::

    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        async with dc.run_bot(make_bot()):
            result = await dc.slash(alice, guild, "13clues", "new")
            assert "table" in result
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from .faults import Fault, FaultHit, FaultSet
from .process import BotProcess
from .records import (
    COMPONENTS_V2,
    EPHEMERAL,
    Channel,
    Guild,
    InteractionNotAnswered,
    InteractionResult,
    Message,
    NoBotConnected,
    StandInError,
    StandInTimeout,
    User,
)
from .server import DiscordStandIn, Rejection

__all__ = [
    "COMPONENTS_V2",
    "EPHEMERAL",
    "BotProcess",
    "Channel",
    "DiscordStandIn",
    "Fault",
    "FaultHit",
    "FaultSet",
    "Guild",
    "InteractionNotAnswered",
    "InteractionResult",
    "Message",
    "NoBotConnected",
    "Rejection",
    "StandInError",
    "StandInTimeout",
    "User",
    "running_standin",
]


@contextlib.asynccontextmanager
async def running_standin(*, check: bool = True, **options: Any) -> AsyncIterator[DiscordStandIn]:
    """Start and install a stand-in; on exit restore discord.py and stop the server.

    With check=True a clean exit also asserts that no Discord rule was violated, so every
    e2e test gets the limit checks for free (use take_violations() for expected ones).
    """
    standin = DiscordStandIn(**options)
    await standin.start()
    standin.install()
    try:
        yield standin
    finally:
        standin.restore()
        await standin.stop()
    if check:
        standin.assert_no_violations()
