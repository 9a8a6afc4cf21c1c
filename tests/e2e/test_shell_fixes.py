"""Fixes found reading the shell, each through the real client and the stand-in: bounded text
options, `turn_minutes:0` winning over a server default, two quick casebook marks both kept,
and a click that names a table of another channel or server refused."""

from __future__ import annotations

import asyncio
import json

from testkit.drive import Snapshot, cid, living, member_at, slash, state_of, table_row
from testkit.play import open_table, play_begins
from testkit.standin.records import JSON
from testkit.world import World


def string_options(command: JSON) -> list[JSON]:
    found: list[JSON] = []
    for option in command.get("options", []):
        if option.get("type") in (1, 2):  # subcommands and groups
            found += string_options(option)
        elif option.get("type") == 3:
            found.append(option)
    return found


async def test_text_options_are_bounded_and_never_echoed_whole(world: World) -> None:
    dc = world.dc
    ann, bea = world.users[:2]
    async with world.running():
        [group] = [c for c in dc.commands() if c["name"] == "13clues"]
        free = [o for o in string_options(group) if not o.get("choices")]
        assert len(free) >= 7  # pass ×3, ask about, informant card, accuse ×3
        for option in free:
            assert option.get("max_length", 6001) <= 50, option
        [general] = [c for c in dc.commands() if c["name"] == "settings"]
        loose = [o for o in string_options(general) if not o.get("choices")]
        assert {o["name"] for o in loose} == {"option", "value"}  # the games' settings'
        for option in loose:
            assert option.get("max_length", 6001) <= 50, option
        await open_table(world, [ann, bea])
        before = Snapshot.take(world)
        # Discord refuses anything over the bound; the longest allowed is still answered
        # in a short, clear message
        long = "x" * 50
        refused = await slash(world, ann, "pass", person=long, location=long, weapon=long)
        assert "no card called" in refused.text and len(refused.text) < 300, refused.text
        assert Snapshot.take(world) == before


async def test_turn_minutes_zero_wins_over_the_server_default(world: World) -> None:
    dc = world.dc
    ann = world.users[0]
    dc.join_guild(ann, world.guild.id, manage_guild=True)
    async with world.running():
        await dc.slash(ann, world.channel, "settings", turn_minutes=5)
        await slash(world, ann, "new", turn_minutes=0)
        assert json.loads(table_row(world)["options"])["turn_minutes"] == 0
        await slash(world, ann, "end")
        await slash(world, ann, "new")
        assert json.loads(table_row(world)["options"])["turn_minutes"] == 5


async def test_two_quick_casebook_marks_are_both_kept(world: World) -> None:
    dc = world.dc
    ann = world.users[0]
    async with world.running():
        await play_begins(world, 2)
        book = await dc.click(ann, living(world), label="Casebook")
        assert book.message is not None
        person, location = cid(book.message, "mark"), book.message.custom_ids[1]
        people = [o["value"] for o in book.message.options(person)][:2]
        places = [o["value"] for o in book.message.options(location)][:1]
        await asyncio.gather(dc.select(ann, book.message, person, people),
                             dc.select(ann, book.message, location, places))
        await dc.settle()
        again = await dc.slash(ann, world.channel, "13clues", "casebook")
        assert again.message is not None
        for card in (*people, *places):
            name = next(o["label"] for o in again.message.options(
                person if card in people else location) if o["value"] == card)
            assert f"~~{name}~~" in again.text, name


async def test_a_click_is_refused_outside_its_tables_channel_and_server(world: World) -> None:
    dc = world.dc
    ann = world.users[0]
    elsewhere = dc.add_channel(world.guild.id, "elsewhere")
    other = dc.add_guild("Other Guild")
    dc.join_guild(ann, other.id)
    async with world.running():
        await play_begins(world, 2)
        state = state_of(world)
        user = member_at(world, state, state.turn)
        dc.join_guild(user, other.id)
        table_message = living(world)
        before = Snapshot.take(world)
        for channel, refusal in ((elsewhere, "plays in"), (other.channel_id, "another server")):
            # a message elsewhere carrying this table's buttons (a forged or copied message)
            copy = dc._new_message(channel, {"content": "copy",
                                             "components": table_message.components}, [])
            clicked = await dc.click(user, copy, cid(copy, "ask"))
            assert refusal in clicked.text and clicked.ephemeral, clicked.text
        assert Snapshot.take(world) == before
