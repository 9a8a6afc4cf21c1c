"""A shard cluster as it runs: two `python -m bot` processes, shard 0 and shard 1 of two, on
one PostgreSQL database against the stand-in (issue 19). One lean test walks a table in a
shard-1 server through what a cluster meets: its lobby is played by process 1; process 1 is
killed with SIGKILL while it sends the deal, and process 0 delivers what it owed, nothing
twice, nothing lost; the DM clicks of the pass reach process 0, which plays them from the
database, once; the same pass chosen in a DM and in the channel at once (two processes)
gives one commit and one polite refusal; the AI's timer fires once; both shards IDENTIFY in
one bucket without an INVALID_SESSION; and the stand-in never sees more than 50 requests/s.
Another: a member's `/language` chosen in one process is followed by the other.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import asyncpg

from bot.languages import FRESH_SECONDS
from testkit.play import first_of_each
from testkit.standin import running_standin
from testkit.standin.process import NO_HELPERS, BotProcess
from testkit.standin.records import Message, User
from testkit.standin.server import DiscordStandIn

ENV = {"AI_DELAY_SECONDS": "0.3", "SHARD_COUNT": "2", **NO_HELPERS}


async def rows(url: str, sql: str, *args: object) -> list[asyncpg.Record]:
    con = await asyncpg.connect(url)
    try:
        return await con.fetch(sql, *args)
    finally:
        await con.close()


async def start(dc: DiscordStandIn, url: str, tmp: Path, shard: int) -> BotProcess:
    return await dc.start_bot_process(
        timeout=30, database_path=tmp / f"unused-{shard}.sqlite3",
        env={**ENV, "DATABASE_URL": url, "SHARD_IDS": str(shard)})


async def polled(url: str, sql: str, done: Callable[[int], bool], timeout: float,
                 *args: object) -> int:
    """`sql`'s one figure (`n`) once `done` holds, or what it is at the timeout."""
    end = time.monotonic() + timeout
    while True:
        [row] = await rows(url, sql, *args)
        if done(row["n"]) or time.monotonic() > end:
            return int(row["n"])
        await asyncio.sleep(0.1)


async def settled(url: str, timeout: float) -> int:
    """Wait until the outbox owes nothing; what it still owes then."""
    return await polled(url, "SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'",
                        lambda n: n == 0, timeout)


def pass_prompt(dc: DiscordStandIn, user: User) -> Message:
    return next(m for m in reversed(dc.dms(user))
                if any(c.startswith("13c:pass:") for c in m.custom_ids))


def pass_values(dc: DiscordStandIn, user: User) -> tuple[str, list[str]]:
    """The pass select's custom_id, and a Person, Location and Weapon of the dealt five."""
    prompt = pass_prompt(dc, user)
    cid = next(c for c in prompt.custom_ids if c.startswith("13c:pass:"))
    return cid, first_of_each([o["value"] for o in prompt.options(cid)])


async def test_a_two_process_cluster_plays_one_table_across_its_shards(
    tmp_path: Path, postgres_url: str
) -> None:
    async with running_standin() as dc:
        dc.max_concurrency = 1  # both shards in one bucket: the second waits its turn
        guild = dc.add_guild("far", shard=(1, 2))
        ann, bea, cy = (dc.add_user(n, guild_id=guild.id) for n in ("Ann", "Bea", "Cy"))
        channel = guild.channel_id
        zero = await start(dc, postgres_url, tmp_path, 0)
        one = await start(dc, postgres_url, tmp_path, 1)
        try:
            for user, command, options in ((ann, "new", {}), (bea, "join", {}),
                                           (cy, "join", {}), (ann, "add-ai", {"count": 1})):
                done = await dc.slash(user, channel, "13clues", command, timeout=15,
                                      options=options)
                assert not done.errors and done.shard == 1, done.text

            # the deal, and process 1 killed while it sends it
            started = await dc.slash(ann, channel, "13clues", "start", timeout=15)
            assert "Cards dealt" in started.text, started.text
            one.kill()
            await one.wait(10)
            assert await settled(postgres_url, 30) == 0  # process 0 delivered what was owed
            for user in (ann, bea, cy):
                prompts = [m for m in dc.dms(user)
                           if any(c.startswith("13c:pass:") for c in m.custom_ids)]
                assert len(prompts) == 1, (user.name, len(prompts))  # none twice

            # a DM click for this shard-1 table reaches shard 0, played from the database
            cid, chosen = pass_values(dc, ann)
            passed = await dc.select(ann, pass_prompt(dc, ann), cid, chosen, timeout=15)
            assert passed.shard == 0 and not passed.errors, passed.text
            # applied once, counted among the stored actions: the commit may follow the
            # click's deferred answer, and the AI's own pass (its timer, which process 0 takes
            # over) may land meanwhile, so the table's version cannot tell
            passes = ("SELECT COUNT(*) AS n FROM actions WHERE actor = $1"
                      " AND action LIKE '%choose_pass%'")
            assert await polled(postgres_url, passes, lambda n: n > 0, 15, f"u{ann.id}") == 1
            await asyncio.sleep(1.0)  # time for a second application, were there one
            [again] = await rows(postgres_url, passes, f"u{ann.id}")
            assert again["n"] == 1, passed.text

            # a new process for shard 1 (the killed one's lease died with it)
            one = await start(dc, postgres_url, tmp_path, 1)

            # the same pass in a DM (process 0) and in the channel (process 1) at once
            cid, chosen = pass_values(dc, bea)
            by_dm, by_slash = await asyncio.gather(
                dc.select(bea, pass_prompt(dc, bea), cid, chosen, wait=False),
                dc.slash(bea, channel, "13clues", "pass", wait=False, person=chosen[0],
                         location=chosen[1], weapon=chosen[2]))
            answers = [await dc.complete(r, timeout=15) for r in (by_dm, by_slash)]
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and all("You pass" not in a.text for a in answers):
                # the DM's deferred update may fall quiet before its answer: that waits for
                # the news of its change, which the channel's process sends
                await asyncio.sleep(0.1)
            assert {a.shard for a in answers} == {0, 1}
            assert all(not a.errors for a in answers), [a.errors for a in answers]
            stored = await rows(postgres_url, "SELECT action FROM actions WHERE actor = $1",
                                f"u{bea.id}")
            assert len([r for r in stored if "choose_pass" in r["action"]]) == 1
            refusals = [a for a in answers if "You pass" not in a.text]  # one commit
            assert len(refusals) == 1, [(a.shard, a.response_type, a.text) for a in answers]
            assert refusals[0].ephemeral and refusals[0].text, [a.text for a in answers]

            cid, chosen = pass_values(dc, cy)
            await dc.select(cy, pass_prompt(dc, cy), cid, chosen, timeout=15)
            deadline = time.monotonic() + 20  # the AI's pass: its timer, in one process
            while time.monotonic() < deadline:
                ai = await rows(postgres_url,
                                "SELECT version FROM actions WHERE actor LIKE 'ai:%'"
                                " AND action LIKE '%choose_pass%'")
                if ai:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(1.0)  # time for a second firing, were there one
            ai = await rows(postgres_url, "SELECT action FROM actions WHERE actor LIKE 'ai:%'")
            assert len(ai) >= 1
            assert len([r for r in ai if "choose_pass" in r["action"]]) == 1
            assert await settled(postgres_url, 20) == 0

            assert dc.invalid_sessions == 0
            assert dc.under_limit.peak() <= 50 and not dc.under_limit.refused
        finally:
            for proc in (zero, one):
                if proc.running:
                    proc.terminate()
                    await proc.wait(15)
        for proc in (zero, one):
            assert not proc.error_lines(), proc.output()[-3000:]  # nothing unexpected


async def test_a_language_chosen_in_one_process_is_followed_by_the_other(
    tmp_path: Path, postgres_url: str
) -> None:
    async with running_standin() as dc:
        dc.max_concurrency = 2  # a bucket each: no turn to wait for
        guild = dc.add_guild("far", shard=(1, 2))
        ann = dc.add_user("Ann", guild_id=guild.id)
        zero = await start(dc, postgres_url, tmp_path, 0)
        one = await start(dc, postgres_url, tmp_path, 1)
        try:
            shown = await dc.slash(ann, None, "language", timeout=15)  # a DM: process 0
            assert shown.shard == 0 and "Discord app's language" in shown.text, shown.text
            chosen = await dc.slash(ann, guild.channel_id, "language", language="fr",
                                    timeout=15)
            assert chosen.shard == 1 and "Je vous écris" in chosen.text, chosen.text
            await asyncio.sleep(FRESH_SECONDS)
            again = await dc.slash(ann, None, "language", timeout=15)
            assert again.shard == 0 and "Je vous écris" in again.text, again.text
        finally:
            for proc in (zero, one):
                proc.terminate()
                await proc.wait(15)
        for proc in (zero, one):
            assert not proc.error_lines(), proc.output()[-3000:]  # nothing unexpected
