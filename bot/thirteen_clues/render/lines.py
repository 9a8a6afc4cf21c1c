"""One line of text per engine event, from one viewer's side, and the messages built from
them (the channel's line for an action, a seat's DM).

Secrecy rests on the engine: only events whose audience includes the viewer are rendered,
and a channel message is rendered with no viewer at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot import reasons
from bot.i18n import tr, trn
from bot.thirteen_clues.render.labels import (
    MESSAGE_LIMIT,
    MYSTERY,
    Voice,
    fit_lines,
    glasses_icons,
    range_label,
)
from bot.thirteen_clues.words import (
    SUIT_EMOJI,
    card_label,
    cards_label,
    subject_name,
    subject_phrase,
)
from engine.thirteen_clues import Event, GameState, player_view
from engine.thirteen_clues import events as ev
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.views import PlayerView, PublicView

_SPENT_GLASS_REASONS = ("question", "informant", "accusation", "wrong_accusation")


def event_text(lang: str, event: Event, view: PublicView | PlayerView) -> str | None:
    """The event as one line for the view's reader ("you" for a PlayerView's own seat);
    None when the event is not addressed to that reader or has nothing to say."""
    me = view.seat if isinstance(view, PlayerView) else None
    if event.audience.scope == "private" and (me is None or me not in event.audience.seats):
        return None
    return _line(event, view, Voice.of(lang, view, me))


def channel_text(lang: str, events: Iterable[Event], view: PublicView) -> str:
    """The channel's message for one applied action: public events (and the end reveal),
    named in the third person, at most 2000 characters. "" when nothing is public."""
    voice = Voice.of(lang, view)  # never "you": the channel is everyone's
    lines: list[str] = []
    pending_glass: list[str] = []
    for event in events:
        if event.audience.scope == "private":
            continue
        text = _line(event, view, voice)
        if text is None:
            continue
        if isinstance(event, ev.GlassMoved) and event.reason in _SPENT_GLASS_REASONS:
            # The engine emits the glass before the action it paid for; say the action first.
            pending_glass.append(text)
            continue
        if isinstance(event, ev.GameOver):
            # The reveal beside this news names everything; after a win, where the spent
            # glass went no longer matters, and the accusation already named the winner.
            if event.winner is None:
                lines += [*pending_glass, text]
            pending_glass = []
            continue
        if isinstance(event, ev.TurnStarted | ev.GlassTaken):
            lines += pending_glass
            pending_glass = []
        lines.append(text)
    lines += pending_glass
    return fit_lines(lang, lines, MESSAGE_LIMIT)


def dm_text(lang: str, events: Iterable[Event], view: PlayerView) -> str | None:
    """One seat's DM for one applied action: only the private events addressed to that seat;
    None when there are none."""
    voice = Voice.of(lang, view, view.seat)
    lines = [
        text
        for event in events
        if event.audience.scope == "private" and view.seat in event.audience.seats
        if (text := _line(event, view, voice)) is not None
    ]
    return fit_lines(lang, lines, MESSAGE_LIMIT) if lines else None


def case_file_text(lang: str, view: PlayerView) -> str:
    """The DM sent when play begins: this seat's screen and every holder it can see."""
    return _case_file(view, Voice.of(lang, view, view.seat), view.screen, view.holders)


def pass_hint(lang: str, cards: Sequence[str]) -> str | None:
    """The rulebook's advice when `cards` (a hand of five, or a chosen three) hold a whole
    suit: avoid passing three cards of one suit. None when no suit is complete."""
    for suit in SUIT_EMOJI:
        members = [c for c in cards if CARDS[c].suit == suit]
        if {CARDS[c].category for c in members} == set(Category):
            named = [card_label(lang, c) for c in members]
            return tr(lang, "💡 {cards} and {last} are all {suit}: the rulebook advises against "
                            "passing three cards of one suit.",
                      cards=", ".join(named[:-1]), last=named[-1],
                      suit=subject_name(lang, suit))
    return None


# ---------------------------------------------------------------- one line per event


def _line(event: Event, view: PublicView, v: Voice) -> str | None:
    lang = v.lang
    match event:
        case ev.GameStarted():
            return _game_started(event, view, v)
        case ev.CardsDealt():
            return _cards_dealt(event, view, v)
        case ev.PassChosen():
            return _pass_chosen(event, view, v)
        case ev.PlayBegan():
            return _play_began(event, view, v)
        case ev.CaseFile():
            return _case_file(view, v, event.screen, event.holders)
        case ev.TurnStarted():
            return _turn_started(event, view, v)
        case ev.GlassTaken():
            source = tr(lang, "the supply") if event.source is None else v.who(event.source)
            if v.mine(event.seat):
                return tr(lang, "🔎 You take a magnifying glass from {source}.", source=source)
            return tr(lang, "🔎 {who} takes a magnifying glass from {source}.",
                      who=v.who(event.seat), source=source)
        case ev.GlassMoved():
            return _glass_moved(event, v)
        case ev.QuestionAnswered():
            return _question(event, v)
        case ev.SecretQuestionAsked():
            return tr(lang, "🤫 {asker} asked {witness} a Top Secret question.",
                      asker=v.who(event.asker, True), witness=v.who(event.witness))
        case ev.InformantConsulted():
            return tr(lang, "🗂️ {who} consulted informant **{letter}**.",
                      who=v.who(event.seat, True), letter=event.letter)
        case ev.InformantCard():
            return tr(lang, "🕵️ Informant **{letter}** is **{card}**.",
                      letter=event.letter, card=card_label(lang, event.card))
        case ev.AccusationMade():
            return _accusation(event, v)
        case ev.GameOver():
            return _game_over(event, v)
    return None


def _game_started(event: ev.GameStarted, view: PublicView, v: Voice) -> str:
    order = " ➡️ ".join(v.who(i) for i in range(len(view.seats)))
    if v.mine(event.starter):
        first = tr(v.lang, "You will play first.")
    else:
        first = tr(v.lang, "{who} will play first.", who=v.who(event.starter))
    return tr(
        v.lang,
        "🕵️ **13 Clues** begins! Seats, clockwise: {order} ➡️ back to {first_seat}. {first}\n"
        "Everyone: choose 1 Person, 1 Location and 1 Weapon from your five cards for the card "
        "holder of the player on your left (`/13clues pass`, or the menu in your DMs).",
        order=order, first_seat=v.who(0), first=first,
    )


def _cards_dealt(event: ev.CardsDealt, view: PublicView, v: Voice) -> str:
    left = (event.seat + 1) % len(view.seats)
    lang = v.lang
    sides = (
        tr(lang, " (which is your left and which your right card is drawn when play begins: "
                 "your case file then shows it)")
        if len(view.seats) == 2
        else ""
    )
    text = tr(
        lang,
        "🃏 Your five cards: {cards}.\n"
        "Choose 1 Person, 1 Location and 1 Weapon for {left}'s card holder ({left_plain} sits "
        "on your left): `/13clues pass`. The other two stay behind your screen{sides}.",
        cards=cards_label(lang, event.cards, ", "), left=v.who(left), left_plain=v.plain(left),
        sides=sides,
    )
    hint = pass_hint(lang, event.cards)
    return f"{text}\n{hint}" if hint else text


def _pass_chosen(event: ev.PassChosen, view: PublicView, v: Voice) -> str:
    lang = v.lang
    if event.audience.scope == "private" and event.cards:
        left = (event.seat + 1) % len(view.seats)
        text = tr(lang, "✅ You pass {cards} to {left}'s card holder.",
                  cards=cards_label(lang, event.cards, ", "), left=v.who(left))
        if isinstance(view, PlayerView) and view.seat == event.seat and event.waiting_for:
            # The last to choose gets the whole case file right after; say it once.
            # two players' sides are drawn when play begins (`rules._begin_play`): not yet
            kept = [c for c in view.dealt if c not in event.cards]
            text += "\n" + _screen_line(lang, kept, two_players=False)
        return text
    if v.mine(event.seat):
        if event.waiting_for:
            return tr(lang, "📨 You have chosen the cards to pass (waiting for {waiting}).",
                      waiting=v.names_list(event.waiting_for))
        return tr(lang, "📨 You have chosen the cards to pass: everyone is ready.")
    if event.waiting_for:
        return tr(lang, "📨 {who} has chosen the cards to pass (waiting for {waiting}).",
                  who=v.who(event.seat), waiting=v.names_list(event.waiting_for))
    return tr(lang, "📨 {who} has chosen the cards to pass: everyone is ready.",
              who=v.who(event.seat))


def _play_began(event: ev.PlayBegan, view: PublicView, v: Voice) -> str:
    lang = v.lang
    parts = [tr(lang, "🔍 Every card holder is filled: play begins!")]
    if view.options.uses_glasses:
        parts.append(tr(lang, "Everyone holds 🔎 1; the supply holds {supply}.",
                        supply=glasses_icons(lang, event.supply)))
    else:
        parts.append(tr(lang, "No magnifying glasses with two players: one action per turn."))
    if event.letters:
        parts.append(tr(lang, "Secret Informant: {letters}.",
                        letters=range_label(lang, event.letters)))
    else:
        parts.append(tr(lang, "No Secret Informant with six players."))
    if v.mine(event.starter):
        parts.append(tr(lang, "You start."))
    else:
        parts.append(tr(lang, "{who} starts.", who=v.who(event.starter)))
    return " ".join(parts)


def _turn_started(event: ev.TurnStarted, view: PublicView, v: Voice) -> str:
    lang = v.lang
    mine = v.mine(event.seat)
    if mine:
        head = tr(lang, "▶️ Turn {n}: **your turn**", n=event.turn_number)
    else:
        head = tr(lang, "▶️ Turn {n}: {who} to play", n=event.turn_number,
                  who=v.who(event.seat))
    if not view.options.uses_glasses:
        return f"{head}."
    if event.must_take:
        if mine:
            return tr(lang, "{head}. You hold no glass and the supply is empty: you must take a "
                            "magnifying glass from another player (`/13clues take`).", head=head)
        return tr(lang, "{head}. {who} holds no glass and the supply is empty: {plain} must "
                        "take a magnifying glass from another player (`/13clues take`).",
                  head=head, who=v.who(event.seat), plain=v.plain(event.seat))
    actions = trn(lang, "{n} action", "{n} actions", event.glasses)
    return f"{head} — {glasses_icons(lang, event.glasses)} ({actions})."


def _glass_moved(event: ev.GlassMoved, v: Voice) -> str:
    lang = v.lang
    mine = v.mine(event.giver)
    if event.receiver is None:
        if event.reason == "wrong_accusation":
            # one glass or several (never none): two texts, each whole in every language
            if mine:
                return (tr(lang, "🔎 Your remaining glass goes back to the supply: the turn ends.")
                        if event.count == 1 else
                        tr(lang, "🔎 Your remaining {n} glasses go back to the supply: the turn "
                                 "ends.", n=event.count))
            return (tr(lang, "🔎 {who}'s remaining glass goes back to the supply: the turn ends.",
                       who=v.who(event.giver)) if event.count == 1 else
                    tr(lang, "🔎 {who}'s remaining {n} glasses go back to the supply: the turn "
                             "ends.", who=v.who(event.giver), n=event.count))
        if mine:
            return tr(lang, "🔎 Your glass goes back to the supply.")
        return tr(lang, "🔎 {who}'s glass goes back to the supply.", who=v.who(event.giver))
    if mine:
        return tr(lang, "🔎 Your glass goes to {receiver}.", receiver=v.who(event.receiver))
    return tr(lang, "🔎 {who}'s glass goes to {receiver}.", who=v.who(event.giver),
              receiver=v.who(event.receiver))


def _question(event: ev.QuestionAnswered, v: Voice) -> str:
    lang = v.lang
    params = {"asker": v.who(event.asker, True), "witness": v.who(event.witness),
              "plain": v.plain(event.witness), "answer": event.answer,
              "subject": subject_phrase(lang, event.subject)}
    icon = "🤫" if event.top_secret else "❓"
    secret = tr(lang, " (Top Secret)") if event.top_secret else ""
    if event.side is not None:
        side = tr(lang, "left") if event.side == "left" else tr(lang, "right")
        if v.mine(event.witness):
            counted = tr(lang, "{asker} asked you{secret} how many {subject} you see, including "
                               "the card on your {side}: **{answer}**.",
                         secret=secret, side=side, **params)
        else:
            counted = tr(lang, "{asker} asked {witness}{secret} how many {subject} {plain} sees, "
                               "including the card on {plain}'s {side}: **{answer}**.",
                         secret=secret, side=side, **params)
    elif v.mine(event.witness):
        counted = tr(lang, "{asker} asked you{secret} how many {subject} you see: **{answer}**.",
                     secret=secret, **params)
    else:
        counted = tr(lang, "{asker} asked {witness}{secret} how many {subject} {plain} sees: "
                           "**{answer}**.", secret=secret, **params)
    text = f"{icon} {counted}"
    if event.top_secret:
        others = [s for s in (event.asker, event.witness) if s != v.me]
        if len(others) == 1:
            text += " " + tr(lang, "Only you and {who} know this.", who=v.who(others[0]))
    return text


def _accusation(event: ev.AccusationMade, v: Voice) -> str:
    lang = v.lang
    mine = v.mine(event.seat)
    if event.cards:
        named = cards_label(lang, event.cards, ", ")
        who = tr(lang, "You") if mine else v.who(event.seat, True)
        if event.correct:
            return tr(lang, "⚖️ {who} accused {cards}: ✅ right!", who=who, cards=named)
        return tr(lang, "⚖️ {who} accused {cards}: ❌ wrong (at least one is not on your "
                        "holder).", who=who, cards=named)
    if event.correct:
        if mine:
            return tr(lang, "⚖️ You made an accusation: ✅ right — you solved your mystery and "
                            "win!")
        return tr(lang, "⚖️ {who} made an accusation: ✅ right — {plain} solved the mystery and "
                        "wins!", who=v.who(event.seat), plain=v.plain(event.seat))
    if mine:
        return tr(lang, "⚖️ You made an accusation: ❌ wrong.")
    return tr(lang, "⚖️ {who} made an accusation: ❌ wrong.", who=v.who(event.seat))


def _game_over(event: ev.GameOver, v: Voice) -> str:
    lang = v.lang
    if event.winner is not None:
        return tr(lang, "🏁 Game over: {who} solved the mystery! Everything is revealed.",
                  who=v.who(event.winner))
    reason = f" {reasons.read(lang, event.reason)}" if event.reason and event.reason != "solved" \
        else ""
    if not any(event.holders):  # ended during the pass phase: no mystery was ever formed
        return tr(lang, "🏁 The game ended before the cards were passed, so play never "
                        "began.{reason} The cards each seat was dealt are revealed.",
                  reason=reason)
    return tr(lang, "🏁 The game ended without a winner.{reason} Everything is revealed.",
              reason=reason)


# ---------------------------------------------------------------- shared pieces


def _screen_line(lang: str, screen: Sequence[str], *, two_players: bool) -> str:
    if not screen:
        return tr(lang, "Behind your screen: nothing yet.")
    if two_players and len(screen) == 2:
        return tr(lang, "Behind your screen: ⬅️ left {left} · {right} right ➡️",
                  left=card_label(lang, screen[0]), right=card_label(lang, screen[1]))
    return tr(lang, "Behind your screen: {cards}", cards=cards_label(lang, screen))


def _case_file(
    view: PublicView, v: Voice, screen: Sequence[str], holders: Mapping[int, Sequence[str]]
) -> str:
    lang = v.lang
    lines = [
        tr(lang, "🗂️ **Your case file**: play begins!"),
        _screen_line(lang, screen, two_players=len(view.seats) == 2),
        tr(lang, "Card holders you can see:"),
    ]
    for seat in range(len(view.seats)):
        if seat == v.me:
            lines.append(tr(lang, "• **You**: {mystery} (your mystery: find these three cards)",
                            mystery=MYSTERY))
        elif holders.get(seat):
            lines.append(f"• {v.who(seat)}: {cards_label(lang, holders[seat])}")
    lines.append(tr(lang, "`/13clues hand` shows this again at any time."))
    return fit_lines(lang, lines, MESSAGE_LIMIT)


def consulted_answer(lang: str, events: Iterable[Event], done: str) -> str:
    """The answer to a member who consulted an informant: the card itself (their own
    ephemeral answer, which works with closed DMs too), after `done`."""
    seen = [tr(lang, "🕵️ Informant **{letter}** is {card}.", letter=e.letter,
               card=card_label(lang, e.card))
            for e in events if isinstance(e, ev.InformantCard)]
    return "\n".join([done, *seen]) if seen else done


def pass_answer(lang: str, state: GameState, events: Iterable[Event], done: str) -> str:
    """The answer to a member's pass choice, said once (their DM does not repeat it): the
    cards passed, to whom, and what stays behind their screen."""
    for event in events:
        if isinstance(event, ev.PassChosen) and event.cards:
            view = player_view(state, event.seat)
            return _line(event, view, Voice.of(lang, view, view.seat)) or done
    return done
