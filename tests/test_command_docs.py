"""Every command a member can type is in the README: a command added to a game's group or to
the general cog without a word in the README fails here (`/help` is checked through the bot,
tests/e2e/test_sit.py)."""

from __future__ import annotations

import re
from pathlib import Path

from discord.ext import commands

from cogs.general import General
from cogs.mansion import MansionCog
from cogs.thirteen_clues import ThirteenCluesCog

ROOT = Path(__file__).resolve().parents[1]


def names(cog: type[commands.Cog]) -> list[str]:
    return [c.name for c in cog.__cog_app_commands__]


def readme_section(start: str, end: str) -> str:
    text = (ROOT / "README.md").read_text()
    return text[text.index(start):text.index(end)]


def test_the_readme_lists_every_command_of_each_group() -> None:
    thirteen = readme_section("13 Clues — one table per channel", "Clue: Mystery Beyond the "
                              "Mansion — one table per channel")
    mansion = readme_section("Clue: Mystery Beyond the Mansion — one table per channel",
                             "General: ")
    general = readme_section("General: ", "## How it is built")
    for cog, section in ((ThirteenCluesCog, thirteen), (MansionCog, mansion)):
        listed = set(re.findall(r"`([a-z-]+)`", section))
        missing = [n for n in names(cog) if n not in listed]
        assert missing == [], (cog.__name__, missing)
    assert [n for n in names(General) if f"`/{n}`" not in general] == []
    assert "Download" in thirteen  # the download is a button of the replay

