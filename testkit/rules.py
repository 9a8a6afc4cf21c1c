"""What every game's rule tests do alike: play actions in a row, and check a refusal (a
RuleError whose message is a sentence for a player, the state untouched)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import pytest
from pydantic import BaseModel

from engine.errors import RuleError

Opts = TypeVar("Opts", bound=BaseModel)
S = TypeVar("S", bound=BaseModel)
A = TypeVar("A")
E = TypeVar("E")


@dataclass
class RandomGame(Generic[Opts, S, A, E]):
    """One random game a property test plays, and what its checks look back on (each game's
    test adds its own records)."""

    options: Opts
    seed: int
    state: S
    events: list[E]
    log: list[A] = field(default_factory=list)


def play_in_turn(apply: Callable[[S, A], tuple[S, list[E]]], state: S, actions: Iterable[A]
                 ) -> tuple[S, list[E]]:
    """Apply `actions` in order; return the final state and every event."""
    events: list[E] = []
    for action in actions:
        state, new = apply(state, action)
        events += new
    return state, events


def refusal(apply: Callable[[S, A], object], state: S, action: A, match: str,
            leaks: Iterable[str], *, quoted_ok: bool = False) -> str:
    """Assert `action` raises RuleError containing `match`, in a sentence for a player
    (`reads_well`), and leaves `state` untouched; return the message."""
    before = state.model_dump()
    copy = state.model_copy(deep=True)
    with pytest.raises(RuleError) as info:
        apply(state, action)
    message = str(info.value)
    assert match in message, message
    reads_well(message, leaks, quoted_ok=quoted_ok)
    assert state.model_dump() == before
    assert state == copy
    return message


def reads_well(message: str, leaks: Iterable[str], *, quoted_ok: bool = False) -> None:
    """A refusal is a sentence for a player, not a Python repr: none of `leaks` in it
    (`quoted_ok`: a player's own words, quoted in 'single quotes', may hold them)."""
    assert message, "empty refusal"
    assert message[0].isupper() or message[0] == "'", message
    assert message.endswith("."), message
    checked = re.sub(r"'[^']*'", "", message) if quoted_ok else message
    for leak in leaks:
        assert leak not in checked, message
