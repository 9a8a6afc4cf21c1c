"""Everything that happens at the table, each with the audience allowed to see it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, TypeAdapter

from engine.audience import Audience
from engine.thirteen_clues.state import Side


class _Event(BaseModel):
    audience: Audience


class GameStarted(_Event):
    """Seat order fixed, cards dealt; the pass phase begins."""

    type: Literal["game_started"] = "game_started"
    seat_names: list[str]
    starter: int


class CardsDealt(_Event):
    type: Literal["cards_dealt"] = "cards_dealt"
    seat: int
    cards: list[str]


class PassChosen(_Event):
    """Public: only that the seat has chosen. Private to the seat: which cards."""

    type: Literal["pass_chosen"] = "pass_chosen"
    seat: int
    cards: list[str] = []
    waiting_for: list[int]


class PlayBegan(_Event):
    """Public: the table once every pass is made."""

    type: Literal["play_began"] = "play_began"
    starter: int
    glasses: list[int]
    supply: int
    letters: list[str]


class CaseFile(_Event):
    """Private to one seat: its screen and every holder it can see."""

    type: Literal["case_file"] = "case_file"
    seat: int
    screen: list[str]
    holders: dict[int, list[str]]


class TurnStarted(_Event):
    type: Literal["turn_started"] = "turn_started"
    seat: int
    turn_number: int
    glasses: int
    must_take: bool = False


class GlassTaken(_Event):
    type: Literal["glass_taken"] = "glass_taken"
    seat: int
    source: int | None
    """The seat the glass was taken from; None for the supply."""


class GlassMoved(_Event):
    type: Literal["glass_moved"] = "glass_moved"
    giver: int
    receiver: int | None
    """None for the supply."""
    count: int = 1
    reason: Literal["question", "informant", "accusation", "wrong_accusation"]


class QuestionAnswered(_Event):
    """A public question, or (private to asker and witness) a Top Secret one."""

    type: Literal["question_answered"] = "question_answered"
    asker: int
    witness: int
    subject: str
    side: Side | None = None
    answer: int
    top_secret: bool = False


class SecretQuestionAsked(_Event):
    """Public trace of a Top Secret question: who asked whom, nothing else."""

    type: Literal["secret_question_asked"] = "secret_question_asked"
    asker: int
    witness: int


class InformantConsulted(_Event):
    type: Literal["informant_consulted"] = "informant_consulted"
    seat: int
    letter: str


class InformantCard(_Event):
    type: Literal["informant_card"] = "informant_card"
    seat: int
    letter: str
    card: str


class AccusationMade(_Event):
    """Public: right or wrong. Private to the accuser: also the cards named."""

    type: Literal["accusation_made"] = "accusation_made"
    seat: int
    correct: bool
    cards: list[str] = []


class GameOver(_Event):
    """The end-of-game reveal: every holder, screen and informant card."""

    type: Literal["game_over"] = "game_over"
    winner: int | None
    reason: str
    dealt: list[list[str]]
    holders: list[list[str]]
    screens: list[list[str]]
    informants: list[str]
    accusations: list[tuple[int, list[str], bool]]
    secret_questions: list[tuple[int, int, str, Side | None, int]]


Event = Annotated[
    GameStarted
    | CardsDealt
    | PassChosen
    | PlayBegan
    | CaseFile
    | TurnStarted
    | GlassTaken
    | GlassMoved
    | QuestionAnswered
    | SecretQuestionAsked
    | InformantConsulted
    | InformantCard
    | AccusationMade
    | GameOver,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
