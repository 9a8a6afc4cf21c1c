"""A complete two-player game: sided questions, the informant by button, a wrong and a right
accusation, one action per turn, and the secrecy of the whole record."""

from __future__ import annotations

import pytest

from engine.thirteen_clues import answer_for
from engine.thirteen_clues.cards import CARDS
from testkit.drive import (
    accuse_by_picker,
    assert_secrecy,
    cid,
    cut,
    living,
    member_at,
    news,
    slash,
    state_of,
    user_at,
    wrong_accusation,
)
from testkit.play import named_cards, play_begins
from testkit.world import World


async def test_two_player_game_to_a_correct_accusation(world: World) -> None:
    dc = world.dc
    async with world.running():
        await play_begins(world, 2)
        state = state_of(world)
        assert state.phase == "turns" and state.turn_number == 1
        assert state.supply == 0 and all(s.glasses == 0 for s in state.seats)

        # turns 1 and 2: sided questions by slash command, answered truly in public
        for side, subject in (("left", "purple"), ("right", "female")):
            state = state_of(world)
            asker, witness = state.turn, 1 - state.turn
            result = await slash(world, member_at(world, state, asker), "ask",
                                 witness=member_at(world, state, witness), about=subject,
                                 side=side)
            assert result.ephemeral and "Asked" in result.text, result.text
            expected = answer_for(state, asker, witness, subject, side)
            after = state_of(world)
            question = after.questions[-1]
            assert (question.asker, question.witness, question.subject, question.side) == (
                asker, witness, subject, side)
            assert question.answer == expected
            assert f"**{expected}**" in news(world) and side in news(world)
            # one action per turn: the turn has passed to the other player
            assert (after.turn, after.turn_number) == (witness, state.turn_number + 1)

        # turn 3: the Informant button, then the letter
        state = state_of(world)
        me, user = state.turn, member_at(world, state, state.turn)
        table_msg = living(world)
        dms_before = len(dc.dms(user))
        opened = await dc.click(user, table_msg, cid(table_msg, "inf"))
        assert opened.ephemeral and opened.message is not None
        letters = [o["value"] for o in opened.message.options(cid(opened.message, "infgo"))]
        assert letters == list("ABCDEFGH")
        done = await dc.select(user, opened.message, cid(opened.message, "infgo"), ["C"])
        await dc.settle()
        assert "informant C" in done.text
        card = state.informants[2]
        new_dms = dc.dms(user)[dms_before:]
        assert any(CARDS[card].name in m.text for m in new_dms), [m.text for m in new_dms]
        assert "**C**" in news(world) and not named_cards(news(world))
        after = state_of(world)
        assert after.seats[me].peeks == {"C": card}
        assert (after.turn, after.turn_number) == (1 - me, state.turn_number + 1)
        # the other player learns the letter only
        other = user_at(world, after, 1 - me)
        assert other is not None
        assert not any(CARDS[card].name in m.text for m in dc.dms(other))

        # turn 4: a wrong accusation ends the turn
        state = state_of(world)
        me, user = state.turn, member_at(world, state, state.turn)
        wrong = wrong_accusation(state, me)
        result = await slash(world, user, "accuse", person=wrong[0], location=wrong[1],
                             weapon=wrong[2])
        assert "Accusation made" in result.text
        assert "wrong" in news(world).lower() and not named_cards(news(world))
        after = state_of(world)
        assert after.phase == "turns" and after.accusations[-1].correct is False
        assert (after.turn, after.turn_number) == (1 - me, state.turn_number + 1)

        # turn 5: the right accusation by the Accuse picker wins
        state = state_of(world)
        me, user = state.turn, member_at(world, state, state.turn)
        moment = cut(world)
        await accuse_by_picker(world, user, list(state.seats[me].holder))
        final = state_of(world)
        assert final.phase == "over" and final.winner == me
        assert len(final.questions) == 2 and len(final.accusations) == 2
        reveal = "\n".join(m.text for m in dc.channel_messages(world.channel)[-2:])
        assert all(set(s.holder) <= named_cards(reveal) for s in final.seats)
        # the game's buttons are gone; only the Rematch is offered
        assert [c.split(":")[1] for c in living_ids(world)] == ["again"]

    assert assert_secrecy(world, final, moment) > 20
    # the scan is not blind: past the reveal it does find card names in the channel
    with pytest.raises(AssertionError, match="card names in the channel"):
        assert_secrecy(world, final, cut(world))


def living_ids(world: World) -> list[str]:
    """custom_ids on the last channel message (none once the game is over)."""
    return world.dc.last_message(world.channel).custom_ids
