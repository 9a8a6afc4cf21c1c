"""The Top Secret variant: the table learns who asked whom, only the pair learns the rest."""

from __future__ import annotations

from engine.thirteen_clues import answer_for
from engine.thirteen_clues.cards import subject_name
from testkit import drive
from testkit.play import named_cards, open_table, pass_by_dm
from testkit.world import World


async def test_top_secret_question_reaches_only_asker_and_witness(world: World) -> None:
    dc = world.dc
    players = world.users[:3]
    async with world.running():
        await open_table(world, players, top_secret=True)
        for user in players:
            await pass_by_dm(world, user)
        state = drive.state_of(world)
        assert state.options.top_secret
        me = state.turn
        witness_seat, third_seat = (me + 1) % 3, (me + 2) % 3
        seats = (me, witness_seat, third_seat)
        asker, witness, third = (drive.user_at(world, state, s) for s in seats)
        assert asker is not None and witness is not None and third is not None
        subject = "female"
        expected = answer_for(state, me, witness_seat, subject, None)
        dms_before = {u.id: len(dc.dms(u)) for u in players}
        channel_before = len(dc.channel_messages(world.channel))

        result = await drive.slash(world, asker, "ask", witness=witness, about=subject,
                                   top_secret=True)
        assert result.ephemeral and "Asked" in result.text, result.text

        # the channel: that a secret question was asked, and of whom; no subject, no answer
        said = "\n".join(m.text for m in dc.channel_messages(world.channel)[channel_before:])
        assert "Top Secret" in said and witness.name in said and asker.name in said
        assert subject_name(subject) not in said and subject not in said.lower()
        assert f"**{expected}**" not in said and not named_cards(said)
        # the pair: the question and the answer, by DM
        for user in (asker, witness):
            new = "\n".join(m.text for m in dc.dms(user)[dms_before[user.id]:])
            assert subject_name(subject) in new and f"**{expected}**" in new, (user.name, new)
        # the third player: nothing at all
        assert len(dc.dms(third)) == dms_before[third.id]
        log = await drive.slash(world, third, "log")
        assert subject_name(subject) not in log.text and f"**{expected}**" not in log.text
        hand = await drive.slash(world, third, "hand")
        assert subject_name(subject) not in hand.text
        # the asker's and witness's hand list it
        for user in (asker, witness):
            hand = await drive.slash(world, user, "hand")
            assert subject_name(subject) in hand.text and f"**{expected}**" in hand.text
        after = drive.state_of(world)
        assert after.questions[-1].top_secret and after.seats[me].top_secret_used
        assert after.seats[witness_seat].glasses == 2

        # play around the table back to the asker: the others ask publicly
        while (now := drive.state_of(world)).turn != me:
            current = drive.user_at(world, now, now.turn)
            target = drive.user_at(world, now, (now.turn + 1) % 3)
            assert current is not None and target is not None
            done = await drive.slash(world, current, "ask", witness=target, about="red")
            assert "Asked" in done.text, done.text
        now = drive.state_of(world)
        assert now.seats[me].glasses >= 1

        # a second Top Secret question is refused, by command and by picker
        before = drive.Snapshot.take(world)
        refused = await drive.slash(world, asker, "ask", witness=witness, about="male",
                                    top_secret=True)
        assert refused.ephemeral and "already used your Top Secret token" in refused.text
        assert drive.Snapshot.take(world) == before
        opened = await dc.click(asker, drive.living(world), drive.cid(drive.living(world), "ask"))
        assert opened.message is not None
        assert not any(c.split(":")[1] == "askt" for c in opened.message.custom_ids)
        # an ordinary question is still fine, and it is public
        moment = drive.cut(world)
        await drive.ask_by_picker(world, asker, witness_seat, "male")
        assert f"**{answer_for(now, me, witness_seat, 'male', None)}**" in drive.news(world)

        host = players[0]
        dms_at_end = len(dc.dms(third))
        await drive.slash(world, host, "end")
        final = drive.state_of(world)
        assert final.phase == "over"
        # at the end everyone, the third player included, is told the secret question: by
        # the one reveal in the channel (no reveal DMs any more; the DM at the end is the
        # player's own review)
        reveal = dc.last_message(world.channel).text
        assert "Top Secret" in reveal and subject_name(subject) in reveal
        assert f"**{expected}**" in reveal
        assert all("Your review" in m.text for m in dc.dms(third)[dms_at_end:])

    assert drive.assert_secrecy(world, final, moment) > 20
