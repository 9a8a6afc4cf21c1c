"""The Mansion's pictures through the real client and the stand-in: the deal DM's hand,
`/mansion hand`, `/mansion notes` (full assist), the table message's markers and the
final reveal arrive as PNG attachments, each shown in its embed or under its text, with an
alt text; drawn from the stored letter's reference."""

from __future__ import annotations

from engine.mansion.cards import CLUES
from testkit.mansion_drive import living, mstate, open_mansion, seat_of, slash
from testkit.world import World
from tests.e2e.test_pictures import dealt_picture, embedded_png, png_of


async def test_the_mansion_hand_notes_markers_and_reveal_carry_pictures(world: World) -> None:
    dc = world.dc
    ann, bea, cid = world.users[:3]
    async with world.running():
        await open_mansion(world, [ann, bea, cid], assist="full")
        _, attachment = await dealt_picture(world, ann, "Your Clue cards", "mansion-hand-seat")
        assert "hand at a 3-player" in attachment["description"]

        table = living(world)
        attachment, image = png_of(world, table, "mansion-markers")
        assert table.embeds[0]["image"]["url"] == "attachment://mansion-markers.png"
        assert "Where everyone is" in attachment["description"]
        assert image.width >= 400

        hand = await slash(world, bea, "hand")
        assert hand.ephemeral and hand.message is not None
        attachment = embedded_png(world, hand.message, "mansion-hand-seat")
        state = mstate(world)
        own = state.seats[seat_of(state, bea)].clues
        assert all(CLUES[c].name in attachment["description"] for c in own)

        notes = await slash(world, cid, "notes")
        assert notes.message is not None
        attachment = embedded_png(world, notes.message, "mansion-notes-seat")
        assert "notes grid (full assist)" in attachment["description"]

        await slash(world, ann, "end")
        await dc.settle()
        final = dc.last_message(world.channel)
        attachment, _ = png_of(world, final, "mansion-reveal")
        assert [a["filename"] for a in final.attachments] == ["mansion-reveal.png"]
        assert final.embeds[0]["image"]["url"] == "attachment://mansion-reveal.png"
        assert "The solution:" in attachment["description"]


async def test_without_attach_files_the_mansion_table_goes_as_text(world: World) -> None:
    """A channel where the bot may not attach files: the table message and the reveal go
    without their pictures (the text says it all), and the table is not stuck."""
    dc = world.dc
    ann, bea, cid = world.users[:3]
    async with world.running():
        dc.deny_attach(world.channel)
        await open_mansion(world, [ann, bea, cid])
        table = living(world)
        assert table.attachments == [] and "image" not in table.embeds[0]
        await slash(world, ann, "end")
        await dc.settle()
        final = dc.last_message(world.channel)
        assert final.attachments == [] and "image" not in final.embeds[0]
        status = await slash(world, bea, "status")
        assert "paused" not in status.text
