"""A deterministic function's results kept by the content of its arguments, for tests that
ask the same costly engine result more than once (the same game in another language; the
review an audit checks, which the bot under audit worked out already)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, ParamSpec, Protocol, TypeVar

from pydantic import BaseModel

from bot.reviews import Reviewer

P = ParamSpec("P")
R = TypeVar("R")


class Once(Generic[P, R]):
    """A deterministic engine function's results kept by the JSON of its arguments (models
    dumped, the rest as written): equal arguments, the very result the function gives."""

    def __init__(self, call: Callable[P, R]) -> None:
        self.call, self.kept = call, dict[str, R]()

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key = repr([a.model_dump_json() if isinstance(a, BaseModel) else repr(a)
                    for a in (*args, *sorted(kwargs.items()))])
        if key not in self.kept:
            self.kept[key] = self.call(*args, **kwargs)
        return self.kept[key]


class Reviewing(Protocol):
    """A game's `bot.<game>.reviewing` module, as far as `reviews_once` reads it."""

    REVIEWER: Reviewer[Any, Any]


@contextmanager
def reviews_once(reviewing: Reviewing) -> Iterator[None]:
    """While open, a game's `REVIEWER` (in its `bot.<game>.reviewing` module, which its
    review letters read) works each review out once: the bot under audit and the audit's
    own check of what it sent ask the same review of the same finished state (seconds of
    solving a table)."""
    reviewer = reviewing.REVIEWER
    reviewing.REVIEWER = dataclasses.replace(reviewer, review=Once(reviewer.review))
    try:
        yield
    finally:
        reviewing.REVIEWER = reviewer
