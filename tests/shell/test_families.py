"""The generic table cog and the component families on their own, without Discord: each
game's command group is the generic one plus only its own commands; every custom_id the
rendering writes is handled by exactly one family and read back to what was written; a
click no family would take is recognised as such."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.components import TableButton, routed
from bot.messages import Outgoing
from bot.models import SeatRef, Table
from bot.thirteen_clues import components
from bot.thirteen_clues.casebook import casebook_message
from bot.thirteen_clues.components import FAMILIES, AccusePicker, AskDraft
from bot.thirteen_clues.family import custom_id
from bot.thirteen_clues.game import GAME
from cogs.mansion import MansionCog
from cogs.table import TableCog
from cogs.thirteen_clues import ThirteenCluesCog
from engine.thirteen_clues import legal, player_view, public_view
from engine.thirteen_clues.state import Edition
from testkit.positions import game_states
from tests.toy.cog import ToyCog

GENERIC = {"join", "leave", "add-ai", "start", "end", "status", "hand", "log", "rules",
           "replay", "watch", "sit"}


def commands_of(cog: type[TableCog]) -> set[str]:
    return {c.name for c in cog.__cog_app_commands__}


def own_commands(cog: type[TableCog]) -> set[str]:
    """The commands a game's cog defines itself (not inherited from the generic cog)."""
    return {c.name for c in cog.__cog_app_commands__
            if isinstance(c, app_commands.Command)
            and c.callback.__qualname__.split(".")[0] == cog.__name__}


def test_the_generic_cog_holds_the_lobby_and_the_looks() -> None:
    assert commands_of(TableCog) == GENERIC


@pytest.mark.parametrize(
    ("cog", "group", "own"),
    [
        (ThirteenCluesCog, "13clues",
         {"new", "pass", "ask", "informant", "accuse", "take", "casebook", "review"}),
        (MansionCog, "mansion", {"new", "turn", "accuse", "notes", "review"}),
        (ToyCog, "toy", {"new"}),
    ],
)
def test_a_game_cog_is_the_generic_group_plus_its_own_commands(
    cog: type[TableCog], group: str, own: set[str]
) -> None:
    assert cog.__cog_group_name__ == group
    assert commands_of(cog) == GENERIC | own
    assert own_commands(cog) == own


# --- the shell's buttons -----------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["13c", "man", "toy"])
@pytest.mark.parametrize("verb", sorted(TableButton.LOOK))
async def test_a_table_button_reads_back_its_own_custom_id(prefix: str, verb: str) -> None:
    written = TableButton(prefix, verb, 987654321012345678)
    cid = written.item.custom_id
    assert cid is not None and len(cid) <= 100
    match = TableButton.__discord_ui_compiled_template__.fullmatch(cid)
    assert match is not None, cid
    read = await TableButton.from_custom_id(_click(cid), written.item, match)
    assert (read.verb, read.table_id) == (verb, 987654321012345678)
    assert read.item.custom_id == cid


@pytest.mark.parametrize(
    "cid", ["13c:steal:1", "13c:join:x", "13c:join:", "13C:join:1", "13c:join:1:2",
            "waytoolongprefix:join:1", "13c:join:1\n"],
)
def test_a_table_button_takes_no_other_custom_id(cid: str) -> None:
    assert TableButton.__discord_ui_compiled_template__.fullmatch(cid) is None


def _click(custom_id: str, kind: int = 2, on_message: list[tuple[str, int]] | None = None
           ) -> Any:
    """A component interaction as `routed` reads it: its data and its message's rows."""
    rows = [SimpleNamespace(children=[
        SimpleNamespace(custom_id=c, type=SimpleNamespace(value=k)) for c, k in on_message
    ])] if on_message is not None else []
    return SimpleNamespace(data={"custom_id": custom_id, "component_type": kind},
                           message=SimpleNamespace(components=rows))


def test_routed_needs_a_family_and_the_component_on_the_message() -> None:
    families: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TableButton, *FAMILIES)
    cid = "13c:join:5"
    assert routed(families, _click(cid, on_message=[(cid, 2)]))
    assert not routed(families, _click(cid, on_message=[]))  # not on the message
    assert not routed(families, _click(cid, kind=3, on_message=[(cid, 2)]))  # another type
    assert not routed(families, _click("13c:nope:5", on_message=[("13c:nope:5", 2)]))
    assert not routed((), _click(cid, on_message=[(cid, 2)]))


# --- 13 Clues' families ------------------------------------------------------------------


def _custom_ids(out: Outgoing | discord.ui.View | None) -> list[str]:
    rows: list[dict[str, Any]] = []
    if isinstance(out, Outgoing):
        rows = out.components
    elif out is not None:
        rows = out.to_components()
    found: list[str] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if "custom_id" in item:
                found.append(item["custom_id"])
            walk(item.get("components", []))

    walk(rows)
    return found


def _table(players: int, edition: str, assist: str = "full", top_secret: bool = False,
           version: int = 41) -> Table:
    return Table(id=987654321012345678, guild_id=1, channel_id=2, game="13clues",
                 status="playing", host_id=1,
                 options={"edition": edition, "assist": assist, "top_secret": top_secret},
                 seats=[SeatRef(name=f"P{i}", user_id=i + 1) for i in range(players)],
                 version=version)


def test_every_13_clues_custom_id_is_handled_by_exactly_one_family() -> None:
    families: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TableButton, *FAMILIES)
    templates = [f.__discord_ui_compiled_template__ for f in families]
    seen: set[str] = set()
    rng = random.Random(3)
    lobby = _table(3, "2020").model_copy(update={"status": "lobby"})
    outs: list[Outgoing | discord.ui.View | None] = [GAME.table_message(lobby, None, lang="en")]
    tables: list[tuple[int, Edition, str, bool]] = [
        (2, "2016", "off", False), (3, "2020", "full", True), (5, "2016", "bookkeeping", True)]
    for players, edition, assist, secret in tables:
        table = _table(players, edition, assist, secret)
        for state in game_states(players, players, edition=edition, top_secret=secret):
            outs.append(GAME.table_message(table, state, lang="en"))
            for seat in range(players):
                view = player_view(state, seat)
                outs.append(GAME.hand(table, state, seat, lang="en"))
                outs.append(casebook_message(table, view, {}))
                if state.phase != "turns" or state.turn != seat:
                    continue
                sources = legal.take_sources(state, seat)
                if sources:
                    outs.append(components.TakePicker.picker(table, view, sources))
                    continue
                outs.append(components.AskPicker.picker(table, view, AskDraft()))
                outs.append(components.AskPicker.picker(
                    table, view, AskDraft(witness=rng.randrange(players), subject="red",
                                          side="left", top_secret=True)))
                if public_view(state).letters:
                    outs.append(components.InformantPicker.picker(table, view))
                choices = legal.accusation_choices(state, seat)
                draft = [rng.choice(c) if c else None for c in choices.values()]
                outs.append(AccusePicker.picker(table, state, seat, draft))
    for out in outs:
        for cid in _custom_ids(out):
            assert len(cid) <= 100, cid
            matches = [t.pattern for t in templates if t.fullmatch(cid)]
            assert len(matches) == 1, (cid, matches)
            seen.add(cid.split(":")[1])
    assert {"join", "leave", "start", "hand", "pass", "ask", "inf", "acc", "book", "askw",
            "asks", "askd", "askt", "askgo", "infgo", "accp", "accl", "accw", "accgo",
            "mark"} <= seen, seen


def test_13_clues_drafts_read_back_only_what_a_picker_writes() -> None:
    draft = AskDraft(witness=2, subject="up_close", side="right", top_secret=True)
    assert AskDraft.decode(draft.encode()) == draft
    assert AskDraft.decode(AskDraft().encode()) == AskDraft()
    assert AskDraft.decode("12.red.left.1") == AskDraft(subject="red", side="left",
                                                         top_secret=True)
    assert AskDraft.decode("1.nothing.up.0") == AskDraft(witness=1)
    assert AskDraft.decode("1.red") == AskDraft()
    assert AccusePicker.decode("_._._") == [None, None, None]
    assert AccusePicker.decode("x" * 40 + ".a.b") == [None, None, None]
    assert AccusePicker.decode("a.b") == [None, None, None]
    cid = custom_id("accgo", 5, 9, "_._._")
    assert re.fullmatch(AccusePicker.__discord_ui_compiled_template__, cid)
