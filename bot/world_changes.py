"""What the table service does when the world changes under a table: a letter Discord will
never take, the channel or the server gone, posting forbidden and allowed again, a member
who left. A table is ended or paused with a clear word to its members; its timers stop."""

from __future__ import annotations

from bot import languages, news, reasons
from bot.i18n import N_, command, tr
from bot.messages import Outgoing
from bot.models import Letter, Posting, Table
from bot.storage import Change, TimerPlan
from bot.tables import LEFT_SERVER, TableService
from bot.transport import Outcome

# why a table stops (marked texts: each reader reads them in their language)
CHANNEL_GONE = N_("its channel is gone")
ARCHIVED = N_("its thread is archived")
UNPERMITTED = N_("I am missing the permission to post there")

class WorldChanges:
    """The table service's answers to a changed world (`DeductionBot.world`, built on the
    service): each change goes through the service's own locks and commit path."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables

    async def on_undeliverable(self, posting: Posting, outcome: Outcome) -> None:
        """What the outbox could not deliver for good: act on what it means."""
        letter = posting.letter
        if posting.table_id is None or outcome.verdict in ("expired", "missing", "invalid"):
            return
        table = await self.tables.storage.table(posting.table_id)
        if table is None:
            return
        if letter.kind == "u":
            if table.seat_of(letter.address) is None:
                return  # a watcher's feed: no word in the channel (`hand` has nothing for them)
            user, lang = letter.address, languages.of(table)
            hand = command(lang, self.tables.module(table).command, "hand")
            if outcome.verdict == "closed_dms":
                text = tr(lang, "📪 I could not DM {member}: open your DMs to this server's "
                          "members, or use {hand} to see your secrets here.",
                          member=f"<@{user}>", hand=hand)
            else:
                text = tr(lang, "📪 A message to {member} could not be delivered; {hand} shows "
                          "everything it said.", member=f"<@{user}>", hand=hand)
            notice = Letter(to=f"c:{table.channel_id}", op="send", once=f"dm:{user}",
                            body=Outgoing(content=text, mentions=[user]))
            await self._notify(table.id, [notice])
        elif letter.kind == "c" and table.status != "over":
            if outcome.verdict == "deleted":
                await self.channel_gone(letter.address, CHANNEL_GONE)
            elif outcome.verdict == "forbidden":
                await self.cannot_post(letter.address, _why_forbidden(outcome.detail))
            else:  # Discord kept failing for minutes: the news is lost, the game is not
                module = self.tables.module(table)

                def lost(lang: str) -> Outgoing:
                    return Outgoing(content=tr(
                        lang, "📪 I could not post in {channel} for several minutes, so some "
                        "news of your {game} table is missing there; {status} and {log} show it "
                        "all.", channel=f"<#{table.channel_id}>", game=module.title,
                        status=command(lang, module.command, "status"),
                        log=command(lang, module.command, "log")))

                notices = [Letter.dm(u, lost(await self.tables.languages.of_user(u)),
                                     once=f"lost:{u}") for u in table.humans()]
                await self._notify(table.id, notices)

    async def _notify(self, table_id: int, letters: list[Letter]) -> None:
        """Store notices with the table as it is now: read under the table's lock, since a
        copy read before it may be older than a change committed meanwhile, and storing it
        would put that older version back in the storage's cache (the next action on the
        table would then be refused as stale)."""
        async with self.tables._locks[table_id]:
            table = await self.tables.storage.table(table_id)
            if table is not None:
                await self.tables._store(Change(table, letters=letters))

    async def channel_gone(self, channel_id: int, why: str) -> None:
        table = await self.tables.storage.open_table(channel_id)
        if table is not None:
            await self._close(table, why)

    async def guild_gone(self, guild_id: int) -> None:
        for table in await self.tables.storage.active_tables(guild_id):
            await self._close(table, N_("the bot was removed from the server"))

    async def _close(self, table: Table, why: str) -> None:
        """End a table whose channel is out of reach: its members hear it by DM (`why`: a
        marked text, said in each member's language)."""
        async with self.tables._locks[table.id]:
            table = await self.tables.by_id(table.id)
            if table.status == "over":
                return
            module = self.tables.module(table)

            def notice(lang: str) -> Outgoing:
                return Outgoing(content=tr(
                    lang, "🚪 Your {game} table in {channel} was closed: {why}.",
                    game=module.title, channel=f"<#{table.channel_id}>", why=tr(lang, why)))

            letters = [Letter.dm(u, notice(await self.tables.languages.of_user(u)))
                       for u in table.humans()]
            if table.status == "lobby":
                closed = table.model_copy(update={"status": "over", "version": table.version + 1})
                await self.tables._store(Change(closed, expected=table.version, letters=letters,
                                                 timers=TimerPlan(clear="all")))
            else:
                before = self.tables.state_of(table)
                state, events = module.abandon(before, reasons.written(reasons.CLOSED, why=why))
                await self.tables._commit(table, before, state, events, actor="bot", action="close",
                                   notices=letters, channel=False)

    async def cannot_post(self, channel_id: int, why: str) -> None:
        """Pause the table here until the bot may post again; its timers stop (`why`: a
        marked text, said in each member's language)."""
        table = await self.tables.storage.open_table(channel_id)
        if table is None or table.paused is not None:
            return
        async with self.tables._locks[table.id]:
            table = await self.tables.by_id(table.id)
            if table.paused is not None or table.status == "over":
                return
            module = self.tables.module(table)

            def paused_dm(lang: str) -> Outgoing:
                return Outgoing(content=tr(
                    lang, "⏸️ Your {game} table in {channel} is paused: {why}. It carries on by "
                    "itself as soon as I can post there again; the host or a moderator can also "
                    "{end} it.", game=module.title, channel=f"<#{channel_id}>",
                    why=tr(lang, why), end=command(lang, module.command, "end")))

            paused = table.model_copy(update={"paused": why, "version": table.version + 1})
            await self.tables._store(Change(
                paused, expected=table.version, timers=TimerPlan(clear="all"),
                letters=[Letter.dm(u, paused_dm(await self.tables.languages.of_user(u)))
                         for u in table.humans()],
            ))

    async def can_post(self, channel_id: int) -> None:
        """The bot may post in this channel again: a paused table carries on."""
        table = await self.tables.storage.open_table(channel_id)
        if table is None or table.paused is None:
            return
        async with self.tables._locks[table.id]:
            table = await self.tables.by_id(table.id)
            if table.paused is None:
                return
            resumed = table.model_copy(update={"paused": None, "version": table.version + 1})
            state = self.tables.state_of(resumed) if resumed.state else None
            resumed, letters = news.living(self.tables.module(resumed), resumed, state,
                                           tr(languages.of(resumed), "▶️ The table carries on."),
                                           fresh=True)
            await self.tables._store(Change(resumed, expected=table.version, letters=letters))
            if state is not None and resumed.status == "playing":
                await self.tables._reconcile_timers(resumed)

    async def member_left(self, guild_id: int, user_id: int) -> None:
        """A member left the server: their lobby seat is freed, their game seat played by an
        AI from now on, and the table is told."""
        for table in await self.tables.storage.active_tables(guild_id):
            if table.seat_of(user_id) is None:
                continue
            async with self.tables._locks[table.id]:
                table = await self.tables.by_id(table.id)
                await self.tables.without(table, user_id, LEFT_SERVER)


def _why_forbidden(detail: str) -> str:
    return ARCHIVED if "50083" in detail else UNPERMITTED
