"""Choosing the Person, Location and Weapon to put on the left neighbour's holder."""

from __future__ import annotations

import random

from engine.thirteen_clues.actions import ChoosePass
from engine.thirteen_clues.choices import best_passes, passes
from engine.thirteen_clues.views import PlayerView


def options(view: PlayerView) -> list[tuple[str, str, str]]:
    """Every legal pass, in a fixed order (dealt order), for reproducible choices."""
    return passes(view.dealt)


def choose_pass(view: PlayerView, careful: bool, rng: random.Random) -> ChoosePass:
    """One of `best_passes`, at random."""
    person, location, weapon = rng.choice(best_passes(view.dealt, careful))
    return ChoosePass(seat=view.seat, person=person, location=location, weapon=weapon)
