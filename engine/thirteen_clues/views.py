"""What one seat (or a spectator) may know: the secrecy contract in one place."""

from __future__ import annotations

from typing import TypedDict

from pydantic import BaseModel

from engine.thirteen_clues.state import (
    Accusation,
    Consultation,
    GameState,
    Options,
    Phase,
    Question,
)


class SeatInfo(BaseModel):
    """Public facts about a seat."""

    name: str
    glasses: int
    top_secret_used: bool
    has_passed: bool


class PublicView(BaseModel):
    """Everything the whole table knows: safe for the channel and for spectators."""

    options: Options
    phase: Phase
    seats: list[SeatInfo]
    turn: int
    turn_number: int
    supply: int
    letters: list[str]
    questions: list[Question]
    """Public questions only; Top Secret ones appear with subject "" and answer -1."""
    consultations: list[Consultation]
    accusations: list[tuple[int, bool]]
    winner: int | None
    reveal: GameState | None = None
    """The whole truth, only once the game is over."""


class PlayerView(PublicView):
    """A seat's information state: the public view plus its own secrets, never its holder."""

    seat: int
    dealt: list[str]
    passed: list[str] | None
    screen: list[str]
    holders: dict[int, list[str]]
    """Every other seat's holder (empty lists during the pass phase)."""
    peeks: dict[str, str]
    secret_questions: list[Question]
    """Top Secret questions this seat asked or answered, with the answers."""
    my_accusations: list[Accusation]

    def sees(self) -> set[str]:
        """Its screen and every other holder: what the 2020 rules forbid it to accuse."""
        seen = set(self.screen)
        for holder in self.holders.values():
            seen.update(holder)
        return seen

    def known(self) -> set[str]:
        """Every card whose place it knows: what it sees and the informant cards it read."""
        return self.sees() | set(self.peeks.values())


def public_view(state: GameState) -> PublicView:
    return PublicView(**_public_fields(state))


def player_view(state: GameState, seat: int) -> PlayerView:
    me = state.seats[seat]
    return PlayerView(
        **_public_fields(state),
        seat=seat,
        dealt=list(me.dealt),
        passed=list(me.passed) if me.passed else None,
        screen=list(me.screen),
        holders={i: list(s.holder) for i, s in enumerate(state.seats) if i != seat},
        peeks=dict(me.peeks),
        secret_questions=[
            q for q in state.questions if q.top_secret and seat in (q.asker, q.witness)
        ],
        my_accusations=[a for a in state.accusations if a.seat == seat],
    )


class _PublicFields(TypedDict):
    """The fields of PublicView, to build a PublicView or a PlayerView from."""

    options: Options
    phase: Phase
    seats: list[SeatInfo]
    turn: int
    turn_number: int
    supply: int
    letters: list[str]
    questions: list[Question]
    consultations: list[Consultation]
    accusations: list[tuple[int, bool]]
    winner: int | None
    reveal: GameState | None


def _public_fields(state: GameState) -> _PublicFields:
    return {
        "options": state.options,
        "phase": state.phase,
        "seats": [
            SeatInfo(
                name=s.name,
                glasses=s.glasses,
                top_secret_used=s.top_secret_used,
                has_passed=s.passed is not None,
            )
            for s in state.seats
        ],
        "turn": state.turn,
        "turn_number": state.turn_number,
        "supply": state.supply,
        "letters": state.letters(),
        "questions": [
            q if not q.top_secret else q.model_copy(update={"subject": "", "answer": -1})
            for q in state.questions
        ],
        "consultations": list(state.consultations),
        "accusations": [(a.seat, a.correct) for a in state.accusations],
        "winner": state.winner,
        "reveal": state if state.phase == "over" else None,
    }
