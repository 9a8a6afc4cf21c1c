"""The coach at the table: the Hint (full assist only) and why a casebook mark holds.

Both read the member's own `PlayerView` and nothing else, so they can tell only what the
seat could work out itself. The hint's ranking runs where the AI detectives think (the
table service's process pool, when there is one): a 6-seat ranking is tens of
milliseconds of pure Python that would otherwise hold up every other table.
"""

from __future__ import annotations

import discord

from bot.plug import Assist
from bot.thinking import ranked_hint, think
from bot.thirteen_clues.render.labels import Voice, card_label, subject_label
from engine.thirteen_clues.actions import Accuse, Ask, Consult
from engine.thirteen_clues.cards import CARDS, REMOVED_SUITS, in_subject, subject_kind, subject_name
from engine.thirteen_clues.coach import Advice, Move, Rated, advise
from engine.thirteen_clues.state import Question
from engine.thirteen_clues.views import PlayerView
from engine.thirteen_clues.why import Fact, Level, Why, explain, visible_part

NOT_YET = "Hints start once every card holder is filled (after the pass)."


def move_text(voice: Voice, move: Move) -> str:
    """ "Ask **Bea** about Up close", "Consult informant B", "Accuse 🟣 Knife, …"."""
    match move:
        case Ask():
            side = f" (their {move.side} card)" if move.side else ""
            return f"Ask {voice.who(move.witness)} about {subject_label(move.subject)}{side}"
        case Consult():
            return f"Consult informant {move.letter}"
        case Accuse():
            named = (move.person, move.location, move.weapon)
            return "Accuse " + ", ".join(card_label(c) for c in named)


def rated_text(voice: Voice, rated: Rated, mysteries: int) -> str:
    """A move with its figures: the mysteries it leaves on average, and what it teaches."""
    return (f"{move_text(voice, rated.move)}: leaves {rated.left:.1f} of {mysteries} possible "
            f"mysteries on average ({rated.bits:.2f} bits)")


def hint_text(view: PlayerView, advice: Advice) -> str:
    """The top three moves with their figures, or the accusation once it is certain."""
    voice = Voice.viewer(view)
    certain = move_text(voice, advice.accusation) if advice.accusation is not None else None
    return ranked_hint(
        certain, f"**Best next moves** ({advice.mysteries} possible mysteries now):",
        [rated_text(voice, r, advice.mysteries) for r in advice.top()],
        "Ranked by the exact expected number of possible mysteries left after the answer, "
        "over every deal you cannot rule out.")


async def advice_for(interaction: discord.Interaction, view: PlayerView) -> Advice:
    """The coach's ranking for this view."""
    return await think(interaction, advise, view)


# why ------------------------------------------------------------------------------------------


def why_text(view: PlayerView, assist: Assist, card: str, manual: set[str]) -> str:
    """Why the casebook shows `card` as it does, in one short chain from what the seat saw."""
    name = CARDS[card].name
    if assist == "off":
        if card in manual:
            return f"You crossed out **{name}** yourself (assist is off: no deduction here)."
        return (f"Assist is off at this table: your casebook holds only your own marks, so "
                f"there is no deduction about **{name}** to explain.")
    level: Level = "full" if assist == "full" and deducible(view) else "bookkeeping"
    why = explain(view, card, level)
    if why.mark == "candidate":
        if card in manual:
            return f"You crossed out **{name}** yourself; the bookkeeping has not ruled it out."
        if level == "full":
            return (f"**{name}** is still possible: it is on your holder in "
                    f"{why.probability:.0%} of the deals you cannot rule out.")
        return f"**{name}** is still possible: nothing you saw rules it out yet."
    return chain_text(view, why)


def chain_text(view: PlayerView, why: Why) -> str:
    name = CARDS[why.card].name
    voice = Voice.viewer(view)
    if why.sight is not None:
        kind, where = why.sight
        if kind == "out_of_play":
            suit = CARDS[why.card].suit
            players = view.options.players
            assert suit in REMOVED_SUITS[players]
            return (f"**{name}** is not on your holder: the {subject_name(suit.value)} suit is "
                    f"set aside with {players} players.")
        if kind == "screen":
            return f"**{name}** is not on your holder: it is behind your screen."
        if kind == "holder":
            return f"**{name}** is not on your holder: it is on {voice.whose(int(where))} holder."
        return f"**{name}** is not on your holder: informant {where} showed it to you."
    if why.mark == "ruled_out" and len(why.premises) == 1:
        single = _single_answer(view, why.card, why.premises[0])
        if single is not None:
            return single
    verdict = "is on your holder" if why.mark == "certain" else "is not on your holder"
    if not why.premises:
        category = CARDS[why.card].category.value
        return f"**{name}** {verdict}: it is the only {category} you cannot see."
    facts = "; ".join(fact_text(view, f) for f in why.premises)
    together = "this alone" if len(why.premises) == 1 else "these together"
    return (f"**{name}** {verdict}, from the cards you see and {together}: {facts}.")


def fact_text(view: PlayerView, fact: Fact) -> str:
    voice = Voice.viewer(view)
    if not isinstance(fact, Question):
        return "your accusation of " + ", ".join(CARDS[c].name for c in fact.cards) + " was wrong"
    subject = subject_label(fact.subject)
    if view.options.players == 2:
        return (f"{voice.who(fact.witness)} answered {fact.answer} for {subject} "
                f"(your holder and their {fact.side} card)")
    seen = visible_part(view, fact)
    extra = f", {seen} of them on holders you see" if seen else ""
    return f"{voice.who(fact.witness)} answered {fact.answer} for {subject}{extra}"


def _single_answer(view: PlayerView, card: str, fact: Fact) -> str | None:
    """The plainest case, said plainly: an answer that leaves none of a subject for you."""
    if not isinstance(fact, Question) or not in_subject(card, fact.subject):
        return None
    name, subject = CARDS[card].name, subject_label(fact.subject)
    voice = Voice.viewer(view)
    seen = visible_part(view, fact)
    if fact.answer - seen != 0:
        return None
    if seen == 0:
        return (f"**{name}** is not on your holder: {voice.who(fact.witness)} answered 0 for "
                f"{subject}, and {name} is {_is_a(fact.subject)}.")
    return (f"**{name}** is not on your holder: {voice.who(fact.witness)} answered "
            f"{fact.answer} for {subject}, and you see {seen} of them on the holders they "
            f"see, so none is on yours; {name} is {_is_a(fact.subject)}.")


def _is_a(subject: str) -> str:
    """How a card of `subject` is described: "Purple", "up close", "a weapon"."""
    kind = subject_kind(subject)
    if kind == "category":
        return f"a {subject}"
    return subject_name(subject).lower() if kind == "sub_category" else subject_name(subject)


def deducible(view: PlayerView) -> bool:
    """The exact deduction needs every card holder filled: not during the pass, nor in a
    game ended before it (until then `full` shows the bookkeeping marks)."""
    return view.phase != "passing" and all(view.holders.values())
