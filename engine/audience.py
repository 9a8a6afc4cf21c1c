"""Who may see an event: the engine alone decides, delivery only routes."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Audience(BaseModel):
    """`public`: the table; `private`: only `seats`; `reveal`: public once the game is over."""

    model_config = ConfigDict(frozen=True)

    scope: Literal["public", "private", "reveal"]
    seats: tuple[int, ...] = ()

    @classmethod
    def public(cls) -> Audience:
        return cls(scope="public")

    @classmethod
    def to(cls, *seats: int) -> Audience:
        return cls(scope="private", seats=tuple(sorted(set(seats))))

    @classmethod
    def reveal(cls) -> Audience:
        return cls(scope="reveal")

    def includes(self, seat: int) -> bool:
        return self.scope != "private" or seat in self.seats
