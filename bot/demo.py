"""`python -m bot demo`: a complete game of AI detectives with no Discord and no token.

It prints what the channel would show and, per seat, what its DMs would say, from the
same rendering code the bot uses.
"""

from __future__ import annotations

import argparse
import random

from bot.thirteen_clues.render.embeds import table_embed
from bot.thirteen_clues.render.lines import channel_text, dm_text
from engine.thirteen_clues import (
    Event,
    GameState,
    Options,
    PlayerRef,
    apply,
    legal,
    new_game,
    player_view,
    public_view,
)
from engine.thirteen_clues.ai import choose_action
from engine.thirteen_clues.state import DEFAULT_EDITION, EDITIONS

NAMES = ("Holmes", "Poirot", "Marple", "Dupin", "Wolfe", "Vance")
MAX_ACTIONS = 2000


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot demo", description=__doc__)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--edition", choices=EDITIONS, default=DEFAULT_EDITION)
    parser.add_argument("--top-secret", action="store_true")
    parser.add_argument("--level", choices=("easy", "normal", "expert"), default="expert")
    parser.add_argument("--quiet-dms", action="store_true", help="print only the channel")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    options = Options(
        players=args.players,
        edition=args.edition,
        top_secret=args.top_secret and args.players > 2,
    )
    players = [PlayerRef(id=f"ai:{n}", name=n) for n in NAMES[: args.players]]
    print(f"13 Clues demo — {args.players} AI detectives ({args.level}), {args.edition} rules, "
          f"seed {seed}\n")
    state, events = new_game(players, options, seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        _show(state, events, args.quiet_dms)
        if state.phase == "over":
            break
        seat = legal.waiting_on(state)[0]
        action = choose_action(player_view(state, seat), args.level, rng)
        state, events = apply(state, action)
    else:
        print("The demo stopped after too many actions.")
        return 1
    embed = table_embed(public_view(state))
    print(f"\n== table: {embed.title} ==\n{embed.description or ''}")
    return 0


def _show(state: GameState, events: list[Event], quiet_dms: bool) -> None:
    text = channel_text(events, public_view(state))
    if text:
        print("[#channel] " + text.replace("\n", "\n          "))
    if quiet_dms:
        return
    for seat, s in enumerate(state.seats):
        dm = dm_text(events, player_view(state, seat))
        if dm:
            print(f"   [DM to {s.name}] " + dm.replace("\n", "\n      "))
