"""Finished games kept: games played through the table service and its real storage, then
their record (the export) played again by the engine to the stored end, for both games and
every way a game is set up (13 Clues' editions, Top Secret and two players; the Mansion's
standard game, One Against All and a series), a rematch (no deal in its log) and a table
ended mid-game. The history's reads list only games that are over."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.archive import ArchiveError, GameRecord, Replay, frames, record_of, transcript
from bot.models import Table
from bot.plug import AnyGame
from bot.registry import GAMES
from bot.storage import Storage
from bot.tables import TableService

GAME = {g.key: g for g in GAMES}
NAMES = ("Ann", "Bea", "Cid", "Dee", "Eve", "Fay")
MAX_MOVES = 3000


async def seated(tables: TableService, game: str, players: int, options: dict[str, Any],
                 *, channel: int = 10) -> Table:
    """A table here with `players` members, started."""
    table = await tables.open(1, channel, game, 100, NAMES[0], options)
    for i in range(1, players):
        await tables.join(table.id, 100 + i, NAMES[i])
    return (await tables.start(table.id, 100)).table


async def play_out(tables: TableService, table: Table, seed: int, *, stop_after: int | None = None
                   ) -> Table:
    """Every member plays as an AI would, through the table service (each move logged as in
    the bot), until the game is over (or `stop_after` moves)."""
    module = tables.module(table)
    rng = random.Random(seed)
    for moves in range(MAX_MOVES):
        table = await tables.by_id(table.id)
        if table.status == "over" or moves == stop_after:
            return table
        state = tables.state_of(table)
        seat = module.waiting_on(state)[0]
        user = table.seats[seat].user_id
        assert user is not None

        def build(state: Any, seat: int) -> Any:
            return module.ai_action(state, seat, "normal", rng)

        await tables.act(table.id, user, build)
    raise AssertionError("the game did not end")


async def replayed(tables: TableService, table: Table) -> GameRecord:
    """The record, as the download has it, checked to replay to the stored end."""
    module = tables.module(table)
    record = record_of(module, table, await tables.storage.action_log(table.id))
    again = GameRecord.model_validate_json(record.model_dump_json())  # the file, read back
    played = list(frames(module, again))
    assert module.dump(played[-1].state) == table.state
    assert len(played) == len(again.moves) + 1
    return again


SETUPS = [
    ("13clues", 4, {}),
    ("13clues", 3, {"edition": "2016", "top_secret": True}),
    ("13clues", 2, {}),
    ("13clues", 6, {"top_secret": True}),
    ("mansion", 4, {}),
    ("mansion", 5, {"variant": "one-against-all"}),
    ("mansion", 3, {"series": 2}),
    ("mansion", 4, {"variant": "one-against-all", "series": 2}),
]


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
async def test_a_finished_game_replays_from_its_record_to_the_same_end(
    storage: Storage, game: str, players: int, options: dict[str, Any]
) -> None:
    tables = TableService(storage, GAME, seed=lambda: 4242 + players)
    table = await play_out(tables, await seated(tables, game, players, options), players)
    record = await replayed(tables, table)
    assert [s.player_id for s in record.seats] != [] and record.seed == 4242 + players
    text = transcript(GAME[game], record, "en")
    assert all(name in text for name in NAMES[:players]) and "Step 1:" in text
    if options.get("series"):
        assert len(json.loads(table.state or "")["rounds"]) >= 2  # a whole series replayed


async def test_a_rematch_and_an_ended_game_replay_too(storage: Storage) -> None:
    """A rematch has no deal in its log (its table is created dealt); an ended table's last
    step is the engine's abandon."""
    tables = TableService(storage, GAME, seed=lambda: 77)
    first = await play_out(tables, await seated(tables, "13clues", 3, {}), 1)
    again = await tables.rematch(first.id, 100)
    assert all(e.action != "start" for e in await storage.action_log(again.id))
    played = await play_out(tables, again, 2, stop_after=9)
    assert played.status == "playing"
    with pytest.raises(ArchiveError, match="still in play"):
        record_of(tables.module(played), played, await storage.action_log(played.id))
    ended = await tables.end(played.id, 100, moderator=False, name="Ann")
    record = await replayed(tables, ended)
    assert record.moves[-1].abandon == "Ann ended the game."
    await replayed(tables, first)


async def test_a_record_that_does_not_arrive_at_its_end_is_refused(
    storage: Storage,
) -> None:
    tables = TableService(storage, GAME, seed=lambda: 5)
    table = await play_out(tables, await seated(tables, "mansion", 3, {}), 5)
    module: AnyGame = tables.module(table)
    record = record_of(module, table, await storage.action_log(table.id))
    forged = record.model_copy(update={"seed": record.seed + 1})
    with pytest.raises(ArchiveError):
        list(frames(module, forged))
    with pytest.raises(ArchiveError):
        Replay(module, forged)


async def test_any_step_from_a_checkpoint_is_the_step_played_in_order(
    storage: Storage,
) -> None:
    """The replay keeps a state every few steps and plays a step on from the one before it:
    each step, its state and its events, is exactly the one met playing the game through."""
    tables = TableService(storage, GAME, seed=lambda: 31)
    table = await play_out(tables, await seated(tables, "mansion", 3, {"series": 2}), 31)
    module = tables.module(table)
    record = record_of(module, table, await storage.action_log(table.id))
    kept = Replay(module, record)
    played = list(frames(module, record))
    assert kept.steps == len(played) > 3 * Replay.EVERY
    assert len(kept.checkpoints) == (kept.steps - 1) // Replay.EVERY + 1
    for step in (0, 1, Replay.EVERY - 1, Replay.EVERY, Replay.EVERY + 1, kept.steps - 1,
                 *random.Random(1).sample(range(kept.steps), 10)):
        frame = kept.frame(step)
        assert frame.actor == played[step].actor
        assert module.dump(frame.state) == module.dump(played[step].state)
        assert module.dump_events(frame.events) == module.dump_events(played[step].events)


async def test_the_history_reads_only_games_that_are_over(storage: Storage) -> None:
    tables = TableService(storage, GAME, seed=lambda: 9)
    done = await play_out(tables, await seated(tables, "13clues", 2, {}, channel=10), 9)
    in_play = await seated(tables, "mansion", 3, {}, channel=11)
    lobby = await tables.open(1, 12, "13clues", 100, "Ann", {})
    await tables.end(lobby.id, 100, moderator=False, name="Ann")  # closed unplayed: no game
    elsewhere = await tables.open(2, 13, "13clues", 105, "Fay", {})
    await tables.join(elsewhere.id, 101, "Bea")
    other_server = await play_out(tables, (await tables.start(elsewhere.id, 105)).table, 3)

    listed = await storage.finished_tables(1)
    assert [t.id for t in listed] == [done.id]
    assert in_play.id not in [t.id for t in await storage.finished_tables(1, limit=50)]
    assert await storage.finished_count(1) == 1
    assert [t.id for t in await storage.finished_tables(1, user_id=101)] == [done.id]
    assert [t.id for t in await storage.finished_tables(2, user_id=101)] == [other_server.id]
    assert await storage.finished_count(1, user_id=102) == 0  # Cid plays only the game on
    assert await storage.finished_tables(1, offset=1) == []
    # a game in a channel the looker does not view: theirs only if they had a seat at it
    assert await storage.finished_tables(1, visible={11, 12}, viewer=102) == []
    assert await storage.finished_count(1, visible=set(), viewer=102) == 0
    assert await storage.finished_count(1, visible=set()) == 0
    assert [t.id for t in await storage.finished_tables(1, visible=(), viewer=101)] == [done.id]
    assert await storage.finished_count(1, visible={12}, viewer=101) == 1
    assert [t.id for t in await storage.finished_tables(1, visible={10, 13})] == [done.id]
    assert (await storage.last_finished(10, "13clues") or in_play).id == done.id
    assert await storage.last_finished(11, "mansion") is None
    assert await storage.last_finished(10, "mansion") is None


async def test_every_replay_and_history_custom_id_is_handled_by_exactly_one_family(
    storage: Storage,
) -> None:
    import discord

    from bot.components import TableButton
    from bot.history import HistoryButton, history_page
    from bot.mansion.components import FAMILIES as MANSION_FAMILIES
    from bot.replay import Looker, ReplayButton, step_message
    from bot.thirteen_clues.components import FAMILIES as CLUES_FAMILIES

    families: list[type[discord.ui.DynamicItem[Any]]] = [
        TableButton, *CLUES_FAMILIES, *MANSION_FAMILIES, HistoryButton, ReplayButton]
    templates = [f.__discord_ui_compiled_template__ for f in families]
    tables = TableService(storage, GAME, seed=lambda: 8)
    outs = []
    for game, players in (("13clues", 6), ("mansion", 5)):
        table = await play_out(tables, await seated(tables, game, players, {}, channel=players),
                               players)
        record = record_of(GAME[game], table, await storage.action_log(table.id))
        kept = Replay(GAME[game], record)
        big = table.model_copy(update={"id": 987654321012345678})
        outs += [step_message(tables, big, kept, kept.frame(step), step, seat, "en")
                 for step in (0, kept.steps // 2, kept.steps - 1) for seat in range(players)]
    looker = Looker(100, guild_id=1, everywhere=True)
    outs.append(await history_page(tables, looker, None, 0, "de"))
    outs.append(await history_page(tables, looker, 100, 999_999, "fr"))
    seen: set[str] = set()
    for out in outs:
        assert out.text and len(out.text) <= 2000
        for row in out.components:
            for item in row["components"]:
                cid = item["custom_id"]
                assert len(cid) <= 100, cid
                assert len([t for t in templates if t.fullmatch(cid)]) == 1, cid
                seen.add(cid.split(":")[1])
    assert seen == {"first", "prev", "next", "last", "file", "seat", "pick"}


async def test_a_game_stored_before_a_field_was_kept_still_replays(storage: Storage) -> None:
    """The Mansion deal keeps the Action cards dealt since the review needed them: a game
    stored before has no such field, and still replays to its end; a value that differs is
    still refused."""
    tables = TableService(storage, GAME, seed=lambda: 21)
    table = await play_out(tables, await seated(tables, "mansion", 3, {}), 5)
    record = record_of(tables.module(table), table, await storage.action_log(table.id))
    old = json.loads(json.dumps(record.final_state))
    for game in old["rounds"]:
        for entry in game["log"]:
            entry.pop("actions", None)
    assert old != record.final_state
    older = record.model_copy(update={"final_state": old})
    assert len(list(frames(tables.module(table), older))) == len(record.moves) + 1
    old["seed"] += 1
    with pytest.raises(ArchiveError, match="does not arrive"):
        list(frames(tables.module(table), record.model_copy(update={"final_state": old})))
