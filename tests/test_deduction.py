"""The exact deduction solver against the literal enumerator, plus worked examples."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from itertools import combinations
from math import factorial

import pytest

from engine.thirteen_clues import GameState, PlayerView, answer_for, choices, deduction, player_view
from engine.thirteen_clues.bruteforce import (
    TooLarge,
    brute_force,
    free_arrangements,
    random_position,
    random_state,
    true_triple,
)
from engine.thirteen_clues.cards import CARDS, Category, cards_in_play, in_subject
from engine.thirteen_clues.deduction import Deduction, bookkeeping, slot_joint, solve
from engine.thirteen_clues.state import Accusation, Edition, Question, Side

BUDGET = 40_000
"""Screens the enumerator may place per position; larger positions are skipped (counted)."""
POSITIONS = {2: 60, 3: 60, 4: 50, 5: 50, 6: 60}


def _positions(players: int, count: int, seed: int) -> list[tuple[GameState, PlayerView]]:
    rng = random.Random(seed * 10 + players)
    return [random_position(rng, players) for _ in range(count)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_matches_brute_force(players: int) -> None:
    compared = joints = 0
    for n, (state, view) in enumerate(_positions(players, POSITIONS[players], seed=1)):
        deduction = solve(view)
        assert true_triple(state, view.seat) in deduction.triples
        try:
            ref = brute_force(view, joint=n % 2 == 0, budget=BUDGET)
        except TooLarge:
            try:
                ref = brute_force(view, budget=BUDGET)
            except TooLarge:
                continue
        compared += 1
        assert deduction.total == ref.total
        assert deduction.triples == ref.triples
        if ref.joint and any(ref.joint.values()):
            joints += 1
            assert slot_joint(view) == ref.joint
            some = sorted(ref.joint)[n % len(ref.joint):][:1]
            assert slot_joint(view, some) == {name: ref.joint[name] for name in some}
            # going on from the solve's counts (a casebook update, the coach, the expert AI)
            assert slot_joint(view, solved=deduction) == ref.joint
    assert compared >= 0.4 * POSITIONS[players]
    assert joints >= 0.1 * POSITIONS[players]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_joint_marginals_are_the_triple_counts(players: int) -> None:
    for _, view in _positions(players, 6, seed=2):
        deduction = solve(view)
        joint = slot_joint(view)
        letters = [x for x in view.letters if x not in view.peeks]
        others = [i for i in range(players) if i != view.seat]
        assert set(joint) == {f"screen:{w}" for w in others} | {f"informant:{x}" for x in letters}
        for table in joint.values():
            sums: Counter[tuple[str, str, str]] = Counter()
            for (triple, _content), count in table.items():
                sums[triple] += count
            assert dict(sums) == deduction.triples


def test_free_slot_formula_of_the_reference() -> None:
    """The enumerator multiplies silent slots out by len(left)! / 2^pairs: check by hand."""
    cards = ["a", "b", "c", "d", "e", "f", "g"]
    for pairs, singles in [(0, 7), (1, 5), (2, 3), (3, 1)]:
        arrangements = list(free_arrangements(cards, pairs, singles))
        assert len(arrangements) == len(set(arrangements))
        assert len(arrangements) == factorial(len(cards)) // 2**pairs


# --- worked examples -----------------------------------------------------------------------


def _table(players: int, seed: int, edition: Edition | None = None) -> GameState:
    """A dealt table in the turn phase, no action taken yet."""
    rng = random.Random(seed)
    state = random_state(rng, players, 0, edition=edition)
    return state.model_copy(update={"questions": [], "accusations": []}, deep=True)


def _ask(
    state: GameState,
    asker: int,
    witness: int,
    subject: str,
    side: Side | None = None,
    *,
    top_secret: bool = False,
) -> GameState:
    answer = answer_for(state, asker, witness, subject, side)
    question = Question(
        asker=asker,
        witness=witness,
        subject=subject,
        side=side,
        answer=answer,
        top_secret=top_secret,
    )
    return state.model_copy(update={"questions": [*state.questions, question]})


def _subjects(players: int) -> list[str]:
    from engine.thirteen_clues.cards import SubCategory, suits_in_play

    return [s.value for s in suits_in_play(players)] + [s.value for s in SubCategory]


def test_visible_cards_and_removed_suits_are_ruled_out() -> None:
    state = _table(4, seed=5)
    view = player_view(state, 0)
    deduction = solve(view)
    visible = set(view.screen) | {c for h in view.holders.values() for c in h}
    assert len(deduction.unknown) == 13
    assert not visible & set(deduction.unknown)
    for card in CARDS:
        if card in visible or card not in cards_in_play(4):
            assert deduction.status(card) == "ruled_out"
            assert deduction.probability(card) == 0.0
            assert bookkeeping(view)[card] == "ruled_out"
    # Nothing asked yet: every unknown triple is possible, all equally likely.
    counts = set(deduction.triples.values())
    assert len(counts) == 1
    assert len(deduction.triples) == _category_product(deduction.unknown)


def _category_product(cards: tuple[str, ...]) -> int:
    per = Counter(CARDS[c].category for c in cards)
    return per[Category.PERSON] * per[Category.LOCATION] * per[Category.WEAPON]


def test_zero_answer_rules_subject_out_unless_the_seat_is_the_witness() -> None:
    seen_zero = 0
    for seed in range(40):
        state = _table(4, seed=seed)
        for subject in _subjects(4):
            if answer_for(state, 1, 2, subject, None) != 0:
                continue
            asked = _ask(state, 1, 2, subject)
            me = player_view(asked, 0)
            deduction, marks = solve(me), bookkeeping(me)
            for card in CARDS:
                if in_subject(card, subject):
                    assert deduction.status(card) == "ruled_out"
                    assert marks[card] == "ruled_out"
            # The witness's own view: its zero says nothing about its own holder.
            witness = player_view(asked, 2)
            assert solve(witness).triples == solve(player_view(state, 2)).triples
            unseen = [c for c in solve(witness).unknown if in_subject(c, subject)]
            assert all(bookkeeping(witness)[c] == "candidate" for c in unseen)
            seen_zero += 1
    assert seen_zero >= 5


def test_certain_when_one_triple_is_left() -> None:
    rng = random.Random(11)
    for _ in range(300):
        state = random_state(rng, 3, rng.randint(40, 120))
        for seat in range(3):
            deduction = solve(player_view(state, seat))
            if len(deduction.triples) == 1:
                triple = deduction.certain()
                assert triple == true_triple(state, seat)
                assert deduction.triple_probability(triple) == 1.0
                for card in triple:
                    assert deduction.status(card) == "certain"
                    assert deduction.probability(card) == 1.0
                return
    pytest.fail("no position with a single triple found")


def test_wrong_accusation_removes_exactly_that_triple() -> None:
    state = _table(5, seed=3)
    for subject in ("red", "male", "outdoor"):
        state = _ask(state, 0, 3, subject)
    before = solve(player_view(state, 1))
    wrong = next(t for t in before.candidates() if t != true_triple(state, 1))
    # Accusations are stored in the order named; the solver must not care.
    named = (wrong[0], wrong[1], wrong[2])
    accused = state.model_copy(
        update={"accusations": [Accusation(seat=1, cards=named, correct=False)]}
    )
    after = solve(player_view(accused, 1))
    assert wrong not in after.triples
    assert after.total == before.total - before.triples[wrong]
    assert {t: n for t, n in before.triples.items() if t != wrong} == after.triples
    # Someone else's wrong accusation is about a holder this seat can see: no change.
    other = state.model_copy(
        update={"accusations": [Accusation(seat=2, cards=named, correct=False)]}
    )
    assert solve(player_view(other, 1)).triples == before.triples


def test_correct_accusation_leaves_one_triple() -> None:
    state = _table(3, seed=8)
    truth = true_triple(state, 0)
    won = state.model_copy(
        update={"accusations": [Accusation(seat=0, cards=truth, correct=True)], "phase": "over"}
    )
    assert solve(player_view(won, 0)).certain() == truth


def test_two_player_side_answers() -> None:
    for seed in range(6):
        state = _table(2, seed=seed)
        asks: tuple[tuple[str, Side], ...] = (("male", "left"), ("purple", "right"),
                                               ("ranged", "left"))
        for subject, side in asks:
            state = _ask(state, 0, 1, subject, side)
        view = player_view(state, 0)
        joint = slot_joint(view)["screen:1"]
        answers = [(q.subject, q.side, q.answer) for q in state.questions]
        for (triple, (left, right)), count in joint.items():
            assert count > 0
            for asked, where, answer in answers:
                card = left if where == "left" else right
                have = sum(in_subject(c, asked) for c in triple) + in_subject(card, asked)
                assert have == answer
        assert solve(view).triples == brute_force(view).triples
        # The other seat asking me counts its holder and my screen: nothing new for me.
        asked_me = _ask(state, 1, 0, "female", "right")
        assert solve(player_view(asked_me, 0)).triples == solve(view).triples
        # With two players both sides count separately: the screen content is ordered.
        assert any((t, (b, a)) not in joint for (t, (a, b)) in joint)


def test_two_player_zero_answers_in_bookkeeping() -> None:
    """With two players a zero counts the asker's holder: it rules out for the asker only."""
    found = 0
    for seed in range(30):
        state = _table(2, seed=seed)
        for subject in _subjects(2):
            for side in ("left", "right"):
                if answer_for(state, 0, 1, subject, side) != 0:
                    continue
                mine = _ask(state, 0, 1, subject, side)
                theirs = _ask(state, 1, 0, subject, side)
                unknown = solve(player_view(state, 0)).unknown
                cards = [c for c in unknown if in_subject(c, subject)]
                assert all(bookkeeping(player_view(mine, 0))[c] == "ruled_out" for c in cards)
                assert all(solve(player_view(mine, 0)).status(c) == "ruled_out" for c in cards)
                other = [c for c in solve(player_view(state, 1)).unknown if in_subject(c, subject)]
                assert all(bookkeeping(player_view(mine, 1))[c] == "candidate" for c in other)
                assert all(bookkeeping(player_view(theirs, 0))[c] == "candidate" for c in cards)
                found += 1
    assert found >= 5


def test_top_secret_answers_count_only_for_asker_and_witness() -> None:
    state = _table(4, seed=21, edition="2020")
    options = state.options.model_copy(update={"top_secret": True})
    state = state.model_copy(update={"options": options})
    base = {seat: solve(player_view(state, seat)).triples for seat in range(4)}
    for subject in ("female", "indoor", "up_close"):
        secret = _ask(state, 0, 2, subject, top_secret=True)
        public = _ask(state, 0, 2, subject)
        # The asker learns what a public answer would have told it.
        assert solve(player_view(secret, 0)).triples == solve(player_view(public, 0)).triples
        # The witness and the others learn nothing about their own holder.
        for seat in (1, 2, 3):
            assert solve(player_view(secret, seat)).triples == base[seat]
    # ...while a public answer is used by every seat but the witness.
    changed = [
        seat
        for seat in (1, 3)
        if any(
            solve(player_view(_ask(state, 0, 2, s), seat)).triples != base[seat]
            for s in _subjects(4)
        )
    ]
    assert changed == [1, 3]


def test_probabilities_are_consistent() -> None:
    for players in (2, 3, 4, 5, 6):
        for _, view in _positions(players, 5, seed=4):
            deduction = solve(view)
            assert deduction.total == sum(deduction.triples.values())
            probabilities = deduction.probabilities()
            assert set(probabilities) == set(deduction.unknown)
            for category in Category:
                share = sum(p for c, p in probabilities.items() if CARDS[c].category == category)
                assert share == pytest.approx(1.0)
            for card, p in probabilities.items():
                status = deduction.status(card)
                assert (status == "ruled_out") == (p == 0.0)
                assert (status == "certain") == (p == pytest.approx(1.0))
                if status == "ruled_out":
                    assert bookkeeping(view)[card] in ("ruled_out", "candidate")
                else:
                    assert bookkeeping(view)[card] == "candidate"  # bookkeeping never overreaches
            ranked = deduction.candidates()
            assert [deduction.triples[t] for t in ranked] == sorted(
                deduction.triples.values(), reverse=True
            )
            assert sum(deduction.triple_probability(t) for t in ranked) == pytest.approx(1.0)
            assert (deduction.certain() is None) == (len(ranked) != 1)


def test_exact_counts_on_a_fresh_six_player_table() -> None:
    """No question yet: 10 cards into 5 unordered screens, every triple alike."""
    view = player_view(_table(6, seed=1), 0)
    deduction = solve(view)
    per_triple = factorial(10) // 2**5
    assert set(deduction.triples.values()) == {per_triple}
    assert deduction.total == per_triple * _category_product(deduction.unknown)
    joint = slot_joint(view)["screen:1"]
    triple = next(iter(deduction.triples))
    rest = sorted(c for c in deduction.unknown if c not in triple)
    for pair in combinations(rest, 2):
        assert joint[(triple, pair)] == factorial(8) // 2**4


def test_no_deduction_before_the_cards_are_passed() -> None:
    from engine.thirteen_clues import Options, PlayerRef, new_game

    players = [PlayerRef(id=str(i), name=str(i)) for i in range(3)]
    state, _ = new_game(players, Options(players=3), seed=0)
    with pytest.raises(ValueError):
        solve(player_view(state, 0))


def test_a_deduction_sent_to_another_process_leaves_its_counts_behind() -> None:
    """A pickled deduction (a helper's answer) carries its figures, not the solver's memo;
    the joint is then counted afresh, alike."""
    view = next(v for _, v in _positions(4, 5, seed=2) if solve(v).total)
    solved = solve(view)
    sent = pickle.loads(pickle.dumps(solved))
    assert sent == solved and sent.probabilities() == solved.probabilities()
    assert len(pickle.dumps(solved)) == len(pickle.dumps(Deduction(
        seat=solved.seat, total=solved.total, triples=solved.triples, unknown=solved.unknown)))
    assert slot_joint(view, solved=sent) == slot_joint(view, solved=solved) == slot_joint(view)


def test_the_joint_from_a_solve_counts_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """`solved` saves the solve (a casebook update, the coach, the expert AI): no second
    solver is built for the joint or for the choice odds."""
    view = next(v for _, v in _positions(4, 5, seed=2) if solve(v).total)
    solved = solve(view)
    built: list[object] = []

    class Counted(deduction._Solver):
        def __init__(self, view: PlayerView) -> None:
            built.append(view)
            super().__init__(view)

    monkeypatch.setattr(deduction, "_Solver", Counted)
    assert slot_joint(view, solved=solved) and choices.odds(view, solved=solved).triples
    assert built == []
    slot_joint(view)
    assert len(built) == 1  # without it, one is


def test_deduction_is_a_value() -> None:
    d = Deduction(seat=0, total=3, triples={("duke", "park", "rifle"): 3})
    assert d.probability("duke") == 1.0
    assert d.probability("maid") == 0.0
    assert d.status("maid") == "ruled_out"
    assert d.certain() == ("duke", "park", "rifle")
