"""Rules reference: "Setup", and One Against All's setup (the fugitive chooses the solution)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import RuleError
from engine.mansion import legal
from engine.mansion.actions import ChooseSolution
from engine.mansion.cards import ACTION_DECK, CLUES, DESTINATIONS, Kind, kind_of
from engine.mansion.events import (
    ActionDrawn,
    HandDealt,
    PromptOpened,
    RoundStarted,
    SolutionChosen,
    TableDealt,
    TurnStarted,
)
from engine.mansion.rules import new_game
from engine.mansion.state import GameState, Options, PlayerRef
from testkit.events import of_type

from .helpers import Named, fresh_game, play, refs, refused

HAND_SIZES = {3: [6, 6, 6], 4: [5, 5, 4, 4], 5: [4, 4, 4, 3, 3]}


def _from_dealers_left(state: GameState) -> list[int]:
    n = state.players
    return [(state.dealer + k) % n for k in range(1, n + 1)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_solution_is_one_of_each_type_and_the_rest_is_dealt(players: int) -> None:
    state, _ = fresh_game(players, seed=3)
    assert state.solution is not None
    kinds = [kind_of(c) for c in state.solution.cards()]
    assert kinds == [Kind.SUSPECT, Kind.VEHICLE, Kind.DESTINATION]
    dealt = [c for s in state.seats for c in s.clues]
    assert sorted([*dealt, *state.solution.cards()]) == sorted(CLUES)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_one_at_a_time_from_the_dealers_left_as_evenly_as_possible(players: int) -> None:
    for seed in range(6):
        state, _ = fresh_game(players, seed=seed)
        sizes = [len(state.seats[i].clues) for i in _from_dealers_left(state)]
        assert sizes == HAND_SIZES[players]


def test_random_dealer_plays_first_and_has_drawn() -> None:
    dealers = set()
    for seed in range(30):
        state, events = fresh_game(4, seed=seed)
        dealers.add(state.dealer)
        assert state.turn == state.dealer and state.turn_number == 1
        assert len(state.seats[state.dealer].actions) == 2
        assert all(len(s.actions) == 1 for i, s in enumerate(state.seats) if i != state.dealer)
        assert legal.waiting_on(state) == [state.dealer]
        assert state.prompts[0].kind == "play"
        assert of_type(events, TurnStarted)[0].seat == state.dealer
    assert dealers == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_action_cards_one_each_then_the_draw_pile(players: int) -> None:
    state, _ = fresh_game(players, seed=9)
    in_hands = [c for s in state.seats for c in s.actions]
    assert len(in_hands) == players + 1
    assert Counter(in_hands + state.draw) == Counter(ACTION_DECK)
    assert state.discard == [] and state.played is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_one_random_marker_each_the_rest_by_the_tray(players: int) -> None:
    seen = set()
    for seed in range(20):
        state, _ = fresh_game(players, seed=seed)
        markers = [s.marker for s in state.seats]
        assert len(set(markers)) == players
        assert sorted(markers + state.tray) == sorted(DESTINATIONS)
        assert state.tray == [d for d in DESTINATIONS if d in state.tray]
        seen.add(markers[0])
    assert len(seen) > 4


def test_setup_events_hands_private_table_public() -> None:
    state, events = fresh_game(3, seed=5)
    assert events[0].type == "game_started" and events[0].seat_names == ["Ann", "Bea", "Cid"]
    for dealt in of_type(events, HandDealt):
        assert dealt.audience.seats == (dealt.seat,)
        assert dealt.clues == state.seats[dealt.seat].clues
    table = of_type(events, TableDealt)[0]
    assert table.audience.scope == "public"
    assert table.markers == [s.marker for s in state.seats]
    assert table.clue_counts == [6, 6, 6]
    drawn = of_type(events, ActionDrawn)[0]
    assert drawn.audience.seats == (state.dealer,)


def test_same_seed_same_game_other_seed_other_game() -> None:
    a, ea = fresh_game(4, seed=11)
    b, eb = fresh_game(4, seed=11)
    c, _ = fresh_game(4, seed=12)
    assert a == b and ea == eb
    assert a != c


def test_seats_keep_the_order_given() -> None:
    state, _ = fresh_game(5, seed=2)
    assert [s.name for s in state.seats] == ["Ann", "Bea", "Cid", "Dee", "Eve"]


def test_wrong_player_count_and_duplicate_players_are_refused() -> None:
    with pytest.raises(RuleError, match="set for 4 players, not 3"):
        new_game(refs(3), Options(players=4), 1)
    twice = [PlayerRef(id="u0", name="Ann"), PlayerRef(id="u0", name="Ann"), *refs(3)[1:2]]
    with pytest.raises(RuleError, match="two seats"):
        new_game(twice, Options(players=3), 1)


@pytest.mark.parametrize("bad", [2, 6])
def test_three_to_five_players(bad: int) -> None:
    with pytest.raises(ValueError):
        Options(players=bad)


def test_fixed_fugitive_only_in_one_against_all() -> None:
    with pytest.raises(ValueError):
        Options(players=3, fugitive=1)
    with pytest.raises(ValueError):
        Options(players=3, variant="one_against_all", fugitive=3)


# --- One Against All ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fugitive_is_random_and_chooses_the_solution_before_the_deal(players: int) -> None:
    fugitives = set()
    for seed in range(25):
        state, events = fresh_game(players, "one_against_all", seed=seed)
        assert state.fugitive is not None
        fugitives.add(state.fugitive)
        assert state.phase == "choosing_solution"
        assert state.solution is None
        assert all(not s.clues and not s.actions for s in state.seats)
        assert legal.waiting_on(state) == [state.fugitive]
        assert [p.kind for p in state.prompts] == ["choose_solution"]
        opened = of_type(events, PromptOpened)
        assert [e.audience.seats for e in opened] == [(state.fugitive,)]
    assert fugitives == set(range(players))


def test_fixed_fugitive_seat_is_honoured() -> None:
    for seed in range(5):
        state, _ = fresh_game(4, "one_against_all", seed=seed, fugitive=2)
        assert state.fugitive == 2


@pytest.mark.parametrize("players", [3, 4, 5])
def test_after_the_choice_everyone_gets_clues_only_detectives_get_actions(players: int) -> None:
    state, _ = fresh_game(players, "one_against_all", seed=4)
    fugitive = state.fugitive
    assert fugitive is not None
    choice = ChooseSolution(seat=fugitive, suspect="plum", vehicle="train", destination="alamo")
    after, events = play(state, choice)
    assert after.solution is not None and after.solution.cards() == ("plum", "train", "alamo")
    assert after.phase == "playing"
    sizes = [len(after.seats[i].clues) for i in _from_dealers_left(after)]
    assert sizes == HAND_SIZES[players]
    assert after.seats[fugitive].clues and not after.seats[fugitive].actions
    assert after.seats[fugitive].marker
    assert not {"plum", "train", "alamo"} & {c for s in after.seats for c in s.clues}
    detectives = [i for i in range(players) if i != fugitive]
    assert after.turn in detectives
    assert sum(len(after.seats[i].actions) for i in detectives) == len(detectives) + 1
    chosen = of_type(events, SolutionChosen)
    assert {e.audience.scope for e in chosen} == {"public", "private"}
    assert next(e for e in chosen if e.audience.scope == "public").solution is None
    assert next(e for e in chosen if e.audience.scope == "private").audience.seats == (fugitive,)


def test_the_fugitive_is_the_dealer_and_the_player_on_their_left_goes_first() -> None:
    """Rules reference, One Against All: "**The fugitive is also the dealer**: they secretly
    choose the solution (one Suspect, one Vehicle, one Destination), then deal the other 18
    Clue cards to every player including themselves, beginning with the player on their
    left; that player takes the first turn."

    Seed 1, 4 players: the fugitive is seat 0, so seat 1 goes first with hands [4, 5, 5, 4]
    (drawn apart, the dealer was seat 3: seat 3 went first with [5, 5, 4, 4])."""
    state, events = fresh_game(4, "one_against_all", seed=1)
    assert state.fugitive == state.dealer == 0
    assert of_type(events, RoundStarted)[0].dealer == 0
    after, _ = play(
        state, ChooseSolution(seat=0, suspect="plum", vehicle="train", destination="alamo")
    )
    assert after.turn == 1 and legal.waiting_on(after) == [1]
    assert [len(s.clues) for s in after.seats] == [4, 5, 5, 4]
    for fugitive in range(4):  # a chosen fugitive deals too
        chosen, _ = fresh_game(4, "one_against_all", seed=1, fugitive=fugitive)
        assert chosen.dealer == fugitive
        dealt, _ = play(
            chosen,
            ChooseSolution(seat=fugitive, suspect="plum", vehicle="train", destination="alamo"),
        )
        assert dealt.turn == (fugitive + 1) % 4
        sizes = [len(dealt.seats[i].clues) for i in _from_dealers_left(dealt)]
        assert sizes == HAND_SIZES[4]


def test_only_the_fugitive_chooses_and_only_once() -> None:
    state, _ = fresh_game(3, "one_against_all", seed=4, fugitive=1)
    choice: Named = {"suspect": "plum", "vehicle": "train", "destination": "alamo"}
    refused(state, ChooseSolution(seat=0, **choice), "Only the fugitive chooses the solution.")
    refused(
        state,
        ChooseSolution(seat=1, suspect="train", vehicle="plum", destination="alamo"),
        "Train is not a suspect.",
    )
    after, _ = play(state, ChooseSolution(seat=1, **choice))
    refused(after, ChooseSolution(seat=1, **choice), "The solution has already been chosen.")
    standard, _ = fresh_game(3, seed=4)
    refused(standard, ChooseSolution(seat=0, **choice), "Nobody chooses the solution")


def test_nobody_plays_while_the_fugitive_chooses() -> None:
    from engine.mansion.actions import Snoop

    state, _ = fresh_game(3, "one_against_all", seed=4, fugitive=1)
    refused(state, Snoop(seat=0, target=2), "The fugitive is still choosing the solution.")
    refused(state, Snoop(seat=1, target=2), "First choose the solution")
