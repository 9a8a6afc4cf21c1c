"""What one seat's observation record says about the hidden deal, as plain set constraints.

`facts(view)` reads a `PlayerView` only (its own hand, its observation record, the public
hand sizes and, when the seat has seen it, the solution) and returns `Facts`: the hand
sizes, the cards whose holder the seat knows, and per seat the cards it cannot hold and the
"holds at least k of these" constraints. The notes (`notes.py`), the exact solver
(`deduction.py`), the brute-force reference (`bruteforce.py`) and the AI all start here,
so they cannot disagree about what a record means.

The facts, by observation (see `observations.py`):

- the seat's own hand: held by the seat, and nothing else is;
- `suggestion`: every seat in `passed` holds none of the three; the refuter holds at least
  one of them (it is asked which to show even when only one fits, so that is all the table
  learns); the card shown is known to the suggester; with no refuter, everyone asked holds
  none of the three;
- `snoop` / `all_snoop`: the card the seat looked at is held by the seat it looked at;
- `super_sleuth`: a seat that showed nothing holds no card with the feature; one that
  showed (or is still choosing) holds at least one; the sleuth knows the cards shown;
- `private_tip` (for the giver): "all your ..." returns exactly that seat's cards of the
  kind, so it holds no other; a "one ..." tip returns one matching card, or nothing, in
  which case the seat holds no matching card;
- the solution, once this seat has seen it (the fugitive, an accuser, or the game's end).

Facts are only ever true statements about the real deal, so a consistent deal always exists.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.mansion import observations as obs
from engine.mansion.cards import ACTIONS, BY_KIND, CLUES, Kind, matches
from engine.mansion.records import Triple
from engine.mansion.views import PlayerView

CARD_IDS: tuple[str, ...] = tuple(CLUES)
"""The 21 Clue cards in table order (suspects, vehicles, destinations)."""
INDEX: dict[str, int] = {card: i for i, card in enumerate(CARD_IDS)}
KIND_MASKS: tuple[int, int, int] = (
    sum(1 << INDEX[c] for c in BY_KIND[Kind.SUSPECT]),
    sum(1 << INDEX[c] for c in BY_KIND[Kind.VEHICLE]),
    sum(1 << INDEX[c] for c in BY_KIND[Kind.DESTINATION]),
)
ALL_CARDS = (1 << len(CARD_IDS)) - 1


def mask_of(cards: Iterable[str]) -> int:
    """The bitmask (bit i = CARD_IDS[i]) of an iterable of card ids."""
    out = 0
    for card in cards:
        out |= 1 << INDEX[card]
    return out


def cards_of(mask: int) -> list[str]:
    """The card ids of a bitmask, in table order."""
    return [card for i, card in enumerate(CARD_IDS) if mask >> i & 1]


MANY = 99
"""An upper bound that bounds nothing."""


@dataclass(frozen=True)
class Holds:
    """`seat` holds between `low` and `high` (inclusive) of the cards in `cards` (a bitmask)."""

    seat: int
    cards: int
    low: int
    high: int = MANY


@dataclass
class Facts:
    """Everything a seat's record says about the deal, card sets as bitmasks."""

    seat: int
    players: int
    sizes: list[int]
    """Clue hand size of every seat."""
    held: list[int]
    """Per seat: the cards this seat knows it holds (its own hand for itself)."""
    none: list[int]
    """Per seat: cards it is known not to hold (its own column: everything else)."""
    counts: list[Holds] = field(default_factory=list)
    """"Holds at least one of these" facts (`Holds` also bounds from above)."""
    solution: Triple | None = None
    """The solution, when this seat has seen it."""

    def known_holder(self) -> dict[str, int]:
        """Card → the seat known to hold it."""
        out: dict[str, int] = {}
        for seat, mask in enumerate(self.held):
            for card in cards_of(mask):
                out[card] = seat
        return out


def sleuth_mask(card: str) -> int:
    """The Clue cards answering a Super Sleuth or Private Tip card."""
    info = ACTIONS[card]
    return mask_of(c for c in CARD_IDS if matches(c, info))


def kind_mask(card: str) -> int:
    """All Clue cards of the kind a Private Tip card asks for."""
    kind = ACTIONS[card].kind
    assert kind is not None
    return mask_of(BY_KIND[kind])


def facts(view: PlayerView) -> Facts:
    """The constraints `view.seat` may use, read from its own view only."""
    players = len(view.seats)
    seat = view.seat
    sizes = [s.clue_count for s in view.seats]
    for entry in view.observations:
        if isinstance(entry, obs.DealtSeen):
            sizes = list(entry.clue_counts)
    held = [0] * players
    none = [0] * players
    mine = mask_of(view.clues)
    held[seat] = mine
    none[seat] = ALL_CARDS & ~mine
    out = Facts(seat=seat, players=players, sizes=sizes, held=held, none=none)
    for entry in view.observations:
        match entry:
            case obs.SuggestionSeen():
                named = mask_of(entry.named.cards())
                for other in entry.passed:
                    none[other] |= named
                if entry.refuter is not None:
                    out.counts.append(Holds(entry.refuter, named, 1))
                    if entry.shown is not None:
                        held[entry.refuter] |= mask_of([entry.shown])
            case obs.SnoopSeen(card=str(card)):
                held[entry.target] |= mask_of([card])
            case obs.AllSnoopSeen(card=str(card)):
                look = next(look for look in entry.looks if look.looker == seat)
                held[look.target] |= mask_of([card])
            case obs.SleuthSeen():
                feature = sleuth_mask(entry.card)
                for answer in entry.answers:
                    if answer.answered and answer.showed is False:
                        none[answer.seat] |= feature
                        continue
                    out.counts.append(Holds(answer.seat, feature, 1))
                    if answer.card is not None:
                        held[answer.seat] |= mask_of([answer.card])
            case obs.TipSeen(card=str(tip), cards=list(cards)) if entry.seat == seat:
                returned = mask_of(cards)
                held[entry.target] |= returned
                if ACTIONS[tip].all_of_kind:
                    none[entry.target] |= kind_mask(tip) & ~returned
                elif not cards:
                    none[entry.target] |= sleuth_mask(tip)
            case _:
                pass
    if view.solution is not None:
        out.solution = view.solution
    return out
