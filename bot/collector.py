"""CPython's garbage collector, set for a process whose event loop must answer within
milliseconds (`python -m bot`; the tests' in-process bots run with the test process's own
settings, tests/conftest.py).

Why: a full collection walks every tracked object while the event loop waits. In a bot at
200 busy tables (`bench.cluster` with a stall probe, issue 19) full collections paused the
loop 118–870 ms each, one every 5–14 s, and set the first callback's p99; the ~106,000
objects the imports alone leave (modules, discord.py, the games, the catalogs), which live as
long as the process, took about 100 ms of each. So what start-up built is frozen out of
every later collection, and a full collection waits for ten times as many collections of the
middle generation: cyclic garbage mostly dies young, in the two younger generations, which
keep CPython's defaults (pauses under 10 ms).
"""

from __future__ import annotations

import gc

FULL_EVERY = 100
"""Collections of the middle generation between two full ones (CPython's default is 10)."""


def tune() -> None:
    """Full collections ten times rarer (at the process's start)."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_EVERY)


def settle() -> int:
    """Once start-up is over: collect its garbage, then freeze what is left out of every later
    collection (it is freed as before when nothing refers to it; only a cycle among frozen
    objects would stay). Returns how many objects are frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
