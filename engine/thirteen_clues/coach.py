"""The coach: a seat's best next move, from what that seat alone knows.

Every legal question (witness, subject[, side]) and every Secret Informant letter is ranked
by the expected number of possible mysteries (holder triples the seat cannot yet rule out)
left once the answer is known, over the answer distribution under the possible deals the
exact solver counts (`answers`, on `deduction.slot_joint`). This is exact, never sampled:
at six players ranking takes tens of milliseconds at p99 (`python -m bench.coach`). Each
move also carries its expected information in bits, the expert's figure, which breaks ties.
The accusation is advised only once it is certain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.thirteen_clues import deduction
from engine.thirteen_clues.actions import Accuse, Ask, Consult
from engine.thirteen_clues.answers import (
    Spread,
    consult_spreads,
    expected_left,
    information,
    question_spreads,
)
from engine.thirteen_clues.deduction import Deduction, Triple
from engine.thirteen_clues.views import PlayerView

Move = Ask | Consult | Accuse


@dataclass(frozen=True)
class Rated:
    """One move with its figures: possible mysteries expected after it, and bits learned."""

    move: Move
    left: float
    bits: float


@dataclass(frozen=True)
class Advice:
    """Every question and informant look of a seat, best first, and the accusation once
    certain. `mysteries`: the possible mysteries now."""

    seat: int
    mysteries: int
    ranked: tuple[Rated, ...]
    accusation: Accuse | None

    def top(self, count: int = 3) -> tuple[Rated, ...]:
        return self.ranked[:count]

    def best(self) -> Rated | None:
        """The move the coach would play: the accusation once certain, else the top one."""
        if self.accusation is not None:
            return Rated(self.accusation, 1.0, 0.0)
        return self.ranked[0] if self.ranked else None

    def rated(self, move: Move) -> Rated | None:
        """The figures of `move` (a question's Top Secret flag does not change them)."""
        key = move_key(move)
        return next((r for r in self.ranked if move_key(r.move) == key), None)


def advise(view: PlayerView, solved: Deduction | None = None) -> Advice:
    """Rank every question and informant letter for `view.seat`. Needs every card holder
    filled (as `deduction.solve`); `solved` saves solving the view again."""
    result = solved if solved is not None else deduction.solve(view)
    certain = result.certain()
    joint = deduction.slot_joint(view, solved=result)
    rated: list[Rated] = []
    for (witness, subject, side), spread in question_spreads(view, joint).items():
        ask = Ask(seat=view.seat, witness=witness, subject=subject, side=side)
        rated.append(_rate(ask, spread, len(result.triples)))
    for letter, spread in consult_spreads(view, joint).items():
        rated.append(_rate(Consult(seat=view.seat, letter=letter), spread, len(result.triples)))
    rated.sort(key=lambda r: (round(r.left, 9), -round(r.bits, 9), move_key(r.move)))
    return Advice(
        seat=view.seat,
        mysteries=len(result.triples),
        ranked=tuple(rated),
        accusation=_accuse(view.seat, certain) if certain is not None else None,
    )


def accusation_figures(result: Deduction, triple: Triple) -> Rated:
    """An accusation's figures: right, one mystery (the game is won); wrong, the others stay."""
    p = result.triple_probability(triple)
    others = len(result.triples) - (1 if triple in result.triples else 0)
    left = p * 1 + (1 - p) * others
    bits = _binary_entropy(p)
    return Rated(_accuse(result.seat, triple), left, bits)


def _rate(move: Move, spread: Spread, mysteries: int) -> Rated:
    if not spread:  # a letter already read, or nothing possible: the answer is known
        return Rated(move, float(mysteries), 0.0)
    return Rated(move, expected_left(spread), information(spread))


def _binary_entropy(p: float) -> float:
    if p <= 0 or p >= 1:
        return 0.0
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


def _accuse(seat: int, triple: Triple) -> Accuse:
    person, location, weapon = triple
    return Accuse(seat=seat, person=person, location=location, weapon=weapon)


def move_key(move: Move) -> tuple[str, ...]:
    """A move's name, for comparing moves (as `bruteforce.move_left` names them): the Top
    Secret flag of a question is left out."""
    match move:
        case Ask():
            return ("ask", str(move.witness), move.subject, move.side or "")
        case Consult():
            return ("consult", move.letter)
        case Accuse():
            return ("accuse", *sorted((move.person, move.location, move.weapon)))

