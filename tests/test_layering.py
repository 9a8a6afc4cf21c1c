"""The architecture, read from the imports: cogs talk to the shell only (never to an engine,
to rendering or to storage), the engine imports nothing of the bot, and no module of the bot
imports a cog."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports(folder: str, root: Path = ROOT) -> dict[str, set[str]]:
    """module path → every module it imports (absolute names). `from a import b` counts as
    both `a` and `a.b` (b may be a module: `from bot import storage`); relative imports are
    resolved against the importing module's package."""
    found: dict[str, set[str]] = {}
    for path in sorted((root / folder).rglob("*.py")):
        package = list(path.relative_to(root).parts[:-1])
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                names.add(module)
                names |= {f"{module}.{alias.name}" for alias in node.names}
        found[str(path.relative_to(root))] = names
    return found


def offenders(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{module} imports {name}"
        for module, names in imports(folder).items()
        for name in sorted(names)
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


def games() -> list[str]:
    """Every game folder of the shell (bot/<game>/game.py)."""
    return sorted(p.parent.name for p in (ROOT / "bot").glob("*/game.py"))


def rendering() -> tuple[str, ...]:
    """Every game's rendering package and picture module, and the picture drawing."""
    return (*(f"bot.{g}.{part}" for g in games() for part in ("render", "pictures")),
            "bot.pictures")


def test_cogs_import_no_engine_rendering_or_storage() -> None:
    assert offenders("cogs", ("engine", "bot.storage", "aiosqlite", *rendering())) == []


def test_the_engine_imports_nothing_of_the_bot() -> None:
    assert offenders("engine", ("bot", "cogs", "discord", "aiosqlite")) == []


def test_the_shell_imports_no_cog() -> None:
    assert offenders("bot", ("cogs",)) == []


def test_the_scan_sees_what_it_forbids() -> None:
    """A check that finds nothing must be able to find something."""
    assert games() == ["mansion", "thirteen_clues"]
    assert {"bot.thirteen_clues.render", "bot.thirteen_clues.pictures",
            "bot.mansion.render"} <= set(rendering())
    cogs, shell = imports("cogs"), imports("bot")
    assert {"cogs/thirteen_clues.py", "cogs/mansion.py", "cogs/table.py"} <= set(cogs)
    assert "bot.mansion.game" in cogs["cogs/mansion.py"]
    for game in games():
        assert any(f"engine.{game}" in names for m, names in shell.items()
                   if m.startswith(f"bot/{game}/"))
    # the forms a forbidden import could hide in are seen
    assert "bot.storage" in shell["bot/client.py"]  # `from bot.storage import SqliteStorage`
    assert any(n.startswith("bot.mansion.render.") for names in shell.values() for n in names)


def test_the_scan_resolves_from_and_relative_imports(tmp_path: Path) -> None:
    """`from bot import storage` and relative imports are seen for what they are."""
    (tmp_path / "cogs" / "sub").mkdir(parents=True)
    (tmp_path / "cogs" / "sub" / "x.py").write_text(
        "from bot import storage\nfrom . import render\nfrom ..engine import rules\n"
    )
    seen = imports("cogs", tmp_path)["cogs/sub/x.py"]
    assert {"bot.storage", "cogs.sub.render", "cogs.engine.rules"} <= seen
