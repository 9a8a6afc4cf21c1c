"""Run a bot in this process against a stand-in: `python -m testkit.standin.botproc`.

    python -m testkit.standin.botproc --standin http://127.0.0.1:PORT \\
        [--entry bot.__main__:main] [--slow-ready] [-- ARGS...]

Points discord.py's REST base (`Route.BASE`) and gateway URL at the stand-in, then calls the
entry point with ARGS. The default entry is the project's own `bot.__main__.main`, so the bot
starts exactly as `python -m bot` would (its signal handling included), reading
DISCORD_TOKEN, DATABASE_PATH, AI_DELAY_SECONDS, ... from the environment. Crash tests SIGKILL
this process; benchmarks keep the stand-in's cost out of the bot's process.

Only loopback addresses are accepted: nothing here may talk to the real Discord.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from typing import Any

import discord
import yarl

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
FAST_GUILD_READY = 0.05
"""guild_ready_timeout in the child (discord.py's default 2 s only delays READY here)."""


def install(standin_url: str, *, fast_ready: bool = True) -> None:
    """Point discord.py in this process at the stand-in at `standin_url`."""
    url = yarl.URL(standin_url)
    if url.host not in LOOPBACK or url.port is None:
        raise SystemExit(f"refusing a stand-in URL that is not loopback with a port: {url}")
    discord.http.Route.BASE = str(url.with_path("/api/v10"))
    gateway = url.with_scheme("wss" if url.scheme == "https" else "ws").with_path("/gateway")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
    if fast_ready:
        _shorten_guild_ready()


def _shorten_guild_ready() -> None:
    """Lower guild_ready_timeout for every client built here (as run_bot does in-process)."""
    state_cls: Any = discord.state.ConnectionState
    original = state_cls.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.guild_ready_timeout = min(self.guild_ready_timeout, FAST_GUILD_READY)

    state_cls.__init__ = init


def load_entry(spec: str) -> Callable[[list[str]], Any]:
    """`module:function` (function defaults to `main`)."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name or "main")  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m testkit.standin.botproc")
    parser.add_argument("--standin", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--entry", default="bot.__main__:main", help="module:function")
    parser.add_argument("--slow-ready", action="store_true", help="keep guild_ready_timeout")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args(argv)
    install(ns.standin, fast_ready=not ns.slow_ready)
    args = list(ns.args[1:] if ns.args[:1] == ["--"] else ns.args)
    result = load_entry(ns.entry)(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
