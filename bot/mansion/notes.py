"""`/mansion notes`: a seat's grid of the 21 Clue cards by player and solution.

The marks come from one seat's PlayerView only. `direct_grid` fills in what the view shows
directly (own hand, cards shown, snooped and tipped, who could not disprove what).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import discord

from bot.mansion.render.embeds import COLOUR_SECRET, FIELD
from bot.mansion.render.labels import KIND_PLURAL, TITLE, card_name, clip
from bot.mansion.settings import MansionSettings
from bot.messages import Outgoing
from bot.models import Table
from engine.mansion.cards import ACTIONS, BY_KIND, CLUES, matches
from engine.mansion.observations import SleuthSeen, SuggestionSeen
from engine.mansion.views import PlayerView

Mark = Literal["has", "not", "unknown"]
SYMBOL: dict[Mark, str] = {"has": "X", "not": "-", "unknown": "."}


@dataclass
class Grid:
    """Card → one mark per seat, then one for the solution; optional odds per card."""

    names: list[str]
    marks: dict[str, list[Mark]]
    solution_odds: dict[str, float] = field(default_factory=dict)
    """Card → the chance it is in the solution (exact assist only)."""
    note: str = ""


def direct_grid(view: PlayerView) -> Grid:
    """What the view shows directly, with the bookkeeping that follows from one fact at a
    time (a known holder rules out every other column)."""
    players = len(view.seats)
    marks: dict[str, list[Mark]] = {c: ["unknown"] * (players + 1) for c in CLUES}

    def holds(card: str, col: int) -> None:
        marks[card] = ["not"] * (players + 1)
        marks[card][col] = "has"

    def lacks(card: str, col: int) -> None:
        if marks[card][col] == "unknown":
            marks[card][col] = "not"

    for entry in view.observations:
        if isinstance(entry, SuggestionSeen):
            for seat in entry.passed:
                for card in entry.named.cards():
                    lacks(card, seat)
        elif isinstance(entry, SleuthSeen):
            for answer in entry.answers:
                if answer.showed is False:
                    for card in CLUES:
                        if matches(card, ACTIONS[entry.card]):
                            lacks(card, answer.seat)
    for card in CLUES:
        if card not in view.clues:
            lacks(card, view.seat)
    for card, holder in view.known_holders().items():
        holds(card, holder)
    if view.solution is not None:
        for card in view.solution.cards():
            holds(card, players)
    return Grid(names=[s.name for s in view.seats], marks=marks)


def notes_embed(grid: Grid, view: PlayerView, assist: str) -> discord.Embed:
    """The grid, one code block per kind: a column per seat and ★ for the solution."""
    embed = discord.Embed(title=f"📓 Your notes — {TITLE}", colour=COLOUR_SECRET)
    heads = [_head(name, i == view.seat) for i, name in enumerate(grid.names)] + [" ★ "]
    width = max(len(card_name(c)) for c in CLUES)
    for kind, cards in BY_KIND.items():
        rows = [f"{KIND_PLURAL[kind]:<{width}} {''.join(heads)}"]
        for card in cards:
            cells = "".join(f" {SYMBOL[m]}  " for m in grid.marks[card])
            odds = grid.solution_odds.get(card)
            tail = f" {odds:>4.0%}" if odds is not None else ""
            rows.append(f"{card_name(card):<{width}} {cells.rstrip()}{tail}")
        embed.add_field(name=KIND_PLURAL[kind], value=clip("```\n" + "\n".join(rows) + "\n```",
                                                            FIELD), inline=False)
    legend = "X holds it · - does not · . unknown · ★ the solution"
    if grid.solution_odds:
        legend += " · % chance it is in the solution"
    embed.description = grid.note or f"Assist: **{assist}**. {legend}."
    embed.set_footer(text="Only you see this. Columns: " + ", ".join(
        f"{_head(n, i == view.seat).strip()} = {n}" for i, n in enumerate(grid.names))[:2000])
    return embed


def _head(name: str, me: bool) -> str:
    short = "You" if me else (name.replace(" ", "")[:3] or "?")
    return f"{short:<3} "


def seat_grid(view: PlayerView, assist: str) -> Grid:
    """The seat's grid at the table's assist level."""
    return direct_grid(view)


def notes_message(table: Table, view: PlayerView) -> Outgoing:
    """`/mansion notes` and the Notes button (ephemeral)."""
    assist = MansionSettings.model_validate(table.options).assist
    return Outgoing.of(embeds=[notes_embed(seat_grid(view, assist), view, assist)])
