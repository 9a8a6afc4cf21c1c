"""A throwaway PostgreSQL server for the tests and benchmarks, started with no manual step.

It runs Debian's (or any) PostgreSQL binaries on a unix socket in a fresh directory, never on
the network. PostgreSQL refuses to run as root, so as root its files belong to the
`postgres` user and `initdb`/`pg_ctl` run as that user through `runuser`. Durability is
switched off (`fsync`, `synchronous_commit`): a test server is thrown away at the end.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

PORT = 5432
"""The port names the socket file only (`.s.PGSQL.5432`): nothing listens on TCP."""


class NoPostgres(Exception):
    """No PostgreSQL server could be started; the message says why."""


def binaries() -> Path | None:
    """The directory of initdb and pg_ctl: PG_BINDIR if set (and only it), else Debian's
    newest, else PATH's."""
    wanted = os.environ.get("PG_BINDIR")
    if wanted:
        return Path(wanted) if (Path(wanted) / "initdb").exists() else None
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                         key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0,
                         reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).parent))
    for folder in candidates:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


@dataclass
class PostgresServer:
    root: Path
    bindir: Path
    owner: str | None
    """The user the server runs as (None: ourselves, when we are not root)."""
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def socket_dir(self) -> Path:
        return self.root / "run"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={PORT}"

    async def fresh_database(self, prefix: str = "t") -> str:
        """A new empty database's URL (each test its own: nothing leaks between them)."""
        name = f"{prefix}{os.getpid()}_{next(self._names)}"
        con = await asyncpg.connect(self.url())
        try:
            await con.execute(f'CREATE DATABASE "{name}"')
        finally:
            await con.close()
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w",
                      "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def _run(self, tool: str, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / tool), *args]
        if self.owner is not None:
            command = ["runuser", "-u", self.owner, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=True,
                              timeout=120)


def start() -> PostgresServer:
    """Initialise and start a server in a new directory; NoPostgres says why it cannot."""
    bindir = binaries()
    if bindir is None:
        raise NoPostgres(
            "no PostgreSQL binaries (initdb, pg_ctl) were found in PG_BINDIR, under"
            " /usr/lib/postgresql/*/bin or on PATH: install them (`apt-get install -y"
            " postgresql`, as .ci/run does)"
        )
    owner = None
    if os.geteuid() == 0:
        owner = "postgres"
        try:
            pwd.getpwnam(owner)
        except KeyError as exc:
            raise NoPostgres("running as root, and there is no `postgres` user to run "
                             "PostgreSQL as (it refuses to run as root)") from exc
    root = Path(tempfile.mkdtemp(prefix="pg"))
    server = PostgresServer(root, bindir, owner)
    (root / "run").mkdir()
    if owner is not None:
        entry = pwd.getpwnam(owner)
        for path in (root, root / "run"):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    data = str(root / "data")
    options = (f"-c listen_addresses='' -c unix_socket_directories='{root / 'run'}'"
               f" -c port={PORT} -c fsync=off -c synchronous_commit=off"
               " -c full_page_writes=off -c shared_buffers=16MB -c max_connections=200")
    try:
        server._run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                    "--no-sync")
        server._run("pg_ctl", "-D", data, "-l", str(root / "log"), "-o", options, "-w",
                    "start")
    except subprocess.CalledProcessError as exc:
        log = ""
        with contextlib.suppress(OSError):
            log = (root / "log").read_text()[-2000:]
        server.stop()
        raise NoPostgres(f"{exc.cmd[-1] if exc.cmd else 'PostgreSQL'} failed: "
                         f"{exc.stderr.strip()[-2000:]} {log}".strip()) from exc
    except (OSError, subprocess.TimeoutExpired) as exc:
        server.stop()
        raise NoPostgres(f"PostgreSQL could not be started: {exc}") from exc
    return server
