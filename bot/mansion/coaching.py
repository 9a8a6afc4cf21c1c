"""The Mansion coach at the table: the Hint (full assist only), in the turn panel and the
notes, and why a card stands as it does in the notes (`/mansion notes why:<card>`). Both
read the member's own `PlayerView` and nothing else, so they can tell only what the seat
could work out itself."""

from __future__ import annotations

import discord

from bot.mansion.render.labels import Voice, action_name, card_label, card_name, triple_text
from bot.mansion.render.lines import voice
from bot.plug import Assist
from bot.thinking import ranked_hint, think
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
from engine.mansion.coach import SAMPLES, Advice, Play, Rated, advise
from engine.mansion.facts import INDEX
from engine.mansion.notes import bookkeeping
from engine.mansion.observations import (
    AllSnoopSeen,
    SleuthSeen,
    SnoopSeen,
    SuggestionSeen,
    TipSeen,
)
from engine.mansion.records import Triple
from engine.mansion.views import PlayerView
from engine.mansion.why import SOLUTION_SEEN, Why, explain


def play_text(v: Voice, here: str, move: Play | Accuse) -> str:
    """ "Suggest Mr. Green, Train from The Alamo (Suggestion from ANY)", "Snoop **Bea**";
    `here`: the player's marker (a Suggestion from PRESENT is made there)."""
    match move:
        case SuggestAny():
            return (f"Suggest {card_label(move.suspect)}, {card_label(move.vehicle)} from "
                    f"{card_label(move.destination)} ({action_name('suggest_any')})")
        case SuggestPresent():
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
            return "Accuse " + triple_text(
                Triple(suspect=move.suspect, vehicle=move.vehicle, destination=move.destination))


def rated_text(v: Voice, view: PlayerView, rated: Rated, solutions: int) -> str:
    here = view.seats[view.seat].marker
    return (f"{play_text(v, here, rated.move)}: leaves {rated.left:.1f} of {solutions} "
            f"possible solutions on average")


def hint_text(view: PlayerView, advice: Advice) -> str:
    """The top three plays with their figures, or the accusation once it is certain."""
    v = voice(view, view.seat)
    here = view.seats[view.seat].marker
    certain = play_text(v, here, advice.accusation) if advice.accusation is not None else None
    if certain is None and not advice.ranked:
        return "💡 No play to rank now: hints are for your turn, before you play your card."
    return ranked_hint(
        certain, f"**Best next plays** ({advice.solutions} possible solutions now):",
        [rated_text(v, view, r, advice.solutions) for r in advice.top()],
        "Ranked by the possible solutions expected to be left after the outcome, over the "
        f"deals you cannot rule out (outcome chances from {SAMPLES} sampled deals).")


async def advice_for(interaction: discord.Interaction, view: PlayerView) -> Advice:
    """The coach's ranking for this view, off the event loop."""
    return await think(interaction, advise, view)


def hint_due(view: PlayerView) -> bool:
    """The seat is to play a card: the moment a hint is for."""
    return view.prompt is not None and view.prompt.kind == "play"


# why ------------------------------------------------------------------------------------------


def why_text(view: PlayerView, assist: Assist, why: Why) -> str:
    """Why the notes show `why.card` as they do, in one short chain from what the seat saw."""
    name = f"**{card_name(why.card)}**"
    v = voice(view, view.seat)
    if why.verdict == "mine":
        return f"{name} is in your hand."
    if assist == "off":
        return (f"Assist is off at this table: your notes hold your hand and the cards you "
                f"saw, so there is no deduction about {name} to explain.")
    if why.verdict == "open" or (assist == "bookkeeping" and not _bookkept(view, why)):
        odds = (f": in the solution in {why.probability:.0%} of the deals you cannot rule out"
                if assist == "full" else ": nothing you saw settles it directly")
        return f"{name} is still open{odds}."
    verdict = {
        "held": f"is held by {v.who(why.holder or 0)}",
        "solution": "is in the solution",
        "not_solution": "is not in the solution",
    }[why.verdict]
    if not why.premises:
        return f"{name} {verdict}: your hand and the hand sizes alone say so."
    facts = [fact_text(view, v, i) for i in why.premises]
    if len(facts) == 1:
        return f"{name} {verdict}: {facts[0]}."
    return f"{name} {verdict}, from these together: " + "; ".join(facts) + "."


def _bookkept(view: PlayerView, why: Why) -> bool:
    """The bookkeeping sheet shows this verdict too (pen and paper reach it)."""
    sheet = bookkeeping(view)
    bit = 1 << INDEX[why.card]
    match why.verdict:
        case "held":
            return bool(sheet.held[why.holder or 0] & bit)
        case "solution":
            return bool(sheet.solution & bit)
        case _:
            return bool(sheet.none[-1] & bit)


def fact_text(view: PlayerView, v: Voice, index: int) -> str:
    """One observation of the chain, as the seat saw it."""
    if index == SOLUTION_SEEN:
        return "you saw the solution"
    entry = view.observations[index]
    match entry:
        case SuggestionSeen():
            named = ", ".join(card_name(c) for c in entry.named.cards())
            parts = [f"{v.who(entry.seat)} suggested {named}"]
            if entry.passed:
                parts.append(f"{v.names_list(entry.passed)} could not disprove it")
            if entry.refuter is None:
                parts.append("nobody could disprove it")
            elif entry.shown is not None:
                parts.append(f"{v.who(entry.refuter)} showed {card_name(entry.shown)}")
            else:
                parts.append(f"{v.who(entry.refuter)} showed a card")
            return ", ".join(parts)
        case SnoopSeen():
            return f"you snooped {v.who(entry.target)} and saw {card_name(entry.card or '')}"
        case AllSnoopSeen():
            target = next(look.target for look in entry.looks if look.looker == view.seat)
            return (f"in the All Snoop you saw {card_name(entry.card or '')} in "
                    f"{v.whose(target)} hand")
        case SleuthSeen():
            answers = [
                f"{v.who(a.seat)} showed " + (card_name(a.card) if a.card else "a card")
                if a.showed is not False else f"{v.who(a.seat)} had none"
                for a in entry.answers
            ]
            return f"{v.who(entry.seat)} played {action_name(entry.card)}: " + ", ".join(answers)
        case TipSeen():
            returned = ", ".join(card_name(c) for c in entry.cards or []) or "nothing"
            return (f"{v.who(entry.target)} returned {returned} for your "
                    f"{action_name(entry.card or '')}")
    return "what you saw"


async def explain_for(interaction: discord.Interaction, view: PlayerView, card: str) -> Why:
    """The chain for `card` (a few exact solves), off the event loop."""
    return await think(interaction, explain, view, card)
