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
from bot.registry import GAMES
from testkit.drive import slash
from testkit.play import open_table, pass_by_dm
from testkit.standin import Message, User
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


async def dealt_picture(world: World, user: User, words: str, prefix: str) -> tuple[Message, JSON]:
    """The member's deal DM (its text holds `words`) and its picture: the very bytes the
    registry draws from the stored letter's reference (the text stays, the picture comes
    with it)."""
    deal = await world.dc.wait_for_dm(user, words)
    attachment, _ = png_of(world, deal, prefix)
    assert words in deal.text
    [ref] = stored_letter(world, user.id, words).body.pictures
    assert world.dc.attachment_bytes(attachment) == Drawings.of(GAMES).draw(ref)
    return deal, attachment


def embedded_png(world: World, msg: Message, prefix: str) -> JSON:
    """The message's picture (see `png_of`), shown as the image of its first embed."""
    attachment, _ = png_of(world, msg, prefix)
    assert msg.embeds[0]["image"]["url"] == f"attachment://{attachment['filename']}"
    return attachment


@pytest.mark.parametrize("workers", [0, 2], ids=["drawn-in-a-thread", "drawn-in-helpers"])
async def test_hand_dms_and_the_final_reveal_carry_pictures(world: World, workers: int) -> None:
    """`workers`: drawn in helper processes (as `python -m bot` does) or in a thread."""
    dc = world.dc
    ann, bea, cid = world.users[:3]
    async with world.running(draw_workers=workers) as bot:
        # the helpers' start (a spawn and the games' imports, at low priority) is not what
        # this test times: on a saturated machine it outlasted the stand-in's 5 s settle
        await bot.drawings.warm()
        await open_table(world, [ann, bea, cid], assist="full")
        deal, attachment = await dealt_picture(world, ann, "Your five cards", "13clues-seat")
        assert "five cards" in attachment["description"]
        if workers:
            helpers = bot.drawings._executor._processes  # type: ignore[attr-defined]
            assert len(helpers) >= 1 and all(p.pid != os.getpid() for p in helpers.values())

        for user in (ann, bea, cid):
            await pass_by_dm(world, user)
        assert deal.history[0]["attachments"]
        answered = [s for s in deal.history if "You pass" in (s.get("content") or "")]
        assert answered and answered[0]["attachments"] == [], \
            "the prompt, once answered, drops its stale picture"
        # the prompt is the member's kept DM: play begins as its edit into the case file
        case_file = await dc.wait_for_dm(ann, "Your case file")
        assert case_file.id == deal.id
        attachment, image = png_of(world, case_file, "13clues-seat")
        assert "Your holder: 3 face-down cards" in attachment["description"]
        assert image.width >= 400

        hand = await slash(world, ann, "hand")
        assert hand.ephemeral and hand.message is not None
        embedded_png(world, hand.message, "13clues-seat")

        book = await slash(world, ann, "casebook")
        assert book.message is not None
        attachment = embedded_png(world, book.message, "13clues-casebook")

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
