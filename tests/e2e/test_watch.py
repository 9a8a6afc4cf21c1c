"""`/… watch` through the real bot: a member without a seat follows a game from one DM kept up
to date (no pings), sees no secret before the end, and gets the reveal; players are refused,
and the same command stops it. Watching leaves the players' buttons valid."""

from __future__ import annotations

import json
import time

from engine.thirteen_clues.cards import CARDS
from testkit.drive import state_of, table_row
from testkit.mansion_drive import open_mansion
from testkit.mansion_drive import slash as mansion_slash
from testkit.play import open_table, pass_by_dm, seat_user
from testkit.standin import Message, User
from testkit.world import World
from tests.e2e.endings import solve_mansion, solve_thirteen_clues

HEAD = "You are watching"


def watch_dms(world: World, user: User) -> list[Message]:
    return [m for m in world.dc.dms(user) if HEAD in m.text or "🏁" in m.text]


def every_version(msg: Message) -> list[str]:
    """The text a message showed at each of its edits, and now."""
    return [str(h.get("content") or "") for h in msg.history] + [msg.content]


async def test_a_watcher_follows_a_thirteen_clues_game_without_pings_or_secrets(
    world: World,
) -> None:
    dc = world.dc
    players, watcher, late = world.users[:2], world.users[2], world.users[3]
    async with world.running():
        await open_table(world, players)
        version = table_row(world)["version"]
        refused = await dc.slash(players[0], world.channel, "13clues", "watch")
        assert "You have a seat" in refused.text and refused.ephemeral
        started = await dc.slash(watcher, world.channel, "13clues", "watch")
        assert "You are watching" in started.text and started.ephemeral
        assert table_row(world)["version"] == version  # the players' buttons stay valid
        await dc.settle()
        (news,) = watch_dms(world, watcher)
        assert "13 Clues" in news.text and news.pings == []
        for user in players:
            await pass_by_dm(world, user)  # the pass prompts carry the version: still valid
        await dc.slash(late, world.channel, "13clues", "watch")
        await dc.slash(late, world.channel, "13clues", "watch")  # …and stops at once
        state = state_of(world)
        asker = seat_user(world, state, state.turn)
        witness = next(u for u in players if u.id != asker.id)
        asked = await dc.slash(asker, world.channel, "13clues", "ask", witness=witness,
                               about="red", side="left")
        assert "Asked" in asked.text or "asked" in asked.text, asked.text
        await dc.settle()
        news = dc.message(news.id)
        assert len(news.history) >= 2 and "red" in news.content.lower(), news.content
        names = [c.name for c in CARDS.values()]
        for text in every_version(news):  # what the channel saw, never a card before the end
            assert not [n for n in names if n in text], text

        _, (p, _, _) = await solve_thirteen_clues(world)
        dms = watch_dms(world, watcher)
        assert len(dms) == 2 and dms[0].id == news.id  # one news DM, then the end
        end = dms[1]
        assert "🏁" in end.text and CARDS[p].name in end.text + str(end.embeds)
        assert all(m.pings == [] for m in dc.dms(watcher))
        assert watch_dms(world, late) == [dc.dms(late)[0]] and len(dc.dms(late)) == 1
        over = await dc.slash(watcher, world.channel, "13clues", "watch")
        assert "is over" in over.text


async def test_a_mansion_watcher_can_stop_and_gets_nothing_more(world: World) -> None:
    dc = world.dc
    players, watcher = world.users[:3], world.users[3]
    async with world.running():
        await open_mansion(world, players, seed=3)
        await mansion_slash(world, watcher, "watch")
        await dc.settle()
        assert len(watch_dms(world, watcher)) == 1
        stopped = await mansion_slash(world, watcher, "watch")
        assert "no longer watch" in stopped.text
        await solve_mansion(world, players)
        await dc.settle()
        assert len(dc.dms(watcher)) == 1  # no reveal: they stopped watching


async def test_a_watcher_with_closed_dms_gets_no_word_in_the_channel(world: World) -> None:
    """The feed cannot reach a watcher whose DMs are closed: no "I could not DM" notice in the
    channel (it would ping them, tell the table they watch, and point them to `hand`, which
    has nothing for a watcher). The closed DMs are remembered, so the feed's later letters
    cost Discord nothing, and the watcher's next `watch` stops it as usual."""
    dc = world.dc
    ann, bea, cid = world.users[:3]
    async with world.running():
        await open_table(world, [ann, bea])
        dc.close_dms(cid)
        watching = await dc.slash(cid, world.channel, "13clues", "watch")
        assert HEAD in watching.text, watching.text
        await dc.settle()
        assert not any("could not DM" in m.text for m in dc.channel_messages(world.channel))
        assert json.loads(table_row(world)["options"]).get("watchers") == [cid.id]
        assert world.bot is not None and await world.bot.storage.dm_closed(cid.id, time.time())
        stopped = await dc.slash(cid, world.channel, "13clues", "watch")
        assert "no longer watch" in stopped.text, stopped.text
