"""A member whose DMs are closed plays a whole Mansion game through `/mansion hand` and
`/mansion turn` (ephemeral): the channel says once that DMs failed, never with a secret."""

from __future__ import annotations

import json

from engine.mansion import Abandon, Action, GameState
from testkit import mansion_drive as md
from testkit.drive import query
from testkit.mansion_plan import find_seed
from testkit.mansion_secrecy import assert_mansion_secrecy
from testkit.world import World


async def test_a_member_with_closed_dms_plays_through_hand(world: World) -> None:
    dc = world.dc
    ann, bea, cid = world.users[:3]
    dc.close_dms(bea)
    async with world.running():
        await md.open_mansion(world, [ann, bea, cid], seed=find_seed(3))
        notices = [m for m in dc.channel_messages(world.channel) if "could not DM" in m.text]
        assert notices and bea.mention in notices[-1].text
        assert "/mansion hand" in notices[-1].text and ann.mention not in notices[-1].text
        state = md.mstate(world)
        me = md.seat_of(state, bea)
        hand = await md.slash(world, bea, "hand")
        assert hand.ephemeral and set(state.seats[me].clues) <= md.named(hand.text)

        def ways(state: GameState, action: Action, i: int) -> md.Via:
            assert not isinstance(action, Abandon), "the script plays a seat's moves"
            user = md.user_at(world, state, action.seat)
            prompt = state.prompt_for(action.seat)
            assert prompt is not None
            if user == bea:
                return "hand" if prompt.kind not in ("play", "accuse_or_end") else "slash"
            return "dm" if prompt.kind in ("show", "pick", "answer_tip") else "panel"

        final, moment = await md.play_script(world, md.Driver(world), ways)
        answered = [m for m in dc.ephemerals(bea) if "Your secrets" in md.ever_text(m) and any(
            f":{verb}:" in c for c in md.ever_custom_ids(m) for verb in ("pick", "show", "tip"))]
        answers = query(world, "SELECT action FROM actions WHERE actor = ?", (f"u{bea.id}",))
        kinds = {json.loads(r["action"])["type"] for r in answers}
        assert not dc.dms(bea)
        notices = [m for m in dc.channel_messages(world.channel) if "could not DM" in m.text]
        assert len(notices) == 1 and not md.named(notices[0].text)
    assert final.phase == "over"
    assert answered, "Bea answered through /mansion hand"
    assert kinds & {"pick_card", "show_card", "answer_tip"} and kinds & {"end_turn", "accuse"}
    assert assert_mansion_secrecy(world, final, moment) > 10
