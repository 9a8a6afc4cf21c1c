"""Pen-and-paper bookkeeping for the easy and normal detectives (no exact solver).

This is what a careful human tracks on the notepad: the 13 unknown cards, the clues the
answers give about the seat's own holder, and the triples it already accused wrongly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.thirteen_clues.cards import CARDS, Category, cards_in_play, in_subject
from engine.thirteen_clues.state import Side
from engine.thirteen_clues.views import PlayerView

Triple = tuple[str, str, str]
Depth = Literal["zero", "residual"]


@dataclass(frozen=True)
class Clue:
    """`residual` = cards of `subject` on this seat's holder plus behind the witness's screen
    (with two players: plus the one named screen card)."""

    witness: int
    subject: str
    side: Side | None
    answer: int
    residual: int


def unknown_cards(view: PlayerView) -> list[str]:
    """The 13 cards this seat cannot see (own holder, other screens, informants), in deck
    order, less the informant cards it has peeked at."""
    known = set(view.dealt) | view.known()
    return [c for c in cards_in_play(view.options.players) if c not in known]


def visible_count(view: PlayerView, witness: int, subject: str) -> int:
    """The part of `witness`'s answer this seat can already see (3+ players): every holder
    but the witness's and this seat's own. With two players the answer has no visible part."""
    if view.options.players == 2:
        return 0
    return sum(
        in_subject(card, subject)
        for seat, holder in view.holders.items()
        if seat != witness
        for card in holder
    )


def clues(view: PlayerView) -> list[Clue]:
    """Every answer that says something about this seat's holder."""
    asked = [q for q in view.questions if q.subject] + [
        q for q in view.secret_questions if q.asker == view.seat
    ]
    found: list[Clue] = []
    for q in asked:
        if q.witness == view.seat:
            continue  # the seat sees all the witness counted but its own holder: nothing new
        if view.options.players == 2 and q.asker != view.seat:
            continue
        residual = q.answer - visible_count(view, q.witness, q.subject)
        found.append(Clue(q.witness, q.subject, q.side, q.answer, residual))
    return found


def asked(found: list[Clue]) -> set[tuple[int, str, Side | None]]:
    """Questions whose answer is already known: answers are fixed, asking again tells nothing."""
    return {(c.witness, c.subject, c.side) for c in found}


def wrong_accusations(view: PlayerView) -> set[frozenset[str]]:
    return {frozenset(a.cards) for a in view.my_accusations if not a.correct}


@dataclass(frozen=True)
class Notes:
    candidates: dict[Category, list[str]]
    triples: list[Triple]
    clues: list[Clue]


def notes(view: PlayerView, depth: Depth) -> Notes:
    """Candidate cards per category and candidate triples.

    "zero": rule out a subject only when an answer was literally 0 (the rulebook's hint).
    "residual": subtract the visible part of each answer; a zero residual rules the subject
    out, and each residual bounds the triple's cards of that subject (see `_fits`).
    """
    found = clues(view)
    unknown = unknown_cards(view)
    if depth == "zero":
        dead = {c.subject for c in found if c.answer == 0}
    else:
        dead = {c.subject for c in found if c.residual == 0}
    cands = {
        cat: [
            c
            for c in unknown
            if CARDS[c].category == cat and not any(in_subject(c, s) for s in dead)
        ]
        for cat in Category
    }
    wrong = wrong_accusations(view)
    every = _product(cands)
    triples = [t for t in every if frozenset(t) not in wrong]
    if depth == "residual":
        cap = 1 if view.options.players == 2 else 2
        triples = [t for t in triples if all(_fits(t, c, unknown, cap) for c in found)]
    if not triples:  # a stale bound should never leave the seat without a guess
        triples = [t for t in every if frozenset(t) not in wrong] or every
    return Notes(cands, triples, found)


def _product(cands: dict[Category, list[str]]) -> list[Triple]:
    """Every (person, location, weapon) of the candidates, in candidate order."""
    return [
        (p, loc, w)
        for p in cands[Category.PERSON]
        for loc in cands[Category.LOCATION]
        for w in cands[Category.WEAPON]
    ]


def _fits(triple: Triple, clue: Clue, unknown: list[str], cap: int) -> bool:
    """The holder part of a residual is at most the residual, and at least what the screen
    part (`cap` cards, drawn from the other unknown cards of the subject) cannot cover."""
    on_holder = sum(in_subject(c, clue.subject) for c in triple)
    spare = sum(in_subject(c, clue.subject) for c in unknown if c not in triple)
    return clue.residual - min(cap, spare) <= on_holder <= clue.residual
