"""A bot process's garbage collector (`bot.collector`): full collections come ten times
rarer, and what start-up built is frozen out of every later collection (at 200 busy tables
full collections paused the event loop 118–870 ms each and set the first callback's p99)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

from bot import collector


@pytest.fixture
def restored() -> Iterator[None]:
    """The test process's collector as it was (these tests change it for the whole process)."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_full_collections_wait_for_more_younger_ones(restored: None) -> None:
    young, middle, _ = gc.get_threshold()
    collector.tune()
    assert gc.get_threshold() == (young, middle, collector.FULL_EVERY)
    assert collector.FULL_EVERY > 10  # CPython's default


def test_what_start_up_built_is_frozen_out_of_collections(restored: None) -> None:
    module = sys.modules["bot.collector"]
    assert any(o is module for o in gc.get_objects())  # walked by every full collection
    frozen = collector.settle()
    assert frozen == gc.get_freeze_count() > 0
    assert not any(o is module for o in gc.get_objects())  # never again
