"""Pictures through the real client and the stand-in: the hand DMs (the deal, the case file
when play begins), `/13clues hand`, the full-assist casebook and the channel's final reveal
arrive as PNG attachments, each shown in its embed or under its text, with an alt text."""

from __future__ import annotations

import io
import os
import sqlite3

import pytest
from PIL import Image

from bot.drawings import Drawings
from bot.models import Letter
from bot.thirteen_clues.game import GAME
from testkit.drive import slash
from testkit.play import open_table, pass_by_dm
from testkit.standin import Message
from testkit.standin.limits import UPLOAD_LIMIT
from testkit.standin.records import JSON
from testkit.world import World


def stored_letter(world: World, user_id: int, text: str) -> Letter:
    """The outbox letter to this member whose text holds `text`."""
    con = sqlite3.connect(world.db)
    try:
        rows = con.execute("SELECT letter FROM outbox WHERE dest = ?", (f"u:{user_id}",))
        letters = [Letter.model_validate_json(r[0]) for r in rows]
    finally:
        con.close()
    [letter] = [x for x in letters if text in x.body.text]
    return letter


def png_of(world: World, msg: Message, prefix: str) -> tuple[JSON, Image.Image]:
    """The message's one PNG attachment whose name starts with `prefix`, decoded."""
    [attachment] = [a for a in msg.attachments if a["filename"].startswith(prefix)]
    assert attachment["content_type"] == "image/png"
    assert 0 < attachment["size"] <= UPLOAD_LIMIT
    assert 0 < len(attachment.get("description", "")) <= 1024
    data = world.dc.attachment_bytes(attachment)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.size == (attachment["width"], attachment["height"])
    return attachment, image


@pytest.mark.parametrize("workers", [0, 2], ids=["drawn-in-a-thread", "drawn-in-helpers"])
async def test_hand_dms_and_the_final_reveal_carry_pictures(world: World, workers: int) -> None:
    """`workers`: drawn in helper processes (as `python -m bot` does) or in a thread."""
    dc = world.dc
    ann, bea, cid = world.users[:3]
    async with world.running(draw_workers=workers) as bot:
        await open_table(world, [ann, bea, cid], assist="full")
        deal = await dc.wait_for_dm(ann, "Your five cards")
        attachment, _ = png_of(world, deal, "13clues-seat")
        assert "five cards" in attachment["description"]
        assert "Your five cards" in deal.text  # the text stays, the picture comes with it
        # the same bytes as drawn here, from the stored letter's reference
        [ref] = stored_letter(world, ann.id, "Your five cards").body.pictures
        assert dc.attachment_bytes(attachment) == Drawings.of([GAME]).draw(ref)
        if workers:
            helpers = bot.drawings._executor._processes  # type: ignore[attr-defined]
            assert len(helpers) >= 1 and all(p.pid != os.getpid() for p in helpers.values())

        for user in (ann, bea, cid):
            await pass_by_dm(world, user)
        assert deal.attachments == [], "the prompt, once answered, drops its stale picture"
        assert deal.history[0]["attachments"]
        case_file = await dc.wait_for_dm(ann, "Your case file")
        attachment, image = png_of(world, case_file, "13clues-seat")
        assert "Your holder: 3 face-down cards" in attachment["description"]
        assert image.width >= 400

        hand = await slash(world, ann, "hand")
        assert hand.ephemeral and hand.message is not None
        attachment, _ = png_of(world, hand.message, "13clues-seat")
        assert hand.message.embeds[0]["image"]["url"] == f"attachment://{attachment['filename']}"

        book = await slash(world, ann, "casebook")
        assert book.message is not None
        attachment, _ = png_of(world, book.message, "13clues-casebook")
        assert book.message.embeds[0]["image"]["url"] == f"attachment://{attachment['filename']}"

        await slash(world, ann, "end")
        await dc.settle()
        final = dc.last_message(world.channel)
        attachment, image = png_of(world, final, "13clues-reveal")
        assert [a["filename"] for a in final.attachments] == ["13clues-reveal.png"]
        assert final.embeds[0]["image"]["url"] == "attachment://13clues-reveal.png"
        assert "13 Clues reveal" in attachment["description"]
        assert "Everything is revealed" in final.text


async def test_without_attach_files_the_channel_gets_the_text_alone(world: World) -> None:
    """A channel where the bot may post but not attach files: the reveal goes without its
    picture (the text says it all), and the table is neither paused nor stuck."""
    dc = world.dc
    ann, bea = world.users[:2]
    async with world.running():
        await open_table(world, [ann, bea])
        dc.deny_attach(world.channel)
        await slash(world, ann, "end")
        await dc.settle()
        final = dc.last_message(world.channel)
        assert "dealt are revealed" in final.text  # ended in the pass phase: the deal
        assert final.attachments == [] and "image" not in final.embeds[0]
        status = await slash(world, bea, "status")
        assert "paused" not in status.text
