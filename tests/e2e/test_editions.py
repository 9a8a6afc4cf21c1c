"""The two rule sets: a Category question is a 2016 question only."""

from __future__ import annotations

from engine.thirteen_clues import answer_for
from testkit.drive import Snapshot, news, seat_of, slash, state_of, user_at
from testkit.play import open_table, pass_by_dm
from testkit.world import World


async def _play_ready(world: World, **options: object) -> None:
    players = world.users[:3]
    await open_table(world, players, **options)
    for user in players:
        await pass_by_dm(world, user)
    assert state_of(world).phase == "turns"


async def test_2016_category_question_is_answered(world: World) -> None:
    async with world.running():
        await _play_ready(world, edition="2016")
        state = state_of(world)
        assert state.options.edition == "2016" and state.supply == 10 - 3
        asker = user_at(world, state, state.turn)
        witness_seat = (state.turn + 2) % 3
        witness = user_at(world, state, witness_seat)
        assert asker is not None and witness is not None
        # autocomplete offers the categories under 2016 rules
        choices = await world.dc.autocomplete(asker, world.channel, "13clues", "ask",
                                              focused="about", about="pers")
        assert "person" in [c["value"] for c in choices]

        result = await slash(world, asker, "ask", witness=witness, about="person")
        assert result.ephemeral and "Asked" in result.text, result.text
        expected = answer_for(state, state.turn, witness_seat, "person", None)
        after = state_of(world)
        assert after.questions[-1].subject == "person"
        assert after.questions[-1].answer == expected
        assert f"**{expected}**" in news(world)
        assert after.seats[witness_seat].glasses == state.seats[witness_seat].glasses + 1


async def test_2020_refuses_a_category_question_and_changes_nothing(world: World) -> None:
    async with world.running():
        await _play_ready(world)
        state = state_of(world)
        asker = user_at(world, state, state.turn)
        witness = user_at(world, state, (state.turn + 1) % 3)
        assert asker is not None and witness is not None
        choices = await world.dc.autocomplete(asker, world.channel, "13clues", "ask",
                                              focused="about", about="pers")
        assert "person" not in [c["value"] for c in choices]
        channel_before = len(world.dc.channel_messages(world.channel))
        before = Snapshot.take(world)

        for about in ("person", "Persons", "weapon"):
            refused = await slash(world, asker, "ask", witness=witness, about=about)
            assert refused.ephemeral, refused.text
            assert "2020 rules" in refused.text and "category" in refused.text, refused.text
        assert Snapshot.take(world) == before
        assert len(world.dc.channel_messages(world.channel)) == channel_before
        assert seat_of(state_of(world), asker) == state.turn
