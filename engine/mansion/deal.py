"""Setup steps 2–5 of the rules reference: solution, Clue cards, Action cards, markers."""

from __future__ import annotations

import random

from engine.audience import Audience
from engine.mansion.cards import ACTION_DECK, BY_KIND, CLUES, DESTINATIONS, Kind
from engine.mansion.events import Event, HandDealt, TableDealt
from engine.mansion.records import Dealt, Triple
from engine.mansion.state import GameState


def random_solution(rng: random.Random) -> Triple:
    """Each Clue type shuffled apart, one of each taken unseen."""
    suspect, vehicle, destination = (rng.choice(BY_KIND[kind]) for kind in Kind)
    return Triple(suspect=suspect, vehicle=vehicle, destination=destination)


def deal(state: GameState, rng: random.Random, first: int) -> list[Event]:
    """Deal everything but the solution (already in `state.solution`).

    The other 18 Clue cards go one at a time from the dealer's left to every seat (the
    fugitive included), one Action card to each detective, one random marker to each seat.
    """
    assert state.solution is not None
    n = state.players
    order = [(state.dealer + k) % n for k in range(1, n + 1)]
    rest = [c for c in CLUES if c not in state.solution.cards()]
    rng.shuffle(rest)
    for i, card in enumerate(rest):
        state.seats[order[i % n]].clues.append(card)
    deck = list(ACTION_DECK)
    rng.shuffle(deck)
    for seat in order:
        if state.is_detective(seat):
            state.seats[seat].actions.append(deck.pop())
    state.draw = deck
    markers = list(DESTINATIONS)
    rng.shuffle(markers)
    for seat in order:
        state.seats[seat].marker = markers.pop()
    state.tray = sorted(markers, key=DESTINATIONS.index)
    state.log.append(
        Dealt(
            markers=[s.marker for s in state.seats],
            tray=list(state.tray),
            clue_counts=[len(s.clues) for s in state.seats],
            first=first,
            actions=[list(s.actions) for s in state.seats],
        )
    )
    events: list[Event] = [
        HandDealt(audience=Audience.to(i), seat=i, clues=list(s.clues), actions=list(s.actions))
        for i, s in enumerate(state.seats)
    ]
    events.append(
        TableDealt(
            audience=Audience.public(),
            markers=[s.marker for s in state.seats],
            tray=list(state.tray),
            clue_counts=[len(s.clues) for s in state.seats],
            action_counts=[len(s.actions) for s in state.seats],
            draw_size=len(state.draw),
        )
    )
    return events


def first_player(state: GameState) -> int:
    """The dealer plays first; a fugitive dealer (who takes no turns) passes it left."""
    seat = state.dealer
    while not state.is_detective(seat):
        seat = state.left_of(seat)
    return seat
