"""The interactions' tokens that post and edit channel messages outside the global limit:
the newest one for a message or a channel, never past its lifetime, never while its own
"thinking" answer is still loading, and forgotten when Discord refuses it."""

from __future__ import annotations

from bot.message_tokens import LIFETIME, MessageTokens


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
