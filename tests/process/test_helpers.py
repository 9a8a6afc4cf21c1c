"""The bot's helper processes (the AI detectives' and the drawings' pools) die with it: a
SIGKILLed bot cannot tell them, and helpers left behind would wait for work forever, one pool
more at every restart. Real processes, a real SIGKILL: early (helpers still starting, the
moment a restarting bot is most often killed: helpers that asked for their parent's pid
only after their slow start were already init's, and watched init forever) and late
(helpers idle, waiting for work). And with LOOP_CPU, `python -m bot` keeps its event loop to
that CPU while its helpers run on every CPU."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import cast

import pytest

from bot.workers import STARTED_ON, helper_pool, pin_loop, stop_pool
from testkit.standin import running_standin

WORKERS = 2
BOT = """
import os, sys, time
from bot.workers import helper_pool


def pid_after_a_while() -> int:
    time.sleep(0.2)
    return os.getpid()


if __name__ == "__main__":  # a spawned helper imports this file again
    pool = helper_pool({workers})
    working = [pool.submit(pid_after_a_while) for _ in range({workers})]
    if sys.argv[1] == "late":  # until every helper has started and done some work
        seen = set()
        while len(seen) < {workers}:
            seen |= {{done.result() for done in working}}
            working = [pool.submit(pid_after_a_while) for _ in range({workers})]
    print("ready", flush=True)
    time.sleep(600)
"""


def _children(pid: int) -> set[int]:
    """Living child processes of `pid` (zombies waiting for a reaper count as dead)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z":
            alive.add(pid)
    return alive


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("moment", ["early", "late"])
def test_helpers_exit_when_the_bot_is_sigkilled(moment: str, tmp_path: Path) -> None:
    script = tmp_path / "bot_with_helpers.py"
    script.write_text(BOT.format(workers=WORKERS))
    bot = subprocess.Popen([sys.executable, str(script), moment], stdout=subprocess.PIPE,
                           text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        assert bot.stdout is not None
        assert bot.stdout.readline().strip() == "ready"
        end = time.monotonic() + 30
        helpers = _children(bot.pid)
        while len(helpers) < WORKERS and time.monotonic() < end:
            time.sleep(0.01)
            helpers = _children(bot.pid)
        assert len(helpers) >= WORKERS, helpers
    finally:
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait()
    end = time.monotonic() + 15
    while _alive(helpers) and time.monotonic() < end:
        time.sleep(0.1)
    left = _alive(helpers)
    for pid in left:  # never leave them behind, whatever the verdict
        os.kill(pid, signal.SIGKILL)
    assert not left, f"helpers {left} outlived their SIGKILLed bot"


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux's scheduling policy")
def test_a_niced_helper_never_preempts_the_bot() -> None:
    """A niced helper runs as a batch process (woken with work, it waits for the event loop
    to block), and its niceness is on top of the bot's; a helper at the bot's own priority
    stays an ordinary process."""
    from bot.workers import helper_pool

    mine = os.getpriority(os.PRIO_PROCESS, 0)
    with helper_pool(1, niceness=5) as niced, helper_pool(1) as plain:
        policy = niced.submit(os.sched_getscheduler, 0).result(timeout=60)
        assert policy == os.SCHED_BATCH | os.SCHED_RESET_ON_FORK  # its children: ordinary
        assert niced.submit(os.getpriority, os.PRIO_PROCESS, 0).result(timeout=60) == min(
            19, mine + 5)
        assert plain.submit(os.sched_getscheduler, 0).result(timeout=60) == os.SCHED_OTHER


def test_a_stopped_pool_leaves_no_thread_for_the_exit_hook() -> None:
    """A pool left to stop on its own closed its wake-up pipe while the interpreter's exit
    hook wrote to it: a traceback in the log of a bot that stopped cleanly."""

    async def scenario() -> None:
        pool = helper_pool(1)
        assert await asyncio.wrap_future(pool.submit(os.getpid)) != os.getpid()
        # the manager thread (typeshed calls it a `_ThreadWakeup`)
        manager = cast(threading.Thread, pool._executor_manager_thread)
        assert manager.is_alive()
        await stop_pool(pool)
        assert not manager.is_alive()

    asyncio.run(scenario())


@pytest.mark.skipif(STARTED_ON is None or len(STARTED_ON) < 2,
                    reason="needs CPU affinity and two CPUs to tell one from all")
def test_helpers_of_a_pinned_loop_run_on_every_cpu() -> None:
    """LOOP_CPU keeps the loop's thread to one CPU; the helpers it spawns take back every CPU
    the process started on (here the pinned thread is a test thread: pinning is per thread)."""
    assert STARTED_ON is not None
    cpu = max(STARTED_ON)
    seen: dict[str, object] = {}

    def pinned() -> None:
        pin_loop(cpu)
        seen["loop"] = os.sched_getaffinity(0)
        pool = helper_pool(1, niceness=5)
        try:
            seen["helper"] = pool.submit(os.sched_getaffinity, 0).result(timeout=60)
        finally:
            pool.shutdown(wait=True)

    thread = threading.Thread(target=pinned)
    thread.start()
    thread.join(90)
    assert seen == {"loop": {cpu}, "helper": set(STARTED_ON)}
    assert os.sched_getaffinity(0) == STARTED_ON  # this thread was never pinned


def _helpers(pid: int) -> list[int]:
    """The pool workers among `pid`'s children (multiprocessing's resource tracker is not one:
    an idle process that stays on the loop's CPU)."""
    found = []
    for child in _children(pid):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
    return found


@pytest.mark.skipif(STARTED_ON is None or len(STARTED_ON) < 2,
                    reason="needs CPU affinity and two CPUs to tell one from all")
async def test_python_m_bot_keeps_its_loop_to_loop_cpu(tmp_path: Path) -> None:
    assert STARTED_ON is not None
    cpu = max(STARTED_ON)
    async with running_standin() as dc:
        proc = await dc.start_bot_process(
            database_path=tmp_path / "bot.sqlite3",
            env={"LOOP_CPU": str(cpu), "AI_WORKERS": "1", "DRAW_WORKERS": "1"})
        try:
            assert os.sched_getaffinity(proc.pid) == {cpu}  # its main thread: the loop
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:  # its AI and drawing helpers, once started
                helpers = _helpers(proc.pid)
                if len(helpers) >= 2 and all(
                        os.sched_getaffinity(h) == STARTED_ON for h in helpers):
                    break
                await asyncio.sleep(0.1)
            assert len(helpers) >= 2, proc.output()[-2000:]
            assert [os.sched_getaffinity(h) for h in helpers] == [STARTED_ON] * len(
                helpers)  # every CPU
            assert "the event loop keeps to CPU" in proc.output()
        finally:
            proc.terminate()
            assert await proc.wait(15) == 0
