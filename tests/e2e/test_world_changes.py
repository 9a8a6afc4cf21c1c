"""The world changes under a table in play: its channel deleted, the bot removed from the
server, Send Messages lost (and given back), its thread archived (and unarchived), a seated
member gone. The table ends or pauses, its members are told by DM, its timers stop; a paused
table carries on by itself, with nothing lost."""

from __future__ import annotations

import asyncio
import json
import time

from engine.thirteen_clues import GameState
from testkit.drive import query, slash, state_of, table_row, user_at, wait_until
from testkit.play import pass_by_dm
from testkit.standin import User
from testkit.world import World


async def in_play(world: World, *, turn_minutes: int = 0) -> GameState:
    """Ann and Bea with one AI, cards passed, play begun."""
    ann, bea = world.users[:2]
    await slash(world, ann, "new", turn_minutes=turn_minutes)
    await slash(world, bea, "join")
    await slash(world, ann, "add-ai", count=1, level="normal")
    await slash(world, ann, "start")
    for user in (ann, bea):
        await pass_by_dm(world, user)
    await wait_until(lambda: state_of(world).phase == "turns", 5, "play to begin")
    await world.dc.settle()
    return state_of(world)


def told(world: World, user: User, text: str) -> bool:
    return any(text in m.text for m in world.dc.dms(user))


async def finish(world: World, limit: float = 20.0) -> GameState:
    """Members whose turn it is accuse right (tests know the holders); AIs play by timer."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        state = state_of(world)
        if state.phase == "over":
            return state
        user = user_at(world, state, state.turn)
        if user is None or _is_ai(world, state.turn):
            await asyncio.sleep(0.05)
            continue
        await world.dc.settle()
        person, location, weapon = state.seats[state.turn].holder
        await slash(world, user, "accuse", person=person, location=location, weapon=weapon)
    raise AssertionError("the game did not end")


def _is_ai(world: World, seat: int) -> bool:
    return json.loads(table_row(world)["seats"])[seat]["ai_level"] is not None


async def test_a_deleted_channel_ends_its_table_and_tells_the_members(world: World) -> None:
    ann, bea = world.users[:2]
    async with world.running():
        await in_play(world)
        world.dc.delete_channel(world.channel)
        await wait_until(lambda: table_row(world)["status"] == "over", 5, "the table to end")
        await world.dc.settle()
        for user in (ann, bea):
            assert told(world, user, "was closed: its channel was deleted"), user.name
        assert not query(world, "SELECT * FROM timers")
        assert state_of(world).phase == "over"
        assert told(world, ann, "case closed")  # the reveal reaches the members by DM


async def test_a_bot_removed_from_the_server_ends_its_tables(world: World) -> None:
    async with world.running():
        await in_play(world)
        world.dc.remove_bot_from_guild(world.guild.id)
        await wait_until(lambda: table_row(world)["status"] == "over", 5, "the table to end")
        await world.dc.settle()
        assert not query(world, "SELECT * FROM timers")
        pending = query(world, "SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'")
        assert pending[0]["n"] == 0  # what cannot be delivered any more is given up, not kept


async def test_lost_send_messages_pauses_the_table_until_it_is_given_back(
    world: World,
) -> None:
    dc = world.dc
    ann, bea = world.users[:2]
    async with world.running():
        state = await in_play(world, turn_minutes=5)
        dc.deny_send(world.channel)
        await wait_until(lambda: table_row(world)["paused"] is not None, 5, "the pause")
        await dc.settle()
        for user in (ann, bea):
            assert told(world, user, "is paused"), user.name
        assert not query(world, "SELECT * FROM timers")  # its timers stop
        # a member's action is refused clearly and changes nothing
        version = table_row(world)["version"]
        human = next(u for u in (ann, bea) if u.id in (
            int(s.id[1:]) for s in state.seats if s.id.startswith("u")))
        refused = await slash(world, human, "informant", card="A")
        assert "paused" in refused.text and refused.ephemeral
        assert table_row(world)["version"] == version

        dc.allow_send(world.channel)
        await wait_until(lambda: table_row(world)["paused"] is None, 5, "the table to resume")
        await dc.settle()
        assert "carries on" in dc.channel_messages(world.channel)[-1].text
        assert {r["kind"] for r in query(world, "SELECT kind FROM timers")} & {
            "ai", "remind", "idle"}
        final = await finish(world)
        assert final.phase == "over" and final.winner is not None


async def test_an_archived_thread_pauses_its_table_and_unarchiving_resumes_it(
    world: World,
) -> None:
    dc = world.dc
    ann = world.users[0]
    world.channel = dc.add_thread(world.guild.channel_id, "13 clues")
    async with world.running():
        await in_play(world)
        dc.archive_thread(world.channel)
        await wait_until(lambda: table_row(world)["paused"] is not None, 5, "the pause")
        await dc.settle()
        assert told(world, ann, "thread is archived")
        dc.unarchive_thread(world.channel)
        await wait_until(lambda: table_row(world)["paused"] is None, 5, "the table to resume")
        await dc.settle()
        final = await finish(world)
        assert final.phase == "over" and final.winner is not None


async def test_a_member_who_leaves_the_server_is_played_by_an_ai(world: World) -> None:
    dc = world.dc
    bea = world.users[1]
    async with world.running(member_events=True):
        state = await in_play(world)
        dc.remove_member(world.guild.id, bea)
        bea_seat = next(i for i, s in enumerate(state.seats) if s.id == f"u{bea.id}")
        await wait_until(lambda: _is_ai(world, bea_seat), 5, "Bea's seat to go to an AI")
        await dc.settle()
        assert any("Bea left the server" in m.text for m in dc.channel_messages(world.channel))
        final = await finish(world)
        assert final.phase == "over" and final.winner is not None
        played = query(world, "SELECT COUNT(*) AS n FROM actions WHERE actor = ?",
                       (f"ai:{bea_seat}",))[0]["n"]
        assert played >= 1 or final.winner != bea_seat
