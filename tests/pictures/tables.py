"""Hand-laid 13 Clues tables for the golden pictures: no shuffle involved, so the pictures
change only when the drawing changes (not when the engine's dealing does)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.thirteen_clues import (
    Accuse,
    Ask,
    Consult,
    GameState,
    Options,
    PlayerView,
    PublicView,
    legal,
    player_view,
    public_view,
)
from engine.thirteen_clues.cards import CARDS, cards_in_play, suits_in_play
from engine.thirteen_clues.events import GameOver
from engine.thirteen_clues.state import Edition, Seat
from testkit.events import of_type
from testkit.thirteen_clues import build_state, play

NAMES = ("Ann", "Bob", "Catherine", "Dan", "Eve", "Fay")
ODD_NAMES = ("Zoë", "Bartholomew Maximilian the Third", "🕵️", "Dan", "Eve", "Fay")
"""An accent, a name too long to draw whole, a name the bundled font cannot draw at all."""


def mixed_holders(players: int) -> dict[int, list[str]]:
    """Seat i holds the Person of suit i, the Location of suit i+1, the Weapon of suit i+3:
    colourful holders, placed by hand."""
    suits = suits_in_play(players)
    by_suit = {s: [c for c in CARDS if CARDS[c].suit == s] for s in suits}
    return {
        i: [by_suit[suits[(i + k) % len(suits)]][cat] for cat, k in enumerate((0, 1, 3))]
        for i in range(players)
    }


def table(players: int, edition: Edition = "2020", *, glasses: list[int] | None = None,
          turn: int = 0, names: Sequence[str] = NAMES) -> GameState:
    return build_state(players, edition=edition, holders=mixed_holders(players), names=names,
                       glasses=glasses, turn=turn)


def turns_view(players: int = 4, edition: Edition = "2020") -> PlayerView:
    """Seat 0 during play, after consulting informant A (3-5 players) or C (2 players)."""
    state = table(players, edition)
    if players < 6:
        state, _ = play(state, Consult(seat=0, letter="C" if players == 2 else "A"))
    return player_view(state, 0)


def odd_names_view() -> PlayerView:
    """Six players, some names hard to draw."""
    return player_view(table(6, names=ODD_NAMES), 0)


def passing_view(passed: bool) -> PlayerView:
    """Two players during the pass phase, seat 0 having chosen or not."""
    deck = list(cards_in_play(2))
    dealt = [deck[0], deck[4], deck[8], deck[12], deck[1]]  # Officer, Market, Poison...
    other = [deck[3], deck[7], deck[11], deck[15], deck[2]]
    rest = [c for c in deck if c not in dealt + other]
    seats = [
        Seat(id="u0", name=NAMES[0], dealt=dealt, passed=dealt[:3] if passed else None),
        Seat(id="u1", name=NAMES[1], dealt=other),
    ]
    state = GameState(
        options=Options(players=2),
        seed=0,
        seats=seats,
        informants=rest,
        starter=0,
        turn=0,
    )
    return player_view(state, 0)


def casebook_state(players: int = 3, edition: Edition = "2016") -> GameState:
    """Seat 0 has asked a few questions and consulted an informant: a casebook with several
    candidates, a ruled-out card of each kind (seen, consulted, deduced)."""
    state = table(players, edition, glasses=[3, 1, 1][:players])
    state, _ = play(
        state,
        Ask(seat=0, witness=1, subject="male"),
        Consult(seat=0, letter="A"),
        Ask(seat=0, witness=2, subject="red"),
    )
    return state


def finished(players: int = 5, edition: Edition = "2020") -> tuple[GameOver, PublicView]:
    """Seat 1 accuses wrongly, then seat 2 names its own holder and wins."""
    state = table(players, edition, turn=1)
    pools = legal.accusable_cards(state, 1)
    guess = {
        cat.value: next(c for c in pools[cat] if c not in state.seats[1].holder) for cat in pools
    }
    state, _ = play(state, Accuse(seat=1, person=guess["person"], location=guess["location"],
                                  weapon=guess["weapon"]))
    seat = state.turn
    holder = state.seats[seat].holder
    state, events = play(
        state, Accuse(seat=seat, person=holder[0], location=holder[1], weapon=holder[2])
    )
    (over,) = of_type(events, GameOver)
    assert isinstance(over, GameOver)
    return over, public_view(state)
