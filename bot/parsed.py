"""Parsed game states, kept by their stored JSON: a table's state is parsed once, not at every
click, command and timer that reads it (`bench.load` at 200 tables: parsing stored states
was 3.5-5 % of the bot's CPU, issue 19).

Keyed by the JSON itself, so a copy is never out of date (another process's write is another
key) and nothing needs dropping. The state handed out is shared by everyone who reads that
JSON: nobody may change it. The engine never does (`apply` works on a fork of its input) and
the shell only reads; `CHECKED`, set for the whole test suite (tests/conftest.py), verifies
at every hit that the shared state still dumps to its key, so a change that mutates a
shared state fails the tests instead of corrupting a table.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

from pydantic import BaseModel

S = TypeVar("S", bound=BaseModel)

SIZE = 256
"""States kept per game (the busiest tables'): a few tens of KB of objects each."""
CHECKED = False
"""Verify at each hit that the shared state was not changed (tests; costs a dump a hit)."""


class MutatedState(AssertionError):
    """A shared parsed state was changed by whoever read it."""


class ParsedStates(Generic[S]):
    def __init__(self, model: type[S], size: int = SIZE) -> None:
        self.model = model
        self.size = size
        self._by_json: OrderedDict[str, S] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def load(self, raw: str) -> S:
        """The state this JSON holds, shared: read it, never change it."""
        state = self._by_json.get(raw)
        if state is None:
            self.misses += 1
            state = self.model.model_validate_json(raw)
            self._keep(raw, state)
            return state
        self.hits += 1
        self._by_json.move_to_end(raw)
        if CHECKED and state.model_dump_json() != raw:
            raise MutatedState(f"a shared {self.model.__name__} was changed after it was parsed")
        return state

    def dump(self, state: S) -> str:
        """The state's JSON; the state is kept under it (the next read of what a change
        stored needs no parse), so from here on it is shared and must not change."""
        raw = state.model_dump_json()
        self._keep(raw, state)
        return raw

    def _keep(self, raw: str, state: S) -> None:
        self._by_json[raw] = state
        self._by_json.move_to_end(raw)
        while len(self._by_json) > self.size:
            self._by_json.popitem(last=False)


_BY_MODEL: dict[type[BaseModel], ParsedStates[BaseModel]] = {}


def parsed_states(model: type[S]) -> ParsedStates[S]:
    """The process's parsed states of one game's state model (kept apart from the game
    object, which is pickled with every AI move sent to the thinkers' pool)."""
    states = _BY_MODEL.get(model)
    if states is None:
        states = _BY_MODEL[model] = ParsedStates(model)
    return states  # type: ignore[return-value]
