"""The embeds: the living table message, the lobby, one seat's hand, the end-of-game reveal.

Every builder clips to Discord's embed limits, so a long game or odd names never turn into
a rejected message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.thirteen_clues.render.labels import (
    CATEGORY_EMOJI,
    GLASS,
    MYSTERY,
    Voice,
    card_label,
    cards_label,
    clip,
    fit_lines,
    glasses_icons,
    plain_name,
    subject_label,
)
from bot.thirteen_clues.render.lines import pass_hint
from engine.thirteen_clues import legal
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.events import GameOver
from engine.thirteen_clues.state import DEFAULT_EDITION, Question
from engine.thirteen_clues.views import PlayerView, PublicView

MAX_SEATS = 6
FOOTER_HINT = "/13clues hand shows your secrets · /13clues log lists every question"

_FIELD_VALUE = 1024
_DESCRIPTION = 4096
_TOTAL = 6000

COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_PLAY = discord.Colour.dark_teal()
COLOUR_OVER = discord.Colour.gold()
COLOUR_SECRET = discord.Colour.dark_purple()


# ---------------------------------------------------------------- the table


def table_title(options_edition: str, top_secret: bool) -> str:
    return f"13 Clues — {options_edition} rules" + (" (Top Secret)" if top_secret else "")


def table_embed(view: PublicView) -> discord.Embed:
    """The living table message: seats clockwise with glasses, whose turn, supply, informants,
    Top Secret tokens, pass-phase progress, and the winner once over. Public facts only."""
    v = Voice.of(view)
    colour = COLOUR_OVER if view.phase == "over" else COLOUR_PLAY
    embed = discord.Embed(
        title=table_title(view.options.edition, view.options.top_secret), colour=colour
    )
    lines = [_table_status(view, v), "", "**Seats**, clockwise ⤵️"]
    for seat in range(len(view.seats)):
        lines.append(
            f"{_seat_marker(view, seat)} {v.who(seat)} {_seat_detail(view, seat)}".rstrip()
        )
    lines.append(f"↩️ then back to {v.who(0)}")
    embed.description = clip("\n".join(lines), _DESCRIPTION)

    if view.phase != "passing":
        if view.turn_number:
            _field(embed, "Turn", str(view.turn_number))
        if view.options.uses_glasses:
            _field(embed, "Supply", glasses_icons(view.supply))
        _field(embed, "Secret Informant", _letters_value(view, v))
    if view.options.top_secret and view.phase != "over":
        holders = [i for i, s in enumerate(view.seats) if not s.top_secret_used]
        left = f"{len(holders)} left" + (f": {v.names_list(holders)}" if holders else "")
        _field(embed, "🤫 Top Secret tokens", left)
    embed.set_footer(text=FOOTER_HINT)
    return _fit(embed)


def _table_status(view: PublicView, v: Voice) -> str:
    if view.phase == "passing":
        done = sum(s.has_passed for s in view.seats)
        waiting = [i for i, s in enumerate(view.seats) if not s.has_passed]
        return (
            f"📨 Choosing the cards to pass left: {done}/{len(view.seats)} ready"
            f" — waiting for {v.names_list(waiting)}."
        )
    if view.phase == "over":
        if view.winner is not None:
            return f"🏆 {v.who(view.winner)} solved the mystery and wins!"
        return "🏁 The game ended without a winner."
    who = v.who(view.turn)
    if not view.options.uses_glasses:
        return f"▶️ {who} to play: one action (ask, consult or accuse)."
    glasses = view.seats[view.turn].glasses
    if legal.must_take(view):
        return (
            f"⚠️ {who} holds no glass and the supply is empty: {v.plain(view.turn)} must take "
            "a magnifying glass from another player (`/13clues take`)."
        )
    return f"▶️ {who} to play with {glasses_icons(glasses)}."


def _seat_marker(view: PublicView, seat: int) -> str:
    if view.phase == "over":
        return "🏆" if seat == view.winner else "▫️"
    if view.phase == "turns" and seat == view.turn:
        return "▶️"
    return "▫️"


def _seat_detail(view: PublicView, seat: int) -> str:
    info = view.seats[seat]
    if view.phase == "passing":
        return "✅ ready" if info.has_passed else "⏳ choosing"
    parts = []
    if view.options.uses_glasses:
        parts.append(glasses_icons(info.glasses))
    if view.options.top_secret and not info.top_secret_used:
        parts.append("🤫")
    return "— " + " ".join(parts) if parts else ""


# ---------------------------------------------------------------- the lobby


def lobby_embed(
    host_name: str, players: Sequence[str], options: Mapping[str, object]
) -> discord.Embed:
    """A table waiting for players: rule set, Top Secret, assist level, seats taken, how to join.

    `options` keys: edition ("2020"|"2016"), top_secret (bool),
    assist ("off"|"bookkeeping"|"full"); missing keys read as the defaults."""
    edition = str(options.get("edition", DEFAULT_EDITION))
    top_secret = bool(options.get("top_secret", False))
    assist = str(options.get("assist", "off"))
    embed = discord.Embed(
        title=table_title(edition, top_secret) + " — new table",
        description=f"Hosted by **{plain_name(host_name)}**. 2 to {MAX_SEATS} players.",
        colour=COLOUR_LOBBY,
    )
    _field(embed, "Rules", _EDITION_BLURB.get(edition, edition), inline=True)
    secret = "on (3–6 players): one secret question each" if top_secret else "off"
    _field(embed, "🤫 Top Secret", secret, inline=True)
    _field(embed, "🧮 Assist", _ASSIST_BLURB.get(assist, assist), inline=True)
    minutes = options.get("turn_minutes") or 0
    _field(embed, "⏰ Turn timer", f"{minutes} min, then an AI plays the turn"
           if minutes else "none: play at your own pace", inline=True)
    seated = [f"{i}. **{plain_name(p)}**" for i, p in enumerate(players, 1)]
    _field(
        embed,
        f"Seats {len(players)}/{MAX_SEATS}",
        fit_lines(seated, _FIELD_VALUE, noun="players") if seated else "nobody yet",
    )
    _field(
        embed,
        "How to join",
        "`/13clues join` to take a seat, `/13clues add-ai` for a computer player; "
        "the host runs `/13clues start` when 2–6 players are seated.",
    )
    embed.set_footer(text="/13clues rules explains the game")
    return _fit(embed)


_EDITION_BLURB = {
    "2020": "2020 (second edition)",
    "2016": "2016 (first edition)",
}
_ASSIST_BLURB = {
    "off": "off: you keep your own notes",
    "bookkeeping": "bookkeeping: `/13clues casebook` crosses out what you have seen",
    "full": "full: `/13clues casebook` also deduces from the answers",
}


# ---------------------------------------------------------------- one seat's hand


def hand_embed(view: PlayerView) -> discord.Embed:
    """Everything this seat may see, for `/13clues hand` (ephemeral) or a DM: never its own
    holder before the end."""
    v = Voice.of(view, view.seat)
    two = len(view.seats) == 2
    left = (view.seat + 1) % len(view.seats)
    embed = discord.Embed(
        title="🗂️ Your case file — 13 Clues",
        description=_hand_status(view, v, left),
        colour=COLOUR_SECRET,
    )
    if view.phase == "passing" or not view.turn_number:  # before play: the five dealt
        _field(embed, "Your five cards", _by_category(view.dealt))
        if view.passed:
            kept = [c for c in view.dealt if c not in view.passed]
            _field(embed, f"You pass to {v.plain(left)}", cards_label(view.passed, "\n"))
            _field(embed, "Behind your screen", _screen_value(kept, two))
        elif view.phase == "passing":
            hint = pass_hint(view.dealt)
            if hint:
                _field(embed, "Tip", hint)
            embed.set_footer(text="Choose with /13clues pass (person, location, weapon)")
        return _fit(embed)

    _field(embed, "Behind your screen", _screen_value(view.screen, two))
    _field(embed, "Card holders", _holders_value(view, v, left))
    if view.letters:
        _field(embed, "🕵️ Secret Informant", _informant_value(view))
    if view.options.top_secret or view.secret_questions:
        _field(embed, "🤫 Top Secret", _secret_value(view, v))
    if view.my_accusations:
        lines = [
            f"{'✅' if a.correct else '❌'} {cards_label(a.cards, ', ')}"
            for a in view.my_accusations
        ]
        _field(
            embed,
            "⚖️ Your accusations",
            fit_lines(lines, _FIELD_VALUE, keep="last", noun="accusations"),
        )
    embed.set_footer(text="Only you can see this. /13clues log lists the public answers.")
    return _fit(embed)


def _hand_status(view: PlayerView, v: Voice, left: int) -> str:
    if view.phase == "passing":
        if view.passed:
            waiting = [i for i, s in enumerate(view.seats) if not s.has_passed]
            return f"✅ Cards chosen. Waiting for {v.names_list(waiting)}."
        return (
            f"Choose 1 Person, 1 Location and 1 Weapon for {v.whose(left)} card holder "
            f"({v.plain(left)} sits on your left). The other two stay behind your screen."
        )
    if view.phase == "over":
        if not view.turn_number:
            return ("🏁 The game ended before the cards were passed, so play never began: "
                    "your five cards are below, everyone's in the table's reveal.")
        if view.winner == view.seat:
            return "🏆 You solved your mystery!"
        if view.winner is not None:
            return f"🏁 {v.who(view.winner)} solved the mystery. Everything is revealed."
        return "🏁 The game ended without a winner. Everything is revealed."
    parts = []
    if view.options.uses_glasses:
        count = view.seats[view.seat].glasses
        held = "no glass" if count == 0 else "1 glass" if count == 1 else f"{count} glasses"
        parts.append(f"{GLASS} You hold {held}.")
    if view.turn == view.seat:
        parts.append("▶️ **It is your turn.**")
    else:
        parts.append(f"{v.who(view.turn, start=True)} is playing.")
    return " ".join(parts)


def _by_category(cards: Sequence[str]) -> str:
    lines = []
    for category in Category:
        mine = [c for c in cards if CARDS[c].category == category]
        if mine:
            lines.append(f"{CATEGORY_EMOJI[category]} {cards_label(mine)}")
    return "\n".join(lines)


def _screen_value(screen: Sequence[str], two_players: bool) -> str:
    if not screen:
        return "—"
    if two_players and len(screen) == 2:
        return f"⬅️ left: {card_label(screen[0])}\nright ➡️: {card_label(screen[1])}"
    return cards_label(screen)


def _holders_value(view: PlayerView, v: Voice, left: int) -> str:
    lines = []
    for seat in range(len(view.seats)):
        if seat == view.seat:
            own = view.reveal.seats[seat].holder if view.reveal is not None else None
            if own:
                lines.append(f"**You**: {cards_label(own)} (revealed)")
            else:
                lines.append(f"**You**: {MYSTERY} — your mystery")
            continue
        cards = view.holders.get(seat) or []
        mark = " (you passed these)" if seat == left else ""
        lines.append(f"{v.who(seat)}: {cards_label(cards) if cards else '—'}{mark}")
    return fit_lines(lines, _FIELD_VALUE)


def _letters_value(view: PublicView, v: Voice) -> str:
    """The informant letters in play, each consulted one marked with who looked at it."""
    if not view.letters:
        return "none (6 players)"
    parts = []
    for letter in view.letters:
        seen_by = list(dict.fromkeys(c.seat for c in view.consultations if c.letter == letter))
        parts.append(f"**{letter}** 👁️ {v.names_list(seen_by)}" if seen_by else letter)
    return clip(" · ".join(parts), _FIELD_VALUE)


def _informant_value(view: PlayerView) -> str:
    seen = [
        f"**{letter}**: {card_label(view.peeks[letter])}"
        for letter in view.letters
        if letter in view.peeks
    ]
    unseen = [letter for letter in view.letters if letter not in view.peeks]
    lines = seen or ["None consulted yet."]
    if seen and unseen:
        lines.append(f"Not consulted: {', '.join(unseen)}")
    return fit_lines(lines, _FIELD_VALUE)


def _secret_value(view: PlayerView, v: Voice) -> str:
    used = view.seats[view.seat].top_secret_used
    lines = ["Your token: used." if used else "Your token: unused (ask with `top_secret: True`)."]
    lines += [_secret_question_line(q, v) for q in view.secret_questions]
    return fit_lines(lines, _FIELD_VALUE)


def _secret_question_line(q: Question, v: Voice) -> str:
    side = f", {q.side} card" if q.side else ""
    pair = f"{v.who(q.asker, True)} → {v.who(q.witness)}"
    return f"{pair}: {subject_label(q.subject)}{side} — **{q.answer}**"


# ---------------------------------------------------------------- the end


def reveal_embed(event: GameOver, view: PublicView, *, outcome: bool = True) -> discord.Embed:
    """Case closed: every seat's holder and screen (or, for a game ended before the pass was
    done, the cards it was dealt), the informant cards, every accusation with its cards, and
    the Top Secret questions. `outcome`: the embed also says who won; False beside the news
    of the end, which says it already (said once)."""
    v = Voice.of(view)
    embed = discord.Embed(
        title=table_title(view.options.edition, view.options.top_secret) + " — case closed",
        colour=COLOUR_OVER,
    )
    if outcome:
        embed.description = clip(outcome_text(event, view), _DESCRIPTION)
    two = len(view.seats) == 2
    for seat, holder in enumerate(event.holders):
        crown = " 🏆" if seat == event.winner else ""
        screen = event.screens[seat] if seat < len(event.screens) else []
        if holder:
            value = (f"Mystery: {cards_label(holder)}\n"
                     f"Screen: {_screen_value(screen, two).replace(chr(10), ' · ')}")
        else:  # ended during the pass phase: the dealt cards are all there is (as drawn)
            value = f"Dealt: {cards_label(event.dealt[seat]) if event.dealt else '—'}"
        _field(embed, f"{plain_name(view.seats[seat].name)}{crown}", value)
    if event.informants:
        letters = [
            f"**{letter}** {card_label(card)}"
            for letter, card in zip("ABCDEFGH", event.informants, strict=False)
        ]
        _field(embed, "🕵️ Secret Informant", " · ".join(letters))
    if event.accusations:
        lines = [
            f"{'✅' if ok else '❌'} {v.who(seat)}: {cards_label(cards, ', ')}"
            for seat, cards, ok in event.accusations
        ]
        _field(
            embed, "⚖️ Accusations", fit_lines(lines, _FIELD_VALUE, keep="last", noun="accusations")
        )
    if event.secret_questions:
        lines = [
            _secret_question_line(
                Question(asker=a, witness=w, subject=s, side=side, answer=n, top_secret=True), v
            )
            for a, w, s, side, n in event.secret_questions
        ]
        _field(embed, "🤫 Top Secret questions", fit_lines(lines, _FIELD_VALUE))
    again = " · Rematch plays again with the same seats" if view.turn_number else ""
    embed.set_footer(text=f"/13clues log lists every question{again}")
    return _fit(embed)


def outcome_text(event: GameOver, view: PublicView) -> str:
    """Who won, or why nobody did, in one line: where no news of the end is beside it (the
    reveal by DM, `status` after the end)."""
    if event.winner is not None:
        return f"🏆 {Voice.of(view).who(event.winner)} solved the mystery and wins!"
    reason = f" {event.reason}" if event.reason and event.reason != "solved" else ""
    return f"🏁 The game ended without a winner.{reason}"


# ---------------------------------------------------------------- limits


def _field(embed: discord.Embed, name: str, value: str, inline: bool = False) -> None:
    if len(embed.fields) >= 25:
        return
    embed.add_field(
        name=clip(name, 256) or "\u200b", value=clip(value, _FIELD_VALUE) or "—", inline=inline
    )


def _fit(embed: discord.Embed) -> discord.Embed:
    """Drop trailing fields until the whole embed is within Discord's 6000 characters."""
    while len(embed) > _TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > _TOTAL and embed.description:
        embed.description = clip(
            embed.description, max(len(embed.description) - (len(embed) - _TOTAL), 0)
        )
    return embed
