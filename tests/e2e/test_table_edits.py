"""The table message edited through a click's token (issue 21): a member's click on the
living message is answered as a deferred update of it, and until the token expires the
message's edits go through the interaction webhook, outside the bot token's global limit;
an expired token falls back to the bot's own route and nothing is lost."""

from __future__ import annotations

from engine.thirteen_clues import legal
from testkit.standin import Message
from testkit.world import World
from tests.e2e.feel_game import cid, open_and_deal, state_of, turn_message, user_of

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
