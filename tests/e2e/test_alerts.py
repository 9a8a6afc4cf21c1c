"""One alert per member turn, the way each member chose it (issue 18, items 2 and 2b): three
members, one on each alert (`ping`, `dm`, `silent`), and an AI play a whole game of each kind
through the real bot; what each member was alerted by is counted per turn of theirs, and
every DM, every version of it, names its table."""

from __future__ import annotations

import re

from engine.mansion.records import TurnBegan
from engine.thirteen_clues.state import Played
from testkit.mansion_drive import Driver, mstate, open_mansion, play_members, user_at
from testkit.standin import Message, User
from testkit.world import World
from tests.e2e.feel_game import Marks, open_and_deal, play_turns

TURN_DM = "▶️ **Your turn**"
"""The Mansion's turn alert by DM (with My turn)."""
BELL_DM = "🔔 The table is waiting for you"
"""The shell's DM alert, for a wait no prompt DM announces."""
LIMIT = 240.0
"""A guard against a game that never ends, not a speed check."""


async def choose_alerts(world: World, ping: User, dm: User, silent: User) -> None:
    for user, mode in ((ping, "ping"), (dm, "dm"), (silent, "silent")):
        done = await world.dc.slash(user, world.channel, "notify", alert=mode)
        assert mode in done.text, done.text


def versions(msg: Message) -> list[str]:
    """Every content a message had: as first sent, each edit, as it stands."""
    return [str(h.get("content") or "") for h in msg.history if "content" in h] + [
        msg.content or ""]


def assert_every_dm_names_its_table(world: World, users: list[User], title: str) -> None:
    for user in users:
        dms = world.dc.dms(user)
        assert dms, user.name
        for msg in dms:
            for text in versions(msg):
                assert text.startswith(f"-# {title} · "), (user.name, text[:120])


def pings_of(world: World, user: User) -> list[Message]:
    return [m for m in world.dc.messages if user.id in m.pings]


def dm_alerts(world: World, user: User) -> list[str]:
    return [t for m in world.dc.dms(user) for t in versions(m)[:1] if TURN_DM in t or BELL_DM in t]


async def test_mansion_one_alert_per_member_turn_as_chosen(world: World) -> None:
    dc = world.dc
    ann, bea, cid = world.users[:3]
    async with world.running():
        await choose_alerts(world, ann, bea, cid)
        await open_mansion(world, [ann, bea, cid], seed=3, ai=(1, "normal"))
        await play_members(world, Driver(world), LIMIT)
        await dc.settle()
    final = mstate(world)
    turns = {u.id: 0 for u in (ann, bea, cid)}
    for record in final.rounds[-1].log:
        if isinstance(record, TurnBegan):
            user = user_at(world, final, record.seat)
            if user is not None:
                turns[user.id] += 1
    assert all(turns.values()), turns

    # ping: one mention per turn of hers, saying what is awaited; a wait whose prompt comes
    # by DM (a card to show, a tip to answer, a card to pick) is alerted by that DM alone
    # (issue 21: one alert, not a post and a DM); never a DM alert
    said = [re.findall(rf"<@{ann.id}>: ([^.\n]+)\.", m.history[0].get("content") or m.content
                       if m.history else m.content) for m in pings_of(world, ann)]
    assert all(len(s) == 1 for s in said), said
    whats = [s[0] for s in said]
    assert whats.count("your turn") == turns[ann.id], (whats, turns)
    assert all(w == "your turn" for w in whats), whats
    assert all(len(m.pings) == 1 for m in dc.messages if m.pings)  # a wait on her alone
    assert dm_alerts(world, ann) == []
    # dm: one DM per turn of hers (what to do, with My turn), never a mention
    assert pings_of(world, bea) == []
    assert len(dm_alerts(world, bea)) == turns[bea.id], (dm_alerts(world, bea), turns)
    assert all(TURN_DM in t for t in dm_alerts(world, bea))
    # silent: nothing at all
    assert pings_of(world, cid) == [] and dm_alerts(world, cid) == []
    # the channel line says what is awaited of whom, for every member waited on
    assert any(f"<@{bea.id}>: your turn." in v for m in dc.channel_messages(world.channel)
               for v in versions(m))
    assert_every_dm_names_its_table(world, [ann, bea, cid], "Clue: Mystery Beyond the Mansion")


async def test_thirteen_clues_alerts_as_chosen_and_every_dm_names_its_table(
        world: World) -> None:
    dc = world.dc
    ann, bea, cid = world.users[:3]
    async with world.running():
        await choose_alerts(world, ann, bea, cid)
        await open_and_deal(world, [ann, bea, cid], ai=1, assist="full")
        final = await play_turns(world, Marks(), questions=11)
        await dc.settle()
    seat_turns: dict[int, set[int]] = {}
    for record in final.played:
        if isinstance(record, Played):
            seat_turns.setdefault(record.seat, set()).add(record.turn)
    by_user = {u.id: len(seat_turns.get(final.seats.index(s), set()))
               for s in final.seats if (u := _user(world, s.id)) is not None}
    # no alert for the pass, which everyone chooses at once from the deal DM
    assert by_user[ann.id] >= 1 and by_user[bea.id] >= 1
    assert 0 < len(pings_of(world, ann)) <= by_user[ann.id]
    assert all(f"<@{ann.id}>: your turn." in str(m.history[0].get("content") if m.history
                                                   else m.content) for m in pings_of(world, ann))
    assert pings_of(world, bea) == [] and pings_of(world, cid) == []
    assert 0 < len(dm_alerts(world, bea)) <= by_user[bea.id]
    assert dm_alerts(world, ann) == [] and dm_alerts(world, cid) == []
    # the pass, everyone's at once, is said as what it is, not as "your turn"
    assert any(f"<@{ann.id}>: choose the cards to pass" in v
               for m in dc.channel_messages(world.channel) for v in versions(m))
    assert_every_dm_names_its_table(world, [ann, bea, cid], "13 Clues")


def _user(world: World, sid: str) -> User | None:
    return world.dc.users[int(sid[1:])] if sid.startswith("u") else None

