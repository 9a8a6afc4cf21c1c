"""The review after the game: a seat's moves against the coach's, replayed from the record.

Every position is rebuilt from the finished state and its record of play (`played`): the
lists of questions, consultations and accusations cut where the move happened, and seen
through `player_view`, so the review knows at each moment exactly what the seat knew then.
It is only for a finished game (it names the seat's own mystery, which the reveal shows
too) and is a pure function of the stored state: kept with the game, it can be read again.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import RuleError
from engine.thirteen_clues.actions import Accuse, Ask, Consult
from engine.thirteen_clues.coach import Move, Rated, accusation_figures, advise
from engine.thirteen_clues.deduction import Triple, as_triple, solve
from engine.thirteen_clues.state import LETTERS, GameState, Played
from engine.thirteen_clues.views import PlayerView, player_view


@dataclass(frozen=True)
class Step:
    """One move of the seat: what it played and what the coach would have, with figures."""

    turn: int
    mysteries: int
    """Possible mysteries just before the move."""
    played: Rated
    best: Rated


@dataclass(frozen=True)
class Moment:
    """When a card of the seat's mystery became certain: after the record's `after`-th
    action (0: from the start of play), which was `by`'s `kind` on turn `turn`."""

    after: int
    turn: int
    by: int | None
    kind: str


@dataclass(frozen=True)
class Review:
    seat: int
    mystery: Triple
    steps: tuple[Step, ...]
    could_accuse: int | None
    """The first turn of the seat's on which its deduction was certain, if any."""
    certain: dict[str, Moment | None]
    """Each card of the mystery: when it became certain for the seat (None: never)."""
    complete: bool
    """False for a game stored before its record of play was kept (nothing to replay)."""


def review(state: GameState, seat: int) -> Review:
    """The review of `seat` in a finished game."""
    if state.phase != "over":
        raise RuleError("The review comes once the game is over.")
    mystery = _triple(state.seats[seat].holder)
    record = state.played
    total = len(state.questions) + len(state.consultations) + len(state.accusations)
    if not all(mystery) or len(record) != total:
        return Review(seat, mystery, (), None, {}, complete=False)
    steps: list[Step] = []
    could: int | None = None
    for index, entry in enumerate(record):
        if entry.seat != seat:
            continue
        view = view_before(state, seat, index)
        result = solve(view)
        if could is None and result.certain() is not None:
            could = entry.turn
        advice = advise(view, result)
        move = move_of(state, index)
        mine = (accusation_figures(result, _accused(move)) if isinstance(move, Accuse)
                else advice.rated(move))
        best = advice.best()
        if mine is None or best is None:
            continue  # cannot happen for a legal move of a seat with a possible mystery
        steps.append(Step(entry.turn, len(result.triples), mine, best))
    return Review(seat, mystery, tuple(steps), could, _moments(state, seat, mystery), True)


def at(state: GameState, index: int) -> GameState:
    """The finished game as it stood just before its `index`-th action of play (what each
    seat had learned by then; glasses and turns are not rebuilt, no view of them is read)."""
    record = state.played[:index]
    counts = {kind: sum(p.kind == kind for p in record) for kind in ("ask", "consult", "accuse")}
    consulted = state.consultations[: counts["consult"]]
    seats = []
    for i, s in enumerate(state.seats):
        peeks = {c.letter: state.informants[LETTERS.index(c.letter)]
                 for c in consulted if c.seat == i}
        seats.append(s.model_copy(update={"peeks": peeks}))
    return state.model_copy(update={
        "phase": "turns",
        "seats": seats,
        "questions": state.questions[: counts["ask"]],
        "consultations": consulted,
        "accusations": state.accusations[: counts["accuse"]],
        "played": record,
        "winner": None,
    })


def move_of(state: GameState, index: int) -> Move:
    """The `index`-th action of play, as the action that made it."""
    entry: Played = state.played[index]
    nth = sum(p.kind == entry.kind for p in state.played[:index])
    if entry.kind == "ask":
        q = state.questions[nth]
        return Ask(seat=q.asker, witness=q.witness, subject=q.subject, side=q.side,
                   top_secret=q.top_secret)
    if entry.kind == "consult":
        return Consult(seat=entry.seat, letter=state.consultations[nth].letter)
    person, location, weapon = _triple(state.accusations[nth].cards)
    return Accuse(seat=entry.seat, person=person, location=location, weapon=weapon)


def view_before(state: GameState, seat: int, index: int) -> PlayerView:
    """What `seat` knew just before the `index`-th action of play."""
    return player_view(at(state, index), seat)


def _moments(state: GameState, seat: int, mystery: Triple) -> dict[str, Moment | None]:
    """For each card of the mystery, the first moment the seat's deduction made it certain.
    Facts only accumulate, so once certain a card stays so."""
    out: dict[str, Moment | None] = dict.fromkeys(mystery)
    for after in range(len(state.played) + 1):
        left = [c for c in mystery if out[c] is None]
        if not left:
            break
        result = solve(view_before(state, seat, after))
        for card in left:
            if result.total and result.status(card) == "certain":
                entry = state.played[after - 1] if after else None
                out[card] = Moment(after, entry.turn if entry else 0,
                                   entry.seat if entry else None, entry.kind if entry else "")
    return out


def _accused(move: Accuse) -> Triple:
    return (move.person, move.location, move.weapon)


def _triple(cards: list[str] | tuple[str, ...]) -> Triple:
    """The three cards as a triple; blanks for a holder never filled (ended in the pass)."""
    return as_triple(cards) if len(cards) == 3 else ("", "", "")
