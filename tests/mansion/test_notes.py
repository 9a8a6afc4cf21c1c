"""Exact notes: against the brute-force reference, what each level may mark, and secrecy.

The full validation (≥ 10,000 positions) is `python -m bench.validate_mansion_notes`; here a
few hundred positions, small enough to enumerate quickly.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest

from engine.mansion.ai.selfplay import ai_positions
from engine.mansion.bruteforce import TooLarge, brute_force, random_positions
from engine.mansion.cards import CLUES
from engine.mansion.deduction import Deduction, sample_deals, solve
from engine.mansion.facts import INDEX
from engine.mansion.notes import notes, notes_from
from engine.mansion.state import GameState, Variant
from engine.mansion.views import PlayerView

BUDGET = 6_000


def _positions(count: int, seed: int) -> list[tuple[GameState, PlayerView]]:
    """Random-play positions at 3-5 players, both variants, mostly late enough to be small."""
    rng = random.Random(seed)
    out: list[tuple[GameState, PlayerView]] = []
    while len(out) < count:
        players = rng.choice((3, 4, 5))
        variant: Variant = rng.choice(("standard", "one_against_all"))
        stops = sorted(rng.randint(10, 200) for _ in range(10))
        out += random_positions(rng, players, variant, stops)
    return out[:count]


Position = tuple[GameState, PlayerView]


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return _positions(320, seed=2024)


def _agrees(view: PlayerView, d: Deduction) -> bool | None:
    """Exact counts equal the enumerator's (None: too large to enumerate)."""
    try:
        ref = brute_force(view, budget=BUDGET)
    except TooLarge:
        return None
    return (
        ref.total == d.total
        and ref.triples == d.triples
        and all(tuple(ref.holders[c]) == d.holders[c] for c in ref.holders)
    )


def test_exact_notes_match_the_brute_force_reference(positions: list[Position]) -> None:
    compared = 0
    by_players: Counter[int] = Counter()
    for _, view in positions:
        verdict = _agrees(view, solve(view))
        if verdict is None:
            continue
        assert verdict, view.model_dump_json()
        compared += 1
        by_players[len(view.seats)] += 1
    assert compared >= 120
    assert all(by_players[n] >= 20 for n in (3, 4, 5)), by_players


def test_exact_notes_match_the_reference_in_ai_games() -> None:
    compared = 0
    tables: list[tuple[int, Variant]] = [(3, "standard"), (4, "one_against_all"), (5, "standard")]
    for players, variant in tables:
        for _, view in ai_positions(players, variant, 2, seed=5, per_game=8):
            verdict = _agrees(view, solve(view))
            if verdict is not None:
                assert verdict, view.model_dump_json()
                compared += 1
    assert compared >= 10


def test_the_truth_is_always_possible_and_lower_levels_never_contradict_full(
    positions: list[Position],
) -> None:
    for state, view in positions[::2]:
        d = solve(view)
        assert state.solution is not None
        assert d.triples.get(state.solution.cards(), 0) > 0
        for seat, s in enumerate(state.seats):
            for card in s.clues:
                assert d.holders[card][seat] > 0
        exact = notes_from(view, d)
        for assist in ("off", "bookkeeping"):
            grid = notes(view, assist)
            for row, full in zip(grid.cards, exact.cards, strict=True):
                for mark, truth in zip(
                    [*row.marks, row.solution], [*full.marks, full.solution], strict=True
                ):
                    assert mark in ("unknown", truth), (assist, row.card)


def test_levels_add_marks_in_order(positions: list[Position]) -> None:
    """off ⊆ bookkeeping ⊆ full, and the full level is strictly richer somewhere."""
    richer = 0
    for _, view in positions[1::4]:
        known = [
            sum(m != "unknown" for r in notes(view, a).cards for m in [*r.marks, r.solution])
            for a in ("off", "bookkeeping", "full")
        ]
        assert known[0] <= known[1] <= known[2]
        richer += known[2] > known[1]
    assert richer > 10


def test_sampled_deals_are_consistent_and_uniform(positions: list[Position]) -> None:
    """Deals drawn by the sampler: each one the enumerator accepts, solutions at the rates
    of the exact counts."""
    rng = random.Random(3)
    checked = 0
    for _, view in positions[3::3]:
        try:
            ref = brute_force(view, budget=BUDGET)
        except TooLarge:
            continue
        if len(ref.triples) < 4:
            continue
        deals = sample_deals(view, 3000, rng)
        for deal in deals[:50]:
            for seat, hand in enumerate(deal.hands):
                for card in CLUES:
                    if hand >> INDEX[card] & 1:
                        assert ref.holders[card][seat] > 0
        seen = Counter(deal.solution for deal in deals)
        chi = sum(
            (seen[t] - 3000 * c / ref.total) ** 2 / (3000 * c / ref.total)
            for t, c in ref.triples.items()
        )
        df = len(ref.triples) - 1
        assert chi < df + 6 * df**0.5 + 10, (chi, df)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


# --- secrecy ------------------------------------------------------------------------------

# Cards no Super Sleuth or Private Tip can tell apart: same kind, same features.
_TWINS = [
    ["scarlet", "white", "peacock"],
    ["mustard", "green", "plum"],
    ["balloon", "seaplane"],
    ["automobile", "train"],
    ["niagara_falls", "coney_island"],
    ["mt_rushmore", "old_faithful"],
    ["golden_gate", "hoover_dam", "alamo"],
    ["lincoln_memorial", "miami_beach"],
]


def _relabelling(rng: random.Random) -> dict[str, str]:
    out: dict[str, str] = {}
    for group in _TWINS:
        shuffled = list(group)
        rng.shuffle(shuffled)
        out.update(zip(group, shuffled, strict=True))
    return out


def _relabel(data: Any, pi: dict[str, str]) -> Any:
    if isinstance(data, str):
        return pi.get(data, data)
    if isinstance(data, list):
        return [_relabel(x, pi) for x in data]
    if isinstance(data, dict):
        return {k: _relabel(v, pi) for k, v in data.items()}
    return data


@pytest.mark.parametrize("seed", range(3))
def test_notes_follow_a_consistent_relabelling_of_what_the_seat_saw(
    seed: int, positions: list[Position]
) -> None:
    """Rename the cards everywhere in a seat's view (within cards no action can tell
    apart): the notes are the same notes, renamed. Notes that used anything but the view
    (the real deal) would not follow."""
    rng = random.Random(seed)
    for _, view in positions[seed::12]:
        pi = _relabelling(rng)
        moved = PlayerView.model_validate(_relabel(json.loads(view.model_dump_json()), pi))
        before, after = solve(view), solve(moved)
        assert after.total == before.total
        assert after.triples == {
            tuple(pi.get(c, c) for c in t): n for t, n in before.triples.items()
        }
        for card, counts in before.holders.items():
            assert after.holders[pi.get(card, card)] == counts
        grid, moved_grid = notes(view, "bookkeeping"), notes(moved, "bookkeeping")
        for row in grid.cards:
            assert moved_grid.row(pi.get(row.card, row.card)).marks == row.marks


def test_cards_the_seat_cannot_tell_apart_get_the_same_row(positions: list[Position]) -> None:
    """Two twin cards the seat's record never mentions (not in its hand, never named, seen,
    returned or on a marker it saw) are interchangeable for it: identical rows, whatever the
    real deal says about them."""
    pairs = 0
    for _, view in positions[::3]:
        text = view.model_dump_json()
        grid = notes(view, "full")
        for group in _TWINS:
            silent = [c for c in group if f'"{c}"' not in text]
            for a, b in itertools.pairwise(silent):
                ra, rb = grid.row(a), grid.row(b)
                assert (ra.marks, ra.solution, ra.solution_probability) == (
                    rb.marks,
                    rb.solution,
                    rb.solution_probability,
                )
                pairs += 1
    assert pairs > 20


def test_full_notes_tag_what_was_worked_out_not_seen(positions: list[Position]) -> None:
    """`deduced`: a settled verdict (a holder, in or out of the solution) on a card the seat
    neither holds nor saw (shown, snooped, tipped), the solution unseen; never below full."""
    from engine.mansion.why import verdict

    tagged = 0
    for _, view in positions:
        seen = set(view.known_holders())
        d = solve(view)
        grid = notes(view, "full")
        for row in grid.cards:
            kind, _ = verdict(d, row.card)
            settled = kind in ("held", "solution", "not_solution")
            sight = row.card in seen or (kind != "held" and view.solution is not None)
            assert row.deduced == (settled and not sight), (row.card, kind)
            tagged += row.deduced
        assert not any(r.deduced for r in notes(view, "bookkeeping").cards)
    assert tagged > 0
