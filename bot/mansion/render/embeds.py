"""The embeds: the living table message, the lobby, one seat's secrets, the notes grid.

Table and lobby embeds read a PublicView (or the lobby's options) only; a seat's embeds read
only its PlayerView. Every builder stays within Discord's embed limits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import N_, tr
from bot.mansion import words
from bot.mansion.render.labels import (
    TITLE,
    Voice,
    action_name,
    by_kind,
    clip,
    count,
    fit_lines,
    names,
    plain_name,
    triple_text,
)
from bot.mansion.render.lines import prompt_text, reason_text, voice, waiting_text
from bot.mansion.words import VARIANT_NAME, card_name
from bot.messages import COLOUR_LOBBY, COLOUR_OVER, COLOUR_SECRET, DESCRIPTION_LIMIT, FIELD_LIMIT
from engine.mansion.observations import AccusationSeen, TipSeen
from engine.mansion.views import PlayerView, PublicView

COLOUR_PLAY = discord.Colour.dark_green()
FOOTER = N_("/mansion turn plays your turn · /mansion hand shows your secrets · /mansion notes")
FOOTER_OVER = N_("Game over · /mansion replay steps through it · /history lists the games "
                 "played here")


def _field(embed: discord.Embed, name: str, value: str, *, inline: bool = False) -> None:
    embed.add_field(name=clip(name, 256), value=clip(value or "—", FIELD_LIMIT), inline=inline)


def title_of(view: PublicView, lang: str) -> str:
    title = f"{TITLE} — {tr(lang, VARIANT_NAME[view.options.variant])}"
    if view.options.series_wins > 1:
        title += " · " + tr(lang, "game {round} (first to {wins} wins)", round=view.round,
                            wins=view.options.series_wins)
    return title


# ---------------------------------------------------------------- the table


def status_line(view: PublicView, v: Voice) -> str:
    """Where the game stands, in one or two lines (public)."""
    lang = v.lang
    if view.phase == "over":
        reason = reason_text(lang, view.end_reason)
        if view.master is not None:
            if view.options.series_wins > 1:
                return tr(lang, "🏆 {seat} is the Master Detective!", seat=v.who(view.master))
            return tr(lang, "🏆 {seat} wins! {reason}", seat=v.who(view.master), reason=reason)
        escaped = view.rounds[-1].winner if view.ended_by == "escaped" else None
        if escaped is not None:
            return tr(lang, "🏆 {seat}, the fugitive, escapes and wins! {reason}",
                      seat=v.who(escaped), reason=reason)
        return tr(lang, "🏁 The table is over. {reason}", reason=reason).strip()
    if view.phase == "choosing_solution":
        return tr(lang, "🦹 {seat}, the fugitive, is choosing the solution.",
                  seat=v.who(view.fugitive or 0))
    head = tr(lang, "▶️ **Turn {turn}**", turn=view.turn_number)
    if all(p.seat == view.turn for p in view.waiting):
        doing = ("; ".join(waiting_text(p, v) for p in view.waiting)
                 or tr(lang, "{seat} to play", seat=v.who(view.turn)))
        return f"{head}: {doing}."
    waits = "; ".join(waiting_text(p, v) for p in view.waiting)
    return head + tr(lang, ": {seat}'s turn.\n⏳ Waiting for {waits}.", seat=v.who(view.turn),
                     waits=waits)


def seat_line(view: PublicView, seat: int, v: Voice) -> str:
    info, lang = view.seats[seat], v.lang
    if view.phase == "over":
        won = view.master if view.ended_by != "escaped" else view.rounds[-1].winner
        mark = "🏆" if seat == won else "▫️"
    elif view.phase == "playing" and seat == view.turn:
        mark = "▶️"
    else:
        mark = "▫️"
    tags = []
    if info.fugitive:
        tags.append(tr(lang, "🦹 fugitive"))
    if info.eliminated:
        tags.append(tr(lang, "❌ accused wrongly"))
    parts = [f"📍 {card_name(lang, info.marker)}" if info.marker else "📍 —",
             f"🂠 {count(lang, info.clue_count, 'clue')}"]
    if not info.fugitive:
        parts.append(f"🎴 {count(lang, info.action_count, 'action')}")
    if view.options.series_wins > 1:
        parts.append(f"⭐ {info.score}")
    tag = f" ({', '.join(tags)})" if tags else ""
    return f"{mark} {v.who(seat)}{tag} — {' · '.join(parts)}"


def table_embed(view: PublicView, lang: str) -> discord.Embed:
    """The living table message: turn, waits, markers, hand sizes, piles, accusers, score."""
    v = voice(view, lang=lang)
    colour = COLOUR_OVER if view.phase == "over" else COLOUR_PLAY
    embed = discord.Embed(title=title_of(view, lang), colour=colour)
    # at the end the news beside it says who won and how, once; the seats carry the 🏆
    lines = [tr(lang, "🏁 Game over.") if view.phase == "over" else status_line(view, v), "",
             tr(lang, "**Seats**, clockwise ⤵️")]
    lines += [seat_line(view, i, v) for i in range(len(view.seats))]
    embed.description = clip("\n".join(lines), DESCRIPTION_LIMIT)
    if view.phase != "over":
        _field(embed, tr(lang, "📍 By the tray"), names(lang, view.tray))
        piles = tr(lang, "draw pile **{draw}** · discard **{discard}**", draw=view.draw_size,
                   discard=len(view.discard))
        if view.played is not None:
            piles += " · " + tr(lang, "on the table: **{card}**",
                                card=action_name(lang, view.played))
        _field(embed, tr(lang, "🎴 Action cards"), piles)
    if view.options.series_wins > 1:
        scores = " · ".join(f"{v.plain(i)} {s.score}" for i, s in enumerate(view.seats))
        _field(embed, tr(lang, "⭐ Crimes solved (first to {wins})",
                         wins=view.options.series_wins), scores)
    # at the end the news above says the solution once; the footer offers what still works
    footer = FOOTER_OVER if view.phase == "over" else FOOTER
    embed.set_footer(text=tr(lang, footer))
    return embed


# ---------------------------------------------------------------- the lobby


ASSIST_BLURB = {
    "off": N_("off: `/mansion notes` shows only what you have seen"),
    "bookkeeping": N_("bookkeeping: `/mansion notes` crosses out what you have seen"),
    "full": N_("full: `/mansion notes` deduces everything, with the odds"),
}


def lobby_embed(host: str, players: Sequence[str], options: Mapping[str, object], lang: str
                ) -> discord.Embed:
    """A table waiting for players: variant, series, assist, timer, seats, how to join."""
    variant = str(options.get("variant", "standard"))
    series = int(str(options.get("series", 1)))
    assist = str(options.get("assist", "off"))
    minutes = int(str(options.get("turn_minutes", 0)))
    embed = discord.Embed(
        title=f"{TITLE} — {tr(lang, 'new table')}",
        description=tr(lang, "Hosted by **{host}**. 3 to 5 players.", host=plain_name(host)),
        colour=COLOUR_LOBBY,
    )
    _field(embed, tr(lang, "Variant"),
           tr(lang, "One Against All (a fugitive drawn at random)")
           if variant == "one-against-all" else tr(lang, "standard game"), inline=True)
    _field(embed, tr(lang, "Series"), tr(lang, "a single game") if series == 1
           else tr(lang, "first to {wins} wins", wins=series), inline=True)
    _field(embed, tr(lang, "🧮 Assist"),
           tr(lang, ASSIST_BLURB[assist]) if assist in ASSIST_BLURB else assist, inline=True)
    _field(embed, tr(lang, "⏱️ Turn timer"),
           tr(lang, "{minutes} min", minutes=minutes) if minutes else tr(lang, "off"),
           inline=True)
    seated = [f"{i}. **{plain_name(p)}**" for i, p in enumerate(players, 1)]
    _field(embed, tr(lang, "Seats {seated}/5", seated=len(players)),
           "\n".join(seated) or tr(lang, "nobody yet"))
    _field(embed, tr(lang, "How to join"),
           tr(lang, "**Join** or `/mansion join`; the host can `/mansion add-ai`, then **Start** "
                    "when 3–5 players are seated."))
    embed.set_footer(text=tr(lang, "/mansion rules explains the game"))
    return embed


# ---------------------------------------------------------------- one seat's secrets


def hand_embed(view: PlayerView, lang: str) -> discord.Embed:
    """Everything this seat may see: its hands, where it is, the solution if it knows it,
    what it was shown, snooped and tipped, and what it must answer now."""
    v = voice(view, view.seat, lang)
    embed = discord.Embed(title=tr(lang, "🗝️ Your secrets — {title}", title=TITLE),
                          colour=COLOUR_SECRET)
    if view.prompt is not None:
        embed.description = prompt_text(view.prompt, view, v)
    else:
        embed.description = status_line(view, voice(view, lang=lang))
    me = view.seats[view.seat]
    _field(embed, tr(lang, "🃏 Your Clue cards"), by_kind(lang, view.clues))
    if not me.fugitive:
        cards = "\n".join(f"**{action_name(lang, c)}**" for c in view.actions) or tr(lang, "none")
        _field(embed, tr(lang, "🎴 Your Action cards"), cards, inline=True)
    if me.marker:
        _field(embed, tr(lang, "📍 You are at"), card_name(lang, me.marker), inline=True)
    if view.solution is not None and view.phase != "over":
        _field(embed, tr(lang, "🔓 The solution (you chose it)") if me.fugitive
               else tr(lang, "🔓 The solution (you saw it when you accused)"),
               triple_text(lang, view.solution))
    seen = _seen_lines(view, v)
    if seen:
        _field(embed, tr(lang, "👁️ What you have seen"), fit_lines(lang, seen, FIELD_LIMIT))
    tips = _tip_lines(view, v)
    if tips:
        _field(embed, tr(lang, "🤫 Private Tips"),
               fit_lines(lang, tips, FIELD_LIMIT, keep_last=True))
    mine = [o for o in view.observations if isinstance(o, AccusationSeen)
            and o.seat == view.seat and o.named is not None]
    for acc in mine:
        assert acc.named is not None
        named = triple_text(lang, acc.named)
        _field(embed, tr(lang, "⚖️ Your accusation"),
               tr(lang, "{named}: right", named=named) if acc.correct
               else tr(lang, "{named}: wrong", named=named))
    if view.phase == "over" and view.rounds:
        last = view.rounds[-1]
        if last.solution is not None:
            _field(embed, tr(lang, "🔓 The solution"), triple_text(lang, last.solution))
        hands = [f"{v.who(i, start=True)}: {', '.join(card_name(lang, c) for c in h)}"
                 for i, h in enumerate(last.hands)]
        _field(embed, tr(lang, "🃏 Every hand"), fit_lines(lang, hands, FIELD_LIMIT))
    return embed


def _seen_lines(view: PlayerView, v: Voice) -> list[str]:
    """Cards this seat knows another seat holds, by holder."""
    by_seat: dict[int, list[str]] = {}
    for card, holder in view.known_holders().items():
        if holder != view.seat:
            by_seat.setdefault(holder, []).append(card)
    return [f"{v.who(seat, start=True)}: {', '.join(card_name(v.lang, c) for c in sorted(cards))}"
            for seat, cards in sorted(by_seat.items())]


def _tip_lines(view: PlayerView, v: Voice) -> list[str]:
    lines, lang = [], v.lang
    for o in view.observations:
        if not isinstance(o, TipSeen) or o.card is None:
            continue
        ask = words.ask(lang, o.card)
        if o.seat == view.seat:
            answer = (tr(lang, "waiting for the answer") if o.cards is None
                      else names(lang, o.cards) if o.cards else tr(lang, "nothing"))
            lines.append(tr(lang, "You → {target}: *{ask}* — {answer}",
                            target=v.plain(o.target), ask=ask, answer=answer))
        elif o.cards is not None:
            lines.append(tr(lang, "{seat} → you: *{ask}* — you returned {answer}",
                            seat=v.plain(o.seat), ask=ask,
                            answer=names(lang, o.cards) if o.cards else tr(lang, "nothing")))
        else:
            lines.append(tr(lang, "{seat} → you: *{ask}* — not answered yet",
                            seat=v.plain(o.seat), ask=ask))
    return lines
