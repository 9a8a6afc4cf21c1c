"""Rules reference: "Accusation" — once per game, any cards, the accuser sees the solution."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from engine.mansion import actions as act
from engine.mansion import legal, player_view, public_view
from engine.mansion.events import AccusationMade, ActionHandDiscarded, GameOver, RoundOver
from engine.mansion.observations import AccusationSeen
from engine.mansion.records import Suggested
from engine.mansion.state import GameState
from testkit.events import of_type

from .helpers import HANDS, RIGHT, SOLUTION, WRONG, build_state, play, refused, waiting_kinds


def table(players: int = 4, *, actions: dict[int, list[str]] | None = None,
          eliminated: Iterable[int] = ()) -> GameState:
    hands = HANDS if players == 4 else None
    return build_state(players, hands=hands, actions=actions, eliminated=eliminated)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_right_accusation_instead_of_playing_wins(players: int) -> None:
    state = table(players)
    after, events = play(state, act.Accuse(seat=0, **RIGHT))
    assert after.is_over and after.master == 0 and legal.winners(after) == {0}
    assert after.rounds[-1].how == "solved" and after.rounds[-1].winner == 0
    made = of_type(events, AccusationMade)
    assert {e.audience.scope for e in made} == {"public", "private"}
    public_made = next(e for e in made if e.audience.scope == "public")
    assert public_made.correct and public_made.solution == SOLUTION
    assert [e.type for e in events][-2:] == ["round_over", "game_over"]
    assert events[-1].audience.scope == "reveal"
    assert legal.waiting_on(after) == [] and legal.turn_key(after) == "over"


def test_a_right_accusation_after_playing_wins() -> None:
    after, _ = play(
        table(),
        act.SuggestPresent(seat=0, suspect="white", vehicle="airliner"),
        act.ShowCard(seat=1, card="white"),
        act.Accuse(seat=0, **RIGHT),
    )
    assert after.is_over and after.master == 0


def test_accusations_may_name_any_cards_even_your_own() -> None:
    after, _ = play(
        table(),
        act.Accuse(seat=0, suspect="mustard", vehicle="seaplane", destination="golden_gate"),
    )
    assert after.seats[0].eliminated


def test_a_wrong_accuser_sees_the_solution_privately_the_table_learns_only_wrong() -> None:
    state = table()
    after, events = play(state, act.Accuse(seat=0, **WRONG))
    made = of_type(events, AccusationMade)
    public_made = next(e for e in made if e.audience.scope == "public")
    private_made = next(e for e in made if e.audience.scope == "private")
    assert not public_made.correct
    assert public_made.named is None and public_made.solution is None
    assert private_made.audience.seats == (0,)
    assert private_made.named is not None and private_made.named.suspect == "plum"
    assert private_made.solution == SOLUTION
    assert player_view(after, 0).solution == SOLUTION
    for seat in (1, 2, 3):
        view = player_view(after, seat)
        assert view.solution is None
        entry = next(e for e in view.observations if isinstance(e, AccusationSeen))
        assert entry.named is None and entry.solution is None and not entry.correct
    assert public_view(after).solution is None


def test_a_wrong_accuser_loses_their_turns_and_action_hand() -> None:
    state = table(actions={0: ["suggest_present", "tip_red"]})
    after, events = play(state, act.Accuse(seat=0, **WRONG))
    me = after.seats[0]
    assert me.eliminated and me.actions == []
    discarded = after.discard[-2:]
    # face down, kind and all (the secrecy contract: only played Action cards are public)
    assert [(d.card, d.face_up, d.seen_by) for d in discarded] == [
        ("suggest_present", False, [0]),
        ("tip_red", False, [0]),
    ]
    hand = of_type(events, ActionHandDiscarded)
    assert [(e.audience.scope, e.cards) for e in hand] == [
        ("public", [None, None]),
        ("private", ["suggest_present", "tip_red"]),
    ]
    assert after.turn == 1 and waiting_kinds(after) == [(1, "play")]
    assert [d.card for d in player_view(after, 0).discard[-2:]] == ["suggest_present", "tip_red"]
    for seat in (1, 2, 3):
        assert [d.card for d in player_view(after, seat).discard[-2:]] == ["face_down"] * 2
        seen = next(e for e in player_view(after, seat).observations
                    if isinstance(e, AccusationSeen))
        assert seen.discarded == [None, None]
    assert [d.card for d in public_view(after).discard[-2:]] == ["face_down"] * 2
    refused(after, act.Move(seat=0, destination="alamo"), "You accused wrongly, so you take no")
    # Later, on what would have been Ann's turn, she is skipped.
    for seat in (1, 2, 3):
        after, _ = play(after, act.Snoop(seat=seat, target=(seat + 1) % 4))
        after, _ = play(after, _pick(after, seat), act.EndTurn(seat=seat))
    assert after.turn == 1
    refused(after, act.Snoop(seat=0, target=1), "You accused wrongly, so you take no more turns.")


def _pick(state: GameState, seat: int) -> act.PickCard:
    return act.PickCard(seat=seat, position=0)


def test_a_wrong_accusation_after_playing_discards_the_played_card_too() -> None:
    after, _ = play(table(), act.Move(seat=0, destination="alamo"), act.Accuse(seat=0, **WRONG))
    assert [d.card for d in after.discard] == ["suggest_any", "suggest_present"]
    assert after.played is None and after.turn == 1


def test_a_wrong_accuser_still_answers_everything() -> None:
    state = table(eliminated=[1], actions={0: ["suggest_any", "tip_north"]})
    after, _ = play(
        state,
        act.SuggestAny(seat=0, destination="coney_island", suspect="plum", vehicle="limousine"),
    )
    suggestion = next(r for r in reversed(after.log) if isinstance(r, Suggested))
    assert suggestion.refuter == 1 and waiting_kinds(after) == [(1, "show")]
    assert after.seats[1].marker == "niagara_falls"  # others may swap markers with them
    after, _ = play(after, act.ShowCard(seat=1, card="plum"), act.EndTurn(seat=0))
    assert after.turn == 2
    tip_state = table(eliminated=[1], actions={0: ["tip_north", "snoop"]})
    tipped, _ = play(tip_state, act.PrivateTip(seat=0, card="tip_north", target=1))
    assert waiting_kinds(tipped) == [(1, "answer_tip")]
    done, _ = play(tipped, act.AnswerTip(seat=1, cards=["mt_rushmore"]))
    assert waiting_kinds(done) == [(0, "accuse_or_end")]


def test_only_one_accusation_per_game() -> None:
    """A wrong accuser's turn ends at once and never comes back: a second accusation is
    refused whenever it is tried; a last player standing is still offered theirs."""
    after, _ = play(table(), act.Accuse(seat=0, **WRONG))
    refused(after, act.Accuse(seat=0, **RIGHT), "You have already made your accusation")
    last, _ = play(table(eliminated=[1, 2, 3]), act.Move(seat=0, destination="alamo"))
    assert waiting_kinds(last) == [(0, "accuse_or_end")]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_everyone_wrong_ends_the_game_with_no_winner(players: int) -> None:
    state = table(players, eliminated=range(1, players))
    after, events = play(state, act.Accuse(seat=0, **WRONG))
    assert after.is_over and after.master is None and legal.winners(after) == set()
    assert after.ended_by == "unsolved"
    over = of_type(events, RoundOver)[0]
    assert over.how == "unsolved" and over.solution == SOLUTION
    assert over.audience.scope == "reveal"
    assert public_view(after).solution == SOLUTION


@pytest.mark.parametrize("players", [3, 4, 5])
def test_one_against_all_every_detective_wrong_the_fugitive_escapes(players: int) -> None:
    fugitive = players - 1
    state = build_state(players, fugitive=fugitive, eliminated=range(1, fugitive))
    after, events = play(state, act.Accuse(seat=0, **WRONG))
    assert after.is_over and after.ended_by == "escaped"
    assert after.rounds[-1].how == "escaped" and after.rounds[-1].winner == fugitive
    # the escape wins the game (and the table's stats) but solves no crime
    assert after.master is None and after.seats[fugitive].score == 0
    assert legal.winners(after) == {fugitive}
    assert of_type(events, GameOver)[0].winner == fugitive


def test_one_against_all_a_detective_wins_with_a_right_accusation() -> None:
    state = build_state(3, fugitive=2)
    after, _ = play(state, act.Accuse(seat=0, **RIGHT))
    assert after.is_over and after.master == 0 and after.rounds[-1].how == "solved"


def test_accusation_refuses_cards_of_the_wrong_kind() -> None:
    refused(
        table(),
        act.Accuse(seat=0, suspect="plum", vehicle="alamo", destination="niagara_falls"),
        "The Alamo is not a vehicle.",
    )


def test_the_fugitive_cannot_accuse() -> None:
    state = build_state(3, fugitive=2)
    refused(state, act.Accuse(seat=2, **RIGHT), "The fugitive takes no turns")
