"""Simultaneous clicks and commands: the table service applies each action once, in order."""

from __future__ import annotations

import asyncio

from testkit.drive import (
    action_count,
    action_versions,
    cid,
    living,
    seat_of,
    state_of,
    table_row,
    user_at,
    wrong_accusation,
)
from testkit.play import first_of_each, open_table, pass_by_dm, pass_prompt
from testkit.standin import InteractionResult, User
from testkit.world import World


async def _three_player_turns(world: World) -> None:
    players = world.users[:3]
    await open_table(world, players)
    for user in players:
        await pass_by_dm(world, user)
    assert state_of(world).phase == "turns"


def _replies(results: list[InteractionResult]) -> list[str]:
    """What each user read in answer: their own ephemeral followup(s) or original."""
    out = []
    for r in results:
        assert r.ephemeral, r
        out.append("\n".join(m.text for m in r.messages if m.text))
    return out


async def test_double_click_on_the_ask_button_asks_once(world: World) -> None:
    dc = world.dc
    async with world.running():
        await _three_player_turns(world)
        state = state_of(world)
        me, user = state.turn, user_at(world, state, state.turn)
        assert user is not None and state.seats[me].glasses == 1
        opened = await dc.click(user, living(world), cid(living(world), "ask"))
        picker = opened.message
        assert picker is not None
        await dc.select(user, picker, cid(picker, "askw"), [str((me + 1) % 3)])
        await dc.select(user, picker, cid(picker, "asks"), ["yellow"])
        go = cid(picker, "askgo")
        before = action_count(world)

        first, second = await asyncio.gather(dc.click(user, picker, go),
                                             dc.click(user, picker, go))
        await dc.settle()
        assert action_count(world) == before + 1
        assert len(state_of(world).questions) == 1
        # the picker went away with the one success; the second click got its own refusal
        texts = [m.text for r in (first, second) for m in r.followups]
        assert dc.message(picker.id).deleted
        assert len(texts) == 1 and "out of date" in texts[0], texts


async def test_two_simultaneous_accusations_apply_once(world: World) -> None:
    async with world.running():
        await _three_player_turns(world)
        state = state_of(world)
        me, user = state.turn, user_at(world, state, state.turn)
        assert user is not None and state.seats[me].glasses == 1
        wrong = wrong_accusation(state, me)
        before = action_count(world)
        results = await asyncio.gather(*(
            world.dc.slash(user, world.channel, "13clues", "accuse", person=wrong[0],
                           location=wrong[1], weapon=wrong[2])
            for _ in range(2)
        ))
        await world.dc.settle()
        assert action_count(world) == before + 1
        assert len(state_of(world).accusations) == 1
        replies = sorted(_replies(list(results)))
        assert "Accusation made" in replies[0], replies
        assert "turn, not yours" in replies[1], replies


async def test_two_simultaneous_questions_apply_once(world: World) -> None:
    async with world.running():
        await _three_player_turns(world)
        state = state_of(world)
        me, user = state.turn, user_at(world, state, state.turn)
        witness = user_at(world, state, (me + 2) % 3)
        assert user is not None and witness is not None
        results = await asyncio.gather(*(
            world.dc.slash(user, world.channel, "13clues", "ask", witness=witness, about=about)
            for about in ("blue", "ranged")
        ))
        await world.dc.settle()
        replies = _replies(list(results))
        assert sum("Asked" in r for r in replies) == 1, replies
        assert sum("turn, not yours" in r for r in replies) == 1, replies
        after = state_of(world)
        assert len(after.questions) == 1 and after.turn == (me + 1) % 3


async def test_a_storm_of_commands_keeps_versions_consistent(world: World) -> None:
    """Six players pass at once amid lookers-on and refused commands; then everyone at the
    table fires questions at once. Every applied action has its own version, with no gap."""
    dc = world.dc
    extra = [dc.add_user(name, guild_id=world.guild.id) for name in ("Eve", "Fay", "Gus")]
    players: list[User] = [*world.users, *extra[:2]]
    outsider = extra[2]
    async with world.running():
        await open_table(world, players)
        row = table_row(world)
        table_id, start_version = row["id"], row["version"]

        async def pass_select(user: User) -> InteractionResult:
            prompt = pass_prompt(world, user)
            select = cid(prompt, "pass")
            dealt = [o["value"] for o in prompt.options(select)]
            return await dc.select(user, prompt, select, first_of_each(dealt))

        storm = [pass_select(u) for u in players]
        storm += [dc.slash(u, world.channel, "13clues", verb)
                  for u in players for verb in ("status", "hand")]
        storm += [dc.slash(outsider, world.channel, "13clues", "join"),
                  dc.slash(outsider, world.channel, "13clues", "hand"),
                  dc.slash(players[1], world.channel, "13clues", "start"),
                  dc.slash(players[0], world.channel, "13clues", "new")]
        assert len(storm) >= 20
        results = await asyncio.gather(*storm)
        await dc.settle()
        assert all(r.completed for r in results)
        state = state_of(world)
        assert state.phase == "turns", [r.text for r in results[:6]]
        assert action_versions(world, table_id) == list(
            range(start_version - 0, start_version + 7)
        )
        assert table_row(world)["version"] == start_version + 6
        refusals = [r.text for r in results[-4:]]
        assert "already started" in refusals[0]
        assert "not seated" in refusals[1]
        assert "already started" in refusals[2] or "Only the host" in refusals[2]
        assert "already open" in refusals[3]

        # everyone asks at once, twice over: only the current player's questions count
        version = table_row(world)["version"]
        asks = []
        for user in players:
            seat = seat_of(state, user)
            witness = user_at(world, state, (seat + 1) % 6)
            assert witness is not None
            for about in ("red", "indoor", "male", "blue"):
                asks.append(dc.slash(user, world.channel, "13clues", "ask", witness=witness,
                                     about=about))
        results = await asyncio.gather(*asks)
        await dc.settle()
        applied = sum("Asked" in r.text for r in results)
        refused = sum("turn, not yours" in r.text or "supply is empty" in r.text
                      for r in results)
        assert applied >= 1 and applied + refused == len(results), [r.text for r in results]
        after = table_row(world)
        assert after["version"] == version + applied
        versions = action_versions(world, table_id)
        assert versions == list(range(start_version, after["version"] + 1))
        assert len(state_of(world).questions) == applied
