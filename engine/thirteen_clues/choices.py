"""Odds accounting for how players choose (13 Clues): the pass onto a seat's holder.

The exact marks and odds (`deduction.py`) count every consistent assignment alike: as if
whoever filled the seat's holder had picked its three cards from their five at random. A
player does not: the AI levels never pass three cards of one suit when they can help it,
and normal and expert pass three suits and keep the passed suits' other cards behind
their screen (`best_passes`, which the AI passes by). So a holder of three suits, whose
suit-mates sit behind the passer's screen, is likelier than the counts say.

The stated model (`PASS_MODEL`): the player on the seat's right (who filled its holder)
passes as the careful AI does with weight `PASS_MODEL`, and at random among the legal
passes of their five cards otherwise. Every other pass is taken to carry no information
(those holders are seen; their passers' screens weigh on the seat's holder only through
the answers). Under it the posterior is exact: each (holder, passer's screen) pair of
`deduction.slot_joint` is weighted by the chance of that pass from those five cards.
These odds are kept apart from the exact marks: the weight is never 0, so a card the
exact deduction rules out stays at 0 and a certain one stays certain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.thirteen_clues import deduction
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.deduction import Deduction, Joint, Triple
from engine.thirteen_clues.views import PlayerView

PASS_MODEL = 0.8
"""Weight of the careful AI's pass in the mixture; the rest is a uniform pass."""


@dataclass(frozen=True)
class ChoiceOdds:
    """The seat's holder triples with their probabilities under the choice model."""

    triples: dict[Triple, float]

    def probability(self, card: str) -> float:
        """P(card is on the own holder) under the choice model."""
        return sum(p for t, p in self.triples.items() if card in t)

    def triple_probability(self, triple: Triple) -> float:
        return self.triples.get(triple, 0.0)

    def likeliest(self) -> list[Triple]:
        """Triples, likeliest first (ties in card order, for stable output)."""
        return sorted(self.triples, key=lambda t: (-self.triples[t], t))


def passes(dealt: Sequence[str]) -> list[tuple[str, str, str]]:
    """Every legal pass from these five cards, in their order."""
    persons, locations, weapons = (
        [c for c in dealt if CARDS[c].category == cat] for cat in Category
    )
    return [(p, loc, w) for p in persons for loc in locations for w in weapons]


def _suits(triple: tuple[str, ...]) -> set[str]:
    return {CARDS[c].suit for c in triple}


def best_passes(dealt: Sequence[str], careful: bool) -> list[tuple[str, str, str]]:
    """The passes the AI chooses among (at random) from these five cards: never three cards
    of one suit when avoidable (the receiver's suit counts would jump by 3). `careful`: three
    different suits, and keep behind the screen the suit-mates of the passed cards, since
    the receiver cannot see the screen: those suits stay ambiguous (a suit answer could come
    from the holder or from a screen)."""
    best: list[tuple[str, str, str]] = []
    best_score = None
    for triple in passes(dealt):
        suits = _suits(triple)
        if careful:
            kept = [c for c in dealt if c not in triple]
            score = (len(suits), sum(CARDS[c].suit in suits for c in kept))
        else:
            score = (int(len(suits) > 1), 0)
        if best_score is None or score > best_score:
            best, best_score = [triple], score
        elif score == best_score:
            best.append(triple)
    return best


Shape = tuple[str, ...]
"""Five dealt cards as a pass sees them: grouped by suit (which suit does not matter, only
which cards share one), each card a letter for its category, upper case in the holder and
lower case behind the screen; sorted."""

_LETTER = {c: (card.suit, card.category.value[0]) for c, card in CARDS.items()}

_BY_SHAPE: dict[tuple[Shape, float], float] = {}
"""`pass_chance` of each shape met so far (114 shapes in all, for each model)."""


def pass_chance(holder: Triple, screen: tuple[str, ...], model: float = PASS_MODEL) -> float:
    """The chance that a player dealt `holder` and `screen` passes `holder`. It depends only
    on the cards' categories, on which share a suit and on which are in the holder
    (`best_passes` compares suits, and looks at nothing else), so it is computed once per
    shape. Kept per pair of card sets instead (no two cards share category and suit:
    351,000 pairs), a process's first minutes missed the cache for most of the pairs
    of one `odds`: 30-100 ms of the event loop at a 13 Clues answer, which set a cluster's
    first-callback tail (`bench.cluster`)."""
    key = (_shape(holder, screen), model)
    found = _BY_SHAPE.get(key)
    if found is None:
        found = _BY_SHAPE[key] = _chance(frozenset(holder), frozenset(screen), model)
    return found


def _shape(holder: Triple, screen: tuple[str, ...]) -> Shape:
    suits: dict[str, str] = {}
    for c in holder:
        suit, letter = _LETTER[c]
        suits[suit] = suits.get(suit, "") + letter.upper()
    for c in screen:
        suit, letter = _LETTER[c]
        suits[suit] = suits.get(suit, "") + letter
    return tuple(sorted("".join(sorted(group)) for group in suits.values()))


def _chance(holder: frozenset[str], screen: frozenset[str], model: float) -> float:
    dealt = sorted(holder | screen)
    legal = passes(dealt)
    careful = best_passes(dealt, careful=True)
    chosen = 1 / len(careful) if any(set(t) == holder for t in careful) else 0.0
    return model * chosen + (1 - model) / len(legal)


def odds(view: PlayerView, joint: Joint | None = None, model: float = PASS_MODEL, *,
         solved: Deduction | None = None) -> ChoiceOdds:
    """The posterior over `view.seat`'s holder under the choice model (module docstring).
    `joint` saves computing `deduction.slot_joint` again; without it only the passer's screen
    is counted (from `solved`'s counts when given): the whole joint, every screen and
    informant letter, took up to 40 ms of the event loop at a casebook update
    (`bench.cluster`), the passer's screen under 8 ms."""
    screen_of_passer = f"screen:{(view.seat - 1) % view.options.players}"
    if joint is None:
        joint = deduction.slot_joint(view, [screen_of_passer], solved=solved)
    weights: dict[Triple, float] = {}
    for (triple, screen), ways in joint.get(screen_of_passer, {}).items():
        weights[triple] = weights.get(triple, 0.0) + ways * pass_chance(triple, screen, model)
    total = sum(weights.values())
    if not total:
        return ChoiceOdds({})
    return ChoiceOdds({t: w / total for t, w in weights.items()})
