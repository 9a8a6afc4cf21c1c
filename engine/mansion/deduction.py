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
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from math import comb, lcm

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
    return solve_and_sample(view, count, rng)[1]


def solve_and_sample(
    view: PlayerView, count: int, rng: random.Random
) -> tuple[Deduction, list[Deal]]:
    """`solve(view)` and `count` uniform consistent deals, from one shared computation."""
    solver = _Solver(facts(view))
    return solver.deduction(), [solver.sample(rng) for _ in range(count)]


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


SCALE = lcm(*range(1, len(CARD_IDS) + 1))
"""Divisible by every pool size: keeps the free seats' shares of a class integers."""

Rule = tuple[int, int, int]
"""(cards bitmask, low, high): a seat holds between low and high of these cards."""
ClassRule = tuple[tuple[int, ...], int, int]
"""(classes, low, high): a seat takes between low and high cards of these classes."""


@dataclass
class _Level:
    """A seat with count rules, which takes its cards class by class."""

    seat: int
    cap: int
    allowed: list[int]
    """Classes it may take from, in class order."""
    rules: list[ClassRule]
    memo: dict[State, int] = field(default_factory=dict)
    moves: dict[State, list[tuple[State, State, int]]] = field(default_factory=dict)
    """State → [(taken per class, next state, ways)] for the valid hands."""


@dataclass
class _End:
    """One way to finish from a state: the solution's groups (or classes), the ways to pick
    its cards, and the count of the free seats' pattern pools it leaves (tail mode)."""

    solution: tuple[int, ...]
    ways: int
    pools: tuple[int, ...] = ()
    tail: int = 1


class _Solver:
    """Everything one solve needs: the classes, the levels, the memo."""

    def __init__(self, f: Facts) -> None:
        self.f = f
        n = f.players
        self.players = n
        held = list(f.held)
        none = list(f.none)
        solution_mask = 0
        if f.solution is not None:
            solution_mask = sum(1 << INDEX[c] for c in f.solution.cards())
        rules = _propagate(f, held, none, solution_mask)
        self.held = held
        self.solution_mask = solution_mask
        held_any = 0
        for mask in held:
            held_any |= mask
        deal_pool = ALL_CARDS & ~held_any & ~solution_mask
        caps = [f.sizes[s] - _popcount(held[s]) for s in range(n)]
        if any(c < 0 for c in caps):
            raise Inconsistent("a seat holds more cards than its hand size")
        takers = [s for s in range(n) if caps[s] > 0]
        # Seats with count rules take their cards first, the most constrained first; seats
        # without ("free") are filled last, all at once, counting cards only by which free
        # seats may hold them. Without free seats the last ruled seat takes what is left.
        ruled = sorted((s for s in takers if rules[s]), key=lambda s: (-len(rules[s]), s))
        free = [s for s in takers if not rules[s]]
        last = ruled.pop() if ruled and not free else None
        self.with_solution = f.solution is None
        signatures: dict[tuple[object, ...], list[int]] = {}
        for card in _bits(deal_pool):
            sig: list[object] = [_kind(card) if self.with_solution else 0]
            for s in [*ruled, *([last] if last is not None else [])]:
                sig.append(bool(none[s] >> card & 1))
                sig.append(tuple(i for i, (m, _, _) in enumerate(rules[s]) if m >> card & 1))
            for s in free:
                sig.append(bool(none[s] >> card & 1))
            signatures.setdefault(tuple(sig), []).append(card)
        self.classes: list[list[int]] = list(signatures.values())
        self.sizes: State = tuple(len(c) for c in self.classes)
        self.class_kind = [_kind(c[0]) for c in self.classes]

        def level_for(seat: int) -> _Level:
            allowed = [i for i, cs in enumerate(self.classes) if not none[seat] >> cs[0] & 1]
            level_rules = [
                (tuple(i for i in allowed if mask >> self.classes[i][0] & 1), low, high)
                for mask, low, high in rules[seat]
            ]
            return _Level(seat=seat, cap=caps[seat], allowed=allowed, rules=level_rules)

        self.levels = [level_for(s) for s in ruled]
        self.last = level_for(last) if last is not None else None
        # Tail mode: classes grouped by (kind, pattern of free seats allowed to hold them).
        self.free = free
        self.tail: _Tail | None = None
        if free:
            patterns: dict[tuple[int, ...], int] = {}
            groups: dict[tuple[int, int], int] = {}
            self.group_of: list[int] = []
            self.group_kind: list[int] = []
            self.group_pattern: list[int] = []
            self.group_classes: list[list[int]] = []
            for i, members in enumerate(self.classes):
                pattern = tuple(x for x, s in enumerate(free) if not none[s] >> members[0] & 1)
                p = patterns.setdefault(pattern, len(patterns))
                key = (self.class_kind[i] if self.with_solution else 0, p)
                if key not in groups:
                    groups[key] = len(groups)
                    self.group_kind.append(key[0])
                    self.group_pattern.append(p)
                    self.group_classes.append([])
                self.group_of.append(groups[key])
                self.group_classes[groups[key]].append(i)
            self.tail = _Tail(tuple(caps[s] for s in free), list(patterns))
        self.end_memo: dict[State, list[_End]] = {}
        self.weights: dict[tuple[int, State], list[int]] = {}
        self.total = self._inside(0, self.sizes)
        if self.total == 0:
            raise Inconsistent("no deal agrees with the facts")

    # --- counting -----------------------------------------------------------------------

    def _inside(self, depth: int, state: State) -> int:
        if depth == len(self.levels):
            return sum(end.ways * end.tail for end in self._ends(state))
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

    def _ends(self, state: State) -> list[_End]:
        got = self.end_memo.get(state)
        if got is None:
            got = self._tail_ends(state) if self.tail is not None else self._last_ends(state)
            self.end_memo[state] = got
        return got

    def _tail_ends(self, state: State) -> list[_End]:
        """Tail mode: each choice of the solution's groups, and the free seats' count."""
        tail = self.tail
        assert tail is not None
        sizes = [0] * len(self.group_classes)
        for i, left in enumerate(state):
            sizes[self.group_of[i]] += left
        base = [0] * len(tail.patterns)
        for g, size in enumerate(sizes):
            base[self.group_pattern[g]] += size
        out = []
        if not self.with_solution:
            pools = tuple(base)
            count = tail.count(pools)
            if count:
                out.append(_End((), 1, pools, count))
            return out
        by_kind: list[list[int]] = [[], [], []]
        for g, size in enumerate(sizes):
            if size:
                by_kind[self.group_kind[g]].append(g)
        for a in by_kind[0]:
            for b in by_kind[1]:
                for c in by_kind[2]:
                    pools_list = list(base)
                    for g in (a, b, c):
                        pools_list[self.group_pattern[g]] -= 1
                    pools = tuple(pools_list)
                    count = tail.count(pools)
                    if count:
                        out.append(_End((a, b, c), sizes[a] * sizes[b] * sizes[c], pools, count))
        return out

    def _last_ends(self, state: State) -> list[_End]:
        """The solution's classes (one per kind, or none when known) that leave the last
        ruled seat (if any) a valid hand, with the ways to pick the solution's cards."""
        out: list[_End] = []
        if not self.with_solution:
            if self._last_ok(state, ()):
                out.append(_End((), 1))
            return out
        by_kind: list[list[int]] = [[], [], []]
        for i, left in enumerate(state):
            if left:
                by_kind[self.class_kind[i]].append(i)
        last = self.last
        if last is not None:
            # Classes the last seat may not take must go to the solution.
            allowed = set(last.allowed)
            banned = [i for i, left in enumerate(state) if left and i not in allowed]
            for i in banned:
                if state[i] > 1:
                    return out
                by_kind[self.class_kind[i]] = [j for j in by_kind[self.class_kind[i]] if j == i]
        for a in by_kind[0]:
            for b in by_kind[1]:
                for c in by_kind[2]:
                    if self._last_ok(state, (a, b, c)):
                        out.append(_End((a, b, c), state[a] * state[b] * state[c]))
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
        # Per class and column: deals x cards of the class there (free seats: x SCALE^2).
        acc = [[0] * (n + 1) for _ in range(k)]
        scaled = [[0] * (n + 1) for _ in range(k)]
        triple_acc: dict[tuple[int, int, int], int] = {}
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
        for state, outside in frontier.items():
            if self.tail is not None:
                self._tail_marginals(state, outside, scaled, triple_acc)
            else:
                self._last_marginals(state, outside, acc, triple_acc)
        total = self.total
        holders: dict[str, tuple[int, ...]] = {}
        for column, mask in enumerate([*self.held, self.solution_mask]):
            certain = tuple(total if c == column else 0 for c in range(n + 1))
            for card in _bits(mask):
                holders[CARD_IDS[card]] = certain
        for (a, b, c), count in triple_acc.items():
            for i in (a, b, c):
                acc[i][n] += count
        for i, members in enumerate(self.classes):
            size = len(members)
            row = tuple(
                _exact(acc[i][col], size) + _exact(scaled[i][col], size * SCALE * SCALE)
                for col in range(n + 1)
            )
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

    def _last_marginals(
        self,
        state: State,
        outside: int,
        acc: list[list[int]],
        triple_acc: dict[tuple[int, int, int], int],
    ) -> None:
        last_seat = self.last.seat if self.last is not None else None
        for end in self._ends(state):
            weight = outside * end.ways
            if end.solution:
                a, b, c = end.solution
                triple_acc[(a, b, c)] = triple_acc.get((a, b, c), 0) + weight
            if last_seat is not None:
                for i, left in enumerate(state):
                    there = left - end.solution.count(i)
                    if there:
                        acc[i][last_seat] += weight * there

    def _tail_marginals(
        self,
        state: State,
        outside: int,
        scaled: list[list[int]],
        triple_acc: dict[tuple[int, int, int], int],
    ) -> None:
        """The solution's class triples, and the free seats' shares of each class: within a
        pool the tail deals every card alike, and within a group the solution does."""
        tail = self.tail
        assert tail is not None
        free = self.free
        per_pattern: list[list[int]] = [[0] * len(free) for _ in tail.patterns]
        per_group: list[list[int]] = [[0] * len(free) for _ in self.group_classes]
        group_size = [0] * len(self.group_classes)
        for i, left in enumerate(state):
            group_size[self.group_of[i]] += left
        for end in self._ends(state):
            shares = tail.shares(end.pools)
            q: list[list[int]] = []
            for p, pattern in enumerate(tail.patterns):
                pool = end.pools[p]
                row = [0] * len(free)
                if pool:
                    for x in pattern:
                        row[x] = end.ways * shares[p][x] * (SCALE // pool)
                        per_pattern[p][x] += row[x]
                q.append(row)
            for g in end.solution:
                row = q[self.group_pattern[g]]
                for x in range(len(free)):
                    per_group[g][x] += row[x]
            if end.solution:
                weight = outside * end.tail
                a, b, c = end.solution
                for ca in self.group_classes[a]:
                    ra = state[ca]
                    if not ra:
                        continue
                    for cb in self.group_classes[b]:
                        rb = state[cb]
                        if not rb:
                            continue
                        wab = weight * ra * rb
                        for cc in self.group_classes[c]:
                            rc = state[cc]
                            if rc:
                                key = (ca, cb, cc)
                                triple_acc[key] = triple_acc.get(key, 0) + wab * rc
        for i, left in enumerate(state):
            if not left:
                continue
            g = self.group_of[i]
            p = self.group_pattern[g]
            unit = SCALE // group_size[g]
            for x in tail.patterns[p]:
                share = SCALE * per_pattern[p][x] - per_group[g][x] * unit
                scaled[i][free[x]] += outside * left * share

    # --- sampling -----------------------------------------------------------------------

    def sample(self, rng: random.Random) -> Deal:
        """One consistent deal, uniformly at random."""
        hands = list(self.held)
        left = [list(members) for members in self.classes]
        state = self.sizes
        for depth, level in enumerate(self.levels):
            moves = level.moves[state]
            key = (depth, state)
            weights = self.weights.get(key)
            if weights is None:
                weights = list(
                    accumulate(ways * self._inside(depth + 1, nxt) for _, nxt, ways in moves)
                )
                self.weights[key] = weights
            taken, state, _ = moves[bisect_right(weights, rng.randrange(weights[-1]))]
            hands[level.seat] |= _take(left, taken, rng)
        ends = self._ends(state)
        key = (len(self.levels), state)
        weights = self.weights.get(key)
        if weights is None:
            weights = list(accumulate(e.ways * e.tail for e in ends))
            self.weights[key] = weights
        end = ends[bisect_right(weights, rng.randrange(weights[-1]))]
        chosen: list[int] = []
        if self.tail is not None:
            for g in end.solution:
                pool = [(i, j) for i in self.group_classes[g] for j in range(len(left[i]))]
                i, j = pool[rng.randrange(len(pool))]
                chosen.append(left[i].pop(j))
            pools: list[list[int]] = [[] for _ in self.tail.patterns]
            for i, members in enumerate(left):
                pools[self.group_pattern[self.group_of[i]]].extend(members)
            for p, counts in enumerate(self.tail.sample(end.pools, rng)):
                cards = pools[p]
                rng.shuffle(cards)
                for x, count in enumerate(counts):
                    for card in cards[:count]:
                        hands[self.free[x]] |= 1 << card
                    cards = cards[count:]
        else:
            chosen = [left[i].pop(rng.randrange(len(left[i]))) for i in end.solution]
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


class _Tail:
    """The free seats (no count rules), dealt last: a card matters only by its pattern (which
    free seats may hold it), so a deal of the rest is counted from the pool size of each
    pattern, by a small memoised recursion over the seats' remaining room."""

    def __init__(self, caps: tuple[int, ...], patterns: list[tuple[int, ...]]) -> None:
        self.caps = caps
        self.patterns = patterns
        self.counts: dict[tuple[int, ...], int] = {}
        self.tables: dict[tuple[int, ...], list[dict[tuple[int, ...], int]]] = {}
        self.share_memo: dict[tuple[int, ...], list[list[int]]] = {}

    def count(self, pools: tuple[int, ...]) -> int:
        """Ways to deal the pools to the free seats (each seat exactly its room)."""
        got = self.counts.get(pools)
        if got is None:
            if sum(pools) != sum(self.caps) or any(
                size and not self.patterns[p] for p, size in enumerate(pools)
            ):
                got = 0
            else:
                self.tables[pools] = [{} for _ in range(len(pools) + 1)]
                got = self._inside(pools, 0, self.caps)
            self.counts[pools] = got
        return got

    def _inside(self, pools: tuple[int, ...], p: int, room: tuple[int, ...]) -> int:
        if p == len(pools):
            return 1
        table = self.tables[pools][p]
        got = table.get(room)
        if got is not None:
            return got
        total = 0
        for split, ways in _splits(pools[p], self.patterns[p], room):
            nxt = tuple(r - t for r, t in zip(room, split, strict=True))
            total += ways * self._inside(pools, p + 1, nxt)
        table[room] = total
        return total

    def shares(self, pools: tuple[int, ...]) -> list[list[int]]:
        """Per pattern and free seat: deals x cards of that pool the seat gets."""
        got = self.share_memo.get(pools)
        if got is not None:
            return got
        out = [[0] * len(self.caps) for _ in pools]
        frontier = {self.caps: 1}
        for p in range(len(pools)):
            nxt_frontier: dict[tuple[int, ...], int] = {}
            for room, outside in frontier.items():
                for split, ways in _splits(pools[p], self.patterns[p], room):
                    nxt = tuple(r - t for r, t in zip(room, split, strict=True))
                    inner = self._inside(pools, p + 1, nxt)
                    if not inner:
                        continue
                    weight = outside * ways
                    nxt_frontier[nxt] = nxt_frontier.get(nxt, 0) + weight
                    for x, t in enumerate(split):
                        if t:
                            out[p][x] += weight * inner * t
            frontier = nxt_frontier
        self.share_memo[pools] = out
        return out

    def sample(self, pools: tuple[int, ...], rng: random.Random) -> list[tuple[int, ...]]:
        """How many cards of each pool each free seat gets, drawn like the deals."""
        out = []
        room = self.caps
        for p in range(len(pools)):
            options = []
            weights = []
            for split, ways in _splits(pools[p], self.patterns[p], room):
                nxt = tuple(r - t for r, t in zip(room, split, strict=True))
                options.append((split, nxt))
                weights.append(ways * self._inside(pools, p + 1, nxt))
            split, room = options[_weighted(weights, rng)]
            out.append(split)
        return out


def _splits(
    count: int, pattern: tuple[int, ...], room: tuple[int, ...]
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every way to give `count` cards to the seats of `pattern` within their room: (cards per
    seat, in seat order, ways to choose which cards)."""
    split = [0] * len(room)

    def rec(j: int, left: int, ways: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if j == len(pattern) - 1:
            x = pattern[j]
            if left <= room[x]:
                split[x] = left
                yield tuple(split), ways
                split[x] = 0
            return
        x = pattern[j]
        for t in range(min(left, room[x]) + 1):
            split[x] = t
            yield from rec(j + 1, left - t, ways * comb(left, t))
        split[x] = 0

    if count == 0:
        yield tuple(split), 1
    elif pattern:
        yield from rec(0, count, 1)


def _kind(card: int) -> int:
    return 0 if KIND_MASKS[0] >> card & 1 else 1 if KIND_MASKS[1] >> card & 1 else 2


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


def _propagate(f: Facts, held: list[int], none: list[int], solution_mask: int) -> list[list[Rule]]:
    """Direct consequences, to a fixed point (mutating `held` and `none`): a card has one
    place (a held card is nobody else's and not the solution's); a rule allowing none of its
    cards crosses them out; a rule needing all of them marks them held; a hand whose every
    card is known holds nothing else. Returns the rules left per seat, reduced."""
    n = f.players
    while True:
        held_any = 0
        for mask in held:
            held_any |= mask
        if held_any & solution_mask:
            raise Inconsistent("a solution card is held")
        for seat in range(n):
            none[seat] |= (held_any & ~held[seat]) | solution_mask
            if _popcount(held[seat]) >= f.sizes[seat]:
                none[seat] |= ALL_CARDS & ~held[seat]
            if held[seat] & none[seat]:
                raise Inconsistent("a card is both held and not held")
        free_cards = ALL_CARDS & ~held_any & ~solution_mask
        rules: list[list[Rule]] = [[] for _ in range(n)]
        changed = False
        for fact in f.counts:
            seat = fact.seat
            inside = _popcount(fact.cards & held[seat])
            cards = fact.cards & free_cards & ~none[seat]
            size = _popcount(cards)
            low = max(0, fact.low - inside)
            high = min(fact.high - inside, size)
            if high < low:
                raise Inconsistent("a count rule cannot be met")
            if low == 0 and high == size:
                continue
            if high == 0:
                none[seat] |= cards
                changed = True
            elif low == size:
                held[seat] |= cards
                free_cards &= ~cards
                changed = True
            else:
                rules[seat].append((cards, low, high))
        if not changed:
            return [_reduce(r) for r in rules]


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
