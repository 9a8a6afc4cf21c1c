"""Questions the table is waiting on: each names the one seat that must answer it.

Every prompt always has at least one legal answer (see `legal.legal_actions`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

ShowReason = Literal["suggestion", "super_sleuth"]
PickReason = Literal["snoop", "all_snoop"]


class _Prompt(BaseModel):
    id: int
    """Unique within a game; `turn_key` is built from the open prompts' ids."""
    seat: int


class ChooseSolutionPrompt(_Prompt):
    """One Against All, before the deal: the fugitive names the solution."""

    kind: Literal["choose_solution"] = "choose_solution"


class PlayPrompt(_Prompt):
    """The turn player plays one of their Action cards, or accuses instead."""

    kind: Literal["play"] = "play"


class AccuseOrEndPrompt(_Prompt):
    """After the played card is resolved: accuse now, or end the turn."""

    kind: Literal["accuse_or_end"] = "accuse_or_end"


class ShowPrompt(_Prompt):
    """Choose which of `options` (the seat's matching cards) to show `to`.

    Asked even when only one card fits: an instant answer for one card and a prompt for
    several would tell the table how many the seat holds ("to you and no one else")."""

    kind: Literal["show"] = "show"
    to: int
    reason: ShowReason
    options: list[str]


class PickPrompt(_Prompt):
    """Pick one of `count` face-down cards of `target` (a Snoop or an All Snoop)."""

    kind: Literal["pick"] = "pick"
    target: int
    count: int
    reason: PickReason
    order: list[str]
    """The face-down order: secret from everyone, views never show it."""


class TipPrompt(_Prompt):
    """Answer `to`'s Private Tip `tip` with one of `options` (each a list of cards)."""

    kind: Literal["answer_tip"] = "answer_tip"
    to: int
    tip: str
    options: list[list[str]]


Prompt = Annotated[
    ChooseSolutionPrompt | PlayPrompt | AccuseOrEndPrompt | ShowPrompt | PickPrompt | TipPrompt,
    Field(discriminator="kind"),
]
