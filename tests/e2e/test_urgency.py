"""A member's interaction runs urgent, and so does the answer they wait for and a timer's work
on a table's lock; the outbox's other letters, the timers' dispatcher and the rest of the
bot's background run behind them (`bot.urgency`), even when started from urgent work."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from bot.languages import Languages
from bot.lease import Lease
from bot.models import Letter
from bot.outbox import Sender
from bot.storage.sqlite import SqliteStorage
from bot.tables import TableService
from bot.timers import TimerDispatcher
from bot.transport import Transport
from bot.urgency import URGENT, mark_urgent
from testkit.world import World

Method = Callable[..., Coroutine[Any, Any, Any]]


def noting(seen: dict[str, list[bool]], name: str, method: Method) -> Method:
    async def noted(*args: Any, **kwargs: Any) -> Any:
        seen.setdefault(name, []).append(URGENT.get())
        return await method(*args, **kwargs)

    return noted


async def test_interactions_and_answers_are_urgent_the_background_is_not(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, list[bool]] = {}
    for owner, name in ((Languages, "of_member"), (TableService, "on_timer"),
                        (TableService, "_ai_move"), (Sender, "_run"),
                        (TimerDispatcher, "_run"), (Lease, "_renew"),
                        (SqliteStorage, "_store_marks"), (Transport, "_open")):
        monkeypatch.setattr(owner, name, noting(seen, name, getattr(owner, name)))
    deliver = Transport.deliver

    async def delivering(self: Transport, letter: Letter, *args: Any, **kwargs: Any) -> Any:
        seen.setdefault("answer" if letter.op == "reply" else "letter", []).append(URGENT.get())
        return await deliver(self, letter, *args, **kwargs)

    monkeypatch.setattr(Transport, "deliver", delivering)
    mark_urgent()  # the bot starts from urgent work: its background must not inherit it
    dc = world.dc
    ann, bea = world.users[:2]
    async with world.running():
        assert "Table open" in (await dc.slash(ann, world.channel, "13clues", "new")).text
        await dc.slash(bea, world.channel, "13clues", "join")
        await dc.slash(ann, world.channel, "13clues", "add-ai")
        await dc.slash(ann, world.channel, "13clues", "start")
        await dc.settle()
    urgent = {"of_member", "_ai_move", "answer"}
    assert set(seen) == urgent | {"on_timer", "_run", "_renew", "_store_marks", "_open",
                                  "letter"}, seen
    for name, urgencies in seen.items():
        assert all(urgencies) if name in urgent else not any(urgencies), (name, urgencies)
