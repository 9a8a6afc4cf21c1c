"""How each possible question or informant look would answer, per holder triple, exactly.

Why one module: the expert (information in bits) and the coach (possible mysteries left)
rank the same moves by two figures of the same table. For a move, `spreads` gives, for each
holder triple T the seat still thinks possible, how many consistent assignments give each
answer; it is read off `deduction.slot_joint`, since an answer depends only on the holder
and on one screen or informant slot. Question answers leave out the part the seat already
sees (the other holders): a fixed shift per question, which neither figure depends on.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping

from engine.thirteen_clues import legal
from engine.thirteen_clues.cards import CARDS
from engine.thirteen_clues.deduction import Joint, Triple
from engine.thirteen_clues.state import Side
from engine.thirteen_clues.views import PlayerView

QuestionKey = tuple[int, str, Side | None]
"""(witness, subject, side) of a question."""
Spread = dict[Triple, dict[int | str, int]]
"""Holder triple -> answer -> number of consistent assignments giving it."""
Weighted = Mapping[Triple, Mapping[int | str, float]]
"""A spread whose assignments are weighed (not all alike likely), or a plain `Spread`."""


def question_spreads(view: PlayerView, joint: Joint) -> dict[QuestionKey, Spread]:
    """Every question `view.seat` may ask, with its answers' spread over the holder.

    An answer is (the visible part) + (subject cards on the holder) + (subject cards in the
    counted screen part). Per screen and triple it is enough to know, for each card, how many
    assignments put it there, and for each subject how many put two of its cards there: that
    gives how often the screen part counts 0, 1 or 2.
    """
    subjects = legal.question_subjects(view)
    subs = _subjects_of(subjects)
    two = view.options.players == 2
    shared_memo: dict[tuple[str, ...], tuple[str, ...]] = {}
    out: dict[QuestionKey, Spread] = {}
    for witness in legal.witnesses(view, view.seat):
        totals, marg, both = _tally(joint.get(f"screen:{witness}", {}), two, subs, shared_memo)
        held = {t: _count_subjects(t, subs) for t in totals}
        for side in legal.sides(view):
            rows = marg[side]
            spreads: dict[str, Spread] = {s: {} for s in subjects}
            for t, total in totals.items():
                one: dict[str, int] = defaultdict(int)
                for card, n in rows.get(t, {}).items():
                    for x in subs[card]:
                        one[x] += n
                pairs = both.get(t, {})
                base = held[t]
                for s in subjects:
                    n2 = pairs.get(s, 0)
                    n1 = one.get(s, 0) - 2 * n2
                    b = base.get(s, 0)
                    answers: dict[int | str, int] = {}
                    for k, n in ((0, total - n1 - n2), (1, n1), (2, n2)):
                        if n:
                            answers[b + k] = n
                    spreads[s][t] = answers
            for s in subjects:
                out[(witness, s, side)] = spreads[s]
    return out


def consult_spreads(view: PlayerView, joint: Joint) -> dict[str, Spread]:
    """Every informant letter: per holder triple, how many assignments put each card there."""
    out: dict[str, Spread] = {}
    for letter in legal.informant_letters(view):
        spread: Spread = defaultdict(dict)
        for (triple, (card,)), n in joint.get(f"informant:{letter}", {}).items():
            row = spread[triple]
            row[card] = row.get(card, 0) + n
        out[letter] = dict(spread)
    return out


def information(spread: Weighted) -> float:
    """Mutual information (bits) between the holder and the answer."""
    by_answer: dict[int | str, float] = defaultdict(float)
    joint = 0.0
    total = 0.0
    per_t = []
    for answers in spread.values():
        t_total = 0.0
        for a, n in answers.items():
            by_answer[a] += n
            t_total += n
        total += t_total
        per_t.append(t_total)
        joint += _nlogn(answers.values())
    if total == 0:
        return 0.0
    h_t = math.log2(total) - _nlogn(per_t) / total
    h_t_given_a = (_nlogn(by_answer.values()) - joint) / total
    return max(0.0, h_t - h_t_given_a)


def expected_left(spread: Spread) -> float:
    """The expected number of holder triples still possible once the answer is known:
    sum over answers of P(answer) x (triples that can give it)."""
    weight: dict[int | str, int] = defaultdict(int)
    support: dict[int | str, int] = defaultdict(int)
    total = 0
    for answers in spread.values():
        for a, n in answers.items():
            weight[a] += n
            support[a] += 1
            total += n
    if total == 0:
        return 0.0
    return sum(weight[a] * support[a] for a in weight) / total


def _nlogn(values: Iterable[float]) -> float:
    return sum(v * math.log2(v) for v in values if v > 0)


def _subjects_of(subjects: list[str]) -> dict[str, list[str]]:
    wanted = set(subjects)
    return {
        card: [s for s in (info.suit.value, info.sub.value, info.category.value) if s in wanted]
        for card, info in CARDS.items()
    }


def _count_subjects(triple: Triple, subs: dict[str, list[str]]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for card in triple:
        for x in subs[card]:
            counts[x] += 1
    return counts


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
    screen cards in it (`both[T][subject]`). The hot loop of the rankings: kept lean."""
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
