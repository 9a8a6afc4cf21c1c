"""Helper processes for the bot's CPU-bound work: the AI detectives' thinking and the drawing
of pictures.

Why processes: both hold the GIL for long stretches (the AI's search; the layout half of a
drawing), and in the bot's process every such stretch is a delay for every click waiting to
be acknowledged. Spawned, not forked: a fork would copy the SQLite and event-loop threads'
state.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor


def helper_pool(
    workers: int, *, niceness: int = 0, warmers: Sequence[Callable[[], object]] = ()
) -> ProcessPoolExecutor:
    """`workers` spawned helpers; each lowers its CPU priority by `niceness` (the event loop
    of the bot comes first when the cores are busy) and runs `warmers` (module-level
    functions) before taking work."""
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_helper, initargs=(niceness, tuple(warmers)),
    )


def _start_helper(niceness: int, warmers: tuple[Callable[[], object], ...]) -> None:
    """Exit once the bot is gone (a SIGKILLed bot cannot tell its helpers, which would
    otherwise wait for work forever)."""
    if niceness:
        os.nice(niceness)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    for warm in warmers:
        try:
            warm()
        except Exception:  # a helper that cannot warm up still works, only slower at first
            logging.getLogger(__name__).exception("warming a helper up failed")
