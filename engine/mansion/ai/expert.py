"""The expert detective: exact notes and the plays expected to teach it the most.

It solves its view exactly (`deduction.py`): the possible solutions and, per card, the
probability of each holder. Every play it could make now (each suggestion with each
destination, and so each marker swap; each snoop, tip and sleuth target) is scored by the
expected information of its outcome, -ln(share of the possible solutions' probability it
leaves): a card it is shown removes every possible solution naming that card; a suggestion
nobody refutes pins the named cards it does not hold, and a refutation after seats that
could not refute pins a named card only the solution may still hold. The chances are
averaged over deals drawn uniformly from those consistent with its view, answerers
choosing the card they show as players do (`outcomes.Shows`: mostly the least revealing).
Snoops are scored exactly from the holder probabilities. The best play wins (keeping a
Suggestion from ANY card for later is worth a little); ties are broken at random. Why
information rather than solutions removed: the race is won by being certain first, and a
play that may settle everything is worth more than one that surely trims a little
(docs/decisions.md, "The experts play on them").

It accuses when certain; in One Against All when the draw pile will run out before its
next turn (a guess beats a sure loss); in the standard game when a rival looks close to
solving (it has seen nearly every card) and its own best guess is likely enough.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.mansion import actions as act
from engine.mansion import choices, legal
from engine.mansion.ai import common
from engine.mansion.cards import ACTIONS, DESTINATIONS, SUSPECTS, VEHICLES
from engine.mansion.choices import ChoiceOdds
from engine.mansion.deduction import Deduction, solve_and_sample
from engine.mansion.facts import INDEX
from engine.mansion.outcomes import Board, Shows
from engine.mansion.views import PlayerView


@dataclass(frozen=True)
class Params:
    samples: int = 64
    """Deals drawn to score plays."""
    rival_seen: int = 16
    """A rival is close once it has seen this many Clue cards (own hand included)."""
    rival_odds: float = 0.5
    """Accuse against a close rival when the likeliest solution is at least this likely."""
    keep_any: float = 0.3
    """Value (solutions) of keeping a Suggestion from ANY card for later over another card."""
    show_model: float = choices.SHOW_MODEL
    """The choice odds' model (`choices`): the likeliest solution and its odds, to accuse."""
    weighted: bool = True
    """Score removed solutions by their probability (scaled to the count) instead of 1.
    4 players, 400 games against three easy: weighted 68.5%, 5.9 own turns to win;
    counted 67.2%, 6.2 turns."""
    pins: bool = True
    """Count what a refutation after seats that could not refute pins (`outcomes.Board`).
    1,000 games against three normal: 42.8% without, 45.3% with."""
    information: bool = True
    """Score each outcome by the information it brings, -ln(share of the worth left),
    rather than the worth it removes (1,000 games: 44.8% alone; with `pins`, 48.9%)."""
    play_model: float = choices.SHOW_MODEL
    """How answerers are expected to choose the card they show, for scoring plays
    (`outcomes.Shows`): 0, all alike; 1, always the least revealing (1,000 games, with
    `pins` and `information`: 1.0, 49.5%)."""


DEFAULT = Params()


def _named(suspect: str, vehicle: str, destination: str) -> tuple[int, int, int]:
    return INDEX[suspect], INDEX[vehicle], INDEX[destination]


def analyse(view: PlayerView, rng: random.Random, params: Params) -> tuple[Board, ChoiceOdds]:
    """The board the plays are scored on, and the choice odds read off the same deals."""
    d, deals = solve_and_sample(view, params.samples, rng)
    odds = choices.weigh(d, deals, choices.choices(view), params.show_model)
    shows = Shows(
        params.play_model,
        {s: frozenset(INDEX[c] for c in cards) for s, cards in choices.shown_by(view).items()},
    )
    board = Board(
        view,
        d,
        deals,
        weighted=params.weighted,
        pins=params.pins,
        shows=shows,
        information=params.information,
    )
    return board, odds


def play(view: PlayerView, rng: random.Random, params: Params = DEFAULT) -> act.Action:
    board, odds = analyse(view, rng, params)
    accuse = _accusation(view, board.d, odds, params)
    if accuse is not None:
        return accuse
    scored: list[tuple[float, float, act.Action]] = []
    hand = legal.playable_cards(view, view.seat)
    me = view.seat
    for card in hand:
        keep = params.keep_any if "suggest_any" in hand and card != "suggest_any" else 0.0
        match ACTIONS[card].effect:
            case "suggest_any":
                for dest in DESTINATIONS:
                    best = _best_pair(board, dest)
                    value, (s, v) = best
                    scored.append(
                        (
                            value,
                            rng.random(),
                            act.SuggestAny(seat=me, destination=dest, suspect=s, vehicle=v),
                        )
                    )
            case "suggest_present":
                marker = view.seats[me].marker
                value, (s, v) = _best_pair(board, marker)
                scored.append(
                    (value + keep, rng.random(), act.SuggestPresent(seat=me, suspect=s, vehicle=v))
                )
                goal = max(
                    legal.move_destinations(view, me),
                    key=lambda x: (board.removes[INDEX[x]], rng.random()),
                )
                scored.append((keep, rng.random(), act.Move(seat=me, destination=goal)))
            case "snoop":
                for target in legal.opponents(view, me):
                    snoop = act.Snoop(seat=me, target=target)
                    scored.append((board.snoop(target) + keep, rng.random(), snoop))
            case "all_snoop":
                scored.append(
                    (board.all_snoop(card) + keep, rng.random(), act.AllSnoop(seat=me, card=card))
                )
            case "super_sleuth":
                scored.append(
                    (board.sleuth(card) + keep, rng.random(), act.SuperSleuth(seat=me, card=card))
                )
            case "private_tip":
                for target in legal.opponents(view, me):
                    scored.append(
                        (
                            board.tip(card, target) + keep,
                            rng.random(),
                            act.PrivateTip(seat=me, card=card, target=target),
                        )
                    )
    return max(scored, key=lambda x: (x[0], x[1]))[2]


def _best_pair(board: Board, destination: str) -> tuple[float, tuple[str, str]]:
    d = INDEX[destination]
    best = (-1.0, ("", ""))
    for s in SUSPECTS:
        for v in VEHICLES:
            value = board.suggestion((INDEX[s], INDEX[v], d))
            if value > best[0]:
                best = (value, (s, v))
    return best


def accuse_or_end(view: PlayerView, rng: random.Random, params: Params = DEFAULT) -> act.Action:
    d, odds = choices.odds(view, params.samples, params.show_model)
    accuse = _accusation(view, d, odds, params, ending=True)
    return accuse or act.EndTurn(seat=view.seat)


def _accusation(
    view: PlayerView, d: Deduction, choice: ChoiceOdds, params: Params, ending: bool = False
) -> act.Accuse | None:
    """Certain; or (once the card is played) the clock runs out before the next turn; or a
    rival is close and the likeliest solution (by the choice odds) likely enough."""
    best = d.certain() or choice.likeliest()[0]
    odds = choice.triple_probability(best)
    if (
        d.certain() is not None
        or (ending and common.last_chance(view))
        or (common.rival_close(view, params.rival_seen) and odds >= params.rival_odds)
    ):
        s, v, dest = best
        return act.Accuse(seat=view.seat, suspect=s, vehicle=v, destination=dest)
    return None
