"""The coach (Mansion): its top play against the true best by brute force, its figures'
error, and its time to rank. Run through `python -m bench.coach --game mansion`.

1. Agreement: seeded random positions (3 to 5 players, both variants, 10 to 60 random
   actions), seen by the seat that is to play. `coach.advise` ranks every play;
   `bruteforce.play_left` computes every play's expected possible solutions left the literal
   way (every consistent deal, every outcome the rules allow). The coach agrees when its
   top play is a best one by brute force (ties count); regret is the brute-force figure of
   its top play minus the best. Positions beyond the enumerator's budget are drawn again,
   and counted. Position k has its own seeded generator, so the figures are the same
   whatever `--workers` spreads them over. The coach samples its outcome chances and
   counts only what an outcome removes at once, so its figures differ from the literal
   ones: the error over every play ranked (|coach - brute force|, in possible solutions)
   is printed too.
2. Time to rank: `advise` on positions of 3, 4 and 5 players, as the bot calls it (one call,
   time.perf_counter): median, p99, max. The target is p99 <= 200 ms at five.
3. Time of one member's review at the end of a game (normal AIs, 3 and 5 players): the
   work the bot does in its thinkers' pool once per member when a game ends.
4. The end's wait: how long the action that ends a 5-player game waits for its five
   members' reviews (`end_wait`, as `slow_letters` renders them, one after another).
"""

from __future__ import annotations

import multiprocessing
import random
import time

from bench.coach import Tally, rank_times, review_times
from bench.figures import ms_spread
from bot.mansion.game import GAME
from engine.mansion import legal
from engine.mansion.ai import choose_action
from engine.mansion.bruteforce import TooLarge, play_left, playing_position
from engine.mansion.coach import advise, move_key
from engine.mansion.events import Event
from engine.mansion.review import review
from engine.mansion.rules import apply, new_game
from engine.mansion.state import GameState, Options, PlayerRef
from engine.mansion.views import player_view

BUDGET = 30_000
Figures = tuple[int, float, list[float], int] | None
"""One position's (players, regret, errors, solutions possible); None beyond the budget."""


def compare(job: tuple[int, int]) -> Figures:
    """Position `number` of the run seeded `seed`: its own seeded generator, so the figures
    do not depend on how the positions are spread over workers."""
    seed, number = job
    rng = random.Random(f"mansion-coach:{seed}:{number}")
    players = rng.choice([3, 4, 5])
    view = playing_position(rng, players)
    try:
        reference = play_left(view, budget=BUDGET)
    except TooLarge:
        return None
    advice = advise(view)
    errors = [abs(r.left - reference[move_key(r.move)]) for r in advice.ranked]
    regret = reference[move_key(advice.ranked[0].move)] - min(reference.values())
    return players, regret, errors, advice.solutions


def agreement(count: int, seed: int, workers: int = 1) -> None:
    tally = Tally("possible solutions")
    started = time.perf_counter()
    with multiprocessing.Pool(workers) as pool:
        jobs = [(seed, number) for number in range(20 * count)]  # ample: ~70% are beyond
        for figures in pool.imap(compare, jobs, chunksize=2):
            tally.drawn += 1
            if figures is None:
                tally.too_large += 1
                continue
            tally.add(*figures)
            if tally.done() % 100 == 0:
                print(f"  ... {tally.done()} positions: {sum(tally.agree.values())} agree "
                      f"({time.perf_counter() - started:.0f} s)", flush=True)
            if tally.done() >= count:
                break
    tally.print("mansion agreement", BUDGET, time.perf_counter() - started)


def timing(count: int, seed: int) -> None:
    rank_times("mansion time to rank", (3, 4, 5), count, seed, playing_position, advise)


def reviews(games: int, seed: int) -> None:
    def played(players: int, number: int) -> GameState:
        return _ended(players, seed * 1000 + number, random.Random(number))[0]

    review_times("mansion: one member's review", (3, 5), games, played, review)


def end_wait(games: int, seed: int, players: int = 5) -> None:
    """How long the action that ends a game waits for its reviews: before its change is
    stored, the table service works out every member's review DM (`slow_letters`), one
    member after another; here every seat is a member. Timed in this process (the bot's
    pool adds the state's pickling, per member)."""
    samples = []
    for number in range(games):
        state, events = _ended(players, seed * 1000 + number, random.Random(number))
        work = GAME.slow_letters(state, events)
        assert work is not None, "the end of a game owes its reviews"
        start = time.perf_counter()
        for seat in range(players):
            work({seat: "en"})
        samples.append(time.perf_counter() - start)
    median, p99, worst = ms_spread(samples)
    print(f"mansion: the end's wait for {players} members' reviews ({games} games): median "
          f"{median}, p99 {p99}, max {worst}")


def _ended(players: int, seed: int, rng: random.Random) -> tuple[GameState, list[Event]]:
    """A game of normal AIs, to its end, with the events of its last action."""
    state, events = new_game([PlayerRef(id=str(i), name=str(i)) for i in range(players)],
                             Options(players=players), seed)
    while state.phase != "over":
        seat = legal.waiting_on(state)[0]
        state, events = apply(state, choose_action(player_view(state, seat), "normal", rng))
    return state, events
