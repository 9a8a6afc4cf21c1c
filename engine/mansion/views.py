"""What one seat (or the channel) may know: the secrecy contract in one place.

`player_view(state, seat)` holds everything `seat` may know and nothing more;
`public_view(state)` is what the channel may see. Both are built only from `state`, so a
change in what is secret is a change here and nowhere else.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.mansion.cards import ACTIONS, FACE_DOWN, PRIVATE_TIP
from engine.mansion.events import PromptInfo
from engine.mansion.observations import (
    AccusationSeen,
    AllSnoopSeen,
    DealtSeen,
    DrewSeen,
    LookSeen,
    Observation,
    ReshuffleSeen,
    SleuthAnswerSeen,
    SleuthSeen,
    SnoopSeen,
    SolutionChosenSeen,
    SuggestionSeen,
    SwapSeen,
    TipSeen,
    TurnSeen,
)
from engine.mansion.prompts import (
    AccuseOrEndPrompt,
    ChooseSolutionPrompt,
    PickPrompt,
    PlayPrompt,
    Prompt,
    ShowPrompt,
    TipPrompt,
)
from engine.mansion.records import (
    Accused,
    AllSnooped,
    Dealt,
    Drew,
    Record,
    Reshuffled,
    Sleuthed,
    Snooped,
    SolutionChosen,
    Suggested,
    Swapped,
    Tipped,
    Triple,
    TurnBegan,
)
from engine.mansion.state import DiscardedCard, EndedBy, GameState, Options, Phase, RoundResult

Viewer = int | None
"""A seat, or None for the channel / a spectator."""


class SeatInfo(BaseModel):
    """Public facts about a seat."""

    name: str
    marker: str
    clue_count: int
    action_count: int
    eliminated: bool
    """Accused wrongly this game."""
    fugitive: bool
    score: int


class DiscardInfo(BaseModel):
    card: str
    """The Action card id; for a face-down card this viewer has not read, `private_tip` (a
    tip passed in play, its kind public) or `face_down` (a wrong accuser's unplayed card)."""
    face_up: bool


class PublicView(BaseModel):
    """Everything the whole table knows: safe for the channel and for spectators."""

    options: Options
    phase: Phase
    round: int
    dealer: int
    fugitive: int | None
    turn: int
    turn_number: int
    seats: list[SeatInfo]
    tray: list[str]
    draw_size: int
    discard: list[DiscardInfo]
    played: str | None
    """The Action card on the table this turn (`private_tip` if this viewer may not read it)."""
    waiting: list[PromptInfo]
    """Open prompts; only the viewer's own carry options."""
    observations: list[Observation]
    """The observation record of this game as this viewer saw it (see `observations.py`)."""
    rounds: list[RoundResult]
    """Finished games of the series, whole (nothing in a finished game is secret)."""
    master: int | None
    ended_by: EndedBy | None
    end_reason: str
    solution: Triple | None = None
    """Public only once the game is over or solved; in a PlayerView also when it was seen."""


class PlayerView(PublicView):
    """A seat's information state: the public view plus its own secrets."""

    seat: int
    clues: list[str]
    actions: list[str]
    prompt: PromptInfo | None
    """The prompt this seat must answer now, with its options."""

    def known_holders(self) -> dict[str, int]:
        """Clue card → the seat this seat knows holds it (its own hand and what it saw)."""
        known = dict.fromkeys(self.clues, self.seat)
        for entry in self.observations:
            match entry:
                case SuggestionSeen(shown=str(card), refuter=int(refuter)) if refuter != self.seat:
                    known[card] = refuter
                case SnoopSeen(card=str(card), target=target):
                    known[card] = target
                case AllSnoopSeen(card=str(card)):
                    mine = next(look for look in entry.looks if look.looker == self.seat)
                    known[card] = mine.target
                case SleuthSeen(seat=sleuth) if sleuth == self.seat:
                    for answer in entry.answers:
                        if answer.card is not None:
                            known[answer.card] = answer.seat
                case TipSeen(seat=giver, target=target, cards=list(cards)) if giver == self.seat:
                    for card in cards:
                        known[card] = target
                case _:
                    pass
        return known


def public_view(state: GameState) -> PublicView:
    return PublicView(**_fields(state, None))


def player_view(state: GameState, seat: int) -> PlayerView:
    me = state.seats[seat]
    prompt = state.prompt_for(seat)
    return PlayerView(
        **_fields(state, seat),
        seat=seat,
        clues=list(me.clues),
        actions=list(me.actions),
        prompt=prompt_info(prompt, seat) if prompt is not None else None,
    )


def knows_solution(state: GameState, seat: Viewer) -> bool:
    """The fugitive chose it; an accuser saw it; everyone sees it once the game is over."""
    if state.phase == "over" or any(isinstance(r, Accused) and r.correct for r in state.log):
        return True
    if seat is None:
        return False
    return seat == state.fugitive or any(
        isinstance(r, Accused) and r.seat == seat for r in state.log
    )


def prompt_info(prompt: Prompt, viewer: Viewer) -> PromptInfo:
    """A prompt as `viewer` may see it: the face-down order never; options only its own."""
    mine = viewer == prompt.seat
    info = PromptInfo(id=prompt.id, seat=prompt.seat, kind=prompt.kind)
    match prompt:
        case ShowPrompt():
            info.to, info.reason = prompt.to, prompt.reason
            if mine:
                info.options = [[card] for card in prompt.options]
        case PickPrompt():
            info.target, info.reason, info.count = prompt.target, prompt.reason, prompt.count
        case TipPrompt():
            info.to = prompt.to
            if viewer in (prompt.seat, prompt.to):
                info.tip = prompt.tip
            if mine:
                info.options = [list(option) for option in prompt.options]
        case ChooseSolutionPrompt() | PlayPrompt() | AccuseOrEndPrompt():
            pass
    return info


def observe(record: Record, state: GameState, viewer: Viewer) -> Observation | None:
    """What `viewer` saw of one record of this game (None: nothing at all)."""
    match record:
        case Dealt():
            return DealtSeen(
                markers=list(record.markers),
                tray=list(record.tray),
                clue_counts=list(record.clue_counts),
                first=record.first,
            )
        case TurnBegan():
            return TurnSeen(seat=record.seat, turn_number=record.turn_number)
        case Drew():
            return DrewSeen(seat=record.seat, card=record.card) if viewer == record.seat else None
        case Reshuffled():
            return ReshuffleSeen(size=record.size)
        case Swapped():
            return SwapSeen(**record.model_dump(exclude={"kind"}))
        case Suggested():
            return _suggestion(record, state, viewer)
        case Snooped():
            return SnoopSeen(
                seat=record.seat,
                target=record.target,
                count=record.count,
                done=record.card is not None,
                card=record.card if viewer == record.seat else None,
            )
        case AllSnooped():
            mine = next((p for p in record.picks if p.looker == viewer), None)
            return AllSnoopSeen(
                seat=record.seat,
                direction=record.direction,
                looks=[
                    LookSeen(
                        looker=p.looker, target=p.target, count=p.count, done=p.card is not None
                    )
                    for p in record.picks
                ],
                card=mine.card if mine is not None else None,
            )
        case Sleuthed():
            return SleuthSeen(
                seat=record.seat,
                card=record.card,
                answers=[
                    SleuthAnswerSeen(
                        seat=a.seat,
                        answered=a.answered,
                        showed=(a.card is not None) if a.answered else None,
                        card=a.card if viewer in (record.seat, a.seat) else None,
                    )
                    for a in record.answers
                ],
            )
        case Tipped():
            involved = viewer in (record.seat, record.target)
            return TipSeen(
                seat=record.seat,
                target=record.target,
                answered=record.answer is not None,
                card=record.card if involved else None,
                cards=list(record.answer) if involved and record.answer is not None else None,
            )
        case Accused():
            public = record.correct or state.phase == "over"
            sees = public or viewer == record.seat
            return AccusationSeen(
                seat=record.seat,
                correct=record.correct,
                named=record.named if sees else None,
                solution=state.solution if sees else None,
                discarded=[c if viewer == record.seat else None for c in record.discarded],
            )
        case SolutionChosen():
            return SolutionChosenSeen(
                seat=record.seat,
                solution=state.solution if knows_solution(state, viewer) else None,
            )


def observations(state: GameState, viewer: Viewer) -> list[Observation]:
    seen = (observe(record, state, viewer) for record in state.log)
    return [entry for entry in seen if entry is not None]


def _suggestion(record: Suggested, state: GameState, viewer: Viewer) -> SuggestionSeen:
    involved = viewer in (record.seat, record.refuter)
    return SuggestionSeen(
        seat=record.seat,
        card=record.card,
        named=record.named,
        passed=list(record.passed),
        refuter=record.refuter,
        fugitive_refuted=record.refuter is not None and record.refuter == state.fugitive,
        pending=record.refuter is not None and record.shown is None,
        shown=record.shown if involved else None,
        burned=record.burned,
    )


def _discard(card: DiscardedCard, viewer: Viewer) -> DiscardInfo:
    readable = card.face_up or viewer in card.seen_by
    hidden = PRIVATE_TIP if card.kind_shown else FACE_DOWN
    return DiscardInfo(card=card.card if readable else hidden, face_up=card.face_up)


def _played(state: GameState, viewer: Viewer) -> str | None:
    if state.played is None or ACTIONS[state.played].effect != "private_tip":
        return state.played
    tip = next((r for r in reversed(state.log) if isinstance(r, Tipped)), None)
    involved = tip is not None and viewer in (tip.seat, tip.target)
    return state.played if involved else PRIVATE_TIP


def _fields(state: GameState, viewer: Viewer) -> dict[str, Any]:
    return {
        "options": state.options,
        "phase": state.phase,
        "round": state.round,
        "dealer": state.dealer,
        "fugitive": state.fugitive,
        "turn": state.turn,
        "turn_number": state.turn_number,
        "seats": [
            SeatInfo(
                name=s.name,
                marker=s.marker,
                clue_count=len(s.clues),
                action_count=len(s.actions),
                eliminated=s.eliminated,
                fugitive=i == state.fugitive,
                score=s.score,
            )
            for i, s in enumerate(state.seats)
        ],
        "tray": list(state.tray),
        "draw_size": len(state.draw),
        "discard": [_discard(card, viewer) for card in state.discard],
        "played": _played(state, viewer),
        "waiting": [prompt_info(p, viewer) for p in state.prompts],
        "observations": observations(state, viewer),
        "rounds": list(state.rounds),
        "master": state.master,
        "ended_by": state.ended_by,
        "end_reason": state.end_reason,
        "solution": state.solution if knows_solution(state, viewer) else None,
    }
