"""The README's test command is what CI runs, word for word, and it type-checks."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_command() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("Run the tests", 1)[1]
    found = re.search(r"```sh\n(.+?)\n```", section, re.S)
    assert found is not None, "the README's test command is not in a sh block"
    return found[1].strip()


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == _readme_command()


def test_the_test_command_type_checks_before_the_suite() -> None:
    command = _readme_command()
    assert ".venv/bin/ruff check ." in command
    assert command.index(".venv/bin/mypy") < command.index("-m pytest")
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert mypy["strict"] is True
    assert {"bot", "engine", "cogs", "testkit", "bench", "tests"} <= set(mypy["files"])
    silenced = [o["module"] for o in mypy.get("overrides", []) if o.get("ignore_errors")]
    assert silenced == [], "no part of the tree is type-checked with its errors hidden"


def test_no_blanket_type_ignores() -> None:
    """Each ignore names its error code (mypy's `ignore-without-code` spirit)."""
    bare = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("bot", "engine", "cogs", "testkit", "bench", "tests")
        for path in (ROOT / folder).rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"#\s*type:\s*ignore(?!\[)", line)
    ]
    assert bare == []
