"""Choosing the Person, Location and Weapon to put on the left neighbour's holder."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.thirteen_clues.actions import ChoosePass
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.views import PlayerView


def options(view: PlayerView) -> list[tuple[str, str, str]]:
    """Every legal pass, in a fixed order (dealt order), for reproducible choices."""
    return passes(view.dealt)


def passes(dealt: Sequence[str]) -> list[tuple[str, str, str]]:
    """Every legal pass from these five cards, in their order."""
    persons, locations, weapons = (
        [c for c in dealt if CARDS[c].category == cat] for cat in Category
    )
    return [(p, loc, w) for p in persons for loc in locations for w in weapons]


def _suits(triple: tuple[str, ...]) -> set[str]:
    return {CARDS[c].suit for c in triple}


def best_passes(dealt: Sequence[str], careful: bool) -> list[tuple[str, str, str]]:
    """The passes the AI chooses among (at random) from these five cards: never three cards
    of one suit when avoidable (the receiver's suit counts would jump by 3). `careful`: three
    different suits, and keep behind the screen the suit-mates of the passed cards, since
    the receiver cannot see the screen: those suits stay ambiguous (a suit answer could come
    from the holder or from a screen)."""
    best: list[tuple[str, str, str]] = []
    best_score = None
    for triple in passes(dealt):
        suits = _suits(triple)
        if careful:
            kept = [c for c in dealt if c not in triple]
            score = (len(suits), sum(CARDS[c].suit in suits for c in kept))
        else:
            score = (int(len(suits) > 1), 0)
        if best_score is None or score > best_score:
            best, best_score = [triple], score
        elif score == best_score:
            best.append(triple)
    return best


def choose_pass(view: PlayerView, careful: bool, rng: random.Random) -> ChoosePass:
    """One of `best_passes`, at random."""
    person, location, weapon = rng.choice(best_passes(view.dealt, careful))
    return ChoosePass(seat=view.seat, person=person, location=location, weapon=weapon)
