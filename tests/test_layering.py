"""The architecture, read from the imports: cogs talk to the shell only (never to an engine,
to rendering or to storage), the engine imports nothing of the bot, and no module of the bot
imports a cog."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports(folder: str) -> dict[str, set[str]]:
    """module path → every module it imports (absolute names)."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


def offenders(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{module} imports {name}"
        for module, names in imports(folder).items()
        for name in sorted(names)
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


def rendering() -> tuple[str, ...]:
    """Every game's rendering package, and the picture drawing."""
    games = [p.parent.parent.name for p in (ROOT / "bot").glob("*/render/__init__.py")]
    return (*(f"bot.{g}.render" for g in games), "bot.pictures")


def test_cogs_import_no_engine_rendering_or_storage() -> None:
    assert offenders("cogs", ("engine", "bot.storage", "aiosqlite", *rendering())) == []


def test_the_engine_imports_nothing_of_the_bot() -> None:
    assert offenders("engine", ("bot", "cogs", "discord", "aiosqlite")) == []


def test_the_shell_imports_no_cog() -> None:
    assert offenders("bot", ("cogs",)) == []


def test_the_scan_sees_what_it_forbids() -> None:
    """A check that finds nothing must be able to find something."""
    assert "bot.thirteen_clues.render" in rendering()
    assert any("engine.thirteen_clues" in names for names in imports("bot").values())
