"""What each play would reveal, scored by the possible solutions it removes at once.

Shared by the expert (which picks the play scoring best) and the coach (which ranks every
play by the possible solutions expected to be left). A card the seat is shown removes every
possible solution naming it; a suggestion nobody refutes pins the named cards the seat does
not hold. The chance of each outcome is read off deals drawn uniformly from those consistent
with the seat's view (`deduction.solve_and_sample`), each refuter or answerer choosing among
its matching cards alike, or as `Shows` models; a Snoop's chances come exactly from the
holder counts. The expert scores an outcome by its information (`Board.gain`) rather than
by the solutions it removes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import log

from engine.mansion import legal
from engine.mansion.cards import ACTIONS, matches
from engine.mansion.choices import reveals_least
from engine.mansion.deduction import Deal, Deduction
from engine.mansion.facts import CARD_IDS, INDEX
from engine.mansion.views import PlayerView


@dataclass(frozen=True)
class Shows:
    """How answerers are expected to choose the card they show (`choices`): with weight
    `model` the least revealing one (`reveals_least`, given the cards `seen[seat]` that seat
    has already shown this one), else any of those that fit alike. `model` 0: all alike."""

    model: float = 0.0
    seen: Mapping[int, frozenset[int]] = field(default_factory=dict)

    def chances(self, seat: int, cards: Sequence[int]) -> list[float]:
        """The chance of each of `cards` (those `seat` holds that fit) being shown."""
        if len(cards) == 1:
            return [1.0]
        uniform = (1 - self.model) / len(cards)
        if not self.model:
            return [uniform] * len(cards)
        seen = {CARD_IDS[c] for c in self.seen.get(seat, frozenset())}
        ranks = [reveals_least(CARD_IDS[c], seen) for c in cards]
        top = max(ranks)
        best = ranks.count(top)
        return [uniform + (self.model / best if r == top else 0.0) for r in ranks]


class Board:
    """What scoring needs, computed once per decision."""

    def __init__(
        self,
        view: PlayerView,
        d: Deduction,
        deals: Sequence[Deal],
        weighted: bool = False,
        pins: bool = False,
        *,
        shows: Shows | None = None,
        information: bool = False,
    ) -> None:
        """`weighted`: a removed solution is worth its probability (scaled to the count)
        instead of 1. `shows`:
        how answerers choose (uniformly by default). `information`: score each outcome by
        the information it brings, -ln(share of the worth left), instead of the worth it
        removes: a play that may settle everything beats one that surely trims a little."""
        self.view = view
        self.weighted = weighted
        self.pins = pins
        self.shows = shows or Shows()
        self.information = information
        self.d = d
        self.me = view.seat
        self.players = len(view.seats)
        possible = list(d.triples)
        self.possible = len(possible)
        # Per card: the possible solutions naming it, as a bitmask over `possible`.
        self.naming = [0] * len(CARD_IDS)
        for t, triple in enumerate(possible):
            for card in triple:
                self.naming[INDEX[card]] |= 1 << t
        # What removing each possible solution is worth: 1 (count them), or its probability
        # scaled to the count (mass).
        if weighted:
            self.worth = [d.triples[t] * len(possible) / d.total for t in possible]
        else:
            self.worth = [1.0] * len(possible)
        self.mass = sum(self.worth)
        self.removes = [self._worth(m) for m in self.naming]
        self.gains = [self.gain(r) for r in self.removes]
        self.all_possible = (1 << len(possible)) - 1
        self.deals = deals
        self.everyone = (1 << len(deals)) - 1
        # holds[seat][card]: bitmask of the deals in which seat holds card.
        self.holds = [[0] * len(CARD_IDS) for _ in range(self.players)]
        for k, deal in enumerate(deals):
            bit = 1 << k
            for seat, hand in enumerate(deal.hands):
                h = hand
                while h:
                    low = h & -h
                    self.holds[seat][low.bit_length() - 1] |= bit
                    h ^= low
        self.mine = {INDEX[c] for c in view.clues}
        self.shown_memo: dict[tuple[int, tuple[int, int, int], int], float] = {}
        """`_shown` by its arguments: asked again for every deal sampled and every seat."""

    def gain(self, removed: float) -> float:
        """The score of an outcome removing `removed` worth (see `information`)."""
        if not self.information:
            return removed
        left = max(self.mass - removed, 1e-9 * self.mass)
        return log(self.mass / left) if self.mass else 0.0

    def _worth(self, mask: int) -> float:
        if not self.weighted:
            return float(mask.bit_count())
        total = 0.0
        while mask:
            low = mask & -mask
            total += self.worth[low.bit_length() - 1]
            mask ^= low
        return total

    def shown_removal(self, cards: Sequence[int]) -> float:
        """The score (`gain`) of learning that all `cards` are held."""
        mask = 0
        for c in cards:
            mask |= self.naming[c]
        return self.gain(self._worth(mask))

    def suggestion(self, named: tuple[int, int, int]) -> float:
        """Expected score of suggesting `named` (card indices)."""
        order = legal.refutation_order(self.view, self.me)
        left = self.everyone
        total = 0.0
        scores = [self.gains[c] for c in named]
        passed = 0
        for seat in order:
            row = self.holds[seat]
            held = [row[c] & left for c in named]
            some = held[0] | held[1] | held[2]
            passed_before, passed = passed, passed | 1 << seat
            if not some:
                continue
            if self.pins and passed_before:
                scores = [self._shown(c, named, passed_before) for c in named]
            for subset in _SUBSETS:
                deals = some
                for i in range(3):
                    deals &= held[i] if i in subset else ~held[i]
                if deals:
                    cards = [named[i] for i in subset]
                    chances = zip(self.shows.chances(seat, cards), subset, strict=True)
                    total += _pop(deals) * sum(p * scores[i] for p, i in chances)
            left &= ~some
            if not left:
                break
        if left:
            pinned = self.all_possible
            for c in named:
                if c not in self.mine:
                    pinned &= self.naming[c]
            total += _pop(left) * self.gain(self._worth(self.all_possible & ~pinned))
        return total / len(self.deals)

    def _shown(self, card: int, named: tuple[int, int, int], passed: int) -> float:
        """The score of `card` shown after the seats of `passed` (a bitmask) held none of
        `named`: it removes the solutions naming it, and, for a named card no other seat may
        now hold, those not naming it (it can only be the solution's)."""
        got = self.shown_memo.get((card, named, passed))
        if got is None:
            mask = self.naming[card]
            for x in named:
                if x != card and x not in self.mine and self.pinnable(x, passed):
                    mask |= self.all_possible & ~self.naming[x]
            got = self.shown_memo[(card, named, passed)] = self.gain(self._worth(mask))
        return got

    def pinnable(self, card: int, excluded: int) -> bool:
        """Once the seats of `excluded` are known not to hold `card`, only the solution may."""
        column = self.d.holders[CARD_IDS[card]]
        return bool(column[-1]) and all(
            not column[seat] or excluded >> seat & 1 for seat in range(self.players)
        )

    def snoop(self, target: int) -> float:
        """Expected score of looking at one random card of `target` (exact)."""
        size = self.view.seats[target].clue_count
        if not size:
            return 0.0
        total = self.d.total
        return (
            sum(
                self.d.holders[card][target] / total * self.gains[INDEX[card]]
                for card in CARD_IDS
            )
            / size
        )

    def all_snoop(self, action_card: str) -> float:
        """An All Snoop: this seat looks at one card of its neighbour on the card's side
        (Left hands go left, so it sees its right neighbour's)."""
        return self.snoop(all_snoop_target(self.view, action_card))

    def sleuth(self, action_card: str) -> float:
        """Every opponent shows one matching card (its choice) or nothing."""
        info = ACTIONS[action_card]
        feature = [INDEX[c] for c in CARD_IDS if matches(c, info)]
        total = 0.0
        for k in range(len(self.deals)):
            bit = 1 << k
            options: list[Answers] = []
            for seat in range(self.players):
                if seat == self.me:
                    continue
                held = [c for c in feature if self.holds[seat][c] & bit]
                if held:
                    options.append(list(zip(held, self.shows.chances(seat, held), strict=True)))
            total += self._expected_union(options)
        return total / len(self.deals)

    def _expected_union(self, options: list[Answers]) -> float:
        """Expected score when each seat shows one card of its list, by its chances."""
        if not options:
            return 0.0
        if all(len(o) == 1 for o in options):
            return self.shown_removal([o[0][0] for o in options])
        # Few seats and few cards: enumerate the choices with their chances.
        combos: list[tuple[list[int], float]] = [([], 1.0)]
        for o in options:
            combos = [([*c, x], p * q) for c, p in combos for x, q in o if q]
            if len(combos) > 64:
                return self._union_by_solution(options)
        return sum(p * self.shown_removal(c) for c, p in combos)

    def _union_by_solution(self, options: list[Answers]) -> float:
        """The expected worth removed, solution by solution (the lists belong to different
        seats, so they are disjoint and a solution survives each draw independently), then
        scored as one outcome (exact for the worth; for `information`, an approximation)."""
        union = 0
        for o in options:
            for x, _ in o:
                union |= self.naming[x]
        total = 0.0
        while union:
            low = union & -union
            survive = 1.0
            for o in options:
                survive *= 1 - sum(q for x, q in o if self.naming[x] & low)
            total += self.worth[low.bit_length() - 1] * (1 - survive)
            union ^= low
        return self.gain(total)

    def tip(self, action_card: str, target: int) -> float:
        info = ACTIONS[action_card]
        feature = [INDEX[c] for c in CARD_IDS if matches(c, info)]
        total = 0.0
        for k in range(len(self.deals)):
            bit = 1 << k
            held = [c for c in feature if self.holds[target][c] & bit]
            if not held:
                continue
            if info.all_of_kind:
                total += self.shown_removal(held)
            else:
                chances = self.shows.chances(target, held)
                total += sum(p * self.gains[c] for c, p in zip(held, chances, strict=True))
        return total / len(self.deals)


Answers = list[tuple[int, float]]
"""One seat's possible answers: (card index, chance of showing it)."""
_SUBSETS = ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2))
"""Which of a suggestion's three named cards a refuter holds."""


def _pop(x: int) -> int:
    return x.bit_count()


def all_snoop_target(view: PlayerView, card: str) -> int:
    """The seat whose hand `view.seat` looks at when `card` (an All Snoop) is played."""
    n = len(view.seats)
    return (view.seat - 1) % n if ACTIONS[card].direction == "left" else (view.seat + 1) % n
