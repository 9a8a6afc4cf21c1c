"""The coach (Mansion): every play of a seat's Action cards, best first, from its view only.

Each legal play (every destination, suspect and vehicle of a Suggestion, the PRESENT card's
moves, every Snoop and Private Tip target, the All Snoop and Super Sleuth cards in hand) is
ranked by the expected number of possible solutions left once its outcome is known: the
possible solutions now less those the outcome removes at once (`outcomes.Board`: a card the
seat is shown removes every solution naming it; a suggestion nobody refutes pins the named
cards the seat does not hold). Exact enumeration of the outcomes of 400 plays over every
consistent deal is far too slow, so the outcome chances of Suggestions, Super Sleuths and
Private Tips are read off `SAMPLES` deals drawn uniformly from those consistent with the
view; a Snoop's are exact. The error this costs, against the brute-force figure
(`bruteforce.play_left`, every deal and every outcome the rules allow), is measured by
`python -m bench.coach --game mansion` and stated in docs/decisions.md. The sample is seeded
from the view, so the same view always gets the same advice.

The accusation is advised only once it is certain.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.mansion import actions as act
from engine.mansion import legal
from engine.mansion.deduction import solve_and_sample
from engine.mansion.facts import INDEX
from engine.mansion.outcomes import Board
from engine.mansion.views import PlayerView

Play = act.PlayAction
SAMPLES = 256
"""Deals drawn to estimate the outcome chances (see the module docstring)."""


@dataclass(frozen=True)
class Rated:
    """One play and the possible solutions expected to be left after it."""

    move: Play | act.Accuse
    left: float


@dataclass(frozen=True)
class Advice:
    """Every play open to the seat now, best first, and the accusation once certain.
    `solutions`: the possible solutions now."""

    seat: int
    solutions: int
    ranked: tuple[Rated, ...]
    accusation: act.Accuse | None

    def top(self, count: int = 3) -> tuple[Rated, ...]:
        return self.ranked[:count]

    def best(self) -> Rated | None:
        """The play the coach would make: the accusation once certain, else the top one."""
        if self.accusation is not None:
            return Rated(self.accusation, 1.0)
        return self.ranked[0] if self.ranked else None

    def rated(self, move: Play | act.Accuse) -> Rated | None:
        key = move_key(move)
        return next((r for r in self.ranked if move_key(r.move) == key), None)


def advise(view: PlayerView, samples: int = SAMPLES) -> Advice:
    """Rank every play `view.seat` may make now (none unless it is to play)."""
    rng = random.Random(f"coach:{view.seat}:{len(view.observations)}:{sorted(view.clues)}")
    d, deals = solve_and_sample(view, samples, rng)
    certain = d.certain()
    accusation = None
    if certain is not None and legal.can_accuse(view, view.seat):
        suspect, vehicle, destination = certain
        accusation = act.Accuse(
            seat=view.seat, suspect=suspect, vehicle=vehicle, destination=destination
        )
    board = Board(view, d, deals, pins=True)
    now = float(len(d.triples))
    rated = [Rated(play, now - _removed(board, view, play)) for play in plays(view)]
    rated.sort(key=lambda r: (round(r.left, 9), move_key(r.move)))
    return Advice(
        seat=view.seat, solutions=len(d.triples), ranked=tuple(rated), accusation=accusation
    )


def plays(view: PlayerView) -> list[Play]:
    """Every play of the seat's Action cards now, as the rules allow them."""
    out: list[Play] = []
    for action in legal.legal_actions(view, view.seat):
        if isinstance(action, Play):
            out.append(action)
    return out


def _removed(board: Board, view: PlayerView, play: Play) -> float:
    """Possible solutions the play's outcome is expected to remove at once."""
    match play:
        case act.SuggestAny():
            return board.suggestion(_named(play.suspect, play.vehicle, play.destination))
        case act.SuggestPresent():
            marker = view.seats[view.seat].marker
            return board.suggestion(_named(play.suspect, play.vehicle, marker))
        case act.Move():
            return 0.0
        case act.Snoop():
            return board.snoop(play.target)
        case act.AllSnoop():
            return board.all_snoop(play.card)
        case act.SuperSleuth():
            return board.sleuth(play.card)
        case act.PrivateTip():
            return board.tip(play.card, play.target)


def _named(suspect: str, vehicle: str, destination: str) -> tuple[int, int, int]:
    return INDEX[suspect], INDEX[vehicle], INDEX[destination]


def move_key(move: Play | act.Accuse) -> tuple[str, ...]:
    """A play's name, for comparing plays (as `bruteforce.play_left` names them)."""
    match move:
        case act.SuggestAny():
            return ("suggest_any", move.destination, move.suspect, move.vehicle)
        case act.SuggestPresent():
            return ("suggest_present", move.suspect, move.vehicle)
        case act.Move():
            return ("move", move.destination)
        case act.Snoop():
            return ("snoop", str(move.target))
        case act.AllSnoop():
            return ("all_snoop", move.card)
        case act.SuperSleuth():
            return ("super_sleuth", move.card)
        case act.PrivateTip():
            return ("private_tip", move.card, str(move.target))
        case act.Accuse():
            return ("accuse", move.suspect, move.vehicle, move.destination)
