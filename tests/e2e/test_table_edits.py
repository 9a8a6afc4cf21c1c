"""The table message edited through a click's token (issue 21): a member's click on the
living message is answered as a deferred update of it, and until the token expires the
message's edits go through the interaction webhook, outside the bot token's global limit;
an expired token falls back to the bot's own route and nothing is lost."""

from __future__ import annotations

from collections import Counter

from engine.thirteen_clues import legal
from testkit.standin import Message
from testkit.world import World
from tests.e2e.feel_game import (
    SEED,
    Marks,
    cid,
    open_and_deal,
    pass_all,
    play_turns,
    state_of,
    turn_message,
    user_of,
)

FOLLOWUP_WINDOW = 15 * 60.0


def _table_patches(world: World, mark: int) -> int:
    """Edits of messages in the table's channel made with the bot's own token since `mark`."""
    prefix = f"PATCH /channels/{world.channel}/messages/"
    return sum(1 for c in world.dc.under_limit.since(mark) if c.route.startswith(prefix))


async def _ask_once(world: World, *, expire_first: bool) -> tuple[Message, int]:
    """The member to act opens Ask on the table message and asks one question; the table
    message and the edits the bot's token made meanwhile."""
    dc = world.dc
    await open_and_deal(world, world.users[:3], ai=1, assist="full")
    for _ in range(50):  # the AI seats play first until a member is to act
        state = state_of(world)
        if user_of(world, state, state.turn) is not None:
            break
        await dc.settle()
    user = user_of(world, state, state.turn)
    assert user is not None
    table_msg = await turn_message(world, "ask")
    mark = dc.under_limit.mark()
    opened = await dc.click(user, table_msg, cid(table_msg, "ask"))
    assert opened.response_type == 6 and opened.ephemeral  # the picker comes as a followup
    picker = opened.message
    assert picker is not None and picker.id != table_msg.id
    if expire_first:
        dc.advance_time(FOLLOWUP_WINDOW + 1)
    witness = legal.witnesses(state, state.turn)[0]
    await dc.select(user, picker, cid(picker, "askw"), [str(witness)])
    await dc.select(user, picker, cid(picker, "asks"), [legal.question_subjects(state)[0]])
    await dc.click(user, picker, cid(picker, "askgo"))
    await dc.settle()
    return table_msg, _table_patches(world, mark)


async def test_a_click_on_the_table_message_lends_its_token_to_the_table_edits(
    world: World,
) -> None:
    async with world.running():
        table_msg, patches = await _ask_once(world, expire_first=False)
        news = world.dc.message(table_msg.id).content
    assert "asked" in news, news  # the question's news is on the table message
    assert patches == 0  # and none of it cost a request under the global limit


async def test_an_expired_token_falls_back_to_the_bots_own_edit(world: World) -> None:
    async with world.running():
        table_msg, patches = await _ask_once(world, expire_first=True)
        news = world.dc.message(table_msg.id).content
        refused = world.dc.take_violations("50027")
    assert "asked" in news, news  # nothing lost
    assert patches >= 1  # the bot's own token made the edit
    assert refused  # after Discord refused the expired token


async def _kept_dms(world: World, *, expire_first: bool
                    ) -> tuple[list[Message], Counter[str], bool]:
    """Three members and an AI pass by DM and play a short game: each member's first DM,
    the requests the bot's own token made to their DM channels from the passes on, and
    whether Discord refused an expired token."""
    dc = world.dc
    users = world.users[:3]
    async with world.running():
        assert world.bot is not None
        world.bot.tables.seed = lambda: SEED
        await dc.slash(users[0], world.channel, "13clues", "new", assist="full")
        for user in users[1:]:
            await dc.slash(user, world.channel, "13clues", "join")
        await dc.slash(users[0], world.channel, "13clues", "add-ai", count=1)
        await dc.slash(users[0], world.channel, "13clues", "start")
        await dc.settle()
        mark = dc.under_limit.mark()
        await pass_all(world, users)
        if expire_first:
            dc.advance_time(FOLLOWUP_WINDOW + 1)
        final = await play_turns(world, Marks(), questions=8)
        await dc.settle()
        assert final.phase == "over"
        channels = {dc.dms(u)[0].channel_id for u in users}
        made = Counter(c.route.split(" ", 1)[0] for c in dc.under_limit.since(mark)
                       if int(c.route.split("/")[2]) in channels)
        refused = bool(dc.take_violations("50027"))
        return [dc.dms(u)[0] for u in users], made, refused


async def test_the_pass_click_lends_its_token_to_the_members_kept_dm(world: World) -> None:
    """The deal's DM is the member's kept DM: their pass click on it brings a token, and the
    case file at play begins and every casebook update after it edit that DM through it."""
    kept, made, _ = await _kept_dms(world, expire_first=False)
    for dm in kept:
        versions = [s.get("content") or "" for s in dm.history] + [dm.text]
        assert "Your five cards" in versions[0] and any("case file" in v for v in versions)
    assert any("Your casebook" in dm.text for dm in kept)  # brought up to date in place
    # from the passes to the end, only the reviews were new DMs; not one edit was the bot's
    assert made == Counter({"POST": 3}), made


async def test_an_expired_pass_token_falls_back_to_the_bots_own_dm_edit(world: World) -> None:
    kept, made, refused = await _kept_dms(world, expire_first=True)
    assert any("Your casebook" in dm.text for dm in kept)  # nothing lost
    assert made["PATCH"] >= 1 and refused  # the bot's own token edited after the refusal
