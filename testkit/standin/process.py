"""A bot in its own OS process, driven from the test: spawn, SIGKILL, SIGTERM, wait.

The child runs `python -m testkit.standin.botproc` (see there), so it is the project's normal
entry point with a real process boundary: a SIGKILL loses whatever was only in memory, and a
benchmark's stand-in work is not charged to the bot. Its stdout and stderr go to a log file
the test can read (`output()`, `error_lines()`).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

REPO_ROOT = Path(__file__).resolve().parents[2]
_serial = itertools.count(1)
NO_HELPERS = {"AI_WORKERS": "0", "DRAW_WORKERS": "0"}
"""Environment for a bot that thinks and draws in its own process: a start without the
three helper processes `python -m bot` spawns (~2 s of CPU importing the games), for tests
of the bot's own process (the helpers' are tests/process/test_helpers.py's)."""


class BotProcess:
    """One bot process pointed at a stand-in; start() it, then kill/terminate/wait.

    entry: `module:function` called with `args` (default: the project's `bot.__main__.main`).
    env: extra environment (AI_DELAY_SECONDS, ...) over this process's own; DISCORD_TOKEN and
    DATABASE_PATH come from `token` and `database_path`. The working directory (default: the
    database's folder, else a fresh temporary one) keeps a developer's `.env` out of the test.
    """

    def __init__(
        self,
        standin_url: str,
        *,
        entry: str = "bot.__main__:main",
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        token: str = "standin-token",
        database_path: str | Path | None = None,
        workdir: str | Path | None = None,
        fast_ready: bool = True,
        python: str = sys.executable,
    ) -> None:
        self.standin_url = standin_url
        self.entry = entry
        self.args = list(args)
        self.extra_env = dict(env or {})
        self.token = token
        self.database_path = Path(database_path) if database_path is not None else None
        if workdir is not None:
            self.workdir = Path(workdir)
        elif self.database_path is not None:
            self.workdir = self.database_path.parent
        else:
            self.workdir = Path(tempfile.mkdtemp(prefix="standin-bot-"))
        self.fast_ready = fast_ready
        self.python = python
        self.log_path: Path | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._log: IO[bytes] | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def command(self) -> list[str]:
        """The child's argv."""
        cmd = [self.python, "-m", "testkit.standin.botproc", "--standin", self.standin_url]
        cmd += ["--entry", self.entry]
        if not self.fast_ready:
            cmd.append("--slow-ready")
        return [*cmd, "--", *self.args]

    def environment(self) -> dict[str, str]:
        """The child's environment."""
        env = dict(os.environ)
        path = env.get("PYTHONPATH")
        env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + path if path else "")
        env["PYTHONUNBUFFERED"] = "1"
        env["DISCORD_TOKEN"] = self.token
        if self.database_path is not None:
            env["DATABASE_PATH"] = str(self.database_path)
        env.update(self.extra_env)
        return env

    async def start(self) -> None:
        """Spawn the child (returns at once; the stand-in's wait_ready tells when it is up)."""
        if self._proc is not None:
            raise RuntimeError("this BotProcess was already started; make a new one")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = self.workdir / f"botproc-{os.getpid()}-{next(_serial)}.log"
        self._log = self.log_path.open("wb")
        self._proc = await asyncio.create_subprocess_exec(
            *self.command(),
            cwd=self.workdir,
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    @property
    def pid(self) -> int:
        """The child's process id."""
        return self._started().pid

    @property
    def returncode(self) -> int | None:
        """None while running; negative signal number when killed by a signal."""
        return self._started().returncode

    @property
    def running(self) -> bool:
        """Started and not yet exited (as far as asyncio has noticed)."""
        return self._proc is not None and self._proc.returncode is None

    def send_signal(self, sig: int) -> None:
        """Send a signal (ignored if the child already exited)."""
        if self.running:
            self._started().send_signal(sig)

    def kill(self) -> None:
        """SIGKILL: no clean-up runs in the bot, as in a crash or an OOM kill."""
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        """SIGTERM: what a service manager sends to stop the bot."""
        self.send_signal(signal.SIGTERM)

    async def wait(self, timeout: float | None = 10.0) -> int:
        """Wait for the child to exit; its return code."""
        proc = self._started()
        code = await asyncio.wait_for(proc.wait(), timeout)
        self._close_log()
        return code

    async def stop(self, grace: float = 5.0) -> int:
        """SIGTERM, then SIGKILL after `grace` seconds; the return code."""
        if self.running:
            self.terminate()
            try:
                return await self.wait(grace)
            except TimeoutError:
                self.kill()
        return await self.wait(None)

    # -- what it said -----------------------------------------------------------------------

    def output(self) -> str:
        """Everything the child wrote to stdout and stderr so far."""
        if self.log_path is None or not self.log_path.exists():
            return ""
        if self._log is not None:
            self._log.flush()
        return self.log_path.read_text(errors="replace")

    def error_lines(self) -> list[str]:
        """Lines that look like logged errors or tracebacks."""
        marks = (" ERROR ", " CRITICAL ", "Traceback (most recent call last)")
        return [line for line in self.output().splitlines() if any(m in line for m in marks)]

    def _started(self) -> asyncio.subprocess.Process:
        if self._proc is None:
            raise RuntimeError("the bot process was not started")
        return self._proc

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def __repr__(self) -> str:
        if self._proc is None:
            return f"<BotProcess {self.entry} not started>"
        state = f"pid={self._proc.pid} rc={self._proc.returncode}"
        return f"<BotProcess {self.entry} {state}>"
