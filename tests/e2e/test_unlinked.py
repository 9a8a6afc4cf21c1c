"""What a played turn leaves to CPython's collector (`bot.collector`): nothing of discord.py's.
The cycles it builds around an interaction (its response, a clicked message's view, a rendered
view) are cut once they are done with, so reference counting frees them; at 200 busy tables
they had made each full collection pause the event loop 72–235 ms."""

from __future__ import annotations

import contextlib
import gc
from collections import Counter
from collections.abc import Iterator

import discord

from testkit import drive
from testkit.play import first_turn, seat_user
from testkit.world import World

CYCLIC = (discord.Interaction, discord.InteractionResponse, discord.ui.View, discord.ui.Item,
          discord.Webhook, discord.Message)


async def test_a_turn_leaves_no_discord_cycle_to_the_collector(world: World) -> None:
    async with world.running():
        state, seat, _ = await first_turn(world)
        asker = seat_user(world, state, seat)
        witness = (seat + 1) % len(state.seats)
        with saved_garbage() as collected:
            await drive.ask_by_picker(world, asker, witness, "female")  # clicks, selects
            await drive.slash(world, seat_user(world, state, witness), "hand")  # a command
            await world.dc.settle()  # the table's letters, some through interaction tokens
            gc.collect()
            left = Counter(type(o).__qualname__ for o in collected if isinstance(o, CYCLIC))
            alive = [o for o in gc.get_objects() if isinstance(o, discord.Interaction)]
    assert not alive, alive  # every interaction handled: none was counted before it ended
    assert not left, left


async def test_discord_py_keeps_no_view_of_an_edited_picker(world: World) -> None:
    """A picker's step edits it with its next view: given to discord.py as a view, it kept
    each one (by message, for the process's life) to route clicks the families route."""
    async with world.running():
        state, seat, _ = await first_turn(world)
        await drive.ask_by_picker(world, seat_user(world, state, seat), (seat + 1) % 3, "female")
        assert world.bot is not None
        assert not world.bot.persistent_views
        state = drive.state_of(world)
        await drive.accuse_by_picker(world, seat_user(world, state, state.turn),
                                     drive.wrong_accusation(state, state.turn))
        assert not world.bot.persistent_views


@contextlib.contextmanager
def saved_garbage() -> Iterator[list[object]]:
    """Inside, what the collector frees is kept in `gc.garbage` instead (emptied after)."""
    gc.collect()
    gc.garbage.clear()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
