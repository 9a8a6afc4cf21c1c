"""Restarting the bot mid-game on the same database: the game, its buttons and its timers
carry on."""

from __future__ import annotations

from bot.storage.rows import Row
from engine.thirteen_clues import answer_for
from testkit import drive
from testkit.play import open_table, pass_by_dm, pass_prompt
from testkit.world import World


async def test_buttons_posted_before_a_restart_still_work(world: World) -> None:
    dc = world.dc
    ann, bea = world.users[:2]
    async with world.running():
        await open_table(world, [ann, bea])
        await pass_by_dm(world, ann)
    prompt = pass_prompt(world, bea)  # sent by the first run

    async with world.running():
        assert dc.identify_count == 2
        await pass_by_dm(world, bea)  # the DM select from before the restart
        assert "You pass" in dc.message(prompt.id).text
        state = drive.state_of(world)
        assert state.phase == "turns"
        me, user = state.turn, drive.user_at(world, state, state.turn)
        assert user is not None
        table_msg = drive.living(world)
        # a picker opened before the next restart, half filled in
        opened = await dc.click(user, table_msg, drive.cid(table_msg, "ask"))
        picker = opened.message
        assert picker is not None
        await dc.select(user, picker, drive.cid(picker, "askw"), [str(1 - me)])
        await dc.select(user, picker, drive.cid(picker, "asks"), ["blue"])

    async with world.running():
        # the living message's Ask button from the previous run opens a picker
        reopened = await dc.click(user, table_msg, drive.cid(table_msg, "ask"))
        assert reopened.ephemeral and reopened.message is not None
        assert any(c.startswith("13c:askgo:") for c in reopened.message.custom_ids)
        # and the old half-filled picker completes the question
        await dc.select(user, picker, drive.cid(picker, "askd"), ["right"])
        done = await dc.click(user, picker, drive.cid(picker, "askgo"))
        await dc.settle()
        drive.assert_done(world, picker, done)
        expected = answer_for(state, me, 1 - me, "blue", "right")
        assert f"**{expected}**" in drive.news(world)
        after = drive.state_of(world)
        assert after.turn == 1 - me and after.questions[-1].answer == expected


async def test_pending_ai_moves_are_made_after_a_restart(world: World) -> None:
    ann = world.users[0]
    async with world.running(ai_delay=1.0):
        await drive.slash(world, ann, "new")
        await drive.slash(world, ann, "add-ai", count=1, level="normal")
        started = await drive.slash(world, ann, "start")
        assert "Cards dealt" in started.text
        timers = {r["kind"] for r in _timers(world)}
        assert timers == {"ai"}
    # the bot stopped before the AI's 1 s "thinking" was over
    state = drive.state_of(world)
    ai_seat = next(i for i, s in enumerate(state.seats) if s.id.startswith("ai:"))
    assert state.seats[ai_seat].passed is None

    async with world.running(ai_delay=1.0):
        await drive.wait_until(lambda: drive.state_of(world).seats[ai_seat].passed is not None, 5,
                               "the AI to pass after the restart")
        await pass_by_dm(world, ann)
        state = drive.state_of(world)
        assert state.phase == "turns"
        if state.turn != ai_seat:  # the human ends their turn: now the AI must move
            wrong = drive.wrong_accusation(state, state.turn)
            await drive.slash(world, ann, "accuse", person=wrong[0], location=wrong[1],
                              weapon=wrong[2])
        state = drive.state_of(world)
        assert state.turn == ai_seat
        moves = drive.action_count(world)
    assert drive.action_count(world) == moves and drive.state_of(world).turn == ai_seat

    async with world.running():
        await drive.wait_until(lambda: drive.action_count(world) > moves, 5,
                               "the AI's turn after restart")
        await world.dc.settle()
        after = drive.state_of(world)
        assert after.turn_number > state.turn_number or after.phase == "over"
        last = drive.table_row(world)
        assert last["status"] in ("playing", "over")


def _timers(world: World) -> list[Row]:

    return drive.query(world, "SELECT * FROM timers")
