"""Restarting the bot with a prompt open: the DM buttons and a half-filled turn panel from
before the restart still work, and the game carries on to its end."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.mansion_drive import (
    Driver,
    applied,
    ever_text,
    find,
    mstate,
    open_mansion,
    play_script,
    prompt_dm,
    user_at,
)
from tests.e2e.mansion_plan import find_seed, next_move


async def test_buttons_from_before_a_restart_still_work(world: World) -> None:
    dc = world.dc
    users = world.users[:4]
    async with world.running():
        await open_mansion(world, users, seed=find_seed(4))
        driver = Driver(world)
        # play the script until a member must choose which card to show
        for _ in range(60):
            state = mstate(world)
            shows = [p for p in state.prompts if p.kind == "show" and p.reason == "suggestion"]
            if shows:
                break
            action = next_move(state)
            result = await driver.perform(state, action, "panel")
            await applied(world, state, result)
        else:
            raise AssertionError("no refutation choice")
        await dc.settle()
        prompt = shows[0]
        refuter = user_at(world, state, prompt.seat)
        assert refuter is not None
        dm = prompt_dm(world, refuter, prompt.id)

    async with world.running():  # a new process on the same database
        assert dc.identify_count == 2
        action = next_move(state)
        assert action.type == "show_card"
        done = await dc.click(refuter, dm, find(dm, "show", action.card))  # type: ignore[union-attr]
        await applied(world, state, done)
        after = mstate(world)
        assert after.step == state.step + 1 and not any(p.kind == "show" for p in after.prompts)
        await dc.settle()
        assert "You showed" in ever_text(dc.message(dm.id))
        # the turn panel of the suggester, opened now, survives the next restart
        state = mstate(world)
        prompt_now = state.prompt_for(state.turn)
        assert prompt_now is not None and prompt_now.kind == "accuse_or_end"
        user = user_at(world, state, state.turn)
        assert user is not None
        panel = await driver.open_panel(user, "slash")
        assert "accuse" in panel.text and find(panel, "end")

    async with world.running():
        ended = await driver.click(user, panel, "end")
        await applied(world, state, ended)
        assert mstate(world).turn != state.turn
        final, _ = await play_script(world, Driver(world))
        assert final.phase == "over"
    assert "Turn ended" in ever_text(dc.message(panel.id))
