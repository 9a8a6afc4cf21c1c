"""`/help`, `/settings`, `/stats` and `/leaderboard` through the real bot."""

from __future__ import annotations

import pytest

from testkit.drive import query, state_of
from testkit.mansion_drive import mstate, open_mansion
from testkit.mansion_drive import slash as mansion_slash
from testkit.play import play_begins, seat_user
from testkit.standin import StandInError
from testkit.world import World


async def test_server_defaults_apply_to_new_tables_and_only_managers_set_them(
    world: World,
) -> None:
    dc = world.dc
    ann = world.users[0]
    manager = dc.add_user("Mod", guild_id=world.guild.id, manage_guild=True)
    async with world.running():
        help_text = await dc.slash(ann, world.channel, "help")
        assert help_text.ephemeral and "/13clues new" in help_text.text
        assert "Mystery Beyond the Mansion" in help_text.text and "/mansion new" in help_text.text
        assert "/mansion hand" in help_text.text and "/mansion turn" in help_text.text
        with pytest.raises(StandInError, match="cannot see /settings"):
            await dc.slash(ann, world.channel, "settings", option="13clues.edition",
                           value="2016")  # hidden from her
        done = await dc.slash(manager, world.channel, "settings", option="13clues.edition",
                              value="2016", assist="full")
        assert "**2016**" in done.text and "**full**" in done.text
        await dc.slash(ann, world.channel, "13clues", "new")
        lobby = dc.channel_messages(world.channel)[-1]
        assert "2016" in lobby.text
        overridden = await dc.slash(ann, world.channel, "13clues", "end")
        assert "closed" in overridden.text
        await dc.slash(ann, world.channel, "13clues", "new", edition="2020")
        assert "2020" in dc.channel_messages(world.channel)[-1].text


async def test_finished_games_count_in_stats_and_leaderboard(world: World) -> None:
    dc = world.dc
    players = world.users[:2]
    async with world.running():
        empty = await dc.slash(players[0], world.channel, "leaderboard")
        assert "No finished games" in empty.text
        await play_begins(world, len(players))
        state = state_of(world)
        winner = seat_user(world, state, state.turn)
        p, loc, w = state.seats[state.turn].holder
        await dc.slash(winner, world.channel, "13clues", "accuse", person=p, location=loc,
                       weapon=w)
        await dc.settle()
        stats = await dc.slash(winner, world.channel, "stats")
        assert "1 won of 1 played" in stats.text
        loser = next(u for u in players if u.id != winner.id)
        other = await dc.slash(winner, world.channel, "stats", player=loser)
        assert "0 won of 1 played" in other.text
        board = await dc.slash(players[0], world.channel, "leaderboard")
        lines = board.text.splitlines()
        assert f"<@{winner.id}> — 1 win in 1 game (100%)" in lines[1]

        # a Mansion game at the same table's channel counts too: per game and overall
        third = world.users[2]
        await dc.slash(players[0], world.channel, "13clues", "end")
        await open_mansion(world, [winner, loser, third], seed=3)
        mansion = mstate(world)
        assert mansion.solution is not None
        solver = next(u for u in (winner, loser, third)
                      if f"u{u.id}" == mansion.seats[mansion.turn].id)
        s, v, d = mansion.solution.cards()
        await mansion_slash(world, solver, "accuse", suspect=s, vehicle=v, destination=d)
        assert mstate(world).phase == "over"
        stats = await dc.slash(winner, world.channel, "stats")
        mansion_won = int(solver == winner)
        assert "**13 Clues**: 1 won of 1 played" in stats.text, stats.text
        assert (f"**Clue: Mystery Beyond the Mansion**: {mansion_won} won of 1 played"
                in stats.text), stats.text
        assert f"**Overall**: {1 + mansion_won} won of 2 played" in stats.text
        board = await dc.slash(players[0], world.channel, "leaderboard")
        wins = 1 + (solver == winner)
        assert f"<@{solver.id}> — {wins} win{'s' if wins > 1 else ''} in" in board.text, board.text
        assert f"<@{third.id}>" in board.text


async def test_after_the_game_hand_status_and_log_show_the_finished_game(world: World) -> None:
    dc = world.dc
    async with world.running():
        await play_begins(world, 2)
        state = state_of(world)
        loser = seat_user(world, state, (state.turn + 1) % 2)
        winner = seat_user(world, state, state.turn)
        p, loc, w = state.seats[state.turn].holder
        await dc.slash(winner, world.channel, "13clues", "accuse", person=p, location=loc,
                       weapon=w)
        await dc.settle()
        final = state_of(world)
        hand = await dc.slash(loser, world.channel, "13clues", "hand")
        assert final.winner is not None
        own = final.seats[(final.winner + 1) % 2].holder  # the loser's mystery, now revealed
        assert hand.ephemeral and all(c.capitalize() in hand.text for c in own)
        status = await dc.slash(loser, world.channel, "13clues", "status")
        assert "wins" in status.text
        log = await dc.slash(loser, world.channel, "13clues", "log")
        assert "Case log" in log.text
        refused = await dc.slash(loser, world.channel, "13clues", "ask", witness=winner,
                                 about="red")
        assert "The 13 Clues game in this channel is over" in refused.text
        assert "Rematch" in refused.text


async def test_settings_offers_each_games_own_options_and_refuses_bad_ones(world: World) -> None:
    """`/settings` names no game: its choices are read from every game's settings model, and
    a value the option does not take is refused with the ones it does, nothing stored."""
    dc = world.dc
    manager = dc.add_user("Mod", guild_id=world.guild.id, manage_guild=True)
    async with world.running():
        offered = await dc.autocomplete(manager, world.channel, "settings", focused="option")
        assert [(c["name"], c["value"]) for c in offered] == [
            ("13 Clues: edition", "13clues.edition"),
            ("13 Clues: top secret", "13clues.top_secret"),
            ("Clue: Mystery Beyond the Mansion: variant", "mansion.variant"),
            ("Clue: Mystery Beyond the Mansion: series", "mansion.series"),
        ]
        typed = await dc.autocomplete(manager, world.channel, "settings", focused="option",
                                      option="ser")
        assert [c["value"] for c in typed] == ["mansion.series"]
        values = await dc.autocomplete(manager, world.channel, "settings", focused="value",
                                       options={"option": "mansion.series"})
        assert [c["value"] for c in values] == ["1", "2", "3"]
        refused = await dc.slash(manager, world.channel, "settings", option="mansion.series",
                                 value="7")
        assert refused.ephemeral and refused.text == (
            "**Clue: Mystery Beyond the Mansion: series** takes one of: `1`, `2`, `3`.")
        lost = await dc.slash(manager, world.channel, "settings", value="2")
        assert "Pick `option` from its list" in lost.text
        assert query(world, "SELECT * FROM guild_settings") == []
        done = await dc.slash(manager, world.channel, "settings", option="mansion.series",
                              value="2")
        assert "series **2**" in done.text and "edition **2020**" in done.text
