"""A local stand-in for Discord that the real discord.py client connects to.

No machine here reaches Discord, so end-to-end tests point discord.py's REST base and gateway
URL at this aiohttp server (127.0.0.1, random port), then act as several users: slash
commands, clicks, selects, autocomplete, modals. The server enforces Discord's limits and
interaction rules so that bugs show up as `violations` in tests instead of in servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import itertools
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord
import yarl
from aiohttp import WSMsgType, web

from . import limits
from .faults import Fault, FaultKind, FaultSet, bucket_hash, rate_limit_response
from .gateway import HEARTBEAT_INTERVAL_MS, Connection, Session
from .globallimit import GlobalCounter
from .process import BotProcess
from .records import (
    EPHEMERAL,
    JSON,
    LOADING,
    Channel,
    Guild,
    InteractionNotAnswered,
    InteractionResult,
    Message,
    NoBotConnected,
    StandInError,
    StandInTimeout,
    User,
)

log = logging.getLogger(__name__)

# Permission bits (Discord's numbering).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
ATTACH_FILES = 1 << 15
MANAGE_THREADS = 1 << 34
SEND_MESSAGES_IN_THREADS = 1 << 38
EVERYONE_PERMISSIONS = (
    (1 << 0)
    | (1 << 6)
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | (1 << 14)
    | ATTACH_FILES
    | (1 << 16)
    | (1 << 18)
    | (1 << 20)
    | (1 << 21)
    | (1 << 26)
    | (1 << 31)
    | (1 << 35)
    | (1 << 38)
)
BOT_ROLE_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | (1 << 34) | (1 << 36)
ALL_PERMISSIONS = (1 << 51) - 1

GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DM_MESSAGES_INTENT = 1 << 12

CALLBACKS_ALLOWED = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
INTERACTION_KINDS = {2: "slash", 3: "component", 4: "autocomplete", 5: "modal submit"}
FIRST_ID = 1_100_000_000_000_000_000
IDENTIFY_SPACING = 5.0
"""Discord lets each `max_concurrency` bucket IDENTIFY once every 5 seconds."""
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALES = frozenset((
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
))
"""The locales Discord takes in a command's `name_localizations` / `description_localizations`
(any other key: 400, 50035)."""

Handler = Callable[..., Awaitable[web.StreamResponse]]


@dataclass
class Rejection:
    """A 4xx the stand-in answered (expected ones like 50007 included)."""

    method: str
    path: str
    status: int
    code: int
    message: str


@dataclass
class _Request:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[JSON]
    authorized: bool


class _ErrorLog(logging.Handler):
    """Collects ERROR records (tracebacks included) from the bot's loggers."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(self.format(record))


def _iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()


def _guild_of(event: str, data: JSON) -> int | None:
    """The guild a gateway event belongs to (None: a DM, or no guild's), for its shard."""
    gid = data.get("id") if event in ("GUILD_CREATE", "GUILD_DELETE") else data.get("guild_id")
    return None if gid is None else int(gid)


def _uid(user: User | int) -> int:
    return user.id if isinstance(user, User) else int(user)


class DiscordStandIn:
    """The fake Discord: REST + gateway server, world state, and test-facing helpers."""

    def __init__(
        self,
        *,
        bot_name: str = "Deduction Table",
        interaction_deadline: float = 3.0,
        followup_window: float = 15 * 60.0,
        quiet: float = 0.1,
        capture_loggers: Iterable[str] = ("discord", "bot", "cogs", "engine"),
        nonce_window: float = 5 * 60.0,
        message_rate_limit: tuple[int, float] | None = None,
        global_rate_limit: int | None = None,
        upload_limit: int = limits.UPLOAD_LIMIT,
    ) -> None:
        """nonce_window: how long (stand-in clock) an enforced nonce deduplicates creates;
        message_rate_limit: (messages, seconds) per channel, answered with 429 like Discord's
        (5, 5.0) once exceeded; None (default) leaves message posting unlimited;
        global_rate_limit: requests per second one bot token may make on the bot routes
        (Discord's global limit, 50), answered with a global 429 once exceeded; interaction
        callbacks and webhooks are outside it, as on Discord; None (default): unlimited;
        upload_limit: bytes per uploaded file (Discord's default for a server without boosts,
        10 MiB; a larger file is refused with 413, code 40005)."""
        self._ids = itertools.count(FIRST_ID)
        self.interaction_deadline = interaction_deadline
        self.followup_window = followup_window
        self.quiet = quiet
        self.nonce_window = nonce_window
        self.message_rate_limit = message_rate_limit
        self.upload_limit = upload_limit
        self.global_rate_limit = global_rate_limit
        self.under_limit = GlobalCounter()
        """Every request made on a bot route (under Discord's global limit), counted whether
        or not the limit is enforced: what tests and benchmarks read."""
        self.uploads: dict[int, bytes] = {}
        """The bytes of every attachment uploaded, by attachment id."""
        self.faults = FaultSet(self.now)
        self.deduplicated: list[Message] = []
        """One entry per create answered with an existing message (same enforced nonce)."""
        self.rate_limited: list[str] = []
        self.busy_checks: list[Callable[[], str | None]] = []
        """Work the bot reports under way between requests (a letter being drawn in a
        thread): each check returns why the bot is busy, or None; `settle` waits for them."""
        """Requests answered 429 by message_rate_limit (faults are in faults.hits)."""
        self._nonces: dict[tuple[int, int, str], tuple[Message, float]] = {}
        self._rate_windows: dict[int, tuple[float, int]] = {}
        self.bot_user = User(id=self._next_id(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: list[Message] = []
        self._messages: dict[int, Message] = {}
        self.dm_opened: dict[int, float] = {}
        """When the bot first opened each user's DM channel (wall clock): a DM to a member waits
        for it (`bench.load`)."""
        self._stamps: dict[int, int] = {}
        self._stamp = 0
        self.interactions: list[InteractionResult] = []
        self._interactions: dict[int, InteractionResult] = {}
        self._by_token: dict[str, InteractionResult] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.violations: list[str] = []
        self.warnings: list[str] = []
        self.rejections: list[Rejection] = []
        self.requests: list[str] = []
        self.bot_errors: list[str] = []
        self.identify_count = 0
        self.resume_count = 0
        self.token: str | None = None
        self._sessions: dict[str, Session] = {}
        self._connections: list[Connection] = []
        self._active: Connection | None = None
        self._shards: dict[int, Connection] = {}
        """Shard id → its connection, once a bot identifies with more than one shard."""
        self.max_concurrency = 1
        """Discord's IDENTIFY buckets (`/gateway/bot`): shard s is in bucket s % this."""
        self.identify_spacing = IDENTIFY_SPACING
        self._identified_at: dict[int, float] = {}
        self.invalid_sessions = 0
        """IDENTIFYs refused (op 9) for coming sooner than their bucket allows."""
        self._inflight = 0
        self._last_activity = time.monotonic()
        self._changed = asyncio.Event()
        self._time_offset = 0.0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._saved: tuple[str, yarl.URL] | None = None
        self._log_handler = _ErrorLog(self.bot_errors)
        self._capture = tuple(capture_loggers)
        self._routes = self._route_table()

    # ------------------------------------------------------------------ lifecycle

    @property
    def bot_user_id(self) -> int:
        """The bot's user id (equal to application_id, as for most real bots)."""
        return self.bot_user.id

    @property
    def api_base(self) -> str:
        """What Route.BASE must be."""
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def url(self) -> str:
        """The server's root, what a bot process is pointed at (see botproc)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        """The websocket URL (no query; discord.py appends v/encoding/compress)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        """Listen on 127.0.0.1, random port; start capturing bot error logs."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        for name in self._capture:
            logging.getLogger(name).addHandler(self._log_handler)

    async def stop(self) -> None:
        """Close every gateway socket and the HTTP server."""
        for name in self._capture:
            logging.getLogger(name).removeHandler(self._log_handler)
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"stand-in stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def install(self) -> None:
        """Point discord.py at this server (Route.BASE and DEFAULT_GATEWAY)."""
        if self._saved is None:
            self._saved = (
                discord.http.Route.BASE,
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            )
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def restore(self) -> None:
        """Undo install()."""
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    # ------------------------------------------------------------------ world building

    def _next_id(self) -> int:
        return next(self._ids)

    def _id_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A fresh snowflake whose guild is routed to this shard: `(id >> 22) % count`."""
        base = self._next_id()
        while (base >> 22) % shard_count != shard_id:
            base += 1 << 22
        self._ids = itertools.count(base + 1)
        return base

    def now(self) -> float:
        """The stand-in's clock (monotonic seconds, shifted by advance_time)."""
        return time.monotonic() + self._time_offset

    def advance_time(self, seconds: float) -> None:
        """Pretend time passed (e.g. 16 minutes to expire interaction tokens)."""
        self._time_offset += seconds

    def add_guild(self, name: str = "Test Guild", *, channel_name: str = "general",
                  shard: tuple[int, int] | None = None, locale: str = "en-US") -> Guild:
        """A guild with an owner, @everyone/bot/manager roles and one text channel; with
        `shard` (shard id, shard count), an id that Discord's routing gives that shard."""
        gid = self._next_id() if shard is None else self._id_on_shard(*shard)
        owner = User(id=self._next_id(), name=f"{name} owner")
        self.users[owner.id] = owner
        guild = Guild(
            id=gid,
            name=name,
            owner_id=owner.id,
            channel_id=0,
            bot_role_id=self._next_id(),
            manager_role_id=self._next_id(),
            locale=locale,
        )
        self.guilds[gid] = guild
        self._join(self.bot_user, guild, manage=False)
        self._join(owner, guild, manage=True)
        guild.channel_id = self.add_channel(gid, channel_name, _announce=False)
        self._broadcast_guild_event("GUILD_CREATE", lambda conn: self._joined_payload(guild, conn))
        return guild

    def add_channel(self, guild_id: int, name: str, *, _announce: bool = True) -> int:
        """A text channel in the guild; returns its id."""
        guild = self.guilds[guild_id]
        cid = self._next_id()
        self.channels[cid] = Channel(
            id=cid, name=name, guild_id=guild_id, position=len(guild.channel_ids)
        )
        guild.channel_ids.append(cid)
        if _announce:
            ch = self.channels[cid]
            self._broadcast_guild_event("CHANNEL_CREATE", lambda _c: self._channel_payload(ch))
        return cid

    def add_user(
        self,
        name: str,
        *,
        guild_id: int | None = None,
        manage_guild: bool = False,
        in_guild: bool = True,
        dms_open: bool = True,
        locale: str = "en-US",
    ) -> User:
        """A user, member of guild_id (default: the first guild) unless in_guild=False."""
        user = User(id=self._next_id(), name=name, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        if in_guild:
            gid = guild_id if guild_id is not None else next(iter(self.guilds), None)
            if gid is not None:
                self.join_guild(user, gid, manage_guild=manage_guild)
        return user

    def join_guild(self, user: User | int, guild_id: int, *, manage_guild: bool = False) -> None:
        """Make the user a member (GUILD_MEMBER_ADD goes out if the bot asked for members)."""
        u, guild = self.users[_uid(user)], self.guilds[guild_id]
        self._join(u, guild, manage=manage_guild)

        def payload(conn: Connection) -> JSON | None:
            if not conn.session or not conn.session.intents & GUILD_MEMBERS_INTENT:
                return None
            return {**self._member_payload(u, guild), "guild_id": str(guild.id)}

        self._broadcast("GUILD_MEMBER_ADD", payload)

    def _join(self, user: User, guild: Guild, *, manage: bool) -> None:
        if user.id not in guild.member_ids:
            guild.member_ids.append(user.id)
        user.guild_ids.add(guild.id)
        if manage:
            user.manager_in.add(guild.id)

    def close_dms(self, user: User | int) -> None:
        """DMs to this user now fail with 403 / 50007."""
        self.users[_uid(user)].dms_open = False

    def open_dms(self, user: User | int) -> None:
        """DMs to this user succeed again."""
        self.users[_uid(user)].dms_open = True

    def deny_send(self, channel_id: int) -> None:
        """The bot loses Send Messages in this channel by an overwrite: CHANNEL_UPDATE goes
        out (so discord.py's permissions_for agrees), posts answer 403 / 50013, interactions
        there carry the reduced app_permissions. For a thread, Send Messages in Threads is
        denied on its parent (threads have no overwrites of their own)."""
        ch = self.channels[channel_id]
        if ch.is_thread:
            assert ch.parent_id is not None
            parent = self.channels[ch.parent_id]
            self._set_bot_denied(parent.id, parent.bot_denied | SEND_MESSAGES_IN_THREADS)
        else:
            self._set_bot_denied(channel_id, ch.bot_denied | SEND_MESSAGES)

    def deny_attach(self, channel_id: int) -> None:
        """The bot loses Attach Files in this channel: a message with files answers 403 /
        50013, one without goes as before."""
        ch = self.channels[channel_id]
        self._set_bot_denied(channel_id, ch.bot_denied | ATTACH_FILES)

    def allow_send(self, channel_id: int) -> None:
        """Undo deny_send."""
        ch = self.channels[channel_id]
        if ch.is_thread:
            assert ch.parent_id is not None
            parent = self.channels[ch.parent_id]
            self._set_bot_denied(parent.id, parent.bot_denied & ~SEND_MESSAGES_IN_THREADS)
        else:
            self._set_bot_denied(channel_id, ch.bot_denied & ~SEND_MESSAGES)

    def hide_channel(self, channel_id: int, *, visible_to: Iterable[User | int]) -> None:
        """A private channel: View Channel denied to @everyone and allowed to these members
        (and the bot) by overwrites; CHANNEL_UPDATE goes out. Its threads follow it."""
        ch = self.channels[channel_id]
        assert not ch.is_thread and not ch.is_dm, "overwrites are a guild channel's"
        ch.viewers = frozenset(_uid(u) for u in visible_to)
        self._broadcast_guild_event("CHANNEL_UPDATE", lambda _c: self._channel_payload(ch))

    def _set_bot_denied(self, channel_id: int, bits: int) -> None:
        ch = self.channels[channel_id]
        ch.bot_denied = bits
        self._broadcast_guild_event("CHANNEL_UPDATE", lambda _c: self._channel_payload(ch))

    def deny_send_guild(self, guild_id: int) -> None:
        """A read-only server: Send Messages (and in Threads) is taken from @everyone and the
        bot's role. Two GUILD_ROLE_UPDATEs go out; posts anywhere in it answer 403 / 50013."""
        self._set_role_denied(guild_id, SEND_MESSAGES | SEND_MESSAGES_IN_THREADS, deny=True)

    def allow_send_guild(self, guild_id: int) -> None:
        """Undo deny_send_guild."""
        self._set_role_denied(guild_id, SEND_MESSAGES | SEND_MESSAGES_IN_THREADS, deny=False)

    def _set_role_denied(self, guild_id: int, bits: int, *, deny: bool) -> None:
        guild = self.guilds[guild_id]
        for rid in (guild.everyone_role_id, guild.bot_role_id):
            old = guild.role_denied.get(rid, 0)
            guild.role_denied[rid] = old | bits if deny else old & ~bits
            self._broadcast_guild_event(
                "GUILD_ROLE_UPDATE",
                lambda _c, r=rid: {  # type: ignore[misc]
                    "guild_id": str(guild.id), "role": self._role_payload(guild, r)},
            )

    # ------------------------------------------------------------------ world events

    def _bot_in(self, guild_id: int | None) -> bool:
        return guild_id is not None and guild_id in self.bot_user.guild_ids

    def delete_channel(self, channel_id: int) -> None:
        """The channel is deleted: CHANNEL_DELETE (THREAD_DELETE for a thread; a channel's
        threads go with it). REST on it answers 404 / 10003 Unknown Channel from then on, not
        counted as a violation; its messages stay readable to tests."""
        ch = self.channels[channel_id]
        if ch.is_dm or ch.guild_id is None or ch.deleted:
            raise StandInError(f"channel {channel_id} is a DM or already deleted")
        guild = self.guilds[ch.guild_id]
        ch.deleted = True
        if ch.is_thread:
            guild.thread_ids.remove(ch.id)
            data = {
                "id": str(ch.id),
                "guild_id": str(guild.id),
                "parent_id": str(ch.parent_id),
                "type": ch.type,
            }
            self._broadcast_guild_event("THREAD_DELETE", lambda _c: data)
            return
        guild.channel_ids.remove(ch.id)
        for tid in list(guild.thread_ids):
            if self.channels[tid].parent_id == ch.id:
                self.channels[tid].deleted = True
                guild.thread_ids.remove(tid)
        payload = self._channel_payload(ch)
        self._broadcast_guild_event("CHANNEL_DELETE", lambda _c: payload)

    def remove_bot_from_guild(self, guild_id: int) -> None:
        """The bot is kicked: GUILD_DELETE without `unavailable` (discord.py: on_guild_remove).
        REST on the guild and its channels answers 403 / 50001 Missing Access, its guild
        commands are gone, and users can no longer fire interactions there."""
        guild = self.guilds[guild_id]
        if not self._bot_in(guild_id):
            raise StandInError(f"the bot is not in guild {guild.name}")
        guild.member_ids.remove(self.bot_user.id)
        self.bot_user.guild_ids.discard(guild_id)
        self.guild_commands.pop(guild_id, None)
        self._broadcast_guild_event("GUILD_DELETE", lambda _c: {"id": str(guild_id)})

    def add_bot_to_guild(self, guild_id: int) -> None:
        """The bot is invited back: GUILD_CREATE, as for a new guild."""
        guild = self.guilds[guild_id]
        if self._bot_in(guild_id):
            raise StandInError(f"the bot is already in guild {guild.name}")
        self._join(self.bot_user, guild, manage=False)
        self._broadcast_guild_event("GUILD_CREATE", lambda conn: self._joined_payload(guild, conn))

    def remove_member(self, guild_id: int, user: User | int) -> None:
        """The user leaves (or is kicked): GUILD_MEMBER_REMOVE, sent only to connections that
        identified with the privileged GUILD_MEMBERS intent. Afterwards GET member answers
        404 / 10007, the user cannot fire interactions in the guild, and DMs to them answer
        403 / 50007 once they share no guild with the bot (as on Discord)."""
        u, guild = self.users[_uid(user)], self.guilds[guild_id]
        if u.id == self.bot_user.id:
            raise StandInError("use remove_bot_from_guild for the bot")
        if u.id not in guild.member_ids:
            raise StandInError(f"{u.name} is not a member of {guild.name}")
        guild.member_ids.remove(u.id)
        u.guild_ids.discard(guild_id)
        u.manager_in.discard(guild_id)

        def payload(conn: Connection) -> JSON | None:
            if not conn.session or not conn.session.intents & GUILD_MEMBERS_INTENT:
                return None
            return {"guild_id": str(guild_id), "user": u.payload()}

        self._broadcast("GUILD_MEMBER_REMOVE", payload)

    def add_thread(
        self,
        parent_id: int,
        name: str = "table",
        *,
        private: bool = False,
        owner: User | int | None = None,
    ) -> int:
        """A thread under a text channel (type 11, or 12 if private); THREAD_CREATE goes out.
        Tables can live in it: users fire interactions there and the bot posts with Send
        Messages in Threads, inherited from the parent. Returns its id."""
        parent = self.channels[parent_id]
        if parent.type != 0 or parent.deleted or parent.guild_id is None:
            raise StandInError(f"channel {parent_id} cannot hold threads")
        guild = self.guilds[parent.guild_id]
        tid = self._next_id()
        ch = Channel(
            id=tid,
            name=name,
            guild_id=guild.id,
            type=12 if private else 11,
            parent_id=parent.id,
            owner_id=_uid(owner) if owner is not None else guild.owner_id,
            created_at=time.time(),
        )
        self.channels[tid] = ch
        guild.thread_ids.append(tid)
        self._broadcast_guild_event(
            "THREAD_CREATE", lambda _c: {**self._channel_payload(ch), "newly_created": True}
        )
        return tid

    def archive_thread(self, channel_id: int, *, locked: bool = False) -> None:
        """THREAD_UPDATE with thread_metadata.archived (and locked). Posting, editing or
        deleting in it answers 400 / 50083 "Thread is archived" until it is unarchived (by
        unarchive_thread, or the bot's PATCH /channels/{id} with archived false)."""
        self._set_thread(channel_id, archived=True, locked=locked)

    def unarchive_thread(self, channel_id: int) -> None:
        """THREAD_UPDATE: active (and unlocked) again."""
        self._set_thread(channel_id, archived=False, locked=False)

    def _set_thread(self, channel_id: int, *, archived: bool, locked: bool) -> None:
        ch = self.channels[channel_id]
        if not ch.is_thread or ch.deleted:
            raise StandInError(f"channel {channel_id} is not a live thread")
        if archived and not ch.archived:
            ch.archived_at = time.time()
        ch.archived, ch.locked = archived, locked
        self._broadcast_guild_event("THREAD_UPDATE", lambda _c: self._channel_payload(ch))

    def dm_channel_id(self, user: User | int) -> int:
        """The bot's DM channel with this user (created on first use)."""
        uid = _uid(user)
        for ch in self.channels.values():
            if ch.is_dm and ch.recipient_id == uid:
                return ch.id
        cid = self._next_id()
        self.channels[cid] = Channel(id=cid, name="dm", guild_id=None, type=1, recipient_id=uid)
        return cid

    # ------------------------------------------------------------------ permissions

    def _roles_of(self, user: User, guild: Guild) -> list[int]:
        roles = []
        if user.id == self.bot_user.id:
            roles.append(guild.bot_role_id)
        if guild.id in user.manager_in:
            roles.append(guild.manager_role_id)
        return roles

    def _role_permissions(self, guild: Guild, rid: int) -> int:
        if rid == guild.id:
            perms = EVERYONE_PERMISSIONS
        elif rid == guild.bot_role_id:
            perms = BOT_ROLE_PERMISSIONS
        else:
            perms = MANAGE_GUILD
        return perms & ~guild.role_denied.get(rid, 0)

    def _base_permissions(self, user: User, guild: Guild) -> int:
        if user.id == guild.owner_id:
            return ALL_PERMISSIONS
        perms = self._role_permissions(guild, guild.id)
        for rid in self._roles_of(user, guild):
            perms |= self._role_permissions(guild, rid)
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def permissions(self, user: User | int, channel_id: int) -> int:
        """Effective permission bits of a user in a channel (DMs: the usual DM set)."""
        u, ch = self.users[_uid(user)], self.channels[channel_id]
        if ch.guild_id is None:
            return EVERYONE_PERMISSIONS & ~((1 << 35) | (1 << 38))
        guild = self.guilds[ch.guild_id]
        if u.id not in guild.member_ids:
            return 0
        perms = self._base_permissions(u, guild)
        if perms == ALL_PERMISSIONS:
            return perms
        # Threads inherit their parent's overwrites.
        holder = self.channels[ch.parent_id] if ch.parent_id is not None else ch
        if u.id == self.bot_user.id:
            perms &= ~holder.bot_denied
        elif holder.viewers is not None and u.id not in holder.viewers:
            return 0  # without View Channel nothing else of the channel counts
        return perms

    # ------------------------------------------------------------------ payloads

    def _role_payload(self, guild: Guild, rid: int) -> JSON:
        perms = self._role_permissions(guild, rid)
        if rid == guild.id:
            name, pos, managed = "@everyone", 0, False
        elif rid == guild.bot_role_id:
            name, pos, managed = self.bot_user.name, 2, True
        else:
            name, pos, managed = "Organisers", 1, False
        data: JSON = {
            "id": str(rid),
            "name": name,
            "permissions": str(perms),
            "position": pos,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": managed,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }
        if managed:
            data["tags"] = {"bot_id": str(self.bot_user.id)}
        return data

    def _member_payload(self, user: User, guild: Guild, *, with_user: bool = True) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self._roles_of(user, guild)],
            "joined_at": _iso(1_700_000_000),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.payload()
        return data

    def _channel_payload(self, ch: Channel, *, for_user: User | None = None) -> JSON:
        if ch.is_dm:
            assert ch.recipient_id is not None
            data: JSON = {
                "id": str(ch.id),
                "type": 1,
                "recipients": [self.users[ch.recipient_id].payload()],
                "last_message_id": None,
                "flags": 0,
            }
        elif ch.is_thread:
            data = self._thread_payload(ch)
        else:
            overwrites = []
            if ch.viewers is not None:
                assert ch.guild_id is not None
                overwrites.append({"id": str(ch.guild_id), "type": 0, "allow": "0",
                                   "deny": str(VIEW_CHANNEL)})
                overwrites += [{"id": str(uid), "type": 1, "allow": str(VIEW_CHANNEL),
                                "deny": "0"} for uid in sorted(ch.viewers)
                               if uid != self.bot_user.id]
            if ch.bot_denied or ch.viewers is not None:
                overwrites.append(
                    {
                        "id": str(self.bot_user.id),
                        "type": 1,
                        "allow": str(VIEW_CHANNEL if ch.viewers is not None else 0),
                        "deny": str(ch.bot_denied),
                    }
                )
            data = {
                "id": str(ch.id),
                "type": ch.type,
                "guild_id": str(ch.guild_id),
                "name": ch.name,
                "position": ch.position,
                "permission_overwrites": overwrites,
                "parent_id": None,
                "nsfw": False,
                "topic": None,
                "rate_limit_per_user": 0,
                "last_message_id": None,
                "flags": 0,
            }
        if for_user is not None:
            data["permissions"] = str(self.permissions(for_user, ch.id))
        return data

    def _thread_payload(self, ch: Channel) -> JSON:
        count = sum(1 for m in self.messages if m.channel_id == ch.id and not m.ephemeral)
        metadata: JSON = {
            "archived": ch.archived,
            "archive_timestamp": _iso(ch.archived_at or ch.created_at),
            "auto_archive_duration": 1440,
            "locked": ch.locked,
            "create_timestamp": _iso(ch.created_at),
        }
        if ch.type == 12:
            metadata["invitable"] = True
        return {
            "id": str(ch.id),
            "type": ch.type,
            "guild_id": str(ch.guild_id),
            "parent_id": str(ch.parent_id),
            "owner_id": str(ch.owner_id),
            "name": ch.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": count,
            "member_count": 1,
            "total_message_sent": count,
            "flags": 0,
            "thread_metadata": metadata,
        }

    def _joined_payload(self, guild: Guild, conn: Connection | None) -> JSON:
        """GUILD_CREATE for a guild joined while connected: without `unavailable` (discord.py
        then dispatches guild_join rather than guild_available)."""
        data = self._guild_payload(guild, conn)
        del data["unavailable"]
        return data

    def _guild_payload(self, guild: Guild, conn: Connection | None) -> JSON:
        intents = conn.session.intents if conn and conn.session else 0
        if intents & GUILD_MEMBERS_INTENT:
            member_ids = list(guild.member_ids)
        else:
            member_ids = [self.bot_user.id]
        roles = [guild.id, guild.manager_role_id, guild.bot_role_id]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [self._role_payload(guild, r) for r in roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": (
                str(guild.channel_id) if guild.channel_id in guild.channel_ids else None
            ),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": guild.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": _iso(1_700_000_000),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.member_ids),
            "voice_states": [],
            "members": [self._member_payload(self.users[m], guild) for m in member_ids],
            "channels": [self._channel_payload(self.channels[c]) for c in guild.channel_ids],
            "threads": [
                self._channel_payload(self.channels[t])
                for t in guild.thread_ids
                if not self.channels[t].archived
            ],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _message_payload(self, msg: Message, *, with_nonce: bool = False) -> JSON:
        data: JSON = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": self.users[msg.author_id].payload(),
            "content": msg.content,
            "timestamp": _iso(msg.created_at),
            "edited_timestamp": _iso(msg.edited_at) if msg.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": copy.deepcopy(msg.attachments),
            "embeds": copy.deepcopy(msg.embeds),
            "pinned": False,
            "type": msg.type,
            "flags": msg.flags,
            "components": copy.deepcopy(msg.components),
        }
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        if with_nonce and msg.nonce is not None:
            # Discord echoes the nonce in the create answer and MESSAGE_CREATE only.
            data["nonce"] = msg.nonce
        if msg.webhook_id is not None:
            data["webhook_id"] = str(msg.webhook_id)
            data["application_id"] = str(self.application_id)
        return data

    # ------------------------------------------------------------------ gateway

    def _broadcast(self, event: str, build: Callable[[Connection], JSON | None]) -> None:
        for conn in self._connections:
            if conn.identified:
                data = build(conn)
                if data is not None and self._routes_to(conn, _guild_of(event, data)):
                    conn.enqueue(event, data)

    def _routes_to(self, conn: Connection, guild_id: int | None) -> bool:
        """Whether Discord sends an event of this guild (None: a DM) on this connection:
        `(guild_id >> 22) % shard count` is its shard, DMs go to shard 0."""
        if conn.session is None:
            return False
        shard, count = conn.session.shard
        if count <= 1:
            return True
        return shard == (0 if guild_id is None else (guild_id >> 22) % count)

    def _connection_for(self, guild_id: int | None) -> Connection:
        """The bot's connection that an interaction in this guild (None: a DM) reaches."""
        if not self._shards:
            return self._require_bot()
        count = next(iter(self._shards.values())).session.shard[1]  # type: ignore[union-attr]
        shard = 0 if guild_id is None else (guild_id >> 22) % count
        conn = self._shards.get(shard)
        if conn is None or not conn.identified:
            raise NoBotConnected(f"shard {shard} of {count} is not connected")
        return conn

    def _broadcast_guild_event(
        self, event: str, build: Callable[[Connection], JSON | None]
    ) -> None:
        """Guild, channel, thread and role events: only for connections with the GUILDS intent."""

        def gated(conn: Connection) -> JSON | None:
            if not conn.session or not conn.session.intents & GUILDS_INTENT:
                return None
            return build(conn)

        self._broadcast(event, gated)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws)
        self._connections.append(conn)
        self._touch()
        try:
            await conn.send_op(10, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                self._touch()
                try:
                    await self._on_frame(conn, json.loads(msg.data))
                except Exception as exc:
                    log.exception("stand-in gateway error")
                    self._violate(f"INTERNAL stand-in gateway error: {exc!r}")
        finally:
            self._connections.remove(conn)
            if self._active is conn:
                self._active = None
            self._touch()
        return ws

    async def _on_frame(self, conn: Connection, frame: JSON) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == 1:
            conn.heartbeats += 1
            conn.last_heartbeat_seq = d if isinstance(d, int) else None
            await conn.send_op(11, None)
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 8:
            await self._request_members(conn, d or {})
        self._touch()

    async def _identify(self, conn: Connection, d: JSON) -> None:
        self.token = d.get("token")
        shard = list(d.get("shard") or [0, 1])
        if shard[1] > 1:  # Discord's IDENTIFY limit: one per bucket every 5 s
            bucket = shard[0] % self.max_concurrency
            last = self._identified_at.get(bucket)
            if last is not None and self.now() - last < self.identify_spacing:
                self.invalid_sessions += 1
                await conn.send_op(9, False)
                return
            self._identified_at[bucket] = self.now()
        session = Session(
            session_id=f"session-{self._next_id()}",
            intents=int(d.get("intents") or 0),
            shard=shard,
        )
        self._sessions[session.session_id] = session
        conn.session = session
        guilds = [g for g in self._bot_guilds() if self._routes_to(conn, g)]
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": session.shard,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
        }
        await conn.dispatch("READY", ready)
        for gid in guilds:
            await conn.dispatch("GUILD_CREATE", self._guild_payload(self.guilds[gid], conn))
        self.identify_count += 1
        self._active = conn
        if shard[1] > 1:
            self._shards[shard[0]] = conn

    def _bot_guilds(self) -> list[int]:
        return [g for g in self.guilds if self._bot_in(g)]

    async def _resume(self, conn: Connection, d: JSON) -> None:
        session = self._sessions.get(str(d.get("session_id")))
        if session is None:
            await conn.send_op(9, False)
            return
        conn.session = session
        self._active = conn
        if session.shard[1] > 1:
            self._shards[session.shard[0]] = conn
        await conn.dispatch("RESUMED", {})
        self.resume_count += 1

    async def _request_members(self, conn: Connection, d: JSON) -> None:
        guild = self.guilds.get(int(d.get("guild_id") or 0))
        if guild is None or conn.session is None:
            return
        wanted = {int(u) for u in d.get("user_ids") or []}
        query = str(d.get("query") or "").lower()
        members = [
            self._member_payload(self.users[m], guild)
            for m in guild.member_ids
            if (not wanted or m in wanted) and self.users[m].name.lower().startswith(query)
        ]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": members[: int(d.get("limit") or 0) or None],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        await conn.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def force_reconnect(self, timeout: float = 5.0) -> None:
        """Send op 7 RECONNECT and wait until discord.py has RESUMEd on a new socket."""
        conn = self._require_bot()
        before = self.resume_count
        await conn.send_op(7, None)
        if not await self._wait_until(lambda: self.resume_count > before, timeout):
            raise StandInTimeout("the bot did not resume after op 7 RECONNECT")
        await self._barrier(timeout)

    def _require_bot(self) -> Connection:
        conn = self._active
        if conn is None or not conn.identified:
            raise NoBotConnected("no bot is identified on the stand-in gateway")
        return conn

    async def _barrier(self, timeout: float) -> None:
        """Return once the active client has processed every frame sent so far.

        The client answers a server HEARTBEAT (op 1) with its last seen sequence, and it
        handles frames strictly in order. Retried if the socket is replaced meanwhile.
        """
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            conn = self._require_bot()
            target, before = conn.seq, conn.heartbeats
            await conn.send_op(1, None)
            await self._wait_until(
                lambda c=conn, t=target, b=before: (  # type: ignore[misc]
                    c.ws.closed or (c.heartbeats > b and (c.last_heartbeat_seq or 0) >= t)
                ),
                end - time.monotonic(),
            )
            if not conn.ws.closed and conn.heartbeats > before:
                return
            await self._wait_until(lambda: self._active is not None, end - time.monotonic())
        raise StandInTimeout("the bot did not answer a gateway heartbeat request")

    async def wait_ready(
        self,
        timeout: float = 10.0,
        *,
        after: int | None = None,
        task: asyncio.Task[Any] | None = None,
    ) -> None:
        """Wait until a bot identified (after `after` earlier identifies) and parsed its guilds.

        If `task` (the bot's start task) dies meanwhile, its exception is raised at once.
        """
        floor = after if after is not None else 0
        end = time.monotonic() + timeout

        def ready() -> bool:
            if task is not None and task.done():
                return True
            conn = self._active
            return self.identify_count > floor and conn is not None and conn.identified

        if not await self._wait_until(ready, timeout):
            raise StandInTimeout(
                f"no bot identified within {timeout}s; requests so far: {self.requests[-10:]}"
            )
        if task is not None and task.done():
            task.result()
            raise StandInError("the bot's start() returned before identifying")
        await self._barrier(max(0.1, end - time.monotonic()))

    # ------------------------------------------------------------------ waiting helpers

    def _touch(self) -> None:
        self._last_activity = time.monotonic()
        self._changed.set()
        self._changed = asyncio.Event()

    async def _wait_until(self, cond: Callable[[], bool], timeout: float) -> bool:
        end = time.monotonic() + timeout
        while True:
            if cond():
                return True
            remaining = end - time.monotonic()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.02))

    def _busy_reasons(self) -> list[str]:
        reasons = []
        if self._inflight:
            reasons.append(f"{self._inflight} request(s) in flight")
        now = self.now()
        for rec in self.interactions:
            waiting_cb = rec.callback_type is None and not rec.errors
            if waiting_cb and now - rec.dispatched_at < self.interaction_deadline:
                reasons.append(f"interaction {rec.id} awaits its callback")
            elif rec.callback_type == 5 and not rec.completed:
                reasons.append(f"interaction {rec.id} deferred and not followed up")
        reasons += [f"the client is expected to retry {r}" for r in self.faults.awaited_retries()]
        reasons += [why for check in self.busy_checks if (why := check()) is not None]
        return reasons

    def _quiet(self, quiet: float) -> bool:
        return not self._busy_reasons() and time.monotonic() - self._last_activity >= quiet

    async def settle(self, *, quiet: float | None = None, timeout: float = 5.0) -> None:
        """Wait until nothing is in flight and the bot has been quiet for `quiet` seconds."""
        q = self.quiet if quiet is None else quiet
        end = time.monotonic() + timeout
        for conn in list(self._connections):
            await conn.flush()
        if self._active is not None and self._active.identified:
            # World events queued just before must be read by the client, not only written.
            with contextlib.suppress(NoBotConnected):
                await self._barrier(timeout)
        if not await self._wait_until(lambda: self._quiet(q), max(0.0, end - time.monotonic())):
            raise StandInTimeout(f"bot never settled: {self._busy_reasons()}")

    async def wait_for(
        self,
        predicate: Callable[[Message], bool],
        timeout: float = 5.0,
        *,
        new: bool = False,
    ) -> Message:
        """The most recently changed live message matching predicate; waits for one to appear.

        new=True ignores messages that already existed unchanged when the call was made.
        """
        floor = self._stamp if new else -1

        def found() -> Message | None:
            live = [m for m in self.messages if not m.deleted and self._stamps[m.id] > floor]
            for msg in sorted(live, key=lambda m: self._stamps[m.id], reverse=True):
                if predicate(msg):
                    return msg
            return None

        hit: list[Message] = []

        def check() -> bool:
            msg = found()
            if msg is not None:
                hit.append(msg)
            return msg is not None

        if not await self._wait_until(check, timeout):
            recent = "\n  ".join(repr(m) for m in self.messages[-8:])
            raise StandInTimeout(f"no message matched within {timeout}s; recent:\n  {recent}")
        return hit[0]

    async def wait_for_dm(
        self, user: User | int, contains: str = "", timeout: float = 5.0, *, new: bool = False
    ) -> Message:
        """A DM to user whose text contains `contains`."""
        uid = _uid(user)
        return await self.wait_for(
            lambda m: m.dm_recipient_id == uid and contains in m.text, timeout, new=new
        )

    async def wait_for_message(
        self, channel_id: int, contains: str = "", timeout: float = 5.0, *, new: bool = False
    ) -> Message:
        """A public message in channel_id whose text contains `contains`."""
        return await self.wait_for(
            lambda m: m.channel_id == channel_id and not m.ephemeral and contains in m.text,
            timeout,
            new=new,
        )

    # ------------------------------------------------------------------ records

    def channel_messages(self, channel_id: int, *, ephemeral: bool = False) -> list[Message]:
        """Live messages in a channel, oldest first; ephemeral ones only if asked."""
        return [
            m
            for m in self.messages
            if m.channel_id == channel_id and not m.deleted and (ephemeral or not m.ephemeral)
        ]

    def answers(self) -> set[int]:
        """The messages made as their own interaction's original response (its answer); a
        followup is a message of its channel like a post (the bot's table posts may be)."""
        return {r.original.id for r in self.interactions
                if r.original is not None and r.original.interaction_id == r.id}

    def dms(self, user: User | int) -> list[Message]:
        """Live DMs the bot sent to user, oldest first."""
        uid = _uid(user)
        return [m for m in self.messages if m.dm_recipient_id == uid and not m.deleted]

    def attachment_bytes(self, attachment: JSON) -> bytes:
        """What was uploaded for one of a message's attachments."""
        return self.uploads[int(attachment["id"])]

    def ephemerals(self, user: User | int) -> list[Message]:
        """Live ephemeral messages shown to user, oldest first."""
        uid = _uid(user)
        return [m for m in self.messages if m.visible_to == uid and not m.deleted]

    def last_message(self, channel_id: int) -> Message:
        """Newest public message in the channel."""
        msgs = self.channel_messages(channel_id)
        if not msgs:
            raise StandInError(f"no messages in channel {channel_id}")
        return msgs[-1]

    def last_dm(self, user: User | int) -> Message:
        """Newest DM to user."""
        msgs = self.dms(user)
        if not msgs:
            raise StandInError(f"no DMs to user {_uid(user)}")
        return msgs[-1]

    def message(self, message_id: int) -> Message:
        """A message by id (deleted ones too)."""
        return self._messages[message_id]

    @property
    def latencies(self) -> list[float]:
        """Dispatch-to-callback seconds of every answered interaction."""
        return [r.latency for r in self.interactions if r.latency is not None]

    def assert_no_violations(self) -> None:
        """Fail listing every rule the bot broke."""
        if self.violations:
            raise AssertionError("Discord rule violations:\n  " + "\n  ".join(self.violations))

    def assert_no_bot_errors(self) -> None:
        """Fail if the bot logged errors (unhandled exceptions in commands/views/events)."""
        if self.bot_errors:
            raise AssertionError("bot logged errors:\n" + "\n".join(self.bot_errors))

    def take_violations(self, contains: str = "") -> list[str]:
        """Remove and return violations containing text (for tests that expect them)."""
        taken = [v for v in self.violations if contains in v]
        self.violations = [v for v in self.violations if contains not in v]
        return taken

    def commands(self, guild_id: int | None = None) -> list[JSON]:
        """Registered commands: global, or of one guild."""
        return self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])

    # ------------------------------------------------------------------ REST plumbing

    def _violate(self, text: str) -> None:
        self.violations.append(text)

    def _json(self, data: Any, status: int = 200) -> web.Response:
        # discord.py parses JSON only when Content-Type is exactly application/json.
        return web.Response(
            body=json.dumps(data).encode(),
            status=status,
            headers={"Content-Type": "application/json"},
        )

    def _error(
        self,
        req: _Request,
        status: int,
        code: int,
        message: str,
        *,
        violation: bool = True,
        errors: JSON | None = None,
        rec: InteractionResult | None = None,
        detail: str = "",
    ) -> web.Response:
        self.rejections.append(Rejection(req.method, req.path, status, code, message))
        text = f"{req.method} {req.path} -> {status} {code} {message}{detail}"
        if violation:
            self._violate(text)
        if rec is not None:
            rec.errors.append(text)
        body: JSON = {"code": code, "message": message}
        if errors:
            body["errors"] = errors
        return self._json(body, status)

    def _check_upload(self, req: _Request) -> web.Response | None:
        """Discord's upload limits: a file larger than the upload limit is 413 (40005, the
        whole request refused); too many files or a bad attachment entry is 400 (50035)."""
        too_big = [f for f in req.files if f["size"] > self.upload_limit]
        if too_big:
            names = ", ".join(f"{f['filename']} ({f['size']} bytes)" for f in too_big)
            return self._error(
                req, 413, 40005, "Request entity too large",
                detail=f" ({names} over {self.upload_limit} bytes)",
            )
        problems = limits.check_files(req.files)
        return self._invalid(req, problems) if problems else None

    def _check_embed_images(self, msg: Message) -> None:
        """An embed image `attachment://name` must name one of the message's attachments:
        Discord accepts the message and shows no picture, a bug only a test can see."""
        names = {a["filename"] for a in msg.attachments}
        for i, embed in enumerate(msg.embeds):
            for key in ("image", "thumbnail"):
                url = str((embed.get(key) or {}).get("url") or "")
                if url.startswith("attachment://") and url[len("attachment://"):] not in names:
                    self._violate(
                        f"message {msg.id}: embeds.{i}.{key} names {url}, which is not "
                        f"attached (attachments: {sorted(names)})"
                    )

    def _invalid(
        self, req: _Request, problems: list[limits.Problem], rec: InteractionResult | None = None
    ) -> web.Response:
        empty = [p for p in problems if p[1] == "Cannot send an empty message"]
        if empty and len(empty) == len(problems):
            return self._error(req, 400, 50006, "Cannot send an empty message", rec=rec)
        detail = "; " + "; ".join(f"{p}: {m}" for p, m in problems)
        return self._error(
            req,
            400,
            50035,
            "Invalid Form Body",
            errors=limits.form_errors(problems),
            rec=rec,
            detail=detail,
        )

    async def _read(self, request: web.Request, path: str) -> _Request:
        body: Any = None
        files: list[JSON] = []
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            for key, value in form.items():
                if key == "payload_json":
                    body = json.loads(str(value))
                elif isinstance(value, web.FileField):
                    data = value.file.read()
                    files.append({
                        "field": key,
                        "filename": value.filename,
                        "size": len(data),
                        "data": data,
                        "content_type": limits.content_type(data, value.filename,
                                                            value.content_type),
                        **limits.image_size(data),
                    })
            limits.describe_files(body, files)
        else:
            raw = await request.text()
            body = json.loads(raw) if raw else None
        auth = request.headers.get("Authorization", "")
        return _Request(
            request.method, path, dict(request.query), body, files, auth.startswith("Bot ")
        )

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Handler, bool]]:
        """(method, path regex, handler, needs bot auth); {name} captures an id."""
        table: list[tuple[str, Handler]] = [
            ("GET /users/@me", self._get_me),
            ("GET /users/{uid}", self._get_user),
            ("GET /gateway/bot", self._get_gateway_bot),
            ("GET /gateway", self._get_gateway),
            ("GET /oauth2/applications/@me", self._get_app),
            ("GET /applications/@me", self._get_app),
            ("GET /applications/{app}/commands", self._get_cmds),
            ("PUT /applications/{app}/commands", self._put_cmds),
            ("GET /applications/{app}/guilds/{gid}/commands", self._get_cmds),
            ("PUT /applications/{app}/guilds/{gid}/commands", self._put_cmds),
            ("POST /users/@me/channels", self._create_dm),
            ("GET /channels/{cid}", self._get_channel),
            ("PATCH /channels/{cid}", self._patch_channel),
            ("POST /channels/{cid}/typing", self._typing),
            ("GET /channels/{cid}/messages", self._history),
            ("POST /channels/{cid}/messages", self._post_message),
            ("GET /channels/{cid}/messages/{mid}", self._get_message),
            ("PATCH /channels/{cid}/messages/{mid}", self._patch_message),
            ("DELETE /channels/{cid}/messages/{mid}", self._delete_message),
            ("GET /guilds/{gid}", self._get_guild),
            ("GET /guilds/{gid}/channels", self._get_guild_channels),
            ("GET /guilds/{gid}/members/{uid}", self._get_member),
            ("POST /interactions/{iid}/{token}/callback", self._callback),
            ("POST /webhooks/{app}/{token}", self._followup),
            ("GET /webhooks/{app}/{token}/messages/{wmid}", self._webhook_message),
            ("PATCH /webhooks/{app}/{token}/messages/{wmid}", self._webhook_message),
            ("DELETE /webhooks/{app}/{token}/messages/{wmid}", self._webhook_message),
        ]
        special = {"token": r"[^/]+", "wmid": r"@original|\d+"}
        snowflake = r"\d+"
        routes = []
        for spec, handler in table:
            method, path = spec.split(" ")
            regex = re.sub(
                r"\{(\w+)\}",
                lambda m: f"(?P<{m[1]}>{special.get(m[1], snowflake)})",
                path.replace(".", r"\."),
            )
            open_route = path.startswith(("/webhooks/", "/interactions/")) or path == "/gateway"
            routes.append((method, re.compile(f"^{regex}$"), handler, not open_route))
        return routes

    def _match(self, method: str, path: str) -> tuple[Handler, dict[str, str], bool] | None:
        for route_method, pattern, handler, needs_auth in self._routes:
            match = pattern.match(path)
            if match and route_method == method:
                return handler, match.groupdict(), needs_auth
        return None

    def _request_target(
        self, path: str, params: dict[str, str], req: _Request
    ) -> tuple[int | None, int | None]:
        """(channel id, DM recipient id) a request is about, for faults' channel/recipient."""
        channel_id: int | None = None
        recipient_id: int | None = None
        if "cid" in params:
            channel_id = int(params["cid"])
        elif "iid" in params or "token" in params:
            rec = (
                self._interactions.get(int(params["iid"]))
                if "iid" in params
                else self._by_token.get(params["token"])
            )
            channel_id = rec.channel_id if rec is not None else None
        elif path == "/users/@me/channels" and isinstance(req.body, dict):
            with contextlib.suppress(TypeError, ValueError):
                recipient_id = int(req.body.get("recipient_id", 0))
        ch = self.channels.get(channel_id) if channel_id is not None else None
        if ch is not None and ch.is_dm:
            recipient_id = ch.recipient_id
        return channel_id, recipient_id

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        self._inflight += 1
        self._touch()
        try:
            req = await self._read(request, path)
            self.requests.append(f"{req.method} {path}")
            self.faults.arrived(request.method, path)
            found = self._match(request.method, path)
            if found is None:
                return self._error(
                    req, 404, 0, "404: Not Found", detail=" (route unknown to stand-in)"
                )
            handler, params, needs_auth = found
            if needs_auth and not req.authorized:
                return self._error(req, 401, 0, "401: Unauthorized")
            if needs_auth:
                limited = self._global_limit(request, req)
                if limited is not None:
                    return limited
            if req.files:
                refused = self._check_upload(req)
                if refused is not None:
                    return refused
            return await self._handle(request, req, handler, params, bot_route=needs_auth)
        except Exception as exc:
            if request.transport is None or request.transport.is_closing():
                # The client went away mid-request (a killed bot process): not our error.
                log.info("client left during %s %s: %r", request.method, path, exc)
                return web.Response(status=499)
            log.exception("stand-in REST error")
            self._violate(f"INTERNAL stand-in error on {request.method} {path}: {exc!r}")
            return self._json({"code": 0, "message": f"stand-in error: {exc!r}"}, 400)
        finally:
            self._inflight -= 1
            self._touch()

    async def _handle(
        self,
        request: web.Request,
        req: _Request,
        handler: Handler,
        params: dict[str, str],
        *,
        bot_route: bool,
    ) -> web.StreamResponse:
        """Run the route's handler with the faults in force around it."""
        channel_id, recipient_id = self._request_target(req.path, params, req)
        def pick(*kinds: FaultKind) -> Fault | None:
            return self.faults.pick(req.method, req.path, channel_id=channel_id,
                                    recipient_id=recipient_id, bot_route=bot_route,
                                    **({"kinds": kinds} if kinds else {}))

        delay = pick("delay")
        if delay is not None:
            await asyncio.sleep(delay.seconds)
        fault = pick()
        if fault is not None and not fault.after_apply:
            return self.faults.respond(fault, request, req.path, bot_route=bot_route)
        response = await handler(req, **params)
        if fault is not None:
            return self.faults.respond(fault, request, req.path, bot_route=bot_route)
        if response.status < 400:
            self.faults.answered(req.method, req.path)
        return response

    # ------------------------------------------------------------------ REST: misc

    async def _get_me(self, req: _Request) -> web.Response:
        return self._json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def _get_user(self, req: _Request, uid: str) -> web.Response:
        user = self.users.get(int(uid))
        if user is None:
            return self._error(req, 404, 10013, "Unknown User")
        return self._json(user.payload())

    async def _get_gateway_bot(self, req: _Request) -> web.Response:
        return self._json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.max_concurrency,
                },
            }
        )

    async def _get_gateway(self, req: _Request) -> web.Response:
        return self._json({"url": self.gateway_url})

    async def _get_app(self, req: _Request) -> web.Response:
        return self._json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.bot_user.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user.payload(),
            }
        )

    def _guild_access(self, req: _Request, gid: str) -> Guild | web.Response:
        guild = self.guilds.get(int(gid))
        if guild is None:
            return self._error(req, 404, 10004, "Unknown Guild")
        if not self._bot_in(guild.id):
            return self._error(req, 403, 50001, "Missing Access", violation=False)
        return guild

    def _channel_access(self, req: _Request, cid: str) -> Channel | web.Response:
        """The channel if the bot may reach it; else Discord's answer (10003 for a channel
        that never existed is a violation; deleted or left behind is the world's doing)."""
        ch = self.channels.get(int(cid))
        if ch is None:
            return self._error(req, 404, 10003, "Unknown Channel")
        if ch.deleted:
            return self._error(req, 404, 10003, "Unknown Channel", violation=False)
        if ch.guild_id is not None and not self._bot_in(ch.guild_id):
            return self._error(req, 403, 50001, "Missing Access", violation=False)
        return ch

    def _archived(self, req: _Request, ch: Channel) -> web.Response | None:
        if ch.is_thread and ch.archived:
            return self._error(req, 400, 50083, "Thread is archived", violation=False)
        return None

    async def _get_guild(self, req: _Request, gid: str) -> web.Response:
        guild = self._guild_access(req, gid)
        if isinstance(guild, web.Response):
            return guild
        data = self._guild_payload(guild, None)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key, None)
        return self._json(data)

    async def _get_guild_channels(self, req: _Request, gid: str) -> web.Response:
        guild = self._guild_access(req, gid)
        if isinstance(guild, web.Response):
            return guild
        return self._json([self._channel_payload(self.channels[c]) for c in guild.channel_ids])

    async def _get_member(self, req: _Request, gid: str, uid: str) -> web.Response:
        guild = self._guild_access(req, gid)
        if isinstance(guild, web.Response):
            return guild
        if int(uid) not in guild.member_ids:
            return self._error(req, 404, 10007, "Unknown Member", violation=False)
        return self._json(self._member_payload(self.users[int(uid)], guild))

    async def _get_channel(self, req: _Request, cid: str) -> web.Response:
        ch = self._channel_access(req, cid)
        if isinstance(ch, web.Response):
            return ch
        return self._json(self._channel_payload(ch))

    async def _patch_channel(self, req: _Request, cid: str) -> web.Response:
        """Only threads: archived / locked / name, as discord.py's Thread.edit sends them."""
        ch = self._channel_access(req, cid)
        if isinstance(ch, web.Response):
            return ch
        if not ch.is_thread:
            return self._error(req, 403, 50013, "Missing Permissions", violation=False)
        body: JSON = req.body or {}
        perms = self.permissions(self.bot_user, ch.id)
        locked = bool(body.get("locked", ch.locked))
        archived = bool(body.get("archived", ch.archived))
        if (locked != ch.locked or (ch.locked and not archived)) and not perms & MANAGE_THREADS:
            return self._error(req, 403, 50013, "Missing Permissions", violation=False)
        if "name" in body:
            name = str(body["name"] or "")
            if not 1 <= len(name) <= 100:
                return self._invalid(req, [("name", "Must be between 1 and 100 in length.")])
            ch.name = name
        self._set_thread(ch.id, archived=archived, locked=locked)
        return self._json(self._channel_payload(ch))

    async def _typing(self, req: _Request, cid: str) -> web.Response:
        ch = self._channel_access(req, cid)
        if isinstance(ch, web.Response):
            return ch
        return web.Response(status=204)

    async def _create_dm(self, req: _Request) -> web.Response:
        rid = int((req.body or {}).get("recipient_id", 0))
        if rid not in self.users:
            return self._error(req, 400, 50035, "Invalid Form Body", detail=" (unknown recipient)")
        self.dm_opened.setdefault(rid, time.time())
        return self._json(self._channel_payload(self.channels[self.dm_channel_id(rid)]))

    # ------------------------------------------------------------------ REST: commands

    async def _get_cmds(self, req: _Request, app: str, gid: str | None = None) -> web.Response:
        if int(app) != self.application_id:
            return self._error(req, 403, 50001, "Missing Access")
        return self._json(self.commands(int(gid) if gid else None))

    async def _put_cmds(self, req: _Request, app: str, gid: str | None = None) -> web.Response:
        if int(app) != self.application_id:
            return self._error(req, 403, 50001, "Missing Access")
        guild_id = int(gid) if gid else None
        if guild_id is not None and guild_id not in self.guilds:
            return self._error(req, 403, 50001, "Missing Access")
        body: list[JSON] = req.body or []
        problems = self._check_commands(body)
        if problems:
            return self._invalid(req, problems)
        stored = []
        for cmd in body:
            key = (guild_id, cmd["name"], int(cmd.get("type", 1)))
            cid = self._command_ids.setdefault(key, self._next_id())
            data = {
                "id": str(cid),
                "application_id": str(self.application_id),
                "version": str(self._next_id()),
                "type": 1,
                "description": "",
                "default_member_permissions": None,
                "nsfw": False,
                **copy.deepcopy(cmd),
            }
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            stored.append(data)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return self._json(stored)

    def _check_commands(self, cmds: list[JSON]) -> list[limits.Problem]:
        problems: list[limits.Problem] = []
        if len(cmds) > 100:
            problems.append(("", "Maximum number of application commands reached (100)."))
        seen: set[tuple[str, int]] = set()
        for i, cmd in enumerate(cmds):
            key = (str(cmd.get("name")), int(cmd.get("type", 1)))
            if key in seen:
                problems.append(
                    (f"{i}.name", f"Application command name {key[0]!r} is duplicated.")
                )
            seen.add(key)
            problems += self._check_command_node(f"{i}", cmd, chat=key[1] == 1)
        return problems

    def _check_command_node(self, path: str, node: JSON, *, chat: bool) -> list[limits.Problem]:
        """A command or option and, in every locale, its localizations: the same name rules
        (the pattern, lowercase, 1-32), descriptions of 1-100, choice names of 1-100, and
        names unique among siblings in each locale."""
        problems = _unknown_locales(path, node)
        for where, name in _names(path, node):
            if chat and (not COMMAND_NAME.match(name) or name != name.lower()):
                problems.append((where, f"Invalid command name {name!r}."))
        for where, desc in _texts(path, node, "description"):
            if chat and not 1 <= len(desc) <= 100:
                problems.append((where, "Must be between 1 and 100 in length."))
        options = node.get("options") or []
        if len(options) > 25:
            problems.append((f"{path}.options", "Must be 25 or fewer in length."))
        choices = node.get("choices") or []
        if len(choices) > 25:
            problems.append((f"{path}.choices", "Must be 25 or fewer in length."))
        for j, choice in enumerate(choices):
            problems += _unknown_locales(f"{path}.choices.{j}", choice)
            for where, name in _names(f"{path}.choices.{j}", choice):
                if not 1 <= len(name) <= 100:
                    problems.append((where, "Must be between 1 and 100 in length."))
        for locale in LOCALES:
            seen: set[str] = set()
            for j, opt in enumerate(options):
                shown = (opt.get("name_localizations") or {}).get(locale) or opt.get("name")
                if shown in seen:
                    problems.append((f"{path}.options.{j}.name_localizations.{locale}",
                                     f"Option name {shown!r} is duplicated in {locale}."))
                seen.add(shown)
        for j, opt in enumerate(options):
            problems += self._check_command_node(f"{path}.options.{j}", opt, chat=chat)
        return problems

    # ------------------------------------------------------------------ REST: messages

    def _store(self, msg: Message) -> None:
        self.messages.append(msg)
        self._messages[msg.id] = msg
        self._bump(msg)

    def _bump(self, msg: Message) -> None:
        self._stamp += 1
        self._stamps[msg.id] = self._stamp
        self._touch()

    def _new_message(self, channel_id: int, payload: JSON, files: list[JSON], **kw: Any) -> Message:
        ch = self.channels[channel_id]
        msg = Message(
            id=self._next_id(),
            channel_id=channel_id,
            guild_id=ch.guild_id,
            author_id=self.bot_user.id,
            content=str(payload.get("content") or ""),
            embeds=copy.deepcopy(payload.get("embeds") or []),
            components=copy.deepcopy(payload.get("components") or []),
            attachments=[self._attachment(f) for f in files],
            flags=int(payload.get("flags") or 0),
            created_at=time.time(),
            dm_recipient_id=ch.recipient_id if ch.is_dm else None,
            allowed_mentions=copy.deepcopy(payload.get("allowed_mentions")),
            **kw,
        )
        if msg.ephemeral and msg.visible_to is None:
            raise ValueError("ephemeral message without a viewer")
        self._check_embed_images(msg)
        self._store(msg)
        if not msg.ephemeral:
            self._announce("MESSAGE_CREATE", msg)
        return msg

    def _attachment(self, f: JSON) -> JSON:
        aid = self._next_id()
        self.uploads[aid] = f["data"]
        url = f"http://127.0.0.1:{self.port}/attachments/{aid}/{f['filename']}"
        out: JSON = {
            "id": str(aid),
            "filename": f["filename"],
            "size": f["size"],
            "url": url,
            "proxy_url": url,
        }
        for key in ("content_type", "description", "width", "height"):
            if f.get(key) is not None:
                out[key] = f[key]
        return out

    def _announce(self, event: str, msg: Message) -> None:
        """MESSAGE_* events for the bot's cache, when its intents ask for them."""
        bit = DM_MESSAGES_INTENT if msg.is_dm else GUILD_MESSAGES_INTENT
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
        else:
            data = self._message_payload(msg, with_nonce=event == "MESSAGE_CREATE")

        def build(conn: Connection) -> JSON | None:
            return data if conn.session and conn.session.intents & bit else None

        self._broadcast(event, build)

    def _apply_edit(self, msg: Message, payload: JSON, files: list[JSON]) -> None:
        msg.history.append(msg.snapshot())
        if "content" in payload:
            msg.content = str(payload["content"] or "")
        if "embeds" in payload:
            msg.embeds = copy.deepcopy(payload["embeds"] or [])
        if "components" in payload:
            msg.components = copy.deepcopy(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = msg.flags & EPHEMERAL
            msg.flags = keep | (int(payload["flags"]) & ~(EPHEMERAL | LOADING))
        msg.flags &= ~LOADING
        if "attachments" in payload:
            keep_ids = {str(a.get("id")) for a in payload["attachments"] or []}
            msg.attachments = [a for a in msg.attachments if a["id"] in keep_ids]
        msg.attachments += [self._attachment(f) for f in files]
        self._check_embed_images(msg)
        msg.edited_at = time.time()
        self._bump(msg)
        if not msg.ephemeral:
            self._announce("MESSAGE_UPDATE", msg)

    def _edit_problems(
        self, msg: Message, payload: JSON, files: list[JSON]
    ) -> list[limits.Problem]:
        flags = payload.get("flags")
        merged = {
            "content": payload.get("content", msg.content),
            "embeds": payload.get("embeds", msg.embeds),
            "components": payload.get("components", msg.components),
            "flags": (msg.flags if flags is None else int(flags)) & ~(EPHEMERAL | LOADING),
        }
        has_files = bool(files) or bool(payload.get("attachments", msg.attachments))
        return limits.check_message(merged, creating=True, interaction=False, has_files=has_files)

    def _can_dm(self, user: User) -> bool:
        """Open DMs and at least one guild shared with the bot, as Discord requires."""
        return user.dms_open and bool(user.guild_ids & self.bot_user.guild_ids)

    def _global_limit(self, request: web.Request, req: _Request) -> web.Response | None:
        """Count a bot-route request against its token; past `global_rate_limit` in the
        last second, answer Discord's global 429 (the request is not carried out)."""
        token = request.headers.get("Authorization", "")
        wait = self.under_limit.take(token, self.now(), self.global_rate_limit,
                                     f"{req.method} {req.path}")
        if wait is None:
            return None
        self.faults.expect_retry(req.method, req.path, wait)
        return rate_limit_response(wait, global_=True)

    def _take_message_slot(self, channel_id: int) -> tuple[bool, int, float]:
        """message_rate_limit's fixed window: (allowed, remaining, seconds until reset)."""
        assert self.message_rate_limit is not None
        limit, per = self.message_rate_limit
        now = self.now()
        start, used = self._rate_windows.get(channel_id, (now, 0))
        if now - start >= per:
            start, used = now, 0
        reset_after = max(0.0, start + per - now)
        if used >= limit:
            return False, 0, reset_after
        self._rate_windows[channel_id] = (start, used + 1)
        return True, limit - used - 1, reset_after

    async def _post_message(self, req: _Request, cid: str) -> web.Response:
        ch = self._channel_access(req, cid)
        if isinstance(ch, web.Response):
            return ch
        headers: dict[str, str] = {}
        if self.message_rate_limit is not None:
            allowed, remaining, reset_after = self._take_message_slot(ch.id)
            bucket = bucket_hash("POST /channels/{channel_id}/messages")
            if not allowed:
                self.rate_limited.append(f"{req.method} {req.path}")
                self.faults.expect_retry(req.method, req.path, reset_after)
                return rate_limit_response(
                    reset_after, bucket=bucket, limit=self.message_rate_limit[0]
                )
            headers = {
                "X-RateLimit-Limit": str(self.message_rate_limit[0]),
                "X-RateLimit-Remaining": str(remaining),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": bucket,
            }
        response = self._create_message(req, ch)
        response.headers.update(headers)
        return response

    def _create_message(self, req: _Request, ch: Channel) -> web.Response:
        payload: JSON = req.body or {}
        if ch.is_dm:
            assert ch.recipient_id is not None
            if not self._can_dm(self.users[ch.recipient_id]):
                return self._error(
                    req, 403, 50007, "Cannot send messages to this user", violation=False
                )
        else:
            archived = self._archived(req, ch)
            if archived is not None:
                return archived
            needed = SEND_MESSAGES_IN_THREADS if ch.is_thread else SEND_MESSAGES
            perms = self.permissions(self.bot_user, ch.id)
            if not perms & VIEW_CHANNEL:
                return self._error(req, 403, 50001, "Missing Access", violation=False)
            if not perms & needed or (req.files and not perms & ATTACH_FILES):
                return self._error(req, 403, 50013, "Missing Permissions", violation=False)
        problems = limits.check_message(
            payload, creating=True, interaction=False, has_files=bool(req.files)
        ) + limits.check_nonce(payload)
        if problems:
            return self._invalid(req, problems)
        nonce = payload.get("nonce")
        key = (self.bot_user.id, ch.id, str(nonce))
        if nonce is not None and payload.get("enforce_nonce") is True:
            seen = self._nonces.get(key)
            if seen is not None and self.now() - seen[1] < self.nonce_window:
                # Discord: the message made earlier with this nonce, and nothing new; 404 if
                # that message was deleted meanwhile (discord.py documents it as NotFound).
                self.deduplicated.append(seen[0])
                self._touch()
                if seen[0].deleted:
                    return self._error(req, 404, 10008, "Unknown Message", violation=False)
                return self._json(self._message_payload(seen[0], with_nonce=True))
        ref = payload.get("message_reference")
        msg = self._new_message(ch.id, payload, req.files, type=19 if ref else 0, nonce=nonce)
        if nonce is not None:
            self._nonces[key] = (msg, self.now())
        return self._json(self._message_payload(msg, with_nonce=True))

    def _channel_message(self, cid: str, mid: str) -> Message | None:
        msg = self._messages.get(int(mid))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != int(cid):
            return None
        return msg

    async def _history(self, req: _Request, cid: str) -> web.Response:
        ch = self._channel_access(req, cid)
        if isinstance(ch, web.Response):
            return ch
        limit = int(req.query.get("limit", 50))
        msgs = [self._message_payload(m) for m in reversed(self.channel_messages(int(cid)))]
        return self._json(msgs[:limit])

    def _message_at(self, req: _Request, cid: str, mid: str, *, changing: bool,
                    unknown_is_violation: bool = False) -> tuple[Channel, Message] | web.Response:
        """The channel and its message a request names, or Discord's refusal: the channel
        out of reach, an archived thread (when `changing` it), or no such message (10008)."""
        ch = self._channel_access(req, cid)
        if isinstance(ch, web.Response):
            return ch
        archived = self._archived(req, ch) if changing else None
        if archived is not None:
            return archived
        msg = self._channel_message(cid, mid)
        if msg is None:
            return self._error(req, 404, 10008, "Unknown Message",
                               violation=unknown_is_violation)
        return ch, msg

    async def _get_message(self, req: _Request, cid: str, mid: str) -> web.Response:
        found = self._message_at(req, cid, mid, changing=False)
        if isinstance(found, web.Response):
            return found
        return self._json(self._message_payload(found[1]))

    async def _patch_message(self, req: _Request, cid: str, mid: str) -> web.Response:
        found = self._message_at(req, cid, mid, changing=True, unknown_is_violation=True)
        if isinstance(found, web.Response):
            return found
        ch, msg = found
        if msg.author_id != self.bot_user.id:
            return self._error(req, 403, 50005, "Cannot edit a message authored by another user")
        if req.files and not ch.is_dm and not self.permissions(self.bot_user, ch.id) & ATTACH_FILES:
            return self._error(req, 403, 50013, "Missing Permissions", violation=False)
        payload: JSON = req.body or {}
        problems = self._edit_problems(msg, payload, req.files)
        if problems:
            return self._invalid(req, problems)
        self._apply_edit(msg, payload, req.files)
        return self._json(self._message_payload(msg))

    async def _delete_message(self, req: _Request, cid: str, mid: str) -> web.Response:
        found = self._message_at(req, cid, mid, changing=True)
        if isinstance(found, web.Response):
            return found
        self._delete(found[1])
        return web.Response(status=204)

    def _delete(self, msg: Message) -> None:
        msg.deleted = True
        self._bump(msg)
        if not msg.ephemeral:
            self._announce("MESSAGE_DELETE", msg)

    # ------------------------------------------------------------------ REST: interactions

    async def _callback(self, req: _Request, iid: str, token: str) -> web.Response:
        rec = self._interactions.get(int(iid))
        if rec is None or rec.token != token:
            return self._error(req, 404, 10062, "Unknown interaction")
        now = self.now()
        body: JSON = req.body or {}
        ctype = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        if rec.callback_type is not None:
            return self._error(
                req, 400, 40060, "Interaction has already been acknowledged", rec=rec
            )
        if now - rec.dispatched_at > self.interaction_deadline:
            late = now - rec.dispatched_at
            return self._error(
                req,
                404,
                10062,
                "Unknown interaction",
                rec=rec,
                detail=f" (callback {late:.2f}s after dispatch)",
            )
        allowed = set(CALLBACKS_ALLOWED.get(rec.type, set()))
        if rec.source_message_id is None:
            allowed -= {6, 7}
        if ctype in (4, 5, 7):
            archived = self._archived(req, self.channels[rec.channel_id])
            if archived is not None:
                return archived
        if ctype not in allowed:
            return self._error(
                req,
                400,
                50035,
                "Invalid Form Body",
                rec=rec,
                detail=f" (callback type {ctype} not valid for a {INTERACTION_KINDS[rec.type]})",
            )
        response_message: Message | None = None
        if ctype == 4:
            problems = limits.check_message(
                data, creating=True, interaction=True, has_files=bool(req.files)
            )
            if problems:
                return self._invalid(req, problems, rec)
            flags = int(data.get("flags") or 0)
            rec.original = response_message = self._new_message(
                rec.channel_id,
                data,
                req.files,
                type=20 if rec.type == 2 else 0,
                interaction_id=rec.id,
                webhook_id=self.application_id,
                visible_to=rec.user_id if flags & EPHEMERAL else None,
            )
        elif ctype == 5:
            flags = int(data.get("flags") or 0) & EPHEMERAL
            rec.original = response_message = self._new_message(
                rec.channel_id,
                {"flags": flags | LOADING},
                [],
                type=20 if rec.type == 2 else 0,
                interaction_id=rec.id,
                webhook_id=self.application_id,
                visible_to=rec.user_id if flags & EPHEMERAL else None,
            )
        elif ctype in (6, 7):
            assert rec.source_message_id is not None
            source = self._messages[rec.source_message_id]
            rec.original = source
            if ctype == 7:
                problems = self._edit_problems(source, data, req.files)
                if problems:
                    return self._invalid(req, problems, rec)
                self._apply_edit(source, data, req.files)
                rec.original_edited = True
                response_message = source
        elif ctype == 8:
            choices = list(data.get("choices") or [])
            problems = limits.check_choices(choices)
            if problems:
                return self._invalid(req, problems, rec)
            rec.choices = choices
        elif ctype == 9:
            problems = limits.check_modal(data)
            if problems:
                return self._invalid(req, problems, rec)
            rec.modal = copy.deepcopy(data)
        rec.callback_type = ctype
        rec.callback_at = now
        rec.callback_flags = int(data.get("flags") or 0) if isinstance(data, dict) else 0
        if ctype in (4, 7, 8, 9):
            rec.done.set()
        self._touch()
        if "with_response" not in req.query:
            return web.Response(status=204)
        inter: JSON = {"id": str(rec.id), "type": rec.type}
        resource: JSON = {"type": ctype}
        if response_message is not None:
            inter["response_message_id"] = str(response_message.id)
            inter["response_message_loading"] = ctype == 5
            inter["response_message_ephemeral"] = response_message.ephemeral
            resource["message"] = self._message_payload(response_message)
        return self._json({"interaction": inter, "resource": resource})

    def _webhook_interaction(
        self, req: _Request, app: str, token: str
    ) -> InteractionResult | web.Response:
        rec = self._by_token.get(token)
        if int(app) != self.application_id or rec is None:
            return self._error(req, 404, 10015, "Unknown Webhook")
        if rec.callback_type is None:
            return self._error(
                req,
                404,
                10015,
                "Unknown Webhook",
                rec=rec,
                detail=" (followup/edit before the interaction was acknowledged)",
            )
        assert rec.callback_at is not None
        if self.now() - rec.callback_at > self.followup_window:
            return self._error(
                req,
                401,
                50027,
                "Invalid Webhook Token",
                rec=rec,
                detail=" (interaction token older than 15 minutes)",
            )
        if rec.type == 4:
            return self._error(
                req,
                404,
                10015,
                "Unknown Webhook",
                rec=rec,
                detail=" (autocomplete interactions have no followups)",
            )
        return rec

    async def _followup(self, req: _Request, app: str, token: str) -> web.Response:
        rec = self._webhook_interaction(req, app, token)
        if isinstance(rec, web.Response):
            return rec
        payload: JSON = req.body or {}
        ch = self.channels[rec.channel_id]
        archived = self._archived(req, ch)
        if archived is not None:
            return archived
        problems = limits.check_message(
            payload, creating=True, interaction=True, has_files=bool(req.files)
        )
        if problems:
            return self._invalid(req, problems, rec)
        wanted = bool(int(payload.get("flags") or 0) & EPHEMERAL)
        original = rec.original
        if rec.callback_type == 5 and original is not None and original.loading:
            # Discord: the first followup after a "thinking" defer resolves that message and
            # keeps the defer's visibility, whatever flags the followup carries.
            if wanted and not original.ephemeral:
                self._violate(
                    f"POST {req.path}: followup asked for ephemeral but resolves a public "
                    "deferred response; Discord shows it PUBLICLY (defer with ephemeral=True)"
                )
            elif wanted != original.ephemeral:
                self.warnings.append(
                    f"POST {req.path}: public followup resolves an ephemeral defer; "
                    "Discord shows it only to the user"
                )
            self._apply_edit(original, payload, req.files)
            rec.original_edited = True
            msg = original
        else:
            if (not wanted and req.files and not ch.is_dm
                    and not self.permissions(self.bot_user, ch.id) & ATTACH_FILES):
                # a public followup is a post of the channel: taken as the bot's own posts
                # are (its permissions there), files where it may not attach them refused
                return self._error(req, 403, 50013, "Missing Permissions", violation=False)
            msg = self._new_message(
                rec.channel_id,
                payload,
                req.files,
                interaction_id=rec.id,
                webhook_id=self.application_id,
                visible_to=rec.user_id if wanted else None,
            )
            answered = bool(rec.followups) or (
                rec.callback_type == 5 and original is not None and not original.loading
            ) or (rec.callback_type == 6 and (rec.original_edited or (
                original is not None and original.deleted)))  # a picker answered by going
            if not wanted and answered:
                rec.posts.append(msg)
            else:
                if not rec.followups and not rec.original_edited:
                    rec.followup_first = True
                rec.followups.append(msg)
        rec.done.set()
        self._touch()
        return self._json(self._message_payload(msg))

    async def _webhook_message(
        self, req: _Request, app: str, token: str, wmid: str
    ) -> web.StreamResponse:
        rec = self._webhook_interaction(req, app, token)
        if isinstance(rec, web.Response):
            return rec
        if wmid == "@original":
            msg = rec.original
        else:
            msg = next((m for m in [*rec.messages, *rec.posts] if m.id == int(wmid)), None)
        if msg is None or msg.deleted:
            return self._error(req, 404, 10008, "Unknown Message", rec=rec)
        if req.method == "GET":
            return self._json(self._message_payload(msg))
        if req.method == "DELETE":
            self._delete(msg)
            if msg is rec.original:
                rec.done.set()
            return web.Response(status=204)
        payload: JSON = req.body or {}
        problems = self._edit_problems(msg, payload, req.files)
        if problems:
            return self._invalid(req, problems, rec)
        self._apply_edit(msg, payload, req.files)
        if msg is rec.original:
            rec.original_edited = True
            rec.done.set()
        self._touch()
        return self._json(self._message_payload(msg))

    # ------------------------------------------------------------------ acting as users

    def _where(self, user: User, channel: int | Guild | Channel | None) -> Channel:
        if channel is None:
            return self.channels[self.dm_channel_id(user)]
        if isinstance(channel, Guild):
            return self.channels[channel.channel_id]
        if isinstance(channel, Channel):
            return channel
        return self.channels[int(channel)]

    def _interaction_payload(
        self, rec: InteractionResult, user: User, ch: Channel, message: Message | None
    ) -> JSON:
        payload: JSON = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": rec.type,
            "data": rec.data,
            "token": rec.token,
            "version": 1,
            "channel_id": str(ch.id),
            "channel": self._channel_payload(ch, for_user=user),
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": self.upload_limit,
            "app_permissions": str(self.permissions(self.bot_user, ch.id)),
        }
        if ch.guild_id is not None:
            guild = self.guilds[ch.guild_id]
            if user.id not in guild.member_ids:
                raise StandInError(f"{user.name} is not a member of guild {guild.name}")
            member = self._member_payload(user, guild)
            member["permissions"] = str(self.permissions(user, ch.id))
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.locale,
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                member=member,
                context=0,
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            if ch.recipient_id != user.id:
                raise StandInError(f"{user.name} cannot act in another user's DM channel")
            payload.update(
                user=user.payload(),
                context=1,
                authorizing_integration_owners={"0": "0"},
            )
        if message is not None:
            payload["message"] = self._message_payload(message)
        return payload

    async def _fire(
        self,
        kind: int,
        user: User | int,
        channel: int | Guild | Channel | None,
        data: JSON,
        message: Message | None = None,
    ) -> InteractionResult:
        u = self.users[_uid(user)]
        ch = self._where(u, channel)
        if ch.deleted:
            raise StandInError(f"channel {ch.name!r} ({ch.id}) was deleted")
        if ch.guild_id is not None and not self._bot_in(ch.guild_id):
            raise StandInError(f"the bot is not in guild {self.guilds[ch.guild_id].name}")
        if ch.is_thread and ch.archived:
            raise StandInError(f"thread {ch.name!r} is archived (unarchive_thread first)")
        conn = self._connection_for(ch.guild_id)
        iid = self._next_id()
        rec = InteractionResult(
            id=iid,
            token=f"itoken-{iid}",
            type=kind,
            user_id=u.id,
            channel_id=ch.id,
            guild_id=ch.guild_id,
            data=data,
            dispatched_at=self.now(),
            source_message_id=message.id if message is not None else None,
            shard=conn.session.shard[0] if self._shards and conn.session else None,
        )
        payload = self._interaction_payload(rec, u, ch, message)
        self.interactions.append(rec)
        self._interactions[iid] = rec
        self._by_token[rec.token] = rec
        await conn.flush()
        rec.dispatched_at = self.now()
        await conn.dispatch("INTERACTION_CREATE", payload)
        self._touch()
        return rec

    def _describe(self, rec: InteractionResult) -> str:
        what = INTERACTION_KINDS[rec.type]
        name = rec.data.get("custom_id") or rec.data.get("name")
        return f"{what} {name!r} by {self.users[rec.user_id].name} (interaction {rec.id})"

    def expire(self, rec: InteractionResult) -> None:
        """Let rec's time to answer be over now, as if its 3 s had passed: a test whose bot
        died holding it need not wait them out (a late callback is refused as on Discord)."""
        rec.dispatched_at = min(rec.dispatched_at, self.now() - self.interaction_deadline)
        self._touch()

    async def complete(self, rec: InteractionResult, timeout: float = 5.0) -> InteractionResult:
        """Wait until the bot acknowledged and (after a defer) finished answering rec."""
        end = time.monotonic() + timeout
        cb_end = min(end, time.monotonic() + self.interaction_deadline + 0.5)

        def answered() -> bool:
            return rec.callback_type is not None or (bool(rec.errors) and self._quiet(self.quiet))

        await self._wait_until(answered, max(0.0, cb_end - time.monotonic()))
        if rec.callback_type is None:
            raise InteractionNotAnswered(self._not_answered(rec, "was never acknowledged"))
        if rec.completed:
            return rec
        remaining = max(0.0, end - time.monotonic())
        if rec.callback_type == 5:
            if not await self._wait_until(lambda: rec.completed, remaining):
                raise InteractionNotAnswered(
                    self._not_answered(rec, "was deferred (thinking) but never followed up")
                )
        else:  # 6: an @original edit or a followup may or may not come
            await self._wait_until(lambda: rec.completed or self._quiet(self.quiet), remaining)
        return rec

    def _not_answered(self, rec: InteractionResult, what: str) -> str:
        lines = [f"{self._describe(rec)} {what}."]
        if rec.errors:
            lines.append("stand-in refused: " + "; ".join(rec.errors))
        if self.bot_errors:
            lines.append("bot errors:\n" + "\n".join(self.bot_errors[-3:]))
        return "\n".join(lines)

    async def _finish(
        self, rec: InteractionResult, wait: bool, timeout: float
    ) -> InteractionResult:
        return await self.complete(rec, timeout) if wait else rec

    # -- slash commands -------------------------------------------------------------------

    def _find_command(self, name: str, ch: Channel, user: User) -> JSON:
        cmd = None
        if ch.guild_id is not None:
            cmd = next(
                (
                    c
                    for c in self.guild_commands.get(ch.guild_id, [])
                    if name in (c["name"], shown_name(c, user.locale)) and c.get("type", 1) == 1
                ),
                None,
            )
        if cmd is None:
            cmd = next(
                (c for c in self.global_commands
                 if name in (c["name"], shown_name(c, user.locale)) and c.get("type", 1) == 1),
                None,
            )
        if cmd is None:
            known = [c["name"] for c in self.global_commands]
            if ch.guild_id is not None:
                known += [c["name"] for c in self.guild_commands.get(ch.guild_id, [])]
            raise StandInError(f"/{name} is not registered (did the bot sync?); have {known}")
        contexts = cmd.get("contexts")
        in_dm = ch.guild_id is None
        if in_dm and (cmd.get("dm_permission") is False or (contexts and 1 not in contexts)):
            raise StandInError(f"/{name} is not available in DMs")
        if not in_dm and contexts and 0 not in contexts:
            raise StandInError(f"/{name} is not available in guilds")
        needed = cmd.get("default_member_permissions")
        if needed is not None and not in_dm:
            perms = self.permissions(user, ch.id)
            if int(needed) == 0 or (perms & int(needed)) != int(needed):
                raise StandInError(f"{user.name} cannot see /{name} (default_member_permissions)")
        return cmd

    def _command_data(
        self,
        user: User,
        ch: Channel,
        path: tuple[str, ...],
        values: dict[str, Any],
        focused: str | None = None,
    ) -> JSON:
        if not path:
            raise TypeError("give the command name, then subcommand group/subcommand names")
        cmd = self._find_command(path[0], ch, user)
        chain: list[JSON] = []
        node = cmd
        for name in path[1:]:
            sub = next(
                (o for o in node.get("options", [])
                 if name in (o["name"], shown_name(o, user.locale)) and o["type"] in (1, 2)),
                None,
            )
            if sub is None:
                subs = [o["name"] for o in node.get("options", []) if o["type"] in (1, 2)]
                raise StandInError(f"/{' '.join(path)}: no subcommand {name!r}; have {subs}")
            chain.append(sub)
            node = sub
        defs = node.get("options", [])
        if any(o["type"] in (1, 2) for o in defs):
            raise StandInError(f"/{' '.join(path)} needs a subcommand")
        resolved: JSON = {}
        built: list[JSON] = []
        by_name = {o["name"]: o for o in defs}
        by_name.update({shown_name(o, user.locale): o for o in defs})  # as the member sees it
        for key, value in values.items():
            odef = by_name.get(key) or by_name.get(key.replace("_", "-"))
            if odef is None:
                raise StandInError(f"/{' '.join(path)} has no option {key!r}; have {list(by_name)}")
            is_focused = odef["name"] == focused
            opt: JSON = {"name": odef["name"], "type": odef["type"]}
            if is_focused:
                opt["value"] = str(value)
                opt["focused"] = True
            else:
                opt["value"] = self._option_value(odef, value, ch, resolved)
            built.append(opt)
        if focused is None:
            missing = [
                o["name"]
                for o in defs
                if o.get("required") and not any(b["name"] == o["name"] for b in built)
            ]
            if missing:
                raise StandInError(f"/{' '.join(path)}: missing required options {missing}")
        elif not any(b.get("focused") for b in built):
            odef = by_name.get(focused) or by_name.get(focused.replace("_", "-"))
            if odef is None:
                raise StandInError(f"/{' '.join(path)} has no option {focused!r}")
            built.append({"name": odef["name"], "type": odef["type"], "value": "", "focused": True})
        options = built
        for sub in reversed(chain):
            options = [{"name": sub["name"], "type": sub["type"], "options": options}]
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": options}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(self, odef: JSON, value: Any, ch: Channel, resolved: JSON) -> Any:
        kind, name = odef["type"], odef["name"]
        if kind in (6, 9) and (isinstance(value, User) or int(value) in self.users):
            u = self.users[_uid(value)]
            resolved.setdefault("users", {})[str(u.id)] = u.payload()
            if ch.guild_id is not None and u.id in self.guilds[ch.guild_id].member_ids:
                member = self._member_payload(u, self.guilds[ch.guild_id], with_user=False)
                member["permissions"] = str(self.permissions(u, ch.id))
                resolved.setdefault("members", {})[str(u.id)] = member
            return str(u.id)
        if kind in (8, 9):
            guild = self.guilds[ch.guild_id] if ch.guild_id else None
            rid = int(value)
            if guild is None or rid not in (guild.id, guild.bot_role_id, guild.manager_role_id):
                raise StandInError(f"option {name}: unknown role {value!r}")
            resolved.setdefault("roles", {})[str(rid)] = self._role_payload(guild, rid)
            return str(rid)
        if kind == 7:
            target = self.channels[int(value.id if isinstance(value, Channel) else value)]
            data = self._channel_payload(target)
            data["permissions"] = str(self.permissions(self.bot_user, target.id))
            resolved.setdefault("channels", {})[str(target.id)] = data
            return str(target.id)
        if kind == 11:
            raise NotImplementedError("attachment options are not supported by the stand-in")
        if kind == 5:
            return bool(value)
        if kind == 4:
            if isinstance(value, bool) or int(value) != value:
                raise StandInError(f"option {name}: {value!r} is not an integer")
            converted: Any = int(value)
        elif kind == 10:
            converted = float(value)
        else:
            converted = str(value)
            lo, hi = odef.get("min_length"), odef.get("max_length")
            if (lo is not None and len(converted) < lo) or (hi is not None and len(converted) > hi):
                raise StandInError(f"option {name}: length must be in [{lo}, {hi}]")
        if kind in (4, 10):
            lo, hi = odef.get("min_value"), odef.get("max_value")
            if (lo is not None and converted < lo) or (hi is not None and converted > hi):
                raise StandInError(f"option {name}: {converted} outside [{lo}, {hi}]")
        choices = odef.get("choices")
        if choices and converted not in [c["value"] for c in choices]:
            raise StandInError(f"option {name}: {converted!r} is not one of {choices}")
        return converted

    async def slash(
        self,
        user: User | int,
        channel: int | Guild | Channel | None,
        *path: str,
        options: dict[str, Any] | None = None,
        wait: bool = True,
        timeout: float = 5.0,
        **kwargs: Any,
    ) -> InteractionResult:
        """Run /path... as user in channel (None: the user's DM with the bot).

        Options come from kwargs (underscores also match hyphens) or `options` for any name;
        users are User objects or ids. Returns once the bot answered (see complete()).
        """
        u = self.users[_uid(user)]
        ch = self._where(u, channel)
        data = self._command_data(u, ch, path, {**(options or {}), **kwargs})
        rec = await self._fire(2, u, ch, data)
        return await self._finish(rec, wait, timeout)

    async def autocomplete(
        self,
        user: User | int,
        channel: int | Guild | Channel | None,
        *path: str,
        focused: str,
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        **kwargs: Any,
    ) -> list[JSON]:
        """Ask for choices of option `focused` (its typed text in kwargs, default "")."""
        u = self.users[_uid(user)]
        ch = self._where(u, channel)
        data = self._command_data(u, ch, path, {**(options or {}), **kwargs}, focused=focused)
        rec = await self._fire(4, u, ch, data)
        await self.complete(rec, timeout)
        return list(rec.choices or [])

    # -- components -----------------------------------------------------------------------

    def _resolve_message(self, message: Message | InteractionResult | int) -> Message:
        if isinstance(message, InteractionResult):
            msg = message.message
            if msg is None:
                raise StandInError(f"interaction {message.id} produced no message")
            return msg
        if isinstance(message, Message):
            return self._messages[message.id]
        return self._messages[int(message)]

    def _component_target(
        self, user: User, message: Message | InteractionResult | int
    ) -> tuple[Message, Channel]:
        msg = self._resolve_message(message)
        if msg.deleted:
            raise StandInError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.visible_to != user.id:
            raise StandInError(f"{user.name} cannot see ephemeral message {msg.id}")
        if msg.is_dm and msg.dm_recipient_id != user.id:
            raise StandInError(f"{user.name} cannot see a DM to someone else")
        return msg, self.channels[msg.channel_id]

    async def click(
        self,
        user: User | int,
        message: Message | InteractionResult | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """Press a button (by custom_id or label) on a recorded message, channel or DM."""
        u = self.users[_uid(user)]
        msg, ch = self._component_target(u, message)
        comp = msg.component(custom_id, label=label)
        if comp.get("type") != 2:
            raise StandInError(f"{comp.get('custom_id')!r} is not a button")
        if comp.get("disabled"):
            raise StandInError(f"button {comp.get('custom_id')!r} is disabled")
        if "custom_id" not in comp:
            raise StandInError("link buttons cannot be clicked into the bot")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        rec = await self._fire(3, u, ch, data, message=msg)
        return await self._finish(rec, wait, timeout)

    async def select(
        self,
        user: User | int,
        message: Message | InteractionResult | int,
        custom_id: str,
        values: list[Any],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """Choose values in a select (string values; users/roles/channels as objects or ids)."""
        u = self.users[_uid(user)]
        msg, ch = self._component_target(u, message)
        comp = msg.component(custom_id)
        kind = comp.get("type")
        if kind not in limits.SELECT_TYPES:
            raise StandInError(f"{custom_id!r} is not a select")
        if comp.get("disabled"):
            raise StandInError(f"select {custom_id!r} is disabled")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise StandInError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: JSON = {"custom_id": custom_id, "component_type": kind}
        if kind == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise StandInError(f"select {custom_id!r}: {bad} not among options {allowed}")
            data["values"] = list(values)
        else:
            resolved: JSON = {}
            odef = {"type": {5: 6, 6: 8, 7: 9, 8: 7}[kind], "name": custom_id}
            data["values"] = [self._option_value(odef, v, ch, resolved) for v in values]
            data["resolved"] = resolved
        rec = await self._fire(3, u, ch, data, message=msg)
        return await self._finish(rec, wait, timeout)

    async def forge(
        self,
        user: User | int,
        message: Message | InteractionResult | int,
        data: JSON,
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """A component interaction with any `data` (custom_id, component_type, values) on a
        message the user can see: what a modified client or a replayed request could send
        (forged, truncated or replayed custom_ids, values no select offers). For fuzzing."""
        u = self.users[_uid(user)]
        msg, ch = self._component_target(u, message)
        rec = await self._fire(3, u, ch, dict(data), message=msg)
        return await self._finish(rec, wait, timeout)

    async def submit_modal(
        self,
        user: User | int,
        opened_by: InteractionResult,
        values: dict[str, str | list[str]],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to `opened_by`."""
        if opened_by.modal is None:
            raise StandInError(f"interaction {opened_by.id} did not open a modal")
        u = self.users[_uid(user)]
        modal = opened_by.modal
        unknown = set(values)

        def answer(comp: JSON) -> JSON | None:
            cid = comp.get("custom_id")
            if cid is None:
                return None
            unknown.discard(cid)
            value = values.get(cid, comp.get("value", ""))
            if comp.get("type") == 4:
                if comp.get("required", True) and not value:
                    raise StandInError(f"modal field {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": str(value)}
            vals = value if isinstance(value, list) else [value]
            return {"type": comp["type"], "custom_id": cid, "values": vals}

        rows: list[JSON] = []
        for comp in modal.get("components", []):
            if comp.get("type") == 1:
                inner = [a for c in comp.get("components", []) if (a := answer(c))]
                rows.append({"type": 1, "components": inner})
            elif comp.get("type") == 18 and isinstance(comp.get("component"), dict):
                inner_answer = answer(comp["component"])
                if inner_answer:
                    rows.append({"type": 18, "component": inner_answer})
        if unknown:
            raise StandInError(f"modal has no fields {sorted(unknown)}")
        data = {"custom_id": modal["custom_id"], "components": rows}
        source = (
            self._messages[opened_by.source_message_id]
            if opened_by.source_message_id is not None
            else None
        )
        ch = self.channels[opened_by.channel_id]
        rec = await self._fire(5, u, ch, data, message=source)
        return await self._finish(rec, wait, timeout)

    # ------------------------------------------------------------------ running a bot

    @contextlib.asynccontextmanager
    async def run_bot(
        self,
        bot: discord.Client,
        *,
        token: str = "standin-token",
        timeout: float = 10.0,
        fast_ready: bool = True,
    ) -> AsyncIterator[discord.Client]:
        """Start bot against the stand-in, wait until it is ready, close it on exit.

        fast_ready lowers discord.py's guild_ready_timeout (default 2 s) to 0.05 s.
        """
        state = getattr(bot, "_connection", None)
        if fast_ready and state is not None and getattr(state, "guild_ready_timeout", 0) > 0.05:
            state.guild_ready_timeout = 0.05
        before = self.identify_count
        task = asyncio.create_task(bot.start(token), name="standin-bot")
        try:
            await self.wait_ready(timeout, after=before, task=task)
            await asyncio.wait_for(bot.wait_until_ready(), timeout)
            yield bot
        finally:
            _stop_views(bot)
            await bot.close()
            try:
                await asyncio.wait_for(task, 5.0)
            except TimeoutError:
                task.cancel()
                raise

    # ------------------------------------------------------------------ bot processes

    async def start_bot_process(self, *, timeout: float = 20.0, **options: Any) -> BotProcess:
        """Spawn a bot process pointed here (options: see BotProcess) and wait until it has
        identified and processed its guilds. Fails at once, with the child's output, if it
        exits first."""
        proc = BotProcess(self.url, **options)
        before = self.identify_count
        await proc.start()
        watch = asyncio.create_task(proc.wait(None), name="standin-bot-process-watch")
        try:
            await self.wait_ready(timeout, after=before, task=watch)
        except StandInError as exc:
            if not proc.running:
                raise StandInError(
                    f"bot process exited ({proc.returncode}) before it was ready; output:\n"
                    + proc.output()[-4000:]
                ) from exc
            await proc.stop(grace=1.0)
            raise StandInError(f"{exc}\nbot process output:\n{proc.output()[-4000:]}") from exc
        finally:
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await watch
        return proc

    @contextlib.asynccontextmanager
    async def running_bot_process(
        self, *, timeout: float = 20.0, grace: float = 5.0, **options: Any
    ) -> AsyncIterator[BotProcess]:
        """start_bot_process(); on exit SIGTERM it (SIGKILL after `grace`) if still running."""
        proc = await self.start_bot_process(timeout=timeout, **options)
        try:
            yield proc
        finally:
            await proc.stop(grace)

    async def wait_disconnected(self, timeout: float = 5.0) -> None:
        """Wait until no bot is identified on the gateway (e.g. after killing its process)."""

        def gone() -> bool:
            return not any(c.identified for c in self._connections)

        if not await self._wait_until(gone, timeout):
            raise StandInTimeout("a bot is still connected to the stand-in gateway")


def _stop_views(bot: discord.Client) -> None:
    """Stop the bot's live views and modals: discord.py leaves their timeout tasks running
    after close(), which would leak into the next test."""
    store = getattr(getattr(bot, "_connection", None), "_view_store", None)
    if store is None:
        return
    views: list[Any] = []
    for items in list(getattr(store, "_views", {}).values()):
        views += [item.view for item in list(items.values()) if item.view is not None]
    views += list(getattr(store, "_synced_message_views", {}).values())
    views += list(getattr(store, "_modals", {}).values())
    for view in {id(v): v for v in views}.values():
        with contextlib.suppress(Exception):
            view.stop()


def _texts(path: str, node: JSON, key: str) -> list[tuple[str, str]]:
    """A node's `key` (name, description) and each of its localizations, with their paths.
    Localizations for locales Discord does not know are left to `_unknown_locales`."""
    found = [(f"{path}.{key}", str(node.get(key) or ""))]
    for locale, text in (node.get(f"{key}_localizations") or {}).items():
        if locale in LOCALES:
            found.append((f"{path}.{key}_localizations.{locale}", str(text or "")))
    return found


def _unknown_locales(path: str, node: JSON) -> list[limits.Problem]:
    return [(f"{path}.{key}.{locale}", f"Invalid locale {locale!r}.")
            for key in ("name_localizations", "description_localizations")
            for locale in node.get(key) or {} if locale not in LOCALES]


def _names(path: str, node: JSON) -> list[tuple[str, str]]:
    return _texts(path, node, "name")


def shown_name(node: JSON, locale: str) -> str:
    """The name a member whose client speaks `locale` sees (Discord sends the canonical one)."""
    return str((node.get("name_localizations") or {}).get(locale) or node["name"])
