"""One line of text per engine event, from one reader's side, and the messages built from
them: the channel's news for one action, a seat's DM.

Secrecy rests on the engine: the channel is rendered from public and end-reveal events and
a PublicView only; a seat's DM from the private events addressed to it and its PlayerView.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.mansion.render.labels import (
    Voice,
    action_name,
    by_kind,
    card_name,
    cards_label,
    fit_lines,
    plain_name,
    triple_text,
)
from engine.mansion import Event
from engine.mansion.cards import ACTIONS
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

VARIANT_NAME = {"standard": "standard game", "one_against_all": "One Against All"}


def voice(view: PublicView, me: int | None = None) -> Voice:
    return Voice([s.name for s in view.seats], me)


def channel_text(events: Sequence[Event], view: PublicView) -> str:
    """The channel's message for one applied action: public events and the end reveal, in
    the third person, at most 2000 characters. "" when nothing is public."""
    v = voice(view)
    lines: list[str] = []
    for i, event in enumerate(events):
        if event.audience.scope == "private":
            continue
        text = _public(event, view, v, events[i + 1:])
        if text:
            lines.append(text)
    if events and not lines:
        lines = _resolved(view, v)
    return fit_lines(lines)


def _resolved(view: PublicView, v: Voice) -> list[str]:
    """A change with no public event is a refuter's private choice for a suggestion (the
    table already heard that they would choose): say, from the public record, that the card
    was shown."""
    last = next((o for o in reversed(view.observations) if isinstance(o, SuggestionSeen)), None)
    if last is None or last.pending or last.refuter is None:
        return []
    return [f"🃏 {v.who(last.refuter)} showed {v.who(last.seat)} a card."]


def dm_text(events: Sequence[Event], view: PlayerView) -> str | None:
    """One seat's DM for one applied action: the private events addressed to that seat (its
    prompts included); None when there are none."""
    v = voice(view, view.seat)
    lines = [
        text
        for event in events
        if event.audience.scope == "private" and view.seat in event.audience.seats
        if (text := _private(event, view, v))
    ]
    return fit_lines(lines) if lines else None


NOTED_PUBLIC = (MarkersSwapped, SuggestionAnswered, SleuthAnswered, ActionBurned,
                DrawPileReshuffled, RoundOver, GameOver)
"""Public events worth repeating to the member who caused them, in their own answer."""


def seat_note(events: Sequence[Event], view: PlayerView) -> str:
    """What one action taught the seat that made it: its private lines (prompts aside) and
    the public outcome (who disproved, what burned, the end). For the member's own answer."""
    v, public = voice(view, view.seat), voice(view)
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
    match event:
        case GameStarted():
            opts = event.options
            series = (f" First to **{opts.series_wins}** wins is the Master Detective."
                      if opts.series_wins > 1 else "")
            return (f"🕵️ **Clue: Mystery Beyond the Mansion** ({VARIANT_NAME[opts.variant]}): "
                    f"{v.names_list(range(len(event.seat_names)))}.{series}")
        case RoundStarted():
            head = f"🃏 **Game {event.round}**: " if view.options.series_wins > 1 else "🃏 "
            if event.fugitive is not None:
                return (f"{head}🦹 {v.who(event.fugitive)} is the **fugitive** and the dealer: "
                        "they choose the solution in secret, then deal from their left.")
            return f"{head}{v.who(event.dealer)} deals."
        case SolutionChosen():
            return f"🦹 {v.who(event.seat)} has chosen the solution. The cards are dealt."
        case TableDealt():
            where = ", ".join(f"{v.who(i)} at {card_name(m)}" for i, m in enumerate(event.markers))
            sizes = ", ".join(f"{v.plain(i)} {n}" for i, n in enumerate(event.clue_counts))
            return (f"📍 Markers: {where}; by the tray: {_names(event.tray)}.\n"
                    f"🂠 Clue cards dealt ({sizes}); {event.draw_size} Action cards in the "
                    "draw pile.")
        case TurnStarted():
            if event.draw_size == 0 and any(
                isinstance(e, RoundOver) and e.how == "escaped" for e in after
            ):
                return (f"▶️ **Turn {event.turn_number}**: {v.who(event.seat)} must draw, "
                        "but the draw pile is empty!")
            return (f"▶️ **Turn {event.turn_number}**: {v.who(event.seat)} draws an Action "
                    f"card ({_count(event.draw_size, 'card')} left in the draw pile).")
        case DrawPileReshuffled():
            return (f"♻️ The draw pile ran out: the discard pile is shuffled into a new draw "
                    f"pile of {_count(event.size, 'card')}.")
        case ActionBurned():
            return (f"🔥 The fugitive disproved it, so the top Action card burns "
                    f"(**{action_name(event.card)}**): "
                    f"{_count(event.draw_size, 'card')} left in the draw pile.")
        case MarkersSwapped():
            return _swap(event, v)
        case SuggestionMade():
            return (f"💬 {v.who(event.seat)} plays **{action_name(event.card)}** and suggests "
                    f"{triple_text(event.named)}.")
        case SuggestionAnswered():
            return _answered(event, view, v)
        case SnoopPlayed():
            return (f"👀 {v.who(event.seat)} plays **Snoop** on {v.who(event.target)}: their "
                    f"hand lies face down and {v.plain(event.seat)} looks at one card.")
        case AllSnoopPlayed():
            looks = ", ".join(f"{v.plain(i)} → {v.plain(t)}"
                              for i, t in enumerate(event.looks_at))
            name = action_name(f"all_snoop_{event.direction}")
            return (f"🔄 {v.who(event.seat)} plays **{name}**: everyone looks at one card of "
                    f"the hand offered to them ({looks}).")
        case CardPicked():
            return f"👀 {v.who(event.seat)} looked at one of {v.whose(event.target)} cards."
        case SleuthPlayed():
            return (f"🔎 {v.who(event.seat)} plays **{action_name(event.card)}**: each "
                    f"opponent shows {v.plain(event.seat)} one, if they hold any.")
        case SleuthAnswered():
            if not event.showed:
                return f"🙅 {v.who(event.seat)} has none."
            return f"🃏 {v.who(event.seat)} shows {v.who(event.to)} a card."
        case TipPassed():
            return f"🤫 {v.who(event.seat)} passes a **Private Tip** to {v.who(event.target)}."
        case TipAnswered():
            return f"🤫 {v.who(event.seat)} answered {v.whose(event.to)} Private Tip."
        case AccusationMade():
            if event.correct and event.named is not None:
                return (f"⚖️ {v.who(event.seat)} accuses {triple_text(event.named)} — "
                        "**right!** 🎉")
            return (f"⚖️ {v.who(event.seat)} makes an accusation — **wrong**. They take no "
                    "more turns, but still answer (and their marker can still be taken).")
        case ActionHandDiscarded():
            if not event.cards:
                return None
            cards = ", ".join(action_name(c) if c else "a face-down Private Tip"
                              for c in event.cards)
            return f"🗑️ {v.whose(event.seat, start=True)} Action cards go to the discard: {cards}."
        case TurnEnded():
            return f"⏹️ {v.who(event.seat)} ends the turn."
        case RoundOver():
            return _round_over(event, view, v, last=any(isinstance(e, GameOver) for e in after))
        case GameOver():
            return _game_over(event, view, v)
        case _:
            return None


def _swap(event: MarkersSwapped, v: Voice) -> str:
    other = "the tray" if event.other is None else v.who(event.other)
    swap = (f"swaps markers with {other}: takes **{card_name(event.took)}**, "
            f"{'leaves' if event.other is None else 'gives'} **{card_name(event.gave)}**")
    if event.card == "suggest_present":
        return (f"🚶 {v.who(event.seat)} plays **{action_name('suggest_present')}** and moves "
                f"instead of suggesting: {swap}.")
    return f"🔁 {v.who(event.seat)} {swap}."


def _answered(event: SuggestionAnswered, view: PublicView, v: Voice) -> str:
    parts = []
    if event.passed:
        parts.append(f"🙅 {v.names_list(event.passed)} could not disprove it.")
    if event.refuter is None:
        parts.append("😮 **Nobody** could disprove it!")
    else:
        fugitive = " (the fugitive)" if event.refuter == view.fugitive else ""
        parts.append(f"🤔 {v.who(event.refuter)}{fugitive} can disprove it and chooses "
                     f"which card to show {v.plain(event.seat)}.")
    return " ".join(parts)


def _hands_lines(hands: Sequence[Sequence[str]], v: Voice) -> list[str]:
    return [f"• {v.who(i)}: {_names(h)}" for i, h in enumerate(hands)]


def _scores(scores: Sequence[int], v: Voice) -> str:
    return " · ".join(f"{v.plain(i)} {s}" for i, s in enumerate(scores))


def _round_over(event: RoundOver, view: PublicView, v: Voice, *, last: bool) -> str:
    lines = [f"🏁 **Game {event.round} is over**: {event.reason}"
             if view.options.series_wins > 1 else f"🏁 **The game is over**: {event.reason}"]
    if event.solution is not None:
        lines.append(f"🔓 The solution: {triple_text(event.solution)}.")
    if event.solution is None and not any(event.hands):
        lines.append("🃏 No cards were dealt: the fugitive had not chosen the solution yet.")
    else:
        lines.append("🃏 The hands:")
        lines += _hands_lines(event.hands, v)
    if view.options.series_wins > 1:
        lines.append(f"⭐ Crimes solved so far: {_scores(event.scores, v)} "
                     f"(first to {view.options.series_wins}; an escape solves none).")
        if not last and view.fugitive is not None:
            lines.append("🔁 The next game begins; the fugitive (and dealer) passes left.")
        elif not last:
            lines.append("🔁 The next game is dealt; the dealer passes left.")
    return "\n".join(lines)


def _game_over(event: GameOver, view: PublicView, v: Voice) -> str:
    if event.master is not None and view.options.series_wins > 1:
        return f"🏆 {v.who(event.master)} is the **Master Detective**!"
    if event.master is not None:
        return f"🏆 {v.who(event.master)} wins!"
    if event.winner is not None:
        return f"🏆 {v.who(event.winner)}, the fugitive, escapes and wins!"
    return "🏁 The table is over: nobody won."


# ---------------------------------------------------------------- a seat's DM


def _private(event: Event, view: PlayerView, v: Voice) -> str | None:
    me = view.seat
    match event:
        case HandDealt():
            actions = ", ".join(action_name(a) for a in event.actions) or "none (the fugitive "\
                "plays no Action cards)"
            return (f"🃏 **Your Clue cards**:\n{by_kind(event.clues)}\n"
                    f"🎴 **Your Action card**: {actions}")
        case SolutionChosen() if event.solution is not None:
            return f"🦹 You chose the solution: {triple_text(event.solution)}."
        case ActionDrawn():
            return f"🎴 You drew **{action_name(event.card)}**."
        case CardShown():
            if event.seat == me:
                return f"🃏 You showed **{card_name(event.card)}** to {v.who(event.to)}."
            return f"🃏 {v.who(event.seat, start=True)} showed you **{card_name(event.card)}**."
        case SnoopedCard():
            return (f"👀 You looked at card {event.position + 1} of {v.whose(event.target)} "
                    f"hand: **{card_name(event.card)}**.")
        case TipPassed() if event.card is not None:
            ask = ACTIONS[event.card].ask
            if event.seat == me:
                return (f"🤫 You passed **Private Tip: {ask}** to {v.who(event.target)}; "
                        "only the two of you know it.")
            return f"🤫 {v.who(event.seat, start=True)} passed you **Private Tip: {ask}**."
        case TipAnswered() if event.cards is not None:
            given = cards_label(event.cards) if event.cards else "nothing"
            if event.seat == me:
                return f"🤫 You answered {v.whose(event.to)} Private Tip with {given}."
            return f"🤫 {v.who(event.seat, start=True)} answers your Private Tip: {given}."
        case AccusationMade() if event.named is not None and event.solution is not None:
            if event.correct:
                return f"⚖️ Your accusation {triple_text(event.named)} is **right**!"
            return (f"⚖️ Your accusation {triple_text(event.named)} is **wrong**: the solution "
                    f"is {triple_text(event.solution)}. Keep it to yourself: you take no more "
                    "turns, but you still answer.")
        case ActionHandDiscarded():
            return None
        case PromptOpened():
            return prompt_text(event.prompt, view, v)
        case _:
            return None


def prompt_text(prompt: PromptInfo, view: PlayerView, v: Voice | None = None) -> str:
    """What an open prompt asks of its seat (the buttons come with it)."""
    v = v or voice(view, view.seat)
    match prompt.kind:
        case "choose_solution":
            return ("🦹 **You are the fugitive**: choose the solution — one suspect, one "
                    "vehicle, one destination. The others try to find it.")
        case "play":
            distinct = list(dict.fromkeys(view.actions))
            cards = ", ".join(
                f"**{action_name(c)}**" + (" ×2" if view.actions.count(c) > 1 else "")
                for c in distinct
            )
            return (f"▶️ **Your turn** (you are at **{card_name(view.seats[view.seat].marker)}**)"
                    f": play one of your Action cards ({cards}) — or accuse.")
        case "accuse_or_end":
            return "⚖️ Your card is played: **accuse** now, or **end your turn**."
        case "show":
            assert prompt.to is not None
            why = "suggestion" if prompt.reason == "suggestion" else "Super Sleuth"
            return (f"🃏 {v.whose(prompt.to, start=True)} {why}: choose which card to show "
                    f"{v.plain(prompt.to)}.")
        case "pick":
            assert prompt.target is not None
            return (f"👀 Pick one of {v.whose(prompt.target)} {prompt.count} face-down cards "
                    "(they are in a random order).")
        case "answer_tip":
            assert prompt.to is not None
            ask = ACTIONS[prompt.tip].ask if prompt.tip else "?"
            return (f"🤫 Answer {v.whose(prompt.to)} **Private Tip: {ask}** (only the two of "
                    "you see it).")


def awaited_text(prompt: PromptInfo, v: Voice) -> str:
    """What a member must do, for the line that alerts them ("show Bob a card")."""
    match prompt.kind:
        case "choose_solution":
            return "choose the solution"
        case "play":
            return "your turn"
        case "accuse_or_end":
            return "accuse or end your turn"
        case "show":
            return f"show {v.plain(prompt.to or 0)} a card"
        case "pick":
            return f"pick one of {v.plain(prompt.target or 0)}'s face-down cards"
        case "answer_tip":
            return f"answer {v.plain(prompt.to or 0)}'s Private Tip"


def waiting_text(prompt: PromptInfo, v: Voice) -> str:
    """What the table waits for, publicly: who must do what (no options, no tip text)."""
    who = v.who(prompt.seat)
    match prompt.kind:
        case "choose_solution":
            return f"{who} to choose the solution"
        case "play":
            return f"{who} to play a card (or accuse)"
        case "accuse_or_end":
            return f"{who} to accuse or end the turn"
        case "show":
            return f"{who} to choose which card to show {v.plain(prompt.to or 0)}"
        case "pick":
            return f"{who} to pick one of {v.plain(prompt.target or 0)}'s face-down cards"
        case "answer_tip":
            return f"{who} to answer {v.plain(prompt.to or 0)}'s Private Tip"


def _names(cards: Sequence[str]) -> str:
    return ", ".join(card_name(c) for c in cards) or "none"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


__all__ = [
    "channel_text", "dm_text", "plain_name", "prompt_text", "seat_note", "voice",
    "waiting_text",
]
