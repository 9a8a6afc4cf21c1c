"""`python -m bot` runs the bot; `python -m bot demo` plays an offline game of AI detectives."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from bot import collector, urgency
from bot.config import Config, ConfigError
from bot.workers import pin_loop

NO_TOKEN = """\
No DISCORD_TOKEN is set, so the bot cannot connect to Discord.

To run it on your server:
  1. Create an application at https://discord.com/developers/applications
     and add a Bot to it (Bot → Reset Token → copy the token).
  2. Invite it with the scopes `bot` and `applications.commands` and the permissions
     View Channels, Send Messages, Embed Links, Attach Files, Read Message History:
     https://discord.com/oauth2/authorize?client_id=<APPLICATION_ID>&scope=bot+applications.commands&permissions=117760
  3. Put the token in a file named .env next to README.md:
         DISCORD_TOKEN=your-token-here
     (see .env.example; DATABASE_PATH and DISCORD_GUILD_ID are optional)
  4. Run `python -m bot` again.

To see the game without a token, play the offline demo:
  python -m bot demo
"""


def main(argv: list[str]) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if argv[:1] == ["demo"]:
        from bot.demo import main as demo

        return demo(argv[1:])
    try:
        config = Config.from_env(flags=_flags(argv))
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if config.token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    collector.tune()
    if config.loop_cpu is not None:
        pin_loop(config.loop_cpu)
        logging.getLogger("bot").info("the event loop keeps to CPU %d", config.loop_cpu)
    return urgency.run(serve(config))


def _flags(argv: list[str]) -> dict[str, str]:
    """The cluster's settings given as flags; they win over the environment's."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bot", description=(
        "Run the bot. Every setting is read from the environment or .env (see .env.example);"
        " a shard cluster's can be given here instead."))
    parser.add_argument("--shard-count", dest="SHARD_COUNT", help="shards of the whole bot")
    parser.add_argument("--shard-ids", dest="SHARD_IDS",
                        help="the shards this process plays, such as 0,1 (needs DATABASE_URL"
                             " unless it is every shard)")
    parser.add_argument("--cluster-size", dest="CLUSTER_SIZE",
                        help="processes sharing the token (default: shard count / shard ids)")
    parser.add_argument("--loop-cpu", dest="LOOP_CPU",
                        help="the CPU this process's event loop keeps to (Linux; for a "
                             "cluster's processes sharing a machine, a core each)")
    given = vars(parser.parse_args(argv))
    return {name: value for name, value in given.items() if value is not None}


async def serve(config: Config) -> int:
    """Run until Discord disconnects for good or SIGTERM/SIGINT asks for a clean stop: the
    changes in flight finish, the outbox gets a few seconds, then the process exits 0."""
    import discord

    from bot.client import DeductionBot
    from bot.lease import LeaseHeld
    from bot.storage import StorageError

    assert config.token is not None
    bot = DeductionBot(config)

    async def settled() -> None:
        """Start-up is over (every shard ready): what it built is kept out of the collector's
        way (`bot.collector`)."""
        bot.remove_listener(settled, "on_ready")
        logging.getLogger("bot").info("start-up done: %d objects frozen out of garbage "
                                      "collection", collector.settle())

    bot.add_listener(settled, "on_ready")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    running = asyncio.create_task(bot.start(config.token), name="bot")
    stopping = asyncio.create_task(stop.wait(), name="signals")
    await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if not running.done():
        logging.getLogger("bot").info("stopping cleanly")
        await bot.close()
    try:
        await running
    except (LeaseHeld, StorageError) as exc:  # SchemaTooNew, or no database to reach
        print(exc, file=sys.stderr)
        await bot.close()
        return 3
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN in .env.", file=sys.stderr)
        await bot.close()
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
