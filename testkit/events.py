"""Picking events of one kind out of a game's events, typed as that kind, so that a test's
reads of their fields are checked by mypy (every game's events are pydantic classes)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

E = TypeVar("E")


def of_type(events: Iterable[object], kind: type[E]) -> list[E]:
    """The events that are a `kind`, in order."""
    return [e for e in events if isinstance(e, kind)]
