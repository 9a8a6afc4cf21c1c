"""A member's interaction runs urgent, and so does the reply they wait for; the outbox's other
letters (the table message, the DMs) and the timers' work run behind them (`bot.urgency`)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.languages import Languages
from bot.models import Letter
from bot.tables import TableService
from bot.transport import Transport
from bot.urgency import URGENT
from testkit.world import World


async def test_interactions_and_replies_are_urgent_the_outbox_and_timers_are_not(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    handled: list[bool] = []
    sent: list[tuple[str, bool]] = []
    timed: list[bool] = []
    of_member, deliver, on_timer = Languages.of_member, Transport.deliver, TableService.on_timer

    async def member(self: Languages, interaction: Any) -> str:
        handled.append(URGENT.get())
        return await of_member(self, interaction)

    async def delivering(self: Transport, letter: Letter, *args: Any, **kwargs: Any) -> Any:
        sent.append((letter.op, URGENT.get()))
        return await deliver(self, letter, *args, **kwargs)

    async def timer(self: TableService, *args: Any, **kwargs: Any) -> Any:
        timed.append(URGENT.get())
        return await on_timer(self, *args, **kwargs)

    monkeypatch.setattr(Languages, "of_member", member)
    monkeypatch.setattr(Transport, "deliver", delivering)
    monkeypatch.setattr(TableService, "on_timer", timer)
    dc = world.dc
    ann, bea = world.users[:2]
    async with world.running():
        assert "Table open" in (await dc.slash(ann, world.channel, "13clues", "new")).text
        await dc.slash(bea, world.channel, "13clues", "join")
        await dc.slash(ann, world.channel, "13clues", "add-ai")
        await dc.slash(ann, world.channel, "13clues", "start")
        await dc.settle()
    assert handled and all(handled)
    replies = [urgent for op, urgent in sent if op == "reply"]
    others = [urgent for op, urgent in sent if op != "reply"]
    assert replies and all(replies), sent
    assert others and not any(others), sent
    assert timed and not any(timed)
