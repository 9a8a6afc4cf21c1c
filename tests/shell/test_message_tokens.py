"""The interactions' tokens that post and edit channel messages outside the global limit:
the newest one for a message or a channel, never past its lifetime, never while its own
"thinking" answer is still loading, and forgotten when Discord refuses it."""

from __future__ import annotations

import asyncio

from bot.message_tokens import LIFETIME, SWEEP_EVERY, MessageTokens


def token(tokens: MessageTokens, message_id: int | None) -> str | None:
    held = tokens.token_for(message_id)
    return None if held is None else held.token


def test_a_token_edits_its_message_until_it_expires() -> None:
    now = [100.0]
    tokens = MessageTokens(clock=lambda: now[0])
    assert tokens.token_for(7) is None and tokens.token_for(None) is None
    tokens.remember(7, "first")
    tokens.remember(7, "second")  # a later click on the same message: the newer token
    assert token(tokens, 7) == "second" and tokens.token_for(8) is None
    now[0] += LIFETIME - 1
    assert token(tokens, 7) == "second"
    now[0] += 1
    assert tokens.token_for(7) is None  # Discord's 15 minutes, less the spare minute


def test_a_refused_token_is_forgotten_but_not_a_newer_one() -> None:
    tokens = MessageTokens(clock=lambda: 0.0)
    tokens.remember(7, "old")
    tokens.forget(7, "old")
    assert tokens.token_for(7) is None
    tokens.remember(7, "new")
    tokens.forget(7, "old")  # a refusal of the old token must not drop the new one
    assert token(tokens, 7) == "new"


def test_a_channel_posts_through_its_newest_token_once_its_answer_is_given() -> None:
    now = [100.0]
    tokens = MessageTokens(clock=lambda: now[0])
    tokens.offer(5, "thinking", loading=True)  # a slash command's "thinking" defer
    assert tokens.for_channel(5) is None  # its first followup would resolve that answer
    tokens.resolved("thinking")
    held = tokens.for_channel(5)
    assert held is not None and held.token == "thinking" and tokens.for_channel(6) is None
    now[0] += 10
    tokens.offer(5, "click")  # a click (a deferred update): usable at once, and newer
    held = tokens.for_channel(5)
    assert held is not None and held.token == "click"
    tokens.offer(5, "slow", loading=True)
    now[0] += 1
    tokens.resolved("thinking")  # answered again: not newer than the click
    held = tokens.for_channel(5)
    assert held is not None and held.token == "click"
    # a message posted through it is edited through it, as that message, until it expires
    tokens.posted(42, held)
    edit = tokens.token_for(42)
    assert edit is not None and edit.token == "click" and edit.message == 42
    tokens.refused(5, "click")
    assert tokens.for_channel(5) is None
    now[0] += LIFETIME - 1
    assert tokens.token_for(42) is None  # the click's lifetime, not the post's
    tokens.resolved("slow")  # answered after its lifetime: never usable
    assert tokens.for_channel(5) is None


async def test_a_letter_waiting_for_the_budget_hears_of_a_token_that_sends_it() -> None:
    """`usable` returns at once when a token may post in the channel or edit the message, and
    otherwise as soon as one may: a click on the message, a followup posted through a
    token, a channel's interaction answered (a "thinking" one only once its answer is
    given)."""
    tokens = MessageTokens()
    tokens.offer(5, "click")
    await asyncio.wait_for(tokens.usable(channel=5), 0.1)  # one may already

    channel = asyncio.create_task(tokens.usable(channel=6))
    message = asyncio.create_task(tokens.usable(message=42))
    posted = asyncio.create_task(tokens.usable(message=43))
    other = asyncio.create_task(tokens.usable(message=44))
    await asyncio.sleep(0)
    tokens.offer(6, "thinking", loading=True)
    tokens.remember(41, "another message's click")
    await asyncio.sleep(0.01)
    assert not any(t.done() for t in (channel, message, posted, other))
    tokens.resolved("thinking")
    tokens.remember(42, "a click on it")
    held = tokens.for_channel(6)
    assert held is not None
    tokens.posted(43, held)
    await asyncio.wait_for(asyncio.gather(channel, message, posted), 0.1)
    assert not other.done()
    other.cancel()
    await asyncio.gather(other, return_exceptions=True)
    assert tokens._waiting == {}  # nothing left behind by a waiter that gave up


async def test_a_loading_answer_hears_of_a_letter_waiting_for_its_token() -> None:
    """A slash command's post waits for the command's token (`coming`) and the command's
    answer, which waits for the news, hears that it must not wait for it (`awaited`)."""
    now = [100.0]
    tokens = MessageTokens(clock=lambda: now[0])
    tokens.offer(5, "thinking", loading=True)
    assert tokens.coming(5) and not tokens.coming(6)
    heard = asyncio.create_task(tokens.awaited("thinking"))
    never = asyncio.create_task(tokens.awaited("not loading"))
    await asyncio.sleep(0)
    assert not heard.done()
    racing = asyncio.create_task(tokens.usable(channel=5))  # for the budget as well
    await asyncio.sleep(0)
    assert not heard.done()
    post = asyncio.create_task(tokens.holding(5))  # for the token alone
    await asyncio.wait_for(heard, 1.0)
    tokens.resolved("thinking")
    await asyncio.wait_for(asyncio.gather(post, racing), 1.0)
    assert not tokens.coming(5) and not never.done()
    never.cancel()
    now[0] += LIFETIME + 1
    tokens.offer(5, "late", loading=True)
    now[0] += LIFETIME + 1
    assert not tokens.coming(5)  # a token that can no longer come


def test_expired_tokens_are_swept_out_of_memory() -> None:
    """Every read checks a token's time; memory is swept of the expired ones now and then,
    not at every click (a walk over 14 minutes of tokens each time)."""
    now = [100.0]
    tokens = MessageTokens(clock=lambda: now[0])
    for message_id in range(500):
        tokens.remember(message_id, f"t{message_id}")
        tokens.offer(message_id, f"c{message_id}", loading=message_id % 2 == 0)
        now[0] += 0.01
    now[0] += LIFETIME + SWEEP_EVERY
    tokens.remember(1000, "fresh")
    tokens.offer(1000, "fresh")
    assert set(tokens._by_message) == {1000} and set(tokens._by_channel) == {1000}
    assert not tokens._loading
