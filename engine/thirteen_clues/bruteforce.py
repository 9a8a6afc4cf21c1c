"""The reference oracle for the exact deduction solver (`deduction.solve`, `slot_joint`),
and the seeded random positions it is checked on.

Used by the tests (tests/test_deduction.py) and the benchmarks (bench/validate_deduction.py,
bench/deduction.py); it lives in the engine so that both may import it. Pure like the rest
of the engine: no I/O, randomness only from the `random.Random` passed in. Far too slow for
play: never call it from the bot or an AI.

Why a second implementation: the fast solver compresses cards into classes and memoises;
this one shares none of that. It builds whole worlds (every holder and every screen as
cards) and re-asks every recorded question of them, following the rules text directly.

What it enumerates: every holder triple for the seat (all unknown Person x Location x
Weapon), then, for every other seat that some recorded question names as witness, every
screen content (3-6 players: each unordered pair; 2 players: each ordered (left, right)),
checking each question of that witness as soon as its screen is placed. A world passes when
all questions (public and the seat's Top Secret ones, including those that tell the seat
nothing) give the recorded answer and the holder matches the seat's accusations.

What it does not enumerate: the cards left over go to slots no recorded fact mentions
(screens of never-questioned seats, unpeeked informant letters). Any arrangement of them is
consistent, so each passing world stands for len(left)! / 2^(silent screens) complete
assignments (unordered pairs with 3-6 players); `free_arrangements` enumerates them one by
one and the tests check the formula against it on small cases. Cost grows with the product
of screen choices: `budget` bounds the screens placed (plus the joint entries written, when
asked for), raising `TooLarge`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations, product
from math import factorial

from engine.thirteen_clues import (
    Accuse,
    Action,
    Ask,
    ChoosePass,
    Consult,
    GameState,
    Options,
    PlayerRef,
    PlayerView,
    TakeGlass,
    apply,
    legal,
    new_game,
    player_view,
)
from engine.thirteen_clues.cards import CARDS, Category, cards_in_play, in_subject
from engine.thirteen_clues.state import EDITIONS, Edition, Question

Triple = tuple[str, str, str]
Joint = dict[str, dict[tuple[Triple, tuple[str, ...]], int]]
"""As `deduction.Joint`: slot name -> (holder triple, slot content) -> count."""


class TooLarge(Exception):
    """The position needs more enumeration than the budget allows."""


@dataclass
class Reference:
    total: int = 0
    triples: dict[Triple, int] = field(default_factory=dict)
    joint: Joint = field(default_factory=dict)
    worlds: int = 0
    """Partial worlds that passed every check (before multiplying the free slots out)."""


def brute_force(
    view: PlayerView,
    *,
    joint: bool = False,
    budget: int | None = None,
    only: set[Triple] | None = None,
) -> Reference:
    """Count every complete assignment consistent with `view`, the slow and literal way.
    `only`: enumerate just these holder triples (for positions too large to do in full)."""
    n, me = view.options.players, view.seat
    holders: dict[int, list[str]] = {i: list(h) for i, h in view.holders.items()}
    screens: dict[int, tuple[str, ...]] = {me: tuple(view.screen)}
    seen = set(view.screen) | set(view.peeks.values())
    for h in view.holders.values():
        seen |= set(h)
    unknown = [c for c in cards_in_play(n) if c not in seen]
    questions: list[Question] = [q for q in view.questions if not q.top_secret]
    questions += view.secret_questions
    others = [i for i in range(n) if i != me]
    asked = [w for w in others if any(q.witness == w for q in questions)]
    silent = [w for w in others if w not in asked]
    letters = [x for x in view.letters if x not in view.peeks]
    wrong = [set(a.cards) for a in view.my_accusations if not a.correct]
    right = [set(a.cards) for a in view.my_accusations if a.correct]

    ref = Reference(joint={f"screen:{w}": {} for w in others})
    for x in letters:
        ref.joint[f"informant:{x}"] = {}
    member = {(q.subject, c): int(in_subject(c, q.subject)) for q in questions for c in CARDS}
    bit = {c: 1 << i for i, c in enumerate(unknown)}
    nodes = 0

    def counted(q: Question) -> list[int]:
        """Whose holders q's answer counts: every holder but the witness's with 3-6
        players; the asker's holder with 2."""
        return [q.asker] if n == 2 else [i for i in range(n) if i != q.witness]

    # The holders' share of each answer: the seen holders' part once, the seat's own (the
    # holder being tried) per world.
    seen_part = {
        id(q): sum(member[q.subject, c] for i in counted(q) if i != me for c in holders[i])
        for q in questions
    }

    def holder_part(q: Question) -> int:
        own = sum(member[q.subject, c] for c in holders[me]) if me in counted(q) else 0
        return seen_part[id(q)] + own

    def screen_part(q: Question, screen: tuple[str, ...]) -> int:
        """The witness's screen's share: both cards, or the named side with 2 players."""
        if n == 2:
            return member[q.subject, screen[0 if q.side == "left" else 1]]
        return sum(member[q.subject, c] for c in screen)

    # Each possible content of an asked seat's screen, filed under the shares it adds to
    # that witness's answers (this does not depend on the holder being tried).
    of_witness = {w: [q for q in questions if q.witness == w] for w in asked}
    by_shares: dict[int, dict[tuple[int, ...], list[tuple[str, ...]]]] = {}
    for w in asked:
        table: dict[tuple[int, ...], list[tuple[str, ...]]] = {}
        for content in permutations(unknown, 2) if n == 2 else combinations(unknown, 2):
            shares = tuple(screen_part(q, content) for q in of_witness[w])
            table.setdefault(shares, []).append(content)
        by_shares[w] = table

    def place(
        k: int,
        order: list[int],
        allowed: dict[int, list[tuple[str, ...]]],
        used: int,
        triple: Triple,
    ) -> None:
        nonlocal nodes
        if k == len(order):
            finish([c for c in unknown if not used & bit[c]], triple)
            return
        w = order[k]
        for content in allowed[w]:
            nodes += 1
            if budget is not None and nodes > budget:
                raise TooLarge
            cards = bit[content[0]] | bit[content[1]]
            if used & cards:
                continue
            screens[w] = content
            place(k + 1, order, allowed, used | cards, triple)
        screens.pop(w, None)

    def finish(left: list[str], triple: Triple) -> None:
        nonlocal nodes
        pairs = 0 if n == 2 else len(silent)
        ways = factorial(len(left)) // 2**pairs
        ref.worlds += 1
        ref.total += ways
        ref.triples[triple] = ref.triples.get(triple, 0) + ways
        if not joint:
            return
        nodes += len(silent) * len(left) ** 2 + len(letters) * len(left)  # entries written
        if budget is not None and nodes > budget:
            raise TooLarge
        for w in asked:
            content = screens[w] if n == 2 else tuple(sorted(screens[w]))
            _add(ref.joint[f"screen:{w}"], (triple, content), ways)
        for w in silent:
            per = factorial(len(left) - 2) // 2 ** max(pairs - 1, 0)
            contents = permutations(left, 2) if n == 2 else combinations(sorted(left), 2)
            for content in contents:
                _add(ref.joint[f"screen:{w}"], (triple, tuple(content)), per)
        for x in letters:
            per = factorial(len(left) - 1) // 2**pairs
            for card in left:
                _add(ref.joint[f"informant:{x}"], (triple, (card,)), per)

    persons, locations, weapons = (
        [c for c in unknown if CARDS[c].category == cat] for cat in Category
    )
    for triple in product(persons, locations, weapons):
        if only is not None and triple not in only:
            continue
        if any(set(triple) == a for a in wrong) or any(set(triple) != a for a in right):
            continue
        holders[me] = list(triple)
        # Questions to the seat itself (its screen is known) are checked right away...
        if not all(
            holder_part(q) + screen_part(q, screens[q.witness]) == q.answer
            for q in questions
            if q.witness == me
        ):
            continue
        # ...the others through the screen contents that add exactly the missing shares;
        # a world picks one per asked seat, no card used twice, none from the holder.
        in_holder = bit[triple[0]] | bit[triple[1]] | bit[triple[2]]
        allowed: dict[int, list[tuple[str, ...]]] = {}
        for w in asked:
            missing = tuple(q.answer - holder_part(q) for q in of_witness[w])
            allowed[w] = [
                content
                for content in by_shares[w].get(missing, [])
                if not in_holder & (bit[content[0]] | bit[content[1]])
            ]
        order = sorted(asked, key=lambda w: len(allowed[w]))
        place(0, order, allowed, in_holder, triple)
    return ref


def _add(
    table: dict[tuple[Triple, tuple[str, ...]], int],
    key: tuple[Triple, tuple[str, ...]],
    value: int,
) -> None:
    table[key] = table.get(key, 0) + value


Arrangement = tuple[frozenset[str] | str, ...]


def free_arrangements(
    left: Sequence[str], pair_slots: int, single_slots: int
) -> Iterator[Arrangement]:
    """Every way to deal `left` into labelled unordered pairs then labelled single cells:
    each arrangement lists the pairs (frozensets) then the single cards."""
    if pair_slots:
        for pair in combinations(left, 2):
            rest = [c for c in left if c not in pair]
            for tail in free_arrangements(rest, pair_slots - 1, single_slots):
                yield (frozenset(pair), *tail)
    else:
        assert len(left) == single_slots
        yield from (tuple(p) for p in permutations(left))


# --- random positions ---------------------------------------------------------------------


def random_state(
    rng: random.Random, players: int, actions: int, *, edition: Edition | None = None
) -> GameState:
    """Deal a seeded table and play up to `actions` random legal actions (passes included
    only as setup). Stops before an action would end the game, so the state is mid-game."""
    return random_states(rng, players, [actions], edition=edition)[-1]


def random_states(
    rng: random.Random, players: int, stops: list[int], *, edition: Edition | None = None
) -> list[GameState]:
    """One random game, snapshotted after each number of actions in `stops` (ascending):
    several positions for the price of one simulation."""
    chosen = edition if edition is not None else rng.choice(EDITIONS)
    options = Options(
        players=players,
        edition=chosen,
        top_secret=players > 2 and rng.random() < 0.5,
    )
    refs = [PlayerRef(id=f"p{i}", name=f"P{i}") for i in range(players)]
    state, _ = new_game(refs, options, seed=rng.randrange(2**31))
    for i, seat in enumerate(state.seats):
        p, loc, w = (
            rng.choice([c for c in seat.dealt if CARDS[c].category == k]) for k in Category
        )
        state, _ = apply(state, ChoosePass(seat=i, person=p, location=loc, weapon=w))
    snapshots = []
    done = 0
    for stop in stops:
        while done < stop:
            action = random_action(rng, state)
            nxt = apply(state, action)[0] if action is not None else None
            if nxt is None or nxt.phase == "over":
                done = max(stops)  # the game would end: stay at the last mid-game state
                break
            state, done = nxt, done + 1
        snapshots.append(state)
    return snapshots


def random_action(rng: random.Random, state: GameState) -> Action | None:
    seat = state.turn
    sources = legal.take_sources(state, seat)
    if sources:
        return TakeGlass(seat=seat, source=rng.choice(sources))
    if not legal.can_act(state, seat):
        return None
    roll = rng.random()
    letters = legal.informant_letters(state)
    if roll < 0.15 and letters:
        return Consult(seat=seat, letter=rng.choice(letters))
    if roll < 0.22:
        pool = legal.accusable_cards(state, seat)
        if all(pool.values()):
            p, loc, w = (rng.choice(pool[cat]) for cat in Category)
            return Accuse(seat=seat, person=p, location=loc, weapon=w)
    secret = state.options.top_secret and not state.seats[seat].top_secret_used
    return Ask(
        seat=seat,
        witness=rng.choice(legal.witnesses(state, seat)),
        subject=rng.choice(legal.question_subjects(state)),
        side=rng.choice(["left", "right"]) if state.players == 2 else None,
        top_secret=secret and rng.random() < 0.3,
    )


def random_position(
    rng: random.Random, players: int, max_actions: int = 40
) -> tuple[GameState, PlayerView]:
    """A random mid-game position and the view of a random seat."""
    return random_positions(rng, players, 1, max_actions)[0]


def random_positions(
    rng: random.Random, players: int, count: int, max_actions: int = 40
) -> list[tuple[GameState, PlayerView]]:
    """`count` positions from one random game, at random moments, each from a random seat."""
    stops = sorted(rng.randint(0, max_actions) for _ in range(count))
    states = random_states(rng, players, stops)
    return [(state, player_view(state, rng.randrange(players))) for state in states]


def true_triple(state: GameState, seat: int) -> Triple:
    by_cat = {CARDS[c].category: c for c in state.seats[seat].holder}
    return (by_cat[Category.PERSON], by_cat[Category.LOCATION], by_cat[Category.WEAPON])


# --- the coach's reference --------------------------------------------------------------------


def move_left(view: PlayerView, *, budget: int | None = None) -> dict[tuple[str, ...], float]:
    """The coach's figure the literal way: for every legal question and informant letter,
    the expected number of holder triples still possible after its answer. Each answer is
    counted as the rules say (every holder but the witness's, the own one being the triple,
    plus the witness's screen; with two players the asker's holder plus the named card),
    over the joint of `brute_force`. Keys: ("ask", witness, subject, side or
    "") and ("consult", letter), as `coach` names its moves."""
    ref = brute_force(view, joint=True, budget=budget)
    n, me = view.options.players, view.seat
    out: dict[tuple[str, ...], float] = {}
    for witness in legal.witnesses(view, me):
        entries = ref.joint[f"screen:{witness}"]
        for subject in legal.question_subjects(view):
            for side in legal.sides(view):
                tally: dict[tuple[Triple, int], int] = {}
                for (triple, content), ways in entries.items():
                    if n == 2:
                        seen = [*triple, content[0 if side == "left" else 1]]
                    else:
                        seen = [*content, *triple]
                        seen += [c for i, h in view.holders.items() if i != witness for c in h]
                    answer = sum(in_subject(c, subject) for c in seen)
                    tally[(triple, answer)] = tally.get((triple, answer), 0) + ways
                out[("ask", str(witness), subject, side or "")] = _left(tally)
    for letter in legal.informant_letters(view):
        entries = ref.joint.get(f"informant:{letter}", {})
        tally_card: dict[tuple[Triple, str], int] = {}
        for (triple, (card,)), ways in entries.items():
            tally_card[(triple, card)] = tally_card.get((triple, card), 0) + ways
        out[("consult", letter)] = _left(tally_card) if tally_card else float(len(ref.triples))
    return out


def _left(tally: dict[tuple[Triple, int], int] | dict[tuple[Triple, str], int]) -> float:
    """E[#triples that can give the answer] = sum over (T, a) of n(T, a) / N * #T giving a."""
    total = sum(tally.values())
    givers: dict[object, int] = {}
    for _, answer in tally:
        givers[answer] = givers.get(answer, 0) + 1
    return sum(ways * givers[answer] for (_, answer), ways in tally.items()) / total
