"""Why a card stands as it does in the Mansion notes: the few observations that prove it.

A card's verdict is the strongest thing the exact solver says about it: held by a seat, in
the solution, or not in the solution (else it is open). A chain is a small set of the
seat's observations (a suggestion, a snoop, a Super Sleuth, a tip it gave, the solution it
saw) which, with its own hand and the public hand sizes, proves the verdict alone: the
exact solver, given only those observations, reaches the same verdict (`proves`).
Dropping observations only widens the possible deals, so a verdict that holds with fewer
holds with all. `explain` looks for the shortest set it can find cheaply: none, then one,
then every observation less those it can drop one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.mansion.deduction import Deduction, solve
from engine.mansion.observations import (
    AllSnoopSeen,
    SleuthSeen,
    SnoopSeen,
    SuggestionSeen,
    TipSeen,
)
from engine.mansion.views import PlayerView

Verdict = Literal["mine", "held", "solution", "not_solution", "open"]
SOLUTION_SEEN = -1
"""The premise "the solution you saw" (the fugitive's choice, an accusation's answer)."""


@dataclass(frozen=True)
class Why:
    """A card's verdict and its chain: indices into the view's observations (or
    `SOLUTION_SEEN`)."""

    card: str
    verdict: Verdict
    holder: int | None = None
    """The seat holding it, for "held"."""
    premises: tuple[int, ...] = ()
    probability: float = 0.0
    """For an open card: its chance of being in the solution."""


def verdict(d: Deduction, card: str) -> tuple[Verdict, int | None]:
    """The strongest thing the counts say about `card`."""
    column = d.holders[card]
    for seat in range(d.players):
        if column[seat] == d.total:
            return ("mine" if seat == d.seat else "held"), seat
    if column[-1] == d.total:
        return "solution", None
    if column[-1] == 0:
        return "not_solution", None
    return "open", None


def explain(view: PlayerView, card: str, solved: Deduction | None = None) -> Why:
    """The verdict on `card` for `view.seat`, and the shortest chain found that proves it."""
    d = solved if solved is not None else solve(view)
    kind, holder = verdict(d, card)
    if kind in ("mine", "open"):
        return Why(card, kind, holder, probability=d.solution_probability(card))
    facts = informative(view)
    for premises in ((), *((f,) for f in facts)):
        if _holds(view, card, kind, holder, premises):
            return Why(card, kind, holder, premises)
    kept = list(facts)
    for fact in facts:
        trial = [f for f in kept if f != fact]
        if _holds(view, card, kind, holder, tuple(trial)):
            kept = trial
    return Why(card, kind, holder, tuple(kept))


def proves(view: PlayerView, why: Why) -> bool:
    """The solver alone, given only the chain, reaches its verdict."""
    if why.verdict == "open":
        return False
    return _holds(view, why.card, why.verdict, why.holder, why.premises)


def informative(view: PlayerView) -> list[int]:
    """The observations that say something about the deal, in the order they happened (the
    ones `facts.facts` reads), and the solution when the seat saw it."""
    out = [i for i, entry in enumerate(view.observations) if _informs(view, entry)]
    if view.solution is not None:
        out.append(SOLUTION_SEEN)
    return out


def restricted(view: PlayerView, premises: tuple[int, ...]) -> PlayerView:
    """The view with only these observations of those that inform (the rest stays)."""
    keep = set(premises)
    observations = [
        entry
        for i, entry in enumerate(view.observations)
        if i in keep or not _informs(view, entry)
    ]
    solution = view.solution if SOLUTION_SEEN in keep else None
    return view.model_copy(update={"observations": observations, "solution": solution})


def _informs(view: PlayerView, entry: object) -> bool:
    match entry:
        case SuggestionSeen() | SleuthSeen():
            return True
        case SnoopSeen() | AllSnoopSeen():
            return entry.card is not None
        case TipSeen():
            return entry.seat == view.seat and entry.cards is not None
        case _:
            return False


def _holds(
    view: PlayerView, card: str, kind: Verdict, holder: int | None, premises: tuple[int, ...]
) -> bool:
    d = solve(restricted(view, premises))
    return verdict(d, card) == (kind, holder)
