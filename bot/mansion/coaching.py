"""The Mansion coach at the table: the Hint (full assist only), in the turn panel and the
notes, and why a card stands as it does in the notes (`/mansion notes why:<card>`). Both
read the member's own `PlayerView` and nothing else, so they can tell only what the seat
could work out itself."""

from __future__ import annotations

import discord

from bot.i18n import N_, tr
from bot.mansion.render.labels import Voice, action_name, names, triple_text
from bot.mansion.render.lines import voice
from bot.mansion.words import card_label, card_name
from bot.plug import Assist
from bot.thinking import ranked_hint, think
from engine.mansion import actions as act
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


def play_text(v: Voice, here: str, move: Play | act.Accuse) -> str:
    """ "Suggest Mr. Green, Train from The Alamo (Suggestion from ANY)", "Snoop **Bea**";
    `here`: the player's marker (a Suggestion from PRESENT is made there)."""
    lang = v.lang
    match move:
        case act.SuggestAny() | act.SuggestPresent():
            anywhere = isinstance(move, act.SuggestAny)
            where = move.destination if isinstance(move, act.SuggestAny) else here
            return tr(lang, "Suggest {suspect}, {vehicle} from {place} ({card})",
                      suspect=card_label(lang, move.suspect),
                      vehicle=card_label(lang, move.vehicle), place=card_label(lang, where),
                      card=action_name(lang, "suggest_any" if anywhere else "suggest_present"))
        case act.Move():
            return tr(lang, "Move to {place}, without a suggestion",
                      place=card_label(lang, move.destination))
        case act.Snoop():
            return tr(lang, "Snoop {seat}", seat=v.who(move.target))
        case act.AllSnoop() | act.SuperSleuth():
            return tr(lang, "Play {card}", card=action_name(lang, move.card))
        case act.PrivateTip():
            return tr(lang, "Pass {card} to {seat}", card=action_name(lang, move.card),
                      seat=v.who(move.target))
        case act.Accuse():
            return tr(lang, "Accuse {named}", named=triple_text(lang, Triple(
                suspect=move.suspect, vehicle=move.vehicle, destination=move.destination)))


def rated_text(v: Voice, view: PlayerView, rated: Rated, solutions: int) -> str:
    here = view.seats[view.seat].marker
    return tr(v.lang, "{play}: leaves {left} of {solutions} possible solutions on average",
              play=play_text(v, here, rated.move), left=f"{rated.left:.1f}", solutions=solutions)


def hint_text(view: PlayerView, advice: Advice, lang: str) -> str:
    """The top three plays with their figures, or the accusation once it is certain."""
    v = voice(view, view.seat, lang)
    here = view.seats[view.seat].marker
    certain = play_text(v, here, advice.accusation) if advice.accusation is not None else None
    if certain is None and not advice.ranked:
        return tr(lang, "💡 No play to rank now: hints are for your turn, before you play your "
                        "card.")
    return ranked_hint(
        lang, certain, tr(lang, "**Best next plays** ({solutions} possible solutions now):",
                    solutions=advice.solutions),
        [rated_text(v, view, r, advice.solutions) for r in advice.top()],
        tr(lang, "Ranked by the possible solutions expected to be left after the outcome, over "
                 "the deals you cannot rule out (outcome chances from {samples} sampled deals).",
           samples=SAMPLES))


async def advice_for(interaction: discord.Interaction, view: PlayerView) -> Advice:
    """The coach's ranking for this view, off the event loop."""
    return await think(interaction, advise, view)


def hint_due(view: PlayerView) -> bool:
    """The seat is to play a card: the moment a hint is for."""
    return view.prompt is not None and view.prompt.kind == "play"


# why ------------------------------------------------------------------------------------------


VERDICTS = {
    "solution": N_("{name} is in the solution"),
    "not_solution": N_("{name} is not in the solution"),
}


def why_text(view: PlayerView, assist: Assist, why: Why, lang: str) -> str:
    """Why the notes show `why.card` as they do, in one short chain from what the seat saw."""
    name = f"**{card_name(lang, why.card)}**"
    v = voice(view, view.seat, lang)
    if why.verdict == "mine":
        return tr(lang, "{name} is in your hand.", name=name)
    if assist == "off":
        return tr(lang, "Assist is off at this table: your notes hold your hand and the cards "
                        "you saw, so there is no deduction about {name} to explain.", name=name)
    if why.verdict == "open" or (assist == "bookkeeping" and not _bookkept(view, why)):
        if assist == "full":
            return tr(lang, "{name} is still open: in the solution in {chance} of the deals you "
                            "cannot rule out.", name=name, chance=f"{why.probability:.0%}")
        return tr(lang, "{name} is still open: nothing you saw settles it directly.", name=name)
    if why.verdict == "held":
        verdict = tr(lang, "{name} is held by {seat}", name=name, seat=v.who(why.holder or 0))
    else:
        verdict = tr(lang, VERDICTS[why.verdict], name=name)
    if not why.premises:
        return tr(lang, "{verdict}: your hand and the hand sizes alone say so.", verdict=verdict)
    facts = [fact_text(view, v, i) for i in why.premises]
    if len(facts) == 1:
        return f"{verdict}: {facts[0]}."
    return tr(lang, "{verdict}, from these together: {facts}.", verdict=verdict,
              facts="; ".join(facts))


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
    lang, me = v.lang, view.seat
    if index == SOLUTION_SEEN:
        return tr(lang, "you saw the solution")
    entry = view.observations[index]
    match entry:
        case SuggestionSeen():
            named = ", ".join(card_name(lang, c) for c in entry.named.cards())
            parts = [tr(lang, "you suggested {named}", named=named) if entry.seat == me
                     else tr(lang, "{seat} suggested {named}", seat=v.who(entry.seat),
                             named=named)]
            if entry.passed:
                parts.append(tr(lang, "{seats} could not disprove it",
                                seats=v.names_list(entry.passed)))
            if entry.refuter is None:
                parts.append(tr(lang, "nobody could disprove it"))
            else:
                parts.append(_showed(v, entry.refuter, entry.shown))
            return ", ".join(parts)
        case SnoopSeen():
            return tr(lang, "you snooped {seat} and saw {card}", seat=v.who(entry.target),
                      card=card_name(lang, entry.card or ""))
        case AllSnoopSeen():
            target = next(look.target for look in entry.looks if look.looker == view.seat)
            return tr(lang, "in the All Snoop you saw {card} in {seat}'s hand",
                      card=card_name(lang, entry.card or ""), seat=v.who(target))
        case SleuthSeen():
            answers = [_showed(v, a.seat, a.card) if a.showed is not False
                       else tr(lang, "you had none") if a.seat == me
                       else tr(lang, "{seat} had none", seat=v.who(a.seat))
                       for a in entry.answers]
            played = (tr(lang, "you played {card}", card=action_name(lang, entry.card))
                      if entry.seat == me else
                      tr(lang, "{seat} played {card}", seat=v.who(entry.seat),
                         card=action_name(lang, entry.card)))
            return f"{played}: " + ", ".join(answers)
        case TipSeen():
            returned = names(lang, entry.cards or []) if entry.cards else tr(lang, "nothing")
            return tr(lang, "{seat} returned {cards} for your {card}", seat=v.who(entry.target),
                      cards=returned, card=action_name(lang, entry.card or ""))
    return tr(lang, "what you saw")


def _showed(v: Voice, seat: int, card: str | None) -> str:
    """ "Bea showed Train", "you showed a card"."""
    lang = v.lang
    if seat == v.me:
        return (tr(lang, "you showed {card}", card=card_name(lang, card)) if card
                else tr(lang, "you showed a card"))
    return (tr(lang, "{seat} showed {card}", seat=v.who(seat), card=card_name(lang, card))
            if card else tr(lang, "{seat} showed a card", seat=v.who(seat)))


async def explain_for(interaction: discord.Interaction, view: PlayerView, card: str) -> Why:
    """The chain for `card` (a few exact solves), off the event loop."""
    return await think(interaction, explain, view, card)
