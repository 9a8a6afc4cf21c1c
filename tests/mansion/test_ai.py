"""Mansion AI players: legal for every prompt, view-only, finish their games, answer well."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.mansion import legal, player_view
from engine.mansion.actions import (
    Accuse,
    AnswerTip,
    ChooseSolution,
    PickCard,
    ShowCard,
    SuggestPresent,
)
from engine.mansion.ai import LEVELS, Level, choose_action, rng_for
from engine.mansion.ai.selfplay import level_policy, play
from engine.mansion.bruteforce import random_game
from engine.mansion.prompts import PlayPrompt
from engine.mansion.records import Suggested
from engine.mansion.rules import apply
from engine.mansion.state import GameState, Options, Variant

from .helpers import CERTAIN_HANDS, HANDS, build_state, random_action
from .helpers import play as play_actions


@pytest.mark.parametrize(
    ("players", "variant", "seed"),
    [(3, "one_against_all", 1), (4, "standard", 2), (5, "one_against_all", 3), (4, "standard", 4)],
)
def test_every_level_answers_every_prompt_with_a_legal_action(
    players: int, variant: Variant, seed: int
) -> None:
    """Random games, half driven by the AIs: at every decision each level's answer for the
    seat that must act is one of `legal_actions`."""
    rng = random.Random(seed)
    state = random_game(rng, players, variant)
    kinds: Counter[str] = Counter()
    for _ in range(160):
        if state.phase == "over":
            break
        seat = rng.choice(legal.waiting_on(state))
        view = player_view(state, seat)
        assert view.prompt is not None
        kinds[view.prompt.kind] += 1
        allowed = legal.legal_actions(state, seat)
        answers = {level: choose_action(view, level, random.Random(seed)) for level in LEVELS}
        for level, action in answers.items():
            assert action in allowed, (level, view.prompt.kind, action)
        action = answers[rng.choice(LEVELS)] if rng.random() < 0.5 else random_action(state, rng)
        state, _ = apply(state, action)
    assert kinds["play"] > 0


def test_every_prompt_kind_is_answered_over_many_games() -> None:
    kinds: set[str] = set()
    for seed in range(12):
        rng = random.Random(100 + seed)
        state = random_game(rng, rng.choice((3, 4, 5)), rng.choice(("standard", "one_against_all")))
        for _ in range(60):
            if state.phase == "over":
                break
            seat = rng.choice(legal.waiting_on(state))
            view = player_view(state, seat)
            assert view.prompt is not None
            kinds.add(view.prompt.kind)
            action = choose_action(view, rng.choice(LEVELS), rng)
            assert action in legal.legal_actions(state, seat)
            state, _ = apply(state, action)
    assert kinds == {"choose_solution", "play", "accuse_or_end", "show", "pick", "answer_tip"}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("players", "variant"), [(3, "standard"), (4, "one_against_all")])
def test_each_level_finishes_whole_games_alone(
    level: Level, players: int, variant: Variant
) -> None:
    result = play(
        [level_policy(level)] * players,
        Options(players=players, variant=variant),
        seed=players * 10 + len(level),
        max_actions=3000,
    )
    assert result.state.phase == "over", (level, players, variant, result.actions)
    assert result.state.rounds[-1].how in ("solved", "escaped", "unsolved")


def test_nothing_to_answer_is_an_error() -> None:
    state = build_state(4, hands=HANDS)
    with pytest.raises(ValueError):
        choose_action(player_view(state, 2), "expert", random.Random(0))


def test_same_view_and_seed_same_action() -> None:
    state = build_state(4, hands=HANDS)
    view = player_view(state, 0)
    for level in LEVELS:
        assert choose_action(view, level, rng_for(state, 0)) == choose_action(
            view, level, rng_for(state, 0)
        )


def test_a_refuter_shows_again_a_card_the_suggester_has_already_seen() -> None:
    """Bea holds white and mt_rushmore; she once showed Ann mt_rushmore, so when Ann names
    both she shows it again rather than reveal white."""
    state = build_state(
        4, hands=HANDS, markers=["mt_rushmore", "coney_island", "niagara_falls", "old_faithful"]
    )
    state, _ = play_actions(
        state,
        SuggestPresent(seat=0, suspect="scarlet", vehicle="balloon"),
        ShowCard(seat=1, card="mt_rushmore"),
    )
    first = next(r for r in state.log if isinstance(r, Suggested))
    assert (first.refuter, first.shown) == (1, "mt_rushmore")
    # Give Ann another turn at once (the rest of the round does not matter here).
    state.prompts = [PlayPrompt(id=state.next_prompt, seat=0)]
    state.next_prompt += 1
    state.played = None
    state.seats[0].actions = ["suggest_present"]
    state, _ = play_actions(state, SuggestPresent(seat=0, suspect="white", vehicle="balloon"))
    shown_at_every_level(state, "mt_rushmore", seed=1)


def test_refuters_prefer_revealing_a_destination() -> None:
    """With nothing shown before, a destination (one of nine) reveals less than a suspect."""
    state = build_state(
        4, hands=HANDS, markers=["hoover_dam", "coney_island", "niagara_falls", "old_faithful"]
    )
    state, _ = play_actions(state, SuggestPresent(seat=0, suspect="plum", vehicle="balloon"))
    shown_at_every_level(state, "hoover_dam", seed=2)


def shown_at_every_level(state: GameState, card: str, seed: int) -> None:
    """Seat 1, asked which card to show, shows `card` at every AI level."""
    view = player_view(state, 1)
    assert view.prompt is not None and view.prompt.kind == "show"
    for level in LEVELS:
        assert choose_action(view, level, random.Random(seed)) == ShowCard(seat=1, card=card)


def test_the_expert_accuses_when_certain_and_only_then() -> None:
    state = build_state(3, hands=CERTAIN_HANDS)  # certain once Bea shows her suspect
    view = player_view(state, 0)
    first = choose_action(view, "expert", random.Random(0))
    assert not isinstance(first, Accuse)
    state, _ = play_actions(
        state,
        SuggestPresent(seat=0, suspect="white", vehicle="seaplane"),
        ShowCard(seat=1, card="white"),
    )
    view = player_view(state, 0)
    for level in LEVELS:
        assert choose_action(view, level, random.Random(0)) == Accuse(
            seat=0, suspect="scarlet", vehicle="balloon", destination="niagara_falls"
        )


def test_the_fugitive_chooses_a_solution_and_answers_tips() -> None:
    rng = random.Random(8)
    state = random_game(rng, 4, "one_against_all")
    fugitive = state.fugitive
    assert fugitive is not None
    action = choose_action(player_view(state, fugitive), "expert", rng)
    assert isinstance(action, ChooseSolution)
    state, _ = apply(state, action)
    for _ in range(300):
        if state.phase == "over":
            break
        seat = rng.choice(legal.waiting_on(state))
        view = player_view(state, seat)
        action = choose_action(view, "normal", rng)
        if seat == fugitive:
            assert isinstance(action, ShowCard | PickCard | AnswerTip)
        state, _ = apply(state, action)
