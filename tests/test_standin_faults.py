"""Nonce deduplication and fault injection, against the real discord.py client.

Each fault is checked for what Discord sends (status, body, headers) and for what discord.py
then does with it (retry and succeed, or raise), because e2e tests of "nothing lost" rely on
both. The 5xx back-off is discord.py's own (1 s before the first retry), so those tests run
their cases side by side.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any, TypedDict

import aiohttp
import discord
import pytest

from testkit.standin import DiscordStandIn, running_standin
from testkit.standin.faults import compile_route
from testkit.standin.testing import no_task_leaks  # noqa: F401  (autouse fixture)
from testkit.standin.tinybot import TinyBot

MESSAGES = "POST /channels/{channel_id}/messages"


class Recipient(TypedDict):
    """Who a request picked by `FaultSet.pick` goes to, beyond its channel."""

    recipient_id: int | None
    bot_route: bool


NOT_A_DM: Recipient = {"recipient_id": None, "bot_route": True}


def channel(bot: discord.Client, channel_id: int) -> discord.PartialMessageable:
    """Post through the bot's own HTTPClient, as the project's Delivery does."""
    return bot.get_partial_messageable(channel_id)


async def raw(
    dc: DiscordStandIn, method: str, path: str, body: Any = None
) -> tuple[int, dict[str, str], Any]:
    """A bare request as the bot would send it, to look at status, headers and body."""
    headers = {"Authorization": "Bot standin-token"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, f"{dc.api_base}{path}", json=body, headers=headers) as resp,
    ):
        text = await resp.text()
        data = await resp.json() if resp.content_type == "application/json" else text
        return resp.status, dict(resp.headers), data


async def test_enforced_nonce_returns_the_first_message_within_the_window() -> None:
    async with running_standin(nonce_window=60.0) as dc:
        guild = dc.add_guild()
        other = dc.add_channel(guild.id, "other")
        async with dc.run_bot(TinyBot()) as bot:
            general = channel(bot, guild.channel_id)
            first = await general.send("deal 1", nonce="deal-1")
            again = await general.send("deal 1 (retry)", nonce="deal-1")
            assert again.id == first.id and again.content == "deal 1"
            assert first.nonce == "deal-1"
            assert [m.content for m in dc.channel_messages(guild.channel_id)] == ["deal 1"]
            assert [m.id for m in dc.deduplicated] == [first.id]

            # Same nonce, another channel: a new message (the key is author + channel).
            elsewhere = await channel(bot, other).send("deal 1", nonce="deal-1")
            assert elsewhere.id != first.id

            # Integer nonces (sent raw: discord.py stringifies) deduplicate too.
            path = f"/channels/{guild.channel_id}/messages"
            body = {"content": "n", "nonce": 12345, "enforce_nonce": True}
            s1, _, m1 = await raw(dc, "POST", path, body)
            s2, _, m2 = await raw(dc, "POST", path, body)
            assert (s1, s2) == (200, 200) and m1["id"] == m2["id"] and m1["nonce"] == 12345

            # Without enforce_nonce Discord creates the duplicate.
            loose = {"content": "loose", "nonce": "x", "enforce_nonce": False}
            await raw(dc, "POST", path, loose)
            await raw(dc, "POST", path, loose)
            assert sum(m.content == "loose" for m in dc.channel_messages(guild.channel_id)) == 2

            # After the window the nonce is free again.
            dc.advance_time(61)
            later = await general.send("deal 1, much later", nonce="deal-1")
            assert later.id != first.id and len(dc.deduplicated) == 2

            # Validation: at most 25 characters, integer or string.
            with pytest.raises(discord.HTTPException) as info:
                await general.send("too long", nonce="n" * 26)
            assert info.value.status == 400 and info.value.code == 50035
            status, _, data = await raw(dc, "POST", path, {"content": "b", "nonce": True})
            assert status == 400 and "nonce" in data["errors"]
            assert len(dc.take_violations("nonce")) == 2


def post_without_nonce(bot: discord.Client, channel_id: int, content: str) -> Any:
    """A create with no nonce (Messageable.send always adds one), through the same client."""
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return bot.http.request(route, json={"content": content})


async def test_a_500_after_create_on_dms_duplicates_unless_the_nonce_is_enforced() -> None:
    async with running_standin() as dc:
        dc.add_guild()
        alice, bob, carol = (dc.add_user(name) for name in ("alice", "bob", "carol"))
        async with dc.run_bot(TinyBot()) as bot:
            # One fault per DM channel: discord.py serialises requests of one channel's bucket.
            to_alice = dc.faults.server_error(MESSAGES, after_apply=True, recipient=alice)
            to_bob = dc.faults.server_error(MESSAGES, after_apply=True, recipient=bob)
            dms = [await bot.create_dm(discord.Object(u.id)) for u in (alice, bob, carol)]
            started = time.monotonic()
            sent = await asyncio.gather(
                dms[0].send("your hand"),  # send() adds a random nonce, enforced
                post_without_nonce(bot, dms[1].id, "your hand"),
                dms[2].send("your hand", nonce="hand-carol"),
            )
            # discord.py slept 1 s and retried each 500 once (same payload, same nonce):
            # the nonce saved alice; bob's create without one was made twice.
            assert time.monotonic() - started >= 1.0
            assert (to_alice.count, to_bob.count) == (1, 1)
            assert [len(dc.dms(u)) for u in (alice, bob, carol)] == [1, 2, 1]
            assert [m.id for m in dc.deduplicated] == [sent[0].id]
            assert dc.dms(alice)[0].nonce == sent[0].nonce


async def test_rate_limits_per_route_global_and_cloudflare() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        path = f"/channels/{guild.channel_id}/messages"

        # What Discord sends with a 429.
        with dc.faults.rate_limit(MESSAGES, retry_after=2.5):
            status, headers, body = await raw(dc, "POST", path, {"content": "x"})
        assert status == 429
        assert body == {
            "message": "You are being rate limited.",
            "retry_after": 2.5,
            "global": False,
        }
        assert headers["Retry-After"] == "3" and headers["X-RateLimit-Scope"] == "user"
        assert headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Reset-After"]
        assert headers["X-RateLimit-Bucket"] and headers["Via"]
        with dc.faults.rate_limit(global_=True, retry_after=0.5):
            status, headers, body = await raw(dc, "GET", f"/channels/{guild.channel_id}")
        assert status == 429 and body["global"] is True
        assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"

        async with dc.run_bot(TinyBot()) as bot:
            general = channel(bot, guild.channel_id)
            # Per route, twice: discord.py sleeps retry_after and succeeds on the third try.
            twice = dc.faults.rate_limit(MESSAGES, times=2, retry_after=0.05)
            sent = await general.send("after two 429s")
            assert twice.count == 2 and dc.last_message(guild.channel_id).id == sent.id

            # Five times: discord.py gives up with HTTPException 429.
            dc.faults.rate_limit(MESSAGES, times=5, retry_after=0.01)
            with pytest.raises(discord.HTTPException) as info:
                await general.send("never")
            assert info.value.status == 429

            # Global, for a while: every request of the client waits it out, then succeeds.
            storm = dc.faults.rate_limit(global_=True, for_seconds=0.3)
            started = time.monotonic()
            fetched, posted = await asyncio.gather(
                bot.fetch_channel(guild.channel_id), general.send("after the global limit")
            )
            assert time.monotonic() - started >= 0.25 and storm.count >= 1
            assert fetched.id == guild.channel_id and posted.content == "after the global limit"

            # A Cloudflare ban (no Via header): discord.py raises at once.
            ban = dc.faults.rate_limit(MESSAGES, cloudflare=True)
            with pytest.raises(discord.HTTPException) as info:
                await general.send("banned")
            assert info.value.status == 429 and ban.count == 1

            # Interaction callbacks go through the webhook adapter, which retries 429 too.
            dc.faults.rate_limit("POST /interactions/{interaction_id}/{interaction_token}/callback")
            pong = await dc.slash(alice, guild, "tt", "ping", target=alice, word="w")
            assert pong.content == "pong alice w from alice"
        assert dc.faults.active == []


async def test_server_errors_retried_or_raised_as_discord_py_does() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        async with dc.run_bot(TinyBot()) as bot:
            general = channel(bot, guild.channel_id)
            msg = await general.send("to edit")
            f500 = dc.faults.server_error(MESSAGES)
            f502 = dc.faults.server_error("GET /channels/{channel_id}", 502)
            f504 = dc.faults.server_error("PATCH /channels/{channel_id}/messages/{message_id}", 504)
            f503 = dc.faults.server_error(
                "DELETE /channels/{channel_id}/messages/{message_id}", 503
            )
            followup = dc.faults.server_error("POST /webhooks/{application_id}/{token}", 503)

            async def delete_fails() -> int:
                with pytest.raises(discord.DiscordServerError) as info:
                    await msg.delete()
                return info.value.status

            started = time.monotonic()
            posted = asyncio.create_task(general.send("after a 500"))
            await asyncio.sleep(0.2)
            await dc.settle()  # knows a retry is coming: waits it out
            assert posted.done() and dc.last_message(guild.channel_id).content == "after a 500"
            fetched, edited, deleted, dm = await asyncio.gather(
                bot.fetch_channel(guild.channel_id),
                msg.edit(content="edited"),
                delete_fails(),
                dc.slash(alice, guild, "tt", "dm", target=alice),
            )
            assert time.monotonic() - started >= 2.0
            assert fetched.id == guild.channel_id and edited.content == "edited"
            assert deleted == 503 and not dc.message(msg.id).deleted  # 503: no retry
            assert dm.content == "sent"  # the webhook adapter retries every 5xx, 503 too
            assert [f.count for f in (f500, f502, f504, f503, followup)] == [1, 1, 1, 1, 1]
        dc.assert_no_bot_errors()


async def test_dropped_connections_reach_the_caller() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        async with dc.run_bot(TinyBot()) as bot:
            general = channel(bot, guild.channel_id)
            dc.faults.drop(MESSAGES)
            with pytest.raises(aiohttp.ServerDisconnectedError):
                await general.send("lost before")
            assert dc.channel_messages(guild.channel_id) == []

            # Made, answer lost: a caller that retries with its own stable nonce gets the
            # message back; without one (send() draws a new nonce per call) it posts twice.
            dc.faults.drop(MESSAGES, after_apply=True)
            with pytest.raises(aiohttp.ServerDisconnectedError):
                await general.send("made once", nonce="m-1")
            again = await general.send("made once", nonce="m-1")
            dc.faults.drop(MESSAGES, after_apply=True)
            with pytest.raises(aiohttp.ServerDisconnectedError):
                await general.send("made twice")
            await general.send("made twice")
            texts = [m.content for m in dc.channel_messages(guild.channel_id)]
            assert texts == ["made once", "made twice", "made twice"]
            assert dc.channel_messages(guild.channel_id)[0].id == again.id
            assert len(dc.faults.hits) == 3 and len(dc.deduplicated) == 1

            # A nonce whose message was deleted meanwhile: 404, nothing posted.
            await again.delete()
            with pytest.raises(discord.NotFound):
                await general.send("made once", nonce="m-1")


async def test_fault_matching_filters_duration_and_seeded_storms() -> None:
    method, pattern = compile_route("POST /channels/{channel_id}/messages")
    assert method == "POST" and pattern is not None
    assert pattern.match("/channels/1/messages") and not pattern.match("/channels/1/messages/2")
    assert compile_route("/webhooks/{a}/{t}/messages/@original")[0] is None
    assert compile_route("* /users/@me")[1].match("/users/@me")  # type: ignore[union-attr]

    dc = DiscordStandIn()
    guild = dc.add_guild()
    other = dc.add_channel(guild.id, "other")
    alice = dc.add_user("alice")
    only_other = dc.faults.server_error(MESSAGES, channel=other, times=None)
    assert (
        dc.faults.pick(
            "POST", f"/channels/{guild.channel_id}/messages", channel_id=guild.channel_id,
            **NOT_A_DM,
        )
        is None
    )
    assert (
        dc.faults.pick("POST", f"/channels/{other}/messages", channel_id=other, **NOT_A_DM)
        is only_other
    )
    only_other.cancel()

    dm = dc.dm_channel_id(alice)
    for_alice = dc.faults.drop(recipient=alice, times=None)
    assert (
        dc.faults.pick(
            "GET", f"/channels/{dm}", channel_id=dm, recipient_id=alice.id, bot_route=True
        )
        is for_alice
    )
    for_alice.cancel()

    timed = dc.faults.rate_limit(for_seconds=10.0)
    assert dc.faults.pick("GET", "/users/@me", channel_id=None, **NOT_A_DM) is timed
    dc.advance_time(11)
    assert dc.faults.pick("GET", "/users/@me", channel_id=None, **NOT_A_DM) is None

    storm = dc.faults.server_error(probability=0.3, seed=42, times=None)
    fired = [
        dc.faults.pick("GET", "/users/@me", channel_id=None, **NOT_A_DM) is storm
        for _ in range(50)
    ]
    rng = random.Random(42)
    assert fired == [rng.random() < 0.3 for _ in range(50)] and 5 < sum(fired) < 25
    dc.faults.clear()
    assert dc.faults.active == []


async def test_message_rate_limit_mode_slows_the_bot_like_discord() -> None:
    async with running_standin(message_rate_limit=(2, 0.3)) as dc:
        guild = dc.add_guild()
        other = dc.add_channel(guild.id, "other")
        path = f"/channels/{other}/messages"
        answers = [await raw(dc, "POST", path, {"content": str(i)}) for i in range(3)]
        assert [a[0] for a in answers] == [200, 200, 429]
        assert answers[0][1]["X-RateLimit-Limit"] == "2"
        assert answers[1][1]["X-RateLimit-Remaining"] == "0"
        assert answers[2][2]["global"] is False and len(dc.rate_limited) == 1
        async with dc.run_bot(TinyBot()) as bot:
            general = channel(bot, guild.channel_id)
            started = time.monotonic()
            for i in range(5):
                await general.send(f"line {i}")
            # discord.py reads the headers and waits for the window itself.
            assert time.monotonic() - started >= 0.5
            texts = [m.content for m in dc.channel_messages(guild.channel_id)]
            assert texts == [f"line {i}" for i in range(5)]


async def test_global_limit_answers_a_global_429_and_spares_interactions() -> None:
    async with running_standin(global_rate_limit=3) as dc:
        guild = dc.add_guild()
        path = f"/channels/{guild.channel_id}/messages"
        answers = [await raw(dc, "POST", path, {"content": str(i)}) for i in range(4)]
        assert [a[0] for a in answers] == [200, 200, 200, 429]
        _, headers, body = answers[3]
        assert body["global"] is True and 0 < body["retry_after"] <= 1.0
        assert headers["X-RateLimit-Scope"] == "global" and headers["X-RateLimit-Global"] == "true"
        assert len(dc.under_limit.calls) == 3 and len(dc.under_limit.refused) == 1
        assert [m.content for m in dc.channel_messages(guild.channel_id)] == ["0", "1", "2"]
        assert dc.under_limit.peak() == 3 and dc.under_limit.by_kind() == {"post": 3}
        async with dc.run_bot(TinyBot()) as bot:
            # discord.py waits the global 429 out by itself: every message arrives, and the
            # stand-in never let more than 3 through in a second
            general = channel(bot, guild.channel_id)
            started = time.monotonic()
            for i in range(8):
                await general.send(f"line {i}")
            assert time.monotonic() - started >= 1.0
            texts = [m.content for m in dc.channel_messages(guild.channel_id)]
            assert texts[3:] == [f"line {i}" for i in range(8)]
            assert dc.under_limit.peak() <= 3 and dc.under_limit.refused
            # interaction answers are outside the global limit
            user = dc.add_user("alice")
            before = len(dc.under_limit.calls)
            result = await dc.slash(user, guild, "tt", "ping", target=user, word="hi")
            assert "pong" in result.text
            assert not any("/interactions/" in c.route or "/webhooks/" in c.route
                           for c in dc.under_limit.since(before))
