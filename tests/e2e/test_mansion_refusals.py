"""Mansion requests the bot refuses: each gets a clear ephemeral answer and changes nothing,
neither in the database nor in the channel (stale buttons, strangers, not your turn, bad
cards, the lobby's rules)."""

from __future__ import annotations

import functools

from bot.mansion.words import card_name
from testkit.mansion_drive import (
    SLACK,
    Driver,
    applied,
    find,
    living,
    mstate,
    open_mansion,
    slash,
    user_at,
)
from testkit.mansion_plan import find_seed, next_move
from testkit.standin import User
from testkit.world import World
from tests.e2e.test_refusals import Request, refused

NO_TABLE = "There is no Clue: Mystery Beyond the Mansion table in this channel"
OVER = "The Clue: Mystery Beyond the Mansion game in this channel is over"


def command(world: World, user: User, name: str, **options: object) -> Request:
    return lambda: world.dc.slash(user, world.channel, "mansion", name, options=options)


async def test_lobby_refusals(world: World) -> None:
    ann, bea, cid, _ = world.users
    async with world.running():
        await refused(world, command(world, ann, "turn"), NO_TABLE)
        await slash(world, ann, "new", series=2)
        await refused(world, command(world, bea, "new"), "already open")
        await refused(world, command(world, bea, "add-ai", count=1, level="easy"),
                      "Only the host")
        await slash(world, bea, "join")
        await refused(world, command(world, ann, "start"), "needs 3–5 players; 2 seated")
        await refused(world, command(world, ann, "turn"), "not started")
        await refused(world, command(world, cid, "notes"), "not started")
        await refused(world, command(world, ann, "add-ai", count=4, level="easy"),
                      "Only 3 seats are left")
        levels = await world.dc.autocomplete(ann, world.channel, "mansion", "add-ai",
                                             focused="level", level="e")
        assert [c["value"] for c in levels] == ["easy", "expert"]  # the game's own levels
        await refused(world, command(world, ann, "add-ai", count=1, level="godlike"),
                      "AI level must be one of easy, normal, expert.")
        rules = await slash(world, cid, "rules")
        assert rules.ephemeral and "Series" in rules.text


async def test_play_refusals_and_stale_buttons(world: World) -> None:
    dc = world.dc
    users = world.users[:3]
    stranger = world.users[3]
    async with world.running():
        await open_mansion(world, users, seed=find_seed(3))
        state = mstate(world)
        turn = user_at(world, state, state.turn)
        other = user_at(world, state, (state.turn + 1) % 3)
        assert turn is not None and other is not None
        table = living(world)
        await refused(world, lambda: dc.click(stranger, table, find(table, "turn")),
                      "You are not seated at this table")
        await refused(world, lambda: dc.click(stranger, table, find(table, "notes")),
                      "You are not seated at this table")
        await refused(world, command(world, other, "turn"), "not your turn")
        await refused(world, command(world, other, "accuse", suspect="plum", vehicle="train",
                                     destination="alamo"),
                      f"It is {turn.name}'s turn, not yours")
        await refused(world, command(world, turn, "accuse", suspect="Nobody", vehicle="train",
                                     destination="alamo"), "There is no card called 'Nobody'")
        await refused(world, command(world, turn, "accuse", suspect="train", vehicle="train",
                                     destination="alamo"), "Train is not a suspect")

        # two panels open; one plays the card, the other is then out of date
        driver = Driver(world)
        first = await driver.open_panel(turn)
        second = (await dc.slash(turn, world.channel, "mansion", "turn")).message
        assert second is not None
        card = find(second, "card").split(":")[-1]
        action = next_move(state)
        result = await driver.perform(state, action, "panel")
        await applied(world, state, result)
        await dc.settle(quiet=1.0, timeout=SLACK)  # the move's news is out before the refusal
        assert driver.panels[turn.id].id == first.id
        await refused(world, lambda: dc.click(turn, second, find(second, "card", card)),
                      "out of date")

        # a prompt answered by DM: the same prompt's button in /mansion hand is stale
        for _ in range(60):
            state = mstate(world)
            if any(p.kind in ("show", "pick", "answer_tip") for p in state.prompts):
                break
            result = await driver.perform(state, next_move(state), "panel")
            await applied(world, state, result)
        prompt = next(p for p in state.prompts if p.kind in ("show", "pick", "answer_tip"))
        member = user_at(world, state, prompt.seat)
        assert member is not None
        hand = (await dc.slash(member, world.channel, "mansion", "hand")).message
        assert hand is not None and hand.custom_ids
        stale_id = hand.custom_ids[0]
        result = await driver.perform(state, next_move(state, seat=prompt.seat), "dm")
        await applied(world, state, result)
        await dc.settle(quiet=1.0, timeout=SLACK)  # a busy machine delivers news late
        await refused(world, lambda: dc.click(member, hand, stale_id), "out of date")


async def test_a_click_is_refused_outside_its_tables_channel_and_server(world: World) -> None:
    dc = world.dc
    users = world.users[:3]
    elsewhere = dc.add_channel(world.guild.id, "elsewhere")
    other = dc.add_guild("Other Guild")
    async with world.running():
        await open_mansion(world, users, seed=find_seed(3))
        await dc.settle()
        state = mstate(world)
        user = user_at(world, state, state.turn)
        assert user is not None
        dc.join_guild(user, other.id)
        table = living(world)
        panel = await Driver(world).open_panel(user)
        for channel, refusal in ((elsewhere, "plays in"), (other.channel_id, "another server")):
            for source, verb in ((table, "turn"), (panel, "card"), (panel, "acopen")):
                # a message elsewhere carrying this table's buttons (forged or copied)
                copy = dc._new_message(channel, {"content": "copy",
                                                 "components": source.components}, [])
                await refused(world, functools.partial(dc.click, user, copy, find(copy, verb)),
                              refusal)


async def test_the_host_ends_a_game_in_play_and_everything_is_revealed(world: World) -> None:
    dc = world.dc
    ann, bea, cid = world.users[:3]
    async with world.running():
        await open_mansion(world, [ann, bea, cid], seed=find_seed(3), series=2)
        await refused(world, command(world, bea, "end"), "Only the host")
        ended = await slash(world, ann, "end")
        assert "closed" in ended.text
        final = mstate(world)
        assert final.phase == "over" and final.ended_by == "abandoned" and final.master is None
        text = dc.last_message(world.channel).text
        assert "Ann ended the game" in text and "nobody won" in text
        for hand in final.rounds[-1].hands:  # the reveal names every hand
            assert all(card_name("en", c) in text for c in hand)
        # after the end, a game command says the game is over and what to do next
        over = await refused(world, command(world, ann, "turn"), OVER)
        assert "/mansion new" in over.text
        await refused(world, command(world, bea, "accuse", suspect="plum", vehicle="train",
                                     destination="alamo"), OVER)
