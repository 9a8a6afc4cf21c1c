"""The Action cards' effects and the answers to the prompts they open.

Functions here mutate the (already forked) state they are given and return the events;
`legal.check` has validated the action beforehand.
"""

from __future__ import annotations

import random
from typing import TypeVar

from engine.audience import Audience
from engine.mansion import actions as act
from engine.mansion.cards import ACTIONS, DESTINATIONS, SuggestCard, matches
from engine.mansion.events import (
    ActionBurned,
    AllSnoopPlayed,
    CardPicked,
    CardShown,
    Event,
    MarkersSwapped,
    SleuthAnswered,
    SleuthPlayed,
    SnoopedCard,
    SnoopPlayed,
    SuggestionAnswered,
    SuggestionMade,
    TipAnswered,
    TipPassed,
)
from engine.mansion.flow import close_prompt, open_prompt, play_resolved
from engine.mansion.legal import refutation_order, tip_options
from engine.mansion.prompts import PickPrompt, ShowPrompt, ShowReason, TipPrompt
from engine.mansion.records import (
    AllSnooped,
    Pick,
    SleuthAnswer,
    Sleuthed,
    Snooped,
    Suggested,
    Swapped,
    Tipped,
    Triple,
)
from engine.mansion.state import DiscardedCard, GameState

PUBLIC = Audience.public()


def play(state: GameState, action: act.PlayAction, rng: random.Random) -> list[Event]:
    """Turn step 2: the card leaves the hand face up (a tip face down) and takes effect."""
    card = act.card_played(action)
    me = state.seats[action.seat]
    me.actions.remove(card)
    state.played = card
    close_prompt(state, action.seat)
    match action:
        case act.SuggestAny():
            events = []
            if action.destination != me.marker:
                events.append(_swap(state, action.seat, action.destination, "suggest_any"))
            named = Triple(suspect=action.suspect, vehicle=action.vehicle, destination=me.marker)
            events += _suggest(state, action.seat, "suggest_any", named)
        case act.SuggestPresent():
            named = Triple(suspect=action.suspect, vehicle=action.vehicle, destination=me.marker)
            events = _suggest(state, action.seat, "suggest_present", named)
        case act.Move():
            events = [_swap(state, action.seat, action.destination, "suggest_present")]
        case act.Snoop():
            events = _snoop(state, action, rng)
        case act.AllSnoop():
            events = _all_snoop(state, action, rng)
        case act.SuperSleuth():
            events = _super_sleuth(state, action)
        case act.PrivateTip():
            events = _private_tip(state, action)
    return events + play_resolved(state)


def _swap(state: GameState, seat: int, destination: str, card: SuggestCard) -> Event:
    """Take `destination`'s marker from its holder (or the tray), giving yours in return."""
    me = state.seats[seat]
    gave = me.marker
    other = state.marker_holder(destination)
    if other is None:
        state.tray.remove(destination)
        state.tray = sorted([*state.tray, gave], key=DESTINATIONS.index)
    else:
        state.seats[other].marker = gave
    me.marker = destination
    record = Swapped(seat=seat, gave=gave, took=destination, other=other, card=card)
    state.log.append(record)
    return MarkersSwapped(audience=PUBLIC, **record.model_dump(exclude={"kind"}))


def _suggest(state: GameState, seat: int, card: SuggestCard, named: Triple) -> list[Event]:
    """The first seat in refutation order holding any of the three shows one, its choice."""
    record = Suggested(seat=seat, card=card, named=named)
    state.log.append(record)
    events: list[Event] = [SuggestionMade(audience=PUBLIC, seat=seat, card=card, named=named)]
    matching: list[str] = []
    for other in refutation_order(state, seat):
        matching = [c for c in state.seats[other].clues if c in named.cards()]
        if matching:
            record.refuter = other
            break
        record.passed.append(other)
    events.append(
        SuggestionAnswered(
            audience=PUBLIC, seat=seat, passed=list(record.passed), refuter=record.refuter
        )
    )
    if record.refuter is None:
        return events
    if record.refuter == state.fugitive and state.draw:
        burned = state.draw.pop()
        state.discard.append(DiscardedCard(card=burned))
        record.burned = burned
        events.append(ActionBurned(audience=PUBLIC, card=burned, draw_size=len(state.draw)))
    # The refuter is asked even with one card that fits (see `ShowPrompt`).
    return [
        *events,
        open_prompt(
            state, ShowPrompt, record.refuter, to=seat, reason="suggestion", options=matching
        ),
    ]


def _shown(seat: int, to: int, card: str, reason: ShowReason) -> Event:
    return CardShown(audience=Audience.to(seat, to), seat=seat, to=to, card=card, reason=reason)


def _snoop(state: GameState, action: act.Snoop, rng: random.Random) -> list[Event]:
    order = list(state.seats[action.target].clues)
    rng.shuffle(order)
    state.log.append(Snooped(seat=action.seat, target=action.target, count=len(order)))
    return [
        SnoopPlayed(audience=PUBLIC, seat=action.seat, target=action.target),
        open_prompt(
            state,
            PickPrompt,
            action.seat,
            target=action.target,
            count=len(order),
            reason="snoop",
            order=order,
        ),
    ]


def _all_snoop(state: GameState, action: act.AllSnoop, rng: random.Random) -> list[Event]:
    """Hands go to the side shown: Left means each seat looks at its right neighbour's hand."""
    direction = ACTIONS[action.card].direction
    assert direction is not None
    lookers = [action.seat, *state.clockwise_from(action.seat)]
    targets = {i: state.right_of(i) if direction == "left" else state.left_of(i) for i in lookers}
    record = AllSnooped(
        seat=action.seat,
        direction=direction,
        picks=[
            Pick(looker=i, target=targets[i], count=len(state.seats[targets[i]].clues))
            for i in lookers
        ],
    )
    state.log.append(record)
    events: list[Event] = [
        AllSnoopPlayed(
            audience=PUBLIC,
            seat=action.seat,
            direction=direction,
            looks_at=[targets[i] for i in range(state.players)],
        )
    ]
    for i in lookers:
        order = list(state.seats[targets[i]].clues)
        rng.shuffle(order)
        events.append(
            open_prompt(
                state,
                PickPrompt,
                i,
                target=targets[i],
                count=len(order),
                reason="all_snoop",
                order=order,
            )
        )
    return events


def _super_sleuth(state: GameState, action: act.SuperSleuth) -> list[Event]:
    """Opponents in turn order: one holding nothing with the feature says so at once, one
    holding any is asked which to show (even when only one fits, see `ShowPrompt`)."""
    info = ACTIONS[action.card]
    order = state.clockwise_from(action.seat)
    record = Sleuthed(seat=action.seat, card=action.card, answers=[])
    state.log.append(record)
    events: list[Event] = [
        SleuthPlayed(audience=PUBLIC, seat=action.seat, card=action.card, order=order)
    ]
    for other in order:
        matching = [c for c in state.seats[other].clues if matches(c, info)]
        answer = SleuthAnswer(seat=other)
        record.answers.append(answer)
        if matching:
            events.append(
                open_prompt(
                    state,
                    ShowPrompt,
                    other,
                    to=action.seat,
                    reason="super_sleuth",
                    options=matching,
                )
            )
            continue
        answer.answered = True
        events.append(SleuthAnswered(audience=PUBLIC, seat=other, to=action.seat, showed=False))
    return events


def _private_tip(state: GameState, action: act.PrivateTip) -> list[Event]:
    """The tip is always answered through a prompt, so the table cannot tell forced answers."""
    state.log.append(Tipped(seat=action.seat, target=action.target, card=action.card))
    options = tip_options(state.seats[action.target].clues, action.card)
    return [
        TipPassed(audience=PUBLIC, seat=action.seat, target=action.target),
        TipPassed(
            audience=Audience.to(action.seat, action.target),
            seat=action.seat,
            target=action.target,
            card=action.card,
        ),
        open_prompt(
            state, TipPrompt, action.target, to=action.seat, tip=action.card, options=options
        ),
    ]


# --- answers ------------------------------------------------------------------------------


def show(state: GameState, action: act.ShowCard, prompt: ShowPrompt) -> list[Event]:
    close_prompt(state, action.seat)
    events: list[Event] = []
    if prompt.reason == "suggestion":
        suggested = _last(state, Suggested)
        suggested.shown = action.card
    else:
        sleuthed = _last(state, Sleuthed)
        answer = next(a for a in sleuthed.answers if a.seat == action.seat)
        answer.answered, answer.card = True, action.card
        events.append(SleuthAnswered(audience=PUBLIC, seat=action.seat, to=prompt.to, showed=True))
    events.append(_shown(action.seat, prompt.to, action.card, prompt.reason))
    return events + play_resolved(state)


def pick(state: GameState, action: act.PickCard, prompt: PickPrompt) -> list[Event]:
    close_prompt(state, action.seat)
    card = prompt.order[action.position]
    if prompt.reason == "snoop":
        snooped = _last(state, Snooped)
        snooped.position, snooped.card = action.position, card
    else:
        mine = next(p for p in _last(state, AllSnooped).picks if p.looker == action.seat)
        mine.position, mine.card = action.position, card
    return [
        CardPicked(audience=PUBLIC, seat=action.seat, target=prompt.target, reason=prompt.reason),
        SnoopedCard(
            audience=Audience.to(action.seat),
            seat=action.seat,
            target=prompt.target,
            position=action.position,
            card=card,
            reason=prompt.reason,
        ),
        *play_resolved(state),
    ]


def answer_tip(state: GameState, action: act.AnswerTip, prompt: TipPrompt) -> list[Event]:
    close_prompt(state, action.seat)
    chosen = next(o for o in prompt.options if sorted(o) == sorted(action.cards))
    _last(state, Tipped).answer = list(chosen)
    return [
        TipAnswered(audience=PUBLIC, seat=action.seat, to=prompt.to),
        TipAnswered(
            audience=Audience.to(action.seat, prompt.to),
            seat=action.seat,
            to=prompt.to,
            cards=list(chosen),
        ),
        *play_resolved(state),
    ]


R = TypeVar("R")


def _last(state: GameState, kind: type[R]) -> R:
    return next(r for r in reversed(state.log) if isinstance(r, kind))
