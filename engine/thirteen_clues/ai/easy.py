"""The easy detective: legal moves, literal-zero bookkeeping, random questions.

It guesses now and then, once the game drags on it guesses on most actions, and if it
drags on twice as long it finally does its sums (residual bookkeeping), so an all-easy
table always ends (each wrong guess is struck from its list)."""

from __future__ import annotations

import random

from engine.thirteen_clues import legal
from engine.thirteen_clues.actions import Accuse, Action, Ask, Consult
from engine.thirteen_clues.ai import knowledge
from engine.thirteen_clues.views import PlayerView

GUESS_CHANCE = 0.03
"""Chance of a wild accusation on any action before the game drags on."""
PATIENCE_ROUNDS = 6
"""After this many rounds, the easy detective accuses with chance LATE_GUESS per action."""
LATE_GUESS = 0.5
CONSULT_CHANCE = 0.2


def act(view: PlayerView, rng: random.Random) -> Action:
    late = view.turn_number > PATIENCE_ROUNDS * view.options.players
    desperate = view.turn_number > 2 * PATIENCE_ROUNDS * view.options.players
    notes = knowledge.notes(view, "residual" if desperate else "zero")
    guess = rng.random()
    if len(notes.triples) == 1 or guess < GUESS_CHANCE or (late and guess < LATE_GUESS):
        person, location, weapon = rng.choice(notes.triples)
        return Accuse(seat=view.seat, person=person, location=location, weapon=weapon)
    if view.letters and rng.random() < CONSULT_CHANCE:
        return Consult(seat=view.seat, letter=rng.choice(view.letters))
    return Ask(
        seat=view.seat,
        witness=rng.choice(legal.witnesses(view, view.seat)),
        subject=rng.choice(legal.question_subjects(view)),
        side=rng.choice(legal.sides(view)),
    )
