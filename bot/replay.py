"""`/… replay` and the game download: a finished game stepped through in an ephemeral message
(◀ ▶), every seat's knowledge on show, and the game as files (its record and a transcript).

Only games that are over: a game in play is refused before anything of it is read, so
nothing of a game in play can leak through a replay, a download or the history.
The buttons carry the table, the step and the seat shown in their custom_id
(`rp:<verb>:<table>:<step>:<seat>`), so they work after a restart.
"""

from __future__ import annotations

import asyncio
import gzip
import io
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import discord

from bot.archive import Frame, Replay, actor_name, record_of, seat_news
from bot.archive import transcript as transcript_of
from bot.components import button, values, view_of
from bot.drawings import Drawings, with_images
from bot.errors import UserError
from bot.family import GameFamily, family_id
from bot.i18n import N_, tr
from bot.interactions import defer, language_of, tables_of
from bot.messages import Outgoing
from bot.models import Table
from bot.tables import TableService

PREFIX = "rp"
KEPT = 4
"""Replays kept in memory (each a state every `Replay.EVERY` steps: up to 11 MB for a 3-win
Mansion series, under 1 MB for a single game; `python -m bench.replay`): the members
stepping through a game click again and again, and a long series takes a second or more to
play through."""
UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's upload limit per file for bots (servers without boosts, DMs): 10 MiB."""
IN_PLAY = N_("That game is still in play: a replay or a download is only for a finished game "
              "(while it is played, its secrets stay secret).")

_kept: OrderedDict[tuple[int, int], Replay] = OrderedDict()


@dataclass(frozen=True)
class Looker:
    """Who asks for the server's finished games: a game played in a channel is shown to those
    who may view the channel and to its players, never listed or replayed for anyone else.

    What a member may view is read from their roles (the interaction's member) and the
    server's channels and threads as this process knows them (the command's own shard's).
    A channel it does not know is hidden: a deleted one, and above all a thread discord.py
    forgot when it was archived (Discord archives an idle thread within a week), which may
    have been private or under a private channel. A private thread's members are not known
    without the members intent: only Manage Threads sees its games."""

    user_id: int
    guild_id: int | None = None
    here: int | None = None
    """The channel asked in: its member sees it."""
    guild: discord.Guild | None = None
    member: discord.Member | None = None
    everywhere: bool = False
    """No channel hidden (the secrecy audit, which checks games in play, not channels)."""

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Looker:
        member = interaction.user if isinstance(interaction.user, discord.Member) else None
        return cls(interaction.user.id, interaction.guild_id, interaction.channel_id,
                   interaction.guild, member)

    def views(self, channel_id: int) -> bool:
        if self.everywhere or channel_id == self.here:
            return True
        place = self.guild.get_channel_or_thread(channel_id) if self.guild else None
        return place is not None and self._views(place)

    def visible(self) -> frozenset[int] | None:
        """Every channel and thread of the server the member views (None: every one)."""
        if self.everywhere:
            return None
        places = (*self.guild.channels, *self.guild.threads) if self.guild else ()
        return frozenset({p.id for p in places if self._views(p)}
                         | ({self.here} if self.here is not None else set()))

    def may_see(self, table: Table) -> bool:
        return table.seat_of(self.user_id) is not None or self.views(table.channel_id)

    def _views(self, place: discord.abc.GuildChannel | discord.Thread) -> bool:
        if self.member is None:
            return False
        try:
            perms = place.permissions_for(self.member)
        except discord.ClientException:  # a thread whose parent this process does not know
            return False
        private = isinstance(place, discord.Thread) \
            and place.type is discord.ChannelType.private_thread
        return perms.view_channel and (not private or perms.manage_threads)


async def finished_game(tables: TableService, looker: Looker, game: str | None,
                        table_id: int | None) -> Table:
    """The game a replay is about: the one numbered `table_id` (from `/history`; of any game
    when `game` is None), else the looker's channel's last finished game of this kind;
    refused unless it is over, of the looker's server, and theirs to see (as if there were
    no such game)."""
    guild_id, channel_id = looker.guild_id, looker.here
    if guild_id is None:
        raise UserError("Replays are of a server's games: use this in the server.")
    if table_id is None:
        if game is None:
            raise UserError("Which game? `/history` lists this server's games.")
        table = await tables.storage.last_finished(channel_id, game) if channel_id else None
        if table is None:
            here = await tables.storage.open_table(channel_id) if channel_id else None
            if here is not None and here.game == game and here.status == "playing":
                raise UserError(IN_PLAY)
            raise UserError("No {game} game has finished in this channel yet: `/history` lists "
                            "this server's games and their numbers.",
                            game=tables.games[game].title)
        return table
    found = await tables.storage.table(table_id)
    if found is None or found.guild_id != guild_id or game not in (None, found.game) \
            or not looker.may_see(found):
        if game is None:
            raise UserError("There is no finished game #{number} on this server: `/history` "
                            "lists them.", number=table_id)
        raise UserError("There is no finished {game} game #{number} on this server: "
                        "`/history` lists them.", game=tables.games[game].title,
                        number=table_id)
    if found.status != "over":
        raise UserError(IN_PLAY)
    if found.state is None:
        raise UserError("Game #{number} was closed before it started: there is nothing to "
                        "replay.", number=table_id)
    return found


async def replay_of(tables: TableService, table: Table) -> Replay:
    """The game played through and checked once, kept a while. The engine's work (a long
    series: seconds) runs in a thread, so the event loop keeps answering meanwhile."""
    key = (table.id, table.version)
    if key in _kept:
        _kept.move_to_end(key)
        return _kept[key]
    module = tables.module(table)
    log = await tables.storage.action_log(table.id)
    kept = await asyncio.to_thread(lambda: Replay(module, record_of(module, table, log)))
    _kept[key] = kept
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return kept


async def frame_of(replay: Replay, step: int) -> Frame:
    """One step, played on from the checkpoint before it (in a thread)."""
    return await asyncio.to_thread(replay.frame, step)


def step_message(tables: TableService, table: Table, replay: Replay, frame: Frame, step: int,
                 seat: int, lang: str) -> Outgoing:
    """One step, in the viewer's language: what the channel was told, and what the chosen
    seat knew by then (its `hand` at that moment, prompts and all, without their buttons)."""
    module = tables.module(table)
    last = replay.steps - 1
    seat = max(0, min(seat, len(table.seats) - 1))
    news = (module.news(table, frame.state, frame.events, lang=lang)
            or seat_news(replay.record, step, lang)
            or tr(lang, "(nothing was said in public)"))
    head = tr(lang, "📼 **Replay of {game} #{number}** · step {step} of {last} · {actor}",
              game=module.title, number=table.id, step=step, last=last,
              actor=actor_name(table, frame.actor, lang))
    head += "\n" + tr(lang, "**What the table saw:**") + "\n"
    tail = "\n" + tr(lang, "**What {name} knew** (pick any seat below):",
                     name=table.seats[seat].name)
    room = 2000 - len(head) - len(tail)
    text = head + (news if len(news) <= room else news[: room - 1] + "…") + tail
    hand = module.hand(table, frame.state, seat, lang=lang)
    cid = family_id
    nav = [
        button(tr(lang, "First"), cid(PREFIX, "first", table.id, step, str(seat)), emoji="⏮️",
               disabled=step == 0),
        button(tr(lang, "Back"), cid(PREFIX, "prev", table.id, step, str(seat)), emoji="◀️",
               disabled=step == 0),
        button(tr(lang, "Next"), cid(PREFIX, "next", table.id, step, str(seat)),
               discord.ButtonStyle.primary, emoji="▶️", disabled=step == last),
        button(tr(lang, "Last"), cid(PREFIX, "last", table.id, step, str(seat)), emoji="⏭️",
               disabled=step == last),
        button(tr(lang, "Download"), cid(PREFIX, "file", table.id, step, str(seat)),
               emoji="⬇️"),
    ]
    seats = discord.ui.Select[Any](
        custom_id=cid(PREFIX, "seat", table.id, step, str(seat)),
        placeholder=tr(lang, "Whose knowledge to show"),
        options=[discord.SelectOption(label=tr(lang, "What {name} knew", name=ref.name)[:100],
                                      value=str(i), default=i == seat)
                 for i, ref in enumerate(table.seats)],
    )
    return Outgoing.of(text, embeds=[discord.Embed.from_dict(e) for e in hand.embeds],
                       view=view_of(*nav, seats), pictures=hand.pictures)


def game_files(table: Table, replay: Replay, lang: str) -> list[discord.File]:
    """The record (JSON the engine replays to the same end) and the transcript (in `lang`),
    each within Discord's upload limit (compressed when it would not fit; refused if even
    that does not)."""
    name = f"{table.game}-{table.id}"
    made = [
        (f"{name}.json", replay.record.model_dump_json(indent=1).encode()),
        (f"{name}.txt", transcript_of(replay.module, replay.record, lang).encode()),
    ]
    files = []
    for filename, data in made:
        if len(data) > UPLOAD_LIMIT:
            filename, data = f"{filename}.gz", gzip.compress(data)
        if len(data) > UPLOAD_LIMIT:
            raise UserError("This game is too long to download as a file (over Discord's "
                            "10 MB); its replay still shows every step.")
        files.append(discord.File(io.BytesIO(data), filename=filename))
    return files


async def show(interaction: discord.Interaction, out: Outgoing, *, edit: bool) -> None:
    """Show a step: a new ephemeral message, or the replay's message changed in place; with
    the seat's pictures when the bot draws them."""
    drawings: Drawings | None = getattr(interaction.client, "drawings", None)
    kwargs = out.reply_kwargs()
    files: list[discord.File] = []
    if out.pictures and drawings is not None:
        drawn = await drawings.files(out.pictures)
        kwargs["embeds"] = [discord.Embed.from_dict(e)
                            for e in with_images(out.embeds, [r for r, _ in drawn])]
        files = [f for _, f in drawn]
    if edit:
        kwargs["attachments"] = files
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.followup.send(ephemeral=True, files=files, **kwargs)


async def open_replay(interaction: discord.Interaction, game: str | None,
                      table_id: int | None) -> None:
    """`/… replay` and the history's menu: the first step, as a new ephemeral message.
    The interaction must be deferred (ephemeral) already."""
    tables = tables_of(interaction)
    table = await finished_game(tables, Looker.of(interaction), game, table_id)
    replay = await replay_of(tables, table)
    seat = table.seat_of(interaction.user.id) or 0
    frame = await frame_of(replay, 0)
    lang = await language_of(interaction)
    await show(interaction, step_message(tables, table, replay, frame, 0, seat, lang),
               edit=False)


class ReplayButton(GameFamily, template=r"rp:(?P<verb>first|prev|next|last|seat|file):"
                                        r"(?P<table>\d+):(?P<stamp>\d+):(?P<draft>\d+)"):
    """◀ ▶ and the seat menu change the replay in place; Download sends the files."""

    async def clicked(self, interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        verb, step, seat = self.click.verb, self.click.stamp or 0, int(self.click.draft)
        if verb == "file":
            if not await defer(interaction, ephemeral=True, thinking=True):
                return
            table = await self.finished(interaction)
            replay = await replay_of(tables, table)
            lang = await language_of(interaction)
            files = await asyncio.to_thread(game_files, table, replay, lang)
            said = tr(lang, "⬇️ {game} #{number}: the record (JSON: the seed, the seats and "
                      "every move, which the engine plays again to the same end) and the "
                      "transcript.", game=tables.module(table).title, number=table.id)
            await interaction.followup.send(said, files=files, ephemeral=True)
            return
        if verb == "seat":
            chosen = values(interaction)
            if len(chosen) != 1 or not chosen[0].isdigit():
                raise UserError("Pick one of the menu's seats.")
            seat = int(chosen[0])
        if not await defer(interaction):
            return
        table = await self.finished(interaction)
        replay = await replay_of(tables, table)
        target = {"first": 0, "prev": step - 1, "next": step + 1,
                  "last": replay.steps - 1}.get(verb, step)
        target = max(0, min(target, replay.steps - 1))
        frame = await frame_of(replay, target)
        lang = await language_of(interaction)
        await show(interaction, step_message(tables, table, replay, frame, target, seat, lang),
                   edit=True)

    async def finished(self, interaction: discord.Interaction) -> Table:
        """The game this replay shows, still checked: of this server, and over."""
        return await finished_game(tables_of(interaction), Looker.of(interaction), None,
                                   self.click.table_id)
