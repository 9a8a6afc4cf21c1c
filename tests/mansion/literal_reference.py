"""The coach's reference as it was written first (one deal at a time, every play read per
deal), kept verbatim as the oracle `tests/mansion/test_coach.py` holds the fast
`bruteforce.play_left` to: both must give every play the same figure."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

from engine.mansion import actions as act
from engine.mansion.bruteforce import TripleIds, _order, _tip_answers, brute_force
from engine.mansion.cards import ACTIONS, CLUES, matches
from engine.mansion.coach import move_key
from engine.mansion.coach import plays as coach_plays
from engine.mansion.outcomes import all_snoop_target
from engine.mansion.views import PlayerView


def literal_play_left(view: PlayerView, budget: int = 200_000) -> dict[tuple[str, ...], float]:
    """Every play open to `view.seat` (named as `coach.move_key` names them) with the expected
    number of possible solutions left once its outcome is known, the literal way: over every
    consistent deal, each outcome the rules allow (a refuter, a Super Sleuth answerer or a
    tip's target choosing among its answers alike), a solution counting as left after an
    outcome when some deal with it gives that outcome."""
    plays = [(move_key(p), _outcomes(view, p)) for p in coach_plays(view)]
    weight: dict[tuple[str, ...], dict[object, float]] = {key: {} for key, _ in plays}
    support: dict[tuple[str, ...], dict[object, set[TripleIds]]] = {key: {} for key, _ in plays}
    deals = [0]

    def visit(hands: dict[int, frozenset[str]], triple: TripleIds) -> None:
        deals[0] += 1
        for key, outcomes in plays:
            weights, seen = weight[key], support[key]
            for outcome, chance in outcomes(hands):
                weights[outcome] = weights.get(outcome, 0.0) + chance
                found = seen.get(outcome)
                if found is None:
                    seen[outcome] = {triple}
                else:
                    found.add(triple)

    brute_force(view, budget, visit)
    return {
        key: sum(w * len(support[key][o]) for o, w in weight[key].items()) / deals[0]
        for key in weight
    }


Outcomes = Callable[[dict[int, frozenset[str]]], list[tuple[object, float]]]


def _outcomes(view: PlayerView, play: act.Action) -> Outcomes:
    """What `view.seat` may see after `play` in a deal, with each outcome's chance: the
    play's own reading of a deal, set up once (a deal is read for every play)."""
    me = view.seat
    match play:
        case act.SuggestAny() | act.SuggestPresent():
            where = play.destination if isinstance(play, act.SuggestAny) else view.seats[me].marker
            named = frozenset({play.suspect, play.vehicle, where})
            order = _order(view, me)

            def suggestion(hands: dict[int, frozenset[str]]) -> list[tuple[object, float]]:
                for seat in order:
                    hit = named & hands[seat]
                    if hit:
                        held = sorted(hit)
                        return [((seat, c), 1 / len(held)) for c in held]
                return [(None, 1.0)]

            return suggestion
        case act.Snoop() | act.AllSnoop():
            target = (play.target if isinstance(play, act.Snoop)
                      else all_snoop_target(view, play.card))

            def snoop(hands: dict[int, frozenset[str]]) -> list[tuple[object, float]]:
                hand = sorted(hands[target])
                return [(c, 1 / len(hand)) for c in hand] if hand else [(None, 1.0)]

            return snoop
        case act.SuperSleuth():
            feature = frozenset(c for c in CLUES if matches(c, ACTIONS[play.card]))
            answerers = _order_clockwise(view, me)

            def sleuth(hands: dict[int, frozenset[str]]) -> list[tuple[object, float]]:
                choices: list[list[tuple[int, str | None]]] = []
                chance = 1.0
                for seat in answerers:
                    held = sorted(feature & hands[seat])
                    choices.append([(seat, c) for c in held] or [(seat, None)])
                    chance /= len(choices[-1])
                return [(combo, chance) for combo in product(*choices)]

            return sleuth
        case act.PrivateTip():
            tip, tipped = play.card, play.target

            def private_tip(hands: dict[int, frozenset[str]]) -> list[tuple[object, float]]:
                answers = _tip_answers(hands[tipped], tip)
                return [(tuple(sorted(a)), 1 / len(answers)) for a in answers]

            return private_tip
        case _:  # the PRESENT card's move: nothing learned
            return lambda hands: [(None, 1.0)]


def _order_clockwise(view: PlayerView, seat: int) -> list[int]:
    n = len(view.seats)
    return [(seat + k) % n for k in range(1, n)]
