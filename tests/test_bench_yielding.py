"""`bench.load` measures the bot with the stand-in yielding the cores to it (`yielding`): the
stand-in stands in for Discord and the members, which never share the bot's machine. Run in a
child process: putting a niceness back needs CAP_SYS_NICE, and this process must keep its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import json, os, sys, threading
from bench import load

refuse = sys.argv[1] == "refuse"
if refuse:  # as without CAP_SYS_NICE: a niceness may go up, never down
    setpriority = os.setpriority
    def unprivileged(which, who, value):
        if value < os.getpriority(which, who):
            raise PermissionError("lowering a niceness")
        setpriority(which, who, value)
    os.setpriority = unprivileged
start = os.getpriority(os.PRIO_PROCESS, 0)
idle = threading.Event()
helper = threading.Thread(target=idle.wait)
helper.start()
seen = {}
for window in ("first", "second"):
    with load.yielding(7) as inside:
        seen[window] = [inside - start] + [
            os.getpriority(os.PRIO_PROCESS, int(t)) - start for t in os.listdir("/proc/self/task")]
    seen[window + " after"] = os.getpriority(os.PRIO_PROCESS, 0) - start
idle.set()
helper.join()
with load.yielding(0) as inside:
    seen["none"] = inside - start
print(json.dumps(seen))
"""


def yielded(mode: str) -> tuple[dict[str, object], str]:
    done = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def may_lower() -> bool:
    """Whether this process may lower a niceness (tried in a child that raises its own)."""
    probe = "import os; n = os.nice(0); os.nice(1); os.setpriority(os.PRIO_PROCESS, 0, n)"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux's per-thread nice")
def test_every_thread_yields_while_measuring_and_comes_back() -> None:
    if not may_lower():
        pytest.skip("putting a niceness back needs CAP_SYS_NICE here (the next test covers it)")
    seen, _ = yielded("allow")
    assert seen["first"] == seen["second"] == [7, 7, 7]  # the reported one, both threads
    assert seen["first after"] == seen["second after"] == seen["none"] == 0


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux's per-thread nice")
def test_a_niceness_that_cannot_be_put_back_is_said_and_not_added_to() -> None:
    seen, stderr = yielded("refuse")
    assert seen["first"] == seen["second"] == [7, 7, 7]  # not 14 in the second window
    assert seen["first after"] == seen["second after"] == 7
    assert "stays at nice" in stderr
