"""The notes grid (`/mansion notes`): the 21 Clue cards by player and solution.

`notes(view, assist)` reads a seat's `PlayerView` only and fills the grid at the table's
assist level:

- `off`: a blank sheet the player fills in themselves, but for what is printed on it
  anyway: the seat's own hand (its own column complete), the cards it was shown, snooped or
  tipped (their holder known, so the rest of their row crossed out), and the solution if
  the seat has seen it (the fugitive, an accuser).
- `bookkeeping`: what a careful player writes down without reasoning about "one of these"
  answers: all of the above, plus every "X could not refute A, B, C" and "X showed nothing"
  crossed out, all-of-a-kind tips (the exact set of that kind), a hand whose every card is
  known holds nothing else, a card nobody can hold is in the solution, and the solution
  holds one card of each kind.
- `full`: exact. Every deduction that follows from what the seat observed (including "Cid
  showed Ann one of these three", exactly one / at least two, by suggestion and Super
  Sleuth), the probability of each card being in the solution, of each seat holding it,
  and of each possible solution, under the uniform model of `deduction.py` (every deal
  consistent with the seat's observations equally likely; in One Against All the
  fugitive's choice of solution is treated as uniform).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from engine.mansion.cards import CLUES
from engine.mansion.deduction import Deduction, solve
from engine.mansion.facts import ALL_CARDS, CARD_IDS, INDEX, KIND_MASKS, Facts, facts
from engine.mansion.observations import DealtSeen
from engine.mansion.records import Triple
from engine.mansion.views import PlayerView

Assist = Literal["off", "bookkeeping", "full"]
Mark = Literal["held", "not_held", "unknown"]
TOP = 10
"""Possible solutions listed at `full`, likeliest first."""


class CardNotes(BaseModel):
    """One row of the grid."""

    card: str
    kind: str
    marks: list[Mark]
    """One mark per seat, in seat order."""
    solution: Mark
    """The "solution" column."""
    solution_probability: float | None = None
    """`full` only: P(this card is in the solution)."""
    holder_probabilities: list[float] | None = None
    """`full` only: P(each seat holds this card), in seat order."""
    deduced: bool = False
    """`full` only: its verdict (who holds it, or whether it is in the solution) was worked
    out, not seen: the seat neither holds it nor was shown, snooped or tipped it, nor saw
    the solution (`/mansion notes why` gives the chain)."""


class SolutionOdds(BaseModel):
    solution: Triple
    probability: float


class Notes(BaseModel):
    """A seat's notes grid, JSON-friendly."""

    seat: int
    assist: Assist
    players: int
    cards: list[CardNotes]
    """The 21 cards in table order: suspects, vehicles, destinations."""
    possible: int | None = None
    """`full` only: how many solutions are still possible."""
    solutions: list[SolutionOdds] = []
    """`full` only: the likeliest possible solutions (at most `TOP`), with probabilities."""
    solved: Triple | None = None
    """The solution, when this level of notes makes it certain."""

    def row(self, card: str) -> CardNotes:
        return self.cards[INDEX[card]]


def notes(view: PlayerView, assist: Assist) -> Notes:
    """The notes grid for `view.seat` at the given assist level (module docstring).

    Before the deal (One Against All, while the fugitive chooses) every cell is unknown."""
    if not dealt(view):
        n = len(view.seats)
        return _from_sheet(view, assist, Sheet(held=[0] * (n + 1), none=[0] * (n + 1)))
    if assist == "full":
        return _full(view, solve(view))
    sheet = bookkeeping(view) if assist == "bookkeeping" else blank(view)
    return _from_sheet(view, assist, sheet)


def dealt(view: PlayerView) -> bool:
    """The Clue cards of this game have been dealt (not yet in One Against All while the
    fugitive chooses the solution)."""
    return any(isinstance(entry, DealtSeen) for entry in view.observations)


def notes_from(view: PlayerView, deduction: Deduction) -> Notes:
    """`full` notes from an already computed deduction (the AI computes it anyway)."""
    return _full(view, deduction)


# --- the pen-and-paper levels -------------------------------------------------------------


@dataclass
class Sheet:
    """Marks as bitmasks over `CARD_IDS`: per column (each seat, then the solution) the cards
    known held there and the cards known not held there."""

    held: list[int]
    none: list[int]

    @property
    def solution(self) -> int:
        return self.held[-1]

    def solved(self) -> Triple | None:
        cards = [c for c in CARD_IDS if self.solution >> INDEX[c] & 1]
        if len(cards) != 3:
            return None
        return Triple(suspect=cards[0], vehicle=cards[1], destination=cards[2])

    def possible(self, kind: int) -> list[str]:
        """Cards of kind index `kind` (0 suspect, 1 vehicle, 2 destination) not crossed out
        of the solution column."""
        mask = KIND_MASKS[kind] & ~self.none[-1]
        return [c for c in CARD_IDS if mask >> INDEX[c] & 1]


def blank(view: PlayerView) -> Sheet:
    """`off`: the own hand, the cards whose holder the seat saw, the solution if seen."""
    f = facts(view)
    n = f.players
    held = [*f.held, 0]
    none = [0] * (n + 1)
    none[f.seat] = ALL_CARDS & ~f.held[f.seat]
    if f.solution is not None:
        held[n] = sum(1 << INDEX[c] for c in f.solution.cards())
    _rows(held, none)
    return Sheet(held=held, none=none)


def bookkeeping(view: PlayerView) -> Sheet:
    """`bookkeeping`: the direct marks only (module docstring), to a fixed point."""
    return bookkeeping_facts(facts(view))


def bookkeeping_facts(f: Facts) -> Sheet:
    n = f.players
    held = [*f.held, 0]
    none = [*f.none, 0]
    if f.solution is not None:
        held[n] = sum(1 << INDEX[c] for c in f.solution.cards())
    while True:
        before = (list(held), list(none))
        _rows(held, none)
        for seat in range(n):
            if bin(held[seat]).count("1") == f.sizes[seat]:
                none[seat] |= ALL_CARDS & ~held[seat]
        everywhere = ALL_CARDS
        for seat in range(n):
            everywhere &= none[seat]
        held[n] |= everywhere
        for kind in KIND_MASKS:
            if held[n] & kind:
                none[n] |= kind & ~held[n]
            left = kind & ~none[n]
            if bin(left).count("1") == 1:
                held[n] |= left
        if (held, none) == before:
            return Sheet(held=held, none=none)


def _rows(held: list[int], none: list[int]) -> None:
    """A card held in one column is not held in any other."""
    for col, mask in enumerate(held):
        for other in range(len(held)):
            if other != col:
                none[other] |= mask


def _mark(held: int, none: int, card: int) -> Mark:
    if held >> card & 1:
        return "held"
    if none >> card & 1:
        return "not_held"
    return "unknown"


def _from_sheet(view: PlayerView, assist: Assist, sheet: Sheet) -> Notes:
    n = len(view.seats)
    rows = []
    for i, card in enumerate(CARD_IDS):
        rows.append(
            CardNotes(
                card=card,
                kind=CLUES[card].kind.value,
                marks=[_mark(sheet.held[s], sheet.none[s], i) for s in range(n)],
                solution=_mark(sheet.held[n], sheet.none[n], i),
            )
        )
    return Notes(seat=view.seat, assist=assist, players=n, cards=rows, solved=sheet.solved())


# --- full ---------------------------------------------------------------------------------


def _exact_mark(count: int, total: int) -> Mark:
    if count == total:
        return "held"
    return "not_held" if count == 0 else "unknown"


def _deduced(card: str, marks: list[Mark], solution: Mark, seen: set[str],
             saw_solution: bool) -> bool:
    """A settled verdict on `card` that sight alone does not give (see `CardNotes`)."""
    if card in seen:
        return False
    if "held" in marks:
        return True
    return solution != "unknown" and not saw_solution


def _full(view: PlayerView, d: Deduction) -> Notes:
    n = d.players
    total = d.total
    seen = set(view.known_holders())
    rows = []
    for card in CARD_IDS:
        counts = d.holders[card]
        marks = [_exact_mark(counts[s], total) for s in range(n)]
        solution = _exact_mark(counts[n], total)
        rows.append(
            CardNotes(
                card=card,
                kind=CLUES[card].kind.value,
                marks=marks,
                solution=solution,
                solution_probability=counts[n] / total,
                holder_probabilities=[counts[s] / total for s in range(n)],
                deduced=_deduced(card, marks, solution, seen, view.solution is not None),
            )
        )
    top = [
        SolutionOdds(
            solution=Triple(suspect=s, vehicle=v, destination=dst),
            probability=d.triples[(s, v, dst)] / total,
        )
        for s, v, dst in d.candidates()[:TOP]
    ]
    certain = d.certain()
    return Notes(
        seat=view.seat,
        assist="full",
        players=n,
        cards=rows,
        possible=len(d.triples),
        solutions=top,
        solved=Triple(suspect=certain[0], vehicle=certain[1], destination=certain[2])
        if certain
        else None,
    )
