"""The coach at the table: the Hint (full assist only) and why a casebook mark holds.

Both read the member's own `PlayerView` and nothing else, so they can tell only what the
seat could work out itself. The hint's ranking runs where the AI detectives think (the
table service's process pool, when there is one): a 6-seat ranking is tens of
milliseconds of pure Python that would otherwise hold up every other table.
"""

from __future__ import annotations

import discord

from bot.i18n import N_, tr
from bot.plug import Assist
from bot.thinking import ranked_hint, think
from bot.thirteen_clues.render.labels import Voice
from bot.thirteen_clues.words import card_label, card_name, category_name, subject_label
from bot.thirteen_clues.words import subject_name as named_subject
from engine.thirteen_clues.actions import Accuse, Ask, Consult
from engine.thirteen_clues.cards import (
    CARDS,
    REMOVED_SUITS,
    Category,
    SubCategory,
    in_subject,
    subject_kind,
)
from engine.thirteen_clues.coach import Advice, Move, Rated, advise
from engine.thirteen_clues.state import Question
from engine.thirteen_clues.views import PlayerView
from engine.thirteen_clues.why import Fact, Level, Why, explain, visible_part

NOT_YET = N_("Hints start once every card holder is filled (after the pass).")


def move_text(voice: Voice, move: Move) -> str:
    """ "Ask **Bea** about Up close", "Consult informant B", "Accuse 🟣 Knife, …"."""
    lang = voice.lang
    match move:
        case Ask():
            subject = subject_label(lang, move.subject)
            if move.side == "left":
                return tr(lang, "Ask {witness} about {subject} (their left card)",
                          witness=voice.who(move.witness), subject=subject)
            if move.side == "right":
                return tr(lang, "Ask {witness} about {subject} (their right card)",
                          witness=voice.who(move.witness), subject=subject)
            return tr(lang, "Ask {witness} about {subject}", witness=voice.who(move.witness),
                      subject=subject)
        case Consult():
            return tr(lang, "Consult informant {letter}", letter=move.letter)
        case Accuse():
            named = (move.person, move.location, move.weapon)
            return tr(lang, "Accuse {cards}", cards=", ".join(card_label(lang, c) for c in named))


def rated_text(voice: Voice, rated: Rated, mysteries: int) -> str:
    """A move with its figures: the mysteries it leaves on average, and what it teaches."""
    return tr(voice.lang, "{move}: leaves {left} of {mysteries} possible mysteries on average "
                          "({bits} bits)", move=move_text(voice, rated.move),
              left=f"{rated.left:.1f}", mysteries=mysteries, bits=f"{rated.bits:.2f}")


def hint_text(lang: str, view: PlayerView, advice: Advice) -> str:
    """The top three moves with their figures, or the accusation once it is certain."""
    voice = Voice.viewer(lang, view)
    certain = move_text(voice, advice.accusation) if advice.accusation is not None else None
    return ranked_hint(
        lang, certain, tr(lang, "**Best next moves** ({n} possible mysteries now):",
                    n=advice.mysteries),
        [rated_text(voice, r, advice.mysteries) for r in advice.top()],
        tr(lang, "Ranked by the exact expected number of possible mysteries left after the "
                 "answer, over every deal you cannot rule out."))


async def advice_for(interaction: discord.Interaction, view: PlayerView) -> Advice:
    """The coach's ranking for this view."""
    return await think(interaction, advise, view)


# why ------------------------------------------------------------------------------------------


def why_text(lang: str, view: PlayerView, assist: Assist, card: str, manual: set[str]) -> str:
    """Why the casebook shows `card` as it does, in one short chain from what the seat saw."""
    name = card_name(lang, card)
    if assist == "off":
        if card in manual:
            return tr(lang, "You crossed out **{card}** yourself (assist is off: no deduction "
                            "here).", card=name)
        return tr(lang, "Assist is off at this table: your casebook holds only your own marks, "
                        "so there is no deduction about **{card}** to explain.", card=name)
    level: Level = "full" if assist == "full" and deducible(view) else "bookkeeping"
    why = explain(view, card, level)
    if why.mark == "candidate":
        if card in manual:
            return tr(lang, "You crossed out **{card}** yourself; the bookkeeping has not ruled "
                            "it out.", card=name)
        if level == "full":
            return tr(lang, "**{card}** is still possible: it is on your holder in {share} of "
                            "the deals you cannot rule out.", card=name,
                      share=f"{why.probability:.0%}")
        return tr(lang, "**{card}** is still possible: nothing you saw rules it out yet.",
                  card=name)
    return chain_text(lang, view, why)


def chain_text(lang: str, view: PlayerView, why: Why) -> str:
    name = card_name(lang, why.card)
    voice = Voice.viewer(lang, view)
    if why.sight is not None:
        kind, where = why.sight
        if kind == "out_of_play":
            suit = CARDS[why.card].suit
            players = view.options.players
            assert suit in REMOVED_SUITS[players]
            return tr(lang, "**{card}** is not on your holder: the {suit} suit is set aside "
                            "with {n} players.", card=name, suit=named_subject(lang, suit.value),
                      n=players)
        if kind == "screen":
            return tr(lang, "**{card}** is not on your holder: it is behind your screen.",
                      card=name)
        if kind == "holder":
            return tr(lang, "**{card}** is not on your holder: it is on {who}'s holder.",
                      card=name, who=voice.who(int(where)))
        return tr(lang, "**{card}** is not on your holder: informant {letter} showed it to you.",
                  card=name, letter=where)
    if why.mark == "ruled_out" and len(why.premises) == 1:
        single = _single_answer(voice, view, why.card, why.premises[0])
        if single is not None:
            return single
    certain = why.mark == "certain"
    if not why.premises:
        category = category_name(lang, CARDS[why.card].category)
        if certain:
            return tr(lang, "**{card}** is on your holder: it is the only {category} you cannot "
                            "see.", card=name, category=category)
        return tr(lang, "**{card}** is not on your holder: it is the only {category} you cannot "
                        "see.", card=name, category=category)
    facts = "; ".join(fact_text(lang, view, f) for f in why.premises)
    if len(why.premises) == 1:
        if certain:
            return tr(lang, "**{card}** is on your holder, from the cards you see and this "
                            "alone: {facts}.", card=name, facts=facts)
        return tr(lang, "**{card}** is not on your holder, from the cards you see and this "
                        "alone: {facts}.", card=name, facts=facts)
    if certain:
        return tr(lang, "**{card}** is on your holder, from the cards you see and these "
                        "together: {facts}.", card=name, facts=facts)
    return tr(lang, "**{card}** is not on your holder, from the cards you see and these "
                    "together: {facts}.", card=name, facts=facts)


def fact_text(lang: str, view: PlayerView, fact: Fact) -> str:
    voice = Voice.viewer(lang, view)
    if not isinstance(fact, Question):
        return tr(lang, "your accusation of {cards} was wrong",
                  cards=", ".join(card_name(lang, c) for c in fact.cards))
    subject = subject_label(lang, fact.subject)
    witness = voice.who(fact.witness)
    if view.options.players == 2:
        if fact.side == "left":
            return tr(lang, "{witness} answered {answer} for {subject} (your holder and their "
                            "left card)", witness=witness, answer=fact.answer, subject=subject)
        return tr(lang, "{witness} answered {answer} for {subject} (your holder and their "
                        "right card)", witness=witness, answer=fact.answer, subject=subject)
    seen = visible_part(view, fact)
    if seen:
        return tr(lang, "{witness} answered {answer} for {subject}, {seen} of them on holders "
                        "you see", witness=witness, answer=fact.answer, subject=subject,
                  seen=seen)
    return tr(lang, "{witness} answered {answer} for {subject}", witness=witness,
              answer=fact.answer, subject=subject)


def _single_answer(voice: Voice, view: PlayerView, card: str, fact: Fact) -> str | None:
    """The plainest case, said plainly: an answer that leaves none of a subject for you."""
    if not isinstance(fact, Question) or not in_subject(card, fact.subject):
        return None
    lang = voice.lang
    name, subject = card_name(lang, card), subject_label(lang, fact.subject)
    seen = visible_part(view, fact)
    if fact.answer - seen != 0:
        return None
    if seen == 0:
        return tr(lang, "**{card}** is not on your holder: {witness} answered 0 for {subject}, "
                        "and {card} is {what}.", card=name, witness=voice.who(fact.witness),
                  subject=subject, what=_is_a(lang, fact.subject))
    return tr(lang, "**{card}** is not on your holder: {witness} answered {answer} for "
                    "{subject}, and you see {seen} of them on the holders they see, so none is "
                    "on yours; {card} is {what}.", card=name, witness=voice.who(fact.witness),
              answer=fact.answer, subject=subject, seen=seen, what=_is_a(lang, fact.subject))


_IS_A: dict[str, str] = {
    Category.PERSON: N_("a person"),
    Category.LOCATION: N_("a location"),
    Category.WEAPON: N_("a weapon"),
    SubCategory.MALE: N_("male"),
    SubCategory.FEMALE: N_("female"),
    SubCategory.INDOOR: N_("indoor"),
    SubCategory.OUTDOOR: N_("outdoor"),
    SubCategory.UP_CLOSE: N_("up close"),
    SubCategory.RANGED: N_("ranged"),
}
"""How a card of a category or sub-category is described after "is"."""


def _is_a(lang: str, subject: str) -> str:
    """How a card of `subject` is described: "Purple", "up close", "a weapon"."""
    if subject_kind(subject) == "suit":
        return named_subject(lang, subject)
    return tr(lang, _IS_A[subject])


def deducible(view: PlayerView) -> bool:
    """The exact deduction needs every card holder filled: not during the pass, nor in a
    game ended before it (until then `full` shows the bookkeeping marks)."""
    return view.phase != "passing" and all(view.holders.values())
