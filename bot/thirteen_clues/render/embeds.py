"""The embeds: the living table message, the lobby, one seat's hand, the end-of-game reveal.

Every builder clips to Discord's embed limits, so a long game or odd names never turn into
a rejected message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot import reasons
from bot.i18n import tr, trn
from bot.messages import (
    COLOUR_LOBBY,
    COLOUR_OVER,
    COLOUR_SECRET,
    DESCRIPTION_LIMIT,
    EMBED_LIMIT,
    FIELD_LIMIT,
)
from bot.thirteen_clues.render.labels import (
    CATEGORY_EMOJI,
    GLASS,
    MYSTERY,
    Voice,
    clip,
    fit_lines,
    glasses_icons,
    plain_name,
)
from bot.thirteen_clues.render.lines import pass_hint
from bot.thirteen_clues.words import card_label, cards_label, subject_label
from engine.thirteen_clues import legal
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.events import GameOver
from engine.thirteen_clues.state import DEFAULT_EDITION, Question
from engine.thirteen_clues.views import PlayerView, PublicView

MAX_SEATS = 6

COLOUR_PLAY = discord.Colour.dark_teal()


# ---------------------------------------------------------------- the table


def table_title(lang: str, options_edition: str, top_secret: bool) -> str:
    if top_secret:
        return tr(lang, "13 Clues — {edition} rules (Top Secret)", edition=options_edition)
    return tr(lang, "13 Clues — {edition} rules", edition=options_edition)


def table_embed(lang: str, view: PublicView) -> discord.Embed:
    """The living table message: seats clockwise with glasses, whose turn, supply, informants,
    Top Secret tokens, pass-phase progress, and the winner once over. Public facts only."""
    v = Voice.of(lang, view)
    colour = COLOUR_OVER if view.phase == "over" else COLOUR_PLAY
    embed = discord.Embed(
        title=table_title(lang, view.options.edition, view.options.top_secret), colour=colour
    )
    lines = [_table_status(view, v), "", tr(lang, "**Seats**, clockwise ⤵️")]
    for seat in range(len(view.seats)):
        lines.append(
            f"{_seat_marker(view, seat)} {v.who(seat)} {_seat_detail(lang, view, seat)}".rstrip()
        )
    lines.append(tr(lang, "↩️ then back to {who}", who=v.who(0)))
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)

    if view.phase != "passing":
        if view.turn_number:
            _field(embed, tr(lang, "Turn"), str(view.turn_number))
        if view.options.uses_glasses:
            _field(embed, tr(lang, "Supply"), glasses_icons(lang, view.supply))
        _field(embed, tr(lang, "Secret Informant"), _letters_value(view, v))
    if view.options.top_secret and view.phase != "over":
        holders = [i for i, s in enumerate(view.seats) if not s.top_secret_used]
        left = (tr(lang, "{n} left: {names}", n=len(holders), names=v.names_list(holders))
                if holders else tr(lang, "{n} left", n=0))
        _field(embed, tr(lang, "🤫 Top Secret tokens"), left)
    embed.set_footer(text=tr(lang, "/13clues hand shows your secrets · /13clues log lists every "
                                   "question"))
    return _fit(embed)


def _table_status(view: PublicView, v: Voice) -> str:
    lang = v.lang
    if view.phase == "passing":
        done = sum(s.has_passed for s in view.seats)
        waiting = [i for i, s in enumerate(view.seats) if not s.has_passed]
        return tr(lang, "📨 Choosing the cards to pass left: {done}/{total} ready — waiting for "
                        "{waiting}.", done=done, total=len(view.seats),
                  waiting=v.names_list(waiting))
    if view.phase == "over":
        if view.winner is not None:
            return tr(lang, "🏆 {who} solved the mystery and wins!", who=v.who(view.winner))
        return tr(lang, "🏁 The game ended without a winner.")
    who = v.who(view.turn)
    if not view.options.uses_glasses:
        return tr(lang, "▶️ {who} to play: one action (ask, consult or accuse).", who=who)
    glasses = view.seats[view.turn].glasses
    if legal.must_take(view):
        return tr(lang, "⚠️ {who} holds no glass and the supply is empty: {plain} must take a "
                        "magnifying glass from another player (`/13clues take`).",
                  who=who, plain=v.plain(view.turn))
    return tr(lang, "▶️ {who} to play with {glasses}.", who=who,
              glasses=glasses_icons(lang, glasses))


def _seat_marker(view: PublicView, seat: int) -> str:
    if view.phase == "over":
        return "🏆" if seat == view.winner else "▫️"
    if view.phase == "turns" and seat == view.turn:
        return "▶️"
    return "▫️"


def _seat_detail(lang: str, view: PublicView, seat: int) -> str:
    info = view.seats[seat]
    if view.phase == "passing":
        return tr(lang, "✅ ready") if info.has_passed else tr(lang, "⏳ choosing")
    parts = []
    if view.options.uses_glasses:
        parts.append(glasses_icons(lang, info.glasses))
    if view.options.top_secret and not info.top_secret_used:
        parts.append("🤫")
    return "— " + " ".join(parts) if parts else ""


# ---------------------------------------------------------------- the lobby


def lobby_embed(
    lang: str, host_name: str, players: Sequence[str], options: Mapping[str, object]
) -> discord.Embed:
    """A table waiting for players: rule set, Top Secret, assist level, seats taken, how to join.

    `options` keys: edition ("2020"|"2016"), top_secret (bool),
    assist ("off"|"bookkeeping"|"full"); missing keys read as the defaults."""
    edition = str(options.get("edition", DEFAULT_EDITION))
    top_secret = bool(options.get("top_secret", False))
    assist = str(options.get("assist", "off"))
    embed = discord.Embed(
        title=tr(lang, "{title} — new table", title=table_title(lang, edition, top_secret)),
        description=tr(lang, "Hosted by **{host}**. 2 to {most} players.",
                       host=plain_name(host_name), most=MAX_SEATS),
        colour=COLOUR_LOBBY,
    )
    _field(embed, tr(lang, "Rules"), _edition_blurb(lang, edition), inline=True)
    secret = (tr(lang, "on (3–6 players): one secret question each") if top_secret
              else tr(lang, "off"))
    _field(embed, tr(lang, "🤫 Top Secret"), secret, inline=True)
    _field(embed, tr(lang, "🧮 Assist"), _assist_blurb(lang, assist), inline=True)
    minutes = options.get("turn_minutes") or 0
    _field(embed, tr(lang, "⏰ Turn timer"),
           tr(lang, "{minutes} min, then an AI plays the turn", minutes=minutes)
           if minutes else tr(lang, "none: play at your own pace"), inline=True)
    seated = [f"{i}. **{plain_name(p)}**" for i, p in enumerate(players, 1)]
    _field(
        embed,
        tr(lang, "Seats {taken}/{most}", taken=len(players), most=MAX_SEATS),
        fit_lines(lang, seated, FIELD_LIMIT, noun="players") if seated
        else tr(lang, "nobody yet"),
    )
    _field(
        embed,
        tr(lang, "How to join"),
        tr(lang, "`/13clues join` to take a seat, `/13clues add-ai` for a computer player; the "
                 "host runs `/13clues start` when 2–6 players are seated."),
    )
    embed.set_footer(text=tr(lang, "/13clues rules explains the game"))
    return _fit(embed)


def _edition_blurb(lang: str, edition: str) -> str:
    if edition == "2020":
        return tr(lang, "2020 (second edition)")
    if edition == "2016":
        return tr(lang, "2016 (first edition)")
    return edition


def _assist_blurb(lang: str, assist: str) -> str:
    if assist == "off":
        return tr(lang, "off: you keep your own notes")
    if assist == "bookkeeping":
        return tr(lang, "bookkeeping: `/13clues casebook` crosses out what you have seen")
    if assist == "full":
        return tr(lang, "full: `/13clues casebook` also deduces from the answers")
    return assist


# ---------------------------------------------------------------- one seat's hand


def hand_embed(lang: str, view: PlayerView) -> discord.Embed:
    """Everything this seat may see, for `/13clues hand` (ephemeral) or a DM: never its own
    holder before the end."""
    v = Voice.of(lang, view, view.seat)
    two = len(view.seats) == 2
    left = (view.seat + 1) % len(view.seats)
    embed = discord.Embed(
        title=tr(lang, "🗂️ Your case file — 13 Clues"),
        description=_hand_status(view, v, left),
        colour=COLOUR_SECRET,
    )
    if view.phase == "passing" or not view.turn_number:  # before play: the five dealt
        _field(embed, tr(lang, "Your five cards"), _by_category(lang, view.dealt))
        if view.passed:
            # two players' sides are drawn when play begins (`rules._begin_play`); a game
            # that ended before then has none
            sided = bool(view.screen)
            kept = view.screen or [c for c in view.dealt if c not in view.passed]
            _field(embed, tr(lang, "You pass to {who}", who=v.plain(left)),
                   cards_label(lang, view.passed, "\n"))
            _field(embed, tr(lang, "Behind your screen"), _screen_value(lang, kept,
                                                                       two and sided))
        elif view.phase == "passing":
            hint = pass_hint(lang, view.dealt)
            if hint:
                _field(embed, tr(lang, "Tip"), hint)
            embed.set_footer(text=tr(lang, "Choose with /13clues pass (person, location, "
                                           "weapon)"))
        return _fit(embed)

    _field(embed, tr(lang, "Behind your screen"), _screen_value(lang, view.screen, two))
    _field(embed, tr(lang, "Card holders"), _holders_value(view, v, left))
    if view.letters:
        _field(embed, tr(lang, "🕵️ Secret Informant"), _informant_value(lang, view))
    if view.options.top_secret or view.secret_questions:
        _field(embed, tr(lang, "🤫 Top Secret"), _secret_value(view, v))
    if view.my_accusations:
        lines = [
            f"{'✅' if a.correct else '❌'} {cards_label(lang, a.cards, ', ')}"
            for a in view.my_accusations
        ]
        _field(
            embed,
            tr(lang, "⚖️ Your accusations"),
            fit_lines(lang, lines, FIELD_LIMIT, keep="last", noun="accusations"),
        )
    embed.set_footer(text=tr(lang, "Only you can see this. /13clues log lists the public "
                                   "answers."))
    return _fit(embed)


def _hand_status(view: PlayerView, v: Voice, left: int) -> str:
    lang = v.lang
    if view.phase == "passing":
        if view.passed:
            waiting = [i for i, s in enumerate(view.seats) if not s.has_passed]
            return tr(lang, "✅ Cards chosen. Waiting for {waiting}.",
                      waiting=v.names_list(waiting))
        return tr(lang, "Choose 1 Person, 1 Location and 1 Weapon for {left}'s card holder "
                        "({left_plain} sits on your left). The other two stay behind your "
                        "screen.", left=v.who(left), left_plain=v.plain(left))
    if view.phase == "over":
        if not view.turn_number:
            return tr(lang, "🏁 The game ended before the cards were passed, so play never "
                            "began: your five cards are below, everyone's in the table's "
                            "reveal.")
        if view.winner == view.seat:
            return tr(lang, "🏆 You solved your mystery!")
        if view.winner is not None:
            return tr(lang, "🏁 {who} solved the mystery. Everything is revealed.",
                      who=v.who(view.winner))
        return tr(lang, "🏁 The game ended without a winner. Everything is revealed.")
    parts = []
    if view.options.uses_glasses:
        count = view.seats[view.seat].glasses
        parts.append(tr(lang, "{glass} You hold no glass.", glass=GLASS) if count == 0 else
                     trn(lang, "{glass} You hold {n} glass.", "{glass} You hold {n} glasses.",
                         count, glass=GLASS))
    if view.turn == view.seat:
        parts.append(tr(lang, "▶️ **It is your turn.**"))
    else:
        parts.append(tr(lang, "{who} is playing.", who=v.who(view.turn)))
    return " ".join(parts)


def _by_category(lang: str, cards: Sequence[str]) -> str:
    lines = []
    for category in Category:
        mine = [c for c in cards if CARDS[c].category == category]
        if mine:
            lines.append(f"{CATEGORY_EMOJI[category]} {cards_label(lang, mine)}")
    return "\n".join(lines)


def _screen_value(lang: str, screen: Sequence[str], two_players: bool) -> str:
    if not screen:
        return "—"
    if two_players and len(screen) == 2:
        return tr(lang, "⬅️ left: {left}\nright ➡️: {right}",
                  left=card_label(lang, screen[0]), right=card_label(lang, screen[1]))
    return cards_label(lang, screen)


def _holders_value(view: PlayerView, v: Voice, left: int) -> str:
    lang = v.lang
    lines = []
    for seat in range(len(view.seats)):
        if seat == view.seat:
            own = view.reveal.seats[seat].holder if view.reveal is not None else None
            if own:
                lines.append(tr(lang, "**You**: {cards} (revealed)", cards=cards_label(lang, own)))
            else:
                lines.append(tr(lang, "**You**: {mystery} — your mystery", mystery=MYSTERY))
            continue
        cards = view.holders.get(seat) or []
        shown = cards_label(lang, cards) if cards else "—"
        if seat == left:
            lines.append(tr(lang, "{who}: {cards} (you passed these)", who=v.who(seat),
                            cards=shown))
        else:
            lines.append(f"{v.who(seat)}: {shown}")
    return fit_lines(lang, lines, FIELD_LIMIT)


def _letters_value(view: PublicView, v: Voice) -> str:
    """The informant letters in play, each consulted one marked with who looked at it."""
    if not view.letters:
        return tr(v.lang, "none (6 players)")
    parts = []
    for letter in view.letters:
        seen_by = list(dict.fromkeys(c.seat for c in view.consultations if c.letter == letter))
        parts.append(f"**{letter}** 👁️ {v.names_list(seen_by)}" if seen_by else letter)
    return clip(" · ".join(parts), FIELD_LIMIT)


def _informant_value(lang: str, view: PlayerView) -> str:
    seen = [
        f"**{letter}**: {card_label(lang, view.peeks[letter])}"
        for letter in view.letters
        if letter in view.peeks
    ]
    unseen = [letter for letter in view.letters if letter not in view.peeks]
    lines = seen or [tr(lang, "None consulted yet.")]
    if seen and unseen:
        lines.append(tr(lang, "Not consulted: {letters}", letters=", ".join(unseen)))
    return fit_lines(lang, lines, FIELD_LIMIT)


def _secret_value(view: PlayerView, v: Voice) -> str:
    lang = v.lang
    used = view.seats[view.seat].top_secret_used
    lines = [tr(lang, "Your token: used.") if used
             else tr(lang, "Your token: unused (ask with `top_secret: True`).")]
    lines += [_secret_question_line(q, v) for q in view.secret_questions]
    return fit_lines(lang, lines, FIELD_LIMIT)


def _secret_question_line(q: Question, v: Voice) -> str:
    pair = f"{v.who(q.asker, True)} → {v.who(q.witness)}"
    subject = subject_label(v.lang, q.subject)
    if q.side == "left":
        subject = tr(v.lang, "{subject}, left card", subject=subject)
    elif q.side == "right":
        subject = tr(v.lang, "{subject}, right card", subject=subject)
    return f"{pair}: {subject} — **{q.answer}**"


# ---------------------------------------------------------------- the end


def reveal_embed(lang: str, event: GameOver, view: PublicView, *, outcome: bool = True
                 ) -> discord.Embed:
    """Case closed: every seat's holder and screen (or, for a game ended before the pass was
    done, the cards it was dealt), the informant cards, every accusation with its cards, and
    the Top Secret questions. `outcome`: the embed also says who won; False beside the news
    of the end, which says it already (said once)."""
    v = Voice.of(lang, view)
    embed = discord.Embed(
        title=tr(lang, "{title} — case closed",
                 title=table_title(lang, view.options.edition, view.options.top_secret)),
        colour=COLOUR_OVER,
    )
    if outcome:
        embed.description = clip(outcome_text(lang, event, view), DESCRIPTION_LIMIT)
    two = len(view.seats) == 2
    for seat, holder in enumerate(event.holders):
        crown = " 🏆" if seat == event.winner else ""
        screen = event.screens[seat] if seat < len(event.screens) else []
        if holder:
            value = tr(lang, "Mystery: {mystery}\nScreen: {screen}",
                       mystery=cards_label(lang, holder),
                       screen=_screen_value(lang, screen, two).replace(chr(10), " · "))
        else:  # ended during the pass phase: the dealt cards are all there is (as drawn)
            value = tr(lang, "Dealt: {cards}",
                       cards=cards_label(lang, event.dealt[seat]) if event.dealt else "—")
        _field(embed, f"{plain_name(view.seats[seat].name)}{crown}", value)
    if event.informants:
        letters = [
            f"**{letter}** {card_label(lang, card)}"
            for letter, card in zip("ABCDEFGH", event.informants, strict=False)
        ]
        _field(embed, tr(lang, "🕵️ Secret Informant"), " · ".join(letters))
    if event.accusations:
        lines = [
            f"{'✅' if ok else '❌'} {v.who(seat)}: {cards_label(lang, cards, ', ')}"
            for seat, cards, ok in event.accusations
        ]
        _field(embed, tr(lang, "⚖️ Accusations"),
               fit_lines(lang, lines, FIELD_LIMIT, keep="last", noun="accusations"))
    if event.secret_questions:
        lines = [
            _secret_question_line(
                Question(asker=a, witness=w, subject=s, side=side, answer=n, top_secret=True), v
            )
            for a, w, s, side, n in event.secret_questions
        ]
        _field(embed, tr(lang, "🤫 Top Secret questions"), fit_lines(lang, lines, FIELD_LIMIT))
    footer = (tr(lang, "/13clues log lists every question · Rematch plays again with the same "
                       "seats") if view.turn_number
              else tr(lang, "/13clues log lists every question"))
    embed.set_footer(text=footer)
    return _fit(embed)


def outcome_text(lang: str, event: GameOver, view: PublicView) -> str:
    """Who won, or why nobody did, in one line: where no news of the end is beside it (the
    reveal by DM, `status` after the end)."""
    if event.winner is not None:
        return tr(lang, "🏆 {who} solved the mystery and wins!",
                  who=Voice.of(lang, view).who(event.winner))
    reason = f" {reasons.read(lang, event.reason)}" if event.reason and event.reason != "solved" \
        else ""
    return tr(lang, "🏁 The game ended without a winner.{reason}", reason=reason)


# ---------------------------------------------------------------- limits


def _field(embed: discord.Embed, name: str, value: str, inline: bool = False) -> None:
    if len(embed.fields) >= 25:
        return
    embed.add_field(
        name=clip(name, 256) or "\u200b", value=clip(value, FIELD_LIMIT) or "—", inline=inline
    )


def _fit(embed: discord.Embed) -> discord.Embed:
    """Drop trailing fields until the whole embed is within Discord's 6000 characters."""
    while len(embed) > EMBED_LIMIT and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > EMBED_LIMIT and embed.description:
        embed.description = clip(
            embed.description, max(len(embed.description) - (len(embed) - EMBED_LIMIT), 0)
        )
    return embed
