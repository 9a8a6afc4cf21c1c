"""Plain records of what the stand-in Discord knows and saw, for tests to assert on.

Kept free of aiohttp so tests can build expectations without touching the server.
"""

from __future__ import annotations

import asyncio
import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15


class StandInError(AssertionError):
    """Base for failures the stand-in raises into tests (AssertionError so pytest shows them)."""


class InteractionNotAnswered(StandInError):
    """The bot did not acknowledge (or, after deferring, did not finish) an interaction."""


class StandInTimeout(StandInError):
    """A wait helper (wait_for, settle, wait_ready) ran out of time."""


class NoBotConnected(StandInError):
    """An interaction was requested while no client is identified on the gateway."""


@dataclass
class User:
    """A Discord user the tests can act as; `dms_open` decides whether DMs reach them."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    """Their Discord client's language: what each interaction says, and which of a command's
    localizations they see."""
    guild_ids: set[int] = field(default_factory=set)
    manager_in: set[int] = field(default_factory=set)

    @property
    def mention(self) -> str:
        """Mention markup, as the bot would write it."""
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        """Discord user object."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class Channel:
    """A guild text channel, a thread (type 11/12, with a parent) or a DM channel.

    `bot_denied`: permission bits denied to the bot by an overwrite on this channel (threads
    have none: they inherit their parent's). `viewers`: a private channel's members (View
    Channel denied to @everyone and allowed to each of them and the bot); None: everyone's.
    `deleted` channels stay here so tests can still read what was posted in them; REST
    answers 10003 for them.
    """

    id: int
    name: str
    guild_id: int | None
    type: int = 0
    position: int = 0
    recipient_id: int | None = None
    bot_denied: int = 0
    viewers: frozenset[int] | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    deleted: bool = False
    archived: bool = False
    locked: bool = False
    archived_at: float | None = None
    created_at: float = 0.0

    @property
    def is_dm(self) -> bool:
        """True for a DM channel (type 1)."""
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        """True for a public (11) or private (12) thread."""
        return self.type in (11, 12)


@dataclass
class Guild:
    """A guild with its default text channel (`channel_id`) and its role ids."""

    id: int
    name: str
    owner_id: int
    channel_id: int
    bot_role_id: int
    manager_role_id: int
    channel_ids: list[int] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)
    thread_ids: list[int] = field(default_factory=list)
    role_denied: dict[int, int] = field(default_factory=dict)
    """Permission bits taken away from a role (role id → bits), e.g. by deny_send_guild."""
    locale: str = "en-US"
    """The server's language (`preferred_locale`, an interaction's `guild_locale`)."""

    @property
    def everyone_role_id(self) -> int:
        """@everyone shares the guild's id, as on Discord."""
        return self.id


@dataclass
class Message:
    """A message as the stand-in stores it; the latest state plus the edit history."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[JSON] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: float = 0.0
    edited_at: float | None = None
    deleted: bool = False
    dm_recipient_id: int | None = None
    visible_to: int | None = None  # set for ephemeral messages: the only user who sees it
    interaction_id: int | None = None
    webhook_id: int | None = None
    nonce: str | int | None = None
    history: list[JSON] = field(default_factory=list)
    allowed_mentions: JSON | None = None
    """The allowed_mentions the message was created with (None: Discord's default)."""

    @property
    def pings(self) -> list[int]:
        """Users notified by this message's creation, as Discord decides: a user mention in
        the content as first sent, unless allowed_mentions leaves it out. Edits and ephemeral
        messages notify nobody."""
        if self.ephemeral:
            return []
        first = self.history[0].get("content") if self.history else self.content
        mentioned = [int(m) for m in re.findall(r"<@!?(\d+)>", first or "")]
        allowed = self.allowed_mentions
        if allowed is None:
            return list(dict.fromkeys(mentioned))
        if "users" in (allowed.get("parse") or []):
            permitted = set(mentioned)
        else:
            permitted = {int(u) for u in allowed.get("users") or []}
        return [u for u in dict.fromkeys(mentioned) if u in permitted]

    @property
    def ephemeral(self) -> bool:
        """Only the interacting user sees it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred "Bot is thinking..." placeholder not yet filled in."""
        return bool(self.flags & LOADING)

    @property
    def is_dm(self) -> bool:
        """Sent in a DM channel."""
        return self.dm_recipient_id is not None

    def snapshot(self) -> JSON:
        """The editable state, used for the history list."""
        return copy.deepcopy(
            {
                "content": self.content,
                "embeds": self.embeds,
                "components": self.components,
                "flags": self.flags,
                "attachments": self.attachments,
            }
        )

    # -- components ------------------------------------------------------------------------

    def iter_components(self) -> Iterator[JSON]:
        """Every component, rows and containers included, depth first."""
        yield from _walk(self.components)

    @property
    def interactive(self) -> list[JSON]:
        """Buttons and selects (anything a user can click)."""
        return [c for c in self.iter_components() if c.get("type") in (2, 3, 5, 6, 7, 8)]

    @property
    def buttons(self) -> list[JSON]:
        """All buttons."""
        return [c for c in self.iter_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[JSON]:
        """All select menus."""
        return [c for c in self.iter_components() if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def custom_ids(self) -> list[str]:
        """custom_id of every interactive component, in order."""
        return [c["custom_id"] for c in self.interactive if "custom_id" in c]

    @property
    def labels(self) -> list[str]:
        """Labels of all buttons, in order."""
        return [c.get("label") or "" for c in self.buttons]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> JSON:
        """The component with this custom_id (exact) or button label (exact, else substring)."""
        if custom_id is not None:
            for comp in self.interactive:
                if comp.get("custom_id") == custom_id:
                    return comp
            raise KeyError(f"no component with custom_id {custom_id!r}; have {self.custom_ids}")
        if label is not None:
            exact = [c for c in self.interactive if c.get("label") == label]
            loose = [c for c in self.interactive if label.lower() in (c.get("label") or "").lower()]
            for found in (exact, loose):
                if found:
                    return found[0]
            raise KeyError(f"no button labelled {label!r}; have {self.labels}")
        raise TypeError("give custom_id or label")

    def has_component(self, custom_id: str | None = None, *, label: str | None = None) -> bool:
        """Whether component() would find something."""
        try:
            self.component(custom_id, label=label)
        except KeyError:
            return False
        return True

    def options(self, custom_id: str) -> list[JSON]:
        """Options of a string select."""
        return list(self.component(custom_id).get("options", []))

    # -- text ------------------------------------------------------------------------------

    @property
    def text(self) -> str:
        """Content, embed texts, text displays, button labels and select options, one string."""
        parts: list[str] = [self.content] if self.content else []
        for embed in self.embeds:
            parts.extend(_embed_texts(embed))
        for comp in self.iter_components():
            if comp.get("type") == 10:
                parts.append(str(comp.get("content", "")))
            elif comp.get("type") == 2 and comp.get("label"):
                parts.append(str(comp["label"]))
            elif comp.get("type") == 3:
                if comp.get("placeholder"):
                    parts.append(str(comp["placeholder"]))
                parts.extend(str(o.get("label", "")) for o in comp.get("options", []))
        return "\n".join(p for p in parts if p)

    def __contains__(self, needle: str) -> bool:
        """`"Alice" in message` searches text()."""
        return needle in self.text

    def __repr__(self) -> str:
        where = f"dm={self.dm_recipient_id}" if self.is_dm else f"channel={self.channel_id}"
        flags = " ephemeral" if self.ephemeral else ""
        short = self.text.replace("\n", " | ")[:80]
        return f"<Message {self.id} {where}{flags} ids={self.custom_ids} {short!r}>"


def _walk(components: list[JSON]) -> Iterator[JSON]:
    for comp in components:
        yield comp
        yield from _walk(comp.get("components", []) or [])
        if isinstance(comp.get("component"), dict):
            yield from _walk([comp["component"]])
        if isinstance(comp.get("accessory"), dict):
            yield from _walk([comp["accessory"]])


def _embed_texts(embed: JSON) -> list[str]:
    out: list[str] = []
    if embed.get("author", {}).get("name"):
        out.append(str(embed["author"]["name"]))
    for key in ("title", "description"):
        if embed.get(key):
            out.append(str(embed[key]))
    for fld in embed.get("fields", []):
        out.append(f"{fld.get('name', '')}\n{fld.get('value', '')}")
    if embed.get("footer", {}).get("text"):
        out.append(str(embed["footer"]["text"]))
    return out


@dataclass
class InteractionResult:
    """One interaction the tests fired, and everything the bot did to answer it.

    `message` is the reply a user would look at: the original response (filled in after a
    deferral), the message updated by type 7 / an @original edit after type 6 (unless a
    followup answered first), or else the first followup.
    """

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user_id: int
    channel_id: int
    guild_id: int | None
    data: JSON
    dispatched_at: float
    source_message_id: int | None = None
    shard: int | None = None
    """The shard whose connection it was sent on (None: a bot with one shard)."""
    callback_type: int | None = None
    callback_at: float | None = None
    callback_flags: int = 0
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    posts: list[Message] = field(default_factory=list)
    """Public followups made once the interaction was answered: posts of the channel (the
    bot's table posts through the token), not part of the answer."""
    original_edited: bool = False
    followup_first: bool = False
    """A followup answered a deferred update (type 6) before any @original edit: the reply
    is that followup (an ephemeral menu), and a later @original edit changes the message
    the component sits on (the table message), not the reply."""
    choices: list[JSON] | None = None
    modal: JSON | None = None
    errors: list[str] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def response_type(self) -> int | None:
        """The callback type the bot used (4, 5, 6, 7, 8 or 9), None if it never answered."""
        return self.callback_type

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the callback."""
        if self.callback_at is None:
            return None
        return self.callback_at - self.dispatched_at

    @property
    def deferred(self) -> bool:
        """The bot answered with type 5 or 6."""
        return self.callback_type in (5, 6)

    @property
    def completed(self) -> bool:
        """Answered and, after a deferral, followed up or edited."""
        return self.done.is_set()

    @property
    def message(self) -> Message | None:
        """The reply a user would look at (see class doc)."""
        original = self.original
        if (
            original is not None
            and not original.loading
            and (self.callback_type != 6 or (self.original_edited and not self.followup_first))
        ):
            return original
        if self.followups:
            return self.followups[0]
        return self.original

    @property
    def messages(self) -> list[Message]:
        """Original (if any) then followups."""
        return ([self.original] if self.original is not None else []) + list(self.followups)

    def _reply(self) -> Message:
        msg = self.message
        if msg is None:
            raise StandInError(
                f"interaction {self.id} has no reply message (callback type {self.callback_type})"
            )
        return msg

    @property
    def ephemeral(self) -> bool:
        """Whether the reply is visible only to the user."""
        msg = self.message
        if msg is None:
            return bool(self.callback_flags & EPHEMERAL)
        return msg.ephemeral

    @property
    def content(self) -> str:
        """Content of the reply."""
        return self._reply().content

    @property
    def embeds(self) -> list[JSON]:
        """Embeds of the reply."""
        return self._reply().embeds

    @property
    def components(self) -> list[JSON]:
        """Components of the reply."""
        return self._reply().components

    @property
    def text(self) -> str:
        """All text of the reply and of every followup."""
        return "\n".join(m.text for m in self.messages if not m.deleted)

    def __contains__(self, needle: str) -> bool:
        """`"not your turn" in result` searches every message of the answer."""
        return needle in self.text

    def __repr__(self) -> str:
        return (
            f"<InteractionResult {self.id} type={self.type} cb={self.callback_type} "
            f"latency={self.latency} text={self.text[:80]!r}>"
        )
