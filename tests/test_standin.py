"""Proves the Discord stand-in with a tiny real discord.py bot.

The stand-in is the base of every end-to-end test, so its own behaviour (limits, interaction
rules, restarts) is pinned here against the real client rather than against mocks.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from testkit.standin import (
    DiscordStandIn,
    InteractionNotAnswered,
    InteractionResult,
    StandInError,
    running_standin,
)
from testkit.standin.testing import no_task_leaks  # noqa: F401  (autouse fixture)
from testkit.standin.tinybot import WORDS, PokeView, TinyBot


async def test_end_to_end_slash_click_autocomplete() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        bob = dc.add_user("bob")
        bot = TinyBot()
        bot.seen["sync_guilds"] = [guild.id]
        async with dc.run_bot(bot):
            assert [c["name"] for c in dc.commands()] == ["tt"]
            assert [c["name"] for c in dc.commands(guild.id)] == ["tt"]
            assert bot.get_guild(guild.id) is not None

            first = await dc.slash(alice, guild, "tt", "ping", target=bob, word="hi")
            second = await dc.slash(bob, guild.channel_id, "tt", "ping", target=alice, word="yo")
            assert first.response_type == 4 and not first.ephemeral and not first.deferred
            assert first.content == "pong bob hi from alice"
            assert "pong alice yo from bob" in second
            assert first.message is not None and first.message.custom_ids == ["test:poke"]
            assert all(0 <= lat < 1 for lat in dc.latencies)

            poke = await dc.click(bob, first, "test:poke")
            assert poke.ephemeral and poke.content == "poked by bob via first"
            assert dc.ephemerals(bob) == [poke.message]
            assert len(dc.channel_messages(guild.channel_id)) == 2

            choices = await dc.autocomplete(alice, guild, "tt", "ping", focused="word", word="b")
            assert choices == [{"name": "bravo", "value": "bravo"}]

            burst = await asyncio.gather(
                *(dc.slash(alice, guild, "tt", "ping", target=bob, word=str(i)) for i in range(20))
            )
            assert sorted(r.content for r in burst) == sorted(
                f"pong bob {i} from alice" for i in range(20)
            )
        assert bot.is_closed()
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", dc.port)


async def test_dm_closed_and_limits_and_double_ack() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        carol = dc.add_user("carol")
        dc.close_dms(carol)
        bot = TinyBot()
        async with dc.run_bot(bot):
            ok = await dc.slash(alice, guild, "tt", "dm", target=alice)
            assert ok.deferred and ok.ephemeral and ok.content == "sent"
            assert dc.last_dm(alice).content == "a secret for you"

            closed = await dc.slash(alice, guild, "tt", "dm", target=carol)
            assert closed.content == "their DMs are closed" and closed.ephemeral
            assert bot.seen["dm_error"] == 50007
            assert dc.dms(carol) == []
            assert [r.code for r in dc.rejections] == [50007]

            long = await dc.slash(alice, guild, "tt", "long")
            assert bot.seen["long_error"] == 50035
            assert long.content == "fallback"
            assert len(dc.take_violations("content")) == 1

            twice = await dc.slash(alice, guild, "tt", "twice")
            await dc.settle()
            assert twice.content == "one"
            assert bot.seen["twice_error"] == 40060
            assert len(dc.take_violations("40060")) == 1
        dc.assert_no_bot_errors()


async def test_deny_send_and_defer_update_and_dynamic_item() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        async with dc.run_bot(TinyBot()):
            posted = await dc.slash(alice, guild, "tt", "announce")
            assert posted.content == "posted"
            assert dc.last_message(guild.channel_id).content == "announcement"

            dc.deny_send(guild.channel_id)
            refused = await dc.slash(alice, guild, "tt", "announce")
            assert refused.content == "cannot post: 50013"

            counter = await dc.slash(alice, guild, "tt", "counter")
            click = await dc.click(alice, counter, "test:count:0")
            assert click.response_type == 6 and click.completed
            assert click.content == "count 1" and click.message is counter.message
            again = await dc.click(alice, counter, label="Count 1")
            assert again.content == "count 2"
            assert counter.message is not None and len(counter.message.history) == 2


async def test_restart_keeps_buttons_working() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        async with dc.run_bot(TinyBot("first")):
            ping = await dc.slash(alice, guild, "tt", "ping", target=alice, word="w")
            counter = await dc.slash(alice, guild, "tt", "counter")
        with pytest.raises(StandInError):
            await dc.click(alice, ping, "test:poke")
        async with dc.run_bot(TinyBot("second")):
            poke = await dc.click(alice, ping, "test:poke")
            assert poke.content == "poked by alice via second"
            count = await dc.click(alice, counter, "test:count:0")
            assert count.content == "count 1"
            await dc.force_reconnect()
            await dc.wait_ready()
            again = await dc.click(alice, ping, "test:poke")
            assert "via second" in again.content


async def test_unanswered_and_late_interactions_are_reported() -> None:
    async with running_standin(interaction_deadline=0.3) as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        bot = TinyBot()

        @bot.tree.command(name="slow", description="Answers too late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.4)
            try:
                await interaction.response.send_message("late")
            except discord.NotFound as exc:
                bot.seen["late_error"] = exc.code

        async with dc.run_bot(bot):
            with pytest.raises(InteractionNotAnswered, match="never acknowledged"):
                await dc.slash(alice, guild, "slow")
            await dc.settle()
            assert bot.seen["late_error"] == 10062
            assert len(dc.take_violations("10062")) == 1
            with pytest.raises(StandInError, match="not registered"):
                await dc.slash(alice, guild, "nope")


async def test_records_are_usable_without_a_bot() -> None:
    dc = DiscordStandIn()
    guild = dc.add_guild("G")
    user = dc.add_user("u")
    assert user.id in guild.member_ids and dc.channels[guild.channel_id].name == "general"
    with pytest.raises(StandInError):
        await dc.slash(user, guild, "tt", "ping")
    assert isinstance(InteractionResult, type)


class NameModal(discord.ui.Modal, title="Your name"):
    """A one-field modal."""

    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="nm")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Update the message the modal was opened from."""
        await interaction.response.edit_message(content=f"hello {self.name.value}", view=None)


class PanelView(discord.ui.View):
    """A select and a modal-opening button."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="panel:pick",
        options=[discord.SelectOption(label=w.title(), value=w) for w in WORDS],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        """Echo the picked values."""
        await interaction.response.send_message(f"picked {','.join(select.values)}")

    @discord.ui.button(label="Name…", custom_id="panel:name")
    async def name(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        """Open the modal."""
        await interaction.response.send_modal(NameModal())


def panel_bot() -> TinyBot:
    """TinyBot plus commands for selects, modals, DM buttons and misuse."""
    bot = TinyBot()

    @bot.tree.command(name="panel", description="A panel")
    async def panel(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("panel", view=PanelView())

    @bot.tree.command(name="dmbutton", description="DM a button")
    async def dmbutton(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("check your DMs", ephemeral=True)
        await interaction.user.send("press", view=PokeView())

    @bot.tree.command(name="leak", description="Public defer, ephemeral followup")
    async def leak(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send("secret", ephemeral=True)

    @bot.tree.command(name="rows", description="Too many rows")
    async def rows(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        payload = {
            "content": "rows",
            "components": [
                {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "d"}]}
                for _ in range(6)
            ],
        }
        route = discord.http.Route(
            "POST", "/channels/{channel_id}/messages", channel_id=interaction.channel.id
        )
        try:
            await bot.http.request(route, json=payload)
        except discord.HTTPException as exc:
            await interaction.followup.send(f"refused {exc.code}", ephemeral=True)

    @bot.tree.command(name="later", description="Defer now, follow up after 16 minutes")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        bot.seen["later"] = interaction

    return bot


async def test_select_modal_dm_click_and_misuse() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        bot = panel_bot()
        async with dc.run_bot(bot):
            panel = await dc.slash(alice, guild, "panel")
            assert panel.message is not None
            assert [o["value"] for o in panel.message.options("panel:pick")] == WORDS
            picked = await dc.select(alice, panel, "panel:pick", ["alpha", "delta"])
            assert picked.content == "picked alpha,delta"
            with pytest.raises(StandInError, match="not among options"):
                await dc.select(alice, panel, "panel:pick", ["zulu"])

            opened = await dc.click(alice, panel, label="Name")
            assert opened.response_type == 9 and opened.modal is not None
            submitted = await dc.submit_modal(alice, opened, {"nm": "Alice"})
            assert submitted.response_type == 7 and submitted.content == "hello Alice"
            assert panel.message.components == [] and "panel" in panel.message.history[0]["content"]

            ack = await dc.slash(alice, guild, "dmbutton")
            assert ack.ephemeral
            dm = await dc.wait_for_dm(alice, "press")
            poke = await dc.click(alice, dm, "test:poke")
            assert poke.content.startswith("poked by alice")

            leak = await dc.slash(alice, guild, "leak")
            assert not leak.ephemeral and leak.content == "secret"
            assert len(dc.take_violations("PUBLICLY")) == 1

            rows = await dc.slash(alice, guild, "rows")
            assert rows.content == "refused 50035" and rows.ephemeral
            assert len(dc.take_violations("components")) == 1

            later = await dc.slash(alice, guild, "later", wait=False)
            await asyncio.sleep(0.05)
            assert later.response_type == 5 and not later.completed
            dc.advance_time(16 * 60)
            interaction: discord.Interaction = bot.seen["later"]
            with pytest.raises(discord.HTTPException) as info:
                await interaction.followup.send("too late")
            assert info.value.code == 50027
            assert len(dc.take_violations("50027")) == 1
        dc.assert_no_bot_errors()


async def test_dm_slash_guild_only_and_channel_edits() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        bot = TinyBot()

        @bot.tree.command(name="hello", description="Works in DMs")
        async def hello(interaction: discord.Interaction) -> None:
            where = "dm" if interaction.guild is None else "guild"
            await interaction.response.send_message(f"hello in {where}")
            msg = await interaction.original_response()
            await msg.edit(content=f"hello in {where} (edited)")
            assert isinstance(interaction.channel, discord.abc.Messageable)
            posted = await interaction.channel.send("extra")
            await posted.edit(content="extra, edited")

        async with dc.run_bot(bot):
            in_dm = await dc.slash(alice, None, "hello")
            assert in_dm.message is not None and in_dm.message.is_dm
            extra = await dc.wait_for_dm(alice, "extra, edited")
            assert extra.history[0]["content"] == "extra"
            await dc.settle()
            assert in_dm.content == "hello in dm (edited)"
            in_guild = await dc.slash(alice, guild, "hello")
            await dc.wait_for_message(guild.channel_id, "extra, edited")
            assert in_guild.text.startswith("hello in guild")
            with pytest.raises(StandInError, match="not available in DMs"):
                await dc.slash(alice, None, "tt", "ping", target=alice, word="x")


async def test_members_intent_chunks_and_unknown_routes_are_violations() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        bot = TinyBot(intents=discord.Intents.all())

        @bot.tree.command(name="react", description="Uses a route the stand-in lacks")
        async def react(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("reacting")
            msg = await interaction.original_response()
            try:
                await msg.add_reaction("👍")
            except discord.NotFound:
                await interaction.followup.send("no reactions here")

        async with dc.run_bot(bot):
            seen = bot.get_guild(guild.id)
            assert seen is not None
            assert {m.id for m in seen.members} >= {alice.id, dc.bot_user_id}
            late = dc.add_user("late")
            await dc.settle()
            assert seen.get_member(late.id) is not None
            result = await dc.slash(alice, guild, "react")
            await dc.settle()
            assert "no reactions here" in result
            assert "route unknown" in dc.take_violations("reactions")[0]
