"""A bot in its own process: started by the launcher, SIGKILLed mid-request, restarted.

Crash tests need a real process boundary (a SIGKILL runs no clean-up), so the stand-in must
cope with a client vanishing in the middle of a request and a new one identifying after it.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from testkit.standin import NoBotConnected, running_standin
from testkit.standin.testing import no_task_leaks  # noqa: F401  (autouse fixture)

TINY = "testkit.standin.tinybot:main"


async def test_tiny_bot_process_killed_mid_request_and_restarted(tmp_path: Path) -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        proc = await dc.start_bot_process(entry=TINY, args=["child-1"], workdir=tmp_path)
        assert proc.running and dc.identify_count == 1
        ping = await dc.slash(alice, guild, "tt", "ping", target=alice, word="w")
        poke = await dc.click(alice, ping, "test:poke")
        assert poke.content == "poked by alice via child-1"

        # The bot's post is held by the stand-in; the process dies while waiting for it.
        held = dc.faults.delay("POST /channels/{channel_id}/messages", 0.5)
        announce = await dc.slash(alice, guild, "tt", "announce", wait=False)
        while held.count == 0:
            await asyncio.sleep(0.01)
        proc.kill()
        assert await proc.wait() == -signal.SIGKILL
        await dc.wait_disconnected()
        with pytest.raises(NoBotConnected):
            await dc.slash(alice, guild, "tt", "ping", target=alice, word="w")
        # Discord got the request, so the message is made though nobody reads the answer.
        await dc.wait_for_message(guild.channel_id, "announcement", timeout=2.0)
        assert announce.deferred and not announce.completed

        async with dc.running_bot_process(entry=TINY, args=["child-2"], workdir=tmp_path) as again:
            assert dc.identify_count == 2
            poke = await dc.click(alice, ping, "test:poke")
            assert poke.content == "poked by alice via child-2"
        assert again.returncode in (0, -signal.SIGTERM)
        assert proc.error_lines() == [] and again.error_lines() == []
        assert "has connected to Gateway" in proc.output()


async def test_project_bot_runs_from_its_own_entry_point(tmp_path: Path) -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        async with dc.running_bot_process(database_path=tmp_path / "bot.sqlite3",
                                          env={"AI_DELAY_SECONDS": "0.05"}) as proc:
            assert "13clues" in [c["name"] for c in dc.commands()]
            answer = await dc.slash(alice, guild, "help")
            assert answer.callback_type is not None and answer.text
        assert (tmp_path / "bot.sqlite3").exists()
        assert proc.error_lines() == [], proc.output()
