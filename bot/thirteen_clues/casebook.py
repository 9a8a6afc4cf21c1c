"""The casebook: one seat's grid of candidates, helped as much as the table's assist level says.

`off`: only the marks the player sets by hand; `bookkeeping`: removed suits, visible cards and
zero answers crossed out automatically; `full`: the exact deduction with probabilities.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.components import Locate, values
from bot.errors import UserError
from bot.i18n import N_, tr
from bot.interactions import language_of, place_of, run, tables_of
from bot.messages import Outgoing
from bot.models import Table
from bot.plug import TableSettings
from bot.thinking import think
from bot.thirteen_clues import words
from bot.thirteen_clues.coaching import advice_for, deducible, hint_text, why_text
from bot.thirteen_clues.family import OWN, Family, custom_id
from bot.thirteen_clues.shown import casebook_picture
from bot.thirteen_clues.words import SUIT_EMOJI, card_name
from engine.thirteen_clues import choices, player_view
from engine.thirteen_clues.cards import CARDS, Category, suits_in_play
from engine.thirteen_clues.coach import Advice
from engine.thirteen_clues.deduction import Deduction, bookkeeping, solve
from engine.thirteen_clues.views import PlayerView

Marks = dict[str, str]
"""card → "ruled_out" | "candidate" | "certain", as the casebook shows it."""

_ICON = {"ruled_out": "✖", "candidate": "▫️", "certain": "✅"}


def assist_marks(view: PlayerView, assist: str, manual: set[str]) -> tuple[Marks, Deduction | None]:
    """The marks the casebook shows, and the deduction behind them at the `full` level."""
    suits = suits_in_play(view.options.players)
    in_play = [c for c in CARDS if CARDS[c].suit in suits]
    if assist == "full" and deducible(view):
        deduction = solve(view)
        return {c: deduction.status(c) for c in in_play}, deduction
    marks = {c: "candidate" for c in in_play}
    if assist in ("bookkeeping", "full"):
        marks.update({c: m for c, m in bookkeeping(view).items() if c in marks})
    for card in manual & set(marks):
        marks[card] = "ruled_out"
    return marks, None


def casebook_message(lang: str, table: Table, view: PlayerView, notes: dict[str, Any], *,
                     advice: Advice | None = None, why: str | None = None,
                     choice: str | None = None) -> Outgoing:
    """The casebook; with the coach's `advice` (full assist, in play), the odds accounting
    for how players choose (`choice_text`, full assist) and, when asked, why one card is
    marked as it is."""
    assist = TableSettings.model_validate(table.options).assist
    manual = set(notes.get("ruled_out", []))
    marks, deduction = assist_marks(view, assist, manual)
    marking = assist != "full" and view.phase != "over"
    embed = _embed(lang, view, assist, marks, deduction)
    if deduction is not None:
        _add_choice_odds(lang, embed, choice)
    if advice is not None and assist == "full":
        embed.add_field(name=tr(lang, "Hint"), value=hint_text(lang, view, advice)[:1024],
                        inline=False)
    return Outgoing.of(
        why_text(lang, view, assist, why, manual) if why is not None else None,
        embeds=[embed],
        view=_marking_view(lang, table.id, marks, manual) if marking else None,
        pictures=[casebook_picture(view, lang, embed=0)] if deduction is not None else [],
    )


CHOICE_ODDS = N_("Odds, accounting for how players choose")


def choice_text(lang: str, view: PlayerView, solved: Deduction | None = None) -> str | None:
    """The likeliest mysteries if whoever filled your holder passed as careful players do
    (`engine.thirteen_clues.choices`), beside the exact odds above; None once certain.
    `solved`: `solve(view)`, whose counts the odds go on from."""
    odds = choices.odds(view, solved=solved)
    if len(odds.triples) <= 1:
        return None
    lines = [
        f"{odds.triple_probability(t):.0%} — " + ", ".join(card_name(lang, c) for c in t)
        for t in odds.likeliest()[:3]
    ]
    return "\n".join([*lines, tr(lang, "*if your holder's passer mixed suits, as careful "
                                        "players do*")])


def _add_choice_odds(lang: str, embed: discord.Embed, choice: str | None) -> None:
    """The choice odds as a field of their own, apart from the exact marks and odds."""
    if choice is not None:
        embed.add_field(name=tr(lang, CHOICE_ODDS), value=choice[:1024], inline=False)


def casebook_update(lang: str, before: PlayerView, after: PlayerView, assist: str
                    ) -> discord.Embed | None:
    """The casebook after an answer, if that answer matters to this seat (worth a DM): with
    `full` assist, it ruled out a possible mystery (the DM then carries the choice odds, as
    the ephemeral casebook does); with `bookkeeping`, it crossed out a card."""
    if assist == "off":
        return None
    old_marks, old_deduction = assist_marks(before, assist, set())
    marks, deduction = assist_marks(after, assist, set())
    if deduction is not None and old_deduction is not None:
        changed = set(deduction.triples) != set(old_deduction.triples)
    else:
        changed = marks != old_marks
    if not changed:
        return None
    embed = _embed(lang, after, assist, marks, deduction)
    if deduction is not None:
        _add_choice_odds(lang, embed, choice_text(lang, after, deduction))
    return embed


def _embed(
    lang: str, view: PlayerView, assist: str, marks: Marks, deduction: Deduction | None
) -> discord.Embed:
    lines = []
    for suit in suits_in_play(view.options.players):
        cells = [_cell(lang, c, marks, deduction) for c in CARDS if CARDS[c].suit == suit]
        lines.append(f"{SUIT_EMOJI[suit]} " + " · ".join(cells))
    embed = discord.Embed(
        title=tr(lang, "📓 Your casebook"),
        description="\n".join(lines),
        colour=discord.Colour.dark_teal(),
    )
    if deduction is not None:
        solved = deduction.certain()
        summary = (
            tr(lang, "**Solved**: {cards}", cards=", ".join(card_name(lang, c) for c in solved))
            if solved
            else "\n".join(
                f"{deduction.triple_probability(t):.0%} — "
                + ", ".join(card_name(lang, c) for c in t)
                for t in deduction.candidates()[:5]
            )
        )
        embed.add_field(
            name=tr(lang, "Possible mysteries: {n}", n=len(deduction.triples)),
            value=summary[:1024],
        )
    footer = _FOOTER[assist] if deduction is not None or assist != "full" else _FOOTER[
        "full_later"]
    embed.set_footer(text=tr(lang, footer))
    return embed


def _cell(lang: str, card: str, marks: Marks, deduction: Deduction | None) -> str:
    name = card_name(lang, card)
    status = marks[card]
    if status == "ruled_out":
        return f"~~{name}~~"
    if status == "certain":
        return f"✅ **{name}**"
    if deduction is not None:
        return f"**{name}** {deduction.probability(card):.0%}"
    return f"**{name}**"


def _marking_view(lang: str, table_id: int, marks: Marks, manual: set[str]
                  ) -> discord.ui.View:
    """One select per category: the cards you cross out by hand (kept per seat)."""
    items = discord.ui.View(timeout=None)
    for category in Category:
        options = [
            discord.SelectOption(
                label=card_name(lang, c), value=c, emoji=SUIT_EMOJI[CARDS[c].suit],
                default=c in manual,
            )
            for c, m in marks.items() if CARDS[c].category == category
        ]
        items.add_item(discord.ui.Select(
            custom_id=custom_id("mark", table_id, None, category.value),
            placeholder=tr(lang, _CROSS_OUT[category]),
            min_values=0, max_values=len(options), options=options,
        ))
    return items


_CROSS_OUT = {
    Category.PERSON: N_("Cross out persons…"),
    Category.LOCATION: N_("Cross out locations…"),
    Category.WEAPON: N_("Cross out weapons…"),
}
_FOOTER = {
    "off": N_("Assist off: cross out cards yourself with the menus below."),
    "bookkeeping": N_("Assist: bookkeeping (seen cards and zero answers are crossed out)."),
    "full": N_("Assist: full deduction over every answer you know (exact probabilities)."),
    "full_later": N_("Assist: full deduction, from the moment every card holder is filled "
                     "(after the pass); until then, bookkeeping."),
}


def with_marks(notes: dict[str, Any], category: str, chosen: list[str]) -> dict[str, Any]:
    """The seat's notes after it set the crossed-out cards of one category."""
    kept = [c for c in notes.get("ruled_out", []) if CARDS[c].category != category]
    return {**notes, "ruled_out": sorted({*kept, *(c for c in chosen if c in CARDS)})}


class MarkSelect(Family, template=r"13c:(?P<verb>mark):(?P<table>\d+):(?P<stamp>-):"
                                  r"(?P<draft>person|location|weapon)"):
    """The casebook's menus: a seat's marks, written under the table lock."""

    async def clicked(self, interaction: discord.Interaction) -> None:
        chosen = values(interaction)
        table, state, seat, notes = await tables_of(interaction).write_notes(
            self.click.table_id, interaction.user.id,
            lambda notes: with_marks(notes, self.click.draft, chosen),
            place=place_of(interaction),
        )
        out = casebook_message(await language_of(interaction), table,
                               player_view(OWN.state(state), seat), notes)
        await interaction.response.edit_message(**out.reply_kwargs())


async def show_casebook(interaction: discord.Interaction, locate: Locate,
                        why: str | None = None) -> None:
    """The casebook, ephemeral: with the hint at full assist while the game is in play, and
    with why one card is marked as it is when `why` names it."""
    async def work() -> Outgoing:
        card = None
        if why is not None:
            card = words.CARD_WORDS.find(why)
            if card is None:
                raise UserError("There is no card called '{name}'.", name=why[:40])
        table = await locate()
        tables = tables_of(interaction)
        seat = tables.seat(table, interaction.user.id)
        notes = await tables.notes(table, seat)
        view = player_view(OWN.state(tables.state_of(table)), seat)
        full = TableSettings.model_validate(table.options).assist == "full"
        hint = full and view.phase == "turns" and deducible(view)
        advice = await advice_for(interaction, view) if hint else None
        odds = full and deducible(view)
        lang = await language_of(interaction)
        choice = await think(interaction, choice_text, lang, view) if odds else None
        return casebook_message(lang, table, view, notes, advice=advice, why=card,
                                choice=choice)

    await run(interaction, work)
