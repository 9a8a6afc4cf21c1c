"""What each play would reveal, scored by the possible solutions it removes at once.

Shared by the expert (which picks the play removing the most) and the coach (which ranks
every play by the possible solutions expected to be left). A card the seat is shown removes
every possible solution naming it; a suggestion nobody refutes pins the named cards the seat
does not hold. The chance of each outcome is read off deals drawn uniformly from those
consistent with the seat's view (`deduction.solve_and_sample`), each refuter or answerer
choosing among its matching cards alike; a Snoop's chances come exactly from the holder
counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.mansion import legal
from engine.mansion.cards import ACTIONS, matches
from engine.mansion.deduction import Deal, Deduction
from engine.mansion.facts import CARD_IDS, INDEX
from engine.mansion.views import PlayerView


class Board:
    """What scoring needs, computed once per decision."""

    def __init__(
        self,
        view: PlayerView,
        d: Deduction,
        deals: Sequence[Deal],
        weighted: bool = False,
        pins: bool = False,
    ) -> None:
        self.view = view
        self.weighted = weighted
        self.pins = pins
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
        self.removes = [self._worth(m) for m in self.naming]
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

    def _worth(self, mask: int) -> float:
        if not self.weighted:
            return float(bin(mask).count("1"))
        total = 0.0
        while mask:
            low = mask & -mask
            total += self.worth[low.bit_length() - 1]
            mask ^= low
        return total

    def shown_removal(self, cards: Sequence[int]) -> float:
        """Possible solutions removed once all `cards` are known to be held."""
        mask = 0
        for c in cards:
            mask |= self.naming[c]
        return self._worth(mask)

    def suggestion(self, named: tuple[int, int, int]) -> float:
        """Expected solutions removed by suggesting `named` (card indices)."""
        order = legal.refutation_order(self.view, self.me)
        left = self.everyone
        total = 0.0
        s, v, d = named
        rs, rv, rd = (self.removes[c] for c in named)
        passed = 0
        for seat in order:
            row = self.holds[seat]
            hs, hv, hd = row[s] & left, row[v] & left, row[d] & left
            some = hs | hv | hd
            passed_before, passed = passed, passed | 1 << seat
            if not some:
                continue
            if self.pins and passed_before:
                rs, rv, rd = (self._shown(c, named, passed_before) for c in named)
            total += (
                _pop(hs & ~hv & ~hd) * rs
                + _pop(hv & ~hs & ~hd) * rv
                + _pop(hd & ~hs & ~hv) * rd
                + _pop(hs & hv & ~hd) * (rs + rv) / 2
                + _pop(hs & hd & ~hv) * (rs + rd) / 2
                + _pop(hv & hd & ~hs) * (rv + rd) / 2
                + _pop(hs & hv & hd) * (rs + rv + rd) / 3
            )
            left &= ~some
            if not left:
                break
        if left:
            pinned = self.all_possible
            for c in named:
                if c not in self.mine:
                    pinned &= self.naming[c]
            total += _pop(left) * self._worth(self.all_possible & ~pinned)
        return total / len(self.deals)

    def _shown(self, card: int, named: tuple[int, int, int], passed: int) -> float:
        """Solutions removed when `card` is shown after the seats of `passed` (a bitmask)
        held none of `named`: those naming it, and, for a named card no other seat may
        now hold, those not naming it (it can only be the solution's)."""
        mask = self.naming[card]
        for x in named:
            if x != card and x not in self.mine and self.pinnable(x, passed):
                mask |= self.all_possible & ~self.naming[x]
        return self._worth(mask)

    def pinnable(self, card: int, excluded: int) -> bool:
        """Once the seats of `excluded` are known not to hold `card`, only the solution may."""
        column = self.d.holders[CARD_IDS[card]]
        return bool(column[-1]) and all(
            not column[seat] or excluded >> seat & 1 for seat in range(self.players)
        )

    def snoop(self, target: int) -> float:
        """Expected solutions removed by looking at one random card of `target` (exact)."""
        size = self.view.seats[target].clue_count
        if not size:
            return 0.0
        total = self.d.total
        return (
            sum(
                self.d.holders[card][target] / total * self.removes[INDEX[card]]
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
            options: list[list[int]] = []
            for seat in range(self.players):
                if seat == self.me:
                    continue
                held = [c for c in feature if self.holds[seat][c] & bit]
                if held:
                    options.append(held)
            total += self._expected_union(options)
        return total / len(self.deals)

    def _expected_union(self, options: list[list[int]]) -> float:
        """Expected removal when one card is drawn uniformly from each list."""
        if not options:
            return 0.0
        if all(len(o) == 1 for o in options):
            return self.shown_removal([o[0] for o in options])
        # Few seats and few cards: enumerate the choices, weighting each equally.
        combos: list[list[int]] = [[]]
        for o in options:
            combos = [[*c, x] for c in combos for x in o]
            if len(combos) > 64:
                return self._union_by_solution(options)
        return sum(self.shown_removal(c) for c in combos) / len(combos)

    def _union_by_solution(self, options: list[list[int]]) -> float:
        """The same figure, solution by solution: the lists belong to different seats, so
        they are disjoint and a solution survives each draw independently."""
        union = 0
        for o in options:
            for x in o:
                union |= self.naming[x]
        total = 0.0
        while union:
            low = union & -union
            survive = 1.0
            for o in options:
                hit = sum(1 for x in o if self.naming[x] & low)
                survive *= 1 - hit / len(o)
            total += self.worth[low.bit_length() - 1] * (1 - survive)
            union ^= low
        return total

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
                total += sum(self.removes[c] for c in held) / len(held)
        return total / len(self.deals)


def _pop(x: int) -> int:
    return bin(x).count("1")


def all_snoop_target(view: PlayerView, card: str) -> int:
    """The seat whose hand `view.seat` looks at when `card` (an All Snoop) is played."""
    n = len(view.seats)
    return (view.seat - 1) % n if ACTIONS[card].direction == "left" else (view.seat + 1) % n
