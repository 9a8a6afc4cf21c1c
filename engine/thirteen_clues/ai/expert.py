"""The expert detective: exact deduction (`deduction.solve`) and greedy information gain.

Every question (witness, subject[, side]) and every informant letter is scored by the
expected entropy reduction it brings about the seat's own holder, computed in one pass over
`deduction.slot_joint` (it is only counting: each answer is a function of the holder and of
one screen or informant slot). Consultations are private, so they get a small bonus over
public questions, whose answers also teach the opponents.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from engine.thirteen_clues import deduction, legal
from engine.thirteen_clues.actions import Accuse, Action, Ask, Consult
from engine.thirteen_clues.ai import normal
from engine.thirteen_clues.cards import CARDS
from engine.thirteen_clues.rules import spent_glass_receiver
from engine.thirteen_clues.state import Side
from engine.thirteen_clues.views import PlayerView

Triple = tuple[str, str, str]
EPS = 1e-9


@dataclass(frozen=True)
class Params:
    """Accusation thresholds on the probability of the likeliest holder triple.

    2020 (3+ players): a wrong accusation ends the turn and sends the remaining glasses to
    the supply, so the expert asks with its earlier glasses and gambles only with the last
    one (`last`), unless it is nearly sure (`early`). A wrong last-glass guess costs one
    action and strikes a triple, about what a question gives, while a right one wins a
    whole round earlier: hence a low bar. 2016: a wrong accusation costs one glass and the
    turn goes on, so the bar is lower still (`lenient`). Two players: one action per turn,
    a wrong guess costs that turn (`two_players`).

    Tuned by bench/ai_tournament.py (4 players, 300 games, 1 expert vs 3 normal, win rate):
    2020 last 0.67 → 70%, 0.5 → 75%, 0.34 → 79%, 0.25 → 80%; with gift_penalty 0.2 → 87%
    (0.1 → 83%, 0.3-0.5 → 82-83%). 2016 lenient 0.5 → 72%, 0.34 → 78%, 0.2 → 80%, with
    gift_penalty 0.2-0.3 → 84-85%. Two players: 0.34 → 94%, 0.5 → 94%, 0.67 → 90%.
    `early` (0.75-1.0) and `consult_bonus` (0-0.3) made no measurable difference. Against
    the final normal (lower bounds, two-triple gambles), 400 games: defaults 78%, last 0.22
    → 79%, 0.4 → 75%, gift_penalty 0.12 → 73%, 0.3 → 77%: the defaults stand.
    """

    last: float = 0.3
    early: float = 0.9
    lenient: float = 0.2
    two_players: float = 0.4
    consult_bonus: float = 0.1
    """Relative bonus for private information (consulting) over public (asking)."""
    gift_penalty: float = 0.2
    """Bits deducted from an action whose spent glass hands an opponent an extra action:
    a player who holds none would take one from the supply anyway, so giving them the
    glass is free while the supply lasts; giving it to a player who holds one is not."""
    top_secret_bits: float = 2.5
    """Spend the Top Secret token on the first question asked once the holder entropy is
    at most this many bits: closing questions are the ones an opponent can least be let to
    overhear, since by then the answers also pin down other players' holders."""


DEFAULT = Params()


def _entropy(values: Collection[int]) -> float:
    """Entropy (bits) of a distribution given by counts."""
    n = sum(values)
    return -sum(v / n * math.log2(v / n) for v in values if v)


def _nlogn(values: Iterable[int]) -> float:
    return sum(v * math.log2(v) for v in values if v > 0)


def _subjects_of(subjects: list[str]) -> dict[str, list[str]]:
    wanted = set(subjects)
    return {
        card: [s for s in (info.suit.value, info.sub.value, info.category.value) if s in wanted]
        for card, info in CARDS.items()
    }


def _gain(per_t: dict[Triple, dict[str, int]]) -> float:
    """Mutual information (bits) between the holder and an answer, from counts n[T][a]."""
    by_answer: dict[str, int] = defaultdict(int)
    joint = 0.0
    total = 0
    for answers in per_t.values():
        for a, n in answers.items():
            by_answer[a] += n
            total += n
        joint += _nlogn(answers.values())
    if total == 0:
        return 0.0
    per_t_totals = [sum(a.values()) for a in per_t.values()]
    h_t = math.log2(total) - _nlogn(per_t_totals) / total
    h_t_given_a = (_nlogn(by_answer.values()) - joint) / total
    return max(0.0, h_t - h_t_given_a)


Tally = tuple[
    dict[Triple, int],
    dict[Side | None, dict[Triple, dict[str, int]]],
    dict[Triple, dict[str, int]],
]


def _tally(
    entries: dict[tuple[Triple, tuple[str, ...]], int],
    two: bool,
    subs: dict[str, list[str]],
    shared_memo: dict[tuple[str, ...], tuple[str, ...]],
) -> Tally:
    """One pass over a screen's joint: per holder triple, the total count, the count per
    card in each counted part (`marg[side][T][card]`) and, per subject, the count with both
    screen cards in it (`both[T][subject]`). The hot loop of the expert: kept lean."""
    totals: dict[Triple, int] = {}
    marg: dict[Side | None, dict[Triple, dict[str, int]]] = {}
    both: dict[Triple, dict[str, int]] = {}
    if two:
        left: dict[Triple, dict[str, int]] = {}
        right: dict[Triple, dict[str, int]] = {}
        marg["left"], marg["right"] = left, right
        for (t, (a, b)), n in entries.items():
            totals[t] = totals.get(t, 0) + n
            on_left = left.setdefault(t, {})
            on_left[a] = on_left.get(a, 0) + n
            on_right = right.setdefault(t, {})
            on_right[b] = on_right.get(b, 0) + n
        return totals, marg, both
    rows: dict[Triple, dict[str, int]] = {}
    marg[None] = rows
    current: Triple | None = None
    row: dict[str, int] = {}
    brow: dict[str, int] = {}
    total = 0
    for (t, content), n in entries.items():
        if t != current:
            if current is not None:
                totals[current] = totals.get(current, 0) + total
            current, total = t, 0
            row = rows.setdefault(t, defaultdict(int))
            brow = both.setdefault(t, defaultdict(int))
        total += n
        a, b = content
        row[a] += n
        row[b] += n
        shared = shared_memo.get(content)
        if shared is None:
            shared = shared_memo[content] = tuple(x for x in subs[a] if x in subs[b])
        for x in shared:
            brow[x] += n
    if current is not None:
        totals[current] = totals.get(current, 0) + total
    return totals, marg, both


def question_gains(
    view: PlayerView, joint: dict[str, dict[tuple[Triple, tuple[str, ...]], int]]
) -> dict[tuple[int, str, Side | None], float]:
    """Expected information (bits) about the own holder of every question.

    An answer is (visible part) + (subject cards on the holder) + (subject cards in the
    counted screen part), so per screen and holder triple T it is enough to know, for each
    card, how many assignments put it there (`marg`), and for each subject how many put two
    of its cards there (`both`): that gives how often the screen part counts 0, 1 or 2.
    """
    subjects = legal.question_subjects(view)
    subs = _subjects_of(subjects)
    gains: dict[tuple[int, str, Side | None], float] = {}
    two = view.options.players == 2
    shared_memo: dict[tuple[str, ...], tuple[str, ...]] = {}
    logs: dict[int, float] = {0: 0.0}
    for witness in legal.witnesses(view, view.seat):
        entries = joint.get(f"screen:{witness}", {})
        totals, marg, both = _tally(entries, two, subs, shared_memo)
        n_all = sum(totals.values())
        if not n_all:
            continue
        h_t = _entropy(totals.values())
        t_base = {t: Counter(x for c in t for x in subs[c]) for t in totals}
        for side in legal.sides(view):
            rows = marg[side]
            # per subject: answer (holder part + screen part) -> count, and sum n log n
            by_answer = {s: [0] * 6 for s in subjects}
            joint_nlogn = dict.fromkeys(subjects, 0.0)
            for t, total in totals.items():
                one: dict[str, int] = defaultdict(int)
                for card, n in rows.get(t, {}).items():
                    for x in subs[card]:
                        one[x] += n
                two_rows = both.get(t, {})
                base = t_base[t]
                for s in subjects:
                    n2 = two_rows.get(s, 0)
                    n1 = one.get(s, 0) - 2 * n2
                    n0 = total - n1 - n2
                    counts = by_answer[s]
                    b = base.get(s, 0)
                    acc = 0.0
                    for k, n in ((0, n0), (1, n1), (2, n2)):
                        if n:
                            counts[b + k] += n
                            nl = logs.get(n)
                            if nl is None:
                                nl = logs[n] = n * math.log2(n)
                            acc += nl
                    joint_nlogn[s] += acc
            for s in subjects:
                h_given = (_nlogn(by_answer[s]) - joint_nlogn[s]) / n_all
                gains[(witness, s, side)] = max(0.0, h_t - h_given)
    return gains


def consult_gains(
    view: PlayerView, joint: dict[str, dict[tuple[Triple, tuple[str, ...]], int]]
) -> dict[str, float]:
    gains: dict[str, float] = {}
    for letter in view.letters:
        per_t: dict[Triple, dict[str, int]] = defaultdict(dict)
        for (triple, (card,)), n in joint.get(f"informant:{letter}", {}).items():
            per_t[triple][card] = per_t[triple].get(card, 0) + n
        gains[letter] = _gain(per_t)
    return gains


def _threshold(view: PlayerView, params: Params) -> float:
    if view.options.players == 2:
        return params.two_players
    if view.options.edition == "2016":
        return params.lenient
    return params.last if view.seats[view.seat].glasses <= 1 else params.early


def act(view: PlayerView, rng: random.Random, params: Params = DEFAULT) -> Action:
    """Accuse the likeliest triple when certain or past the edition's threshold, else take
    the most informative question or consultation (ties broken by `rng`)."""
    result = deduction.solve(view)
    if not result.total:  # an inconsistent record cannot happen; play on the notepad
        return normal.act(view, rng)
    ranked = sorted(result.triples.items(), key=lambda kv: (-kv[1], kv[0]))
    accusable = legal.accusable_cards(view, view.seat)
    allowed = {c for cards in accusable.values() for c in cards}
    ranked = [(t, n) for t, n in ranked if set(t) <= allowed] or ranked
    top, top_n = ranked[0]
    p_top = top_n / result.total
    if p_top >= 1 - EPS or p_top >= _threshold(view, params):
        return _accuse(view, top)
    joint = deduction.slot_joint(view)
    options: list[tuple[float, Action]] = []
    penalty = [params.gift_penalty * _gifts_action(view, w) for w in range(view.options.players)]
    for (witness, subject, side), gain in question_gains(view, joint).items():
        ask = Ask(seat=view.seat, witness=witness, subject=subject, side=side)
        options.append((gain - penalty[witness], ask))
    spent = spent_glass_receiver(view, view.seat) if view.options.uses_glasses else None
    cost = 0.0 if spent is None else penalty[spent]
    for letter, gain in consult_gains(view, joint).items():
        consult = Consult(seat=view.seat, letter=letter)
        options.append((gain * (1 + params.consult_bonus) - cost, consult))
    best_score = max((score for score, _ in options), default=0.0)
    if best_score <= EPS:  # nothing left to learn: the likeliest triple it is
        return _accuse(view, top)
    action = rng.choice([a for score, a in options if score >= best_score - 1e-6])
    secret = isinstance(action, Ask) and legal.can_use_top_secret(view, view.seat)
    if secret and _entropy(result.triples.values()) <= params.top_secret_bits:
        action = action.model_copy(update={"top_secret": True})
    return action


def _gifts_action(view: PlayerView, receiver: int) -> bool:
    """Whether handing `receiver` a glass gives them one more action on their next turn."""
    if not view.options.uses_glasses or receiver == view.seat:
        return False
    return view.seats[receiver].glasses > 0 or view.supply == 0


def _accuse(view: PlayerView, triple: Triple) -> Accuse:
    person, location, weapon = triple
    return Accuse(seat=view.seat, person=person, location=location, weapon=weapon)
