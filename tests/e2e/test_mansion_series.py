"""A series to its Master Detective: each game revealed in the channel, the dealer passing
left, new hands dealt, `/mansion status`, `log` and `rules` along the way."""

from __future__ import annotations

from testkit.mansion_drive import Driver, mstate, open_mansion, play_script, slash
from testkit.mansion_plan import covered
from testkit.mansion_secrecy import assert_mansion_secrecy
from testkit.world import World

GOALS = ("wrong", "right")


async def test_a_series_to_its_master_detective(world: World) -> None:
    dc = world.dc
    users = world.users[:3]
    async with world.running():
        await open_mansion(world, users, seed=11, series=2, assist="full")
        rules = await slash(world, users[1], "rules")
        assert "Series" in rules.text and "Master Detective" in rules.text
        first = mstate(world)
        final, moment = await play_script(world, Driver(world), goals=GOALS)
        status = await slash(world, users[0], "status")
        log = await slash(world, users[2], "log")
        hand = await slash(world, users[1], "hand")

    assert final.master is not None and final.ended_by == "won"
    assert final.seats[final.master].score == 2 and len(final.rounds) >= 2
    assert [r.dealer for r in final.rounds] == [
        (first.dealer + i) % 3 for i in range(len(final.rounds))
    ]
    for game in final.rounds:
        assert set(GOALS) <= covered(game.log, game.hands) and game.how == "solved"
    text = "\n".join(m.text for m in dc.channel_messages(world.channel))
    for n in range(1, len(final.rounds) + 1):
        assert f"**Game {n} is over**" in text
    assert "Crimes solved so far" in text and "The next game is dealt" in text
    assert f"**{final.seats[final.master].name}** is the **Master Detective**!" in text
    # every member got a new hand by DM for every game
    for user in users:
        dealt = [m for m in dc.dms(user) if "Your Clue cards" in m.text]
        assert len(dealt) == len(final.rounds)
        # each later game's deal is a DM of its own: which game, the score, nothing else
        for n, msg in enumerate(dealt[1:], start=2):
            head = msg.content.splitlines()[1]
            assert head.startswith(f"🔁 **Game {n} of the series** (first to 2 wins) · score: ")
            assert "accusation" not in msg.content and "Game 1 is over" not in msg.content
    assert "Master Detective" in status.text and "first to 2" in status.text
    assert "Game 1: solved by" in log.text
    assert hand.ephemeral and "Every hand" in hand.text  # the finished game, whole
    assert assert_mansion_secrecy(world, final, moment) > 10
