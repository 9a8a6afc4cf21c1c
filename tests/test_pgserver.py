"""The PostgreSQL the tests start themselves: in CI a server that cannot start fails the run
and says why (never a quiet skip); elsewhere its tests are skipped with the reason. And
.ci/run installs the server on a fresh machine, only when it is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NEEDS_POSTGRES = """
def test_needs_postgres(postgres_server):
    assert postgres_server.url()
"""


def run_without_postgres(tmp_path: Path, ci: str) -> subprocess.CompletedProcess[str]:
    """A one-test run that needs the server (the suite's fixture, loaded as a plugin), where
    no binaries can be found."""
    test = tmp_path / "test_needs_postgres.py"
    test.write_text(NEEDS_POSTGRES)
    env = {**os.environ, "CI": ci, "PG_BINDIR": str(tmp_path / "nowhere")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-p",
         "tests.conftest", "-rs", "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"),
         str(test)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


@pytest.mark.parametrize("ci", ["true", ""])
def test_without_postgres_ci_fails_and_elsewhere_skips_with_the_reason(
    tmp_path: Path, ci: str
) -> None:
    done = run_without_postgres(tmp_path, ci)
    out = done.stdout + done.stderr
    if ci:
        assert done.returncode == 1, out
        assert "PostgreSQL is required in CI and could not start" in out, out
    else:
        assert done.returncode == 0, out
        assert "1 skipped" in out and "no PostgreSQL here" in out, out
    assert "no PostgreSQL binaries" in out, out


def test_ci_installs_postgresql_only_when_it_is_missing() -> None:
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")], check=True)
    install = next(i for i, line in enumerate(lines) if "apt-get install -y" in line)
    guard = max(i for i, line in enumerate(lines[:install]) if line.startswith("if "))
    assert "initdb" in lines[guard] and lines[guard].startswith("if ! ")
    assert "fi" in [line.strip() for line in lines[install:]]
    assert 'export CI="${CI:-true}"' in lines  # CI never skips the PostgreSQL tests
