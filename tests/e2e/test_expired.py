"""An interaction the bot reaches after Discord's 3 s (a starved process) is dropped in one
warning line: nothing done, no error logged, no traceback formatted (under load each
traceback cost a parse of the source file and the bot fell further behind)."""

from __future__ import annotations

from testkit.drive import Snapshot
from testkit.world import World


async def test_an_expired_interaction_changes_nothing_and_logs_no_error(world: World) -> None:
    dc = world.dc
    ann, bea = world.users[:2]
    async with world.running():
        opened = await dc.slash(ann, world.channel, "13clues", "new")
        assert "Table open" in opened.text
        lobby = next(m for m in reversed(dc.channel_messages(world.channel))
                     if any(":join:" in c for c in m.custom_ids))
        join = next(c for c in lobby.custom_ids if ":join:" in c)
        before = Snapshot.take(world)
        dc.interaction_deadline = 0.0  # every acknowledgement now comes too late
        late = [await dc.slash(bea, world.channel, "13clues", "join", wait=False),
                await dc.click(bea, lobby, join, wait=False),
                await dc.slash(bea, world.channel, "mansion", "new", wait=False)]
        await dc.settle()
        assert all(r.callback_type is None for r in late)
        assert len(dc.take_violations("10062")) >= len(late)
        assert Snapshot.take(world) == before
        dc.interaction_deadline = 3.0
        joined = await dc.slash(bea, world.channel, "13clues", "join")
        assert "seat" in joined.text.lower(), joined.text
