"""`/history`, `/… replay` and the download through the real bot: finished games only, a game
in play refused and never listed, the buttons after a restart, and the downloaded record
played again by the engine to the stored end."""

from __future__ import annotations

import json

from bot.archive import GameRecord, frames
from bot.mansion.game import GAME as MANSION
from bot.plug import plug
from bot.thirteen_clues.game import GAME as THIRTEEN_CLUES
from testkit.drive import state_of, table_row
from testkit.mansion_drive import open_mansion
from testkit.mansion_drive import slash as mansion_slash
from testkit.play import open_table, pass_by_dm, seat_user
from testkit.standin import InteractionResult, Message, User
from testkit.world import World
from tests.e2e.endings import solve_mansion


def replay_message(result: InteractionResult) -> Message:
    msg = result.message
    assert msg is not None and msg.ephemeral, result.text
    assert any(c.startswith("rp:next:") for c in msg.custom_ids), result.text
    return msg


def button_of(msg: Message, verb: str) -> str:
    return next(c for c in msg.custom_ids if c.startswith(f"rp:{verb}:"))


async def press(world: World, user: User, msg: Message, verb: str, expect: str,
                choose: list[str] | None = None) -> Message:
    """Press a replay's or history's button (or choose in its menu), and wait for the
    message to show `expect` (a deferred update edits it when its step is computed)."""
    cid = button_of(msg, verb) if ":" not in verb else verb
    if choose is None:
        await world.dc.click(user, msg, cid)
    else:
        await world.dc.select(user, msg, cid, choose)
    return await world.dc.wait_for(lambda m: m.id == msg.id and expect in m.content)


async def download(world: World, user: User, msg: Message) -> tuple[GameRecord, str]:
    """Press Download: the record and the transcript, as uploaded."""
    got = await world.dc.click(user, msg, button_of(msg, "file"))
    files = {a["filename"]: world.dc.attachment_bytes(a) for m in got.messages
             for a in m.attachments}
    assert got.ephemeral and len(files) == 2, got.text
    record = next(v for k, v in files.items() if k.endswith(".json"))
    text = next(v for k, v in files.items() if k.endswith(".txt"))
    return GameRecord.model_validate_json(record), text.decode()


async def test_a_thirteen_clues_game_is_listed_replayed_and_downloaded_once_over(
    world: World,
) -> None:
    dc = world.dc
    players = world.users[:2]
    stranger = world.users[2]
    async with world.running():
        help_text = await dc.slash(stranger, world.channel, "help")
        assert "`/history`" in help_text.text and "`/13clues replay`" in help_text.text
        assert "`/mansion replay`" in help_text.text and help_text.text.endswith("a table.")
        await open_table(world, players)
        for user in players:
            await pass_by_dm(world, user)
        table_id = table_row(world)["id"]
        # in play: not in the history, and no replay, whichever way it is asked
        empty = await dc.slash(players[0], world.channel, "history")
        assert "No finished games" in empty.text, empty.text
        refused = await dc.slash(players[0], world.channel, "13clues", "replay")
        assert "still in play" in refused.text and refused.ephemeral
        refused = await dc.slash(players[1], world.channel, "13clues", "replay", game=table_id)
        assert "still in play" in refused.text
        assert not any(c.startswith("rp:") for m in refused.messages for c in m.custom_ids)

        state = state_of(world)
        winner = seat_user(world, state, state.turn)
        p, loc, w = state.seats[state.turn].holder
        await dc.slash(winner, world.channel, "13clues", "accuse", person=p, location=loc,
                       weapon=w)
        final = table_row(world)

        listed = await dc.slash(stranger, world.channel, "history")
        assert f"**#{table_id}**" in listed.text and "13 Clues" in listed.text, listed.text
        assert f"🏆 {winner.name}" in listed.text and all(u.name in listed.text for u in players)
        mine = await dc.slash(stranger, world.channel, "history", me=True)
        assert "No finished games in your history" in mine.text
        theirs = await dc.slash(players[1], world.channel, "history", me=True)
        assert f"**#{table_id}**" in theirs.text

        shown = replay_message(await dc.slash(stranger, world.channel, "13clues", "replay"))
        assert f"13 Clues #{table_id}** · step 0 of" in shown.content
        assert "What the table saw" in shown.content and shown.embeds
        assert [a["filename"].endswith(".png") for a in shown.attachments] == [True]  # a view
        assert button_of(shown, "prev") in [b["custom_id"] for b in shown.buttons
                                            if b.get("disabled")]
        step1 = await press(world, stranger, shown, "next", "step 1 of")
        assert len(step1.attachments) == 1  # the view at that step, redrawn
        last = await press(world, stranger, step1, "last", "wins")  # the reveal: the last step
        second = json.loads(table_row(world)["seats"])[1]["name"]
        await press(world, stranger, last, "seat", f"What {second} knew", ["1"])

        record, text = await download(world, stranger, dc.message(shown.id))
        assert record.table_id == table_id and record.game == "13clues"
        game = plug(THIRTEEN_CLUES)
        played = list(frames(game, record))  # the engine plays it to the same end
        assert game.dump(played[-1].state) == final["state"]
        assert "Step 0: the deal" in text and all(u.name in text for u in players)

        # the buttons still work after a restart
        assert "step 0 of" not in dc.message(shown.id).content
    async with world.running():
        await press(world, stranger, dc.message(shown.id), "first", "step 0 of")
        other_game = await dc.slash(stranger, world.channel, "mansion", "replay")
        assert "No Clue: Mystery Beyond the Mansion game has finished" in other_game.text


async def test_a_mansion_game_is_replayed_from_the_history_menu_and_downloaded(
    world: World,
) -> None:
    dc = world.dc
    players = world.users[:3]
    async with world.running():
        await open_mansion(world, players, seed=3)
        table_id = table_row(world)["id"]
        refused = await mansion_slash(world, players[0], "replay")
        assert "still in play" in refused.text
        solver = await solve_mansion(world, players)
        final = table_row(world)

        page = await dc.slash(players[1], world.channel, "history")
        listing = page.message
        assert listing is not None and f"**#{table_id}**" in listing.content
        picked = await dc.select(players[1], listing, "hist:pick:0:0", [str(table_id)])
        shown = next(m for m in picked.messages if any(
            c.startswith("rp:") for c in m.custom_ids))
        assert f"Mystery Beyond the Mansion #{table_id}** · step 0" in shown.content
        assert shown.ephemeral and shown.embeds
        record, text = await download(world, players[1], shown)
        game = plug(MANSION)
        played = list(frames(game, record))
        assert game.dump(played[-1].state) == final["state"]
        assert record.moves and record.moves[-1].action is not None
        assert solver.name in text


async def test_the_history_pages_with_buttons(world: World) -> None:
    dc = world.dc
    players = world.users[:2]
    async with world.running():
        for _ in range(11):  # eleven games ended at once: two pages
            await open_table(world, players)
            await dc.slash(players[0], world.channel, "13clues", "end")
        ids = [r["id"] for r in _ids(world)]
        first = await dc.slash(players[0], world.channel, "history")
        msg = first.message
        assert msg is not None and "page 1 of 2, 11 in all" in msg.content
        assert f"**#{ids[-1]}**" in msg.content and f"**#{ids[0]}**" not in msg.content
        assert "no winner" in msg.content
        older = await press(world, players[0], msg, "hist:next:0:0", "page 2 of 2")
        assert f"**#{ids[0]}**" in older.content
        # an ended game replays too, its last step the table being ended
        picked = await dc.select(players[0], older, "hist:pick:1:0", [str(ids[0])])
        shown = next(m for m in picked.messages if any(
            c.startswith("rp:") for c in m.custom_ids))
        await press(world, players[0], shown, "last", "ended the game")


def _ids(world: World) -> list[dict[str, int]]:
    from testkit.drive import query

    return [{"id": r["id"]} for r in query(world, "SELECT id FROM tables WHERE channel_id = ? "
                                                 "ORDER BY id", (world.channel,))]


async def test_a_forged_history_choice_is_refused_and_changes_nothing(world: World) -> None:
    dc = world.dc
    players = world.users[:2]
    async with world.running():
        await open_table(world, players)
        await dc.slash(players[0], world.channel, "13clues", "end")
        listing = (await dc.slash(players[0], world.channel, "history")).message
        assert listing is not None
        for forged in (["9" * 40], ["x"], ["123456"]):
            got = await dc.forge(players[0], listing, {"custom_id": "hist:pick:0:0",
                                                       "component_type": 3, "values": forged})
            assert "Pick one of the menu's games" in got.text or "no finished" in got.text


async def test_a_private_channels_games_are_for_those_who_see_it_and_its_players(
    world: World,
) -> None:
    """A game played in a channel a member may not view (here a thread of a channel made
    private, archived since: discord.py then forgets it) is neither listed in their history
    nor replayed for them, by its number or by a replay's button (as if there were no such
    game), while its players and the members who see the channel find it as before."""
    dc = world.dc
    ann, bea, cid, dee = world.users
    lounge = world.channel
    async with world.running():
        world.channel = dc.add_thread(lounge, "table")  # the game is played in a thread
        await open_table(world, [ann, bea])
        for user in (ann, bea):
            await pass_by_dm(world, user)
        table_id = table_row(world)["id"]
        await dc.slash(ann, world.channel, "13clues", "end")
        assert table_row(world)["status"] == "over"
        private = dc.add_channel(world.guild.id, "private")
        hidden_thread = dc.add_thread(private, "old table")
        world.channel = hidden_thread  # a second game, in a thread of another channel
        await open_table(world, [ann, dee])
        hidden_id = table_row(world)["id"]
        await dc.slash(ann, world.channel, "13clues", "end")
        shown = replay_message(await dc.slash(cid, lounge, "13clues", "replay", game=hidden_id))
        dc.hide_channel(private, visible_to=[ann, dee])  # then made private, and archived
        dc.archive_thread(hidden_thread)
        await dc.settle()

        for looker in (ann, dee):
            listed = await dc.slash(looker, lounge, "history")
            assert f"**#{hidden_id}**" in listed.text, (looker.name, listed.text)
        theirs = await dc.slash(cid, lounge, "history")
        assert f"**#{table_id}**" in theirs.text and f"#{hidden_id}" not in theirs.text, \
            theirs.text
        refused = await dc.slash(cid, lounge, "13clues", "replay", game=hidden_id)
        assert refused.ephemeral and f"game #{hidden_id} on this server" in refused.text, \
            refused.text
        assert not any(c.startswith("rp:") for m in refused.messages for c in m.custom_ids)
        # the replay opened while the channel was public looks again at every click
        pressed = await dc.click(cid, shown, button_of(shown, "next"))
        assert f"game #{hidden_id} on this server" in pressed.text, pressed.text
        replay_message(await dc.slash(dee, lounge, "13clues", "replay", game=hidden_id))
