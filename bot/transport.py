"""How one letter reaches Discord, and what Discord's answer means for it.

Letters are sent as the JSON they were rendered to, through discord.py's HTTP client (which
already waits out 429s and retries some 5xx). A post carries a nonce derived from its outbox
row with `enforce_nonce`, so a resend after a crash or a lost response is deduplicated by
Discord; edits, and replies (edits of an interaction's original response), are idempotent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast

import aiohttp
import discord
from discord.http import Route

from bot.drawings import Drawn, as_file, with_images
from bot.message_tokens import Borrowed, MessageTokens
from bot.messages import Outgoing, Picture
from bot.models import LIVING, Letter
from bot.pacing import PROMPT, Pacer, paced, rank_of
from bot.turns import Turns
from bot.urgency import task

log = logging.getLogger(__name__)

# Discord's JSON error codes the bot expects (anything else is a bug or an outage).
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
CANNOT_DM = 50007
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM = 50035
THREAD_ARCHIVED = 50083
CANNOT_DM_RELATIONSHIP = 50278

RECENT = 20
"""The channel's latest messages looked through for a post that may have gone out already."""

OPENING = 2
"""DM channels opened at once. discord.py sends every opening on one rate-limit bucket
(`POST /users/@me/channels` has no channel in its route), one at a time without Discord's
headers for it; budget handed to more than that waits there. At 400 tables (`bench.load`)
the openings given the budget waited there a median 18 s, then went out together, past the
global limit (186 of 237 global 429s), and each 429 halves the pacer's rate for 2 s. So an
opening takes its turn by the rank of the letter that needs it, then the budget in its turn
at that rank; a more urgent opening that waits for a turn hurries the holders' budget to its
rank (`_hurry_opening`), so that a watcher's opening holding a turn does not keep the acting
member's waiting. Given the budget before anything else in its turn, the ramp's 934 openings
(most of them opened ahead, at a member's join) took two thirds of the budget at 400 tables,
and the acting members' own DMs waited 10 s behind them; given the budget before its turn,
openings left together when the cores were busy (132 global 429s)."""

OPENING_STEP = 60.0
"""Seconds of head start an opening gets over one a rank less urgent (`Turns`): in effect
strictly by rank. With the drawings' 3 s, the acting member's opening waited behind every
prompt's and watcher's opening begun 6–9 s before it (the members' joins ahead of a deal at
400 tables: own DMs p90 17.6 s for their channel); one that can wait only delays a DM that
can wait."""

ORIGINAL = cast(int, "@original")
"""An interaction's own response as a webhook message id: discord.py types the id as int, and
its message route takes this name as well."""

Verdict = Literal[
    "sent",  # delivered (message_id is the message, if one was created or edited)
    "retry",  # a passing fault: try again after `after` seconds
    "closed_dms",  # the member does not take DMs from the bot
    "deleted",  # the channel is gone (deleted, or the bot left the server)
    "forbidden",  # the bot may no longer post there (permissions, archived thread)
    "expired",  # the interaction can no longer be answered
    "missing",  # the message to edit is gone
    "invalid",  # Discord refused the message itself: a bug in the rendering
]


@dataclass(frozen=True)
class Outcome:
    verdict: Verdict
    message_id: int | None = None
    after: float = 0.0
    detail: str = ""


class PictureSource(Protocol):
    """Draws a letter's pictures (`bot.drawings.Drawings`)."""

    async def pictures(self, refs: Sequence[Picture], priority: int) -> Drawn: ...


class KnownChannels(Protocol):
    """Where the members' DM channels are kept (`Storage`): opening one costs a request
    under the global limit, and a member's DM channel never changes."""

    async def dm_channel(self, user_id: int) -> int | None: ...

    async def remember_dm_channel(self, user_id: int, channel_id: int) -> None: ...


class Transport:
    def __init__(self, client: discord.Client, draw: PictureSource | None = None,
                 pacer: Pacer | None = None, known: KnownChannels | None = None) -> None:
        self.client = client
        self.draw = draw
        """Draws the pictures letters carry; None sends letters without them."""
        self.pacer = pacer
        """The process's share of the global rate limit, for the requests a letter costs
        beyond the one the sender paced it for (a DM channel opened, a post again after a
        deleted living message or without its pictures); None: unpaced."""
        self.tokens = MessageTokens()
        """Interactions' tokens that post in their channel, and edit the table message or a
        kept DM, outside the global limit."""
        self.known = known
        """The DM channels opened before, by this process or another; None: this process
        opens each member's once."""
        self._dm_channels: dict[int, int] = {}
        self._opening: dict[int, asyncio.Task[None]] = {}
        self._openings = Turns(OPENING, step=OPENING_STEP)
        """DM channels being opened, most urgent first (`_dm_channel`)."""
        self._in_turn: dict[int, int] = {}
        """The openings holding a turn, by member: the rank they wait for the budget at (the
        most urgent of theirs and the openings waiting for a turn, which wait for them)."""

    def open_dm_soon(self, user_id: int) -> None:
        """Open a member's DM channel now, in the background, because a seated member will
        be DMed when the game starts: discord.py opens DM channels one at a time (one
        rate-limit bucket for every member), which at the start of a 6-seat game held the
        last hand back by five round trips (`bench.side`). Nothing is sent; a failure only
        leaves the opening to the first DM."""
        if user_id in self._dm_channels or user_id in self._opening:
            return
        opening = task(self._open(user_id), name=f"open-dm:{user_id}")
        self._opening[user_id] = opening
        opening.add_done_callback(lambda _: self._opening.pop(user_id, None))

    async def _open(self, user_id: int) -> None:
        try:
            await self._dm_channel(user_id, PROMPT)
        except Exception as exc:  # Discord, the network, or the database (closing, say)
            log.info("could not open the DM channel of %s ahead: %r", user_id, exc)

    async def prepare(self, letter: Letter, rank: int | None = None) -> Drawn:
        """The letter's pictures, drawn before its turn to be sent, and a DM's channel,
        opened (the sender does this outside its sending slots: a letter waiting for its
        drawing, or for its member's DM channel to open under a short budget, must not hold
        up the letters that need neither; at 400 tables the DMs of new members waiting for
        their channels held every slot, and the table posts, outside the global limit,
        waited for them). `rank`: the letter's priority, when more urgent letters to its
        destination wait for it (None: its own)."""
        rank = rank_of(letter) if rank is None else rank
        if letter.kind == "u":
            try:
                await self._dm_channel(letter.address, rank)
            except (discord.HTTPException, TimeoutError, aiohttp.ClientError, OSError) as exc:
                log.info("could not open the DM channel of %s yet: %r", letter.address, exc)
                # sending it tries again, and says what Discord's refusal means
        if not letter.body.pictures or self.draw is None:
            return []
        return await self.draw.pictures(letter.body.pictures, rank)

    def exempt(self, letter: Letter, living: int | None, *, again: bool = False) -> bool:
        """Whether the letter goes out through an interaction's webhook, outside the global
        limit: an answer, a channel post through a token of that channel, or an edit of a
        message a token may edit. `again`: a channel post tried before, by the bot's route."""
        return not paced(letter) or (not again and self._borrowed(letter, living) is not None)

    async def borrowable(self, letter: Letter, living: int | None, *,
                         holding: bool = False) -> None:
        """Return once an interaction's token may send this letter outside the global limit
        (see `_borrowed`); never, for a letter no token sends. `holding`: it waits for the
        token on its way (`coming`) rather than take the budget."""
        way = _borrowing(letter)
        if way == "channel" and holding:
            await self.tokens.holding(letter.address)
        elif way == "channel":
            await self.tokens.usable(channel=letter.address)
        elif way == "message" and living is not None:
            await self.tokens.usable(message=living)
        else:
            await asyncio.get_running_loop().create_future()

    def coming(self, letter: Letter) -> bool:
        """Whether a token that would post this letter outside the global limit is on its
        way: a slash command's answer not given yet, in the letter's channel."""
        return _borrowing(letter) == "channel" and self.tokens.coming(letter.address)

    async def awaited(self, letter: Letter) -> None:
        """Return once a letter waits for the token this answer resolves (`coming`)."""
        if letter.op == "reply" and letter.token is not None:
            await self.tokens.awaited(letter.token)
        else:
            await asyncio.get_running_loop().create_future()

    def _borrowed(self, letter: Letter, living: int | None) -> Borrowed | None:
        """An interaction's token for this letter: for a channel post, the channel's newest
        usable one; for an edit, one that may edit its message: the table message (a click
        on it, or posted as a followup), or a kept DM (a slot) whose own component the
        member clicked (the 13 Clues pass prompt, which becomes their case file and
        casebook)."""
        way = _borrowing(letter)
        if way == "channel":
            return self.tokens.for_channel(letter.address)
        if way == "message":
            return self.tokens.token_for(living)
        return None

    async def deliver(
        self, letter: Letter, nonce: str, living: int | None, drawn: Drawn, *,
        again: bool = False,
    ) -> Outcome:
        """Send or edit, with the pictures `prepare` drew; `living` is the message the
        letter's `target` (the table's living message) or `slot` names at this moment.
        `again`: a channel post tried before (a followup carries no nonce: it may be posted
        already, see `_posted_before`)."""
        try:
            if again and letter.channel_post:
                found = await self._posted_before(letter)
                if found is not None:
                    return found
                await self._pace(rank_of(letter))  # the look cost the request paced for it
                return await self._deliver(letter, nonce, living, drawn)
            borrowed = self._borrowed(letter, living)
            if borrowed is not None:
                through = await self._through(borrowed, living, letter, drawn)
                if through is not None:
                    return through
                await self._pace(rank_of(letter))  # the bot's own token sends it after all
            outcome = await self._deliver(letter, nonce, living, drawn)
            if letter.op in ("reply", "unsay"):
                self.tokens.resolved(letter.token)  # its followups may post now
            return outcome
        except discord.HTTPException as exc:
            return _judge(letter, exc)
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            return Outcome("retry", detail=f"network: {exc!r}")

    async def _through(self, borrowed: Borrowed, living: int | None, letter: Letter,
                       drawn: Drawn) -> Outcome | None:
        """Post or edit through an interaction's webhook; None when Discord no longer takes
        the token for it (expired, or the message is gone: the bot's own route then sends
        it, or posts it again)."""
        try:
            if letter.channel_post:
                return await self._post_through(borrowed, letter, drawn)
            assert living is not None
            edit = letter.model_copy(update={"op": "reply", "token": borrowed.token,
                                             "target": borrowed.message})
            return await self._deliver(edit, "", None, drawn)
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:
                raise
            log.info("an interaction's token no longer sends to %s (message %s): %s %s",
                     letter.to, living, exc.status, exc.code)
            if letter.op == "send":
                self.tokens.refused(letter.address, borrowed.token)
            elif living is not None:
                self.tokens.forget(living, borrowed.token)
            return None

    async def _post_through(self, borrowed: Borrowed, letter: Letter, drawn: Drawn) -> Outcome:
        """A channel post as a public followup of an interaction in that channel: the same
        message, mentions and pings as the bot's own post, outside the global limit. The
        token edits it later (`MessageTokens.posted`)."""
        assert self.client.application_id is not None
        hook = discord.Webhook.partial(self.client.application_id, borrowed.token,
                                       client=self.client)
        kwargs = letter.body.reply_kwargs()
        kwargs.pop("attachments", None)  # a new message has nothing to take away
        if drawn:
            embeds = with_images(letter.body.embeds, [r for r, _ in drawn])
            pictured = {**kwargs, "embeds": [discord.Embed.from_dict(e) for e in embeds],
                        "files": [as_file(r, p) for r, p in drawn]}
            try:
                return self._posted(await hook.send(wait=True, **pictured), borrowed)
            except discord.Forbidden as exc:
                if exc.code != MISSING_PERMISSIONS:
                    raise
                # no Attach Files here: the text says it all without its pictures
        return self._posted(await hook.send(wait=True, **kwargs), borrowed)

    def _posted(self, message: discord.WebhookMessage, through: Borrowed) -> Outcome:
        self.tokens.posted(message.id, through)
        return Outcome("sent", message.id)

    async def _posted_before(self, letter: Letter) -> Outcome | None:
        """A channel post tried before may have gone out as a followup (no nonce, so Discord
        cannot tell a second one from it) before a crash or a lost answer: the channel's
        latest messages are looked through for it (one request, only for a post tried
        before), a followup of this bot with the same text."""
        if not letter.body.content:
            return None
        try:
            recent = await self.client.http.logs_from(letter.address, RECENT)
        except discord.Forbidden:  # no Read Message History here: post it by the bot's route
            return None
        app = str(self.client.application_id)
        for message in recent:
            if message.get("webhook_id") == app and message.get("content") == letter.body.content:
                return Outcome("sent", int(message["id"]))
        return None

    async def _deliver(
        self, letter: Letter, nonce: str, living: int | None, drawn: Drawn
    ) -> Outcome:
        message = letter.target if isinstance(letter.target, int) else ORIGINAL
        if letter.op in ("reply", "unsay") and not drawn:
            # discord.py's own way to edit an interaction's response (its webhook adapter):
            # through the bot's HTTP client every token would add a rate-limit bucket, and
            # past 256 buckets each new one makes it scan them all (seconds of CPU per
            # minute at a few hundred busy tables)
            assert letter.token is not None and self.client.application_id is not None
            hook = discord.Webhook.partial(self.client.application_id, letter.token,
                                           client=self.client)
            if letter.op == "unsay":
                with contextlib.suppress(discord.NotFound):  # deleting twice is deleting once
                    await hook.delete_message(ORIGINAL)
                return Outcome("sent")
            edited = await hook.edit_message(message, **letter.body.reply_kwargs())
            return Outcome("sent", edited.id)
        if letter.op == "reply":
            assert letter.token is not None
            route = Route(
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/" + str(message),
                webhook_id=self.client.application_id,
                webhook_token=letter.token,
            )
            data = await self._request(route, letter.body, drawn)
            return Outcome("sent", _id(data))
        rank = rank_of(letter)
        if letter.kind == "u":
            channel_id = await self._dm_channel(letter.address, rank)
        else:
            channel_id = letter.address
        if letter.slot is not None and living is not None:
            letter = letter.model_copy(update={"op": "edit", "target": LIVING})
        if letter.op == "edit":
            target = living if letter.target == LIVING else letter.target
            if target is None:
                return Outcome("sent")  # nothing to retire or edit yet
            route = Route(
                "PATCH",
                "/channels/{channel_id}/messages/{message_id}",
                channel_id=channel_id,
                message_id=target,
            )
            try:
                data = await self._request(route, letter.body, drawn, rank=rank)
            except discord.NotFound as exc:
                if exc.code == UNKNOWN_MESSAGE and letter.target == LIVING:
                    # The living message (or slot) was deleted by someone: post it again.
                    await self._pace(rank)
                    return await self._post(channel_id, letter.body, nonce, drawn, rank)
                raise
            return Outcome("sent", _id(data))
        return await self._post(channel_id, letter.body, nonce, drawn, rank)

    async def _post(self, channel_id: int, body: Outgoing, nonce: str, drawn: Drawn,
                    rank: int) -> Outcome:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        data = await self._request(route, body, drawn, {"nonce": nonce, "enforce_nonce": True},
                                   rank=rank)
        return Outcome("sent", _id(data))

    async def _pace(self, rank: int | None, key: str | None = None) -> None:
        if self.pacer is not None and rank is not None:
            await self.pacer.take(rank, key)

    def hurry(self, destination: str, rank: int) -> None:
        """A more urgent letter waits behind those in hand for `destination`: a member's DM
        channel's opening goes at its rank."""
        kind, _, address = destination.partition(":")
        if kind == "u":
            self._hurry_opening(int(address), rank)

    def _hurry_opening(self, user_id: int, rank: int) -> None:
        """A member's DM channel's opening, waiting for its turn or, in its turn, for the
        budget, goes at `rank` now if that is more urgent."""
        self._openings.hurry(user_id, rank)
        if rank < self._in_turn.get(user_id, rank) and self.pacer is not None:
            self._in_turn[user_id] = rank
            self.pacer.hurry(f"u:{user_id}", rank)

    async def _dm_channel(self, user_id: int, rank: int) -> int:
        """The member's DM channel, opened once and kept (in the database, when `known`): it
        costs a request. A letter that needs it while `open_dm_soon` is opening it waits for
        that opening rather than making a second (`bench.load` at 400 tables opened 1,020
        channels for 934 members)."""
        opening = self._opening.get(user_id)
        if opening is not None and opening is not asyncio.current_task():
            self._hurry_opening(user_id, rank)  # it waits at this letter's rank now
            await asyncio.wait([opening])
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None and self.known is not None:
            channel_id = await self.known.dm_channel(user_id)
        if channel_id is None:
            for holder, held in list(self._in_turn.items()):
                if held > rank:  # it waits for a turn they hold: see `OPENING`
                    self._hurry_opening(holder, rank)
            try:
                async with self._openings.turn(rank, user_id) as given:
                    waiting = self._openings.waiting.most_urgent()
                    rank = self._in_turn[user_id] = min(
                        given, given if waiting is None else waiting)
                    await self._pace(rank, f"u:{user_id}")  # holding a turn: see `OPENING`
                    data = await self.client.http.start_private_message(user_id)
            finally:
                self._in_turn.pop(user_id, None)
            channel_id = int(data["id"])
            if self.known is not None:
                await self.known.remember_dm_channel(user_id, channel_id)
        self._dm_channels[user_id] = channel_id
        return channel_id

    async def _request(
        self, route: Route, body: Outgoing, drawn: Drawn, extra: dict[str, Any] | None = None,
        *, rank: int | None = None,
    ) -> Any:
        """`rank`: the priority of a request under the global limit, for a second try
        (paced); None: an interaction's webhook, outside it."""
        payload = {**body.payload(), **(extra or {})}
        if not drawn:
            return await self.client.http.request(route, json=payload)
        files = [as_file(r, p) for r, p in drawn]  # fresh files for each try
        payload["embeds"] = with_images(body.embeds, [r for r, _ in drawn])
        payload["attachments"] = [f.to_dict(i) for i, f in enumerate(files)]
        form: list[dict[str, Any]] = [{"name": "payload_json", "value": json.dumps(payload)}]
        form += [
            {
                "name": f"files[{i}]",
                "value": f.fp,
                "filename": f.filename,
                "content_type": "image/png",
            }
            for i, f in enumerate(files)
        ]
        try:
            return await self.client.http.request(route, form=form, files=files)
        except discord.Forbidden as exc:
            if exc.code != MISSING_PERMISSIONS:
                raise
            # no Attach Files here: the text says it all without its pictures
            await self._pace(rank)
            return await self.client.http.request(route, json=body.payload() | (extra or {}))
        finally:
            for f in files:
                f.close()


def _borrowing(letter: Letter) -> Literal["channel", "message"] | None:
    """How an interaction's token may send this letter: as a followup in its channel (a
    channel post), as an edit of its message (the table message, a kept DM), or not."""
    if letter.channel_post:
        return "channel"
    if (letter.op == "edit" and letter.target == LIVING and letter.kind == "c") or (
            letter.kind == "u" and letter.slot is not None):
        return "message"
    return None


def _id(data: Any) -> int | None:
    return int(data["id"]) if isinstance(data, dict) and "id" in data else None


def _judge(letter: Letter, exc: discord.HTTPException) -> Outcome:
    """Discord's refusal, as what it means for this letter."""
    detail = f"{exc.status} {exc.code}: {exc.text}"
    code, status = exc.code, exc.status
    if status == 429:
        retry_after = getattr(exc, "retry_after", None)
        return Outcome("retry", after=float(retry_after or 5.0), detail=detail)
    if status >= 500:
        return Outcome("retry", detail=detail)
    if letter.op == "reply":
        if code in (UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION, INVALID_WEBHOOK_TOKEN) or status in (
            401,
            404,
        ):
            return Outcome("expired", detail=detail)
    elif letter.kind == "u" and (
        code in (CANNOT_DM, CANNOT_DM_RELATIONSHIP, UNKNOWN_USER) or status == 403
    ):
        return Outcome("closed_dms", detail=detail)
    if code == UNKNOWN_CHANNEL:
        return Outcome("deleted", detail=detail)
    if code == UNKNOWN_MESSAGE:
        return Outcome("missing", detail=detail)
    if code in (MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED) or status == 403:
        return Outcome("forbidden", detail=detail)
    if status == 404:
        return Outcome("deleted", detail=detail)
    return Outcome("invalid", detail=detail)
