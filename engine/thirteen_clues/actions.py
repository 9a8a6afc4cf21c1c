"""What a seat can do, as pydantic models (one discriminated union, JSON round-trippable)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, TypeAdapter

from engine.thirteen_clues.state import Side


class ChoosePass(BaseModel):
    type: Literal["choose_pass"] = "choose_pass"
    seat: int
    person: str
    location: str
    weapon: str


class TakeGlass(BaseModel):
    """Only when the supply is empty and the current player holds none."""

    type: Literal["take_glass"] = "take_glass"
    seat: int
    source: int


class Ask(BaseModel):
    type: Literal["ask"] = "ask"
    seat: int
    witness: int
    subject: str
    side: Side | None = None
    top_secret: bool = False


class Consult(BaseModel):
    type: Literal["consult"] = "consult"
    seat: int
    letter: str


class Accuse(BaseModel):
    type: Literal["accuse"] = "accuse"
    seat: int
    person: str
    location: str
    weapon: str


class Abandon(BaseModel):
    """The table is ended before anyone won (host or moderator); reveals everything."""

    type: Literal["abandon"] = "abandon"
    reason: str = "The game was ended."


Action = Annotated[
    ChoosePass | TakeGlass | Ask | Consult | Accuse | Abandon, Field(discriminator="type")
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
