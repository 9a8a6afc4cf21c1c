"""The turn timer at a Mansion table: a reminder half-way, then the timer answers an idle
member's prompt with a random legal choice (a card to show) or plays their turn (never an
accusation), and the channel is told exactly what was done for them. A "minute" lasts
0.4 s here once the stage is set (the script that sets it runs with 10-minute minutes, so
a slow machine cannot make a timer fire early)."""

from __future__ import annotations

import itertools
import json

from bot.mansion.render.labels import action_name
from engine.mansion import ACTION_ADAPTER, Action, apply
from engine.mansion.actions import PLAY_TYPES, card_played
from testkit.drive import query, wait_until
from testkit.mansion_drive import (
    SLACK,
    Driver,
    applied,
    mstate,
    named,
    open_mansion,
    user_at,
)
from testkit.mansion_plan import find_seed, next_move
from testkit.world import World

MINUTE = 0.4


def notices(world: World) -> list[str]:
    return [m.text for m in world.dc.channel_messages(world.channel) if "took too long" in m.text]


def played_out_in_one_go(actions: list[tuple[int, Action]]) -> bool:
    """Some idle turn was played and ended with nobody else answering in between (a Move, a
    Snoop, a suggestion nobody could disprove): one waiting situation."""
    for (seat, first), (other, then) in itertools.pairwise(actions):
        if seat == other and isinstance(first, PLAY_TYPES) and then.type in (
                "end_turn", "pick_card"):
            return True
    return False


def idle_actions(world: World) -> list[tuple[int, Action]]:
    rows = query(world, "SELECT actor, action FROM actions WHERE actor LIKE 'ai:%' "
                        "ORDER BY version")
    return [(int(r["actor"][3:]), ACTION_ADAPTER.validate_python(json.loads(r["action"])))
            for r in rows]


async def test_the_timer_answers_for_idle_members(world: World) -> None:
    dc = world.dc
    users = world.users[:3]
    # the script plays until the move that makes a member choose a card to show, with
    # minutes long enough that no timer fires however slow the machine is
    async with world.running(minute_seconds=600):
        await open_mansion(world, users, seed=find_seed(3), turn_minutes=1)
        driver = Driver(world)
        for _ in range(60):
            state = mstate(world)
            action = next_move(state)
            after, _ = apply(state, action)
            if any(p.kind == "show" for p in after.prompts):
                break
            result = await driver.perform(state, action, "panel")
            await applied(world, state, result)
        else:
            raise AssertionError("no refutation choice")
        assert not idle_actions(world)
    # restarted with short minutes, the move is made and then nobody moves
    async with world.running(minute_seconds=MINUTE):
        result = await driver.perform(state, action, "panel")
        await applied(world, state, result)
        state = mstate(world)
        show = next(p for p in state.prompts if p.kind == "show")
        refuter = user_at(world, state, show.seat)
        assert refuter is not None

        # nobody moves: a reminder, then the timer shows a card for the refuter
        await wait_until(lambda: any("waiting for you" in m.text for m in dc.dms(refuter)),
                         100 * MINUTE, "the reminder")
        await wait_until(lambda: mstate(world).step > state.step, 100 * MINUTE, "the idle answer")
        await dc.settle()
        seat, action = idle_actions(world)[0]
        assert seat == show.seat and action.type == "show_card"
        await wait_until(lambda: notices(world), SLACK, "the idle notice in the channel")
        first = notices(world)[0]
        assert f"**{refuter.name}** took too long" in first and "picked at random" in first
        assert not named(first)  # which card stays between the two
        assert any("You showed" in m.text for m in dc.dms(refuter))

        # the suggester and the next players idle too: their turns are played for them
        turn = mstate(world).turn_number
        await wait_until(lambda: (mstate(world).turn_number >= turn + 2
                                  and played_out_in_one_go(idle_actions(world)))
                         or mstate(world).phase == "over", 400 * MINUTE,
                         "two idle turns, one of them played out in one go")
        await dc.settle()
        played = [(s, a) for s, a in idle_actions(world) if isinstance(a, PLAY_TYPES)]
        assert played, notices(world)
        expected = []
        for s, a in played:
            card = "Private Tip" if a.type == "private_tip" else action_name(
                "en", card_played(a))
            expected.append((mstate(world).seats[s].name, card))

        def told() -> bool:
            said = notices(world)
            return all(any(f"**{name}** took too long: for them" in t and card in t
                           for t in said) for name, card in expected)

        await wait_until(told, SLACK, f"the notices {expected}")
        said = notices(world)
        assert not any(a.type == "accuse" for _, a in idle_actions(world))
        # one notice per waiting situation: a turn played out in one go is told once
        assert len(said) < len(idle_actions(world))
