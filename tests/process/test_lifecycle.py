"""The bot as an OS process, as a PaaS runs it (`python -m bot`): SIGTERM during play loses
nothing and exits within 10 s; a second process on the same database does not play while the
first holds the lease, and takes over when it is released (a rolling deploy), on SQLite and
on PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from testkit.standin import running_standin
from testkit.standin.process import NO_HELPERS, BotProcess

AS_DEPLOYED = {"AI_DELAY_SECONDS": "0.05"}
"""`python -m bot` as deployed: its AI and drawing helper processes started."""
ENV = {**AS_DEPLOYED, **NO_HELPERS}
"""Without the helpers where a test proves something of the bot's own process: the lease,
the database."""


def owed(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute(
            "SELECT COUNT(*) FROM outbox WHERE state = 'pending'").fetchone()[0])
    finally:
        con.close()


def version(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT MAX(version) FROM tables").fetchone()[0] or 0)
    finally:
        con.close()


async def test_sigterm_mid_action_loses_nothing_and_exits_in_time(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with running_standin() as dc:
        guild = dc.add_guild()
        ann, bea = (dc.add_user(n, guild_id=guild.id) for n in ("Ann", "Bea"))
        proc = await dc.start_bot_process(database_path=db, env=AS_DEPLOYED)  # helpers too
        channel = guild.channel_id
        for user, command in ((ann, "new"), (bea, "join")):
            done = await dc.slash(user, channel, "13clues", command)
            assert not done.errors, done.text
        before = version(db)
        start = await dc.slash(ann, channel, "13clues", "start", wait=False)
        await asyncio.sleep(0.02)  # the start is in flight: deal, DMs, table message
        stopping = time.monotonic()
        proc.terminate()
        assert await proc.wait(15) == 0
        assert time.monotonic() - stopping < 10
        assert "Traceback" not in proc.output(), proc.output()[-2000:]
        assert "objects frozen out of garbage collection" in proc.output()  # bot.collector
        # the start was stored and answered, or refused without change: never half-done
        answered = await dc.complete(start, timeout=5)
        if version(db) > before:
            assert "Cards dealt" in answered.text, answered.text
        else:
            assert "restarting" in answered.text or not answered.text

        async with dc.running_bot_process(database_path=db, env=ENV):
            await dc.settle()
            deadline = time.monotonic() + 10
            while owed(db) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert owed(db) == 0  # whatever the first process owed, the next one delivered
            if version(db) == before:  # it was refused: the member starts again
                again = await dc.slash(ann, channel, "13clues", "start")
                assert "Cards dealt" in again.text, again.text
            await dc.settle()
            assert dc.dms(ann) and dc.dms(bea)  # the hands arrived, once each
            assert len([m for m in dc.dms(ann) if "13c:pass:" in "".join(m.custom_ids)]) == 1


@pytest.fixture(params=["sqlite", "postgres"])
def database_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """The environment that picks the backend: nothing for SQLite, DATABASE_URL for a fresh
    PostgreSQL database."""
    if request.param == "sqlite":
        return {}
    return {"DATABASE_URL": request.getfixturevalue("postgres_url")}


async def test_a_second_process_does_not_play_while_the_first_holds_the_lease(
    tmp_path: Path, database_env: dict[str, str]
) -> None:
    db = tmp_path / "bot.sqlite3"
    env = {**ENV, **database_env}
    async with running_standin() as dc:
        guild = dc.add_guild()
        ann = dc.add_user("Ann", guild_id=guild.id)
        first = await dc.start_bot_process(database_path=db, env=env)
        identified = dc.identify_count

        refused = BotProcess(dc.url, database_path=db, env={**env, "LEASE_WAIT_SECONDS": "1"})
        await refused.start()
        assert await refused.wait(20) == 3
        assert "Another bot process" in refused.output(), refused.output()[-2000:]
        assert dc.identify_count == identified  # it never connected to the gateway

        # a rolling deploy: the new process waits while the old one stops cleanly
        waiting = BotProcess(dc.url, database_path=db, env={**env, "LEASE_WAIT_SECONDS": "30"})
        await waiting.start()
        await asyncio.sleep(1.5)
        assert waiting.running and dc.identify_count == identified
        first.terminate()
        assert await first.wait(15) == 0
        await dc.wait_ready(20, after=identified)
        opened = await dc.slash(ann, guild.channel_id, "13clues", "new")
        assert "Table open" in opened.text, opened.text
        waiting.terminate()
        assert await waiting.wait(15) == 0
    assert db.exists() == (not database_env)  # PostgreSQL alone, when DATABASE_URL names it


async def test_a_postgresql_database_out_of_reach_stops_the_bot_with_the_reason(
    tmp_path: Path,
) -> None:
    url = f"postgresql://bot@/deduction?host={tmp_path / 'nowhere'}&port=5432"
    async with running_standin() as dc:
        proc = BotProcess(dc.url, database_path=tmp_path / "bot.sqlite3",
                          env={**ENV, "DATABASE_URL": url})
        await proc.start()
        assert await proc.wait(30) == 3
        assert "cannot reach the PostgreSQL database" in proc.output(), proc.output()[-2000:]
        assert "Traceback" not in proc.output(), proc.output()[-2000:]
