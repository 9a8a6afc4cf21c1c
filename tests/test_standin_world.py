"""The world changes under the bot: channels deleted, the bot kicked, members leaving,
threads archived, permissions lost, a new process finishing an old interaction.

Each event is checked twice: the gateway event reaches discord.py's cache, and REST answers
afterwards are the ones Discord gives, so e2e tests can trust both.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from testkit.standin import StandInError, running_standin
from testkit.standin.testing import no_task_leaks  # noqa: F401  (autouse fixture)
from testkit.standin.tinybot import TinyBot


def recorder(bot: TinyBot, *events: str) -> list[tuple[str, Any]]:
    """Record the given discord.py events as (name, first argument)."""
    seen: list[tuple[str, Any]] = []
    for name in events:

        async def listener(*args: Any, _name: str = name) -> None:
            seen.append((_name, args[0] if args else None))

        bot.add_listener(listener, f"on_{name}")
    return seen


async def test_deleted_channel_and_its_threads() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        tables = dc.add_channel(guild.id, "tables")
        thread = dc.add_thread(tables, "table 1")
        bot = TinyBot()
        seen = recorder(bot, "guild_channel_delete", "thread_delete")
        async with dc.run_bot(bot):
            assert bot.get_channel(thread) is not None
            await bot.get_partial_messageable(tables).send("a table")
            dc.delete_channel(tables)
            await dc.settle()
            assert [name for name, _ in seen] == ["guild_channel_delete", "thread_delete"]
            assert bot.get_channel(tables) is None and bot.get_channel(thread) is None
            for target in (tables, thread):
                with pytest.raises(discord.NotFound) as info:
                    await bot.get_partial_messageable(target).send("still there?")
                assert info.value.code == 10003
            with pytest.raises(discord.NotFound):
                await bot.fetch_channel(tables)
            with pytest.raises(StandInError, match="deleted"):
                await dc.slash(alice, tables, "tt", "announce")
            assert [m.content for m in dc.channel_messages(tables)] == ["a table"]

            # A thread alone: THREAD_DELETE.
            other = dc.add_thread(guild.channel_id, "table 2")
            await dc.settle()
            dc.delete_channel(other)
            await dc.settle()
            assert seen[-1][0] == "thread_delete" and bot.get_channel(other) is None
        assert [r.code for r in dc.rejections] == [10003, 10003, 10003]


async def test_bot_removed_from_a_guild_and_invited_back() -> None:
    async with running_standin() as dc:
        home = dc.add_guild("Home")
        away = dc.add_guild("Away")
        alice = dc.add_user("alice", guild_id=home.id)
        dc.join_guild(alice, away.id)
        bot = TinyBot()
        bot.seen["sync_guilds"] = [away.id]
        seen = recorder(bot, "guild_remove", "guild_join")
        async with dc.run_bot(bot):
            dc.remove_bot_from_guild(away.id)
            await dc.settle()
            assert seen == [("guild_remove", bot.get_guild(away.id) or seen[0][1])]
            assert bot.get_guild(away.id) is None and bot.get_guild(home.id) is not None
            assert dc.commands(away.id) == []
            with pytest.raises(discord.Forbidden) as info:
                await bot.get_partial_messageable(away.channel_id).send("hello?")
            assert info.value.code == 50001
            with pytest.raises(discord.Forbidden):
                await bot.fetch_guild(away.id)
            with pytest.raises(StandInError, match="not in guild"):
                await dc.slash(alice, away, "tt", "perms")
            assert "app True" in await dc.slash(alice, home, "tt", "perms")

            dc.add_bot_to_guild(away.id)
            await dc.settle()
            assert seen[-1][0] == "guild_join" and bot.get_guild(away.id) is not None
            await bot.get_partial_messageable(away.channel_id).send("back")
        # After a restart the bot is told only about the guilds it is in.
        dc.remove_bot_from_guild(away.id)
        async with dc.run_bot(TinyBot("second")) as second:
            assert [g.id for g in second.guilds] == [home.id]


async def test_member_leaving_is_told_only_with_the_members_intent() -> None:
    async with running_standin() as dc:
        home = dc.add_guild("Home")
        other = dc.add_guild("Other")
        alice = dc.add_user("alice", guild_id=home.id)
        bob = dc.add_user("bob", guild_id=home.id)
        dc.join_guild(bob, other.id)
        carol = dc.add_user("carol", guild_id=home.id)
        with_members = TinyBot(intents=discord.Intents.all())
        seen = recorder(with_members, "member_remove", "raw_member_remove")
        async with dc.run_bot(with_members) as bot:
            seen_home = bot.get_guild(home.id)
            assert seen_home is not None and seen_home.get_member(alice.id) is not None
            dc.remove_member(home.id, alice)
            dc.remove_member(home.id, bob)
            await dc.settle()
            assert [(n, getattr(x, "id", None)) for n, x in seen if n == "member_remove"] == [
                ("member_remove", alice.id),
                ("member_remove", bob.id),
            ]
            assert seen_home.get_member(alice.id) is None
            with pytest.raises(discord.NotFound) as unknown:
                await seen_home.fetch_member(alice.id)
            assert unknown.value.code == 10007
            with pytest.raises(StandInError, match="not a member"):
                await dc.slash(alice, home, "tt", "perms")
            # DMs: alice shares no guild with the bot any more, bob still shares one.
            with pytest.raises(discord.Forbidden) as info:
                await (await bot.create_dm(discord.Object(alice.id))).send("still playing?")
            assert info.value.code == 50007
            await (await bot.create_dm(discord.Object(bob.id))).send("still playing?")
        plain = TinyBot("plain")
        quiet = recorder(plain, "raw_member_remove")
        async with dc.run_bot(plain):
            dc.remove_member(home.id, carol)
            await dc.settle()
            assert quiet == []  # no GUILD_MEMBERS intent, no event


async def test_threads_hold_tables_until_archived() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        async with dc.run_bot(TinyBot()) as bot:
            tid = dc.add_thread(guild.channel_id, "table 1", owner=alice)
            await dc.settle()
            thread = bot.get_channel(tid)
            assert isinstance(thread, discord.Thread) and thread.parent_id == guild.channel_id
            posted = await dc.slash(alice, tid, "tt", "announce")
            assert posted.content == "posted"
            assert dc.last_message(tid).content == "announcement"
            pong = await dc.slash(alice, tid, "tt", "ping", target=alice, word="w")
            assert pong.message is not None and pong.message.channel_id == tid
            assert "app True cache True" in await dc.slash(alice, tid, "tt", "perms")

            dc.archive_thread(tid)
            await dc.settle()
            assert thread.archived
            with pytest.raises(discord.HTTPException) as info:
                await bot.get_partial_messageable(tid).send("in the archive")
            assert info.value.status == 400 and info.value.code == 50083
            with pytest.raises(StandInError, match="archived"):
                await dc.slash(alice, tid, "tt", "announce")

            # The bot may unarchive it itself (Manage Threads), as discord.py's edit sends it.
            fetched = await bot.fetch_channel(tid)
            assert isinstance(fetched, discord.Thread) and fetched.archived
            await fetched.edit(archived=False)
            assert not dc.channels[tid].archived
            await bot.get_partial_messageable(tid).send("open again")

            dc.archive_thread(tid, locked=True)
            await dc.settle()
            assert (await bot.fetch_channel(tid)).locked  # type: ignore[union-attr]
            dc.unarchive_thread(tid)

            # Permission loss in a thread: Send Messages in Threads denied on the parent.
            dc.deny_send(tid)
            await dc.settle()
            assert "app False cache False" in await dc.slash(alice, tid, "tt", "perms")
            with pytest.raises(discord.Forbidden) as info:
                await bot.get_partial_messageable(tid).send("muted")
            assert info.value.code == 50013
            assert "app True" in await dc.slash(alice, guild, "tt", "perms")


async def test_permission_loss_reaches_the_cache_and_app_permissions() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        bot = TinyBot()
        seen = recorder(bot, "guild_channel_update", "guild_role_update")
        async with dc.run_bot(bot):
            assert "app True cache True" in await dc.slash(alice, guild, "tt", "perms")

            dc.deny_send(guild.channel_id)
            assert "app False cache False" in await dc.slash(alice, guild, "tt", "perms")
            assert "cannot post: 50013" in await dc.slash(alice, guild, "tt", "announce")
            dc.allow_send(guild.channel_id)
            assert "app True cache True" in await dc.slash(alice, guild, "tt", "perms")

            dc.deny_send_guild(guild.id)
            assert "app False cache False" in await dc.slash(alice, guild, "tt", "perms")
            assert "cannot post: 50013" in await dc.slash(alice, guild, "tt", "announce")
            dc.allow_send_guild(guild.id)
            assert "posted" in await dc.slash(alice, guild, "tt", "announce")
            names = [name for name, _ in seen]
            assert names.count("guild_channel_update") == 2
            assert names.count("guild_role_update") == 4


async def test_interaction_token_is_enough_for_a_new_process() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        first = TinyBot("first")
        async with dc.run_bot(first):
            kept = await dc.slash(alice, guild, "tt", "keep", wait=False)
            await dc.wait_for(lambda m: m.interaction_id == kept.id)
            app_id, token = first.seen["kept"]
        assert kept.deferred and not kept.completed

        # A new client (as in a new process after a crash) has only the token.
        async with dc.run_bot(TinyBot("second")) as second:
            hook = discord.Webhook.partial(app_id, token, client=second)
            # The first followup after a "thinking" defer fills in the original response.
            await hook.send("resumed after a restart", wait=True)
            assert kept.completed and kept.content == "resumed after a restart"

            edits = [
                await hook.edit_message("@original", content="final answer")
                for _ in range(2)
            ]
            assert kept.original is not None
            assert edits[0].id == edits[1].id == kept.original.id
            assert (
                kept.content == "final answer" and len(dc.channel_messages(guild.channel_id)) == 1
            )

            # A 500 after the edit applied: the webhook adapter retries; still one message.
            dc.faults.server_error(
                "PATCH /webhooks/{application_id}/{token}/messages/@original", after_apply=True
            )
            await hook.edit_message("@original", content="final answer")
            assert (
                kept.content == "final answer" and len(dc.channel_messages(guild.channel_id)) == 1
            )

            extra = await hook.send("one more thing", wait=True)
            assert kept.posts[-1].id == extra.id  # a public followup after the answer: a post

            dc.advance_time(16 * 60)
            with pytest.raises(discord.HTTPException) as info:
                await hook.send("too late", wait=True)
            assert info.value.code == 50027
            assert len(dc.take_violations("50027")) == 1
