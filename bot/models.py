"""The bot's own records: tables and seats, the messages it owes, the timers it armed."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from bot.i18n import N_
from bot.messages import Outgoing

TableStatus = Literal["lobby", "playing", "over"]


def player_id(user_id: int) -> str:
    """The engine's opaque id for a Discord member (also the action log's actor)."""
    return f"u{user_id}"


class SeatRef(BaseModel):
    """A seat as the bot knows it: a Discord member or an AI detective. A member's seat handed
    to an AI keeps `user_id` (their record and stats) and gains `ai_level`."""

    name: str
    user_id: int | None = None
    ai_level: str | None = None

    @property
    def player_id(self) -> str:
        return player_id(self.user_id) if self.user_id is not None else f"ai:{self.name}"

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None

    @property
    def human(self) -> int | None:
        """The member playing this seat in person, if any."""
        return None if self.is_ai else self.user_id


class Table(BaseModel):
    id: int = 0
    guild_id: int
    channel_id: int
    game: str
    status: TableStatus = "lobby"
    host_id: int
    options: dict[str, Any]
    seats: list[SeatRef] = []
    """Lobby order until the game starts; then the engine's seat order."""
    state: str | None = None
    """The engine's state as JSON (None in the lobby)."""
    version: int = 0
    message_id: int | None = None
    """The living table message (the newest one carrying the table's status and buttons)."""
    paused: str | None = None
    """Why the table is paused (the bot cannot post in its channel), or None."""
    place: str = ""
    """Where it plays, as members read it in a DM ("Server › #channel")."""
    feed: list[str] = []
    """The news the living message shows: what happened since it was posted (quiet changes
    edit it in place, adding to the feed)."""
    deadline: float | None = None
    """When the turn timer answers for the member the game waits on (unix time)."""
    updated_at: float = 0.0

    def seat_of(self, user_id: int) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.user_id == user_id), None)

    def humans(self) -> list[int]:
        """Members playing in person, in seat order."""
        return [s.human for s in self.seats if s.human is not None]


# --- the outbox ---------------------------------------------------------------------------

LIVING: Literal["living"] = "living"
ON_ITS_WAY = N_("The table's news is on its way.")
"""What a reply says when the news it follows is not delivered yet."""


class Letter(BaseModel):
    """One message owed to one recipient, written with the change that caused it.

    `to` orders delivery: letters to one destination go out in order, destinations in
    parallel. `c:<channel>` posts or edits in a channel, `u:<user>` is a DM, `i:<interaction>`
    answers an interaction by editing its original response (idempotent, so a resend after a
    crash cannot duplicate it).
    """

    to: str
    op: Literal["send", "edit", "reply", "unsay"]
    body: Outgoing
    target: int | Literal["living"] | None = None
    """The message an edit changes; `living` is the table's living message when sent."""
    living: bool = False
    """A post that becomes the table's living message."""
    token: str | None = None
    """The interaction token of a reply."""
    once: str | None = None
    """A key said at most once per table (a notice); a second letter with it is dropped."""
    slot: str | None = None
    """A message kept up to date in place (a member's casebook DM): the first letter of a
    slot is posted, the next ones edit it."""
    follows: int = 0
    """A reply follows this many letters stored just before it with the same change: it
    waits briefly for them, and says the news is on its way if they are still pending."""
    pending: str = ""
    """A reply's words for that, in its member's language (empty: English)."""
    later: bool = False
    """A DM to a member who neither acted nor is to act now (another member's casebook or
    news, a watcher's): when the budget is short it goes after the table message (issue 21:
    the acting member's own DMs first, others' last)."""
    own: bool = False
    """A DM to the member whose click or command made the change: when the budget is short it
    goes first (`bot.pacing.OWN`)."""

    @classmethod
    def post(cls, channel_id: int, body: Outgoing, *, living: bool = False) -> Letter:
        return cls(to=f"c:{channel_id}", op="send", body=body, living=living)

    @classmethod
    def edit(cls, channel_id: int, target: int | Literal["living"], body: Outgoing) -> Letter:
        return cls(to=f"c:{channel_id}", op="edit", body=body, target=target)

    @classmethod
    def dm(cls, user_id: int, body: Outgoing, *, once: str | None = None,
           slot: str | None = None, later: bool = False, own: bool = False) -> Letter:
        return cls(to=f"u:{user_id}", op="send", body=body, once=once, slot=slot, later=later,
                   own=own)

    @classmethod
    def reply(
        cls, interaction_id: int, token: str, body: Outgoing, *, follows: int = 0,
        pending: str = ""
    ) -> Letter:
        return cls(
            to=f"i:{interaction_id}", op="reply", body=body, token=token, follows=follows,
            pending=pending,
        )

    @classmethod
    def unsay(cls, interaction_id: int, token: str, *, follows: int = 0) -> Letter:
        """Delete the interaction's original response (a picker done with: no leftovers)."""
        return cls(to=f"i:{interaction_id}", op="unsay", body=Outgoing(), token=token,
                   follows=follows)

    def with_note(self, note: str) -> Letter:
        text = f"{self.body.text}\n-# {note}".strip()
        return self.model_copy(update={"body": self.body.model_copy(update={"content": text})})

    @property
    def kind(self) -> str:
        return self.to.split(":", 1)[0]

    @property
    def address(self) -> int:
        return int(self.to.split(":", 1)[1])

    @property
    def channel_post(self) -> bool:
        """A new message in a server channel: one an interaction's followup may post, and
        one that carries no nonce when it does."""
        return self.op == "send" and self.kind == "c"


class Posting(BaseModel):
    """A stored letter on its way: its row id (the nonce comes from it) and its tries."""

    id: int
    table_id: int | None
    letter: Letter
    tries: int = 0


# --- timers ------------------------------------------------------------------------------

TimerKind = Literal["ai", "remind", "idle"]


class TimerSpec(BaseModel):
    """A timer to arm: `seat` is the seat it acts for, `key` the waiting situation it belongs
    to (it is stale once the game's turn key moved on)."""

    kind: TimerKind
    seat: int
    key: str
    due: float
    extra: dict[str, Any] = Field(default_factory=dict)


class Timer(TimerSpec):
    id: int
    table_id: int
    attempts: int = 0

    @property
    def identity(self) -> tuple[str, int, str]:
        return (self.kind, self.seat, self.key)
