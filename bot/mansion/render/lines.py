"""One line of text per engine event, from one reader's side, and the messages built from
them: the channel's news for one action, a seat's DM.

Secrecy rests on the engine: the channel is rendered from public and end-reveal events and
a PublicView only; a seat's DM from the private events addressed to it and its PlayerView.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import reasons
from bot.i18n import N_, tr, trn
from bot.mansion import words
from bot.mansion.render.labels import (
    Voice,
    action_name,
    by_kind,
    cards_label,
    count,
    fit_lines,
    names,
    plain_name,
    triple_text,
)
from bot.mansion.words import VARIANT_NAME, card_name
from engine.mansion import Event
from engine.mansion.events import (
    AccusationMade,
    ActionBurned,
    ActionDrawn,
    ActionHandDiscarded,
    AllSnoopPlayed,
    CardPicked,
    CardShown,
    DrawPileReshuffled,
    GameOver,
    GameStarted,
    HandDealt,
    MarkersSwapped,
    PromptInfo,
    PromptOpened,
    RoundOver,
    RoundStarted,
    SleuthAnswered,
    SleuthPlayed,
    SnoopedCard,
    SnoopPlayed,
    SolutionChosen,
    SuggestionAnswered,
    SuggestionMade,
    TableDealt,
    TipAnswered,
    TipPassed,
    TurnEnded,
    TurnStarted,
)
from engine.mansion.observations import SuggestionSeen
from engine.mansion.views import PlayerView, PublicView


def voice(view: PublicView, me: int | None = None, lang: str = "en") -> Voice:
    return Voice([s.name for s in view.seats], me, lang)


def channel_text(events: Sequence[Event], view: PublicView, lang: str) -> str:
    """The channel's message for one applied action: public events and the end reveal, in
    the third person, at most 2000 characters. "" when nothing is public."""
    v = voice(view, lang=lang)
    lines: list[str] = []
    for i, event in enumerate(events):
        if event.audience.scope == "private":
            continue
        text = _public(event, view, v, events[i + 1:])
        if text:
            lines.append(text)
    if events and not lines:
        lines = _resolved(view, v)
    return fit_lines(lang, lines)


def _resolved(view: PublicView, v: Voice) -> list[str]:
    """A change with no public event is a refuter's private choice for a suggestion (the
    table already heard that they would choose): say, from the public record, that the card
    was shown."""
    last = next((o for o in reversed(view.observations) if isinstance(o, SuggestionSeen)), None)
    if last is None or last.pending or last.refuter is None:
        return []
    return [tr(v.lang, "🃏 {refuter} showed {seat} a card.", refuter=v.who(last.refuter),
               seat=v.who(last.seat))]


def dm_text(events: Sequence[Event], view: PlayerView, lang: str) -> str | None:
    """One seat's DM for one applied action: the private events addressed to that seat (its
    prompts included); None when there are none."""
    v = voice(view, view.seat, lang)
    lines = [
        text
        for event in events
        if event.audience.scope == "private" and view.seat in event.audience.seats
        if (text := _private(event, view, v))
    ]
    return fit_lines(lang, lines) if lines else None


NOTED_PUBLIC = (MarkersSwapped, SuggestionAnswered, SleuthAnswered, ActionBurned,
                DrawPileReshuffled, RoundOver, GameOver)
"""Public events worth repeating to the member who caused them, in their own answer."""


def seat_note(events: Sequence[Event], view: PlayerView, lang: str) -> str:
    """What one action taught the seat that made it: its private lines (prompts aside) and
    the public outcome (who disproved, what burned, the end). For the member's own answer."""
    v, public = voice(view, view.seat, lang), voice(view, lang=lang)
    lines: list[str] = []
    for i, event in enumerate(events):
        if event.audience.scope == "private":
            if view.seat in event.audience.seats and not isinstance(event, PromptOpened):
                text = _private(event, view, v)
                if text:
                    lines.append(text)
        elif isinstance(event, NOTED_PUBLIC):
            text = _public(event, view, public, events[i + 1:])
            if text:
                lines.append(text)
    return "\n".join(lines)


# ---------------------------------------------------------------- the channel


def _public(event: Event, view: PublicView, v: Voice, after: Sequence[Event]) -> str | None:
    lang = v.lang
    match event:
        case GameStarted():
            opts = event.options
            series = (" " + tr(lang, "First to **{wins}** wins is the Master Detective.",
                               wins=opts.series_wins) if opts.series_wins > 1 else "")
            return tr(lang, "🕵️ **Clue: Mystery Beyond the Mansion** ({variant}): {players}.",
                      variant=tr(lang, VARIANT_NAME[opts.variant]),
                      players=v.names_list(range(len(event.seat_names)))) + series
        case RoundStarted():
            head = (tr(lang, "🃏 **Game {round}**: ", round=event.round)
                    if view.options.series_wins > 1 else "🃏 ")
            if event.fugitive is not None:
                return head + tr(lang, "🦹 {seat} is the **fugitive** and the dealer: they "
                                       "choose the solution in secret, then deal from their "
                                       "left.", seat=v.who(event.fugitive))
            return head + tr(lang, "{seat} deals.", seat=v.who(event.dealer))
        case SolutionChosen():
            return tr(lang, "🦹 {seat} has chosen the solution. The cards are dealt.",
                      seat=v.who(event.seat))
        case TableDealt():
            where = ", ".join(tr(lang, "{seat} at {place}", seat=v.who(i),
                                 place=card_name(lang, m))
                              for i, m in enumerate(event.markers))
            sizes = ", ".join(f"{v.plain(i)} {n}" for i, n in enumerate(event.clue_counts))
            return tr(lang, "📍 Markers: {where}; by the tray: {tray}.\n"
                            "🂠 Clue cards dealt ({sizes}); {draw} Action cards in the draw "
                            "pile.", where=where, tray=names(lang, event.tray), sizes=sizes,
                      draw=event.draw_size)
        case TurnStarted():
            if event.draw_size == 0 and any(
                isinstance(e, RoundOver) and e.how == "escaped" for e in after
            ):
                return tr(lang, "▶️ **Turn {turn}**: {seat} must draw, but the draw pile is "
                                "empty!", turn=event.turn_number, seat=v.who(event.seat))
            return tr(lang, "▶️ **Turn {turn}**: {seat} draws an Action card ({left} left in "
                            "the draw pile).", turn=event.turn_number, seat=v.who(event.seat),
                      left=count(lang, event.draw_size, "card"))
        case DrawPileReshuffled():
            return tr(lang, "♻️ The draw pile ran out: the discard pile is shuffled into a new "
                            "draw pile of {cards}.", cards=count(lang, event.size, "card"))
        case ActionBurned():
            return tr(lang, "🔥 The fugitive disproved it, so the top Action card burns "
                            "(**{card}**): {left} left in the draw pile.",
                      card=action_name(lang, event.card), left=count(lang, event.draw_size, "card"))
        case MarkersSwapped():
            return _swap(event, v)
        case SuggestionMade():
            return tr(lang, "💬 {seat} plays **{card}** and suggests {named}.",
                      seat=v.who(event.seat), card=action_name(lang, event.card),
                      named=triple_text(lang, event.named))
        case SuggestionAnswered():
            return _answered(event, view, v)
        case SnoopPlayed():
            return tr(lang, "👀 {seat} plays **Snoop** on {target}: their hand lies face down "
                            "and {name} looks at one card.", seat=v.who(event.seat),
                      target=v.who(event.target), name=v.plain(event.seat))
        case AllSnoopPlayed():
            looks = ", ".join(f"{v.plain(i)} → {v.plain(t)}"
                              for i, t in enumerate(event.looks_at))
            return tr(lang, "🔄 {seat} plays **{card}**: everyone looks at one card of the hand "
                            "offered to them ({looks}).", seat=v.who(event.seat),
                      card=action_name(lang, f"all_snoop_{event.direction}"), looks=looks)
        case CardPicked():
            return tr(lang, "👀 {seat} looked at one of {target}'s cards.",
                      seat=v.who(event.seat), target=v.who(event.target))
        case SleuthPlayed():
            return tr(lang, "🔎 {seat} plays **{card}**: each opponent shows {name} one, if they "
                            "hold any.", seat=v.who(event.seat), card=action_name(lang, event.card),
                      name=v.plain(event.seat))
        case SleuthAnswered():
            if not event.showed:
                return tr(lang, "🙅 {seat} has none.", seat=v.who(event.seat))
            return tr(lang, "🃏 {seat} shows {to} a card.", seat=v.who(event.seat),
                      to=v.who(event.to))
        case TipPassed():
            return tr(lang, "🤫 {seat} passes a **Private Tip** to {target}.",
                      seat=v.who(event.seat), target=v.who(event.target))
        case TipAnswered():
            return tr(lang, "🤫 {seat} answered {to}'s Private Tip.", seat=v.who(event.seat),
                      to=v.who(event.to))
        case AccusationMade():
            if event.correct and event.named is not None:
                return tr(lang, "⚖️ {seat} accuses {named} — **right!** 🎉",
                          seat=v.who(event.seat), named=triple_text(lang, event.named))
            return tr(lang, "⚖️ {seat} makes an accusation — **wrong**. They take no more "
                            "turns, but still answer (and their marker can still be taken).",
                      seat=v.who(event.seat))
        case ActionHandDiscarded():
            if not event.cards:
                return None
            return trn(lang, "🗑️ {seat}'s {n} Action card goes to the discard, face down.",
                       "🗑️ {seat}'s {n} Action cards go to the discard, face down.",
                       len(event.cards), seat=v.who(event.seat))
        case TurnEnded():
            return tr(lang, "⏹️ {seat} ends the turn.", seat=v.who(event.seat))
        case RoundOver():
            return _round_over(event, view, v, last=any(isinstance(e, GameOver) for e in after))
        case GameOver():
            return _game_over(event, view, v)
        case _:
            return None


def _swap(event: MarkersSwapped, v: Voice) -> str:
    lang = v.lang
    took, gave = card_name(lang, event.took), card_name(lang, event.gave)
    if event.other is None:
        swap = tr(lang, "swaps markers with the tray: takes **{took}**, leaves **{gave}**",
                  took=took, gave=gave)
    else:
        swap = tr(lang, "swaps markers with {other}: takes **{took}**, gives **{gave}**",
                  other=v.who(event.other), took=took, gave=gave)
    if event.card == "suggest_present":
        return tr(lang, "🚶 {seat} plays **{card}** and moves instead of suggesting: {swap}.",
                  seat=v.who(event.seat), card=action_name(lang, "suggest_present"), swap=swap)
    return f"🔁 {v.who(event.seat)} {swap}."


def _answered(event: SuggestionAnswered, view: PublicView, v: Voice) -> str:
    lang = v.lang
    parts = []
    if event.passed:
        parts.append(tr(lang, "🙅 {seats} could not disprove it.",
                        seats=v.names_list(event.passed)))
    if event.refuter is None:
        parts.append(tr(lang, "😮 **Nobody** could disprove it!"))
    elif event.refuter == view.fugitive:
        parts.append(tr(lang, "🤔 {refuter} (the fugitive) can disprove it and chooses which "
                              "card to show {seat}.", refuter=v.who(event.refuter),
                        seat=v.plain(event.seat)))
    else:
        parts.append(tr(lang, "🤔 {refuter} can disprove it and chooses which card to show "
                              "{seat}.", refuter=v.who(event.refuter), seat=v.plain(event.seat)))
    return " ".join(parts)


def _hands_lines(hands: Sequence[Sequence[str]], v: Voice) -> list[str]:
    return [f"• {v.who(i)}: {names(v.lang, h)}" for i, h in enumerate(hands)]


def _scores(scores: Sequence[int], v: Voice) -> str:
    return " · ".join(f"{v.plain(i)} {s}" for i, s in enumerate(scores))


def _round_over(event: RoundOver, view: PublicView, v: Voice, *, last: bool) -> str:
    lang = v.lang
    reason = reason_text(lang, event.reason)
    lines = [tr(lang, "🏁 **Game {round} is over**: {reason}", round=event.round, reason=reason)
             if view.options.series_wins > 1 else
             tr(lang, "🏁 **The game is over**: {reason}", reason=reason)]
    if event.solution is not None:
        lines.append(tr(lang, "🔓 The solution: {solution}.",
                        solution=triple_text(lang, event.solution)))
    if event.solution is None and not any(event.hands):
        lines.append(tr(lang, "🃏 No cards were dealt: the fugitive had not chosen the solution "
                              "yet."))
    else:
        lines.append(tr(lang, "🃏 The hands:"))
        lines += _hands_lines(event.hands, v)
    if view.options.series_wins > 1:
        lines.append(tr(lang, "⭐ Crimes solved so far: {scores} (first to {wins}; an escape "
                              "solves none).", scores=_scores(event.scores, v),
                        wins=view.options.series_wins))
        if not last and view.fugitive is not None:
            lines.append(tr(lang, "🔁 The next game begins; the fugitive (and dealer) passes "
                                  "left."))
        elif not last:
            lines.append(tr(lang, "🔁 The next game is dealt; the dealer passes left."))
    return "\n".join(lines)


def _game_over(event: GameOver, view: PublicView, v: Voice) -> str:
    lang = v.lang
    if event.master is not None and view.options.series_wins > 1:
        return tr(lang, "🏆 {seat} is the **Master Detective**!", seat=v.who(event.master))
    if event.master is not None:
        return tr(lang, "🏆 {seat} wins!", seat=v.who(event.master))
    if event.winner is not None:
        return tr(lang, "🏆 {seat}, the fugitive, escapes and wins!", seat=v.who(event.winner))
    return tr(lang, "🏁 The table is over: nobody won.")


# ---------------------------------------------------------------- a seat's DM


def _private(event: Event, view: PlayerView, v: Voice) -> str | None:
    me, lang = view.seat, v.lang
    match event:
        case HandDealt():
            actions = (", ".join(action_name(lang, a) for a in event.actions)
                       or tr(lang, "none (the fugitive plays no Action cards)"))
            return tr(lang, "🃏 **Your Clue cards**:\n{clues}\n🎴 **Your Action card**: "
                            "{actions}", clues=by_kind(lang, event.clues), actions=actions)
        case SolutionChosen() if event.solution is not None:
            return tr(lang, "🦹 You chose the solution: {solution}.",
                      solution=triple_text(lang, event.solution))
        case ActionDrawn():
            return tr(lang, "🎴 You drew **{card}**.", card=action_name(lang, event.card))
        case CardShown():
            if event.seat == me:
                return tr(lang, "🃏 You showed **{card}** to {to}.",
                          card=card_name(lang, event.card), to=v.who(event.to))
            return tr(lang, "🃏 {seat} showed you **{card}**.", seat=v.who(event.seat),
                      card=card_name(lang, event.card))
        case SnoopedCard():
            return tr(lang, "👀 You looked at card {position} of {target}'s hand: **{card}**.",
                      position=event.position + 1, target=v.who(event.target),
                      card=card_name(lang, event.card))
        case TipPassed() if event.card is not None:
            ask = words.ask(lang, event.card)
            if event.seat == me:
                return tr(lang, "🤫 You passed **Private Tip: {ask}** to {target}; only the two "
                                "of you know it.", ask=ask, target=v.who(event.target))
            return tr(lang, "🤫 {seat} passed you **Private Tip: {ask}**.",
                      seat=v.who(event.seat), ask=ask)
        case TipAnswered() if event.cards is not None:
            given = cards_label(lang, event.cards) if event.cards else tr(lang, "nothing")
            if event.seat == me:
                return tr(lang, "🤫 You answered {to}'s Private Tip with {given}.",
                          to=v.who(event.to), given=given)
            return tr(lang, "🤫 {seat} answers your Private Tip: {given}.",
                      seat=v.who(event.seat), given=given)
        case AccusationMade() if event.named is not None and event.solution is not None:
            if event.correct:
                return tr(lang, "⚖️ Your accusation {named} is **right**!",
                          named=triple_text(lang, event.named))
            return tr(lang, "⚖️ Your accusation {named} is **wrong**: the solution is "
                            "{solution}. Keep it to yourself: you take no more turns, but you "
                            "still answer.", named=triple_text(lang, event.named),
                      solution=triple_text(lang, event.solution))
        case ActionHandDiscarded():
            return None
        case PromptOpened():
            return prompt_text(event.prompt, view, v)
        case _:
            return None


def prompt_text(prompt: PromptInfo, view: PlayerView, v: Voice) -> str:
    """What an open prompt asks of its seat (the buttons come with it)."""
    lang = v.lang
    match prompt.kind:
        case "choose_solution":
            return tr(lang, "🦹 **You are the fugitive**: choose the solution — one suspect, one "
                            "vehicle, one destination. The others try to find it.")
        case "play":
            distinct = list(dict.fromkeys(view.actions))
            cards = ", ".join(
                f"**{action_name(lang, c)}**" + (" ×2" if view.actions.count(c) > 1 else "")
                for c in distinct
            )
            return tr(lang, "▶️ **Your turn** (you are at **{place}**): play one of your Action "
                            "cards ({cards}) — or accuse.",
                      place=card_name(lang, view.seats[view.seat].marker), cards=cards)
        case "accuse_or_end":
            return tr(lang, "⚖️ Your card is played: **accuse** now, or **end your turn**.")
        case "show":
            assert prompt.to is not None
            if prompt.reason == "suggestion":
                return tr(lang, "🃏 {to}'s suggestion: choose which card to show {name}.",
                          to=v.who(prompt.to), name=v.plain(prompt.to))
            return tr(lang, "🃏 {to}'s Super Sleuth: choose which card to show {name}.",
                      to=v.who(prompt.to), name=v.plain(prompt.to))
        case "pick":
            assert prompt.target is not None
            return tr(lang, "👀 Pick one of {target}'s {count} face-down cards (they are in a "
                            "random order).", target=v.who(prompt.target), count=prompt.count)
        case "answer_tip":
            assert prompt.to is not None
            ask = words.ask(lang, prompt.tip) if prompt.tip else "?"
            return tr(lang, "🤫 Answer {to}'s **Private Tip: {ask}** (only the two of you see "
                            "it).", to=v.who(prompt.to), ask=ask)


def awaited_text(prompt: PromptInfo, v: Voice) -> str:
    """What a member must do, for the line that alerts them ("show Bob a card")."""
    lang = v.lang
    match prompt.kind:
        case "choose_solution":
            return tr(lang, "choose the solution")
        case "play":
            return tr(lang, "your turn")
        case "accuse_or_end":
            return tr(lang, "accuse or end your turn")
        case "show":
            return tr(lang, "show {seat} a card", seat=v.plain(prompt.to or 0))
        case "pick":
            return tr(lang, "pick one of {seat}'s face-down cards",
                      seat=v.plain(prompt.target or 0))
        case "answer_tip":
            return tr(lang, "answer {seat}'s Private Tip", seat=v.plain(prompt.to or 0))


def waiting_text(prompt: PromptInfo, v: Voice) -> str:
    """What the table waits for, publicly: who must do what (no options, no tip text)."""
    who, lang = v.who(prompt.seat), v.lang
    match prompt.kind:
        case "choose_solution":
            return tr(lang, "{who} to choose the solution", who=who)
        case "play":
            return tr(lang, "{who} to play a card (or accuse)", who=who)
        case "accuse_or_end":
            return tr(lang, "{who} to accuse or end the turn", who=who)
        case "show":
            return tr(lang, "{who} to choose which card to show {seat}", who=who,
                      seat=v.plain(prompt.to or 0))
        case "pick":
            return tr(lang, "{who} to pick one of {seat}'s face-down cards", who=who,
                      seat=v.plain(prompt.target or 0))
        case "answer_tip":
            return tr(lang, "{who} to answer {seat}'s Private Tip", who=who,
                      seat=v.plain(prompt.to or 0))


REASONS = (
    N_("{name} solved the case."),
    N_("{name} must draw and the draw pile is empty: the fugitive escapes."),
    N_("Every detective accused wrongly: the fugitive escapes."),
    N_("Every player accused wrongly: nobody solved the case."),
)
"""The reasons the engine stores a game's end with, in English (the shell's: bot.reasons)."""


def reason_text(lang: str, reason: str) -> str:
    """A stored end reason in `lang`; an unknown reason as stored."""
    return reasons.read(lang, reason, REASONS)


__all__ = [
    "channel_text", "dm_text", "plain_name", "prompt_text", "seat_note", "voice",
    "waiting_text",
]
