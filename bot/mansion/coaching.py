"""The Mansion coach at the table: the Hint (full assist only), in the turn panel and the
notes. It reads the member's own `PlayerView` and nothing else, so it can tell only what
the seat could work out itself."""

from __future__ import annotations

import discord

from bot.mansion.render.labels import Voice, action_name, card_label
from bot.mansion.render.lines import voice
from bot.thinking import think
from engine.mansion.actions import (
    Accuse,
    AllSnoop,
    Move,
    PrivateTip,
    Snoop,
    SuggestAny,
    SuggestPresent,
    SuperSleuth,
)
from engine.mansion.coach import Advice, Play, Rated, advise
from engine.mansion.views import PlayerView


def play_text(v: Voice, view: PlayerView, move: Play | Accuse) -> str:
    """ "Suggest Mr. Green, Train from The Alamo (Suggestion from ANY)", "Snoop **Bea**"."""
    match move:
        case SuggestAny():
            return (f"Suggest {card_label(move.suspect)}, {card_label(move.vehicle)} from "
                    f"{card_label(move.destination)} ({action_name('suggest_any')})")
        case SuggestPresent():
            here = view.seats[view.seat].marker
            return (f"Suggest {card_label(move.suspect)}, {card_label(move.vehicle)} from "
                    f"{card_label(here)} ({action_name('suggest_present')})")
        case Move():
            return f"Move to {card_label(move.destination)}, without a suggestion"
        case Snoop():
            return f"Snoop {v.who(move.target)}"
        case AllSnoop() | SuperSleuth():
            return f"Play {action_name(move.card)}"
        case PrivateTip():
            return f"Pass {action_name(move.card)} to {v.who(move.target)}"
        case Accuse():
            named = (move.suspect, move.vehicle, move.destination)
            return "Accuse " + ", ".join(card_label(c) for c in named)


def rated_text(v: Voice, view: PlayerView, rated: Rated, solutions: int) -> str:
    return (f"{play_text(v, view, rated.move)}: leaves {rated.left:.1f} of {solutions} "
            f"possible solutions on average")


def hint_text(view: PlayerView, advice: Advice) -> str:
    """The top three plays with their figures, or the accusation once it is certain."""
    v = voice(view, view.seat)
    if advice.accusation is not None:
        return f"💡 **Certain**: {play_text(v, view, advice.accusation)}."
    if not advice.ranked:
        return "💡 No play to rank now: hints are for your turn, before you play your card."
    lines = [f"💡 **Best next plays** ({advice.solutions} possible solutions now):"]
    lines += [f"{i}. {rated_text(v, view, r, advice.solutions)}"
              for i, r in enumerate(advice.top(), start=1)]
    lines.append("-# Ranked by the possible solutions expected to be left after the outcome, "
                 "over the deals you cannot rule out (outcome chances from 256 sampled deals).")
    return "\n".join(lines)


async def advice_for(interaction: discord.Interaction, view: PlayerView) -> Advice:
    """The coach's ranking for this view, off the event loop."""
    return await think(interaction, advise, view)


def hint_due(view: PlayerView) -> bool:
    """The seat is to play a card: the moment a hint is for."""
    return view.prompt is not None and view.prompt.kind == "play"
