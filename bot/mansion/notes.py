"""`/mansion notes`: a seat's grid of the 21 Clue cards by player and solution.

The grid is the engine's (`engine.mansion.notes.notes(view, assist)`), computed from one
seat's PlayerView only at the table's assist level; this module only draws it: one code
block per kind, a column per seat and ★ for the solution, and at `full` the chance of each
card being in the solution and the likeliest solutions.
"""

from __future__ import annotations

import logging

import discord

from bot.errors import UserError
from bot.i18n import N_, tr
from bot.interactions import language_of
from bot.mansion import words
from bot.mansion.coaching import advice_for, explain_for, hint_due, hint_text, why_text
from bot.mansion.render.labels import TITLE, clip, triple_text
from bot.mansion.settings import MansionSettings
from bot.mansion.shown import notes_grid_picture
from bot.mansion.words import KIND_PLURAL, card_name
from bot.messages import COLOUR_SECRET, FIELD_LIMIT, Outgoing
from bot.models import Table
from bot.thinking import think
from engine.mansion import choices
from engine.mansion.cards import BY_KIND, CLUES
from engine.mansion.coach import Advice
from engine.mansion.deduction import Inconsistent
from engine.mansion.notes import Mark, Notes, dealt, notes
from engine.mansion.records import Triple
from engine.mansion.views import PlayerView

log = logging.getLogger(__name__)

SYMBOL: dict[Mark, str] = {"held": "X", "not_held": "-", "unknown": "."}
TOP = 5
"""Likeliest solutions listed at `full`."""


def notes_embed(grid: Notes, view: PlayerView, lang: str) -> discord.Embed:
    """The grid, one code block per kind: a column per seat and ★ for the solution."""
    embed = discord.Embed(title=tr(lang, "📓 Your notes — {title}", title=TITLE),
                          colour=COLOUR_SECRET)
    heads = [_head(lang, s.name, i == view.seat) for i, s in enumerate(view.seats)] + [" ★ "]
    width = max(len(card_name(lang, c)) for c in CLUES)
    odds = grid.assist == "full"
    for kind, cards in BY_KIND.items():
        plural = tr(lang, KIND_PLURAL[kind])
        head = f"{plural:<{width}} {''.join(heads)}" + ("   %" if odds else "")
        rows = [head.rstrip()]
        for card in cards:
            row = grid.row(card)
            cells = "".join(f" {SYMBOL[m]}  " for m in [*row.marks, row.solution]).rstrip()
            tail = ""
            if odds and row.solution_probability is not None:
                tail = f" {row.solution_probability:>4.0%}"
            rows.append(f"{card_name(lang, card):<{width}} {cells:<{4 * len(heads) - 2}}{tail}")
        embed.add_field(name=plural,
                        value=clip("```\n" + "\n".join(rows) + "\n```", FIELD_LIMIT), inline=False)
    if grid.solved is not None:
        embed.add_field(name=tr(lang, "🔓 Solved"), value=triple_text(lang, grid.solved),
                        inline=False)
    elif odds and grid.solutions:
        lines = [f"{o.probability:>4.0%} {triple_text(lang, o.solution)}"
                 for o in grid.solutions[:TOP]]
        embed.add_field(name=tr(lang, "🎯 {possible} possible solutions; the likeliest",
                                possible=grid.possible),
                        value=clip("\n".join(lines), FIELD_LIMIT), inline=False)
    legend = tr(lang, "X holds it · - does not · . unknown · ★ the solution")
    if odds:
        legend += " · " + tr(lang, "% the chance it is in the solution")
    embed.description = tr(lang, "Assist **{assist}**: {note}",
                           assist=tr(lang, ASSIST[grid.assist]),
                           note=tr(lang, ASSIST_NOTE[grid.assist])) + f"\n{legend}."
    columns = ", ".join(f"{_head(lang, s.name, i == view.seat).strip()} = {s.name}"
                        for i, s in enumerate(view.seats))
    embed.set_footer(text=clip(tr(lang, "Only you see this.") + " " + columns, 2048))
    return embed


ASSIST = {"off": N_("off"), "bookkeeping": N_("bookkeeping"), "full": N_("full")}
"""The assist levels' names as the notes say them (the `assist` option's choices)."""
ASSIST_NOTE = {
    "off": N_("your hand and the cards you saw; the rest is yours to work out."),
    "bookkeeping": N_("also crosses out what every answer rules out directly."),
    "full": N_("every deduction from what you observed, with the odds."),
}


async def notes_answer(interaction: discord.Interaction, table: Table, view: PlayerView,
                       why: str | None = None) -> Outgoing:
    """`/mansion notes` and the Notes button: the notes, with the coach's hint at full assist
    when it is the seat's turn to play; with `why` (a card), why the notes mark it so."""
    lang = await language_of(interaction)
    if why is not None:
        card = words.CARD_WORDS.find(why)
        if card is None:
            raise UserError("There is no card called '{name}'.", name=why[:40])
        assist = MansionSettings.model_validate(table.options).assist
        return Outgoing.of(why_text(view, assist, await explain_for(interaction, view, card),
                                    lang))
    advice = choice = None
    if MansionSettings.model_validate(table.options).assist == "full":
        if hint_due(view):
            advice = await advice_for(interaction, view)
        choice = await think(interaction, choice_text, view, lang)
    return notes_message(table, view, lang, advice, choice)


def notes_message(table: Table, view: PlayerView, lang: str, advice: Advice | None = None,
                  choice: str | None = None) -> Outgoing:
    """The notes (ephemeral); with the coach's `advice` as a Hint field, and the odds
    accounting for how players choose (`choice_text`, full assist) beside the exact ones."""
    if view.phase == "choosing_solution":
        return Outgoing(content=tr(lang, "📓 Nothing to note yet: the cards are dealt once the "
                                         "fugitive has chosen the solution."))
    assist = MansionSettings.model_validate(table.options).assist
    try:
        grid = notes(view, assist)
    except Inconsistent:
        # The exact solver found no deal agreeing with the record: never expected for a real
        # seat. Show the pen-and-paper level rather than nothing, and say so.
        log.warning("notes: no consistent deal for seat %s; showing bookkeeping", view.seat)
        grid = notes(view, "bookkeeping")
    shown = notes_grid_picture(grid, view, lang, embed=0)
    embed = notes_embed(grid, view, lang)
    if choice is not None and grid.assist == "full":
        embed.add_field(name=tr(lang, CHOICE_ODDS), value=clip(choice, FIELD_LIMIT), inline=False)
    if advice is not None:
        embed.add_field(name=tr(lang, "Hint"),
                        value=clip(hint_text(view, advice, lang), FIELD_LIMIT), inline=False)
    return Outgoing.of(embeds=[embed], pictures=[shown] if shown else [])


CHOICE_ODDS = N_("Odds, accounting for how players choose")


def choice_text(view: PlayerView, lang: str) -> str | None:
    """The likeliest solutions if the cards shown and tipped to you were chosen as careful
    players choose (`engine.mansion.choices`), beside the exact odds above; None once the
    solution is certain, or before the deal."""
    if not dealt(view):
        return None
    try:
        d, odds = choices.odds(view)
    except Inconsistent:  # as for the notes: never expected for a real seat
        return None
    if d.certain() is not None:
        return None
    lines = [
        f"{odds.triple_probability(t):>4.0%} {triple_text(lang, _triple(t))}"
        for t in odds.likeliest()[:3]
    ]
    return "\n".join(lines) + "\n" + tr(lang, "*if what was shown you was what reveals least, "
                                              "as careful players show*")


def _triple(t: tuple[str, str, str]) -> Triple:
    return Triple(suspect=t[0], vehicle=t[1], destination=t[2])


def _head(lang: str, name: str, me: bool) -> str:
    short = tr(lang, "You") if me else (name.replace(" ", "")[:3] or "?")
    return f"{short:<3} "
