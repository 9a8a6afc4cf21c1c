"""The legal queries of `legal`, answered from one seat's PlayerView instead of the GameState.

An AI must act on exactly what a human in its seat knows, so it cannot call `legal`'s
state-based queries; these mirror them using only public facts and the seat's own secrets.
"""

from __future__ import annotations

from typing import Literal

from engine.thirteen_clues import legal
from engine.thirteen_clues.cards import (
    Category,
    cards_in_play,
    in_subject,
)
from engine.thirteen_clues.state import Side
from engine.thirteen_clues.views import PlayerView

Duty = Literal["pass", "take", "act"]


def duty(view: PlayerView) -> Duty | None:
    """What the game waits on from this seat now, or None if it waits on someone else."""
    if view.phase == "passing":
        return "pass" if view.passed is None else None
    if view.phase != "turns" or view.turn != view.seat:
        return None
    if must_take(view):
        return "take"
    return "act" if can_act(view) else None


def uses_glasses(view: PlayerView) -> bool:
    return view.options.uses_glasses


def must_take(view: PlayerView) -> bool:
    """Mirror of GameState.awaiting_take for the seat whose turn it is."""
    return (
        view.phase == "turns"
        and uses_glasses(view)
        and view.turn == view.seat
        and view.seats[view.seat].glasses == 0
        and view.supply == 0
    )


def can_act(view: PlayerView) -> bool:
    if view.phase != "turns" or view.turn != view.seat:
        return False
    return not uses_glasses(view) or view.seats[view.seat].glasses > 0


def take_sources(view: PlayerView) -> list[int]:
    if not must_take(view):
        return []
    return [i for i, s in enumerate(view.seats) if i != view.seat and s.glasses > 0]


def sides(view: PlayerView) -> list[Side | None]:
    """The sides a question must name: both with two players, none otherwise."""
    return ["left", "right"] if view.options.players == 2 else [None]


def accusable_cards(view: PlayerView) -> dict[Category, list[str]]:
    return legal.accusable(view.options, view.sees())


def can_use_top_secret(view: PlayerView) -> bool:
    return view.options.top_secret and not view.seats[view.seat].top_secret_used


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
