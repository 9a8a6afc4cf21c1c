"""Exact deduction for one seat of Clue: Mystery Beyond the Mansion.

The model: every complete deal (the solution, one Suspect, one Vehicle and one Destination,
and every other seat's Clue hand, of the public sizes) that agrees with everything the seat
observed (`facts.facts`) is equally likely. That is the true posterior when the solution
and the deal are uniformly random, as in the standard game, and when players' choices
(which card to show, which to return for a tip) carry no information. In One Against All
the fugitive chooses the solution; we treat that choice as uniform too (the fugitive's own
view knows the solution, so for it the question does not arise).

All figures are exact integers: the number of consistent deals in total, per solution
triple, and per (card, holder).

How: cards the seat has no knowledge about are interchangeable, so the unknown cards are
grouped into classes of identical "signature" (kind; for every other seat, whether it may
hold the card and which of its "at least k of these" constraints contain it). A deal is
then built seat by seat, each seat taking so many cards of each class (ways counted with
binomials), the last seat taking what is left but the solution (one card of each kind). A
memoised recursion over the vector of cards left per class counts the deals under each
state ("inside"); a second pass pushes the number of ways to reach each state ("outside")
forward, and the products give every marginal exactly (cards of a class are symmetric, so
a class's total splits evenly between its cards).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from math import comb

from engine.mansion.facts import (
    ALL_CARDS,
    CARD_IDS,
    INDEX,
    KIND_MASKS,
    Facts,
    facts,
)
from engine.mansion.views import PlayerView

TripleIds = tuple[str, str, str]
"""(suspect, vehicle, destination) card ids."""
State = tuple[int, ...]
"""Cards left per class."""


class Inconsistent(ValueError):
    """No deal agrees with the facts (never for a real seat's record)."""


@dataclass(frozen=True)
class Deduction:
    """What one seat can conclude, as exact counts of consistent deals."""

    seat: int
    players: int
    total: int
    """Number of consistent deals."""
    triples: dict[TripleIds, int]
    """Solution triple → consistent deals with it (only possible triples)."""
    holders: dict[str, tuple[int, ...]]
    """Card → consistent deals in which each seat holds it, then (last) the solution."""

    def solution_probability(self, card: str) -> float:
        return self.holders[card][-1] / self.total

    def holder_probability(self, card: str, column: int) -> float:
        """P(column holds card); column `players` is the solution."""
        return self.holders[card][column] / self.total

    def candidates(self) -> list[TripleIds]:
        """Possible solutions, likeliest first (ties in table order)."""
        return sorted(self.triples, key=lambda t: (-self.triples[t], *(INDEX[c] for c in t)))

    def certain(self) -> TripleIds | None:
        return next(iter(self.triples)) if len(self.triples) == 1 else None

    def triple_probability(self, triple: TripleIds) -> float:
        return self.triples.get(triple, 0) / self.total


def solve(view: PlayerView) -> Deduction:
    """Exact counts for `view.seat` under the uniform-deal model (module docstring)."""
    return solve_facts(facts(view))


def solve_facts(f: Facts) -> Deduction:
    return _Solver(f).deduction()


def sample_deals(view: PlayerView, count: int, rng: random.Random) -> list[Deal]:
    """`count` deals drawn uniformly (independently) from those consistent with `view`."""
    solver = _Solver(facts(view))
    return [solver.sample(rng) for _ in range(count)]


@dataclass(frozen=True)
class Deal:
    """A complete deal: every seat's Clue hand (bitmasks over `CARD_IDS`) and the solution."""

    hands: tuple[int, ...]
    solution: TripleIds


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass
class _Level:
    """One seat that takes cards from the pool: its capacity and rules, over classes."""

    seat: int
    cap: int
    allowed: list[int]
    """Classes it may take from, in class order."""
    rules: list[tuple[tuple[int, ...], int, int]]
    """(classes, low, high): it takes between `low` and `high` cards of these classes."""
    memo: dict[State, int] = field(default_factory=dict)
    moves: dict[State, list[tuple[State, State, int]]] = field(default_factory=dict)
    """State → [(taken per class, next state, ways)] for the valid hands."""


class _Solver:
    def __init__(self, f: Facts) -> None:
        self.f = f
        n = f.players
        self.players = n
        held = list(f.held)
        none = list(f.none)
        solution_mask = 0
        if f.solution is not None:
            solution_mask = sum(1 << INDEX[c] for c in f.solution.cards())
        rules, held_any, none = _propagate(f, held, none, solution_mask)
        self.held = held
        self.pool = ALL_CARDS & ~held_any
        self.solution_mask = solution_mask
        caps = [f.sizes[s] - _popcount(held[s]) for s in range(n)]
        if any(c < 0 for c in caps):
            raise Inconsistent("a seat holds more cards than its hand size")
        self.none = none
        deal_pool = self.pool & ~solution_mask
        # Seats taking cards from the pool: the most constrained first, the freest last (the
        # last seat's hand is forced, so its rules cost nothing to check).
        takers = [s for s in range(n) if caps[s] > 0]
        for s in range(n):
            if caps[s] == 0 and any(low > 0 for _, low, _ in rules[s]):
                raise Inconsistent("a full hand misses a card it must hold")
        takers.sort(key=lambda s: (-len(rules[s]), s))
        self.takers = takers
        # Classes: cards of the same kind that every taker treats alike.
        signatures: dict[tuple[object, ...], list[int]] = {}
        for card in _bits(deal_pool):
            kind = next(k for k, m in enumerate(KIND_MASKS) if m >> card & 1)
            sig: list[object] = [kind if f.solution is None else 0]
            for s in takers:
                sig.append(bool(none[s] >> card & 1))
                sig.append(tuple(i for i, (m, _, _) in enumerate(rules[s]) if m >> card & 1))
            signatures.setdefault(tuple(sig), []).append(card)
        self.classes: list[list[int]] = list(signatures.values())
        self.sizes: State = tuple(len(c) for c in self.classes)
        self.class_kind = [
            next(k for k, m in enumerate(KIND_MASKS) if m >> c[0] & 1) for c in self.classes
        ]
        self.class_of = {card: i for i, members in enumerate(self.classes) for card in members}

        def level_for(seat: int) -> _Level:
            allowed = [
                i for i, members in enumerate(self.classes) if not none[seat] >> members[0] & 1
            ]
            level_rules = []
            for mask, low, high in rules[seat]:
                in_rule = tuple(i for i in allowed if mask >> self.classes[i][0] & 1)
                level_rules.append((in_rule, low, high))
            return _Level(seat=seat, cap=caps[seat], allowed=allowed, rules=level_rules)

        self.levels = [level_for(s) for s in takers]
        self.last = self.levels.pop() if self.levels else None
        self.with_solution = f.solution is None
        self.final_memo: dict[State, list[tuple[tuple[int, ...], int]]] = {}
        self.total = self._inside(0, self.sizes)
        if self.total == 0:
            raise Inconsistent("no deal agrees with the facts")

    # --- counting -----------------------------------------------------------------------

    def _inside(self, depth: int, state: State) -> int:
        if depth == len(self.levels):
            return sum(w for _, w in self._finals(state))
        level = self.levels[depth]
        got = level.memo.get(state)
        if got is not None:
            return got
        moves = []
        total = 0
        for taken, ways in _hands(level, state):
            nxt = tuple(a - b for a, b in zip(state, taken, strict=True))
            inner = self._inside(depth + 1, nxt)
            if inner:
                moves.append((taken, nxt, ways))
                total += ways * inner
        level.memo[state] = total
        level.moves[state] = moves
        return total

    def _finals(self, state: State) -> list[tuple[tuple[int, ...], int]]:
        """The solution classes (one per kind, or () when known) that leave the last seat a
        valid hand, with the ways to pick the solution's cards from them."""
        got = self.final_memo.get(state)
        if got is not None:
            return got
        out: list[tuple[tuple[int, ...], int]] = []
        if self.with_solution:
            by_kind: list[list[int]] = [[], [], []]
            for i, left in enumerate(state):
                if left:
                    by_kind[self.class_kind[i]].append(i)
            for a in by_kind[0]:
                for b in by_kind[1]:
                    for c in by_kind[2]:
                        if self._last_ok(state, (a, b, c)):
                            out.append(((a, b, c), state[a] * state[b] * state[c]))
        elif self._last_ok(state, ()):
            out.append(((), 1))
        self.final_memo[state] = out
        return out

    def _last_ok(self, state: State, solution: tuple[int, ...]) -> bool:
        rest = list(state)
        for i in solution:
            rest[i] -= 1
        last = self.last
        if last is None:
            return not any(rest)
        if sum(rest) != last.cap:
            return False
        allowed = set(last.allowed)
        if any(left and i not in allowed for i, left in enumerate(rest)):
            return False
        return _obeys(rest, last.rules)

    # --- marginals ----------------------------------------------------------------------

    def deduction(self) -> Deduction:
        n = self.players
        k = len(self.classes)
        # Per class and column (seat, or n for the solution): deals x cards of the class there.
        acc = [[0] * (n + 1) for _ in range(k)]
        triple_acc: dict[tuple[int, ...], int] = {}
        frontier: dict[State, int] = {self.sizes: 1}
        for depth, level in enumerate(self.levels):
            nxt_frontier: dict[State, int] = {}
            for state, outside in frontier.items():
                for taken, nxt, ways in level.moves[state]:
                    weight = outside * ways
                    nxt_frontier[nxt] = nxt_frontier.get(nxt, 0) + weight
                    inner = weight * self._inside(depth + 1, nxt)
                    for i, t in enumerate(taken):
                        if t:
                            acc[i][level.seat] += inner * t
            frontier = nxt_frontier
        last_seat = self.last.seat if self.last is not None else None
        for state, outside in frontier.items():
            for solution, ways in self._finals(state):
                weight = outside * ways
                triple_acc[solution] = triple_acc.get(solution, 0) + weight
                for i in solution:
                    acc[i][n] += weight
                if last_seat is not None:
                    for i, left in enumerate(state):
                        there = left - solution.count(i)
                        if there:
                            acc[i][last_seat] += weight * there
        total = self.total
        holders: dict[str, tuple[int, ...]] = {}
        for column, mask in enumerate([*self.held, self.solution_mask]):
            certain = tuple(total if c == column else 0 for c in range(n + 1))
            for card in _bits(mask):
                holders[CARD_IDS[card]] = certain
        for i, members in enumerate(self.classes):
            size = len(members)
            row = tuple(_exact(v, size) for v in acc[i])
            for card in members:
                holders[CARD_IDS[card]] = row
        triples: dict[TripleIds, int] = {}
        if self.with_solution:
            for (a, b, c), count in triple_acc.items():
                share = _exact(count, len(self.classes[a]) * len(self.classes[b]))
                share = _exact(share, len(self.classes[c]))
                for x in self.classes[a]:
                    for y in self.classes[b]:
                        for z in self.classes[c]:
                            triples[(CARD_IDS[x], CARD_IDS[y], CARD_IDS[z])] = share
        else:
            assert self.f.solution is not None
            triples[self.f.solution.cards()] = total
        return Deduction(seat=self.f.seat, players=n, total=total, triples=triples, holders=holders)

    # --- sampling -----------------------------------------------------------------------

    def sample(self, rng: random.Random) -> Deal:
        """One consistent deal, uniformly at random."""
        hands = list(self.held)
        left = [list(members) for members in self.classes]
        state = self.sizes
        for depth, level in enumerate(self.levels):
            moves = level.moves[state]
            weights = [ways * self._inside(depth + 1, nxt) for _, nxt, ways in moves]
            taken, state, _ = moves[_weighted(weights, rng)]
            hands[level.seat] |= _take(left, taken, rng)
        finals = self._finals(state)
        solution = finals[_weighted([w for _, w in finals], rng)][0]
        chosen = [left[i].pop(rng.randrange(len(left[i]))) for i in solution]
        if self.last is not None:
            for members in left:
                for card in members:
                    hands[self.last.seat] |= 1 << card
        if self.with_solution:
            chosen.sort()
            triple = (CARD_IDS[chosen[0]], CARD_IDS[chosen[1]], CARD_IDS[chosen[2]])
        else:
            assert self.f.solution is not None
            triple = self.f.solution.cards()
        return Deal(hands=tuple(hands), solution=triple)


def _weighted(weights: list[int], rng: random.Random) -> int:
    """An index drawn with probability proportional to its (integer) weight."""
    roll = rng.randrange(sum(weights))
    for i, weight in enumerate(weights):
        roll -= weight
        if roll < 0:
            return i
    raise AssertionError("unreachable")


def _take(left: list[list[int]], taken: tuple[int, ...], rng: random.Random) -> int:
    mask = 0
    for i, t in enumerate(taken):
        for _ in range(t):
            mask |= 1 << left[i].pop(rng.randrange(len(left[i])))
    return mask


def _exact(numerator: int, denominator: int) -> int:
    quotient, remainder = divmod(numerator, denominator)
    assert remainder == 0, "class symmetry broken"
    return quotient


Rule = tuple[int, int, int]
"""(cards bitmask, low, high): a seat holds between low and high of these cards."""


def _propagate(
    f: Facts, held: list[int], none: list[int], solution_mask: int
) -> tuple[list[list[Rule]], int, list[int]]:
    """Direct consequences, to a fixed point: a card has one place (a held card is nobody
    else's and not the solution's); a rule allowing none of its cards crosses them out; a
    rule needing all of its cards marks them held; a hand whose every card is known holds
    nothing else. Returns the reduced rules per seat, the cards held by anyone, and `none`.
    (Mutates `held` and `none`.)"""
    n = f.players
    while True:
        held_any = 0
        for mask in held:
            held_any |= mask
        if held_any & solution_mask:
            raise Inconsistent("a solution card is held")
        for seat in range(n):
            if held[seat] & none[seat]:
                raise Inconsistent("a card is both held and not held")
            none[seat] |= (held_any & ~held[seat]) | solution_mask
            if _popcount(held[seat]) == f.sizes[seat]:
                none[seat] |= ALL_CARDS & ~held[seat]
        deal_pool = ALL_CARDS & ~held_any & ~solution_mask
        rules: list[list[Rule]] = [[] for _ in range(n)]
        changed = False
        for fact in f.counts:
            seat = fact.seat
            inside = _popcount(fact.cards & held[seat])
            cards = fact.cards & deal_pool & ~none[seat]
            low = max(0, fact.low - inside)
            high = min(fact.high - inside, _popcount(cards))
            if high < low:
                raise Inconsistent("a count rule cannot be met")
            if low == 0 and high == _popcount(cards):
                continue
            if high == 0:
                none[seat] |= cards
                changed = True
                break
            if low == _popcount(cards):
                held[seat] |= cards
                changed = True
                break
            else:
                rules[seat].append((cards, low, high))
        if not changed:
            return [_reduce(r) for r in rules], held_any, none


def _reduce(rules: list[Rule]) -> list[Rule]:
    """Drop duplicate rules and "at least" rules implied by another rule on fewer cards."""
    unique = sorted(set(rules), key=lambda r: (_popcount(r[0]), -r[1], r[0], r[2]))
    kept: list[Rule] = []
    for mask, low, high in unique:
        unbounded = high == _popcount(mask)
        implied = unbounded and any(km & mask == km and klow >= low for km, klow, _ in kept)
        if not implied:
            kept.append((mask, low, high))
    return kept


ClassRule = tuple[tuple[int, ...], int, int]
"""(classes, low, high): a seat takes between low and high cards of these classes."""


def _obeys(taken: list[int] | tuple[int, ...], rules: list[ClassRule]) -> bool:
    for classes, low, high in rules:
        got = sum(taken[i] for i in classes)
        if got < low or got > high:
            return False
    return True


def _hands(level: _Level, state: State) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every hand `level`'s seat may take from `state`: (taken per class, ways)."""
    allowed = [i for i in level.allowed if state[i]]
    room = [0] * (len(allowed) + 1)
    for j in range(len(allowed) - 1, -1, -1):
        room[j] = room[j + 1] + state[allowed[j]]
    if room[0] < level.cap:
        return
    taken = [0] * len(state)
    rules = level.rules

    def rec(j: int, need: int, ways: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if need == 0:
            if _obeys(taken, rules):
                yield tuple(taken), ways
            return
        i = allowed[j]
        have = state[i]
        low = max(0, need - room[j + 1])
        for t in range(low, min(have, need) + 1):
            taken[i] = t
            yield from rec(j + 1, need - t, ways * comb(have, t))
        taken[i] = 0

    yield from rec(0, level.cap, 1)
