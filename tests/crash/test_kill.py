"""The kill harness itself: a dead bot's objects stay dead, and nothing else is taken for one."""

from __future__ import annotations

import pytest

from tests.crash.kill import Crasher, Killed


class Session:
    """Stands for a connection or HTTP session: an object the crasher judges by identity."""


def test_a_buried_object_stays_dead() -> None:
    crasher = Crasher()
    dead = Session()
    crasher.bury(dead, None)
    with pytest.raises(Killed):
        crasher.check(dead)


def test_a_new_object_is_never_taken_for_a_buried_one() -> None:
    # CPython hands a freed object's address to the next one of its size: a crasher that
    # remembered only ids once killed the restarted bot's first request
    crasher = Crasher()
    crasher.bury(Session())
    for _ in range(1_000):
        crasher.check(Session())
