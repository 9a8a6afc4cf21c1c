"""The toy game plugs into the registry and plays a whole game through the stand-in: lobby,
DMs, buttons, persistence and a restart, with no change to bot/ or cogs/."""

from __future__ import annotations

from bot.registry import GAMES
from tests.e2e.conftest import World
from tests.e2e.drive import table_row
from tests.standin import Message
from tests.toy.game import GAME


def table_message(world: World) -> Message:
    return next(m for m in reversed(world.dc.channel_messages(world.channel))
                if any(c.startswith("toy:") for c in m.custom_ids))


async def test_a_second_game_plays_on_the_unchanged_shell(world: World) -> None:
    dc = world.dc
    ann, bea = world.users[:2]
    games = (*GAMES, GAME)  # the registry line a real game would add
    async with world.running(games=games):
        opened = await dc.slash(ann, world.channel, "toy", "new")
        assert "Table open" in opened.text, opened.text
        lobby = dc.last_message(world.channel)
        joined = await dc.click(bea, lobby, label="Join")
        assert "You have a seat" in joined.text, joined.text
        await dc.settle()
        started = await dc.click(ann, table_message(world), label="Start")
        assert "Dealt" in started.text, started.text
        await dc.settle()
        numbers = {u.name: int(dc.last_dm(u).text.split(": ")[1]) for u in (ann, bea)}
        table = table_message(world)
        first = ann if table.text.startswith("Ann") else bea
        other = bea if first is ann else ann
        refused = await dc.click(other, table, label="Reveal")
        assert "not your turn" in refused.text and refused.ephemeral
        done = await dc.click(first, table, label="Reveal")
        assert "Revealed" in done.text
        await dc.settle()

    async with world.running(games=games):  # a restart: the buttons posted before still work
        secrets = await dc.click(other, table_message(world), label="My secrets")
        assert f"Your number: {numbers[other.name]}" in secrets.text and secrets.ephemeral
        done = await dc.click(other, table_message(world), label="Reveal")
        assert "Revealed" in done.text
        await dc.settle()
        assert "High Card over" in dc.last_message(world.channel).text
        assert table_row(world)["status"] == "over"
        stats = await dc.slash(max((ann, bea), key=lambda u: numbers[u.name]), world.channel,
                               "stats")
        assert "1 won of 1 played" in stats.text, stats.text
