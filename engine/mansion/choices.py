"""Odds accounting for how players choose (Mansion): which card a refuter shows, which one
a Super Sleuth answerer shows, which one a Private Tip returns.

The exact notes (`deduction.py`) count every consistent deal alike: as if a player holding
two of the named cards had no preference between them. Players have one: the AI levels show
the card that reveals least (one the receiver has already seen from them, else a card of
the larger kind: a destination, one of nine, before a suspect or vehicle, one of six:
`reveals_least`, which the AI shows by). So when a refuter shows you a suspect, a deal in
which it also held the named destination is less likely than the counts say.

The stated model (`SHOW_MODEL`): every choice this seat saw (a card shown to it, a one-card
tip answered to it) was made as the AI makes it with weight `SHOW_MODEL`, at random among
the cards that fit otherwise. A deal's weight is the product of the chances of those
choices. The posterior of a solution is its exact deal count times the mean weight of its
deals, the mean read off `SAMPLES` deals drawn uniformly from the consistent ones (seeded
from the view: the same view, the same odds); a solution none of them has keeps the mean
weight of all. So the odds never leave the exact support: a card the exact notes rule out
stays at 0, a certain one at 1. Their sampling error against the exact weighted sum over
every deal is checked by tests/mansion/test_choices.py.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from engine.mansion.cards import ACTIONS, BY_KIND, CLUES, matches
from engine.mansion.deduction import Deal, Deduction, TripleIds, solve_and_sample
from engine.mansion.facts import CARD_IDS
from engine.mansion.observations import SleuthSeen, SuggestionSeen, TipSeen
from engine.mansion.views import PlayerView

SHOW_MODEL = 0.8
"""Weight of the AI's least-revealing choice in the mixture; the rest is a uniform choice."""
SAMPLES = 512
"""Deals drawn to weigh each possible solution."""

Hands = Mapping[int, frozenset[str]]


def reveals_least(card: str, seen: Collection[str]) -> tuple[bool, int]:
    """How little showing `card` reveals to a receiver who has `seen` these cards of this
    seat's (greater is less): a card seen already, else the larger kind."""
    return card in seen, len(BY_KIND[CLUES[card].kind])


@dataclass(frozen=True)
class Choice:
    """One choice the seat saw: `seat` showed it `card` out of the cards of its hand that
    fit `fits`, having shown it the cards `seen` before."""

    seat: int
    card: str
    fits: frozenset[str]
    seen: frozenset[str]

    def chance(self, hand: frozenset[str], model: float = SHOW_MODEL) -> float:
        """The chance of this choice from `hand` (which holds `card`)."""
        options = sorted(hand & self.fits)
        ranks = {c: reveals_least(c, self.seen) for c in options}
        best = [c for c in options if ranks[c] == max(ranks.values())]
        chosen = 1 / len(best) if self.card in best else 0.0
        return model * chosen + (1 - model) / len(options)


@dataclass(frozen=True)
class ChoiceOdds:
    """The possible solutions with their probabilities under the choice model."""

    triples: dict[TripleIds, float]

    def solution_probability(self, card: str) -> float:
        return sum(p for t, p in self.triples.items() if card in t)

    def triple_probability(self, triple: TripleIds) -> float:
        return self.triples.get(triple, 0.0)

    def likeliest(self) -> list[TripleIds]:
        return sorted(self.triples, key=lambda t: (-self.triples[t], t))


def choices(view: PlayerView) -> list[Choice]:
    """Every choice made for `view.seat` that it saw, in order."""
    return _seen(view)[0]


def shown_by(view: PlayerView) -> dict[int, set[str]]:
    """The cards each seat has shown `view.seat` (suggestions, sleuths, tips)."""
    return _seen(view)[1]


def _seen(view: PlayerView) -> tuple[list[Choice], dict[int, set[str]]]:
    me = view.seat
    shown: dict[int, set[str]] = {}
    out: list[Choice] = []

    def saw(seat: int, card: str, fits: frozenset[str]) -> None:
        before = frozenset(shown.get(seat, ()))
        out.append(Choice(seat, card, fits, before))
        shown.setdefault(seat, set()).add(card)

    for entry in view.observations:
        match entry:
            case SuggestionSeen(seat=seat, refuter=int(refuter), shown=str(card)) if seat == me:
                saw(refuter, card, frozenset(entry.named.cards()))
            case SleuthSeen(seat=seat) if seat == me:
                fits = _fitting(entry.card)
                for answer in entry.answers:
                    if answer.card is not None:
                        saw(answer.seat, answer.card, fits)
            case TipSeen(seat=seat, card=str(tip), cards=list(cards)) if seat == me:
                if len(cards) == 1 and not ACTIONS[tip].all_of_kind:
                    saw(entry.target, cards[0], _fitting(tip))
                else:
                    shown.setdefault(entry.target, set()).update(cards)
            case _:
                pass
    return out, shown


def weight(seen: list[Choice], hands: Hands, model: float = SHOW_MODEL) -> float:
    """A deal's weight: the chance of every choice seen, from the hands of the deal."""
    out = 1.0
    for choice in seen:
        out *= choice.chance(hands[choice.seat], model)
    return out


def odds(
    view: PlayerView, samples: int = SAMPLES, model: float = SHOW_MODEL
) -> tuple[Deduction, ChoiceOdds]:
    """The exact deduction and the posterior under the choice model (module docstring)."""
    rng = random.Random(f"choices:{view.seat}:{len(view.observations)}:{sorted(view.clues)}")
    seen = choices(view)
    d, deals = solve_and_sample(view, samples if seen else 0, rng)
    return d, weigh(d, deals, seen, model)


def weigh(d: Deduction, deals: list[Deal], seen: list[Choice], model: float) -> ChoiceOdds:
    """Each possible solution's exact count times the mean weight of its drawn deals."""
    sums: dict[TripleIds, list[float]] = {}
    for deal in deals:
        w = weight(seen, _hands(deal), model)
        acc = sums.setdefault(deal.solution, [0.0, 0.0])
        acc[0] += w
        acc[1] += 1
    overall = sum(s for s, _ in sums.values()) / len(deals) if deals else 1.0
    raw = {
        t: n * (sums[t][0] / sums[t][1] if t in sums else overall) for t, n in d.triples.items()
    }
    total = sum(raw.values())
    return ChoiceOdds({t: w / total for t, w in raw.items()})


def _fitting(action_card: str) -> frozenset[str]:
    info = ACTIONS[action_card]
    return frozenset(c for c in CLUES if matches(c, info))


def _hands(deal: Deal) -> dict[int, frozenset[str]]:
    return {seat: _cards(mask) for seat, mask in enumerate(deal.hands)}


def _cards(mask: int) -> frozenset[str]:
    """The cards of a hand's bit mask, found bit by bit (tens of thousands of deals a game:
    a hand has a few cards of the whole deck)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(CARD_IDS[low.bit_length() - 1])
        mask ^= low
    return frozenset(cards)
