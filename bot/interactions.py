"""How every command and component answers: defer first, act through the table service,
tell the member what happened. Shared by the generic table cog and every game's components.

After a change is stored its answer is one of the letters stored with it (the outbox edits
the interaction's original response), so a member is never told "nothing changed" about a
change that was kept, not even when the process dies right after the commit.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol, TypeVar

import discord

from bot.collector import unlink_interaction, unlink_view
from bot.drawings import Drawings, with_images
from bot.errors import UserError
from bot.i18n import N_, SOURCE, tr
from bot.message_tokens import MessageTokens
from bot.messages import Outgoing
from bot.tables import Place, Reply, TableService
from bot.transport import Transport
from engine.errors import RuleError

log = logging.getLogger(__name__)

UNCHANGED = N_("Something went wrong on my side; nothing was changed. Please try again.")

Answer = str | Outgoing | None
"""What a piece of work answers: text or a message to show, or None when its answer was
stored with its change (the outbox delivers it)."""


class Shell(Protocol):
    """What handlers use of the bot an interaction reached (bot.client's DeductionBot): named
    here so that this layer does not import the client above it."""

    tables: TableService
    transport: Transport


def bot_of(interaction: discord.Interaction) -> Shell:
    # discord.py types it as Client; every interaction here reaches the one DeductionBot
    return interaction.client  # type: ignore[return-value]


async def language_of(interaction: discord.Interaction) -> str:
    """The language the member reads their answer in (`bot.languages`)."""
    languages = getattr(interaction.client, "languages", None)
    return SOURCE if languages is None else str(await languages.of_member(interaction))


async def refusal(interaction: discord.Interaction, error: UserError | RuleError) -> str:
    """A refusal's text in the member's language (a rule error that reached here unworded
    by its game: through the catalogs alone)."""
    lang = await language_of(interaction)
    if isinstance(error, UserError):
        return error.text(lang)
    return tr(lang, error.message, **error.params)


async def unchanged(interaction: discord.Interaction) -> str:
    return tr(await language_of(interaction), UNCHANGED)


def tables_of(interaction: discord.Interaction) -> TableService:
    return bot_of(interaction).tables


def place_of(interaction: discord.Interaction) -> Place:
    return Place(interaction.guild_id, interaction.channel_id if interaction.guild_id else None)


def reply_for(interaction: discord.Interaction, body: str | Outgoing) -> Reply:
    """The answer to store with the change this interaction makes."""
    out = Outgoing(content=body) if isinstance(body, str) else body
    languages = getattr(interaction.client, "languages", None)
    lang = SOURCE if languages is None else str(languages.known(interaction))
    return Reply(interaction.id, interaction.token, out, lang=lang)


def as_outgoing(answer: str | Outgoing) -> Outgoing:
    return Outgoing(content=answer) if isinstance(answer, str) else answer


async def answer(interaction: discord.Interaction, body: str | Outgoing) -> None:
    """Answer ephemerally, whether or not the interaction was deferred; with the answer's
    pictures when the bot draws them and the interaction was deferred (drawing takes tens of
    milliseconds, in a worker thread)."""
    out = as_outgoing(body)
    kwargs = out.reply_kwargs()
    kwargs.pop("attachments", None)  # a new message has nothing to take away
    await borrow_first(interaction)
    drawings: Drawings | None = getattr(interaction.client, "drawings", None)
    if out.pictures and drawings is not None and interaction.response.is_done():
        drawn = await drawings.files(out.pictures)
        embeds = with_images(out.embeds, [r for r, _ in drawn])
        kwargs["embeds"] = [discord.Embed.from_dict(e) for e in embeds]
        kwargs["files"] = [f for _, f in drawn]
    try:
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(ephemeral=True, **kwargs)
    except discord.NotFound:
        log.info("interaction expired before the answer: %s", as_outgoing(body).text[:100])
        return
    tokens = _tokens(interaction)
    if tokens is not None:
        tokens.resolved(interaction.token)  # answered: its token may post


async def borrow_first(interaction: discord.Interaction) -> None:
    """A click on a channel message not yet acknowledged is, as `answer` acknowledges it: a
    deferred update of that message, its token kept (its ephemeral answer follows)."""
    if not interaction.response.is_done() and _on_channel_message(interaction):
        await _borrow(interaction)


def _on_channel_message(interaction: discord.Interaction) -> bool:
    """A click on a component of a public message in a server channel (the table message)."""
    message = interaction.message
    return (interaction.type is discord.InteractionType.component and message is not None
            and interaction.guild_id is not None and not message.flags.ephemeral)


async def _borrow(interaction: discord.Interaction) -> None:
    """Acknowledge a click on a channel message as a deferred update of that message (its
    ephemeral answer follows), and keep the click's token."""
    if await defer(interaction):
        _keep_token(interaction)


def _keep_token(interaction: discord.Interaction) -> None:
    """After a deferred update, the click's token edits the message its component sits on
    (its original response) for 15 minutes, outside the global rate limit
    (`bot.message_tokens`): the table message, or a member's kept DM; in a server channel
    it may post there as well (its followups)."""
    tokens = _tokens(interaction)
    message = interaction.message
    if tokens is not None and message is not None and not message.flags.ephemeral:
        tokens.remember(message.id, interaction.token)
    _offer(interaction)  # it posts once the member has their answer


def _offer(interaction: discord.Interaction) -> None:
    """An interaction in a server channel, acknowledged: its token may post the channel's
    next table message as a followup, once its answer is given (a "thinking" defer's first
    followup would resolve it, and a click's answer comes before any post)."""
    tokens = _tokens(interaction)
    if tokens is not None and interaction.guild_id is not None \
            and interaction.channel_id is not None:
        tokens.offer(interaction.channel_id, interaction.token, loading=True)


def _tokens(interaction: discord.Interaction) -> MessageTokens | None:
    transport = getattr(interaction.client, "transport", None)
    tokens: MessageTokens | None = getattr(transport, "tokens", None)
    return tokens


def expired(error: BaseException) -> bool:
    """Discord's "Unknown interaction" (10062): the 3 s to acknowledge are over, so nothing
    can answer it any more. An expected outcome (a busy or starved process), logged in one
    line: formatting a traceback for each (Python 3.11 parses the source file for its
    carets) made a bot already behind under load fall further behind (`bench.load`)."""
    return isinstance(error, discord.NotFound) and error.code == 10062


async def defer(interaction: discord.Interaction, **kwargs: Any) -> bool:
    """Acknowledge; False if the interaction expired before (nothing was done: the member
    saw "This interaction failed" and may try again)."""
    try:
        await interaction.response.defer(**kwargs)
    except discord.NotFound as exc:
        if not expired(exc):
            raise
        log.warning("interaction %s expired before it was acknowledged; nothing done",
                    _describe(interaction))
        return False
    return True


async def acknowledge(interaction: discord.Interaction) -> bool:
    """Defer (ephemeral, "thinking…") unless it is answered already; False if it expired. A
    command whose stored answer is worded before its work acknowledges first: the member's
    language is a database read (a member seen for the first time, or after another process
    wrote it), and at a cold start of 200 tables on PostgreSQL the joins' acknowledgements
    waited behind those reads (median 0.5 s, p99 4 s: `bench.cluster`)."""
    if interaction.response.is_done():
        return True
    if not await defer(interaction, ephemeral=True, thinking=True):
        return False
    _offer(interaction)
    return True


Clicked = TypeVar("Clicked", bound=discord.ui.Item[Any])


def unlinking(
    callback: Callable[[Clicked, discord.Interaction], Coroutine[Any, Any, None]],
) -> Callable[[Clicked, discord.Interaction], Coroutine[Any, Any, None]]:
    """A component's callback that, once it returns, unlinks the view discord.py built from
    the clicked message and the interaction itself (`bot.collector`): what a click brought is
    freed at once instead of piling up for the next full collection."""

    @functools.wraps(callback)
    async def handled(item: Clicked, interaction: discord.Interaction) -> None:
        try:
            await callback(item, interaction)
        finally:
            if item.view is not None:
                unlink_view(item.view)
            unlink_interaction(interaction)

    return handled


async def run(
    interaction: discord.Interaction,
    work: Callable[[], Awaitable[Answer]],
    *,
    stored: Reply | None = None,
) -> None:
    """Defer (ephemeral), do the work, answer. A refusal is answered and changes nothing; an
    unexpected error is logged and answered, unless the change was stored (then its stored
    answer says what happened)."""
    if not await acknowledge(interaction):
        return
    try:
        result = await work()
    except (UserError, RuleError) as exc:
        await answer(interaction, await refusal(interaction, exc))
        return
    except Exception:
        log.exception("interaction %s failed", _describe(interaction))
        if stored is None or not stored.stored:
            await answer(interaction, await unchanged(interaction))
        return
    if result is not None:
        await answer(interaction, result)


async def run_update(
    interaction: discord.Interaction,
    work: Callable[[Reply], Awaitable[Any]],
    done: str,
    *,
    keep: bool = False,
    vanish: bool = False,
) -> None:
    """A component whose message becomes the result of its action (a picker's last step, a
    DM prompt), or with `vanish` goes away (the news in the channel is the answer: no
    leftovers). A refusal is answered apart and, unless `keep`, takes the controls away:
    after a double click the picker must not show the second click's refusal as its
    result."""
    if not await defer(interaction):
        return
    _keep_token(interaction)
    reply = reply_for(interaction, Outgoing(content=done, components=[], drop_pictures=True))
    reply.vanish = vanish
    try:
        await work(reply)
    except (UserError, RuleError) as exc:
        if not keep and not vanish:
            with contextlib.suppress(discord.NotFound):
                await interaction.edit_original_response(view=None)
        await interaction.followup.send(f"⚠️ {await refusal(interaction, exc)}", ephemeral=True)
    except Exception:
        log.exception("interaction %s failed", _describe(interaction))
        if not reply.stored:
            await interaction.followup.send(await unchanged(interaction), ephemeral=True)


async def refuse(interaction: discord.Interaction, error: Exception) -> None:
    """Answer a refusal from anywhere (a component's parser, a check)."""
    if expired(error):
        log.warning("interaction %s expired before it was answered", _describe(interaction))
    elif isinstance(error, UserError | RuleError):
        await answer(interaction, await refusal(interaction, error))
    else:
        log.exception("interaction %s failed", _describe(interaction), exc_info=error)
        await answer(interaction, await unchanged(interaction))


def _describe(interaction: discord.Interaction) -> str:
    data: dict[str, Any] = dict(interaction.data or {})
    return str(data.get("custom_id") or data.get("name") or interaction.id)
