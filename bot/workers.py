"""Helper processes for the bot's CPU-bound work: the AI detectives' thinking and the drawing
of pictures.

Why processes: both hold the GIL for long stretches (the AI's search; the layout half of a
drawing), and in the bot's process every such stretch is a delay for every click waiting to
be acknowledged. Spawned, not forked: a fork would copy the SQLite and event-loop threads'
state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor

PARENT_WATCH_SECONDS = 0.5
"""How often a helper checks that the bot is alive (a getppid call: nothing to speak of)."""
STARTED_ON: frozenset[int] | None = (
    frozenset(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None)
"""The CPUs the bot's process was started on (None: a system that does not say): its helpers
run on all of them, even when its event loop keeps to one (`pin_loop`)."""


def pin_loop(cpu: int) -> None:
    """Keep the calling thread, the event loop's, and the threads it starts from now on to one
    CPU (LOOP_CPU). Why: a shard cluster's processes on one machine, each loop free to run on
    any core, often woke on a core another loop held and waited for it; each on a core of its
    own, 2 processes answered faster than one on the same 2 cores, where unpinned they were
    slower (`bench.cluster`, docs/decisions.md). The helpers, spawned from this thread, set
    themselves free again (`STARTED_ON`)."""
    os.sched_setaffinity(0, {cpu})


def helper_pool(
    workers: int, *, niceness: int = 0, warmers: Sequence[Callable[[], object]] = ()
) -> ProcessPoolExecutor:
    """`workers` spawned helpers; each lowers its CPU priority by `niceness`, and with any
    niceness waits for the bot to block rather than preempt it (`yield_on_wake`): the event
    loop of the bot comes first when the cores are busy. Each runs `warmers` (module-level
    functions) before taking work."""
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_helper,
        initargs=(os.getpid(), niceness, tuple(warmers), STARTED_ON),
    )


async def stop_pool(pool: Executor) -> None:
    """What waits is cancelled, the work under way ends, and the pool's manager thread is
    joined before the bot exits. Left running (`shutdown(wait=False)`), it closed its wake-up
    pipe while the interpreter's exit hook wrote to it: CPython 3.11 logged "Exception
    ignored ... OSError: [Errno 9] Bad file descriptor" after a clean stop (`bench.cluster`)."""
    await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


def _start_helper(
    parent: int, niceness: int, warmers: tuple[Callable[[], object], ...],
    cpus: frozenset[int] | None,
) -> None:
    """Watch the bot first, then run the warmers (the AI helpers' imports every game: half a
    second before the first piece of work waits for it). A SIGKILLed bot cannot tell its
    helpers, which would otherwise wait for work forever; the bot's pid comes from the bot
    itself, since a helper asking whose child it is after a slow start may already be
    init's (the bot killed meanwhile). A helper spawned by a pinned loop's thread starts on
    that one CPU: it takes back every CPU the bot was started on (`cpus`)."""
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch",
                     daemon=True).start()
    if cpus is not None and os.sched_getaffinity(0) != cpus:
        os.sched_setaffinity(0, cpus)
    if niceness:
        os.nice(niceness)
        yield_on_wake()
    for warm in warmers:
        try:
            warm()
        except Exception:  # a helper that cannot warm up still works, only slower at first
            logging.getLogger(__name__).exception("warming a helper up failed")


def yield_on_wake() -> None:
    """This process no longer preempts a running one when it wakes (Linux's SCHED_BATCH,
    not passed on to its children; nothing elsewhere). Niceness gives a helper a smaller
    share of a busy core, but a helper handed work may still take the core from the event
    loop the moment it wakes, and the loop then waits a whole scheduling round in the middle
    of a handler; as a batch process it waits for the loop to block or use up its slice."""
    batch = getattr(os, "SCHED_BATCH", None)
    if batch is None:
        return
    with contextlib.suppress(OSError):  # a sandbox that refuses it: the niceness alone
        os.sched_setscheduler(0, batch | getattr(os, "SCHED_RESET_ON_FORK", 0),
                              os.sched_param(0))


def _exit_with(parent: int) -> None:
    """Exit as soon as `parent` is no longer this process's parent (it died: the helper was
    handed to init or a subreaper)."""
    while os.getppid() == parent:
        time.sleep(PARENT_WATCH_SECONDS)
    os._exit(0)
