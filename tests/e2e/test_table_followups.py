"""Table posts through interaction followups (issue 21): a turn played by slash command
brings no token for the table message, but any interaction in the channel lets the bot post
there for 15 minutes outside the global limit. The turn's new table post (with its one
mention) goes out as a public followup of the channel's newest usable token, and that token
edits and retires it later; an expired token falls back to the bot's own route; a slash
command's "thinking" defer is never used while it loads (its first followup would resolve
it); and a post that may have gone out as a followup is looked for before it is sent again."""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import Posting
from engine.thirteen_clues import legal
from testkit.drive import query
from testkit.standin import InteractionResult, Message
from testkit.world import World
from tests.e2e.feel_game import open_and_deal, state_of, user_of

FOLLOWUP_WINDOW = 15 * 60.0


def _bot_route_calls(world: World, mark: int) -> list[str]:
    """Requests under the global limit to the table's channel since `mark`."""
    prefix = f"/channels/{world.channel}/"
    return [c.route for c in world.dc.under_limit.since(mark)
            if c.route.split(" ", 1)[1].startswith(prefix)]


def _public_posts(world: World, after: int) -> list[Message]:
    return [m for m in world.dc.channel_messages(world.channel)
            if m.id > after and m.author_id == world.dc.bot_user_id and m.visible_to is None]


async def _play_turn_by_command(world: World) -> tuple[list[InteractionResult], int]:
    """The member whose turn it is asks by `/13clues ask` until their turn ends (a turn may
    hold several actions); their answers, and the member whose turn comes next."""
    recs: list[InteractionResult] = []
    turn = state_of(world).turn_number
    while state_of(world).turn_number == turn:
        state = state_of(world)
        user = user_of(world, state, state.turn)
        witness = user_of(world, state, legal.witnesses(state, state.turn)[0])
        assert user is not None and witness is not None and not legal.must_take(state)
        recs.append(await world.dc.slash(user, world.channel, "13clues", "ask",
                                         witness=witness,
                                         about=legal.question_subjects(state)[0]))
        await world.dc.settle()
    after = state_of(world)
    following = user_of(world, after, after.turn)
    assert following is not None
    return recs, following.id


def _answered_apart(world: World, recs: list[InteractionResult]) -> None:
    """Each command's own answer is its ephemeral original response, not a table post: the
    table post did not resolve its "thinking" defer."""
    for rec in recs:
        assert rec.ephemeral and "Asked" in rec.text, rec.text
    assert not [w for w in world.dc.warnings if "resolves" in w], world.dc.warnings


async def test_turns_asked_by_command_are_posted_as_followups(world: World) -> None:
    dc = world.dc
    async with world.running():
        await open_and_deal(world, world.users[:3], assist="full")
        mark = dc.under_limit.mark()
        last = dc.channel_messages(world.channel)[-1].id
        pinged: list[int] = []
        for _ in range(4):
            recs, following = await _play_turn_by_command(world)
            _answered_apart(world, recs)
            pinged.append(following)
        posts = _public_posts(world, last)
    # each turn's post is a public followup, pinging the member whose turn begins
    assert len(posts) == 4, [m.content for m in posts]
    assert all(m.webhook_id is not None and m.nonce is None for m in posts)
    assert [m.pings for m in posts] == [[u] for u in pinged]
    # the posts, their edits and their retiring edits cost nothing under the global limit
    assert _bot_route_calls(world, mark) == []
    assert all(not m.components for m in posts[:-1])  # each retired by its followup's token
    assert "asked" in posts[-2].content


async def test_an_expired_channel_token_falls_back_to_the_bots_own_post(world: World) -> None:
    dc = world.dc
    async with world.running():
        await open_and_deal(world, world.users[:3], assist="full")
        dc.advance_time(FOLLOWUP_WINDOW + 1)  # every token the bot holds has expired
        mark = dc.under_limit.mark()
        last = dc.channel_messages(world.channel)[-1].id
        # the first turn is one question: no fresh token of its own member's before its post
        recs, following = await _play_turn_by_command(world)
        assert len(recs) == 1
        refused = dc.take_violations("50027")
        _answered_apart(world, recs)
        [post] = _public_posts(world, last)
        made = _bot_route_calls(world, mark)
    assert refused  # Discord refused the expired token
    assert post.webhook_id is None and post.pings == [following]  # posted all the same
    assert f"POST /channels/{world.channel}/messages" in made


async def test_a_thinking_commands_token_is_not_used_while_it_loads(world: World) -> None:
    """After a restart the bot holds no token: the command's own is the only one in the
    channel, and it is still "thinking" when the turn's post goes (its answer waits for the
    news). Posting through it would resolve the member's ephemeral answer with the table
    message, hidden from everyone else; so the bot's own route posts it."""
    dc = world.dc
    async with world.running():
        await open_and_deal(world, world.users[:3], assist="full")
    async with world.running():
        last = dc.channel_messages(world.channel)[-1].id
        recs, following = await _play_turn_by_command(world)
        assert len(recs) == 1  # the first turn is one question
        _answered_apart(world, recs)
        [post] = _public_posts(world, last)
        assert post.webhook_id is None and post.pings == [following]
        # answered now: the next turn's post goes through that command's token
        recs, following = await _play_turn_by_command(world)
        _answered_apart(world, recs)
        posts = _public_posts(world, last)
    assert posts[-1].webhook_id is not None and posts[-1].pings == [following]


def _first_post_mark_lost(world: World, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first channel post's mark fails, as if the process died between its followup and
    its mark; returns (once it happened) that posting's id."""
    assert world.bot is not None
    storage = world.bot.sender.storage
    mark_sent = storage.posting_sent
    lost: list[int] = []

    async def killed_once(posting: Posting, message_id: int | None) -> Any:
        letter = posting.letter
        if not lost and letter.op == "send" and letter.kind == "c":
            lost.append(posting.id)
            raise RuntimeError("killed between the followup and its mark")
        return await mark_sent(posting, message_id)

    monkeypatch.setattr(storage, "posting_sent", killed_once)
    world.expect_error("killed between the followup and its mark")
    world.expect_error("delivery to c:")
    return lost


async def test_a_followup_not_marked_sent_is_found_not_posted_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A followup carries no nonce: a process killed after it went out and before its mark
    would post it again at the restart. The try is counted before the followup is sent, and
    a post tried before looks through the channel's latest messages first."""
    dc = world.dc
    async with world.running():
        await open_and_deal(world, world.users[:3], assist="full")
        lost = _first_post_mark_lost(world, monkeypatch)
        last = dc.channel_messages(world.channel)[-1].id
        await _play_turn_by_command(world)
        await dc.settle(timeout=10)
        posts = _public_posts(world, last)
    assert lost
    assert len(posts) == 1 and posts[0].webhook_id is not None, [m.content for m in posts]
    assert any(r.startswith(f"GET /channels/{world.channel}/messages") for r in dc.requests)
    [row] = query(world, f"SELECT state, message_id FROM outbox WHERE id = {lost[0]}")
    assert row["state"] == "sent" and row["message_id"] == posts[0].id


async def test_a_post_tried_before_without_read_message_history_is_posted_not_given_up(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the bot may not read the channel's history, the look for a followup that may
    have gone out cannot be made: the post goes by the bot's route (with its nonce) rather
    than being given up, and the table keeps its message (at worst shown twice after such a
    crash, never lost)."""
    import discord

    dc = world.dc
    async with world.running():
        assert world.bot is not None

        class Response:
            status, reason = 403, "Forbidden"

        async def no_history(*_: object, **__: object) -> Any:
            raise discord.Forbidden(Response(), {"code": 50001, "message": "Missing Access"})

        await open_and_deal(world, world.users[:3], assist="full")
        lost = _first_post_mark_lost(world, monkeypatch)
        monkeypatch.setattr(world.bot.http, "logs_from", no_history)
        last = dc.channel_messages(world.channel)[-1].id
        await _play_turn_by_command(world)
        await dc.settle(timeout=10)
        posts = _public_posts(world, last)
    assert lost
    [row] = query(world, f"SELECT state, message_id FROM outbox WHERE id = {lost[0]}")
    assert row["state"] == "sent", row["state"]
    assert row["message_id"] in [m.id for m in posts] and len(posts) == 2
