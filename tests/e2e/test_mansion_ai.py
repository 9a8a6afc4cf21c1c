"""AI players at a Mansion table: a mixed table (two members and two AIs) and an all-AI
game (the host leaves the server and an AI takes the seat) finish through the bot."""

from __future__ import annotations

from testkit.drive import query, wait_until
from testkit.mansion_drive import Driver, mstate, open_mansion, play_members, slash
from testkit.mansion_secrecy import assert_mansion_secrecy
from testkit.world import World

LIMIT = 240.0
"""A guard against a game that never ends, not a speed check."""
SEED = 1
"""A deal whose games end quickly (the AI moves are seeded by the table too)."""


async def test_a_mixed_table_finishes(world: World) -> None:
    ann, bea = world.users[:2]
    async with world.running():
        assert world.bot is not None
        world.bot.tables.seed = lambda: SEED
        await slash(world, ann, "new", assist="full")
        await slash(world, bea, "join")
        for level in ("easy", "expert"):
            seated = await slash(world, ann, "add-ai", count=1, level=level)
            assert f"Seated 1 {level}" in seated.text, seated.text
        started = await slash(world, ann, "start")
        assert "The game starts" in started.text
        final, moment = await play_members(world, Driver(world), LIMIT)
        await world.dc.settle()
    assert final.master is None or final.seats[final.master].id.startswith("ai:")
    actors = {r["actor"] for r in query(world, "SELECT actor FROM actions")}
    ai_seats = {f"ai:{i}" for i, s in enumerate(final.seats) if s.id.startswith("ai:")}
    assert ai_seats & actors and f"u{ann.id}" in actors and f"u{bea.id}" in actors
    assert not query(world, "SELECT * FROM timers")
    assert assert_mansion_secrecy(world, final, moment) > 10


async def test_an_all_ai_game_finishes(world: World) -> None:
    dc = world.dc
    ann = world.users[0]
    async with world.running(member_events=True):
        await open_mansion(world, [ann], ai=(2, "expert"), seed=SEED)
        dc.remove_member(world.guild.id, ann)  # the host's seat goes to an AI for good
        await wait_until(lambda: mstate(world).phase == "over", LIMIT, "the AIs to finish")
        await dc.settle()
    final = mstate(world)
    assert final.phase == "over"
    text = "\n".join(m.text for m in dc.channel_messages(world.channel))
    assert "Ann left the server: an AI (normal) plays their seat from now on." in text
    assert "wins!" in text or "nobody won" in text
    mine = query(world, "SELECT action FROM actions WHERE actor = ?", (f"u{ann.id}",))
    assert [r["action"] for r in mine] == ["start"]  # every move was an AI's
    seat = next(i for i, s in enumerate(final.seats) if s.id == f"u{ann.id}")
    assert query(world, "SELECT * FROM actions WHERE actor = ?", (f"ai:{seat}",))
