"""The whole truth of a 13 Clues table, as a JSON round-trippable pydantic model."""

from __future__ import annotations

from typing import Final, Literal, get_args

from pydantic import BaseModel, Field, model_validator

from engine.players import PlayerRef as PlayerRef  # re-exported: the games share it

Edition = Literal["2020", "2016"]
EDITIONS: Final[tuple[Edition, ...]] = get_args(Edition)
"""Every rule set the engine plays, newest first."""
DEFAULT_EDITION: Final[Edition] = "2020"
"""The rule set a table plays unless it chooses another (the reference: 2020 is the default)."""
Side = Literal["left", "right"]
Phase = Literal["passing", "turns", "over"]

LETTERS = "ABCDEFGH"
GLASSES_IN_BOX: dict[Edition, int] = {"2020": 8, "2016": 10}


class Options(BaseModel):
    """What the table chose at `new`: player count, rule set, variant."""

    players: int = Field(ge=2, le=6)
    edition: Edition = DEFAULT_EDITION
    top_secret: bool = False

    @model_validator(mode="after")
    def _no_top_secret_for_two(self) -> Options:
        if self.top_secret and self.players == 2:
            raise ValueError("The Top Secret variant is not used with two players.")
        return self

    @property
    def uses_glasses(self) -> bool:
        return self.players > 2

    @property
    def bans_visible(self) -> bool:
        """Whether an accusation may name only cards in play the accuser cannot see: the
        2020 rule, which two players follow under either rule set (the reference's
        two-player rules: "The 2020 no-visible-cards rule applies")."""
        return self.edition == "2020" or self.players == 2


class Seat(BaseModel):
    id: str
    name: str
    dealt: list[str]
    """The 5 cards dealt at setup."""
    passed: list[str] | None = None
    """Person, Location, Weapon chosen for the left neighbour's holder; None until chosen."""
    holder: list[str] = []
    """Person, Location, Weapon on this seat's own card holder (everyone else sees it)."""
    screen: list[str] = []
    """The 2 cards behind the screen; with two players index 0 is left and 1 is right."""
    glasses: int = 0
    top_secret_used: bool = False
    peeks: dict[str, str] = {}
    """Informant letter → card, for the letters this seat consulted."""


class Question(BaseModel):
    asker: int
    witness: int
    subject: str
    side: Side | None = None
    answer: int
    top_secret: bool = False


class Consultation(BaseModel):
    seat: int
    letter: str


class Accusation(BaseModel):
    seat: int
    cards: tuple[str, str, str]
    correct: bool


class Played(BaseModel):
    """One action of play, in the order it happened (the kind says which list holds it)."""

    seat: int
    turn: int
    kind: Literal["ask", "consult", "accuse"]


class GameState(BaseModel):
    options: Options
    seed: int
    seats: list[Seat]
    informants: list[str]
    """Secret Informant cards in letter order (A, B, ...)."""
    phase: Phase = "passing"
    starter: int
    turn: int
    """The seat whose turn it is (the starting player during the pass phase)."""
    turn_number: int = 0
    """1 for the first turn of play; 0 during the pass phase."""
    supply: int = 0
    questions: list[Question] = []
    consultations: list[Consultation] = []
    accusations: list[Accusation] = []
    played: list[Played] = []
    """Every question, consultation and accusation in order: what the questions,
    consultations and accusations lists do not say between them (the review replays it).
    Empty for a game stored before it was kept."""
    winner: int | None = None
    ended_by: Literal["solved", "abandoned"] | None = None
    end_reason: str = ""
    """"solved", or why the table was ended (shown in the reveal)."""

    @property
    def players(self) -> int:
        return len(self.seats)

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self.players

    def letters(self) -> list[str]:
        return list(LETTERS[: len(self.informants)])

    def sees(self, seat: int) -> set[str]:
        """Cards `seat` can see: its screen and every holder but its own (2020 accusation ban)."""
        seen = set(self.seats[seat].screen)
        for i, other in enumerate(self.seats):
            if i != seat:
                seen.update(other.holder)
        return seen
