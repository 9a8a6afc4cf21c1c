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

And discord.py builds reference cycles around every interaction (the interaction and its
response, a view and its items), which only a collection frees: in a bot at 200 busy tables
some 2,800 objects a second, most of them outliving the two younger generations while their
interaction is handled, so that each full collection had tens of thousands of them to free as
well (72–235 ms). The `unlink_*` functions cut those cycles once the objects are done with,
and reference counting frees them at once.
"""

from __future__ import annotations

import contextlib
import gc

import discord

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


def unlink_view(view: discord.ui.View) -> None:
    """A view and its items point at each other: once its components are rendered, or its
    click handled, emptying it lets reference counting free both at once."""
    view.clear_items()


def unlink_interaction(interaction: discord.Interaction) -> None:
    """Once an interaction is handled: drop the response discord.py cached on it, which points
    back at it, so the interaction with its message, member and components is freed when its
    task ends. Nothing may answer through it afterwards: a later `interaction.response` would
    be a new object that does not know the interaction was answered."""
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")  # discord.py's cache slot for `.response`
