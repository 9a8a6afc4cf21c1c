"""The observation record: one entry per thing a seat (or the channel) saw happen.

A seat's record holds every fact it may know about this game and nothing more; an exact
deduction solver works from it alone. Card ids appear in these fields only:

- public naming (never says who holds a card): `named`, `markers`, `tray`, `gave`, `took`;
- secrets this seat may know: `card` / `cards` / `shown` / `solution`, filled only for the
  seats entitled to them and None (or absent) for everyone else.

Facts that constrain hands, by entry:
- `suggestion`: every seat in `passed` holds none of `named`; `refuter` holds at least one
  of them (it is always asked which to show, so nobody else learns how many);
  `refuter is None` means nobody asked holds any. In One Against All the fugitive is asked
  last, so when it refutes every other detective passed.
- `super_sleuth`: an answer with `showed` False means that seat holds no card with the
  feature; `showed` True (or an answer still pending) means at least one.
- `snoop`, `all_snoop`, `private_tip`: the card(s) learned, for the looker / the two.
- `accusation`: a wrong one says only that the named triple is not the solution, and that
  only to the accuser (who also sees the solution).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from engine.mansion.cards import Direction, SuggestCard
from engine.mansion.records import Triple


class DealtSeen(BaseModel):
    kind: Literal["dealt"] = "dealt"
    markers: list[str]
    tray: list[str]
    clue_counts: list[int]
    first: int


class TurnSeen(BaseModel):
    kind: Literal["turn"] = "turn"
    seat: int
    turn_number: int


class DrewSeen(BaseModel):
    """Only the drawer's own draws appear."""

    kind: Literal["drew"] = "drew"
    seat: int
    card: str


class ReshuffleSeen(BaseModel):
    kind: Literal["reshuffled"] = "reshuffled"
    size: int


class SwapSeen(BaseModel):
    kind: Literal["swap"] = "swap"
    seat: int
    gave: str
    took: str
    other: int | None
    """The seat swapped with; None for the tray."""
    card: SuggestCard


class SuggestionSeen(BaseModel):
    kind: Literal["suggestion"] = "suggestion"
    seat: int
    card: SuggestCard
    named: Triple
    passed: list[int]
    """Asked in order and held none of the three."""
    refuter: int | None
    """Holds at least one of the three; None: nobody asked holds any."""
    fugitive_refuted: bool
    """One Against All: the fugitive refuted, so no detective but the suggester was able to."""
    pending: bool
    """The refuter has not chosen yet."""
    shown: str | None = None
    """The card shown: only for the suggester and the refuter."""
    burned: str | None = None
    """One Against All: the Action card burned face up because the fugitive refuted."""


class SnoopSeen(BaseModel):
    kind: Literal["snoop"] = "snoop"
    seat: int
    target: int
    count: int
    done: bool
    card: str | None = None
    """Only for the snooper (the target does not learn which card was seen)."""


class LookSeen(BaseModel):
    looker: int
    target: int
    count: int
    done: bool


class AllSnoopSeen(BaseModel):
    kind: Literal["all_snoop"] = "all_snoop"
    seat: int
    direction: Direction
    looks: list[LookSeen]
    card: str | None = None
    """The card this seat turned over (of the hand of the seat it looked at)."""


class SleuthAnswerSeen(BaseModel):
    seat: int
    answered: bool
    showed: bool | None
    """None while the seat chooses (it will show: it holds at least one)."""
    card: str | None = None
    """Only for the sleuth and the seat that showed it."""


class SleuthSeen(BaseModel):
    kind: Literal["super_sleuth"] = "super_sleuth"
    seat: int
    card: str
    """The Super Sleuth card (its feature is public)."""
    answers: list[SleuthAnswerSeen]


class TipSeen(BaseModel):
    """Onlookers see only that a tip passed from `seat` to `target`."""

    kind: Literal["private_tip"] = "private_tip"
    seat: int
    target: int
    answered: bool
    card: str | None = None
    """The Private Tip card: only for the two."""
    cards: list[str] | None = None
    """The cards returned (possibly none): only for the two, once answered."""


class AccusationSeen(BaseModel):
    kind: Literal["accusation"] = "accusation"
    seat: int
    correct: bool
    named: Triple | None = None
    """For the accuser, and for everyone when right."""
    solution: Triple | None = None
    """What the accuser saw: for the accuser only (everyone when right)."""
    discarded: list[str | None] = []
    """A wrong accuser's Action hand, discarded face down: None to the others."""


class SolutionChosenSeen(BaseModel):
    kind: Literal["solution_chosen"] = "solution_chosen"
    seat: int
    solution: Triple | None = None
    """Only for the fugitive."""


Observation = Annotated[
    DealtSeen
    | TurnSeen
    | DrewSeen
    | ReshuffleSeen
    | SwapSeen
    | SuggestionSeen
    | SnoopSeen
    | AllSnoopSeen
    | SleuthSeen
    | TipSeen
    | AccusationSeen
    | SolutionChosenSeen,
    Field(discriminator="kind"),
]
