"""Complete 13 Clues games through the real bot and the local Discord stand-in."""

from __future__ import annotations

from engine.thirteen_clues import legal
from engine.thirteen_clues.cards import CARDS, subject_name
from testkit.drive import assert_secrecy, cut
from testkit.play import expected_answer, named_cards, open_table, pass_by_dm, seat_user, true_state
from testkit.standin import User
from testkit.world import World


async def test_three_player_game_from_new_to_correct_accusation(world: World) -> None:
    dc = world.dc
    players = world.users[:3]
    async with world.running():
        await open_table(world, players)
        state = await true_state(world)
        assert state.phase == "passing"
        # the channel shows who has chosen, never what
        for user in players:
            dealt = state.seats[next(i for i, s in enumerate(state.seats)
                                     if s.id == f"u{user.id}")].dealt
            assert named_cards(pass_prompt_text(world, user)) >= set(dealt)
            await pass_by_dm(world, user)
        state = await true_state(world)
        assert state.phase == "turns"

        # every player's case-file DM: own screen and every holder but their own
        for seat, s in enumerate(state.seats):
            user = seat_user(world, state, seat)
            dm = "\n".join(m.text for m in dc.dms(user))
            assert named_cards(dm) >= set(s.screen)
            for other, o in enumerate(state.seats):
                if other != seat:
                    assert named_cards(dm) >= set(o.holder)
            assert not named_cards(dm) & set(s.holder), "a player saw their own holder"

        # the current player asks by slash command; the answer is public and true
        seat = state.turn
        asker = seat_user(world, state, seat)
        witness_seat = (seat + 1) % 3
        witness = seat_user(world, state, witness_seat)
        result = await dc.slash(asker, world.channel, "13clues", "ask", witness=witness,
                                about="purple")
        assert "Asked" in result.text
        await dc.settle()
        answer = expected_answer(state, seat, witness_seat, "purple")
        news = dc.channel_messages(world.channel)[-1]
        assert subject_name("purple") in news.text and f"**{answer}**" in news.text

        # someone else trying to act is refused and changes nothing
        now = await true_state(world)
        idle_seat = (now.turn + 1) % 3
        idle = seat_user(world, now, idle_seat)
        before = now.model_dump()
        refused = await dc.slash(idle, world.channel, "13clues", "ask",
                                 witness=seat_user(world, now, now.turn), about="red")
        assert refused.ephemeral and "turn" in refused.text
        assert (await true_state(world)).model_dump() == before

        # play on until the current player accuses their true holder
        state = await true_state(world)
        seat = state.turn
        user = seat_user(world, state, seat)
        moment = cut(world)  # what every message showed before the winning accusation
        person, location, weapon = state.seats[seat].holder
        result = await dc.slash(user, world.channel, "13clues", "accuse", person=person,
                                location=location, weapon=weapon)
        await dc.settle()
        final = await true_state(world)
        assert final.phase == "over" and final.winner == seat
        channel_text = "\n".join(m.text for m in dc.channel_messages(world.channel))
        assert "right" in channel_text.lower() or "wins" in channel_text.lower()
        # the reveal names every holder
        for s in final.seats:
            assert set(s.holder) <= named_cards(channel_text)

    # secrecy over the whole recorded game (every edit of every message up to the moment)
    assert assert_secrecy(world, final, moment) > 20
    assert sorted(legal.witnesses(final, 0)) == [1, 2]
    assert all(c in CARDS for s in final.seats for c in s.holder)


def pass_prompt_text(world: World, user: User) -> str:
    from testkit.play import pass_prompt

    return pass_prompt(world, user).text
