"""The outbox's token bucket (`bot.pacing`): it spends at most its rate, and when the budget is
short it serves a member's own DMs before the table message, and both before kept DMs."""

from __future__ import annotations

import asyncio
import time

from bot.messages import Outgoing
from bot.models import Letter
from bot.pacing import DISCORD_LIMIT, KEPT, PROMPT, TABLE, Pacer, paced, rank_of


async def test_the_bucket_paces_at_its_rate_and_serves_by_priority() -> None:
    pacer = Pacer(rate=20.0, burst=1.0)
    served: list[str] = []

    async def one(name: str, rank: int) -> None:
        await pacer.take(rank)
        served.append(name)

    await pacer.take(TABLE)  # the burst is spent: everyone below waits
    started = time.monotonic()
    tasks = [asyncio.create_task(one(n, r)) for n, r in
             [("kept", KEPT), ("table", TABLE), ("prompt", PROMPT), ("table2", TABLE)]]
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started
    assert served == ["prompt", "table", "table2", "kept"]
    assert elapsed >= 4 / 20.0 * 0.9  # four more requests at 20 a second
    assert pacer.waited == 4
    await pacer.close()


async def test_a_cancelled_waiter_gives_its_turn_away() -> None:
    pacer = Pacer(rate=50.0, burst=1.0)
    await pacer.take(TABLE)
    gone = asyncio.create_task(pacer.take(PROMPT))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.wait_for(pacer.take(KEPT), 1.0)
    await pacer.close()


def test_the_default_burst_keeps_any_second_within_discord_limit() -> None:
    pacer = Pacer(rate=45.0)
    assert max(pacer.burst, pacer.catch_up) + pacer.rate <= DISCORD_LIMIT


def test_priorities_of_letters() -> None:
    body = Outgoing(content="x")
    assert rank_of(Letter.dm(1, body)) == PROMPT
    assert rank_of(Letter.post(2, body)) == TABLE
    assert rank_of(Letter.dm(1, body, slot="casebook")) == PROMPT  # the member's to act on
    assert rank_of(Letter.dm(1, body, slot="casebook", later=True)) == KEPT
    assert rank_of(Letter.dm(1, body, later=True)) == KEPT
    assert not paced(Letter.reply(3, "token", body)) and paced(Letter.edit(2, 4, body))


async def test_no_budget_is_handed_out_while_a_global_429_is_waited_out() -> None:
    hold = asyncio.Event()  # cleared: discord.py is waiting a global 429 out
    pacer = Pacer(rate=100.0, burst=1.0, gate=lambda: hold)
    waiter = asyncio.create_task(pacer.take(PROMPT))
    await asyncio.sleep(0.1)
    assert not waiter.done()
    hold.set()
    await asyncio.wait_for(waiter, 1.0)
    await pacer.close()
