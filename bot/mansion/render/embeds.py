"""The embeds: the living table message, the lobby, one seat's secrets, the notes grid.

Table and lobby embeds read a PublicView (or the lobby's options) only; a seat's embeds read
only its PlayerView. Every builder stays within Discord's embed limits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.mansion.render.labels import (
    TITLE,
    Voice,
    action_name,
    by_kind,
    card_name,
    clip,
    fit_lines,
    plain_name,
    triple_text,
)
from bot.mansion.render.lines import VARIANT_NAME, prompt_text, voice, waiting_text
from engine.mansion.cards import ACTIONS
from engine.mansion.observations import AccusationSeen, TipSeen
from engine.mansion.views import PlayerView, PublicView

FIELD = 1024
DESCRIPTION = 4096
COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_PLAY = discord.Colour.dark_green()
COLOUR_OVER = discord.Colour.gold()
COLOUR_SECRET = discord.Colour.dark_purple()
FOOTER = "/mansion turn plays your turn · /mansion hand shows your secrets · /mansion notes"
FOOTER_OVER = "Game over · /mansion replay steps through it · /history lists the games played here"


def _field(embed: discord.Embed, name: str, value: str, *, inline: bool = False) -> None:
    embed.add_field(name=clip(name, 256), value=clip(value or "—", FIELD), inline=inline)


def title_of(view: PublicView) -> str:
    title = f"{TITLE} — {VARIANT_NAME[view.options.variant]}"
    if view.options.series_wins > 1:
        title += f" · game {view.round} (first to {view.options.series_wins} wins)"
    return title


# ---------------------------------------------------------------- the table


def status_line(view: PublicView, v: Voice) -> str:
    """Where the game stands, in one or two lines (public)."""
    if view.phase == "over":
        if view.master is not None:
            if view.options.series_wins > 1:
                return f"🏆 {v.who(view.master)} is the Master Detective!"
            return f"🏆 {v.who(view.master)} wins! {view.end_reason}"
        escaped = view.rounds[-1].winner if view.ended_by == "escaped" else None
        if escaped is not None:
            return f"🏆 {v.who(escaped)}, the fugitive, escapes and wins! {view.end_reason}"
        return f"🏁 The table is over. {view.end_reason}".strip()
    if view.phase == "choosing_solution":
        return f"🦹 {v.who(view.fugitive or 0)}, the fugitive, is choosing the solution."
    head = f"▶️ **Turn {view.turn_number}**"
    if all(p.seat == view.turn for p in view.waiting):
        doing = ("; ".join(waiting_text(p, v) for p in view.waiting)
                 or f"{v.who(view.turn)} to play")
        return f"{head}: {doing}."
    waits = "; ".join(waiting_text(p, v) for p in view.waiting)
    return f"{head}: {v.whose(view.turn)} turn.\n⏳ Waiting for {waits}."


def seat_line(view: PublicView, seat: int, v: Voice) -> str:
    info = view.seats[seat]
    if view.phase == "over":
        won = view.master if view.ended_by != "escaped" else view.rounds[-1].winner
        mark = "🏆" if seat == won else "▫️"
    elif view.phase == "playing" and seat == view.turn:
        mark = "▶️"
    else:
        mark = "▫️"
    tags = []
    if info.fugitive:
        tags.append("🦹 fugitive")
    if info.eliminated:
        tags.append("❌ accused wrongly")
    parts = [f"📍 {card_name(info.marker)}" if info.marker else "📍 —",
             f"🂠 {_count(info.clue_count, 'clue')}"]
    if not info.fugitive:
        parts.append(f"🎴 {_count(info.action_count, 'action')}")
    if view.options.series_wins > 1:
        parts.append(f"⭐ {info.score}")
    tag = f" ({', '.join(tags)})" if tags else ""
    return f"{mark} {v.who(seat)}{tag} — {' · '.join(parts)}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def table_embed(view: PublicView) -> discord.Embed:
    """The living table message: turn, waits, markers, hand sizes, piles, accusers, score."""
    v = voice(view)
    colour = COLOUR_OVER if view.phase == "over" else COLOUR_PLAY
    embed = discord.Embed(title=title_of(view), colour=colour)
    # at the end the news beside it says who won and how, once; the seats carry the 🏆
    lines = ["🏁 Game over." if view.phase == "over" else status_line(view, v), "",
             "**Seats**, clockwise ⤵️"]
    lines += [seat_line(view, i, v) for i in range(len(view.seats))]
    embed.description = clip("\n".join(lines), DESCRIPTION)
    if view.phase != "over":
        tray = ", ".join(card_name(d) for d in view.tray) or "none"
        _field(embed, "📍 By the tray", tray)
        piles = f"draw pile **{view.draw_size}** · discard **{len(view.discard)}**"
        if view.played is not None:
            piles += f" · on the table: **{action_name(view.played)}**"
        _field(embed, "🎴 Action cards", piles)
    if view.options.series_wins > 1:
        scores = " · ".join(f"{v.plain(i)} {s.score}" for i, s in enumerate(view.seats))
        _field(embed, f"⭐ Crimes solved (first to {view.options.series_wins})", scores)
    # at the end the news above says the solution once; the footer offers what still works
    embed.set_footer(text=FOOTER_OVER if view.phase == "over" else FOOTER)
    return embed


# ---------------------------------------------------------------- the lobby


ASSIST_BLURB = {
    "off": "off: `/mansion notes` shows only what you have seen",
    "bookkeeping": "bookkeeping: `/mansion notes` crosses out what you have seen",
    "full": "full: `/mansion notes` deduces everything, with the odds",
}


def lobby_embed(host: str, players: Sequence[str], options: Mapping[str, object]
                ) -> discord.Embed:
    """A table waiting for players: variant, series, assist, timer, seats, how to join."""
    variant = str(options.get("variant", "standard"))
    series = int(str(options.get("series", 1)))
    assist = str(options.get("assist", "off"))
    minutes = int(str(options.get("turn_minutes", 0)))
    embed = discord.Embed(
        title=f"{TITLE} — new table",
        description=f"Hosted by **{plain_name(host)}**. 3 to 5 players.",
        colour=COLOUR_LOBBY,
    )
    _field(embed, "Variant", "One Against All (a fugitive drawn at random)"
           if variant == "one-against-all" else "standard game", inline=True)
    _field(embed, "Series", "a single game" if series == 1 else f"first to {series} wins",
           inline=True)
    _field(embed, "🧮 Assist", ASSIST_BLURB.get(assist, assist), inline=True)
    _field(embed, "⏱️ Turn timer", f"{minutes} min" if minutes else "off", inline=True)
    seated = [f"{i}. **{plain_name(p)}**" for i, p in enumerate(players, 1)]
    _field(embed, f"Seats {len(players)}/5", "\n".join(seated) or "nobody yet")
    _field(embed, "How to join",
           "**Join** or `/mansion join`; the host can `/mansion add-ai`, then **Start** when "
           "3–5 players are seated.")
    embed.set_footer(text="/mansion rules explains the game")
    return embed


# ---------------------------------------------------------------- one seat's secrets


def hand_embed(view: PlayerView) -> discord.Embed:
    """Everything this seat may see: its hands, where it is, the solution if it knows it,
    what it was shown, snooped and tipped, and what it must answer now."""
    v = voice(view, view.seat)
    embed = discord.Embed(title=f"🗝️ Your secrets — {TITLE}", colour=COLOUR_SECRET)
    if view.prompt is not None:
        embed.description = prompt_text(view.prompt, view, v)
    else:
        embed.description = status_line(view, voice(view))
    me = view.seats[view.seat]
    _field(embed, "🃏 Your Clue cards", by_kind(view.clues))
    if not me.fugitive:
        cards = "\n".join(_action_line(c) for c in view.actions) or "none"
        _field(embed, "🎴 Your Action cards", cards, inline=True)
    if me.marker:
        _field(embed, "📍 You are at", card_name(me.marker), inline=True)
    if view.solution is not None and view.phase != "over":
        how = "you chose it" if me.fugitive else "you saw it when you accused"
        _field(embed, f"🔓 The solution ({how})", triple_text(view.solution))
    seen = _seen_lines(view, v)
    if seen:
        _field(embed, "👁️ What you have seen", fit_lines(seen, FIELD))
    tips = _tip_lines(view, v)
    if tips:
        _field(embed, "🤫 Private Tips", fit_lines(tips, FIELD, keep_last=True))
    mine = [o for o in view.observations if isinstance(o, AccusationSeen)
            and o.seat == view.seat and o.named is not None]
    for acc in mine:
        verdict = "right" if acc.correct else "wrong"
        assert acc.named is not None
        _field(embed, "⚖️ Your accusation", f"{triple_text(acc.named)}: {verdict}")
    if view.phase == "over" and view.rounds:
        last = view.rounds[-1]
        if last.solution is not None:
            _field(embed, "🔓 The solution", triple_text(last.solution))
        hands = [f"{v.who(i, start=True)}: {', '.join(card_name(c) for c in h)}"
                 for i, h in enumerate(last.hands)]
        _field(embed, "🃏 Every hand", fit_lines(hands, FIELD))
    return embed


def _action_line(card: str) -> str:
    info = ACTIONS[card]
    return f"**{info.name}**"


def _seen_lines(view: PlayerView, v: Voice) -> list[str]:
    """Cards this seat knows another seat holds, by holder."""
    by_seat: dict[int, list[str]] = {}
    for card, holder in view.known_holders().items():
        if holder != view.seat:
            by_seat.setdefault(holder, []).append(card)
    return [f"{v.who(seat, start=True)}: {', '.join(card_name(c) for c in sorted(cards))}"
            for seat, cards in sorted(by_seat.items())]


def _tip_lines(view: PlayerView, v: Voice) -> list[str]:
    lines = []
    for o in view.observations:
        if not isinstance(o, TipSeen) or o.card is None:
            continue
        ask = ACTIONS[o.card].ask
        answer = ("waiting for the answer" if o.cards is None
                  else ", ".join(card_name(c) for c in o.cards) or "nothing")
        if o.seat == view.seat:
            lines.append(f"You → {v.plain(o.target)}: *{ask}* — {answer}")
        else:
            lines.append(f"{v.plain(o.seat)} → you: *{ask}* — you returned {answer}"
                         if o.cards is not None else
                         f"{v.plain(o.seat)} → you: *{ask}* — not answered yet")
    return lines
