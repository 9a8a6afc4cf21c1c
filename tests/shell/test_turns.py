"""Turns: at most `size` holders, the waiters served most urgent first, then in arrival order,
but none passed by one that came `step` seconds a rank after it; a waiter cancelled, even as
its turn came, passes the turn on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine

from bot.turns import Turns


def holding(turns: Turns, release: asyncio.Event, order: list[str]
           ) -> Callable[[str, int], Coroutine[None, None, None]]:
    """A task body that takes a turn at `priority`, notes its name, and holds the turn until
    `release`."""
    async def hold(name: str, priority: int) -> None:
        async with turns.turn(priority):
            order.append(name)
            await release.wait()

    return hold


async def test_waiters_are_served_most_urgent_first_then_in_arrival_order() -> None:
    turns = Turns(2)
    release = asyncio.Event()
    order: list[str] = []
    hold = holding(turns, release, order)

    first = [asyncio.create_task(hold(n, 2)) for n in ("a", "b")]  # both hold a turn
    await asyncio.sleep(0)
    later = [asyncio.create_task(hold(n, p)) for n, p in
             (("kept", 2), ("table", 1), ("prompt", 0), ("prompt again", 0))]
    await asyncio.sleep(0.01)
    assert order == ["a", "b"]  # the others wait: two at once
    release.set()
    await asyncio.gather(*first, *later)
    assert order == ["a", "b", "prompt", "prompt again", "table", "kept"]


async def test_a_cancelled_waiter_passes_its_turn_on() -> None:
    turns = Turns(1)
    release = asyncio.Event()
    order: list[str] = []
    hold = holding(turns, release, order)

    holder = asyncio.create_task(hold("holder", 0))
    await asyncio.sleep(0)
    gone, handed, last = (asyncio.create_task(hold(n, 0)) for n in ("gone", "handed", "last"))
    await asyncio.sleep(0.01)
    gone.cancel()  # cancelled while it waits
    release.set()
    await asyncio.sleep(0)  # the holder lets go: `handed` is given the turn ...
    handed.cancel()  # ... and cancelled before it runs: the turn goes on to `last`
    await asyncio.wait_for(asyncio.gather(holder, last), 1.0)
    assert order == ["holder", "last"]
    assert gone.cancelled() and handed.cancelled()


async def test_a_waiter_is_not_passed_by_more_urgent_ones_that_came_long_after_it() -> None:
    now = [0.0]
    turns = Turns(1, step=3.0, clock=lambda: now[0])
    release = asyncio.Event()
    order: list[str] = []
    hold = holding(turns, release, order)

    tasks = [asyncio.create_task(hold("holder", 0))]
    await asyncio.sleep(0)
    for name, priority, at in (("others' picture", 2, 0.0), ("soon after", 0, 5.0),
                               ("long after", 0, 6.5), ("table", 1, 2.0)):
        now[0] = at
        tasks.append(asyncio.create_task(hold(name, priority)))
        await asyncio.sleep(0)
    release.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 1.0)
    # due: others' picture 0 + 2 × 3 = 6, soon after 5, long after 6.5, table 2 + 3 = 5
    assert order == ["holder", "soon after", "table", "others' picture", "long after"]


async def test_a_waiter_is_hurried_to_a_more_urgent_rank_and_its_old_place_is_passed_over(
) -> None:
    turns = Turns(1)
    release = asyncio.Event()
    order: list[str] = []

    async def hold(name: str, priority: int, key: str | None = None) -> None:
        async with turns.turn(priority, key):
            order.append(name)
            await release.wait()

    first = asyncio.create_task(hold("holder", 0))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(hold(n, p, k)) for n, p, k in
               (("opened ahead", 3, "member"), ("table", 1, None), ("prompt", 2, "other"))]
    await asyncio.sleep(0.01)
    turns.hurry("member", 0)  # the member's own DM now waits for that opening
    turns.hurry("other", 3)  # never slowed
    release.set()
    await asyncio.gather(first, *waiting)
    assert order == ["holder", "opened ahead", "table", "prompt"]
    async with turns.turn(5):  # the places left behind do not hold a free turn back
        order.append("free")
    assert order[-1] == "free"
