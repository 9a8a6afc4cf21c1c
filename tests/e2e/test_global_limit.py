"""Discord's global limit met head-on (issue 21): for a second and a half every bot-token
request is answered with a global 429 while members play. The bot waits it out (discord.py
holds its requests, the outbox retries after `retry_after`), no member is shown an error, and
every letter the game owed is delivered exactly once."""

from __future__ import annotations

from collections import Counter

from testkit.drive import query, slash, state_of, user_at, wait_until
from testkit.play import pass_by_dm
from testkit.world import World
from tests.e2e.test_storms import owed


async def test_a_global_429_is_waited_out_and_nothing_is_lost(world: World) -> None:
    dc = world.dc
    ann, bea = world.users[:2]
    async with world.running():
        await slash(world, ann, "new", assist="full")
        await slash(world, bea, "join")
        await slash(world, ann, "add-ai", count=1, level="normal")
        storm = dc.faults.rate_limit(None, global_=True, for_seconds=1.5)
        started = await slash(world, ann, "start")
        assert "⚠️" not in started.text and "wrong" not in started.text, started.text
        for member in (ann, bea):
            await pass_by_dm(world, member)
        await wait_until(lambda: state_of(world).phase == "turns", 20, "play to begin")
        await wait_until(lambda: owed(world) == 0, 30, "every letter to be delivered")
        await dc.settle(timeout=20)
        state = state_of(world)
        user = user_at(world, state, state.turn)
        if user is not None:
            dc.faults.rate_limit(None, global_=True, for_seconds=1.0)
            asked = await slash(world, user, "ask", witness=bea if user == ann else ann,
                                about="red")
            assert "⚠️" not in asked.text, asked.text
        await wait_until(lambda: owed(world) == 0, 30, "every letter to be delivered")
        await dc.settle(timeout=20)

    assert storm.count > 0
    assert all(h.status == 429 for h in dc.faults.hits)
    letters = query(world, "SELECT id, letter, state FROM outbox")
    assert letters and all(r["state"] == "sent" for r in letters), Counter(
        r["state"] for r in letters)
    salt = query(world, "SELECT value FROM meta WHERE key = 'nonce_salt'")[0]["value"]
    sent = Counter(str(m.nonce) for m in dc.messages
                   if m.author_id == dc.bot_user_id and m.nonce is not None)
    for row in letters:
        if '"op":"send"' in row["letter"] and '"slot"' not in row["letter"]:
            assert sent[f"{salt}{row['id']}"] == 1, f"letter {row['id']} not delivered once"
    for member in (ann, bea):
        assert dc.dms(member), f"{member.name} heard nothing"
    assert not any("rate limit" in r.text.lower() for r in dc.interactions)
