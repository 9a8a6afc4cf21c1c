"""`bench.load` measures the bot with the stand-in yielding the cores to it (`yielding`): the
stand-in stands in for Discord and the members, which never share the bot's machine. Run in a
child process: putting a niceness back needs CAP_SYS_NICE, and this process must keep its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

CHILD = """
import json, os, threading
from bench.load import nice_of, yielding
seen = {}
before = os.getpriority(os.PRIO_PROCESS, 0)
idle = threading.Event()
helper = threading.Thread(target=idle.wait)
helper.start()
with yielding(7) as taken:
    seen["taken"] = taken
    seen["inside"] = [os.getpriority(os.PRIO_PROCESS, int(t)) - before
                      for t in os.listdir("/proc/self/task")]
idle.set()
helper.join()
seen["after"] = os.getpriority(os.PRIO_PROCESS, 0) - before
seen["self"] = nice_of(os.getpid()) - before
with yielding(0) as taken:
    seen["none"] = taken

def probe():
    me = threading.get_native_id()
    os.setpriority(os.PRIO_PROCESS, me, os.getpriority(os.PRIO_PROCESS, me) + 1)
    try:
        os.setpriority(os.PRIO_PROCESS, me, before)
        seen["may_lower"] = True
    except PermissionError:
        seen["may_lower"] = False

checker = threading.Thread(target=probe)
checker.start()
checker.join()
print(json.dumps(seen))
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="Linux's per-thread nice")
def test_every_thread_yields_while_measuring_and_comes_back_when_it_may() -> None:
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         check=True, cwd=os.path.dirname(os.path.dirname(__file__)))
    seen = json.loads(out.stdout)
    assert seen["taken"] == 7 and seen["inside"] == [7, 7]  # the helper thread too
    assert seen["none"] == 0
    assert seen["after"] == seen["self"] == (0 if seen["may_lower"] else 7)
