"""A player whose DMs are closed plays a whole game through `/13clues hand` (ephemeral)."""

from __future__ import annotations

from engine.thirteen_clues.cards import CARDS
from testkit.drive import assert_secrecy, cid, cut, seat_of, slash, state_of, user_at
from testkit.play import first_of_each, named_cards, open_table, pass_by_dm
from testkit.world import World


async def test_closed_dms_player_finishes_with_hand(world: World) -> None:
    dc = world.dc
    ann, bea = world.users[:2]
    dc.close_dms(bea)
    async with world.running():
        await open_table(world, [ann, bea])
        notices = [m for m in dc.channel_messages(world.channel) if "could not DM" in m.text]
        assert notices, [m.text for m in dc.channel_messages(world.channel)]
        assert bea.mention in notices[-1].text and "/13clues hand" in notices[-1].text
        assert ann.mention not in notices[-1].text
        assert not dc.dms(bea)

        # the pass choice from the ephemeral hand
        hand = await slash(world, bea, "hand")
        assert hand.ephemeral and hand.message is not None
        select = cid(hand.message, "pass")
        dealt = [o["value"] for o in hand.message.options(select)]
        state = state_of(world)
        assert sorted(dealt) == sorted(state.seats[seat_of(state, bea)].dealt)
        await dc.select(bea, hand.message, select, first_of_each(dealt))
        await dc.settle()
        assert "You pass" in dc.message(hand.message.id).text
        assert state_of(world).seats[seat_of(state, bea)].passed is not None
        await pass_by_dm(world, ann)

        # after the pass: screen and every holder but her own
        state = state_of(world)
        me = seat_of(state, bea)
        hand = await slash(world, bea, "hand")
        shown = named_cards(hand.text)
        assert set(state.seats[me].screen) <= shown
        assert set(state.seats[1 - me].holder) <= shown
        assert not shown & set(state.seats[me].holder)
        assert "13c:pass:" not in "".join(hand.message.custom_ids if hand.message else [])

        consulted = False
        for _ in range(6):
            state = state_of(world)
            if state.phase == "over":
                break
            user = user_at(world, state, state.turn)
            assert user is not None
            if user == ann:
                await slash(world, ann, "ask", witness=bea, about="pink", side="left")
            elif not consulted:
                done = await slash(world, bea, "informant", card="B")
                assert "hand" in done.text
                consulted = True
                hand = await slash(world, bea, "hand")
                assert CARDS[state.informants[1]].name in hand.text
            else:
                moment = cut(world)
                person, location, weapon = state.seats[me].holder
                await slash(world, bea, "accuse", person=person, location=location,
                            weapon=weapon)
        final = state_of(world)
        assert final.phase == "over" and final.winner == me
        assert not dc.dms(bea)
        # the channel said once that DMs failed (not at every DM), and never with a secret
        notices = [m for m in dc.channel_messages(world.channel) if "could not DM" in m.text]
        assert len(notices) == 1
        assert not any(named_cards(m.text) for m in notices)

    assert assert_secrecy(world, final, moment) > 10
