"""Choosing the Person, Location and Weapon to put on the left neighbour's holder."""

from __future__ import annotations

import random

from engine.thirteen_clues.actions import ChoosePass
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.views import PlayerView


def options(view: PlayerView) -> list[tuple[str, str, str]]:
    """Every legal pass, in a fixed order (dealt order), for reproducible choices."""
    persons, locations, weapons = (
        [c for c in view.dealt if CARDS[c].category == cat] for cat in Category
    )
    return [(p, loc, w) for p in persons for loc in locations for w in weapons]


def _suits(triple: tuple[str, ...]) -> set[str]:
    return {CARDS[c].suit for c in triple}


def choose_pass(view: PlayerView, careful: bool, rng: random.Random) -> ChoosePass:
    """Never three cards of one suit when avoidable (the receiver's suit counts would jump
    by 3). `careful`: three different suits, and keep behind the screen the suit-mates of
    the passed cards, since the receiver cannot see the screen: those suits stay ambiguous
    (a suit answer could come from the holder or from a screen)."""
    legal = options(view)
    best: list[tuple[str, str, str]] = []
    best_score = None
    for triple in legal:
        suits = _suits(triple)
        if careful:
            kept = [c for c in view.dealt if c not in triple]
            score = (len(suits), sum(CARDS[c].suit in suits for c in kept))
        else:
            score = (int(len(suits) > 1), 0)
        if best_score is None or score > best_score:
            best, best_score = [triple], score
        elif score == best_score:
            best.append(triple)
    person, location, weapon = rng.choice(best)
    return ChoosePass(seat=view.seat, person=person, location=location, weapon=weapon)
