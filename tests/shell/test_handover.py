"""Which gateway interactions a cluster process hands over (a DM click on a game's component,
naming its table), and that whatever is not handed over is played where it arrived: at once,
or after the look when the storage keeps it (`bot.handover`; the handover itself between two
processes: `test_cluster_storage`, and in a cluster of real processes: `test_cluster`)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bot.components import TableButton
from bot.handover import Handover, table_of
from bot.lobby import TableClick
from bot.mansion.family import custom_id as mansion_id
from bot.storage import Change, SqliteStorage
from bot.thirteen_clues.family import custom_id
from bot.urgency import URGENT
from tests.shell.conftest import lobby

PREFIXES = ("13c", "mbm")


def click(cid: str, *, guild: int | None = None, kind: int = 3) -> dict[str, Any]:
    data: dict[str, Any] = {"type": kind, "id": "1", "data": {"custom_id": cid}}
    if guild is not None:
        data["guild_id"] = str(guild)
    return data


def test_a_dm_click_on_a_games_component_names_its_table() -> None:
    shell_button = TableButton("mbm", "hand", 42).custom_id
    assert TableClick.__discord_ui_compiled_template__.fullmatch(shell_button)
    for cid in (custom_id("pass", 42), custom_id("ask", 42, 7, "a"), mansion_id("show", 42, 3),
                shell_button, "13c:sitok:42:100"):
        assert table_of(click(cid), PREFIXES) == 42, cid
    assert table_of(click(custom_id("ask", 42, 7), kind=5), PREFIXES) == 42  # a modal's


def test_what_is_never_handed_over() -> None:
    assert table_of(click(custom_id("pass", 42), guild=5), PREFIXES) is None  # a server's
    assert table_of({"type": 2, "data": {"name": "13clues"}}, PREFIXES) is None  # a command
    for cid in ("rp:next:42:1:0", "hist:pick:3:1", "13c:pass", "13c:pass:x", "zz:pass:42"):
        assert table_of(click(cid), PREFIXES) is None, cid


async def test_what_is_not_handed_over_is_played_here(tmp_path: Path) -> None:
    store = SqliteStorage(tmp_path / "bot.sqlite3")  # one process: nothing is handed over
    await store.open()
    try:
        table = (await store.create_table(lobby(), lambda t: Change(t))).table
        parsed: list[tuple[dict[str, Any], bool]] = []
        handover = Handover(store, lambda d: parsed.append((d, URGENT.get())), PREFIXES)
        command = {"type": 2, "data": {"name": "13clues"}}
        handover.arrived(command)
        assert parsed == [(command, False)]  # at once, in the gateway's own context
        dm = click(custom_id("pass", table.id))
        handover.arrived(dm)
        assert len(parsed) == 1  # its table is looked up first
        async with asyncio.timeout(5):
            while len(parsed) < 2:
                await asyncio.sleep(0.01)
        assert parsed[1] == (dm, True)  # then played here, as urgent as the gateway's
        handover.heard(json.dumps(dm))  # handed over by another process: urgent here too
        assert parsed[2] == (dm, True)
    finally:
        await store.close()
