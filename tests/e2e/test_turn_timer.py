"""`turn_minutes`: a reminder half-way, then an AI detective plays an idle member's turn; the
timers live in the database and survive a restart. A "minute" lasts one second here."""

from __future__ import annotations

import json

from testkit.drive import query, slash, state_of, user_at, wait_until
from testkit.play import open_table
from testkit.standin import User
from testkit.world import World

MINUTE = 1.0


def _channel_texts(world: World) -> list[str]:
    return [m.text for m in world.dc.channel_messages(world.channel)]


def _idle_notices(world: World, name: str) -> int:
    return sum(f"{name} took too long" in t for t in _channel_texts(world))


async def test_idle_members_are_reminded_then_replaced_for_the_turn(world: World) -> None:
    dc = world.dc
    players = world.users[:3]
    async with world.running(minute_seconds=MINUTE):
        await open_table(world, players, turn_minutes=1)
        assert {r["kind"] for r in query(world, "SELECT kind FROM timers")} == {"remind", "idle"}
        # nobody passes: half-way everyone is reminded, in the channel and by DM ...
        def reminded(user: User) -> bool:
            return any(user.mention in t and "waiting for you" in t
                       for t in _channel_texts(world)) and any(
                "waiting for you" in m.text for m in dc.dms(user))

        await wait_until(lambda: all(reminded(u) for u in players), 3 * MINUTE,
                         "the pass-phase reminders, in the channel and by DM")
        assert sum("waiting for you" in t for t in _channel_texts(world)) == 3
        # ... and at the end an AI detective chooses for each of them
        await wait_until(lambda: state_of(world).phase == "turns", 3 * MINUTE,
                         "the AI to pass for the idle members")
        await dc.settle()  # the stored news reaches the channel just after the change
        for user in players:
            assert _idle_notices(world, user.name) == 1

        # the first player asks their left neighbour at once, who then holds two glasses
        state = state_of(world)
        first = state.turn
        idle_seat = (first + 1) % 3
        asker, idle = user_at(world, state, first), user_at(world, state, idle_seat)
        assert asker is not None and idle is not None
        done = await slash(world, asker, "ask", witness=idle, about="red")
        assert "Asked" in done.text, done.text
        state = state_of(world)
        assert state.turn == idle_seat and state.seats[idle_seat].glasses == 2
        # the idle member's whole turn (both glasses) is played for them
        await wait_until(lambda: state_of(world).turn != idle_seat
                         or state_of(world).phase == "over", 3 * MINUTE,
                         "the AI to play the idle member's whole turn")
        await dc.settle()
        assert _idle_notices(world, idle.name) == 2
        after = state_of(world)
        assert after.phase == "over" or after.seats[idle_seat].glasses == 0
        played = query(world, "SELECT COUNT(*) AS n FROM actions WHERE actor = ?",
                       (f"ai:{idle_seat}",))[0]["n"]
        assert played >= 2  # its pass, then at least one action of its turn
        if after.phase == "over":
            return
        waiting = user_at(world, after, after.turn)
        assert waiting is not None
        waiting_notices = _idle_notices(world, waiting.name)
        await wait_until(lambda: _timers_for(world, after.turn) == ["remind", "idle"],
                         MINUTE / 4, "the next member's timers")

    # the bot is down: the stored timers wait in the database and fire after the restart
    assert state_of(world).turn == after.turn
    async with world.running(minute_seconds=MINUTE):
        await wait_until(lambda: _idle_notices(world, waiting.name) > waiting_notices,
                         3 * MINUTE, "the idle timer after a restart")
        await wait_until(lambda: state_of(world).turn != after.turn
                         or state_of(world).phase == "over", 3 * MINUTE, "the turn to end")
        later = state_of(world)
        if later.phase == "over":
            return
        nxt = user_at(world, later, later.turn)
        assert nxt is not None
        nxt_notices = _idle_notices(world, nxt.name)

    # lost timers (say, a database restored from a backup) are armed again at start-up
    query_write(world, "DELETE FROM timers")
    async with world.running(minute_seconds=MINUTE):
        assert _timers_for(world, later.turn) == ["remind", "idle"]
        await wait_until(lambda: _idle_notices(world, nxt.name) > nxt_notices,
                         3 * MINUTE, "the re-armed idle timer")


def _timers_for(world: World, seat: int) -> list[str]:
    rows = query(world, "SELECT kind, payload FROM timers ORDER BY due")
    return [r["kind"] for r in rows if json.loads(r["payload"]).get("seat") == seat]


def query_write(world: World, sql: str) -> None:
    import sqlite3

    con = sqlite3.connect(world.db)
    try:
        con.execute(sql)
        con.commit()
    finally:
        con.close()
