"""The easy detective: pen-and-paper bookkeeping only, random legal plays.

It plays a random kind of Action card (as an idle player would), naming in a suggestion
cards its bookkeeping has not crossed out of the solution when it can, and accuses only
when its bookkeeping is certain of the solution."""

from __future__ import annotations

import random

from engine.mansion import legal
from engine.mansion.actions import Accuse, Action, EndTurn, SuggestAny, SuggestPresent
from engine.mansion.notes import Sheet, bookkeeping
from engine.mansion.views import PlayerView


def accusation(view: PlayerView, sheet: Sheet) -> Accuse | None:
    solved = sheet.solved()
    if solved is None:
        return None
    return Accuse(seat=view.seat, **solved.model_dump())


def play(view: PlayerView, rng: random.Random) -> Action:
    sheet = bookkeeping(view)
    accuse = accusation(view, sheet)
    if accuse is not None:
        return accuse
    action = legal.idle_action(view, view.seat, rng)
    assert action is not None
    suspects, vehicles, destinations = (sheet.possible(k) for k in range(3))
    match action:
        case SuggestAny():
            return SuggestAny(
                seat=view.seat,
                destination=rng.choice(destinations or [action.destination]),
                suspect=rng.choice(suspects or [action.suspect]),
                vehicle=rng.choice(vehicles or [action.vehicle]),
            )
        case SuggestPresent():
            return SuggestPresent(
                seat=view.seat,
                suspect=rng.choice(suspects or [action.suspect]),
                vehicle=rng.choice(vehicles or [action.vehicle]),
            )
    return action


def accuse_or_end(view: PlayerView, rng: random.Random) -> Action:
    return accusation(view, bookkeeping(view)) or EndTurn(seat=view.seat)
