"""The stand-in takes files as Discord does: multipart uploads on message creates and edits,
interaction responses and webhook edits, recorded with their name, size, content type and
description; more than 10 files, or a file over the upload limit, is refused; an embed image
naming a file that is not attached is reported."""

from __future__ import annotations

import io

import discord
from PIL import Image

from testkit.standin import running_standin
from testkit.standin.limits import UPLOAD_LIMIT
from testkit.standin.testing import no_task_leaks  # noqa: F401  (autouse fixture)
from testkit.standin.tinybot import TinyBot


def png(width: int = 40, height: int = 30) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


def file(name: str, data: bytes | None = None, description: str | None = None) -> discord.File:
    return discord.File(io.BytesIO(png() if data is None else data), name,
                        description=description)


def uploading_bot() -> TinyBot:
    bot = TinyBot()
    group = discord.app_commands.Group(name="up", description="Uploads")

    @group.command(name="post", description="Post with pictures")
    async def post(interaction: discord.Interaction, count: int = 1) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        embed = discord.Embed(title="a picture").set_image(url="attachment://p0.png")
        files = [file(f"p{i}.png", description=f"picture {i}") for i in range(count)]
        try:
            msg = await interaction.channel.send("look", embed=embed, files=files)
            bot.seen["posted"] = msg.id
            answer = f"{len(msg.attachments)} attached"
        except discord.HTTPException as exc:
            answer = f"refused {exc.status} {exc.code}"
        await interaction.followup.send(answer, ephemeral=True)

    @group.command(name="edit", description="Swap the picture")
    async def edit(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert channel is not None
        msg = await channel.fetch_message(bot.seen["posted"])  # type: ignore[union-attr]
        embed = discord.Embed(title="another").set_image(url="attachment://q.png")
        await msg.edit(embed=embed, attachments=[file("q.png", png(60, 20))])
        await interaction.response.send_message("edited", ephemeral=True)

    @group.command(name="big", description="Too large a file")
    async def big(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.abc.Messageable)
        try:
            await interaction.channel.send(file=file("big.bin", b"x" * (UPLOAD_LIMIT + 1)))
            answer = "sent"
        except discord.HTTPException as exc:
            answer = f"refused {exc.status} {exc.code}"
        await interaction.response.send_message(answer, ephemeral=True)

    @group.command(name="reply", description="An answer with a picture")
    async def reply(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="yours").set_image(url="attachment://r.png")
        await interaction.response.send_message(
            embed=embed, file=file("r.png", description="only yours"), ephemeral=True
        )

    @group.command(name="dangling", description="An embed image with no file")
    async def dangling(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.abc.Messageable)
        embed = discord.Embed(title="broken").set_image(url="attachment://missing.png")
        await interaction.channel.send(embed=embed)
        await interaction.response.send_message("done", ephemeral=True)

    bot.tree.add_command(group)
    return bot


async def test_uploads_are_recorded_and_limited() -> None:
    async with running_standin() as dc:
        guild = dc.add_guild()
        alice = dc.add_user("alice")
        async with dc.run_bot(uploading_bot()):
            posted = await dc.slash(alice, guild, "up", "post", count=2)
            assert "2 attached" in posted
            msg = dc.channel_messages(guild.channel_id)[-1]
            first, second = msg.attachments
            assert (first["filename"], first["content_type"]) == ("p0.png", "image/png")
            assert first["description"] == "picture 0" and second["description"] == "picture 1"
            assert (first["width"], first["height"]) == (40, 30)
            assert first["size"] == len(png())
            assert msg.embeds[0]["image"]["url"] == "attachment://p0.png"

            await dc.slash(alice, guild, "up", "edit")
            assert [a["filename"] for a in msg.attachments] == ["q.png"]
            assert msg.attachments[0]["width"] == 60
            assert [a["filename"] for a in msg.history[-1]["attachments"]] == ["p0.png", "p1.png"]

            eleven = await dc.slash(alice, guild, "up", "post", count=11)
            assert "refused 400 50035" in eleven
            assert dc.take_violations("files: Must be 10 or fewer")

            big = await dc.slash(alice, guild, "up", "big")
            assert "refused 413 40005" in big
            assert dc.take_violations("Request entity too large")

            reply = await dc.slash(alice, guild, "up", "reply")
            assert reply.ephemeral and reply.message is not None
            assert reply.message.attachments[0]["description"] == "only yours"

            await dc.slash(alice, guild, "up", "dangling")
            assert dc.take_violations("attachment://missing.png, which is not attached")
