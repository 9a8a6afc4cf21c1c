"""A command whose stored answer is worded before its work acknowledges before it reads the
member's language: that read is a database round trip (a member seen for the first time, or
on a shared database), and at a cold start of 200 tables on PostgreSQL the joins'
acknowledgements waited behind it (median 0.5 s, p99 4 s: `bench.cluster`). A click whose
answer waits for the thinkers' pool is acknowledged before it waits."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.languages import Languages
from bot.mansion import notes
from testkit.mansion_drive import find, living, mstate, open_mansion, user_at
from testkit.mansion_plan import find_seed
from testkit.standin.records import InteractionResult, Message
from testkit.world import World

DEFERRED = 5
"""DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: "thinking…"."""
DEFERRED_UPDATE = 6
"""DEFERRED_UPDATE_MESSAGE: a click on a message, its answer to follow."""


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


async def test_the_notes_button_is_acknowledged_before_the_thinkers_pool(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Mansion's Notes button at full assist works its odds out in the thinkers' pool,
    which an AI's move may be holding: the click is acknowledged first (a deferred update of
    the table message, as its answer would be), then answered."""
    dc = world.dc
    async with world.running():
        await open_mansion(world, world.users[:3], seed=find_seed(3), assist="full")
        state = mstate(world)
        member = user_at(world, state, state.turn)
        assert member is not None and world.bot is not None
        thinking, released = threading.Event(), threading.Event()
        original = notes.choice_text

        def busy(*args: Any) -> str | None:
            thinking.set()
            released.wait(5)  # the pool is thinking an AI's move
            return original(*args)

        monkeypatch.setattr(notes, "choice_text", busy)
        with ThreadPoolExecutor(1) as pool:
            world.bot.tables.thinker = pool
            try:
                table = living(world)
                pending = await dc.click(member, table, find(table, "notes"), wait=False)
                assert await asyncio.to_thread(thinking.wait, 5)
                await asyncio.sleep(0.2)
                assert pending.callback_type == DEFERRED_UPDATE  # while the pool is busy
                released.set()
                deadline = asyncio.get_running_loop().time() + 5
                while not _answers(pending) and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(0.05)
            finally:
                released.set()
                world.bot.tables.thinker = None
        assert not pending.errors, pending.errors
        [answered] = _answers(pending)
        assert answered.ephemeral


def _answers(rec: InteractionResult) -> list[Message]:
    """The notes among the click's followups (its table message may be edited through its
    token before they come)."""
    return [m for m in rec.followups if notes.CHOICE_ODDS in m.text]
