"""The architecture, read from the imports: cogs talk to the shell only (never to an engine,
to rendering or to storage), the engine imports nothing of the bot, no module of the bot
imports a cog, no import circle runs through the engine or the shell, and the shell stands in
layers, each importing only itself and the layers below it (docs/architecture.md)."""

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


def module_name(path: str) -> str:
    """`engine/mansion/legal.py` → `engine.mansion.legal`; a package is its `__init__`."""
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(folder: str, root: Path = ROOT) -> dict[str, set[str]]:
    """module → the modules of `folder` it imports, wherever the import stands (top level,
    inside a function, under `if TYPE_CHECKING:`). Each import points at the module it names:
    `from a import b` at `a.b` when that is a module, else at `a`; `import a.b` at `a.b`.
    A package's `__init__` running before its submodules is not an edge (every package that
    re-exports would be a circle), so `from a import b` inside `a/` is no circle by itself."""
    graph: dict[str, set[str]] = {}
    paths = sorted((root / folder).rglob("*.py"))
    known = {module_name(str(p.relative_to(root))) for p in paths}
    for path in paths:
        name = module_name(str(path.relative_to(root)))
        package = list(path.relative_to(root).parts[:-1])
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:
                    full = f"{module}.{alias.name}"
                    edges.add(full if full in known else module)
        graph[name] = (edges & known) - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import each other, directly or around a loop (the
    strongly connected components of more than one module), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            group = []
            while (top := stack.pop()) != module:
                group.append(top)
            if group:
                found.append(sorted([*group, module]))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return sorted(found)


def loop(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """One way around a circle: from its first module along imports inside the group back to
    it, e.g. `[a, b, a]` (what a failing test prints, to say which import to cut)."""
    start, inside = group[0], set(group)
    paths = {start: [start]}
    todo = [start]
    while todo:
        module = todo.pop(0)
        for target in sorted(graph[module] & inside):
            if target == start:
                return [*paths[module], start]
            if target not in paths:
                paths[target] = [*paths[module], target]
                todo.append(target)
    return group


def described(graph: dict[str, set[str]]) -> list[str]:
    """Each circle of `graph` as one readable loop, `a → b → a`, and the modules it takes
    in when they are more than that loop."""
    found = []
    for group in circles(graph):
        path = loop(graph, group)
        rest = sorted(set(group) - set(path))
        found.append(" → ".join(path) + (f" (with {', '.join(rest)})" if rest else ""))
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


def shell_layers() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The shell's layers, lowest first; a module belongs to the layer naming it or the
    package holding it. Each game's folder is one block, plugged in by the registry above it
    (its `game.py` names its components, which act through the interactions below)."""
    return (
        ("foundations", ("bot", "bot.i18n", "bot.errors", "bot.messages", "bot.models",
                         "bot.message_tokens", "bot.workers", "bot.pictures", "bot.translator",
                         "bot.reasons", "bot.parsed", "bot.collector", "bot.turns",
                         "bot.urgency")),
        ("transport", ("bot.pacing", "bot.drawings", "bot.transport")),
        ("storage", ("bot.storage", "bot.lease", "bot.languages")),
        ("outbox and timers", ("bot.outbox", "bot.timers")),
        ("table service", ("bot.plug", "bot.components", "bot.news", "bot.spectators",
                           "bot.tables", "bot.world_changes")),
        ("interactions", ("bot.interactions", "bot.family", "bot.lobby", "bot.thinking",
                          "bot.reviews", "bot.sitting", "bot.watching", "bot.archive",
                          "bot.replay", "bot.history")),
        ("games", tuple(f"bot.{game}" for game in games())),
        ("registry", ("bot.registry",)),
        ("client", ("bot.client", "bot.world", "bot.demo", "bot.config", "bot.locales",
                    "bot.__main__")),
    )


def layer_of(module: str, layers: tuple[tuple[str, tuple[str, ...]], ...]) -> int | None:
    """The index of the layer `module` belongs to (the longest name that holds it; `bot`
    names the package's `__init__` alone)."""
    found: tuple[int, int] | None = None
    for index, (_, names) in enumerate(layers):
        for name in names:
            holds = module == name or (name != "bot" and module.startswith(name + "."))
            if holds and (found is None or len(name) > found[1]):
                found = (index, len(name))
    return None if found is None else found[0]


def upward(graph: dict[str, set[str]], layers: tuple[tuple[str, tuple[str, ...]], ...]
           ) -> list[str]:
    """Every import that reaches above its module's layer, and every module no layer names."""
    found: list[str] = []
    for module in sorted(graph):
        own = layer_of(module, layers)
        if own is None:
            found.append(f"{module} is in no layer: add it to shell_layers()")
            continue
        for target in sorted(graph[module]):
            theirs = layer_of(target, layers)
            if theirs is not None and theirs > own:
                found.append(f"{module} ({layers[own][0]}) imports {target} "
                             f"({layers[theirs][0]})")
    return found


def test_cogs_import_no_engine_rendering_or_storage() -> None:
    assert offenders("cogs", ("engine", "bot.storage", "aiosqlite", *rendering())) == []


def test_the_engine_imports_nothing_of_the_bot() -> None:
    assert offenders("engine", ("bot", "cogs", "discord", "aiosqlite")) == []


def test_no_import_circle_in_the_engine() -> None:
    assert circles(import_graph("engine")) == []


def test_no_import_circle_in_the_shell() -> None:
    """TYPE_CHECKING and function-local imports included: they hide a dependency, not
    remove it."""
    graph = import_graph("bot")
    assert described(graph) == [], "\n".join(["import circles in bot/:", *described(graph)])


def test_the_shell_stands_in_layers() -> None:
    """Each module imports only its own layer and those below it (and its own layer without
    a circle, checked above)."""
    found = upward(import_graph("bot"), shell_layers())
    assert found == [], "\n".join(["imports against the shell's layers:", *found])


def test_the_shell_imports_no_cog() -> None:
    assert offenders("bot", ("cogs",)) == []


def test_benches_and_the_testkit_import_nothing_from_tests() -> None:
    """bench/ and testkit/ (the stand-in, the drivers, the audits) are what tests and benches
    share: they import nothing from tests/."""
    assert offenders("bench", ("tests",)) == []
    assert offenders("testkit", ("tests",)) == []
    assert offenders("testkit", ("bench",)) == []


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


def test_the_circle_check_finds_planted_circles(tmp_path: Path) -> None:
    """A circle closed by a function-local import, one closed under TYPE_CHECKING and one
    through a package's submodule are all found; re-exports from `__init__` are not circles."""
    pkg = tmp_path / "engine" / "game"
    pkg.mkdir(parents=True)
    (tmp_path / "engine" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from engine.game.state import State\n")
    (pkg / "state.py").write_text(
        "def f() -> None:\n    from engine.game.legal import must\n"
    )
    (pkg / "legal.py").write_text("from engine.game import state\n")
    (pkg / "views.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .actions import A\n"
    )
    (pkg / "actions.py").write_text("import engine.game.views\n")
    (pkg / "rules.py").write_text("from engine.game import legal\nfrom engine.game import State\n")
    graph = import_graph("engine", tmp_path)
    assert graph["engine.game.legal"] == {"engine.game.state"}
    assert graph["engine.game.rules"] == {"engine.game", "engine.game.legal"}
    assert circles(graph) == [
        ["engine.game.actions", "engine.game.views"],
        ["engine.game.legal", "engine.game.state"],
    ]


def test_the_shell_checks_find_a_planted_circle_and_an_upward_import(tmp_path: Path) -> None:
    """A circle closed by a function-local import is printed as its loop; an import of a
    higher layer (under TYPE_CHECKING) and a module no layer names are reported."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "__init__.py").write_text("")
    (tmp_path / "bot" / "tables.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.client import B\n"
    )
    (tmp_path / "bot" / "client.py").write_text("from bot import tables\n")
    (tmp_path / "bot" / "outbox.py").write_text("def f() -> None:\n    from bot import news\n")
    (tmp_path / "bot" / "news.py").write_text("import bot.outbox\n")
    (tmp_path / "bot" / "stray.py").write_text("")
    graph = import_graph("bot", tmp_path)
    assert described(graph) == ["bot.client → bot.tables → bot.client",
                                "bot.news → bot.outbox → bot.news"]
    assert upward(graph, shell_layers()) == [
        "bot.outbox (outbox and timers) imports bot.news (table service)",
        "bot.stray is in no layer: add it to shell_layers()",
        "bot.tables (table service) imports bot.client (client)",
    ]
    assert layer_of("bot.mansion.render.lines", shell_layers()) == \
        layer_of("bot.thirteen_clues.game", shell_layers())
