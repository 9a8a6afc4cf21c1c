"""Bad input through the stand-in (see testkit/fuzz.py): a few hundred random interactions
per run in the suite; `python -m bench.fuzz` runs 10,000."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from testkit.drive import Snapshot
from testkit.fuzz import fuzz
from testkit.world import World

CASES = 120
EXAMPLES = 3


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_garbage_input_is_answered_refused_and_harmless(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    db = Path(tmp_path_factory.mktemp("fuzz")) / "bot.sqlite3"
    counts = asyncio.run(fuzz(db, data.draw, CASES))
    print(counts.report())
    assert counts.interactions > CASES // 2
    assert counts.refused > 0


async def test_a_click_no_family_routes_is_answered(world: World) -> None:
    """discord.py drops a component interaction whose custom_id matches no DynamicItem, or
    is not on its message: the bot answers it itself instead of "This interaction failed"."""
    dc = world.dc
    ann = world.users[0]
    async with world.running():
        opened = await dc.slash(ann, world.channel, "13clues", "new")
        assert "Table open" in opened.text
        lobby = dc.last_message(world.channel)
        for custom_id in ("13c:jo", "nothing-like-ours", "13c:ask:1:0", lobby.custom_ids[0] + "x"):
            before = Snapshot.take(world)
            result = await dc.forge(ann, lobby, {"custom_id": custom_id, "component_type": 2})
            assert result.ephemeral and "not one I can use" in result.text, result.text
            assert Snapshot.take(world) == before


async def test_new_in_a_dm_is_refused(world: World) -> None:
    ann = world.users[0]
    async with world.running():
        result = await world.dc.slash(ann, None, "13clues", "new")
        assert result.ephemeral and "not in DMs" in result.text, result.text


async def test_forged_select_values_are_refused(world: World) -> None:
    """Values no menu offers (a card where a seat is expected, none at all, a long text)
    are refused as such: never parsed, never written back into a custom_id."""
    from testkit.drive import cid, living, member_at, state_of
    from testkit.play import play_begins

    dc = world.dc
    async with world.running():
        await play_begins(world, 3)
        state = state_of(world)
        user = member_at(world, state, state.turn)
        opened = await dc.click(user, living(world), cid(living(world), "ask"))
        picker = opened.message
        assert picker is not None
        opened_acc = await dc.click(user, living(world), cid(living(world), "acc"))
        accuse = opened_acc.message
        assert accuse is not None
        for msg, verb, chosen in ((picker, "askw", ["sailor"]), (picker, "askw", []),
                                  (picker, "asks", ["x" * 90]),
                                  (accuse, "accp", ["park"]), (accuse, "accl", ["Z" * 80])):
            before = Snapshot.take(world)
            result = await dc.forge(user, msg, {"custom_id": cid(msg, verb),
                                                "component_type": 3, "values": chosen})
            assert result.ephemeral and "Pick one of the menu's choices" in result.text, (
                verb, result.text)
            assert Snapshot.take(world) == before
