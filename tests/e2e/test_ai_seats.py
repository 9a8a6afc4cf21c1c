"""AI detectives at the table: seated with `add-ai`, they pass, take their turns and finish
the game on their own while the human host plays by buttons and commands."""

from __future__ import annotations

import asyncio
import time

import pytest

from engine.thirteen_clues import GameState, legal
from engine.thirteen_clues.cards import suits_in_play
from testkit.drive import (
    Cut,
    ask_by_picker,
    assert_secrecy,
    cut,
    query,
    seat_of,
    slash,
    state_of,
    table_row,
    take_by_picker,
)
from testkit.play import pass_by_dm
from testkit.standin.records import JSON
from testkit.world import World

GAME_LIMIT = 20.0


async def _human_turn(world: World, state: GameState, seat: int, count: int) -> None:
    """Ask an AI witness by the picker (the slash command cannot name an AI seat), now and
    then consult the informant by command; take a glass first when the supply is empty."""
    ann = world.users[0]
    if legal.must_take(state):
        source = max((i for i in range(len(state.seats)) if i != seat),
                     key=lambda i: state.seats[i].glasses)
        await take_by_picker(world, ann, source)
        return
    if count % 3 == 2:
        done = await slash(world, ann, "informant", card="A")
        assert "Informant **A** is" in done.text, done.text  # the card, not "see your DMs"
        return
    suits = [s.value for s in suits_in_play(len(state.seats))]
    witness = (seat + 1 + count) % len(state.seats)
    if witness == seat:
        witness = (witness + 1) % len(state.seats)
    await ask_by_picker(world, ann, witness, suits[count % len(suits)])


async def _play_out(world: World) -> tuple[GameState, Cut]:
    """Play the human's turns until the table is over; return the end and the last moment
    known to precede it (taken before a read that still saw the game in play)."""
    ann = world.users[0]
    moment = cut(world)
    count = 0
    end = time.monotonic() + GAME_LIMIT
    while time.monotonic() < end:
        candidate = cut(world)
        state = state_of(world)
        if state.phase == "over":
            return state, moment
        moment = candidate
        me = seat_of(state, ann)
        waiting = state.phase == "passing" and state.seats[me].passed is None
        if waiting or (state.phase == "turns" and state.turn == me):
            await world.dc.settle()  # act on what the member sees: the news is delivered
        if state.phase == "passing" and state.seats[me].passed is None:
            await pass_by_dm(world, ann)
        elif state.phase == "turns" and state.turn == me:
            await _human_turn(world, state, me, count)
            count += 1
        else:
            await asyncio.sleep(0.02)
    raise AssertionError(f"the game did not end within {GAME_LIMIT}s: {state_of(world)}")


@pytest.mark.parametrize(
    ("seating", "workers"),
    [([(2, "expert")], 1), ([(1, "normal"), (1, "easy")], 0)],
    ids=["two-experts-thinking-apart", "normal-and-easy"],
)
async def test_ai_detectives_finish_a_game(world: World, seating: list[tuple[int, str]],
                                           workers: int) -> None:
    """`workers`: the AI detectives think in a process pool (as the bot runs by default) or
    in the bot's own process."""
    dc = world.dc
    ann = world.users[0]
    async with world.running(ai_workers=workers):
        await slash(world, ann, "new")
        for count, level in seating:
            seated = await slash(world, ann, "add-ai", count=count, level=level)
            assert f"Seated {count} {level}" in seated.text, seated.text
        seats = table_row(world)["seats"]
        levels = sorted(lv for n, lv in seating for _ in range(n))
        assert sorted(s["ai_level"] for s in _seats(seats) if s["ai_level"]) == levels
        started = await slash(world, ann, "start")
        assert "Cards dealt" in started.text, started.text
        names = [s["name"] for s in _seats(table_row(world)["seats"])]
        assert len(set(names)) == len(names), names

        final, moment = await _play_out(world)
        await dc.settle()
        assert final.winner is not None and final.ended_by == "solved"
        assert not final.seats[final.winner].id.startswith("u"), "the human never accuses"
        actors = {r["actor"] for r in query(world, "SELECT actor FROM actions")}
        assert {f"ai:{i}" for i, s in enumerate(final.seats) if s.id.startswith("ai:")} <= actors
        assert not query(world, "SELECT * FROM timers")  # nothing left to fire
        winner = final.seats[final.winner].name
        assert winner in dc.last_message(world.channel).text
        assert final.questions and any(q.asker == seat_of(final, ann) for q in final.questions)

    assert assert_secrecy(world, final, moment) > 10


def _seats(raw: str) -> list[JSON]:
    import json

    seats: list[JSON] = json.loads(raw)
    return seats
