"""The table's true log: what happened this round, secrets included.

Only `views` turns these records into what one seat (or the channel) may see; nothing else
should hand a record to a player.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.mansion.cards import Direction, SuggestCard


class Triple(BaseModel):
    """A Suspect, a Vehicle and a Destination: a solution, suggestion or accusation."""

    model_config = ConfigDict(frozen=True)

    suspect: str
    vehicle: str
    destination: str

    def cards(self) -> tuple[str, str, str]:
        return (self.suspect, self.vehicle, self.destination)


class TurnBegan(BaseModel):
    kind: Literal["turn"] = "turn"
    seat: int
    turn_number: int


class Drew(BaseModel):
    """Private to the drawer: the Action card they drew."""

    kind: Literal["drew"] = "drew"
    seat: int
    card: str


class Reshuffled(BaseModel):
    """Standard game: the discard pile (Private Tips included) became the draw pile."""

    kind: Literal["reshuffled"] = "reshuffled"
    size: int


class Dealt(BaseModel):
    """The deal of this game: markers in front of each seat, by the tray, and hand sizes."""

    kind: Literal["dealt"] = "dealt"
    markers: list[str]
    tray: list[str]
    clue_counts: list[int]
    first: int
    """The seat that plays first."""
    actions: list[list[str]] = []
    """The Action card dealt to each seat (none to a fugitive): secret while the game is
    played (views never show it), kept so the review can rebuild each seat's hand at each
    turn. Empty in a game stored before it was kept."""


class Swapped(BaseModel):
    """`seat` gave marker `gave` and took `took` from seat `other` (None: the tray)."""

    kind: Literal["swap"] = "swap"
    seat: int
    gave: str
    took: str
    other: int | None
    card: SuggestCard


class Suggested(BaseModel):
    kind: Literal["suggestion"] = "suggestion"
    seat: int
    card: SuggestCard
    named: Triple
    passed: list[int] = []
    """Seats asked in order that held none of the three."""
    refuter: int | None = None
    shown: str | None = None
    """The card the refuter showed (None while they choose, or when nobody could)."""
    burned: str | None = None
    """One Against All: the Action card burned because the fugitive refuted."""


class Snooped(BaseModel):
    kind: Literal["snoop"] = "snoop"
    seat: int
    target: int
    count: int
    """Cards laid face down."""
    position: int | None = None
    card: str | None = None
    """None until the snooper picks."""


class Pick(BaseModel):
    looker: int
    target: int
    count: int
    position: int | None = None
    card: str | None = None


class AllSnooped(BaseModel):
    kind: Literal["all_snoop"] = "all_snoop"
    seat: int
    direction: Direction
    picks: list[Pick]


class SleuthAnswer(BaseModel):
    seat: int
    card: str | None = None
    """The card shown; None for "nothing" or while the seat chooses."""
    answered: bool = False


class Sleuthed(BaseModel):
    kind: Literal["super_sleuth"] = "super_sleuth"
    seat: int
    card: str
    answers: list[SleuthAnswer]
    """Every opponent, in turn order from the player's left."""


class Tipped(BaseModel):
    kind: Literal["private_tip"] = "private_tip"
    seat: int
    target: int
    card: str
    answer: list[str] | None = None
    """Cards returned (possibly none); None until the target answers."""


class Accused(BaseModel):
    kind: Literal["accusation"] = "accusation"
    seat: int
    named: Triple
    correct: bool
    discarded: list[str] = []
    """A wrong accuser's Action hand, now in the discard pile."""


class SolutionChosen(BaseModel):
    """One Against All: the fugitive has chosen the solution (the cards stay in `state`)."""

    kind: Literal["solution_chosen"] = "solution_chosen"
    seat: int


Record = Annotated[
    Dealt
    | TurnBegan
    | Drew
    | Reshuffled
    | Swapped
    | Suggested
    | Snooped
    | AllSnooped
    | Sleuthed
    | Tipped
    | Accused
    | SolutionChosen,
    Field(discriminator="kind"),
]
