"""Answers to the prompts that are not a turn, shared by every level: the fugitive's choice
of solution, which card to show, which face-down card to pick, how to answer a tip.

A refuter shows the card that reveals the least: one the receiver has already seen from
this seat if it can, else a card of the kind with the most cards (a destination rules out
one of nine, a suspect or vehicle one of six), else any; ties at random.
"""

from __future__ import annotations

import random

from engine.mansion.actions import AnswerTip, ChooseSolution, PickCard, ShowCard
from engine.mansion.cards import DESTINATIONS, SUSPECTS, VEHICLES
from engine.mansion.choices import reveals_least
from engine.mansion.events import PromptInfo
from engine.mansion.observations import SleuthSeen, SuggestionSeen, TipSeen
from engine.mansion.views import PlayerView


def choose_solution(view: PlayerView, rng: random.Random) -> ChooseSolution:
    """Any triple: the deal comes after the choice, so no triple is better than another."""
    return ChooseSolution(
        seat=view.seat,
        suspect=rng.choice(SUSPECTS),
        vehicle=rng.choice(VEHICLES),
        destination=rng.choice(DESTINATIONS),
    )


def pick(view: PlayerView, prompt: PromptInfo, rng: random.Random) -> PickCard:
    """The cards lie face down in a random order: any position is as good."""
    return PickCard(seat=view.seat, position=rng.randrange(prompt.count or 1))


def shown_to(view: PlayerView, receiver: int) -> set[str]:
    """Cards this seat has already revealed to `receiver` (suggestions, sleuths, tips)."""
    out: set[str] = set()
    me = view.seat
    for entry in view.observations:
        match entry:
            case SuggestionSeen(seat=seat, refuter=refuter, shown=str(card)) if (
                seat == receiver and refuter == me
            ):
                out.add(card)
            case SleuthSeen(seat=seat) if seat == receiver:
                for answer in entry.answers:
                    if answer.seat == me and answer.card is not None:
                        out.add(answer.card)
            case TipSeen(seat=seat, target=target, cards=list(cards)) if (
                seat == receiver and target == me
            ):
                out.update(cards)
            case _:
                pass
    return out


def least_revealing(view: PlayerView, receiver: int, options: list[str], rng: random.Random) -> str:
    seen = shown_to(view, receiver)
    best = max(((*reveals_least(c, seen), rng.random()), c) for c in options)
    return best[1]


def show(view: PlayerView, prompt: PromptInfo, rng: random.Random) -> ShowCard:
    options = [o[0] for o in prompt.options or []]
    assert prompt.to is not None and options
    return ShowCard(seat=view.seat, card=least_revealing(view, prompt.to, options, rng))


def answer_tip(view: PlayerView, prompt: PromptInfo, rng: random.Random) -> AnswerTip:
    """A forced answer as it is; a choice of one card: the least revealing one."""
    options = prompt.options or [[]]
    if len(options) == 1:
        return AnswerTip(seat=view.seat, cards=list(options[0]))
    assert prompt.to is not None
    card = least_revealing(view, prompt.to, [o[0] for o in options], rng)
    return AnswerTip(seat=view.seat, cards=[card])
