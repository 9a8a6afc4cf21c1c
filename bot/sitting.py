"""`/… sit`: a member who has no seat takes over an AI's seat mid-game.

Who may: any member of the server not playing at the table, with the host's approval (a
request in the channel that only the host answers, with buttons); a member whose own seat an
AI plays since they left (or the server lost them) takes it back at once, and that seat
only. The seat keeps everything: its cards, what it was shown, its place in turn; the engine
only learns its new player's id and name (a logged step, so a replay arrives at the same
end). The new player gets the seat's secrets by DM, exactly what `hand` shows that seat, so
the AI's knowledge passes with the seat and nothing more. A watcher who sits stops watching.

Pending requests are kept in the table's options (`sit_requests`: member → the seat and
their name), written at
the same version, like the watchers, so the players' buttons stay valid; the seat changes
hands in one change with its letters, timers and log line.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord
from pydantic import BaseModel

from bot import languages, news, spectators
from bot.components import button, view_of
from bot.errors import UserError
from bot.i18n import N_, SOURCE, tr
from bot.interactions import bot_of, place_of, run_update, tables_of, unlinking
from bot.messages import Outgoing
from bot.models import Letter, SeatRef, Table, player_id
from bot.storage import Change, LogEntry, StaleVersion, TimerPlan
from bot.tables import Place, Reply, TableService, _require_playing

REQUESTS = "sit_requests"
FORMER = "former_players"
"""Members whose seat another member took over: they saw that seat's secrets (a 13 Clues
holder, a Mansion solution after a wrong accusation), so no other seat at the table is theirs
(a Mansion series too: refused for its later games, as simple as it is safe)."""
LOGGED = "sit "
"""The action log's prefix of a seat that changed hands (`Sat` as JSON after it)."""


class Sat(BaseModel):
    """A seat that changed hands mid-game, as logged: the engine's seat, who played it
    before and who plays it now."""

    seat: int
    was: SeatRef
    now: SeatRef

    def logged(self) -> str:
        return LOGGED + self.model_dump_json()

    def news(self, lang: str) -> str:
        """What the channel is told (and a replay shows at this step)."""
        if self.was.user_id == self.now.user_id:
            return tr(lang, "🪑 **{name}** is back and plays their seat again.",
                      name=self.now.name)
        return tr(lang, "🪑 **{name}** takes over **{seat}**'s seat and plays it from now on.",
                  name=self.now.name, seat=self.was.name)

    @classmethod
    def parse(cls, action: str) -> Sat | None:
        """The seat change a log line records, if it records one."""
        if not action.startswith(LOGGED):
            return None
        return cls.model_validate_json(action[len(LOGGED):])


class Asked(BaseModel):
    """A pending request: the seat asked for, and the asking member's name in the server."""

    seat: int
    name: str


def requests(table: Table) -> dict[int, Asked]:
    """Pending requests, by member."""
    return {int(u): Asked.model_validate(a) for u, a in table.options.get(REQUESTS, {}).items()}


def former(table: Table) -> set[int]:
    return set(table.options.get(FORMER, []))


def ai_seats(table: Table) -> list[int]:
    return [i for i, s in enumerate(table.seats) if s.is_ai]


def seat_named(table: Table, name: str | None) -> int:
    """The AI seat a member asks for: by name (case and "(AI)" aside), else the only one."""
    free = ai_seats(table)
    listed = ", ".join(f"**{table.seats[i].name}**" for i in free)
    if name is None or not name.strip():
        if len(free) == 1:
            return free[0]
        if not free:
            raise UserError("Every seat at this table is played by a member: there is no AI "
                            "seat to take over.")
        raise UserError("Name the seat to take over with `seat`: {seats}.", seats=listed)
    wanted = _plain(name)
    found = next((i for i, s in enumerate(table.seats) if _plain(s.name) == wanted), None)
    if found is None:
        shown = name if len(name) <= 40 else f"{name[:40]}…"
        if free:
            raise UserError("There is no seat named '{name}' at this table. AI seats: {seats}.",
                            name=shown, seats=listed)
        raise UserError("There is no seat named '{name}' at this table.", name=shown)
    if not table.seats[found].is_ai:
        raise UserError("**{seat}** is played by a member: only a seat an AI plays can be "
                        "taken over.", seat=table.seats[found].name)
    return found


def _plain(name: str) -> str:
    return re.sub(r"\s*\(ai\)\s*$", "", name.strip().lower())


async def sit(tables: TableService, table_id: int, user_id: int, name: str,
              seat_name: str | None, place: Place, lang: str) -> str:
    """Take back one's own seat at once, or ask the host for an AI seat (an ephemeral
    answer, in the member's `lang`, either way: the channel hears the change or the
    request)."""
    async with tables._operation(table_id):
        table = await tables.by_id(table_id, place)
        _require_playing(table)
        mine = table.seat_of(user_id)
        if mine is not None and not table.seats[mine].is_ai:
            raise UserError("You are already seated at this table.")
        if user_id in former(table):
            raise UserError("You played a seat of this game that another member has taken "
                            "over: what it showed you is not another seat's to know, so you "
                            "cannot take one.")
        seat = mine if mine is not None and seat_name is None else \
            seat_named(table, seat_name)
        module = tables.module(table)
        if mine is not None:
            if seat != mine:
                raise UserError("Your own seat, **{seat}**, is played by an AI since you left: "
                                "`/{command} sit` takes it back. You cannot take another.",
                                seat=table.seats[mine].name, command=module.command)
            await seat_member(tables, table, user_id, table.seats[mine].name, mine)
            return tr(lang, "You are back in your seat: your secrets are in your DMs.")
        pending = requests(table)
        if user_id in pending:
            raise UserError("You have already asked for a seat here: the host has not "
                            "answered yet.")
        if seat in {a.seat for a in pending.values()}:
            raise UserError("Someone has already asked for **{seat}**'s seat: the host has not "
                            "answered yet.", seat=table.seats[seat].name)
        after = _with_requests(table, {**pending, user_id: Asked(seat=seat, name=name)})
        ask = request_message(module.prefix, table, user_id, name, seat)
        await tables._store(Change(after, expected=table.version,
                                   letters=[Letter.post(table.channel_id, ask)]))
    return tr(lang, "Asked: the host answers in the channel. If they agree, you play "
              "**{seat}**'s seat from there on.", seat=table.seats[seat].name)


def request_message(prefix: str, table: Table, user_id: int, name: str, seat: int) -> Outgoing:
    """The request the host answers, in the table's language: it mentions the host alone."""
    lang = languages.of(table)
    text = tr(lang, "🙋 **{name}** asks to take over **{seat}**'s seat. {host}, you are the "
              "host: do you agree?", name=name, seat=table.seats[seat].name,
              host=f"<@{table.host_id}>")
    return Outgoing.of(text, view=view_of(*answer_buttons(prefix, table.id, user_id, lang)),
                       mentions=[table.host_id])


def answer_buttons(prefix: str, table_id: int, user_id: int, lang: str
                   ) -> list[discord.ui.Item[Any]]:
    return [
        SitAnswer(prefix, "ok", table_id, user_id, lang),
        SitAnswer(prefix, "no", table_id, user_id, lang),
    ]


async def answer(tables: TableService, table_id: int, host_id: int, user_id: int, agree: bool,
                 place: Place, reply: Reply) -> None:
    """The host agrees (the seat changes hands) or declines (the member hears it by DM);
    the request message becomes the outcome (the reply to the click)."""
    async with tables._operation(table_id):
        table = await tables.by_id(table_id, place)
        if host_id != table.host_id:
            raise UserError("Only the host can answer this request.")
        pending = requests(table)
        if table.status != "playing" or user_id not in pending:
            raise UserError("That request was already answered (or its game is over).")
        asked = pending.pop(user_id)
        seat, name = asked.seat, asked.name
        seat_name, module = table.seats[seat].name, tables.module(table)
        here, member = f"<@{user_id}>", f"**{seat_name}**"
        if not agree or not table.seats[seat].is_ai or table.seat_of(user_id) is not None:
            lang, own = languages.of(table), await tables.languages.of_user(user_id)
            if agree:
                said = tr(lang, "❌ The host could not agree (the seat changed hands): {member} "
                          "does not take over {seat}'s seat.", member=here, seat=member)
                told = tr(own, "❌ The host could not agree to your request to take over "
                          "{seat}'s seat (it changed hands).", seat=member)
            else:
                said = tr(lang, "❌ The host declined: {member} does not take over {seat}'s "
                          "seat.", member=here, seat=member)
                told = tr(own, "❌ The host declined your request to take over {seat}'s seat.",
                          seat=member)
            reply.body = reply.body.model_copy(update={"content": said})
            letters = [Letter.dm(user_id, news.headed(module, table, Outgoing(content=told), own)),
                       reply.letter(1)]
            await tables._store(Change(_with_requests(table, pending), expected=table.version,
                                       letters=letters))
            reply.stored = True
            return
        said = tr(languages.of(table), "✅ The host agreed: {member} takes over {seat}'s seat.",
                  member=here, seat=member)
        reply.body = reply.body.model_copy(update={"content": said})
        await seat_member(tables, _with_requests(table, pending), user_id, name, seat,
                          reply=reply)


async def seat_member(tables: TableService, table: Table, user_id: int, name: str, seat: int,
                      *, reply: Reply | None = None) -> None:
    """The seat changes hands in one change: the engine's id and name for it, the seat, the
    timers (an AI's move gives way to the member's turn timer), the new table message, the
    seat's secrets by DM, and the log line a replay follows."""
    module = tables.module(table)
    before = tables.state_of(table)
    sat = Sat(seat=seat, was=table.seats[seat], now=SeatRef(name=name, user_id=user_id))
    now = sat.now
    state = module.seated(before, seat, now.player_id, name)
    seats = list(table.seats)
    seats[seat] = now
    kept = [u for u in spectators.watchers(table) if u != user_id]
    gone = former(table) | ({sat.was.user_id} - {None, user_id})
    after = table.model_copy(update={
        "seats": seats, "state": module.dump(state), "version": table.version + 1,
        "options": {**table.options, spectators.WATCHERS: kept, FORMER: sorted(gone)},
    })
    plan = tables._plan(after, None, state)
    after = after.model_copy(update={"deadline": tables._deadline(after, None, state, plan)})
    waiting = [s for s in module.waiting_on(state) if s == seat]
    chosen = await tables._alerts(after, waiting)
    alerts = {u: "silent" if m == "dm" else m for u, m in chosen.items()}  # the DM below
    langs = await tables._langs(after)
    after, letters = news.letters(module, after, state, [], newly_waiting=waiting,
                                  alerts=alerts, langs=langs, fresh=True,
                                  headline=sat.news(languages.of(after)))
    own = langs[user_id]
    secrets = module.hand(after, state, seat, lang=own)
    took = tr(own, "🪑 You now play this seat.")
    letters.insert(0, Letter.dm(user_id, news.headed(module, after, secrets.model_copy(
        update={"content": f"{took}\n{secrets.content or ''}".strip()}), own)))
    if reply is not None:
        letters.append(reply.letter(len(letters)))
    try:
        await tables._store(Change(
            after, expected=table.version, letters=letters,
            log=LogEntry(player_id(user_id), sat.logged(), "[]"),
            timers=TimerPlan(seats_done=(seat,), clear=plan.clear, add=plan.add),
        ))
    except StaleVersion as exc:
        raise UserError("The table changed at the same moment; please try again.") from exc
    if reply is not None:
        reply.stored = True


def _with_requests(table: Table, pending: dict[int, Asked]) -> Table:
    kept = {str(u): a.model_dump() for u, a in pending.items()}
    return table.model_copy(update={"options": {**table.options, REQUESTS: kept}})


class SitAnswer(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?P<prefix>[a-z0-9]{1,8}):sit(?P<answer>ok|no):(?P<table>\d+):(?P<user>\d+)",
):
    """The host's Agree / Decline on a request to sit (any click reaches it; only the host's
    counts)."""

    LOOK: ClassVar[dict[str, tuple[str, discord.ButtonStyle, str]]] = {
        "ok": (N_("Agree"), discord.ButtonStyle.success, "✅"),
        "no": (N_("Decline"), discord.ButtonStyle.danger, "✖️")}

    def __init__(self, prefix: str, verb: str, table_id: int, user_id: int,
                 lang: str = SOURCE) -> None:
        """`lang`: the label's (a click found again from its custom_id needs none)."""
        label, style, emoji = self.LOOK[verb]
        super().__init__(button(tr(lang, label), f"{prefix}:sit{verb}:{table_id}:{user_id}",
                                style, emoji=emoji))
        self.verb, self.table_id, self.user_id = verb, table_id, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> SitAnswer:
        return cls(match["prefix"], match["answer"], int(match["table"]), int(match["user"]))

    @unlinking
    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(reply: Reply) -> None:
            await answer(tables_of(interaction), self.table_id, interaction.user.id,
                         self.user_id, self.verb == "ok", place_of(interaction), reply)
            if self.verb == "ok":
                bot_of(interaction).transport.open_dm_soon(self.user_id)

        await run_update(interaction, work, "…", keep=True)

