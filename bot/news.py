"""What a stored change owes the table's people, as letters: each member's DM (headed with the
table it is about), the alert of a member the game now waits on (a ping, a DM, or nothing, as
they chose), and the living table message.

The channel stays quiet: the living message is edited in place, its feed growing, for news
nobody needs to be notified of (a pass chosen, an AI's burst of turns); it is posted anew only
when someone must be told (a member's turn begins with a ping), when the game begins or ends,
or when the feed would grow too long.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from bot import languages
from bot.components import TableButton
from bot.i18n import SOURCE, tr
from bot.messages import CONTENT_LIMIT, Outgoing
from bot.models import LIVING, Letter, Table
from bot.plug import YOUR_TURN, A, AnyGame, E, GameModule, O, S

Alert = Literal["ping", "dm", "silent"]
ALERTS: tuple[Alert, ...] = ("ping", "dm", "silent")
FEED_LIMIT = 1800
"""A living message whose news would grow past this is posted anew instead."""


def link(table: Table) -> str:
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"


def headed(game: GameModule[S, A, E, O], table: Table, out: Outgoing, lang: str) -> Outgoing:
    """A DM names its table: a member at two tables never mixes them up."""
    where = table.place or f"<#{table.channel_id}>"
    go = tr(lang, "go to the table")
    head = f"-# {game.title} · {where} · [{go}]({link(table)})"
    body = out.content or ""
    return out.model_copy(update={"content": f"{head}\n{body}"[:CONTENT_LIMIT].rstrip()})


def headed_in_dm(game: GameModule[S, A, E, O], table: Table, out: Outgoing,
                 guild_id: int | None, lang: str) -> Outgoing:
    """A DM that becomes the answer to its own button (no guild) keeps naming its table."""
    return out if guild_id is not None else headed(game, table, out, lang)


def letters(
    game: AnyGame,
    table: Table,
    state: Any,
    events: Sequence[Any],
    *,
    newly_waiting: Sequence[int],
    alerts: Mapping[int, Alert],
    langs: Mapping[int, str],
    fresh: bool = False,
    channel: bool = True,
    was_lobby: bool = False,
    headline: str | None = None,
    hold: bool = False,
    after_ai: bool = False,
    told: int | None = None,
    acted: int | None = None,
    slow: Mapping[int, Outgoing] | None = None,
) -> tuple[Table, list[Letter]]:
    """The letters of one stored change, and the table with its feed as they leave it.
    `hold`: an AI seat's step that its next step follows: its news joins the feed and goes
    out with that step's edit (one edit for the AI's whole turn, not one per step).
    `after_ai`: only AI seats were waited on before this change, so the living message shows
    its feed without status lines, and may be retired with its feed (held news included).
    `told`: the seat whose answer to its own interaction already shows its news and its next
    prompt with the prompt's buttons: its DM goes only if it brings a picture (a new game's
    hand). Kept DMs (a
    casebook) are brought up to date for the seats to act, not for the others, whose turn
    brings theirs up to date (nor for a seat whose turn just ended: its next turn does).
    `slow`: the letters rendered ahead in the thinkers' pool (`GameModule.slow_letters`), by
    seat. `langs`: each member's language (user → code), that of their DMs; the channel
    reads the table's (`languages.of`). `acted`: the seat whose member's interaction made
    this change: its DMs (and `told`'s) are `own`, first when the budget is short; those of
    the seats to act go after the table message, and the others' are `later`, last (issue
    21)."""
    owed: list[Letter] = []
    to_act = set() if game.is_over(state) else set(game.waiting_on(state))
    own = {s for s in (acted, told) if s is not None}
    first = to_act | own
    prompted: set[int] = set()  # seats this change DMs a prompt: for `dm`, that is the alert
    for seat, ref in enumerate(table.seats):
        if ref.human is None:
            continue
        lang = langs.get(ref.human, SOURCE)
        out = game.letter(table, state, events, seat, lang=lang)
        later, mine = seat not in first, seat in own
        if out is not None and not (seat == told and not out.pictures):
            owed.append(Letter.dm(ref.human, headed(game, table, out, lang),
                                  slot=game.letter_slot(state, events, seat), later=later,
                                  own=mine))
            if out.components:
                prompted.add(seat)
        if slow is not None and seat in slow:
            owed.append(Letter.dm(ref.human, headed(game, table, slow[seat], lang),
                                  later=later, own=mine))
        kept_dms = game.slots(table, state, events, seat, catch_up=seat in newly_waiting,
                              lang=lang) if seat in to_act else {}
        for slot, kept in kept_dms.items():
            owed.append(Letter.dm(ref.human, headed(game, table, kept, lang), slot=slot,
                                  own=mine))
        if not channel and game.is_over(state):  # the channel cannot show the end
            bye = game.farewell(table, state, seat, lang=lang)
            if bye is not None:
                owed.append(Letter.dm(ref.human, headed(game, table, bye, lang), later=later))
    pinged, dms = alerted(game, table, state, newly_waiting, alerts, prompted, langs)
    owed += dms
    if not channel:
        return table, owed
    said = game.news(table, state, events, lang=languages.of(table))
    news = "\n".join(t for t in (headline, said) if t) or None
    fresh = fresh or game.is_over(state)
    if hold and not fresh and not pinged:
        return table.model_copy(update={"feed": [*table.feed, *([news] if news else [])]}), owed
    table, channel_letters = living(game, table, state, news, pinged=pinged,
                                    fresh=fresh, was_lobby=was_lobby, carry_feed=after_ai)
    return table, owed + channel_letters


def alerted(
    game: AnyGame,
    table: Table,
    state: Any,
    newly_waiting: Sequence[int],
    alerts: Mapping[int, Alert],
    prompted: set[int],
    langs: Mapping[int, str],
) -> tuple[list[int], list[Letter]]:
    """One alert per new wait, the way each member chose it: the members to mention in a new
    post (`ping`: only when the table waits on them alone, so a choice several make at once
    pings nobody), and the DM alerts (`dm`); `silent`, or a wait the game needs no alert for,
    gets nothing. A change that DMs a member a prompt (a card to show, a tip to answer) has
    alerted them already, whichever they chose: no mention and no second DM (issue 21: a
    mention costs a new post, and the old one's retiring edit)."""
    waiting = [] if game.is_over(state) else list(game.waiting_on(state))
    pinged: list[int] = []
    dms: list[Letter] = []
    for seat in newly_waiting:
        user = table.seats[seat].human
        if user is None or game.awaited(state, seat, lang=SOURCE) is None:
            continue
        mode = alerts.get(user, "ping")
        if seat in prompted:
            continue
        if mode == "ping" and waiting == [seat]:
            pinged.append(user)
        elif mode == "dm":
            lang = langs.get(user, SOURCE)
            alert = game.alert_dm(table, state, seat, lang=lang)
            dms.append(Letter.dm(user, headed(game, table, alert, lang)))
    return pinged, dms


def fitted(lines: list[str]) -> str:
    """The lines within a message's 2,000 characters: the oldest news goes first (one news
    alone, an AI's long turn, may still be too long: then its end is cut)."""
    while len(lines) > 1 and len("\n".join(lines)) > CONTENT_LIMIT:
        lines = lines[1:]
    return "\n".join(lines)[:CONTENT_LIMIT]


def living(
    game: AnyGame,
    table: Table,
    state: Any | None,
    news: str | None,
    *,
    pinged: Sequence[int] = (),
    fresh: bool = False,
    was_lobby: bool = False,
    carry_feed: bool = False,
) -> tuple[Table, list[Letter]]:
    """The living table message after this news: edited in place with the news added to its
    feed, or posted anew (the old one keeps its news and loses its status and buttons;
    `carry_feed`: its text is set to its feed, which may hold news it never showed)."""
    lang = languages.of(table)
    out = game.table_message(table, state, lang=lang)
    added = [news] if news else []
    feed = [*table.feed, *added]
    waited = [] if state is None or game.is_over(state) else [
        (u, game.awaited(state, s, lang=lang) or tr(lang, YOUR_TURN))
        for s in game.waiting_on(state) if (u := table.seats[s].human) is not None]
    # what each member waited on must do; a mention pings only in a new post, and only those
    # just alerted (`pinged`)
    tail = [f"🔔 <@{u}>: {what}." for u, what in waited]
    if waited and table.deadline is not None:
        when = f"<t:{int(table.deadline)}:R>"
        tail.append(tr(lang, "⏰ An AI plays for them {when}.", when=when) if len(waited) == 1
                    else tr(lang, "⏰ An AI plays {when} for anyone who has not chosen by then.",
                            when=when))
    # the limit counts the whole text: five members' lines under a long feed passed 2,000
    # characters, and Discord refused the edit (`bench.load`, 200 tables)
    fresh = fresh or bool(pinged) or len("\n".join([*feed, *tail])) > FEED_LIMIT
    if fresh:
        feed = added
    lines = [*feed, *tail]
    components = list(out.components)
    if state is not None and game.is_over(state) and table.status == "over" \
            and game.under_way(state):
        again = TableButton(game.prefix, "again", table.id, lang)
        components.append({"type": 1, "components": [again.item.to_component_dict()]})
    body = out.model_copy(update={
        "content": fitted(lines) if lines else out.content,
        "mentions": list(pinged),
        "components": components,
    })
    shown = table.feed
    table = table.model_copy(update={"feed": feed})
    if not fresh:
        return table, [Letter.edit(table.channel_id, LIVING, body)]
    # an AI's held steps joined the feed unchecked: the retired message's feed may pass the
    # limit (2,093 characters at 400 tables, `bench.load`: Discord refused the edit)
    retired = Outgoing(content=fitted(shown)) if carry_feed and shown else Outgoing.retired()
    if was_lobby:
        retired = Outgoing(content=tr(lang, "🪑 **{game}**: this table has started below.",
                                      game=game.title))
    return table, [
        Letter.edit(table.channel_id, LIVING, retired),
        Letter.post(table.channel_id, body, living=True),
    ]
