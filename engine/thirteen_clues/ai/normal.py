"""The normal detective: notepad bookkeeping and questions that split its candidates.

It keeps the candidate triples a careful human could (visible cards, peeks, residual
answers, per-subject upper bounds), asks the unasked question whose answer would split
those candidates most evenly, consults unseen informants now and then, and accuses when a
single triple is left (or two, with its last glass; or, if stuck or the game drags on, a
guess among those left)."""

from __future__ import annotations

import math
import random
from collections import Counter

from engine.thirteen_clues import legal
from engine.thirteen_clues.actions import Accuse, Action, Ask, Consult
from engine.thirteen_clues.ai import knowledge
from engine.thirteen_clues.cards import in_subject
from engine.thirteen_clues.state import Side
from engine.thirteen_clues.views import PlayerView

CONSULT_CHANCE = 0.3
CLOSE_CALL = 2
"""With this few triples left, gamble on one with the turn's last glass (a wrong guess
then costs a single action and strikes a triple)."""
PATIENCE_ROUNDS = 12
"""After this many rounds, guess among the remaining triples at the end of each turn."""


def _split(triples: list[knowledge.Triple], subject: str) -> float:
    """Entropy (bits) of how many cards of `subject` the candidate triples hold."""
    counts = Counter(sum(in_subject(c, subject) for c in t) for t in triples)
    n = len(triples)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


def act(view: PlayerView, rng: random.Random) -> Action:
    notes = knowledge.notes(view, "residual")
    triples = notes.triples
    if len(triples) == 1:
        return _accuse(view, triples[0])
    last_glass = not view.options.uses_glasses or view.seats[view.seat].glasses == 1
    late = view.turn_number > PATIENCE_ROUNDS * view.options.players
    unpeeked = [x for x in view.letters if x not in view.peeks]
    if unpeeked and rng.random() < CONSULT_CHANCE:
        return Consult(seat=view.seat, letter=rng.choice(unpeeked))
    known = knowledge.asked(notes.clues)
    best: list[tuple[int, str, Side | None]] = []
    best_score = 0.0
    for subject in legal.question_subjects(view):
        score = _split(triples, subject)
        if score <= 1e-9 or score < best_score - 1e-9:
            continue
        for witness in legal.witnesses(view, view.seat):
            for side in legal.sides(view):
                if (witness, subject, side) in known:
                    continue
                if score > best_score + 1e-9:
                    best, best_score = [], score
                best.append((witness, subject, side))
    if last_glass and (late or len(triples) <= CLOSE_CALL):
        return _accuse(view, rng.choice(triples))
    if best:
        witness, subject, side = rng.choice(best)
        return Ask(seat=view.seat, witness=witness, subject=subject, side=side)
    if unpeeked:
        return Consult(seat=view.seat, letter=rng.choice(unpeeked))
    return _accuse(view, rng.choice(triples))


def _accuse(view: PlayerView, triple: knowledge.Triple) -> Accuse:
    person, location, weapon = triple
    return Accuse(seat=view.seat, person=person, location=location, weapon=weapon)
