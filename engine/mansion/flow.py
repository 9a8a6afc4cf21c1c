"""The flow of a game and a series: rounds, turns, prompts, the accusation and the end.

Functions here mutate the (already forked) state they are given and return the events.
"""

from __future__ import annotations

import random
from typing import Any

from engine.audience import Audience
from engine.errors import RuleError
from engine.mansion.cards import ACTIONS
from engine.mansion.deal import deal, first_player, random_solution
from engine.mansion.events import (
    AccusationMade,
    ActionDrawn,
    ActionHandDiscarded,
    DrawPileReshuffled,
    Event,
    GameOver,
    PromptOpened,
    RoundOver,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from engine.mansion.prompts import (
    AccuseOrEndPrompt,
    ChooseSolutionPrompt,
    PickPrompt,
    PlayPrompt,
    ShowPrompt,
    TipPrompt,
)
from engine.mansion.records import Accused, Drew, Reshuffled, Tipped, Triple, TurnBegan
from engine.mansion.state import DiscardedCard, EndedBy, GameState, RoundEnd, RoundResult
from engine.mansion.views import prompt_info

PUBLIC = Audience.public()

PromptClass = (
    type[ChooseSolutionPrompt]
    | type[PlayPrompt]
    | type[AccuseOrEndPrompt]
    | type[ShowPrompt]
    | type[PickPrompt]
    | type[TipPrompt]
)


def open_prompt(state: GameState, cls: PromptClass, seat: int, **fields: Any) -> Event:
    """Add a prompt for `seat` and tell that seat (privately) what it must answer."""
    prompt = cls(id=state.next_prompt, seat=seat, **fields)
    state.next_prompt += 1
    state.prompts.append(prompt)
    return PromptOpened(audience=Audience.to(seat), prompt=prompt_info(prompt, seat))


def close_prompt(state: GameState, seat: int) -> None:
    state.prompts = [p for p in state.prompts if p.seat != seat]


# --- rounds -------------------------------------------------------------------------------


def begin_round(state: GameState, rng: random.Random) -> list[Event]:
    """A fresh game of the series with the dealer (and fugitive) already chosen."""
    for seat in state.seats:
        seat.clues, seat.actions, seat.marker, seat.eliminated = [], [], "", False
    state.solution = None
    state.draw, state.discard, state.tray, state.played = [], [], [], None
    state.prompts, state.log = [], []
    state.turn_number = 0
    state.turn = first_player(state)
    events: list[Event] = [
        RoundStarted(
            audience=PUBLIC, round=state.round, dealer=state.dealer, fugitive=state.fugitive
        )
    ]
    if state.fugitive is not None:
        state.phase = "choosing_solution"
        return [*events, open_prompt(state, ChooseSolutionPrompt, state.fugitive)]
    state.phase = "playing"
    state.solution = random_solution(rng)
    return events + deal(state, rng, state.turn) + start_turn(state, state.turn, rng)


def solution_chosen(state: GameState, rng: random.Random) -> list[Event]:
    """One Against All: the fugitive has chosen; now deal and play."""
    state.phase = "playing"
    return deal(state, rng, state.turn) + start_turn(state, state.turn, rng)


def end_round(
    state: GameState, winner: int | None, how: RoundEnd, reason: str, rng: random.Random
) -> list[Event]:
    """Score the game, reveal it, then deal the next one unless the series is decided.

    Only a solved crime scores towards Master Detective ("the first to have solved the
    agreed number of crimes"); an escape wins its game (`RoundResult.winner`) and no more."""
    solver = winner if how == "solved" else None
    if solver is not None:
        state.seats[solver].score += 1
    state.prompts = []
    state.rounds.append(
        RoundResult(
            round=state.round,
            dealer=state.dealer,
            fugitive=state.fugitive,
            solution=state.solution,
            hands=[list(s.clues) for s in state.seats],
            winner=winner,
            how=how,
            log=list(state.log),
        )
    )
    events: list[Event] = [_round_over(state, reason)]
    if solver is not None and state.seats[solver].score >= state.options.series_wins:
        return events + _finish(state, master=solver, ended_by="won", reason=reason)
    if how == "abandoned":
        return events + _finish(state, master=None, ended_by="abandoned", reason=reason)
    if state.options.series_wins == 1:
        ended_by: EndedBy = "escaped" if how == "escaped" else "unsolved"
        return events + _finish(state, master=None, ended_by=ended_by, reason=reason)
    state.round += 1
    # "The dealer passes to the left each game"; in One Against All the fugitive is the
    # dealer, so the role passes left with it ("a different player ... each time").
    state.dealer = state.left_of(state.dealer)
    if state.fugitive is not None:
        state.fugitive = state.dealer
    return events + begin_round(state, rng)


def _round_over(state: GameState, reason: str) -> RoundOver:
    last = state.rounds[-1]
    return RoundOver(
        audience=Audience.reveal(),
        round=last.round,
        winner=last.winner,
        how=last.how,
        reason=reason,
        solution=last.solution,
        hands=[list(h) for h in last.hands],
        scores=[s.score for s in state.seats],
    )


def _finish(state: GameState, master: int | None, ended_by: EndedBy, reason: str) -> list[Event]:
    state.phase = "over"
    state.master = master
    state.ended_by = ended_by
    state.end_reason = reason
    state.prompts = []
    return [reveal(state)]


def reveal(state: GameState) -> GameOver:
    """The end of the table: the Master Detective (if any), the scores and the last game's
    solution and hands. Every finished game stays whole in `state.rounds`."""
    if state.phase != "over":
        raise RuleError("Nothing is revealed before the game is over.")
    last = state.rounds[-1]
    return GameOver(
        audience=Audience.reveal(),
        master=state.master,
        winner=state.master if state.ended_by == "won" else last.winner,
        reason=state.end_reason,
        scores=[s.score for s in state.seats],
        rounds=len(state.rounds),
        solution=last.solution,
        hands=[list(h) for h in last.hands],
    )


def abandon(state: GameState, reason: str, rng: random.Random) -> list[Event]:
    return end_round(state, None, "abandoned", reason, rng)


# --- turns --------------------------------------------------------------------------------


def start_turn(state: GameState, seat: int, rng: random.Random) -> list[Event]:
    """Turn step 1: draw (reshuffling, or the fugitive escaping, on an empty pile)."""
    state.turn = seat
    state.turn_number += 1
    state.log.append(TurnBegan(seat=seat, turn_number=state.turn_number))
    events: list[Event] = []
    if not state.draw:
        if state.options.one_against_all:
            events.append(
                TurnStarted(audience=PUBLIC, seat=seat, turn_number=state.turn_number, draw_size=0)
            )
            name = state.seats[seat].name
            return events + end_round(
                state,
                state.fugitive,
                "escaped",
                f"{name} must draw and the draw pile is empty: the fugitive escapes.",
                rng,
            )
        events.append(_reshuffle(state, rng))
    card = state.draw.pop()
    state.seats[seat].actions.append(card)
    state.log.append(Drew(seat=seat, card=card))
    events += [
        TurnStarted(
            audience=PUBLIC, seat=seat, turn_number=state.turn_number, draw_size=len(state.draw)
        ),
        ActionDrawn(audience=Audience.to(seat), seat=seat, card=card),
        open_prompt(state, PlayPrompt, seat),
    ]
    return events


def _reshuffle(state: GameState, rng: random.Random) -> Event:
    cards = [d.card for d in state.discard]
    rng.shuffle(cards)
    state.draw, state.discard = cards, []
    state.log.append(Reshuffled(size=len(cards)))
    return DrawPileReshuffled(audience=PUBLIC, size=len(cards))


def play_resolved(state: GameState) -> list[Event]:
    """Once nothing about the played card is pending: accuse now, or end the turn."""
    if state.prompts:
        return []
    return [open_prompt(state, AccuseOrEndPrompt, state.turn)]


def end_turn(state: GameState, rng: random.Random) -> list[Event]:
    """Turn step 4: the played card goes to the discard; play passes left."""
    seat = state.turn
    if state.played is not None:
        state.discard.append(_to_discard(state, state.played))
        state.played = None
    state.prompts = []
    events: list[Event] = [TurnEnded(audience=PUBLIC, seat=seat)]
    following = next(s for s in [*state.clockwise_from(seat), seat] if state.active(s))
    return events + start_turn(state, following, rng)


def _to_discard(state: GameState, card: str) -> DiscardedCard:
    if ACTIONS[card].effect != "private_tip":
        return DiscardedCard(card=card)
    tip = next(r for r in reversed(state.log) if isinstance(r, Tipped))
    return DiscardedCard(card=card, face_up=False, seen_by=sorted({tip.seat, tip.target}))


def accuse(state: GameState, seat: int, named: Triple, rng: random.Random) -> list[Event]:
    """The accuser sees the solution; right wins, wrong leaves the seat out of turns."""
    solution = state.solution
    assert solution is not None
    correct = named == solution
    record = Accused(seat=seat, named=named, correct=correct)
    state.log.append(record)
    state.prompts = []
    me = state.seats[seat]
    events: list[Event] = [
        AccusationMade(
            audience=PUBLIC,
            seat=seat,
            correct=correct,
            named=named if correct else None,
            solution=solution if correct else None,
        ),
        AccusationMade(
            audience=Audience.to(seat), seat=seat, correct=correct, named=named, solution=solution
        ),
    ]
    if correct:
        return events + end_round(state, seat, "solved", f"{me.name} solved the case.", rng)
    me.eliminated = True
    # face down, kind and all: the secrecy contract makes only played Action cards public
    record.discarded = list(me.actions)
    for card in me.actions:
        state.discard.append(DiscardedCard(card=card, face_up=False, seen_by=[seat],
                                           kind_shown=False))
    events += [
        ActionHandDiscarded(audience=PUBLIC, seat=seat, cards=[None] * len(me.actions)),
        ActionHandDiscarded(audience=Audience.to(seat), seat=seat, cards=list(me.actions)),
    ]
    me.actions = []
    if not any(state.active(s) for s in range(state.players)):
        if state.fugitive is not None:
            reason = "Every detective accused wrongly: the fugitive escapes."
            return events + end_round(state, state.fugitive, "escaped", reason, rng)
        reason = "Every player accused wrongly: nobody solved the case."
        return events + end_round(state, None, "unsolved", reason, rng)
    return events + end_turn(state, rng)
