"""The whole truth of a Mansion table, as a JSON round-trippable pydantic model."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from engine.mansion.prompts import Prompt
from engine.mansion.records import Record, Triple
from engine.players import PlayerRef as PlayerRef  # re-exported: the games share it

Variant = Literal["standard", "one_against_all"]
Phase = Literal["choosing_solution", "playing", "over"]
"""`choosing_solution`: One Against All, before the deal. `over`: the series is over."""
RoundEnd = Literal["solved", "escaped", "unsolved", "abandoned"]
EndedBy = Literal["won", "escaped", "unsolved", "abandoned"]
"""`won`: a seat solved the agreed number of crimes; `escaped`: a single game the fugitive
won; `unsolved`: a single game nobody won; `abandoned`: the table was ended."""


class Options(BaseModel):
    """What the table chose at `new`."""

    players: int = Field(ge=3, le=5)
    variant: Variant = "standard"
    series_wins: Literal[1, 2, 3] = 1
    """Games needed to be Master Detective; 1 plays a single game."""
    fugitive: int | None = None
    """One Against All: the fugitive (and dealer) of the first game; None draws one at random.
    In a series the role passes to the left each game."""

    @model_validator(mode="after")
    def _fugitive_fits(self) -> Options:
        if self.fugitive is not None:
            if self.variant != "one_against_all":
                raise ValueError("Only One Against All has a fugitive.")
            if not 0 <= self.fugitive < self.players:
                raise ValueError("The fugitive must be one of the seats.")
        return self

    @property
    def one_against_all(self) -> bool:
        return self.variant == "one_against_all"


class Seat(BaseModel):
    id: str
    name: str
    clues: list[str] = []
    """Clue hand, in the order dealt; it never changes during a game."""
    actions: list[str] = []
    """Action hand (ids; copies of a card share an id)."""
    marker: str = ""
    """The destination marker in front of this seat ("where they are")."""
    eliminated: bool = False
    """Accused wrongly this game: no more turns, still answers everything."""
    score: int = 0
    """Crimes solved in this series (right accusations); a fugitive's escape wins its game
    (`RoundResult.winner`) but solves no crime, so it does not count here."""


class DiscardedCard(BaseModel):
    card: str
    face_up: bool = True
    seen_by: list[int] = []
    """For a face-down card (a Private Tip, a wrong accuser's unplayed hand): the seats that
    have read it."""
    kind_shown: bool = True
    """Whether every seat knows its kind when face down (a Private Tip passed in play);
    an unplayed hand's cards show nothing (`cards.FACE_DOWN`)."""


class RoundResult(BaseModel):
    """A finished game of the series, kept whole: once a game is over nothing in it is secret."""

    round: int
    dealer: int
    fugitive: int | None
    solution: Triple | None
    hands: list[list[str]]
    winner: int | None
    how: RoundEnd
    log: list[Record]


class GameState(BaseModel):
    options: Options
    seed: int
    step: int = 0
    """Counts applied actions; each action's randomness comes from (seed, step)."""
    seats: list[Seat]
    round: int = 1
    """1 for the first game of the series."""
    dealer: int
    fugitive: int | None = None
    solution: Triple | None = None
    """None only while the fugitive is choosing it."""
    draw: list[str] = []
    """The Action draw pile; the top card is the last."""
    discard: list[DiscardedCard] = []
    """The Action discard pile; the top card is the last."""
    tray: list[str] = []
    """Destination markers lying by the tray."""
    played: str | None = None
    """The Action card played this turn, on the table until the turn ends."""
    phase: Phase = "playing"
    turn: int
    """The seat whose turn it is (the first player while the fugitive chooses)."""
    turn_number: int = 0
    """1 for the first turn of this game."""
    prompts: list[Prompt] = []
    next_prompt: int = 1
    log: list[Record] = []
    """This game's true log; `views` decides who sees what of it."""
    rounds: list[RoundResult] = []
    """Finished games of the series, the current one included once it is over."""
    master: int | None = None
    """The Master Detective: the seat that solved the agreed number of crimes (with
    `series_wins` 1: the seat that solved the single game)."""
    ended_by: EndedBy | None = None
    end_reason: str = ""

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self.players

    def clockwise_from(self, seat: int) -> list[int]:
        """Every other seat, starting at `seat`'s left."""
        return [(seat + k) % self.players for k in range(1, self.players)]

    def is_detective(self, seat: int) -> bool:
        return seat != self.fugitive

    def active(self, seat: int) -> bool:
        """`seat` still takes turns: a detective who has not accused wrongly."""
        return self.is_detective(seat) and not self.seats[seat].eliminated

    def prompt_for(self, seat: int) -> Prompt | None:
        return next((p for p in self.prompts if p.seat == seat), None)

    def marker_holder(self, destination: str) -> int | None:
        """The seat with `destination`'s marker in front of it; None when it is by the tray."""
        return next((i for i, s in enumerate(self.seats) if s.marker == destination), None)
