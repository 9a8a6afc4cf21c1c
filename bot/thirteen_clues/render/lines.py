"""One line of text per engine event, from one viewer's side, and the messages built from
them (the channel's line for an action, a seat's DM).

Secrecy rests on the engine: only events whose audience includes the viewer are rendered,
and a channel message is rendered with no viewer at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.thirteen_clues.render.labels import (
    MESSAGE_LIMIT,
    MYSTERY,
    SUIT_EMOJI,
    Voice,
    card_label,
    cards_label,
    fit_lines,
    glasses_icons,
    range_label,
    subject_phrase,
)
from engine.thirteen_clues import Event, GameState, player_view
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.events import (
    AccusationMade,
    CardsDealt,
    CaseFile,
    GameOver,
    GameStarted,
    GlassMoved,
    GlassTaken,
    InformantCard,
    InformantConsulted,
    PassChosen,
    PlayBegan,
    QuestionAnswered,
    SecretQuestionAsked,
    TurnStarted,
)
from engine.thirteen_clues.views import PlayerView, PublicView

_SPENT_GLASS_REASONS = ("question", "informant", "accusation", "wrong_accusation")


def event_text(event: Event, view: PublicView | PlayerView) -> str | None:
    """The event as one line for the view's reader ("you" for a PlayerView's own seat);
    None when the event is not addressed to that reader or has nothing to say."""
    me = view.seat if isinstance(view, PlayerView) else None
    if event.audience.scope == "private" and (me is None or me not in event.audience.seats):
        return None
    return _line(event, view, Voice.of(view, me))


def channel_text(events: Iterable[Event], view: PublicView) -> str:
    """The channel's message for one applied action: public events (and the end reveal),
    named in the third person, at most 2000 characters. "" when nothing is public."""
    voice = Voice.of(view)  # never "you": the channel is everyone's
    lines: list[str] = []
    pending_glass: list[str] = []
    for event in events:
        if event.audience.scope == "private":
            continue
        text = _line(event, view, voice)
        if text is None:
            continue
        if isinstance(event, GlassMoved) and event.reason in _SPENT_GLASS_REASONS:
            # The engine emits the glass before the action it paid for; say the action first.
            pending_glass.append(text)
            continue
        if isinstance(event, GameOver):
            # The reveal beside this news names everything; after a win, where the spent
            # glass went no longer matters, and the accusation already named the winner.
            if event.winner is None:
                lines += [*pending_glass, text]
            pending_glass = []
            continue
        if isinstance(event, TurnStarted | GlassTaken):
            lines += pending_glass
            pending_glass = []
        lines.append(text)
    lines += pending_glass
    return fit_lines(lines, MESSAGE_LIMIT)


def dm_text(events: Iterable[Event], view: PlayerView) -> str | None:
    """One seat's DM for one applied action: only the private events addressed to that seat;
    None when there are none."""
    voice = Voice.of(view, view.seat)
    lines = [
        text
        for event in events
        if event.audience.scope == "private" and view.seat in event.audience.seats
        if (text := _line(event, view, voice)) is not None
    ]
    return fit_lines(lines, MESSAGE_LIMIT) if lines else None


def case_file_text(view: PlayerView) -> str:
    """The DM sent when play begins: this seat's screen and every holder it can see."""
    return _case_file(view, Voice.of(view, view.seat), view.screen, view.holders)


def pass_hint(cards: Sequence[str]) -> str | None:
    """The rulebook's advice when `cards` (a hand of five, or a chosen three) hold a whole
    suit: avoid passing three cards of one suit. None when no suit is complete."""
    for suit in SUIT_EMOJI:
        members = [c for c in cards if CARDS[c].suit == suit]
        if {CARDS[c].category for c in members} == set(Category):
            named = [card_label(c) for c in members]
            return (
                f"💡 {', '.join(named[:-1])} and {named[-1]} are all {suit.capitalize()}: "
                "the rulebook advises against passing three cards of one suit."
            )
    return None


# ---------------------------------------------------------------- one line per event


def _line(event: Event, view: PublicView, v: Voice) -> str | None:
    match event:
        case GameStarted():
            return _game_started(event, view, v)
        case CardsDealt():
            return _cards_dealt(event, view, v)
        case PassChosen():
            return _pass_chosen(event, view, v)
        case PlayBegan():
            return _play_began(event, view, v)
        case CaseFile():
            return _case_file(view, v, event.screen, event.holders)
        case TurnStarted():
            return _turn_started(event, view, v)
        case GlassTaken():
            source = "the supply" if event.source is None else v.who(event.source)
            taker = f"{v.who(event.seat, start=True)} {v.verb(event.seat, 'takes', 'take')}"
            return f"🔎 {taker} a magnifying glass from {source}."
        case GlassMoved():
            return _glass_moved(event, v)
        case QuestionAnswered():
            return _question(event, view, v)
        case SecretQuestionAsked():
            return (
                f"🤫 {v.who(event.asker, True)} asked {v.who(event.witness)} a Top Secret question."
            )
        case InformantConsulted():
            return f"🗂️ {v.who(event.seat, True)} consulted informant **{event.letter}**."
        case InformantCard():
            return f"🕵️ Informant **{event.letter}** is **{card_label(event.card)}**."
        case AccusationMade():
            return _accusation(event, v)
        case GameOver():
            return _game_over(event, v)
    return None


def _game_started(event: GameStarted, view: PublicView, v: Voice) -> str:
    order = " ➡️ ".join(v.who(i) for i in range(len(view.seats)))
    first = v.who(event.starter, start=True)
    return (
        f"🕵️ **13 Clues** begins! Seats, clockwise: {order} ➡️ back to {v.who(0)}. "
        f"{first} will play first.\n"
        "Everyone: choose 1 Person, 1 Location and 1 Weapon from your five cards for the card "
        "holder of the player on your left (`/13clues pass`, or the menu in your DMs)."
    )


def _cards_dealt(event: CardsDealt, view: PublicView, v: Voice) -> str:
    left = (event.seat + 1) % len(view.seats)
    sides = (
        " (`/13clues hand` shows which is your left and which your right card)"
        if len(view.seats) == 2
        else ""
    )
    text = (
        f"🃏 Your five cards: {cards_label(event.cards, ', ')}.\n"
        f"Choose 1 Person, 1 Location and 1 Weapon for {v.whose(left)} card holder "
        f"({v.plain(left)} sits on your left): `/13clues pass`. "
        f"The other two stay behind your screen{sides}."
    )
    hint = pass_hint(event.cards)
    return f"{text}\n{hint}" if hint else text


def _pass_chosen(event: PassChosen, view: PublicView, v: Voice) -> str:
    if event.audience.scope == "private" and event.cards:
        left = (event.seat + 1) % len(view.seats)
        text = f"✅ You pass {cards_label(event.cards, ', ')} to {v.whose(left)} card holder."
        if isinstance(view, PlayerView) and view.seat == event.seat and event.waiting_for:
            # The last to choose gets the whole case file right after; say it once.
            kept = [c for c in view.dealt if c not in event.cards]
            text += "\n" + _screen_line(kept, two_players=len(view.seats) == 2)
        return text
    who = v.who(event.seat, start=True)
    done = f"{who} {v.verb(event.seat, 'has', 'have')} chosen the cards to pass"
    if event.waiting_for:
        return f"📨 {done} (waiting for {v.names_list(event.waiting_for)})."
    return f"📨 {done}: everyone is ready."


def _play_began(event: PlayBegan, view: PublicView, v: Voice) -> str:
    parts = ["🔍 Every card holder is filled: play begins!"]
    if view.options.uses_glasses:
        parts.append(f"Everyone holds 🔎 1; the supply holds {glasses_icons(event.supply)}.")
    else:
        parts.append("No magnifying glasses with two players: one action per turn.")
    if event.letters:
        parts.append(f"Secret Informant: {range_label(event.letters)}.")
    else:
        parts.append("No Secret Informant with six players.")
    parts.append(f"{v.who(event.starter, start=True)} {v.verb(event.starter, 'starts', 'start')}.")
    return " ".join(parts)


def _turn_started(event: TurnStarted, view: PublicView, v: Voice) -> str:
    mine = event.seat == v.me
    head = f"▶️ Turn {event.turn_number}: " + (
        "**your turn**" if mine else f"{v.who(event.seat)} to play"
    )
    if not view.options.uses_glasses:
        return f"{head}."
    if event.must_take:
        who = v.who(event.seat, start=True)
        return (
            f"{head}. {who} {v.verb(event.seat, 'holds', 'hold')} no glass and the supply is "
            f"empty: {v.plain(event.seat)} must take a magnifying glass from another player "
            "(`/13clues take`)."
        )
    actions = "1 action" if event.glasses == 1 else f"{event.glasses} actions"
    return f"{head} — {glasses_icons(event.glasses)} ({actions})."


def _glass_moved(event: GlassMoved, v: Voice) -> str:
    whose = v.whose(event.giver, start=True)
    if event.receiver is None:
        if event.reason == "wrong_accusation":
            glasses = "glass goes" if event.count == 1 else f"{event.count} glasses go"
            return f"🔎 {whose} remaining {glasses} back to the supply: the turn ends."
        return f"🔎 {whose} glass goes back to the supply."
    return f"🔎 {whose} glass goes to {v.who(event.receiver)}."


def _question(event: QuestionAnswered, view: PublicView, v: Voice) -> str:
    sees = v.verb(event.witness, "sees", "see")
    counted = f"{v.plain(event.witness)} {sees}"
    if event.side is not None:
        counted += f", including the card on {v.whose(event.witness, bold=False)} {event.side}"
    secret = " (Top Secret)" if event.top_secret else ""
    text = (
        f"{'🤫' if event.top_secret else '❓'} {v.who(event.asker, True)} asked "
        f"{v.who(event.witness)}{secret} how many {subject_phrase(event.subject)} {counted}: "
        f"**{event.answer}**."
    )
    if event.top_secret:
        others = [s for s in (event.asker, event.witness) if s != v.me]
        if len(others) == 1:
            text += f" Only you and {v.who(others[0])} know this."
    return text


def _accusation(event: AccusationMade, v: Voice) -> str:
    if event.cards:
        named = cards_label(event.cards, ", ")
        who = "You" if event.seat == v.me else v.who(event.seat, True)
        if event.correct:
            return f"⚖️ {who} accused {named}: ✅ right!"
        return f"⚖️ {who} accused {named}: ❌ wrong (at least one is not on your holder)."
    who = v.who(event.seat, start=True)
    if event.correct:
        mystery = "your" if event.seat == v.me else "the"
        wins = v.verb(event.seat, "wins", "win")
        return (
            f"⚖️ {who} made an accusation: ✅ right — {v.plain(event.seat)} solved {mystery} "
            f"mystery and {wins}!"
        )
    return f"⚖️ {who} made an accusation: ❌ wrong."


def _game_over(event: GameOver, v: Voice) -> str:
    if event.winner is not None:
        return f"🏁 Game over: {v.who(event.winner)} solved the mystery! Everything is revealed."
    reason = f" {event.reason}" if event.reason and event.reason != "solved" else ""
    if not any(event.holders):  # ended during the pass phase: no mystery was ever formed
        return (f"🏁 The game ended before the cards were passed, so play never began.{reason} "
                "The cards each seat was dealt are revealed.")
    return f"🏁 The game ended without a winner.{reason} Everything is revealed."


def _mystery_lines(event: GameOver, v: Voice) -> list[str]:
    return [
        f"• {v.whose(seat, start=True)} mystery: {cards_label(cards)}"
        for seat, cards in enumerate(event.holders)
        if cards
    ]


# ---------------------------------------------------------------- shared pieces


def _screen_line(screen: Sequence[str], *, two_players: bool) -> str:
    if not screen:
        return "Behind your screen: nothing yet."
    if two_players and len(screen) == 2:
        return (
            f"Behind your screen: ⬅️ left {card_label(screen[0])} · {card_label(screen[1])} right ➡️"
        )
    return f"Behind your screen: {cards_label(screen)}"


def _case_file(
    view: PublicView, v: Voice, screen: Sequence[str], holders: Mapping[int, Sequence[str]]
) -> str:
    lines = [
        "🗂️ **Your case file**: play begins!",
        _screen_line(screen, two_players=len(view.seats) == 2),
        "Card holders you can see:",
    ]
    for seat in range(len(view.seats)):
        if seat == v.me:
            lines.append(f"• **You**: {MYSTERY} (your mystery: find these three cards)")
        elif holders.get(seat):
            lines.append(f"• {v.who(seat)}: {cards_label(holders[seat])}")
    lines.append("`/13clues hand` shows this again at any time.")
    return fit_lines(lines, MESSAGE_LIMIT)


def consulted_answer(events: Iterable[Event], done: str) -> str:
    """The answer to a member who consulted an informant: the card itself (their own
    ephemeral answer, which works with closed DMs too), after `done`."""
    seen = [f"🕵️ Informant **{e.letter}** is {card_label(e.card)}."
            for e in events if isinstance(e, InformantCard)]
    return "\n".join([done, *seen]) if seen else done


def pass_answer(state: GameState, events: Iterable[Event], done: str) -> str:
    """The answer to a member's pass choice, said once (their DM does not repeat it): the
    cards passed, to whom, and what stays behind their screen."""
    for event in events:
        if isinstance(event, PassChosen) and event.cards:
            view = player_view(state, event.seat)
            return _line(event, view, Voice.of(view, view.seat)) or done
    return done
