"""mypy --strict checks the seam: a game whose methods do not take its own types is refused
where it is plugged, and a right one is not (one mypy run over a small module)."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[2]

PLUGGED = '''
from bot.plug import AnyGame, plug
from tests.toy.game import HighCard, Shown, State


class Wrong(HighCard):
    def apply(  # type: ignore[override]
            self, state: State, action: int) -> tuple[State, list[Shown]]:
        return state, []


RIGHT: AnyGame = plug(HighCard())
WRONG: AnyGame = plug(Wrong())
'''


def test_a_wrongly_typed_game_fails_type_checking(tmp_path: Path) -> None:
    module = tmp_path / "plugged.py"
    module.write_text(PLUGGED)
    out, err, status = api.run([  # the project's cache: warm after the test command's mypy
        "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache"),
        "--hide-error-context", "--no-pretty", str(module)])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1, out + err
    assert len(errors) == 1, out
    assert f"{module.name}:13: error" in errors[0] and "plug" in errors[0], out
