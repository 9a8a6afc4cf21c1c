"""A command whose stored answer is worded before its work acknowledges before it reads the
member's language: that read is a database round trip (a member seen for the first time, or
on a shared database), and at a cold start of 200 tables on PostgreSQL the joins'
acknowledgements waited behind it (median 0.5 s, p99 4 s: `bench.cluster`)."""

from __future__ import annotations

import asyncio

import pytest

from bot.languages import Languages
from testkit.world import World

DEFERRED = 5
"""DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: "thinking…"."""


@pytest.mark.parametrize("command", ["join", "add-ai", "leave", "end"])
async def test_the_acknowledgement_does_not_wait_for_the_members_language(
    world: World, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    dc = world.dc
    ann, bea = world.users[:2]
    async with world.running():
        assert "Table open" in (await dc.slash(ann, world.channel, "13clues", "new")).text
        if command == "leave":
            await dc.slash(bea, world.channel, "13clues", "join")
        member = ann if command in ("add-ai", "end") else bea
        read = asyncio.Event()
        released = asyncio.Event()
        original = Languages.of_member

        async def slow(self: Languages, interaction: object) -> str:
            read.set()
            await released.wait()  # the database is busy
            return await original(self, interaction)  # type: ignore[arg-type]

        monkeypatch.setattr(Languages, "of_member", slow)
        pending = await dc.slash(member, world.channel, "13clues", command, wait=False)
        await asyncio.wait_for(read.wait(), 5)
        await asyncio.sleep(0.2)
        assert pending.callback_type == DEFERRED  # acknowledged while the read waits
        released.set()
        done = await dc.complete(pending)
        assert not done.errors, done.text
