"""The reference for the exact notes: every deal consistent with a seat's view, one by one.

Used by the tests (tests/mansion/test_notes.py) and the benchmarks
(bench/validate_mansion_notes.py); it lives in the engine so both may import it. Pure like
the rest of the engine (no I/O, randomness only from the `random.Random` passed in) and far
too slow for play: never call it from the bot or an AI.

Why a second implementation: the fast solver (`deduction.py`) reads the record through
`facts.py` into set constraints, groups cards into classes and counts with binomials. This
one shares none of that. It builds whole deals (a solution and every seat's hand, as sets
of cards) and re-plays every observed event against them, following the rules text:

- a suggestion is put to the other seats clockwise from the suggester's left (in One
  Against All the detectives first, the fugitive last); each seat asked before the recorded
  refuter must hold none of the three; the refuter must hold at least one (it is asked which
  to show however many it holds); nobody asked holds one when no one refuted; the card
  shown, when this seat saw it, is in the refuter's hand;
- a Super Sleuth: each answering seat holds a matching card exactly when it showed one (or
  is still choosing), and the card this seat saw is in its hand;
- a Snoop / All Snoop: the card this seat turned over is in the hand it looked at;
- a Private Tip this seat gave: the answer is one of the answers the rules allow from the
  target's hand (every card of the kind for "all", one matching card, or nothing only when
  none matches);
- the seat's own hand and the public hand sizes; the solution when this seat has seen it.

Every deal that passes is counted once: the model is uniform over consistent deals. Cost
grows with the number of deals: `budget` bounds the hands placed, raising `TooLarge`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations, product

from engine.mansion import actions as act
from engine.mansion import legal
from engine.mansion.cards import ACTIONS, CLUES, DESTINATIONS, SUSPECTS, VEHICLES, matches
from engine.mansion.coach import move_key
from engine.mansion.coach import plays as coach_plays
from engine.mansion.observations import (
    AllSnoopSeen,
    DealtSeen,
    SleuthSeen,
    SnoopSeen,
    SuggestionSeen,
    TipSeen,
)
from engine.mansion.outcomes import all_snoop_target
from engine.mansion.rules import apply, new_game
from engine.mansion.state import GameState, Options, PlayerRef, Variant
from engine.mansion.views import PlayerView, player_view

TripleIds = tuple[str, str, str]


class TooLarge(Exception):
    """The position has more deals than the budget allows."""


@dataclass
class Reference:
    """Counts over every consistent deal."""

    total: int = 0
    triples: dict[TripleIds, int] = field(default_factory=dict)
    holders: dict[str, list[int]] = field(default_factory=dict)
    """Card → deals in which each seat holds it, then (last) the solution."""


Check = tuple[int, object]
Visit = Callable[[dict[int, frozenset[str]], TripleIds], None]


def brute_force(view: PlayerView, budget: int = 200_000, visit: Visit | None = None) -> Reference:
    """Enumerate every deal consistent with `view` (see the module docstring); `visit`, if
    given, sees each deal (every seat's hand, and the solution)."""
    players = len(view.seats)
    me = view.seat
    sizes = [s.clue_count for s in view.seats]
    for entry in view.observations:
        if isinstance(entry, DealtSeen):
            sizes = list(entry.clue_counts)
    mine = frozenset(view.clues)
    if len(mine) != sizes[me]:
        raise ValueError("the seat's hand does not match its size")
    checks = _checks(view)
    others = [s for s in range(players) if s != me]
    # The seats with the most checks first: the enumeration prunes sooner.
    others.sort(key=lambda s: -len(checks[s]))
    rest = [c for c in CLUES if c not in mine]
    out = Reference(holders={c: [0] * (players + 1) for c in CLUES})
    placed = [0]
    hands: dict[int, frozenset[str]] = {me: mine}
    if not _passes(checks[me], mine):
        return out

    def tick() -> None:
        placed[0] += 1
        if placed[0] > budget:
            raise TooLarge

    def place(i: int, left: list[str]) -> None:
        if i >= len(others) - 1:
            finish(left)
            return
        seat = others[i]
        for hand in combinations(left, sizes[seat]):
            tick()
            chosen = frozenset(hand)
            if _passes(checks[seat], chosen):
                hands[seat] = chosen
                place(i + 1, [c for c in left if c not in chosen])
        hands.pop(seat, None)

    def finish(left: list[str]) -> None:
        """The last seat takes what the solution leaves."""
        for triple in product(
            [c for c in left if c in SUSPECTS],
            [c for c in left if c in VEHICLES],
            [c for c in left if c in DESTINATIONS],
        ):
            if view.solution is not None and triple != view.solution.cards():
                continue
            hand = frozenset(c for c in left if c not in triple)
            if others:
                tick()
                last = others[-1]
                if len(hand) != sizes[last] or not _passes(checks[last], hand):
                    continue
                hands[last] = hand
            elif hand:
                continue
            _count(out, hands, triple, players)
            if visit is not None:
                visit(hands, triple)

    place(0, rest)
    return out


def _count(
    out: Reference, hands: dict[int, frozenset[str]], triple: TripleIds, players: int
) -> None:
    out.total += 1
    out.triples[triple] = out.triples.get(triple, 0) + 1
    for seat, hand in hands.items():
        for card in hand:
            out.holders[card][seat] += 1
    for card in triple:
        out.holders[card][players] += 1


def _passes(checks: list[Check], hand: frozenset[str]) -> bool:
    return all(_check(kind, hand) for kind in checks)


def _check(check: Check, hand: frozenset[str]) -> bool:
    what, arg = check
    match what:
        case 0:  # holds none of arg
            assert isinstance(arg, frozenset)
            return not hand & arg
        case 1:  # refuted / showed: holds at least one of arg
            assert isinstance(arg, frozenset)
            return bool(hand & arg)
        case 2:  # holds this card
            return arg in hand
        case 3:  # Private Tip answer: (tip card, cards returned)
            assert isinstance(arg, tuple)
            tip, returned = arg
            return sorted(returned) in [sorted(o) for o in _tip_answers(hand, tip)]
    raise AssertionError(what)


def _tip_answers(hand: frozenset[str], tip: str) -> list[list[str]]:
    """What the rules let a hand return for a Private Tip."""
    info = ACTIONS[tip]
    matching = [c for c in CLUES if c in hand and matches(c, info)]
    if info.all_of_kind:
        return [matching]
    return [[c] for c in matching] or [[]]


def _order(view: PlayerView, suggester: int) -> list[int]:
    """Who is asked, in order: clockwise from the suggester's left; the fugitive last."""
    n = len(view.seats)
    order = [(suggester + k) % n for k in range(1, n)]
    if view.fugitive is not None:
        order = [s for s in order if s != view.fugitive] + [view.fugitive]
    return order


def _checks(view: PlayerView) -> dict[int, list[Check]]:
    """Per seat: what its hand must satisfy for the view's record to have happened."""
    out: dict[int, list[Check]] = {s: [] for s in range(len(view.seats))}
    me = view.seat
    for entry in view.observations:
        match entry:
            case SuggestionSeen():
                named = frozenset(entry.named.cards())
                order = _order(view, entry.seat)
                stop = order.index(entry.refuter) if entry.refuter is not None else len(order)
                if list(entry.passed) != order[:stop]:
                    raise ValueError("the record's passed seats break the refutation order")
                for seat in order[:stop]:
                    out[seat].append((0, named))
                if entry.refuter is not None:
                    out[entry.refuter].append((1, named))
                    if entry.shown is not None:
                        out[entry.refuter].append((2, entry.shown))
            case SnoopSeen(card=str(card)):
                out[entry.target].append((2, card))
            case AllSnoopSeen(card=str(card)):
                look = next(look for look in entry.looks if look.looker == me)
                out[look.target].append((2, card))
            case SleuthSeen():
                info = ACTIONS[entry.card]
                feature = frozenset(c for c in CLUES if matches(c, info))
                for answer in entry.answers:
                    if answer.answered and not answer.showed:
                        out[answer.seat].append((0, feature))
                    else:
                        out[answer.seat].append((1, feature))
                    if answer.card is not None:
                        out[answer.seat].append((2, answer.card))
            case TipSeen(card=str(tip), cards=list(cards)):
                out[entry.target].append((3, (tip, tuple(cards))))
            case _:
                pass
    return out


# --- the coach's reference ----------------------------------------------------------------


def play_left(view: PlayerView, budget: int = 200_000) -> dict[tuple[str, ...], float]:
    """Every play open to `view.seat` (named as `coach.move_key` names them) with the expected
    number of possible solutions left once its outcome is known, the literal way: over every
    consistent deal, each outcome the rules allow (a refuter, a Super Sleuth answerer or a
    tip's target choosing among its answers alike), a solution counting as left after an
    outcome when some deal with it gives that outcome.

    Fast, without changing the figure: the deals are enumerated once and kept by column, a
    play reads each deal through a few columns only (the owners of the three cards a
    suggestion names, a snooped hand, ...), those readings are counted at C speed, and each
    distinct reading's outcomes are worked out once for all the deals that share it
    (`tests/mansion/literal_reference.py` keeps the deal-by-deal version it must equal)."""
    deals = _Deals.of(view, budget)
    out: dict[tuple[str, ...], float] = {}
    for play in coach_plays(view):
        keys, outcomes = _reading(view, play, deals)
        weight: dict[object, float] = {}
        support: dict[object, set[object]] = {}
        for key, count in Counter(keys).items():
            for outcome, chance in outcomes(key):
                weight[outcome] = weight.get(outcome, 0.0) + count * chance
                support.setdefault(outcome, set()).add(key[-1])  # the deal's solution
        out[move_key(play)] = sum(w * len(support[o]) for o, w in weight.items()) / len(
            deals.triples
        )
    return out


@dataclass
class _Deals:
    """Every deal consistent with a view, by column (deal i is row i of each)."""

    triples: list[TripleIds]
    hands: dict[int, list[frozenset[str]]]
    """Seat → its hand in each deal."""
    owners: dict[str, list[int]]
    """Card → the seat holding it in each deal (the number of seats: the solution)."""

    @classmethod
    def of(cls, view: PlayerView, budget: int) -> _Deals:
        players = len(view.seats)
        deals = cls([], {s: [] for s in range(players)}, {c: [] for c in CLUES})

        def visit(hands: dict[int, frozenset[str]], triple: TripleIds) -> None:
            deals.triples.append(triple)
            for seat, hand in hands.items():
                deals.hands[seat].append(hand)
                for card in hand:
                    deals.owners[card].append(seat)
            for card in triple:
                deals.owners[card].append(players)

        brute_force(view, budget, visit)
        return deals


Key = tuple[object, ...]
"""What a play reads of one deal, the deal's solution last."""
Outcomes = Callable[[Key], list[tuple[object, float]]]
"""What `view.seat` may see after a play in the deals read as a key, with each chance."""


def _reading(view: PlayerView, play: act.Action, deals: _Deals) -> tuple[Iterable[Key], Outcomes]:
    """Each deal's key for `play` (a lazy zip of the columns it reads) and the outcomes of a
    key."""
    me = view.seat
    match play:
        case act.SuggestAny() | act.SuggestPresent():
            where = play.destination if isinstance(play, act.SuggestAny) else view.seats[me].marker
            named = (play.suspect, play.vehicle, where)
            order = _order(view, me)
            rank = {seat: i for i, seat in enumerate(order)}

            def suggestion(key: Key) -> list[tuple[object, float]]:
                asked = [rank[o] for o in key[:3] if o in rank]
                if not asked:
                    return [(None, 1.0)]
                seat = order[min(asked)]
                held = sorted(c for c, o in zip(named, key[:3], strict=True) if o == seat)
                return [((seat, c), 1 / len(held)) for c in held]

            return zip(*(deals.owners[c] for c in named), deals.triples, strict=True), suggestion
        case act.Snoop() | act.AllSnoop():
            target = (
                play.target if isinstance(play, act.Snoop) else all_snoop_target(view, play.card)
            )

            def snoop(key: Key) -> list[tuple[object, float]]:
                hand = sorted(key[0])  # type: ignore[call-overload]
                return [(c, 1 / len(hand)) for c in hand] if hand else [(None, 1.0)]

            return zip(deals.hands[target], deals.triples, strict=True), snoop
        case act.SuperSleuth():
            feature = frozenset(c for c in CLUES if matches(c, ACTIONS[play.card]))
            answerers = _order_clockwise(view, me)

            def sleuth(key: Key) -> list[tuple[object, float]]:
                choices: list[list[tuple[int, str | None]]] = []
                chance = 1.0
                for seat, held in zip(answerers, key[:-1], strict=True):
                    choices.append([(seat, c) for c in sorted(held)] or [(seat, None)])  # type: ignore[call-overload]
                    chance /= len(choices[-1])
                return [(combo, chance) for combo in product(*choices)]

            columns = (map(feature.__and__, deals.hands[s]) for s in answerers)
            return zip(*columns, deals.triples, strict=True), sleuth
        case act.PrivateTip():
            tip = play.card

            def private_tip(key: Key) -> list[tuple[object, float]]:
                answers = _tip_answers(key[0], tip)  # type: ignore[arg-type]
                return [(tuple(sorted(a)), 1 / len(answers)) for a in answers]

            return zip(deals.hands[play.target], deals.triples, strict=True), private_tip
        case _:  # the PRESENT card's move: nothing learned
            return zip(deals.triples), lambda key: [(None, 1.0)]


def _order_clockwise(view: PlayerView, seat: int) -> list[int]:
    n = len(view.seats)
    return [(seat + k) % n for k in range(1, n)]


# --- random positions ---------------------------------------------------------------------


def random_action(state: GameState, rng: random.Random) -> act.Action:
    """A random legal action of a random waiting seat (accusing now and then)."""
    seat = rng.choice(legal.waiting_on(state))
    prompt = state.prompt_for(seat)
    assert prompt is not None
    if prompt.kind in ("play", "accuse_or_end") and rng.random() < 0.03:
        accusations = [a for a in legal.legal_actions(state, seat) if isinstance(a, act.Accuse)]
        return rng.choice(accusations)
    action = legal.idle_action(state, seat, rng)
    assert action is not None
    return action


def random_game(rng: random.Random, players: int, variant: Variant) -> GameState:
    refs = [PlayerRef(id=f"p{i}", name=f"P{i}") for i in range(players)]
    state, _ = new_game(refs, Options(players=players, variant=variant), rng.randrange(10**9))
    return state


def random_positions(
    rng: random.Random, players: int, variant: Variant, stops: list[int]
) -> Iterator[tuple[GameState, PlayerView]]:
    """One random game, seen from a random seat after each of `stops` actions (ascending)."""
    state = random_game(rng, players, variant)
    done = 0
    for stop in stops:
        while done < stop and state.phase != "over":
            state, _ = apply(state, random_action(state, rng))
            done += 1
        if state.phase != "playing":
            return
        yield state, player_view(state, rng.randrange(players))


def playing_position(
    rng: random.Random, players: int, actions: tuple[int, int] = (10, 60)
) -> PlayerView:
    """A random position (either variant, after a random number of `actions` in that range)
    seen by the seat that is to play: the coach's positions, for its tests and benchmark."""
    while True:
        variant: Variant = rng.choice(["standard", "one_against_all"])
        for state, _ in random_positions(rng, players, variant, [rng.randint(*actions)]):
            seats = [s for s in legal.waiting_on(state) if legal.playable_cards(state, s)]
            if seats:
                return player_view(state, seats[0])
