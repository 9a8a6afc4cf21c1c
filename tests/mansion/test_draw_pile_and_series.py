"""Rules reference: "Empty draw pile", One Against All's clock, "Playing again / tournament",
and ending a table (abandon) with its reveal."""

from __future__ import annotations

from collections import Counter
from typing import Literal

import pytest

from engine.errors import RuleError
from engine.mansion import legal, public_view
from engine.mansion.actions import (
    Abandon,
    Accuse,
    AnswerTip,
    ChooseSolution,
    EndTurn,
    Move,
    PrivateTip,
)
from engine.mansion.cards import ACTION_DECK
from engine.mansion.events import DrawPileReshuffled, GameOver, RoundOver
from engine.mansion.rules import reveal
from engine.mansion.state import DiscardedCard, GameState
from testkit.events import of_type

from .helpers import WRONG, build_state, fresh_game, play, refused


def _all_actions(state: GameState) -> Counter[str]:
    cards = [*state.draw, *(d.card for d in state.discard)]
    cards += [c for s in state.seats for c in s.actions]
    if state.played:
        cards.append(state.played)
    return Counter(cards)


# --- empty draw pile --------------------------------------------------------------------------


def test_standard_reshuffles_the_discard_tips_included_and_announces_it() -> None:
    state = build_state(3, actions={0: ["suggest_present", "tip_red"]})
    discard = [DiscardedCard(card=c) for c in state.draw[:-1]]
    discard.append(DiscardedCard(card=state.draw[-1], face_up=False, seen_by=[1, 2]))
    state = state.model_copy(update={"draw": [], "discard": discard})
    assert _all_actions(state) == Counter(ACTION_DECK)
    answer = legal.tip_options(state.seats[1].clues, "tip_red")[0]
    after, events = play(
        state,
        PrivateTip(seat=0, card="tip_red", target=1),
        AnswerTip(seat=1, cards=answer),
        EndTurn(seat=0),
    )
    shuffled = of_type(events, DrawPileReshuffled)
    assert len(shuffled) == 1 and shuffled[0].audience.scope == "public"
    assert shuffled[0].size == len(discard) + 1
    assert after.discard == []
    assert len(after.draw) == len(discard)  # Bea drew one
    assert "tip_red" in [*after.draw, *after.seats[1].actions]
    assert _all_actions(after) == Counter(ACTION_DECK)
    assert after.turn == 1 and not after.is_over


def test_one_against_all_an_empty_pile_at_a_draw_lets_the_fugitive_escape() -> None:
    state = build_state(4, fugitive=2, draw=[])
    state = state.model_copy(
        update={"discard": [DiscardedCard(card=c) for c in ["snoop", "snoop"]]}
    )
    after, events = play(state, Move(seat=0, destination="alamo"), EndTurn(seat=0))
    assert after.is_over and after.ended_by == "escaped" and legal.winners(after) == {2}
    assert after.rounds[-1].how == "escaped" and after.rounds[-1].winner == 2
    assert not of_type(events, DrawPileReshuffled)
    assert "draw pile is empty" in of_type(events, RoundOver)[0].reason


def test_one_against_all_the_last_card_can_still_be_drawn() -> None:
    state = build_state(3, fugitive=2, draw=["snoop"])
    after, _ = play(state, Move(seat=0, destination="alamo"), EndTurn(seat=0))
    assert not after.is_over and after.draw == [] and after.seats[1].actions[-1] == "snoop"


# --- series -------------------------------------------------------------------------------


def _win(state: GameState) -> GameState:
    """The current player accuses the true solution (choosing it first in One Against All)."""
    if state.phase == "choosing_solution":
        assert state.fugitive is not None
        state, _ = play(
            state,
            ChooseSolution(
                seat=state.fugitive, suspect="plum", vehicle="train", destination="alamo"
            ),
        )
    assert state.solution is not None
    after, _ = play(state, Accuse(seat=state.turn, **state.solution.model_dump()))
    return after


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("wins", [2, 3])
def test_series_to_a_master_detective_dealer_passes_left(
    players: int, wins: Literal[2, 3]
) -> None:
    state, _ = fresh_game(players, seed=7, series_wins=wins)
    dealers = [state.dealer]
    winners = []
    for game in range(1, 30):
        assert state.round == game
        winners.append(state.turn)
        before = state
        state = _win(state)
        assert len(state.rounds) == game
        assert state.rounds[-1].winner == before.turn
        assert state.rounds[-1].hands == [s.clues for s in before.seats]
        if state.is_over:
            break
        dealers.append(state.dealer)
        assert state.dealer == (dealers[-2] + 1) % players
        assert state.phase == "playing" and state.turn == state.dealer
        assert all(not s.eliminated for s in state.seats)
        assert [len(s.clues) for s in state.seats] != [0] * players
        assert state.log[0].kind == "dealt"
    scores = Counter(winners)
    master = state.master
    assert master is not None and scores[master] == wins
    assert [s.score for s in state.seats] == [scores[i] for i in range(players)]
    assert legal.winners(state) == {master}
    assert all(scores[i] < wins for i in range(players) if i != master)


def test_between_games_the_reveal_comes_then_the_next_deal() -> None:
    state, _ = fresh_game(3, seed=2, series_wins=2)
    assert state.solution is not None
    after, events = play(state, Accuse(seat=state.turn, **state.solution.model_dump()))
    kinds = [e.type for e in events]
    assert kinds.index("round_over") < kinds.index("round_started") < kinds.index("turn_started")
    over = of_type(events, RoundOver)[0]
    assert over.solution == state.solution and over.scores == [
        1 if i == state.turn else 0 for i in range(3)
    ]
    assert not of_type(events, GameOver)
    assert legal.winners(after) == set() and not legal.is_over(after)
    assert legal.round_winners(after) == [state.turn]


def test_an_escape_in_a_series_counts_in_the_stats_beside_the_master_detective() -> None:
    """The table's result (`legal.winners`, what `/stats` and `/history` record) names the
    escaped fugitive of a game the series went on from, not only its Master Detective."""
    state, _ = fresh_game(4, "one_against_all", seed=7, series_wins=2)
    escaped = state.fugitive
    state = _escape(state)
    while not state.is_over:
        state = _win(state)
    assert escaped is not None and state.master is not None
    assert legal.winners(state) == {escaped, state.master}
    assert len(legal.winners(state)) < len(state.seats)  # a seat that won nothing is not in it


def test_an_abandoned_series_keeps_an_earlier_escape_and_names_nobody_for_its_last_game(
) -> None:
    state, _ = fresh_game(4, "one_against_all", seed=7, series_wins=2)
    escaped = state.fugitive
    state = _escape(state)
    assert not state.is_over and escaped is not None
    state, _ = play(state, Abandon(reason="ended"))
    assert state.is_over and legal.winners(state) == {escaped}


def test_an_unsolved_game_in_a_series_deals_the_next_one() -> None:
    state = build_state(3, eliminated=[1, 2], series_wins=2)
    after, _ = play(state, Accuse(seat=0, **WRONG))
    assert not after.is_over and after.round == 2
    assert [s.score for s in after.seats] == [0, 0, 0]
    assert after.rounds[-1].how == "unsolved"


def test_a_single_game_ends_even_unsolved() -> None:
    state = build_state(3, eliminated=[1, 2])
    after, events = play(state, Accuse(seat=0, **WRONG))
    assert after.is_over and after.ended_by == "unsolved" and legal.winners(after) == set()
    assert of_type(events, GameOver)[0].master is None


def _escape(state: GameState) -> GameState:
    """One Against All: the fugitive chooses, then every detective accuses wrongly."""
    assert state.fugitive is not None
    state, _ = play(
        state,
        ChooseSolution(seat=state.fugitive, suspect="plum", vehicle="train", destination="alamo"),
    )
    game = state.round
    while state.round == game and not state.is_over:
        state, _ = play(
            state, Accuse(seat=state.turn, suspect="white", vehicle="train", destination="alamo")
        )
    return state


def test_an_escape_wins_the_game_but_solves_no_crime() -> None:
    """Rules reference, Playing again / tournament: "the first to have **solved** the agreed
    number of crimes (2 or 3 correct Accusations) is the Master Detective. A fugitive's escape
    wins that game (and counts in the stats) but solves no crime, so it does not count
    towards Master Detective." """
    state, _ = fresh_game(3, "one_against_all", seed=42, series_wins=2)
    for game in range(1, 5):  # four escapes: seats 0, 1, 2, 0 each escape as the fugitive
        fugitive = state.fugitive
        state = _escape(state)
        assert state.rounds[-1].how == "escaped" and state.rounds[-1].winner == fugitive
        assert [s.score for s in state.seats] == [0, 0, 0]
        assert not state.is_over and state.master is None and state.round == game + 1
    assert legal.round_winners(state) == [r.fugitive for r in state.rounds] == [0, 1, 2, 0]
    # the first crime solved counts; the second one makes a Master Detective
    state = _win(state)
    solver = state.rounds[-1].winner
    assert solver is not None and state.seats[solver].score == 1 and not state.is_over
    while not state.is_over:
        state = _win(state)
    assert state.master is not None and state.seats[state.master].score == 2
    # the stats: the Master Detective, and each fugitive who escaped in one of the games
    assert legal.winners(state) == {state.master, 0, 1, 2}
    assert state.rounds[-1].how == "solved" and state.rounds[-1].winner == state.master


def test_one_against_all_series_the_fugitive_passes_left() -> None:
    """Rules reference, One Against All: "in a series the fugitive passes to the left each
    game, so a different player is the fugitive each time"; and "The fugitive is also the
    dealer" in every game."""
    state, _ = fresh_game(4, "one_against_all", seed=3, series_wins=3)
    first = state.fugitive
    assert first is not None and state.dealer == first
    state = _win(state)  # a detective wins game 1
    assert state.fugitive == (first + 1) % 4 and state.phase == "choosing_solution"
    assert state.dealer == state.fugitive
    fugitive = state.fugitive
    before = [s.score for s in state.seats]
    state = _escape(state)
    assert state.rounds[-1].how == "escaped" and state.rounds[-1].winner == fugitive
    assert [s.score for s in state.seats] == before
    assert state.fugitive == state.dealer == (fugitive + 1) % 4


def test_one_against_all_series_a_chosen_fugitive_is_only_the_first() -> None:
    """The fugitive chosen in the options plays that role in the first game only; then it
    passes to the left like a drawn one ("a different player gets to be the fugitive each
    time")."""
    state, _ = fresh_game(3, "one_against_all", seed=3, series_wins=2, fugitive=1)
    assert state.fugitive == state.dealer == 1
    state = _win(state)
    assert state.round == 2 and state.fugitive == state.dealer == 2
    state = _escape(state)
    assert state.round == 3 and state.fugitive == state.dealer == 0


# --- abandon and reveal -------------------------------------------------------------------


def test_abandon_reveals_with_no_winner() -> None:
    state, _ = fresh_game(4, seed=5, series_wins=2)
    after, events = play(state, Abandon(reason="The host closed the table."))
    assert after.is_over and after.ended_by == "abandoned" and after.master is None
    assert legal.winners(after) == set() and legal.waiting_on(after) == []
    assert [e.type for e in events] == ["round_over", "game_over"]
    (ended,), (over,) = of_type(events, RoundOver), of_type(events, GameOver)
    assert ended.how == "abandoned" and ended.hands == [s.clues for s in state.seats]
    assert over.reason == "The host closed the table."
    assert over.solution == state.solution and over.hands == ended.hands
    assert reveal(after) == over
    assert public_view(after).solution == state.solution


def test_abandon_while_the_fugitive_chooses() -> None:
    state, _ = fresh_game(3, "one_against_all", seed=5)
    after, _ = play(state, Abandon())
    assert after.is_over and after.rounds[-1].solution is None


def test_nothing_after_the_end() -> None:
    state, _ = fresh_game(3, seed=5)
    after, _ = play(state, Abandon())
    refused(after, Abandon(), "This game is already over.")
    refused(after, Move(seat=after.turn, destination="alamo"), "This game is already over.")
    with pytest.raises(RuleError, match=r"Nothing is revealed before the game is over\."):
        reveal(state)
