"""AI detectives: legal, view-only, deterministic, and they finish their games.

A tiny brute-force enumeration of the solver's slot_joint (small tables only) cross-checks
how the expert reads it.
"""

from __future__ import annotations

import inspect
import itertools
import math
import random
import types
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import TypeVar

import pytest

from engine.thirteen_clues import deduction, legal
from engine.thirteen_clues.actions import Accuse, Action, Ask, ChoosePass, Consult, TakeGlass
from engine.thirteen_clues.ai import (
    LEVELS,
    Level,
    choose_action,
    expert,
    knowledge,
    rng_for,
)
from engine.thirteen_clues.ai.passing import options as pass_options
from engine.thirteen_clues.ai.selfplay import level_policy, play
from engine.thirteen_clues.cards import CARDS, Category, in_subject
from engine.thirteen_clues.deduction import Joint, Triple
from engine.thirteen_clues.events import GlassMoved
from engine.thirteen_clues.legal import waiting_on
from engine.thirteen_clues.rules import apply, new_game, spent_glass_receiver
from engine.thirteen_clues.state import Edition, GameState, Options, PlayerRef, Side
from engine.thirteen_clues.views import PlayerView, player_view, public_view

MAX_ACTIONS = 400
Screens = dict[int, tuple[str, ...]]
"""Each other seat's screen in one consistent world."""
K = TypeVar("K")

# --- a brute-force stand-in for engine.thirteen_clues.deduction -------------------------



def _facts(view: PlayerView) -> list[tuple[int, str, Side | None, int]]:
    """(witness, subject, side, answer minus what the seat sees) for informative answers."""
    known = [q for q in view.questions if q.subject] + [
        q for q in view.secret_questions if q.asker == view.seat
    ]
    facts: list[tuple[int, str, Side | None, int]] = []
    for q in known:
        if view.options.players == 2:
            if q.asker == view.seat:
                facts.append((q.witness, q.subject, q.side, q.answer))
        elif q.witness != view.seat:
            seen = sum(
                in_subject(c, q.subject)
                for s, cards in view.holders.items()
                if s != q.witness
                for c in cards
            )
            facts.append((q.witness, q.subject, None, q.answer - seen))
    return facts


def _worlds(view: PlayerView) -> Iterator[tuple[Triple, Screens, list[str]]]:
    """Every consistent (holder, {seat: screen}, leftovers) with its weight."""
    unknown = knowledge.unknown_cards(view)
    facts = _facts(view)
    wrong = {frozenset(a.cards) for a in view.my_accusations if not a.correct}
    others = [s for s in range(view.options.players) if s != view.seat]
    by_cat = [[c for c in unknown if CARDS[c].category == cat] for cat in Category]
    for person, location, weapon in itertools.product(*by_cat):
        triple = (person, location, weapon)
        if frozenset(triple) in wrong:
            continue
        rest = [c for c in unknown if c not in triple]

        def fill(i: int, left: list[str], screens: Screens, triple: Triple = triple
                 ) -> Iterator[tuple[Screens, list[str]]]:
            if i == len(others):
                yield dict(screens), left
                return
            w = others[i]
            pick = itertools.permutations if view.options.players == 2 else itertools.combinations
            for content in pick(left, 2):
                ok = True
                for fw, subject, side, need in facts:
                    if fw != w:
                        continue
                    part = content if side is None else (content[0 if side == "left" else 1],)
                    got = sum(in_subject(c, subject) for c in (*triple, *part))
                    ok = ok and got == need
                if ok:
                    screens[w] = content if view.options.players == 2 else tuple(sorted(content))
                    yield from fill(i + 1, [c for c in left if c not in content], screens, triple)

        for screens, left in fill(0, rest, {}):
            yield triple, screens, left


def _brute_joint(view: PlayerView) -> Joint:
    out: defaultdict[str, defaultdict[tuple[Triple, tuple[str, ...]], int]] = defaultdict(
        lambda: defaultdict(int))
    letters = [x for x in view.letters if x not in view.peeks]
    for triple, screens, left in _worlds(view):
        weight = math.factorial(len(left))
        for w, content in screens.items():
            out[f"screen:{w}"][(triple, content)] += weight
        for letter in letters:
            for card in left:
                out[f"informant:{letter}"][(triple, (card,))] += weight // len(left)
    return {k: dict(v) for k, v in out.items()}


@pytest.fixture
def solver() -> types.ModuleType:
    return deduction


# --- a referee that checks every AI move ---------------------------------------------------


def refs(n: int) -> list[PlayerRef]:
    return [PlayerRef(id=f"p{i}", name=f"P{i}") for i in range(n)]


def referee(
    levels: list[Level], options: Options, seed: int, solver: types.ModuleType | None = None
) -> tuple[GameState, list[Action]]:
    """Play a whole game with one AI per seat; every action is checked by legal.check on the
    true state before it is applied, every expert accusation against the exact candidates."""
    state, _ = new_game(refs(len(levels)), options, seed)
    rng = random.Random(seed)
    played: list[Action] = []
    turn_actions = 0
    while state.phase != "over":
        assert turn_actions < MAX_ACTIONS, f"game did not end within {MAX_ACTIONS} actions"
        for seat in waiting_on(state):
            view = player_view(state, seat)
            assert view.reveal is None
            action = choose_action(view, levels[seat], rng)
            legal.check(state, action)
            if levels[seat] == "expert" and isinstance(action, Accuse) and solver is not None:
                named = (action.person, action.location, action.weapon)
                assert named in solver.solve(view).triples
            state, _ = apply(state, action)
            played.append(action)
            if state.phase != "passing":
                turn_actions += 1
                break
    return state, played


TABLES = [(n, ed) for n in range(2, 7) for ed in ("2020", "2016")]


@pytest.mark.parametrize(("players", "edition"), TABLES)
@pytest.mark.parametrize("level", LEVELS)
def test_all_ai_table_finishes_legally(
    level: Level, players: int, edition: Edition, solver: types.ModuleType
) -> None:
    options = Options(players=players, edition=edition)
    state, _ = referee([level] * players, options, seed=players * 10 + len(edition), solver=solver)
    assert state.phase == "over" and state.winner is not None


@pytest.mark.parametrize("players", [3, 5])
def test_mixed_table_with_top_secret(players: int, solver: types.ModuleType) -> None:
    every: list[Level] = ["expert", "normal", "easy", "normal", "expert"]
    levels = every[:players]
    for seed in range(2):
        options = Options(players=players, top_secret=True)
        state, played = referee(levels, options, seed=seed, solver=solver)
        assert state.phase == "over"
        secret = [a for a in played if isinstance(a, Ask) and a.top_secret]
        assert all(levels[a.seat] == "expert" for a in secret)


def test_easy_tables_end_even_when_they_drag_on() -> None:
    """Easy guesses ever more once the game drags on, so all-easy tables always end."""
    for seed in range(6):
        result = play([level_policy("easy")] * 6, Options(players=6), seed=seed)
        assert result.state.phase == "over"


def test_same_seed_same_game(solver: types.ModuleType) -> None:
    players = 3
    for level in LEVELS:
        options = Options(players=players, edition="2016", top_secret=players > 2)
        _, first = referee([level] * players, options, seed=7)
        _, second = referee([level] * players, options, seed=7)
        assert first == second


def test_rng_for_is_reproducible() -> None:
    state, _ = new_game(refs(3), Options(players=3), 3)
    assert rng_for(state, 1).random() == rng_for(state, 1).random()
    assert rng_for(state, 1).random() != rng_for(state, 2).random()


# --- the AI sees only its seat's view ------------------------------------------------------


def test_policy_takes_a_view_not_the_state() -> None:
    params = inspect.signature(choose_action).parameters
    assert params["view"].annotation in ("PlayerView", PlayerView)
    assert all("GameState" not in str(p.annotation) for p in params.values())


def _start_of_play(players: int, seed: int) -> GameState:
    state, _ = new_game(refs(players), Options(players=players), seed)
    rng = random.Random(seed)
    for seat in range(players):
        state, _ = apply(state, choose_action(player_view(state, seat), "normal", rng))
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_do_not_change_the_move(level: Level, solver: types.ModuleType) -> None:
    """Shuffle what the acting seat cannot see (other screens, informants): same view, so
    the same move."""
    state = _start_of_play(3, seed=11)
    seat = state.turn
    others = [s for s in range(3) if s != seat]
    hidden = state.seats[others[0]].screen + state.seats[others[1]].screen + state.informants
    twin = state.model_copy(deep=True)
    shuffled = list(reversed(hidden))
    twin.seats[others[0]].screen = shuffled[:2]
    twin.seats[others[1]].screen = shuffled[2:4]
    twin.informants = shuffled[4:]
    for s in others:
        passed = twin.seats[s].passed
        assert passed is not None
        twin.seats[s].dealt = passed + twin.seats[s].screen
    assert player_view(twin, seat) == player_view(state, seat)
    for k in range(5):
        a = choose_action(player_view(state, seat), level, random.Random(k))
        b = choose_action(player_view(twin, seat), level, random.Random(k))
        assert a == b


def test_view_round_trip_gives_the_same_move(solver: types.ModuleType) -> None:
    state = _start_of_play(4, seed=5)
    view = player_view(state, state.turn)
    again = PlayerView.model_validate_json(view.model_dump_json())
    for level in LEVELS:
        assert choose_action(view, level, random.Random(1)) == choose_action(
            again, level, random.Random(1)
        )


# --- whose move it is -----------------------------------------------------------------------


def test_waiting_seats() -> None:
    state, _ = new_game(refs(3), Options(players=3), 4)
    assert waiting_on(state) == [0, 1, 2]
    state, _ = apply(state, choose_action(player_view(state, 1), "easy", random.Random(0)))
    assert waiting_on(state) == [0, 2]
    with pytest.raises(ValueError):
        choose_action(player_view(state, 1), "easy", random.Random(0))
    for seat in (0, 2):
        state, _ = apply(state, choose_action(player_view(state, seat), "easy", random.Random(0)))
    assert waiting_on(state) == [state.turn]
    idle = (state.turn + 1) % 3
    with pytest.raises(ValueError):
        choose_action(player_view(state, idle), "normal", random.Random(0))


# --- passing and taking glasses ------------------------------------------------------------


def test_pass_avoids_one_suit_when_it_can() -> None:
    for seed in range(40):
        state, _ = new_game(refs(6), Options(players=6), seed)
        for seat in range(6):
            view = player_view(state, seat)
            suits_possible = max(len({CARDS[c].suit for c in t}) for t in pass_options(view))
            for level in LEVELS:
                action = choose_action(view, level, random.Random(seed))
                assert isinstance(action, ChoosePass)
                named = (action.person, action.location, action.weapon)
                suits = len({CARDS[c].suit for c in named})
                assert suits > 1 or suits_possible == 1
                if level != "easy":
                    assert suits == suits_possible


@pytest.mark.parametrize("level", LEVELS)
def test_take_a_glass_when_the_supply_is_empty(level: Level) -> None:
    state = _start_of_play(4, seed=3)
    seat = state.turn
    state.seats[seat].glasses = 0
    state.supply = 0
    rich = (seat + 2) % 4
    for i in range(4):
        if i != seat:
            state.seats[i].glasses = 4 if i == rich else 2
    view = player_view(state, seat)
    action = choose_action(view, level, random.Random(0))
    assert isinstance(action, TakeGlass)
    legal.check(state, action)
    if level != "easy":
        assert action.source == rich


# --- the expert's arithmetic -----------------------------------------------------------------


def _reference_gain(view: PlayerView, joint: Joint, witness: int, subject: str,
                    side: Side | None) -> float:
    """I(holder; answer) straight from the definition."""
    n: dict[tuple[Triple, int], int] = defaultdict(int)
    for (t, content), k in joint[f"screen:{witness}"].items():
        part = content if side is None else (content[0 if side == "left" else 1],)
        n[(t, sum(in_subject(c, subject) for c in (*t, *part)))] += k
    total = sum(n.values())
    by_t: dict[Triple, int] = defaultdict(int)
    by_a: dict[int, int] = defaultdict(int)
    for (t, a), k in n.items():
        by_t[t] += k
        by_a[a] += k

    def h(d: Mapping[K, int]) -> float:
        return -sum(v / total * math.log2(v / total) for v in d.values() if v)

    return h(by_t) + h(by_a) - h(n)


def _mid_game_views(players: int, edition: Edition, seed: int, steps: int) -> list[PlayerView]:
    state, _ = new_game(refs(players), Options(players=players, edition=edition), seed)
    rng = random.Random(seed)
    views: list[PlayerView] = []
    while state.phase != "over" and len(views) < steps:
        for seat in waiting_on(state):
            view = player_view(state, seat)
            if state.phase == "turns":
                views.append(view)
            state, _ = apply(state, choose_action(view, "normal", rng))
            if state.phase != "passing":
                break
    return views


@pytest.mark.parametrize(("players", "edition"), [(2, "2020"), (3, "2016")])
def test_question_gains_match_the_definition(
    players: int, edition: Edition, solver: types.ModuleType
) -> None:
    for view in _mid_game_views(players, edition, seed=1, steps=6)[::2]:
        joint = solver.slot_joint(view)
        gains = expert.question_gains(view, joint)
        for (w, subject, side), gain in gains.items():
            assert gain == pytest.approx(_reference_gain(view, joint, w, subject, side), abs=1e-9)
        assert all(g >= 0 for g in expert.consult_gains(view, joint).values())


@pytest.mark.parametrize(("players", "edition"), [(2, "2016"), (3, "2020")])
def test_expert_reads_the_solver_like_the_stand_in(players: int, edition: Edition) -> None:
    """The stand-in follows the documented API; the expert must score identically on both."""
    for view in _mid_game_views(players, edition, seed=3, steps=6)[-2:]:
        real, mine = deduction.slot_joint(view), _brute_joint(view)
        _alike(expert.question_gains(view, real), expert.question_gains(view, mine))
        _alike(expert.consult_gains(view, real), expert.consult_gains(view, mine))


def _alike(a: Mapping[K, float], b: Mapping[K, float]) -> None:
    assert a.keys() == b.keys()
    assert all(a[k] == pytest.approx(b[k], abs=1e-9) for k in a)


def test_expert_accuses_when_certain_and_asks_otherwise(solver: types.ModuleType) -> None:
    view = _mid_game_views(3, "2020", seed=4, steps=1)[0]
    result = solver.solve(view)
    action = choose_action(view, "expert", random.Random(0))
    if len(result.triples) == 1:
        assert isinstance(action, Accuse)
    else:
        assert isinstance(action, Ask | Consult)


@pytest.mark.parametrize("edition", ["2020", "2016"])
def test_expert_knows_where_a_spent_glass_goes(edition: Edition) -> None:
    state, _ = new_game(refs(5), Options(players=5, edition=edition), 8)
    rng = random.Random(8)
    checked = 0
    while state.phase != "over":
        for seat in waiting_on(state):
            view = player_view(state, seat)
            forecast = None
            if state.phase == "turns" and state.seats[seat].glasses:
                # the expert asks the engine's own rule, from its view
                forecast = spent_glass_receiver(view, seat)
                assert forecast == spent_glass_receiver(state, seat)
                assert forecast == spent_glass_receiver(public_view(state), seat)
            state, events = apply(state, choose_action(view, "normal", rng))
            for event in events:
                if isinstance(event, GlassMoved) and event.reason in ("informant", "accusation"):
                    assert event.receiver == forecast
                    checked += 1
            if state.phase != "passing":
                break
    assert checked
