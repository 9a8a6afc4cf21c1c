"""The clicks' tokens that edit a channel message outside the global limit: the newest one
for a message, never past its lifetime, and forgotten when Discord refuses it."""

from __future__ import annotations

from bot.message_tokens import LIFETIME, MessageTokens


def test_a_token_edits_its_message_until_it_expires() -> None:
    now = [100.0]
    tokens = MessageTokens(clock=lambda: now[0])
    assert tokens.token_for(7) is None and tokens.token_for(None) is None
    tokens.remember(7, "first")
    tokens.remember(7, "second")  # a later click on the same message: the newer token
    assert tokens.token_for(7) == "second" and tokens.token_for(8) is None
    now[0] += LIFETIME - 1
    assert tokens.token_for(7) == "second"
    now[0] += 1
    assert tokens.token_for(7) is None  # Discord's 15 minutes, less the spare minute


def test_a_refused_token_is_forgotten_but_not_a_newer_one() -> None:
    tokens = MessageTokens(clock=lambda: 0.0)
    tokens.remember(7, "old")
    tokens.forget(7, "old")
    assert tokens.token_for(7) is None
    tokens.remember(7, "new")
    tokens.forget(7, "old")  # a refusal of the old token must not drop the new one
    assert tokens.token_for(7) == "new"
