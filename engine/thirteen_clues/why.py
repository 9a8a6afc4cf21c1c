"""Why a casebook mark holds: the few facts the seat saw that prove it on their own.

A chain is what the seat sees (the other holders, its screen, the informant cards it read,
the suits out of play) plus a small set of premises: answers it knows and its own wrong
accusations. It proves its mark when the exact solver, given only those premises, reaches
the same mark (`proves`): dropping facts only widens the possible deals, so a mark that
holds with fewer facts holds with all of them. `explain` looks for the shortest such set
it can find cheaply: sight alone, then one fact, then every fact less those it can drop one
at a time. At the bookkeeping level only the marks pen and paper gives are explained: sight,
or one answer of 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.thirteen_clues.cards import cards_in_play, in_subject
from engine.thirteen_clues.deduction import Deduction, Status, bookkeeping, solve
from engine.thirteen_clues.state import Accusation, Question
from engine.thirteen_clues.views import PlayerView

Level = Literal["full", "bookkeeping"]
Sight = tuple[Literal["out_of_play", "holder", "screen", "informant"], str]
"""Where the seat sees the card: ("holder", seat), ("screen", ""), ("informant", letter),
or ("out_of_play", "")."""
Fact = Question | Accusation


@dataclass(frozen=True)
class Why:
    """One mark and its chain: seen, or proved by `premises` with the cards the seat sees."""

    card: str
    mark: Status
    sight: Sight | None = None
    premises: tuple[Fact, ...] = ()
    probability: float = 0.0
    """For a candidate: its chance of being on the holder (a mark needs no chain)."""


def explain(view: PlayerView, card: str, level: Level = "full",
            solved: Deduction | None = None) -> Why:
    """The mark of `card` for `view.seat` at this assist level, and why (`solved`: the
    view's own deduction, to save solving it again)."""
    if level == "bookkeeping":
        return _bookkeeping(view, card)
    return Chains(view, solved).explain(card)


class Chains:
    """The chains of many marks of one view, each set of premises solved once. Why: every
    chain tries the same sets first (sight alone, then each fact alone) and the same first
    drops, and a casebook picture explains each deduced card: one solve a set instead of
    one a set for each card (`bench.pictures`: the casebook's reasons were two thirds of its
    drawing)."""

    def __init__(self, view: PlayerView, solved: Deduction | None = None) -> None:
        self.view = view
        self.solved = solved if solved is not None else solve(view)
        self.facts = informative(view)
        self._solves: dict[tuple[int, ...], Deduction] = {}
        """Each premise set's deduction, by its facts' places in `facts`."""

    def explain(self, card: str) -> Why:
        """`explain` at the full level."""
        mark = self.solved.status(card)
        if mark == "candidate":
            return Why(card, mark, probability=self.solved.probability(card))
        sight = where(self.view, card)
        if sight is not None:
            return Why(card, mark, sight=sight)
        for premises in ((), *((i,) for i in range(len(self.facts)))):
            if self._holds(card, mark, premises):
                return Why(card, mark, premises=self._facts(premises))
        kept = tuple(range(len(self.facts)))
        for i in range(len(self.facts)):
            trial = tuple(k for k in kept if k != i)
            if self._holds(card, mark, trial):
                kept = trial
        return Why(card, mark, premises=self._facts(kept))

    def _holds(self, card: str, mark: Status, premises: tuple[int, ...]) -> bool:
        """Whether these premises alone reach the mark, each set solved once (its places
        ascend: `restricted` keeps the order)."""
        result = self._solves.get(premises)
        if result is None:
            result = self._solves[premises] = solve(restricted(self.view, self._facts(premises)))
        return _reaches(result, card, mark)

    def _facts(self, places: tuple[int, ...]) -> tuple[Fact, ...]:
        return tuple(self.facts[i] for i in places)


def proves(view: PlayerView, why: Why) -> bool:
    """The solver alone, given only the chain (sight and premises), reaches its mark."""
    if why.sight is not None:
        return why.sight == where(view, why.card) and why.mark == "ruled_out"
    if why.mark == "candidate":
        return False
    return _reaches(solve(restricted(view, why.premises)), why.card, why.mark)


def where(view: PlayerView, card: str) -> Sight | None:
    """Where the seat sees `card` (or knows it out of play), if it does."""
    if card not in cards_in_play(view.options.players):
        return ("out_of_play", "")
    if card in view.screen:
        return ("screen", "")
    for seat, cards in view.holders.items():
        if card in cards:
            return ("holder", str(seat))
    for letter, peeked in view.peeks.items():
        if peeked == card:
            return ("informant", letter)
    return None


def informative(view: PlayerView) -> list[Fact]:
    """The facts that can say something about the seat's holder: answers that count it (its
    own questions with two players; any witness but itself with more) and its wrong
    accusations, in the order they happened."""
    players, seat = view.options.players, view.seat
    known = [q for q in view.questions if not q.top_secret] + list(view.secret_questions)
    asked: list[Fact] = [
        q for q in known
        if (q.asker == seat if players == 2 else q.witness != seat)
    ]
    wrong: list[Fact] = [a for a in view.my_accusations if not a.correct]
    return asked + wrong


def restricted(view: PlayerView, premises: tuple[Fact, ...]) -> PlayerView:
    """The view with only these answers and accusations (everything seen stays)."""
    questions = [q for q in premises if isinstance(q, Question)]
    return view.model_copy(update={
        "questions": [q for q in questions if not q.top_secret],
        "secret_questions": [q for q in questions if q.top_secret],
        "my_accusations": [a for a in premises if isinstance(a, Accusation)],
    })


def visible_part(view: PlayerView, question: Question) -> int:
    """The part of an answer the seat sees itself (3-6 players): the subject's cards on the
    holders the witness counts, but for the seat's own."""
    if view.options.players == 2:
        return 0
    return sum(
        in_subject(card, question.subject)
        for seat, cards in view.holders.items()
        if seat != question.witness
        for card in cards
    )


def _reaches(result: Deduction, card: str, mark: Status) -> bool:
    """A deduction from some premises gives the card its mark (and those premises allow a
    deal at all)."""
    return result.total > 0 and result.status(card) == mark


def _bookkeeping(view: PlayerView, card: str) -> Why:
    """Pen and paper: seen, out of play, or an answer of 0 about a subject of the card."""
    if bookkeeping(view).get(card) != "ruled_out":
        return Why(card, "candidate")
    sight = where(view, card)
    if sight is not None:
        return Why(card, "ruled_out", sight=sight)
    zero = next(
        q for q in informative(view)
        if isinstance(q, Question) and q.answer == 0 and in_subject(card, q.subject)
    )
    return Why(card, "ruled_out", premises=(zero,))

