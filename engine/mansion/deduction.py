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
Split = tuple[tuple[int, ...], tuple[int, ...]]
"""A free-seat deal of one pool: cards per seat, and the room the seats have left."""


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
    """Classes (of this level) it may take from."""
    rules: list[ClassRule]
    coarsen: list[int]
    """This level's class → the next level's (or the end's) class."""
    order: list[int] = field(default_factory=list)
    """`allowed`, the classes in the most rules first (they prune soonest)."""
    pool_hands: list[tuple[int, ...]] | None = None
    """The first level only: every hand it may take from the whole pool."""
    memo: dict[State, int] = field(default_factory=dict)
    moves: dict[State, list[tuple[State, State, int]]] = field(default_factory=dict)
    """State → [(taken per class, next state, ways)] for the valid hands."""


def _level(
    seat: int, cap: int, allowed: list[int], rules: list[ClassRule], coarsen: list[int]
) -> _Level:
    weight = {i: sum(i in classes for classes, _, _ in rules) for i in allowed}
    order = sorted(allowed, key=lambda i: (-weight[i], i))
    return _Level(seat=seat, cap=cap, allowed=allowed, rules=rules, coarsen=coarsen, order=order)


class _Solver:
    """Everything one solve needs: the classes, the levels, the memo.

    Order of the deal: the solution first (one card of each kind), then the seats with count
    rules ("ruled") one by one, the most constrained first, then the seats without ("free")
    all at once. Without free seats, the last ruled seat takes what is left.

    Classes: the full classes group the unknown cards that every seat (and the solution,
    by kind) treats alike. Each level counts cards by coarser classes, merging cards that
    the remaining seats treat alike (`coarsen`), so equivalent states share their memo. A
    forward pass carries, per state, the number of ways to reach it and, per full class,
    the number of its cards still undealt summed over those ways; the seats' marginals
    follow exactly (summing over the subsets a seat may take, a card of a level class with
    `s` cards left is taken in C(s-1, x-1) of the C(s, x) ways and left in C(s-1, x)).
    """

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
        ruled = sorted((s for s in takers if rules[s]), key=lambda s: (-len(rules[s]), s))
        free = [s for s in takers if not rules[s]]
        last = ruled.pop() if ruled and not free else None
        self.with_solution = f.solution is None
        self.free = free
        self.caps = caps

        cards = _bits(deal_pool)
        # How each seat with rules treats each card: may it hold it, which rules name it.
        seat_sigs = {
            (seat, card): (
                bool(none[seat] >> card & 1),
                tuple(i for i, (m, _, _) in enumerate(rules[seat]) if m >> card & 1),
            )
            for seat in [*ruled, *([last] if last is not None else [])]
            for card in cards
        }

        def free_sig(card: int) -> tuple[int, ...]:
            return tuple(x for x, s in enumerate(free) if not none[s] >> card & 1)

        later = [[*ruled[i:], *([last] if last is not None else [])] for i in range(len(ruled) + 1)]

        def sig_at(i: int, card: int) -> tuple[object, ...]:
            """How a card is treated from level i on (i = len(ruled): the end), kind aside."""
            return (tuple(seat_sigs[(s, card)] for s in later[i]), free_sig(card))

        full: dict[tuple[object, ...], list[int]] = {}
        for card in cards:
            key = (_kind(card) if self.with_solution else 0, sig_at(0, card))
            full.setdefault(key, []).append(card)
        self.classes: list[list[int]] = list(full.values())
        self.sizes: State = tuple(len(c) for c in self.classes)
        self.class_kind = [_kind(c[0]) for c in self.classes]
        # Level classes: index per full class at each level (0..len(ruled), the last: end).
        self.level_of: list[list[int]] = []
        level_keys: list[dict[tuple[object, ...], int]] = []
        for i in range(len(ruled) + 1):
            keys: dict[tuple[object, ...], int] = {}
            self.level_of.append(
                [keys.setdefault(sig_at(i, c[0]), len(keys)) for c in self.classes]
            )
            level_keys.append(keys)
        self.levels: list[_Level] = []
        for i, seat in enumerate(ruled):
            count = len(level_keys[i])
            rep = [0] * count
            for c, lc in enumerate(self.level_of[i]):
                rep[lc] = self.classes[c][0]
            coarsen = [0] * count
            for c, lc in enumerate(self.level_of[i]):
                coarsen[lc] = self.level_of[i + 1][c]
            allowed = [lc for lc in range(count) if not none[seat] >> rep[lc] & 1]
            level_rules = [
                (tuple(lc for lc in allowed if mask >> rep[lc] & 1), low, high)
                for mask, low, high in rules[seat]
            ]
            self.levels.append(_level(seat, caps[seat], allowed, level_rules, coarsen))
        end_count = len(level_keys[-1])
        end_rep = [0] * end_count
        for c, lc in enumerate(self.level_of[-1]):
            end_rep[lc] = self.classes[c][0]
        self.last: _Level | None = None
        if last is not None:
            allowed = [lc for lc in range(end_count) if not none[last] >> end_rep[lc] & 1]
            last_rules = [
                (tuple(lc for lc in allowed if mask >> end_rep[lc] & 1), low, high)
                for mask, low, high in rules[last]
            ]
            self.last = _level(last, caps[last], allowed, last_rules, [])
        self.tail: _Tail | None = None
        if free:
            # End classes are exactly the free seats' patterns.
            self.tail = _Tail(tuple(caps[s] for s in free), [free_sig(r) for r in end_rep])
        # The solution first: every class triple (one class per kind), or none when known.
        self.starts: list[tuple[tuple[int, ...], State]] = []
        if self.with_solution:
            by_kind: list[list[int]] = [[], [], []]
            for c, kind in enumerate(self.class_kind):
                by_kind[kind].append(c)
            for a in by_kind[0]:
                for b in by_kind[1]:
                    for c in by_kind[2]:
                        self.starts.append(((a, b, c), self._start((a, b, c))))
        else:
            self.starts.append(((), self._start(())))
        self.weights: dict[tuple[int, State], list[int]] = {}
        self.start_counts = [self._inside(0, start) for _, start in self.starts]
        self.total = sum(
            self._ways(solution) * count
            for (solution, _), count in zip(self.starts, self.start_counts, strict=True)
        )
        if self.total == 0:
            raise Inconsistent("no deal agrees with the facts")

    def _start(self, solution: tuple[int, ...]) -> State:
        out = [0] * (max(self.level_of[0], default=-1) + 1)
        for c, size in enumerate(self.sizes):
            out[self.level_of[0][c]] += size - (c in solution)
        return tuple(out)

    def _ways(self, solution: tuple[int, ...]) -> int:
        ways = 1
        for c in solution:
            ways *= self.sizes[c]
        return ways

    # --- counting -----------------------------------------------------------------------

    def _inside(self, depth: int, state: State) -> int:
        if depth == len(self.levels):
            return self._end(state)
        level = self.levels[depth]
        got = level.memo.get(state)
        if got is not None:
            return got
        moves = []
        total = 0
        width = (max(level.coarsen, default=-1) + 1) if level.coarsen else 0
        coarsen = level.coarsen
        if depth == 0:
            # Every start is the whole pool less the solution: filter the whole pool's hands.
            if level.pool_hands is None:
                level.pool_hands = [t for t, _ in _hands(level, self._start(()))]
            hands = [
                (taken, _ways(state, taken))
                for taken in level.pool_hands
                if all(t <= left for t, left in zip(taken, state, strict=True))
            ]
        else:
            hands = _hands(level, state)
        for taken, ways in hands:
            nxt_list = [0] * width
            for lc, left in enumerate(state):
                nxt_list[coarsen[lc]] += left - taken[lc]
            nxt = tuple(nxt_list)
            inner = self._inside(depth + 1, nxt)
            if inner:
                moves.append((taken, nxt, ways))
                total += ways * inner
        level.memo[state] = total
        level.moves[state] = moves
        return total

    def _end(self, state: State) -> int:
        """Deals of what is left to the free seats (or the last ruled seat)."""
        if self.tail is not None:
            return self.tail.count(state)
        last = self.last
        if last is None:
            return 0 if any(state) else 1
        if sum(state) != last.cap:
            return 0
        allowed = set(last.allowed)
        if any(left and lc not in allowed for lc, left in enumerate(state)):
            return 0
        return 1 if _obeys(state, last.rules) else 0

    # --- marginals ----------------------------------------------------------------------

    def deduction(self) -> Deduction:
        n = self.players
        k = len(self.classes)
        # Per full class and column: deals x cards of the class there (free seats: x SCALE).
        acc = [[0] * (n + 1) for _ in range(k)]
        scaled = [[0] * (n + 1) for _ in range(k)]
        frontier: dict[State, tuple[int, list[int]]] = {}
        for (solution, start), count in zip(self.starts, self.start_counts, strict=True):
            if not count:
                continue
            ways = self._ways(solution)
            left = [ways * (size - (c in solution)) for c, size in enumerate(self.sizes)]
            _add(frontier, start, ways, left)
            for c in solution:
                acc[c][n] += ways * count
        for depth, level in enumerate(self.levels):
            nxt_frontier: dict[State, tuple[int, list[int]]] = {}
            level_of = self.level_of[depth]
            for state, (reach, left) in frontier.items():
                for taken, nxt, ways in level.moves[state]:
                    inner = self._inside(depth + 1, nxt)
                    keep = [0] * len(state)
                    take = [0] * len(state)
                    for lc, size in enumerate(state):
                        if size:
                            x = taken[lc]
                            rest = ways // comb(size, x)
                            keep[lc] = rest * comb(size - 1, x)
                            take[lc] = rest * comb(size - 1, x - 1) if x else 0
                    new_left = [0] * k
                    for c, count in enumerate(left):
                        if count:
                            lc = level_of[c]
                            new_left[c] = count * keep[lc]
                            if take[lc]:
                                acc[c][level.seat] += count * take[lc] * inner
                    _add(nxt_frontier, nxt, reach * ways, new_left)
            frontier = nxt_frontier
        end_of = self.level_of[-1]
        for state, (_, left) in frontier.items():
            if not self._end(state):
                continue
            if self.tail is not None:
                shares = self.tail.shares(state)
                for c, count in enumerate(left):
                    if count:
                        p = end_of[c]
                        unit = SCALE // state[p]
                        for x in self.tail.patterns[p]:
                            scaled[c][self.free[x]] += count * shares[p][x] * unit
            elif self.last is not None:
                for c, count in enumerate(left):
                    acc[c][self.last.seat] += count
        total = self.total
        holders: dict[str, tuple[int, ...]] = {}
        for column, mask in enumerate([*self.held, self.solution_mask]):
            certain = tuple(total if c == column else 0 for c in range(n + 1))
            for card in _bits(mask):
                holders[CARD_IDS[card]] = certain
        for c, members in enumerate(self.classes):
            size = len(members)
            row = tuple(
                _exact(acc[c][col], size) + _exact(scaled[c][col], size * SCALE)
                for col in range(n + 1)
            )
            for card in members:
                holders[CARD_IDS[card]] = row
        triples: dict[TripleIds, int] = {}
        if self.with_solution:
            for ((a, b, c), _), count in zip(self.starts, self.start_counts, strict=True):
                if not count:
                    continue
                for x in self.classes[a]:
                    for y in self.classes[b]:
                        for z in self.classes[c]:
                            triples[(CARD_IDS[x], CARD_IDS[y], CARD_IDS[z])] = count
        else:
            assert self.f.solution is not None
            triples[self.f.solution.cards()] = total
        return Deduction(seat=self.f.seat, players=n, total=total, triples=triples, holders=holders)

    # --- sampling -----------------------------------------------------------------------

    def sample(self, rng: random.Random) -> Deal:
        """One consistent deal, uniformly at random."""
        hands = list(self.held)
        left = [list(members) for members in self.classes]
        weights = self.weights.get((-1, ()))
        if weights is None:
            weights = list(
                accumulate(
                    self._ways(sol) * count
                    for (sol, _), count in zip(self.starts, self.start_counts, strict=True)
                )
            )
            self.weights[(-1, ())] = weights
        solution, state = self.starts[bisect_right(weights, rng.randrange(weights[-1]))]
        chosen = [left[c].pop(rng.randrange(len(left[c]))) for c in solution]
        class_of = self.class_of
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
            pools = self._pools(depth, left)
            for lc, count in enumerate(taken):
                for card in _draw(pools[lc], count, rng):
                    hands[level.seat] |= 1 << card
                    left[class_of[card]].remove(card)
        pools = self._pools(len(self.levels), left)
        if self.tail is not None:
            for p, counts in enumerate(self.tail.sample(state, rng)):
                cards = pools[p]
                rng.shuffle(cards)
                for x, count in enumerate(counts):
                    for card in cards[:count]:
                        hands[self.free[x]] |= 1 << card
                    cards = cards[count:]
        elif self.last is not None:
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

    @property
    def class_of(self) -> dict[int, int]:
        got: dict[int, int] | None = getattr(self, "_class_of", None)
        if got is None:
            got = {card: c for c, members in enumerate(self.classes) for card in members}
            self._class_of = got
        return got

    def _pools(self, depth: int, left: list[list[int]]) -> list[list[int]]:
        """The undealt cards by class of level `depth`."""
        level_of = self.level_of[depth]
        pools: list[list[int]] = [[] for _ in range(max(level_of, default=-1) + 1)]
        for c, members in enumerate(left):
            pools[level_of[c]].extend(members)
        return pools


def _ways(state: State, taken: tuple[int, ...]) -> int:
    ways = 1
    for left, t in zip(state, taken, strict=True):
        if t:
            ways *= comb(left, t)
    return ways


def _draw(pool: list[int], count: int, rng: random.Random) -> list[int]:
    return rng.sample(pool, count) if count else []


def _add(
    frontier: dict[State, tuple[int, list[int]]], state: State, reach: int, left: list[int]
) -> None:
    got = frontier.get(state)
    if got is None:
        frontier[state] = (reach, left)
    else:
        total = got[1]
        for c, count in enumerate(left):
            total[c] += count
        frontier[state] = (got[0] + reach, total)


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
        self.option_memo: dict[
            tuple[tuple[int, ...], int, tuple[int, ...]], tuple[list[Split], list[int]]
        ] = {}

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
            options, weights = self._options(pools, p, room)
            split, room = options[_weighted(weights, rng)]
            out.append(split)
        return out

    def _options(
        self, pools: tuple[int, ...], p: int, room: tuple[int, ...]
    ) -> tuple[list[Split], list[int]]:
        """The ways to deal pool `p` into `room` (each with the room left) and their weights:
        the same for every deal sampled from here, so worked out once."""
        got = self.option_memo.get((pools, p, room))
        if got is None:
            options: list[Split] = []
            weights: list[int] = []
            for split, ways in _splits(pools[p], self.patterns[p], room):
                nxt = tuple(r - t for r, t in zip(room, split, strict=True))
                options.append((split, nxt))
                weights.append(ways * self._inside(pools, p + 1, nxt))
            got = self.option_memo[(pools, p, room)] = (options, weights)
        return got


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


def _hands(level: _Level, state: State) -> list[tuple[tuple[int, ...], int]]:
    """Every hand `level`'s seat may take from `state`: (taken per class, ways).

    Classes are tried in order; a count rule prunes as soon as it is exceeded, or can no
    longer be reached with the classes still to come."""
    allowed = [i for i in level.order if state[i]]
    m = len(allowed)
    room = [0] * (m + 1)
    for j in range(m - 1, -1, -1):
        room[j] = room[j + 1] + state[allowed[j]]
    out: list[tuple[tuple[int, ...], int]] = []
    if room[0] < level.cap:
        return out
    rules = level.rules
    lows = [low for _, low, _ in rules]
    highs = [high for _, _, high in rules]
    position = {i: j for j, i in enumerate(allowed)}
    in_rules: list[list[int]] = [[] for _ in range(m)]
    # avail[r][j]: cards of rule r's classes at positions j and after.
    avail = [[0] * (m + 1) for _ in rules]
    for r, (classes, _, _) in enumerate(rules):
        for i in classes:
            at = position.get(i)
            if at is not None:
                in_rules[at].append(r)
        row = avail[r]
        for j in range(m - 1, -1, -1):
            row[j] = row[j + 1] + (state[allowed[j]] if r in in_rules[j] else 0)
        if row[0] < lows[r]:
            return out
    got = [0] * len(rules)
    taken = [0] * len(state)
    rule_ids = range(len(rules))

    def rec(j: int, need: int, ways: int) -> None:
        if need == 0:
            for r in rule_ids:
                if got[r] < lows[r]:
                    return
            out.append((tuple(taken), ways))
            return
        i = allowed[j]
        have = state[i]
        mine = in_rules[j]
        after = room[j + 1]
        top = need if need < have else have
        for t in range(need - after if need > after else 0, top + 1):
            bad = False
            for r in mine:
                if got[r] + t > highs[r]:
                    bad = True
            if bad:
                break
            for r in mine:
                got[r] += t
            left = need - t
            for r in rule_ids:
                more = avail[r][j + 1]
                if got[r] + (more if more < left else left) < lows[r]:
                    break
            else:
                taken[i] = t
                rec(j + 1, left, ways * comb(have, t))
            for r in mine:
                got[r] -= t
        taken[i] = 0

    def free_rec(j: int, need: int, ways: int) -> None:
        if need == 0:
            out.append((tuple(taken), ways))
            return
        i = allowed[j]
        have = state[i]
        after = room[j + 1]
        top = need if need < have else have
        for t in range(need - after if need > after else 0, top + 1):
            taken[i] = t
            free_rec(j + 1, need - t, ways * comb(have, t))
        taken[i] = 0

    if rules:
        rec(0, level.cap, 1)
    else:
        free_rec(0, level.cap, 1)
    return out
