"""`python -m bot demo`: a complete game of AI players with no Discord and no token.

It asks the registry for the game and plays it through the game's own plug: the same
start, AI moves, engine and rendering the bot uses. It prints what the channel would show
and, per seat, what its DMs would say.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from bot import i18n
from bot.i18n import tr
from bot.models import SeatRef, Table
from bot.plug import AnyGame
from bot.registry import GAMES

NAMES = ("Holmes", "Poirot", "Marple", "Dupin", "Wolfe", "Vance")
MAX_ACTIONS = 5000


def main(argv: list[str]) -> int:
    games = {g.key: g for g in GAMES}
    parser = argparse.ArgumentParser(prog="python -m bot demo", description=__doc__,
                                     add_help=False)  # the help waits for the game's options
    parser.add_argument("--game", choices=sorted(games), default=GAMES[0].key)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--quiet-dms", action="store_true", help="print only the channel")
    parser.add_argument("--language", choices=i18n.languages(), default=i18n.SOURCE,
                        help="the language the channel and the DMs are written in")
    game = games[parser.parse_known_args(argv)[0].game]
    parser.add_argument("-h", "--help", action="help", help="this help, with --game's options")
    parser.add_argument("--level", choices=game.ai_levels, default=game.ai_levels[-1],
                        help=f"{game.title}'s AI levels")
    options = game.settings.own_options()
    for name, values in options.items():
        flag = "--" + name.replace("_", "-")
        if set(values) == {"true", "false"}:
            parser.add_argument(flag, dest=name, action="store_true", default=None,
                                help=f"{game.title}: {name.replace('_', ' ')}")
        else:
            parser.add_argument(flag, dest=name, choices=list(values), default=None,
                                help=f"{game.title}: {name.replace('_', ' ')}")
    args = parser.parse_args(argv)
    if not game.min_players <= args.players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players}–{game.max_players} players")
    given = {name: values["true"] if chosen is True else values[chosen]
             for name, values in options.items() if (chosen := getattr(args, name)) is not None}
    settings = game.settings.merged({}, given)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    seats = [SeatRef(name=n, ai_level=args.level) for n in NAMES[: args.players]]
    table = Table(id=0, guild_id=0, channel_id=0, game=game.key, status="playing", host_id=0,
                  options=settings.model_dump(mode="json"), seats=seats)
    chosen = ", ".join(f"{k} {v}" for k, v in settings.model_dump().items()
                       if k not in ("assist", "turn_minutes"))
    lang = args.language
    print(tr(lang, "{game} demo — {players} AI players ({level}), {chosen}, seed {seed}",
             game=game.title, players=args.players, level=args.level, chosen=chosen,
             seed=seed) + "\n")
    state, events = game.start(seats, settings, seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        _show(game, table, state, events, args.quiet_dms, lang)
        if game.is_over(state):
            break
        seat = game.waiting_on(state)[0]
        state, events = game.apply(state, game.ai_action(state, seat, args.level, rng))
    else:
        print(tr(lang, "The demo stopped after too many actions."))
        return 1
    final = game.table_message(table, state, lang=lang)
    embed = final.embeds[0] if final.embeds else {}
    over = tr(lang, "Game over — {title}", title=embed.get("title", game.title))
    print(f"\n== {over} ==\n{embed.get('description', '')}")
    return 0


def _show(game: AnyGame, table: Table, state: Any, events: list[Any], quiet_dms: bool,
          lang: str) -> None:
    text = game.news(table, state, events, lang=lang)
    if text:
        print(tr(lang, "[#channel]") + " " + text.replace("\n", "\n          "))
    if quiet_dms:
        return
    for seat, ref in enumerate(table.seats):
        dm = game.letter(table, state, events, seat, lang=lang)
        if dm is not None and dm.text:
            to = tr(lang, "[DM to {name}]", name=ref.name)
            print(f"   {to} " + dm.text.replace("\n", "\n      "))
