"""The outbox's token bucket (`bot.pacing`): it spends at most its rate, and when the budget is
short it serves a member's own DMs before the table message, and both before kept DMs."""

from __future__ import annotations

import asyncio
import time

from bot.messages import Outgoing
from bot.models import Letter
from bot.pacing import (
    ANSWER,
    BACK_OFF,
    DISCORD_LIMIT,
    JITTER,
    KEPT,
    OWN,
    PROMPT,
    TABLE,
    GlobalHold,
    Pacer,
    paced,
    rank_of,
)


async def test_the_bucket_paces_at_its_rate_and_serves_by_priority() -> None:
    pacer = Pacer(rate=20.0, burst=1.0)
    served: list[str] = []

    async def one(name: str, rank: int) -> None:
        await pacer.take(rank)
        served.append(name)

    await pacer.take(TABLE)  # the burst is spent: everyone below waits
    started = time.monotonic()
    tasks = [asyncio.create_task(one(n, r)) for n, r in
             [("kept", KEPT), ("table", TABLE), ("prompt", PROMPT), ("table2", TABLE),
              ("own", OWN)]]
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started
    assert served == ["own", "table", "table2", "prompt", "kept"]
    assert elapsed >= 5 / 20.0 * 0.9  # five more requests at 20 a second
    assert pacer.waited == 5
    await pacer.close()


async def test_a_cancelled_waiter_gives_its_turn_away() -> None:
    pacer = Pacer(rate=50.0, burst=1.0)
    await pacer.take(TABLE)
    gone = asyncio.create_task(pacer.take(PROMPT))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.wait_for(pacer.take(KEPT), 1.0)
    await pacer.close()


def test_the_ceiling_keeps_any_second_within_discord_limit_and_shares_it() -> None:
    assert Pacer(rate=45.0).ceiling == DISCORD_LIMIT - JITTER
    assert 2 * Pacer(rate=45.0 / 2).ceiling == DISCORD_LIMIT - JITTER  # a cluster of two


def recorded(rate: float) -> tuple[Pacer, list[float], list[float]]:
    """A pacer on a clock the test moves (`now[0]`), and when it handed out each request
    (`granted`, on that clock)."""
    now = [0.0]
    granted: list[float] = []

    class Recorded(Pacer):
        def _grant(self) -> None:
            super()._grant()
            granted.append(now[0])

    return Recorded(rate=rate, clock=lambda: now[0]), now, granted


async def test_a_late_wake_up_is_made_up_but_no_second_exceeds_the_ceiling() -> None:
    """A busy event loop wakes the pacer late: the budget of the time it slept is handed out
    at once (a bucket of two requests spent 25 a second of 45 with the loop busy 20 ms at a
    time), and the sliding second still holds no more than `ceiling`."""
    pacer, now, granted = recorded(45.0)
    tasks = [asyncio.create_task(pacer.take(PROMPT)) for _ in range(400)]
    await asyncio.sleep(0.05)
    assert len(granted) == 1  # the burst of one; the clock stands still
    for _ in range(40):  # the loop wakes every 0.2 s (of the pacer's clock)
        now[0] += 0.2
        await asyncio.sleep(0.05)
    assert len(granted) >= 45 * 8 * 0.97  # 45 a second over the 8 s
    for i, at in enumerate(granted):
        assert sum(1 for t in granted[i:] if t - at < 1.0) <= pacer.ceiling
    for task in tasks:
        task.cancel()
    await pacer.close()


def test_priorities_of_letters() -> None:
    body = Outgoing(content="x")
    assert rank_of(Letter.dm(1, body)) == PROMPT
    assert rank_of(Letter.dm(1, body, own=True)) == OWN
    assert rank_of(Letter.dm(1, body, slot="casebook", own=True)) == OWN  # asked for, or acting
    assert rank_of(Letter.post(2, body)) == TABLE
    assert rank_of(Letter.dm(1, body, slot="casebook")) == PROMPT  # the member's to act on
    assert rank_of(Letter.dm(1, body, slot="casebook", later=True)) == KEPT
    assert rank_of(Letter.dm(1, body, later=True)) == KEPT
    assert not paced(Letter.reply(3, "token", body)) and paced(Letter.edit(2, 4, body))
    assert rank_of(Letter.reply(3, "token", body)) == ANSWER  # first for its pictures


async def test_no_budget_is_handed_out_while_a_global_429_is_waited_out() -> None:
    hold = asyncio.Event()  # cleared: discord.py is waiting a global 429 out
    pacer = Pacer(rate=100.0, burst=1.0, gate=lambda: hold)
    waiter = asyncio.create_task(pacer.take(PROMPT))
    await asyncio.sleep(0.1)
    assert not waiter.done()
    hold.set()
    await asyncio.wait_for(waiter, 1.0)
    await pacer.close()


async def test_a_global_429_is_charged_and_halves_the_share_for_a_while() -> None:
    """discord.py sends a request a global 429 refused again itself, outside the pacer: the
    hold it clears tells the pacer, which charges that try and spends half its share for
    `BACK_OFF` seconds (in a cluster the others spend the token's budget too), then all of
    it again."""
    pacer, now, granted = recorded(20.0)
    hold = GlobalHold(pacer.refused)
    tasks = [asyncio.create_task(pacer.take(PROMPT)) for _ in range(200)]
    await asyncio.sleep(0.02)
    hold.clear()  # as discord.py does for each request a global 429 refused
    assert not hold.is_set() and pacer.refusals == 1
    hold.set()
    for _ in range(int(BACK_OFF / 0.2)):  # the loop wakes every 0.2 s (of the pacer's clock)
        now[0] += 0.2
        await asyncio.sleep(0.05)
    backing_off = len(granted)
    for _ in range(int(BACK_OFF / 0.2)):
        now[0] += 0.2
        await asyncio.sleep(0.05)
    after = len(granted) - backing_off
    assert backing_off <= 1 + 20.0 / 2 * BACK_OFF  # the first, then half of 20 a second
    assert after >= 20.0 * BACK_OFF * 0.9  # the whole share again
    for task in tasks:
        task.cancel()
    await pacer.close()


async def test_a_waiting_request_is_hurried_to_a_more_urgent_rank_never_slowed() -> None:
    pacer = Pacer(rate=20.0, burst=1.0)
    served: list[str] = []

    async def one(name: str, rank: int, key: str | None = None) -> None:
        await pacer.take(rank, key=key)
        served.append(name)

    await pacer.take(TABLE)  # the burst is spent: everyone below waits
    tasks = [asyncio.create_task(one(n, r, k)) for n, r, k in
             [("kept", KEPT, "u:1"), ("table", TABLE, None), ("own", OWN, "u:2")]]
    await asyncio.sleep(0)
    pacer.hurry("u:1", OWN)  # a DM of its destination behind it is the member's own
    pacer.hurry("u:2", KEPT)  # never slowed
    pacer.hurry("u:3", OWN)  # nothing waits for it
    await asyncio.gather(*tasks)
    assert served == ["own", "kept", "table"]
    assert pacer.waited == 3
    await pacer.close()
