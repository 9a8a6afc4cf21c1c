"""The end of a game through the real bot (issue 18, 5b): the post that ends it says who won
once (its news; the embed beside it does not repeat it), and a table ended before play began
(13 Clues' pass phase, a One Against All fugitive still choosing) shows in its text what its
picture shows and offers no Rematch."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from engine.thirteen_clues.cards import CARDS
from testkit.drive import state_of, table_row
from testkit.mansion_drive import mstate, open_mansion
from testkit.mansion_drive import slash as mansion_slash
from testkit.play import open_table, pass_by_dm
from testkit.standin import Message
from testkit.world import World
from tests.e2e.endings import solve_mansion, solve_thirteen_clues


def final_post(world: World) -> Message:
    """The table's last channel message: the end (news and reveal)."""
    return world.dc.channel_messages(world.channel)[-1]


def no_rematch(post: Message) -> bool:
    return not any(c.split(":")[1] == "again" for c in post.custom_ids)


async def test_the_thirteen_clues_end_names_the_winner_once(world: World) -> None:
    players = world.users[:2]
    async with world.running():
        await open_table(world, players)
        for user in players:
            await pass_by_dm(world, user)
        winner, _ = await solve_thirteen_clues(world)
        await world.dc.settle()
        end = final_post(world)
        assert end.text.count("wins") == 1 and winner.name in end.content, end.text
        assert not no_rematch(end)  # a game played to its end offers Rematch
        status = await world.dc.slash(winner, world.channel, "13clues", "status")
        assert status.text.count("wins") == 1, status.text  # no news beside it: said there


async def test_the_mansion_end_names_the_winner_once(world: World) -> None:
    players = world.users[:3]
    async with world.running():
        await open_mansion(world, players, seed=3)
        solver = await solve_mansion(world, players)
        await world.dc.settle()
        end = final_post(world)
        assert end.text.count("wins") == 1 and solver.name in end.content, end.text
        status = await mansion_slash(world, solver, "status")
        assert status.text.count("wins") == 1, status.text


async def test_a_thirteen_clues_table_ended_in_the_pass_phase(world: World) -> None:
    """Its text shows the dealt cards its picture draws, says play never began, and no
    Rematch is offered, on the table or by the refusal of a later command."""
    dc = world.dc
    players = world.users[:3]
    async with world.running():
        await open_table(world, players)
        await pass_by_dm(world, players[1])  # one pass made, the others not
        dealt = [s.dealt for s in state_of(world).seats]
        ended = await dc.slash(players[0], world.channel, "13clues", "end")
        assert "closed" in ended.text, ended.text
        await dc.settle()
        assert state_of(world).phase == "over"
        end = final_post(world)
        assert "play never began" in end.content and "dealt" in end.content, end.content
        fields = [f["value"] for e in end.embeds for f in e.get("fields", [])]
        for cards in dealt:  # every seat's dealt five, in the text as in the picture
            assert any(v.startswith("Dealt:") and all(CARDS[c].name in v for c in cards)
                       for v in fields), fields
        assert not any("Mystery:" in v for v in fields)
        assert end.attachments, "the reveal picture goes with the end"
        assert no_rematch(end), end.custom_ids
        footer = " ".join(e.get("footer", {}).get("text", "") for e in end.embeds)
        assert "Rematch" not in end.text + footer
        later = await dc.slash(players[1], world.channel, "13clues", "accuse",
                               person="maid", location="park", weapon="knife")
        assert "is over" in later.text and "Rematch" not in later.text, later.text
        hand = await dc.slash(players[2], world.channel, "13clues", "hand")
        assert "play never began" in hand.text and "❓" not in hand.text, hand.text
        seat = next(i for i, s in enumerate(state_of(world).seats)
                    if s.id == f"u{players[2].id}")
        assert all(CARDS[c].name in hand.text for c in dealt[seat]), hand.text
        assert world.bot is not None  # a Rematch click from an older message is refused too
        with pytest.raises(UserError, match="ended before play began"):
            await world.bot.tables.rematch(table_row(world)["id"], players[0].id)


async def test_a_one_against_all_table_ended_before_the_solution_was_chosen(
    world: World,
) -> None:
    players = world.users[:3]
    async with world.running():
        await open_mansion(world, players, variant="one-against-all")
        assert mstate(world).phase == "choosing_solution"
        await mansion_slash(world, players[0], "end")
        await world.dc.settle()
        assert mstate(world).phase == "over"
        end = final_post(world)
        assert "No cards were dealt" in end.content and "The hands" not in end.text, end.text
        assert end.text.count("nobody won") == 1, end.text
        assert no_rematch(end), end.custom_ids
        later = await mansion_slash(world, players[1], "turn")
        assert "is over" in later.text and "Rematch" not in later.text, later.text
