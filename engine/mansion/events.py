"""Everything that happens at the table, each with the audience allowed to see it.

Where the table and some seats learn different things, the engine emits two events of the
same type: a public one without the secret, and a private one with it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, TypeAdapter

from engine.audience import Audience
from engine.mansion.cards import Direction, SuggestCard
from engine.mansion.records import Triple
from engine.mansion.state import Options, RoundEnd


class _Event(BaseModel):
    audience: Audience


class PromptInfo(BaseModel):
    """A prompt as its seat sees it (options included) or as the table sees it (without)."""

    id: int
    seat: int
    kind: Literal["choose_solution", "play", "accuse_or_end", "show", "pick", "answer_tip"]
    to: int | None = None
    """show / answer_tip: who receives the answer."""
    target: int | None = None
    """pick: whose face-down hand is picked from."""
    reason: str | None = None
    """show: `suggestion` / `super_sleuth`; pick: `snoop` / `all_snoop`."""
    count: int | None = None
    """pick: how many face-down cards there are."""
    tip: str | None = None
    """answer_tip: the Private Tip card (only for the two players involved)."""
    options: list[list[str]] | None = None
    """show: one-card lists; answer_tip: each possible answer. None for onlookers."""


class GameStarted(_Event):
    type: Literal["game_started"] = "game_started"
    seat_names: list[str]
    options: Options


class RoundStarted(_Event):
    """A game of the series begins: who deals, who (in One Against All) is the fugitive."""

    type: Literal["round_started"] = "round_started"
    round: int
    dealer: int
    fugitive: int | None


class SolutionChosen(_Event):
    """Public: the fugitive has chosen. Private to the fugitive: the solution."""

    type: Literal["solution_chosen"] = "solution_chosen"
    seat: int
    solution: Triple | None = None


class HandDealt(_Event):
    """Private to one seat: its Clue hand and its Action card."""

    type: Literal["hand_dealt"] = "hand_dealt"
    seat: int
    clues: list[str]
    actions: list[str]


class TableDealt(_Event):
    """Public: markers, hand sizes and the draw pile once the cards are dealt."""

    type: Literal["table_dealt"] = "table_dealt"
    markers: list[str]
    tray: list[str]
    clue_counts: list[int]
    action_counts: list[int]
    draw_size: int


class PromptOpened(_Event):
    """Private to the prompted seat: what it must answer now (delivery: a DM with buttons)."""

    type: Literal["prompt_opened"] = "prompt_opened"
    prompt: PromptInfo


class TurnStarted(_Event):
    type: Literal["turn_started"] = "turn_started"
    seat: int
    turn_number: int
    draw_size: int


class ActionDrawn(_Event):
    type: Literal["action_drawn"] = "action_drawn"
    seat: int
    card: str


class DrawPileReshuffled(_Event):
    type: Literal["draw_pile_reshuffled"] = "draw_pile_reshuffled"
    size: int


class ActionBurned(_Event):
    """One Against All: the fugitive refuted, so the top Action card is burned face up."""

    type: Literal["action_burned"] = "action_burned"
    card: str
    draw_size: int


class MarkersSwapped(_Event):
    type: Literal["markers_swapped"] = "markers_swapped"
    seat: int
    gave: str
    took: str
    other: int | None
    """The seat swapped with; None for the tray."""
    card: SuggestCard
    """`suggest_present` means the "or move" choice: no suggestion this turn."""


class SuggestionMade(_Event):
    type: Literal["suggestion_made"] = "suggestion_made"
    seat: int
    card: SuggestCard
    named: Triple


class SuggestionAnswered(_Event):
    """Public: who could not refute and who refutes (or nobody). Not how many of the three
    the refuter holds: it is always asked which card to show."""

    type: Literal["suggestion_answered"] = "suggestion_answered"
    seat: int
    passed: list[int]
    refuter: int | None


class CardShown(_Event):
    """Private to the two: the card shown for a Suggestion or a Super Sleuth."""

    type: Literal["card_shown"] = "card_shown"
    seat: int
    """Who showed it."""
    to: int
    card: str
    reason: Literal["suggestion", "super_sleuth"]


class SnoopPlayed(_Event):
    type: Literal["snoop_played"] = "snoop_played"
    seat: int
    target: int


class SnoopedCard(_Event):
    """Private to the looker: the card it turned over (Snoop or All Snoop)."""

    type: Literal["snooped_card"] = "snooped_card"
    seat: int
    target: int
    position: int
    card: str
    reason: Literal["snoop", "all_snoop"]


class AllSnoopPlayed(_Event):
    type: Literal["all_snoop_played"] = "all_snoop_played"
    seat: int
    direction: Direction
    looks_at: list[int]
    """looks_at[i]: the seat whose hand seat i looks at."""


class CardPicked(_Event):
    """Public: a looker has picked (which position and card stay secret)."""

    type: Literal["card_picked"] = "card_picked"
    seat: int
    target: int
    reason: Literal["snoop", "all_snoop"]


class SleuthPlayed(_Event):
    type: Literal["sleuth_played"] = "sleuth_played"
    seat: int
    card: str
    order: list[int]
    """The opponents, in the order they answer."""


class SleuthAnswered(_Event):
    """Public: `seat` showed a card to the sleuth (or showed nothing), not which nor how
    many it could have shown."""

    type: Literal["sleuth_answered"] = "sleuth_answered"
    seat: int
    to: int
    showed: bool


class TipPassed(_Event):
    """Public: only that a Private Tip passed. Private to the two: which tip (`card`)."""

    type: Literal["tip_passed"] = "tip_passed"
    seat: int
    target: int
    card: str | None = None


class TipAnswered(_Event):
    """Public: the tip is answered. Private to the two: the cards returned."""

    type: Literal["tip_answered"] = "tip_answered"
    seat: int
    """Who answered."""
    to: int
    cards: list[str] | None = None


class AccusationMade(_Event):
    """Public: who accused and whether right (a right one names the solution to all).
    Private to the accuser: what they named and the solution they saw."""

    type: Literal["accusation_made"] = "accusation_made"
    seat: int
    correct: bool
    named: Triple | None = None
    solution: Triple | None = None


class ActionHandDiscarded(_Event):
    """A wrong accuser's Action hand goes to the discard, face down: the public event has
    None for each card (the secrecy contract: it was never played), the accuser's the cards."""

    type: Literal["action_hand_discarded"] = "action_hand_discarded"
    seat: int
    cards: list[str | None]


class TurnEnded(_Event):
    type: Literal["turn_ended"] = "turn_ended"
    seat: int


class RoundOver(_Event):
    """The reveal of one finished game: the solution and every Clue hand."""

    type: Literal["round_over"] = "round_over"
    round: int
    winner: int | None
    how: RoundEnd
    reason: str
    solution: Triple | None
    hands: list[list[str]]
    scores: list[int]


class GameOver(_Event):
    """The end of the table (series won, single game over, or abandoned), with the reveal of
    its last game; earlier games of a series were revealed by their own `RoundOver`."""

    type: Literal["game_over"] = "game_over"
    master: int | None
    """The seat that solved the agreed number of crimes (with `series_wins` 1: solved the
    game); None: nobody did."""
    winner: int | None = None
    """The table's winner: the Master Detective, or the fugitive who escaped in a single
    game (an escape wins its game but solves no crime)."""
    reason: str
    scores: list[int]
    rounds: int
    """Games played in the series."""
    solution: Triple | None
    """The last game's solution (None if the table ended before the fugitive chose it)."""
    hands: list[list[str]]
    """The last game's Clue hands, by seat."""


Event = Annotated[
    GameStarted
    | RoundStarted
    | SolutionChosen
    | HandDealt
    | TableDealt
    | PromptOpened
    | TurnStarted
    | ActionDrawn
    | DrawPileReshuffled
    | ActionBurned
    | MarkersSwapped
    | SuggestionMade
    | SuggestionAnswered
    | CardShown
    | SnoopPlayed
    | SnoopedCard
    | AllSnoopPlayed
    | CardPicked
    | SleuthPlayed
    | SleuthAnswered
    | TipPassed
    | TipAnswered
    | AccusationMade
    | ActionHandDiscarded
    | TurnEnded
    | RoundOver
    | GameOver,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
