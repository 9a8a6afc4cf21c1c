"""The expert detective: exact deduction (`deduction.solve`) and greedy information gain.

Every question (witness, subject[, side]) and every informant letter is scored by the
expected entropy reduction it brings about the seat's own holder, from the exact answer
spreads of `answers` (it is only counting: each answer is a function of the holder and of
one screen or informant slot). Consultations are private, so they get a small bonus over
public questions, whose answers also teach the opponents.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection
from dataclasses import dataclass

from engine.thirteen_clues import choices, deduction, legal
from engine.thirteen_clues.actions import Accuse, Action, Ask, Consult
from engine.thirteen_clues.ai import normal
from engine.thirteen_clues.answers import (
    QuestionKey,
    Spread,
    Weighted,
    consult_spreads,
    information,
    question_spreads,
)
from engine.thirteen_clues.deduction import Joint, Triple
from engine.thirteen_clues.rules import spent_glass_receiver
from engine.thirteen_clues.views import PlayerView

EPS = 1e-9


@dataclass(frozen=True)
class Params:
    """Accusation thresholds on the probability of the likeliest holder triple.

    2020 (3+ players): a wrong accusation ends the turn and sends the remaining glasses to
    the supply, so the expert asks with its earlier glasses and gambles only with the last
    one (`last`), unless it is nearly sure (`early`). A wrong last-glass guess costs one
    action and strikes a triple, about what a question gives, while a right one wins a
    whole round earlier: hence a low bar. 2016: a wrong accusation costs one glass and the
    turn goes on, so the bar is lower still (`lenient`). Two players: one action per turn,
    a wrong guess costs that turn (`two_players`).

    Tuned by bench/ai_tournament.py (4 players, 300 games, 1 expert vs 3 normal, win rate):
    2020 last 0.67 → 70%, 0.5 → 75%, 0.34 → 79%, 0.25 → 80%; with gift_penalty 0.2 → 87%
    (0.1 → 83%, 0.3-0.5 → 82-83%). 2016 lenient 0.5 → 72%, 0.34 → 78%, 0.2 → 80%, with
    gift_penalty 0.2-0.3 → 84-85%. Two players: 0.34 → 94%, 0.5 → 94%, 0.67 → 90%.
    `early` (0.75-1.0) and `consult_bonus` (0-0.3) made no measurable difference. Against
    the final normal (lower bounds, two-triple gambles), 400 games: defaults 78%, last 0.22
    → 79%, 0.4 → 75%, gift_penalty 0.12 → 73%, 0.3 → 77%: the defaults stand.
    """

    last: float = 0.3
    early: float = 0.9
    lenient: float = 0.2
    two_players: float = 0.4
    consult_bonus: float = 0.1
    """Relative bonus for private information (consulting) over public (asking)."""
    gift_penalty: float = 0.2
    """Bits deducted from an action whose spent glass hands an opponent an extra action:
    a player who holds none would take one from the supply anyway, so giving them the
    glass is free while the supply lasts; giving it to a player who holds one is not."""
    pass_model: float = choices.PASS_MODEL
    """Odds that account for how the holder's passer chose (`choices`): the likeliest
    triple and its probability, for the accusation."""
    top_secret_bits: float = 5.0
    """Spend the Top Secret token on the first question asked once the holder entropy is
    at most this many bits: closing questions are the ones an opponent can least be let to
    overhear, since by then the answers also pin down other players' holders. The entropy
    is that of the choice odds. 5 bits: the token was spent in 30 of 30 games of one
    expert against normal players (3-6 players, both editions); at 3.5 in 19, at 2.5 in 7,
    once the expert accused earlier on the choice odds: an unspent token is wasted."""


DEFAULT = Params()


def _entropy(values: Collection[float]) -> float:
    """Entropy (bits) of a distribution given by counts or weights."""
    n = sum(values)
    return -sum(v / n * math.log2(v / n) for v in values if v)


def question_gains(
    view: PlayerView, joint: Joint, tilt: Tilt | None = None
) -> dict[QuestionKey, float]:
    """Expected information (bits) about the own holder of every question; `tilt` weighs
    each holder triple's assignments (the choice odds over the exact ones)."""
    spreads = question_spreads(view, joint)
    return {key: information(_tilted(s, tilt)) for key, s in spreads.items()}


def consult_gains(view: PlayerView, joint: Joint, tilt: Tilt | None = None) -> dict[str, float]:
    """Expected information (bits) about the own holder of every informant letter."""
    spreads = consult_spreads(view, joint)
    return {letter: information(_tilted(s, tilt)) for letter, s in spreads.items()}


Tilt = dict[Triple, float]


def _tilted(spread: Spread, tilt: Tilt | None) -> Weighted:
    if tilt is None:
        return spread
    return {t: {a: n * tilt.get(t, 1.0) for a, n in row.items()} for t, row in spread.items()}


def _threshold(view: PlayerView, params: Params) -> float:
    if view.options.players == 2:
        return params.two_players
    if view.options.edition == "2016":
        return params.lenient
    return params.last if view.seats[view.seat].glasses <= 1 else params.early


def act(view: PlayerView, rng: random.Random, params: Params = DEFAULT) -> Action:
    """Accuse the likeliest triple when certain or past the edition's threshold, else take
    the most informative question or consultation (ties broken by `rng`)."""
    result = deduction.solve(view)
    if not result.total:  # an inconsistent record cannot happen; play on the notepad
        return normal.act(view, rng)
    joint = deduction.slot_joint(view, solved=result)
    odds = choices.odds(view, joint, params.pass_model).triples
    tilt = {t: p * result.total / result.triples[t] for t, p in odds.items()}
    ranked = sorted(odds.items(), key=lambda kv: (-kv[1], kv[0]))
    accusable = legal.accusable_cards(view, view.seat)
    allowed = {c for cards in accusable.values() for c in cards}
    ranked = [(t, p) for t, p in ranked if set(t) <= allowed] or ranked
    top, p_top = ranked[0]
    if p_top >= 1 - EPS or p_top >= _threshold(view, params):
        return _accuse(view, top)
    options: list[tuple[float, Action]] = []
    penalty = [params.gift_penalty * _gifts_action(view, w) for w in range(view.options.players)]
    for (witness, subject, side), gain in question_gains(view, joint, tilt).items():
        ask = Ask(seat=view.seat, witness=witness, subject=subject, side=side)
        options.append((gain - penalty[witness], ask))
    spent = spent_glass_receiver(view, view.seat) if view.options.uses_glasses else None
    cost = 0.0 if spent is None else penalty[spent]
    for letter, gain in consult_gains(view, joint, tilt).items():
        consult = Consult(seat=view.seat, letter=letter)
        options.append((gain * (1 + params.consult_bonus) - cost, consult))
    best_score = max((score for score, _ in options), default=0.0)
    if best_score <= EPS:  # nothing left to learn: the likeliest triple it is
        return _accuse(view, top)
    action = rng.choice([a for score, a in options if score >= best_score - 1e-6])
    secret = isinstance(action, Ask) and legal.can_use_top_secret(view, view.seat)
    if secret and _entropy(list(odds.values())) <= params.top_secret_bits:
        action = action.model_copy(update={"top_secret": True})
    return action


def _gifts_action(view: PlayerView, receiver: int) -> bool:
    """Whether handing `receiver` a glass gives them one more action on their next turn."""
    if not view.options.uses_glasses or receiver == view.seat:
        return False
    return view.seats[receiver].glasses > 0 or view.supply == 0


def _accuse(view: PlayerView, triple: Triple) -> Accuse:
    person, location, weapon = triple
    return Accuse(seat=view.seat, person=person, location=location, weapon=weapon)
