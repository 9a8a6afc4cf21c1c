"""Exact deduction for one seat: which triples can be on its own card holder, and how likely.

Why exact counting: a seat has only 13 unknown cards, but the complete assignments
consistent with what it knows number up to ~3*10^8 (a fresh two-player table, informants
included), far too many to enumerate within a Discord turn, while sampling gives noisy
answers to an AI that compares close probabilities. So we count: every complete assignment
(own holder, the other screens, the unpeeked informant letters) consistent with the seat's
knowledge is equally likely, and all figures are exact integers.

How (see `_Solver`): enumerate the holder triples; given one, the facts only constrain the
screens of witnesses that were asked informative questions ("constrained slots"); every
other slot (silent screens, informant letters) takes the leftover cards in a fixed number
of ways. Cards are compressed into classes by their membership signature over the question
subjects, and the constrained slots are filled one after another by a memoised recursion
over class-count multisets, projecting the signatures onto the subjects still needed so
that equivalent states merge.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations, permutations
from math import factorial
from typing import Literal

from engine.thirteen_clues.cards import CARDS, Category, cards_in_play, in_subject
from engine.thirteen_clues.state import Question
from engine.thirteen_clues.views import PlayerView

Triple = tuple[str, str, str]
"""(person, location, weapon) card ids."""
Status = Literal["ruled_out", "candidate", "certain"]
Mark = Literal["ruled_out", "candidate"]
Joint = dict[str, dict[tuple[Triple, tuple[str, ...]], int]]

_CATEGORY_INDEX = {Category.PERSON: 0, Category.LOCATION: 1, Category.WEAPON: 2}
_SIDES = ("left", "right")

# Per constrained slot: (mask of subjects that must count 2, mask of subjects that count 1).
Targets = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Deduction:
    """What one seat can conclude about its own holder, as exact counts of assignments."""

    seat: int
    total: int
    """Number of consistent complete assignments."""
    triples: dict[Triple, int]
    """Holder triple -> number of consistent assignments with it; only positive entries."""
    unknown: tuple[str, ...] = ()
    """The seat's unknown cards (all categories), in deck order."""
    _solver: _Solver | None = field(default=None, repr=False, compare=False)
    """The counts behind it, which `slot_joint` goes on from (not pickled: its memo)."""
    _marginals: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        marginals = dict.fromkeys(self.unknown, 0)
        for triple, count in self.triples.items():
            for card in triple:
                marginals[card] = marginals.get(card, 0) + count
        object.__setattr__(self, "_marginals", marginals)

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k != "_solver"}

    def probability(self, card: str) -> float:
        """P(card is on the own holder); 0.0 for cards the seat sees or that are out of play."""
        if not self.total:
            return 0.0
        return self._marginals.get(card, 0) / self.total

    def probabilities(self) -> dict[str, float]:
        """Every unknown card -> P(on the own holder)."""
        return {card: self.probability(card) for card in self._marginals}

    def status(self, card: str) -> Status:
        count = self._marginals.get(card, 0)
        if count == 0:
            return "ruled_out"
        return "certain" if count == self.total else "candidate"

    def candidates(self) -> list[Triple]:
        """Triples still possible, most likely first (ties in card order, for stable output)."""
        return sorted(self.triples, key=lambda t: (-self.triples[t], _deck_key(t)))

    def certain(self) -> Triple | None:
        if len(self.triples) == 1:
            return next(iter(self.triples))
        return None

    def triple_probability(self, t: Triple) -> float:
        if not self.total:
            return 0.0
        return self.triples.get(t, 0) / self.total


def solve(view: PlayerView) -> Deduction:
    """Exact holder-triple counts for `view.seat` under the uniform-assignment model."""
    solver = _Solver(view)
    return Deduction(
        seat=view.seat,
        total=sum(solver.triples.values()),
        triples=dict(solver.triples),
        unknown=solver.unknown,
        _solver=solver,
    )


def slot_joint(view: PlayerView, names: Collection[str] | None = None, *,
               solved: Deduction | None = None) -> Joint:
    """For every unknown slot but the own holder, the exact joint counts (holder, slot content).

    Keys: "screen:<seat>" (content: sorted pair with 3-6 players, (left, right) with 2) and
    "informant:<letter>" for unpeeked letters (content: 1-tuple). For each slot, summing the
    counts over contents gives `solve(view).triples[holder]`. `names`: only these slots (each
    costs about a solve; the choice odds need one screen of the five or so). `solved`:
    `solve(view)`, whose counts the joint goes on from (a casebook update, the coach and the
    expert AI want both: a solve saved).
    """
    solver = solved._solver if solved is not None else None
    return (solver if solver is not None else _Solver(view)).joint(names)


def bookkeeping(view: PlayerView) -> dict[str, Mark]:
    """Pen-and-paper marks for all 30 cards, no counting: could it be on my own holder?

    Ruled out: removed suits, cards the seat sees (own screen, other holders, peeked
    informants) and every card of a subject a witness answered 0 about, when that answer
    covers the seat's holder: with 3-6 players any witness but the seat itself (the seat's
    own answers cover what it sees, not its holder); with 2 players only questions the
    seat asked (answers count the asker's holder). The seat's own Top Secret questions
    count as well: it knows those answers.
    """
    seat, players = view.seat, view.options.players
    out_of_play = set(CARDS) - set(cards_in_play(players))
    seen = view.known()
    zero: set[str] = set()
    for q in _known_questions(view):
        if q.answer != 0:
            continue
        if (players == 2 and q.asker == seat) or (players > 2 and q.witness != seat):
            zero.add(q.subject)
    marks: dict[str, Mark] = {}
    for card in CARDS:
        ruled = card in out_of_play or card in seen or any(in_subject(card, x) for x in zero)
        marks[card] = "ruled_out" if ruled else "candidate"
    return marks


def _deck_key(t: Iterable[str]) -> tuple[int, ...]:
    return tuple(_DECK_ORDER[c] for c in t)


_DECK_ORDER = {card: i for i, card in enumerate(CARDS)}


def _known_questions(view: PlayerView) -> list[Question]:
    """Public questions plus the seat's own Top Secret ones (the public list hides those)."""
    return [q for q in view.questions if not q.top_secret] + list(view.secret_questions)


@dataclass
class _Slot:
    """One cell that receives unknown cards: a screen (2 cards, or 1 per side with 2
    players) or an informant letter. `rules`: subject bit -> required count of that subject
    on own holder + this cell. Cells without rules are free: they take leftovers."""

    group: str
    cap: int
    rules: dict[int, int] = field(default_factory=dict)


class _Solver:
    """Everything `solve` and `slot_joint` share for one view: the model and the memo."""

    def __init__(self, view: PlayerView) -> None:
        if view.phase == "passing" or any(not h for h in view.holders.values()):
            raise ValueError("Deduction starts once every card holder is filled.")
        self.players = players = view.options.players
        seat = view.seat
        seen = view.known()
        self.unknown = tuple(c for c in cards_in_play(players) if c not in seen)
        by_category: list[list[str]] = [[], [], []]
        for card in self.unknown:
            by_category[_CATEGORY_INDEX[CARDS[card].category]].append(card)
        self.by_category = by_category

        self.slots: list[_Slot] = []
        self.groups: dict[str, list[int]] = {}
        for other in range(players):
            if other == seat:
                continue
            caps = (1, 1) if players == 2 else (2,)
            self._add_group(f"screen:{other}", caps)
        for letter in view.letters:
            if letter not in view.peeks:
                self._add_group(f"informant:{letter}", (1,))

        self.consistent = True
        subjects: dict[str, int] = {}
        for slot_index, subject, required in self._facts(view):
            bit = subjects.setdefault(subject, 1 << len(subjects))
            rules = self.slots[slot_index].rules
            if rules.setdefault(bit, required) != required:
                self.consistent = False
        self.sig = {
            card: sum(bit for subject, bit in subjects.items() if in_subject(card, subject))
            for card in self.unknown
        }

        self.excluded: set[Triple] = set()
        self.forced: Triple | None = None
        for accusation in view.my_accusations:
            triple = as_triple(accusation.cards)
            if accusation.correct:
                self.forced = triple
            else:
                self.excluded.add(triple)

        constrained = [i for i, slot in enumerate(self.slots) if slot.rules]
        self.order = _order_slots(constrained, self.slots)
        self.mask = [sum(slot.rules) for slot in self.slots]
        free = [slot for slot in self.slots if not slot.rules]
        self.free_pairs = sum(slot.cap == 2 for slot in free)
        self.free_cards = sum(slot.cap for slot in free)
        self.base: dict[int, int] = {}
        for card in self.unknown:
            self.base[self.sig[card]] = self.base.get(self.sig[card], 0) + 1
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...], Targets], int] = {}
        self.levels: dict[tuple[int, ...], _Level] = {}
        self.holder_memo: dict[tuple[int, ...], int] = {}
        self.targets_memo: dict[tuple[int, ...], dict[int, tuple[int, int]] | None] = {}
        self.triples = self._triples()

    def _add_group(self, name: str, caps: tuple[int, ...]) -> None:
        self.groups[name] = []
        for cap in caps:
            self.groups[name].append(len(self.slots))
            self.slots.append(_Slot(name, cap))

    def _facts(self, view: PlayerView) -> Iterator[tuple[int, str, int]]:
        """(slot, subject, required count on own holder + slot) for each informative answer."""
        seat = view.seat
        for q in _known_questions(view):
            if self.players == 2:
                if q.asker != seat:
                    continue  # the answer counts the other seat's holder and my screen
                side = _SIDES.index(q.side or "right")
                yield self.groups[f"screen:{q.witness}"][side], q.subject, q.answer
            elif q.witness != seat:
                known = sum(
                    in_subject(card, q.subject)
                    for other, cards in view.holders.items()
                    if other != q.witness
                    for card in cards
                )
                yield self.groups[f"screen:{q.witness}"][0], q.subject, q.answer - known

    # --- counting -------------------------------------------------------------------------

    def _triples(self) -> dict[Triple, int]:
        triples: dict[Triple, int] = {}
        if not self.consistent:
            return triples
        sig = self.sig
        persons, locations, weapons = self.by_category
        for p in persons:
            for loc in locations:
                for w in weapons:
                    t = (p, loc, w)
                    if t in self.excluded or (self.forced is not None and t != self.forced):
                        continue
                    count = self._holder_count(sig[p], sig[loc], sig[w])
                    if count:
                        triples[t] = count
        return triples

    def _holder_count(self, a: int, b: int, c: int) -> int:
        key = (a, b, c) if a <= b <= c else tuple(sorted((a, b, c)))
        count = self.holder_memo.get(key)
        if count is None:
            by_slot = self._slot_targets(key)
            if by_slot is None:
                count = 0
            else:
                count = _free_ways(self.free_cards, self.free_pairs)
                if self.order:
                    targets = tuple(by_slot[j] for j in self.order)
                    start = self._start(self.order, key)
                    count *= self._count(self._level(self.order), start, targets)
            self.holder_memo[key] = count
        return count

    def _slot_targets(self, holder: tuple[int, ...]) -> dict[int, tuple[int, int]] | None:
        """What each constrained slot must still hold once the holder's cards (signatures,
        sorted) are counted, as (count-2 mask, count-1 mask); None when a rule cannot be met."""
        try:
            return self.targets_memo[holder]
        except KeyError:
            pass
        out: dict[int, tuple[int, int]] | None = {}
        for j in self.order:
            slot = self.slots[j]
            need2 = need1 = 0
            for bit, required in slot.rules.items():
                left = required - sum(1 for s in holder if s & bit)
                if left == 1:
                    need1 |= bit
                elif left == 2:
                    need2 |= bit
                if left < 0 or left > slot.cap:
                    out = None
                    break
            if out is None:
                break
            out[j] = (need2, need1)
        self.targets_memo[holder] = out
        return out

    def _level(self, order: tuple[int, ...]) -> _Level:
        level = self.levels.get(order)
        if level is None:
            child = self._level(order[1:]) if len(order) > 1 else None
            level = _Level(self, order, child)
            self.levels[order] = level
        return level

    def _start(self, order: tuple[int, ...], removed: tuple[int, ...]) -> tuple[int, ...]:
        """Class counts for `order` once the cards with signatures `removed` are taken."""
        counts = dict(self.base)
        for s in removed:
            counts[s] -= 1
        level = self._level(order)
        vector = [0] * len(level.sigs)
        for s, n in counts.items():
            vector[level.index[s & level.union]] += n
        return tuple(vector)

    def _count(self, level: _Level, counts: tuple[int, ...], targets: Targets) -> int:
        """Ways to fill the constrained slots of `level` (in order) from the class `counts`."""
        key = (level.order, counts, targets)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        child, to_child = level.child, level.to_child
        rest_targets = targets[1:]
        total = 0
        for move in level.moves(targets[0]):
            i, k = move[0], move[-1]
            if len(move) == 1:
                ways = counts[i]
            elif i == k:
                ways = counts[i] * (counts[i] - 1) // 2
            else:
                ways = counts[i] * counts[k]
            if not ways:
                continue
            if child is not None:
                after = list(counts)
                for m in move:
                    after[m] -= 1
                if to_child is not None:
                    projected = [0] * len(child.sigs)
                    for m, n in enumerate(after):
                        if n:
                            projected[to_child[m]] += n
                    after = projected
                ways *= self._count(child, tuple(after), rest_targets)
            total += ways
        self.memo[key] = total
        return total

    # --- slot joint -----------------------------------------------------------------------

    def joint(self, names: Collection[str] | None = None) -> Joint:
        out: Joint = {}
        sig = self.sig
        holders = [(t, tuple(sorted(sig[c] for c in t))) for t in self.triples]
        for name, cells in self.groups.items():
            if names is not None and name not in names:
                continue
            table: dict[tuple[Triple, tuple[str, ...]], int] = {}
            out[name] = table
            group = _Group(self, cells)
            contents = group.contents(self.unknown)
            memo: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
            for t, hkey in holders:
                p, loc, w = t
                for content, ckey in contents:
                    if p in content or loc in content or w in content:
                        continue
                    value = memo.get((hkey, ckey))
                    if value is None:
                        value = group.count(hkey, ckey)
                        memo[hkey, ckey] = value
                    if value:
                        table[(t, content)] = value
        return out


class _Level:
    """The constrained slots `order` still to fill, with the card classes they can tell
    apart: signatures projected on their subjects. Subjects only asked of slots already
    filled drop out, so classes (and memoised states) merge as the recursion goes down."""

    def __init__(self, solver: _Solver, order: tuple[int, ...], child: _Level | None) -> None:
        self.order = order
        self.child = child
        self.union = 0
        for j in order:
            self.union |= solver.mask[j]
        self.sigs = tuple(sorted({s & self.union for s in solver.base}))
        self.index = {s: i for i, s in enumerate(self.sigs)}
        self.to_child: tuple[int, ...] | None = None
        if child is not None and child.union != self.union:
            self.to_child = tuple(child.index[s & child.union] for s in self.sigs)
        self.mask = solver.mask[order[0]]
        self.cap = solver.slots[order[0]].cap
        self.move_memo: dict[tuple[int, int], list[tuple[int, ...]]] = {}

    def moves(self, target: tuple[int, int]) -> list[tuple[int, ...]]:
        """Class indices whose cards meet the first slot's rules: one class for a single
        cell, a pair i <= k for a screen. On the slot's subjects two cards a, b count right
        iff a & b == need2 and a ^ b == need1."""
        moves = self.move_memo.get(target)
        if moves is None:
            need2, need1 = target
            local = [s & self.mask for s in self.sigs]
            if self.cap == 1:
                moves = [(i,) for i, a in enumerate(local) if a == need1]
            else:
                moves = [
                    (i, k)
                    for i, a in enumerate(local)
                    for k in range(i, len(local))
                    if a & local[k] == need2 and a ^ local[k] == need1
                ]
            self.move_memo[target] = moves
        return moves


class _Group:
    """One output slot of `slot_joint` (a screen, or an informant letter) with its content
    fixed: check its own rules, count the other constrained slots, deal out the rest."""

    def __init__(self, solver: _Solver, cells: list[int]) -> None:
        self.solver = solver
        self.cells = cells
        self.width = sum(solver.slots[c].cap for c in cells)
        free = [solver.slots[c] for c in cells if not solver.slots[c].rules]
        self.free_cards = solver.free_cards - sum(slot.cap for slot in free)
        self.free_pairs = solver.free_pairs - sum(slot.cap == 2 for slot in free)
        self.order = tuple(j for j in solver.order if j not in cells)
        # (cell, mask, positions of the content cards it holds) for the constrained cells
        self.checks: list[tuple[int, int, tuple[int, ...]]] = []
        position = 0
        for cell in cells:
            slot = solver.slots[cell]
            held = tuple(range(position, position + slot.cap))
            position += slot.cap
            if slot.rules:
                self.checks.append((cell, solver.mask[cell], held))

    def contents(self, cards: tuple[str, ...]) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
        """Every content of the group from `cards`, with its signature key (sorted for an
        unordered screen, whose content is the alphabetically sorted pair)."""
        sig = self.solver.sig
        if len(self.cells) == 2:  # two players: (left, right), ordered
            return [((a, b), (sig[a], sig[b])) for a, b in permutations(cards, 2)]
        if self.width == 2:
            pairs = (tuple(sorted(pair)) for pair in combinations(cards, 2))
            return [(pair, tuple(sorted(sig[c] for c in pair))) for pair in pairs]
        return [((card,), (sig[card],)) for card in cards]

    def count(self, holder: tuple[int, ...], content: tuple[int, ...]) -> int:
        """Assignments with this holder and these card signatures in the group's cells."""
        solver = self.solver
        by_slot = solver._slot_targets(holder)
        if by_slot is None:
            return 0
        for cell, mask, held in self.checks:
            need2, need1 = by_slot[cell]
            if len(held) == 1:
                if content[held[0]] & mask != need1:
                    return 0
            else:
                a, b = content[held[0]] & mask, content[held[1]] & mask
                if a & b != need2 or a ^ b != need1:
                    return 0
        ways = _free_ways(self.free_cards, self.free_pairs)
        if self.order:
            targets = tuple(by_slot[j] for j in self.order)
            start = solver._start(self.order, holder + content)
            ways *= solver._count(solver._level(self.order), start, targets)
        return ways


def as_triple(cards: Iterable[str]) -> Triple:
    """Three cards as (person, location, weapon)."""
    ordered = sorted(cards, key=lambda c: _CATEGORY_INDEX[CARDS[c].category])
    return (ordered[0], ordered[1], ordered[2])


def _order_slots(constrained: list[int], slots: list[_Slot]) -> tuple[int, ...]:
    """Fill first the slot whose subjects no later slot asks about, so that finished
    subjects drop out of the signatures and more states merge; then the tighter slot."""
    left = list(constrained)
    order: list[int] = []
    while left:

        def score(j: int) -> tuple[int, int, int]:
            others = 0
            for k in left:
                if k != j:
                    others |= sum(slots[k].rules)
            mine = sum(slots[j].rules)
            return (_popcount(mine & ~others), _popcount(mine), j)

        best = max(left, key=score)
        order.append(best)
        left.remove(best)
    return tuple(order)


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _free_ways(cards: int, pairs: int) -> int:
    """Ways to deal `cards` leftovers into the free slots: `pairs` unordered screens, the
    rest single cells (informant letters, or 2-player screen sides)."""
    return factorial(cards) >> pairs  # // 2**pairs, exactly, as an int
