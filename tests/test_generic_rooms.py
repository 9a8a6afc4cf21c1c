"""The generic rooms name no game: bot/*.py (but the registry), cogs/general.py and
cogs/table.py hold no game's command, key, custom_id prefix or option in their code. Texts
that name a command build it from the registry; choices come from each game's settings model.
Comments and docstrings may give examples; strings and names the code runs may not."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.plug import AnyGame
from bot.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]


def generic_rooms(root: Path = ROOT) -> list[Path]:
    rooms = [p for p in sorted((root / "bot").glob("*.py")) if p.name != "registry.py"]
    return [*rooms, root / "cogs" / "general.py", root / "cogs" / "table.py"]


def game_words(games: tuple[AnyGame, ...] = GAMES) -> tuple[set[str], set[str]]:
    """What would name a game: its key, command, custom_id prefix and AI levels (in any
    text), its own options (as a name in the code, or as a whole word in a string)."""
    names = {w for g in games for w in (g.key, g.command, g.prefix, *g.ai_levels)}
    options = {o for g in games for o in g.settings.own_options()}
    return names, options


def _texts(tree: ast.AST) -> set[int]:
    """The ids of bare string statements (docstrings, attribute notes): never shown."""
    return {id(n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}


def naming(path: Path, names: set[str], options: set[str]) -> list[str]:
    """Every place in `path`'s code that names a game, as `file:line what`."""
    tree = ast.parse(path.read_text(), str(path))
    notes = _texts(tree)
    word = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names | options))) + r")\b")
    found: list[str] = []
    for node in ast.walk(tree):
        seen: str | None = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in notes:
            if (hit := word.search(node.value)) is not None:
                seen = hit.group(1)
        elif isinstance(node, ast.Name) and node.id in options:
            seen = node.id
        elif isinstance(node, ast.Attribute) and node.attr in options:
            seen = node.attr
        elif isinstance(node, ast.arg | ast.keyword) and node.arg in options:
            seen = node.arg
        if seen is not None:
            line = getattr(node, "lineno", 0)
            found.append(f"{path.relative_to(path.parents[1])}:{line} {seen}")
    return sorted(found, key=lambda hit: (int(hit.split(":")[1].split()[0]), hit))


def test_generic_rooms_name_no_game() -> None:
    names, options = game_words()
    assert [hit for room in generic_rooms() for hit in naming(room, names, options)] == []


def test_the_scan_knows_every_game_and_finds_what_it_forbids(tmp_path: Path) -> None:
    """A check that finds nothing must be able to find something: the registry's words, and
    each form a game's name could hide in, but not a comment or a docstring."""
    names, options = game_words()
    assert {"13clues", "mansion", "13c", "mbm", "easy", "normal", "expert"} <= names
    assert {"edition", "top_secret", "variant", "series"} <= options
    rooms = {str(p.relative_to(ROOT)) for p in generic_rooms()}
    assert {"bot/tables.py", "bot/components.py", "bot/demo.py", "cogs/general.py",
            "cogs/table.py"} <= rooms and "bot/registry.py" not in rooms
    (tmp_path / "bot").mkdir()
    planted = tmp_path / "bot" / "room.py"
    planted.write_text(
        '"""Docstring: `/13clues status` is an example."""\n'
        "# a comment naming /mansion\n"
        'HINT = "use `/13clues status`"\n'
        "def f(edition: str) -> None:\n"
        "    x.variant\n"
        "    g(top_secret=True)\n"
        "    series = 1\n"
        "    ok = 'the mansion'\n"
        "    level: Literal['easy', 'expert'] = 'easy'\n"
        "    cid = f'mbm:join:{table_id}'\n"
    )
    assert naming(planted, names, options) == [
        "bot/room.py:3 13clues", "bot/room.py:4 edition", "bot/room.py:5 variant",
        "bot/room.py:6 top_secret", "bot/room.py:7 series", "bot/room.py:8 mansion",
        "bot/room.py:9 easy", "bot/room.py:9 easy", "bot/room.py:9 expert",
        "bot/room.py:10 mbm",
    ]
