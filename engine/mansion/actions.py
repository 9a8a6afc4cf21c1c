"""What a seat can do, as pydantic models (one discriminated union, JSON round-trippable).

Playing a card and answering a prompt are both actions from the seat that does it; the
Action card played is implied by the action (or named by `card` where copies differ).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Action(BaseModel):
    """Actions are values: frozen, so enumerations can be cached and shared safely."""

    model_config = ConfigDict(frozen=True)


class SuggestAny(_Action):
    """Suggestion from ANY destination: take `destination`'s marker (swapping), then suggest."""

    type: Literal["suggest_any"] = "suggest_any"
    seat: int
    destination: str
    suspect: str
    vehicle: str


class SuggestPresent(_Action):
    """Suggestion from PRESENT destination: suggest from the marker in front of you."""

    type: Literal["suggest_present"] = "suggest_present"
    seat: int
    suspect: str
    vehicle: str


class Move(_Action):
    """The "or move" of the PRESENT card: swap your marker for `destination`'s, no suggestion."""

    type: Literal["move"] = "move"
    seat: int
    destination: str


class Snoop(_Action):
    type: Literal["snoop"] = "snoop"
    seat: int
    target: int


class AllSnoop(_Action):
    type: Literal["all_snoop"] = "all_snoop"
    seat: int
    card: str
    """`all_snoop_left` or `all_snoop_right`."""


class SuperSleuth(_Action):
    type: Literal["super_sleuth"] = "super_sleuth"
    seat: int
    card: str
    """One of the six `sleuth_*` cards."""


class PrivateTip(_Action):
    type: Literal["private_tip"] = "private_tip"
    seat: int
    card: str
    """One of the six `tip_*` cards."""
    target: int


class Accuse(_Action):
    type: Literal["accuse"] = "accuse"
    seat: int
    suspect: str
    vehicle: str
    destination: str


class EndTurn(_Action):
    type: Literal["end_turn"] = "end_turn"
    seat: int


class ChooseSolution(_Action):
    """One Against All: the fugitive's secret choice before the deal."""

    type: Literal["choose_solution"] = "choose_solution"
    seat: int
    suspect: str
    vehicle: str
    destination: str


class ShowCard(_Action):
    """Answer a show prompt (a Suggestion or a Super Sleuth): the card you show."""

    type: Literal["show_card"] = "show_card"
    seat: int
    card: str


class PickCard(_Action):
    """Answer a Snoop or All Snoop: the face-down position (0-based) you look at."""

    type: Literal["pick_card"] = "pick_card"
    seat: int
    position: int


class AnswerTip(_Action):
    """Answer a Private Tip: the cards you return (one, all of a kind, or none)."""

    type: Literal["answer_tip"] = "answer_tip"
    seat: int
    cards: list[str]


class Abandon(_Action):
    """The host ends the table before anyone has won; everything is revealed."""

    type: Literal["abandon"] = "abandon"
    reason: str = "The game was ended."


PlayAction = SuggestAny | SuggestPresent | Move | Snoop | AllSnoop | SuperSleuth | PrivateTip
"""Actions that play an Action card."""
PLAY_TYPES = (SuggestAny, SuggestPresent, Move, Snoop, AllSnoop, SuperSleuth, PrivateTip)

Action = Annotated[
    SuggestAny
    | SuggestPresent
    | Move
    | Snoop
    | AllSnoop
    | SuperSleuth
    | PrivateTip
    | Accuse
    | EndTurn
    | ChooseSolution
    | ShowCard
    | PickCard
    | AnswerTip
    | Abandon,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def card_played(action: PlayAction) -> str:
    """The Action card id an action plays."""
    match action:
        case SuggestAny():
            return "suggest_any"
        case SuggestPresent() | Move():
            return "suggest_present"
        case Snoop():
            return "snoop"
        case AllSnoop() | SuperSleuth() | PrivateTip():
            return action.card
