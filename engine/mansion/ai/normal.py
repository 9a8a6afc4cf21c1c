"""The normal detective: pen-and-paper bookkeeping and sensible plays.

It keeps the `bookkeeping` notes (no reasoning about "one of these" answers) and scores each
play it could make by a rule of thumb for how many unknown cards it should reveal:

- a suggestion names cards still possible for the solution, using a card it holds in a kind
  already solved (so the answer must be about the other kinds), from a destination still
  possible (taking that marker with a Suggestion from ANY, or moving there with the PRESENT
  card when where it stands is already ruled out);
- a Snoop looks at the opponent with the most cards it cannot place; a Super Sleuth or a
  Private Tip is worth the cards of its feature still unplaced, spread over the opponents.

It accuses when its notes are certain, or in One Against All when the draw pile will run out
before its next turn (a guess among the solutions its notes leave).
"""

from __future__ import annotations

import random

from engine.mansion import actions as act
from engine.mansion import legal
from engine.mansion.ai import common
from engine.mansion.cards import ACTIONS, CLUES, DESTINATIONS, Kind, matches
from engine.mansion.facts import CARD_IDS, INDEX
from engine.mansion.notes import Sheet, bookkeeping
from engine.mansion.views import PlayerView

_KINDS = (Kind.SUSPECT, Kind.VEHICLE, Kind.DESTINATION)


def _accuse(view: PlayerView, sheet: Sheet, rng: random.Random, guess: bool) -> act.Accuse | None:
    solved = sheet.solved()
    if solved is not None:
        return act.Accuse(seat=view.seat, **solved.model_dump())
    if not guess:
        return None
    s, v, d = (rng.choice(sheet.possible(k) or ["?"]) for k in range(3))
    if "?" in (s, v, d):
        return None
    return act.Accuse(seat=view.seat, suspect=s, vehicle=v, destination=d)


def accuse_or_end(view: PlayerView, rng: random.Random) -> act.Action:
    sheet = bookkeeping(view)
    return _accuse(view, sheet, rng, guess=common.last_chance(view)) or act.EndTurn(seat=view.seat)


def _unplaced(sheet: Sheet, card: str) -> bool:
    """Nobody is known to hold it (it may be the solution)."""
    i = INDEX[card]
    return not any(mask >> i & 1 for mask in sheet.held[:-1])


def _pick(
    view: PlayerView, sheet: Sheet, kind: int, rng: random.Random, keep: str | None = None
) -> str:
    """A card to name for `kind`: one still possible; if the kind is solved, a card of it
    this seat holds (the answer then tells about the other kinds)."""
    possible = sheet.possible(kind)
    if keep is not None and keep in possible:
        return keep
    if len(possible) == 1:
        mine = [c for c in view.clues if CLUES[c].kind is _KINDS[kind]]
        return rng.choice(mine) if mine else possible[0]
    return rng.choice(possible)


def play(view: PlayerView, rng: random.Random) -> act.Action:
    sheet = bookkeeping(view)
    accuse = _accuse(view, sheet, rng, guess=False)
    if accuse is not None:
        return accuse
    me = view.seat
    n = len(view.seats)
    unplaced_in = [
        view.seats[s].clue_count - bin(sheet.held[s]).count("1") if s != me else 0 for s in range(n)
    ]
    options: list[tuple[float, float, act.Action]] = []
    s_name, v_name = _pick(view, sheet, 0, rng), _pick(view, sheet, 1, rng)
    destinations = sheet.possible(2)
    open_kinds = sum(len(sheet.possible(k)) > 1 for k in range(3))
    marker = view.seats[me].marker
    for card in legal.playable_cards(view, me):
        info = ACTIONS[card]
        match info.effect:
            case "suggest_any":
                dest = _pick(view, sheet, 2, rng, keep=marker)
                options.append(
                    (
                        0.5 + 0.3 * open_kinds,
                        rng.random(),
                        act.SuggestAny(seat=me, destination=dest, suspect=s_name, vehicle=v_name),
                    )
                )
            case "suggest_present":
                here_open = marker in destinations and len(destinations) > 1
                value = 0.5 + 0.3 * (open_kinds - (len(destinations) > 1) + here_open)
                present = act.SuggestPresent(seat=me, suspect=s_name, vehicle=v_name)
                options.append((value, rng.random(), present))
                goals = [d for d in destinations if d != marker] or [
                    d for d in DESTINATIONS if d != marker
                ]
                options.append(
                    (0.4, rng.random(), act.Move(seat=me, destination=rng.choice(goals)))
                )
            case "snoop":
                target = max(
                    legal.opponents(view, me), key=lambda s: (unplaced_in[s], rng.random())
                )
                size = max(1, view.seats[target].clue_count)
                value = 1.0 * unplaced_in[target] / size
                options.append((value, rng.random(), act.Snoop(seat=me, target=target)))
            case "all_snoop":
                target = (me - 1) % n if info.direction == "left" else (me + 1) % n
                size = max(1, view.seats[target].clue_count)
                value = 0.8 * unplaced_in[target] / size
                options.append((value, rng.random(), act.AllSnoop(seat=me, card=card)))
            case "super_sleuth":
                open_cards = [c for c in CARD_IDS if matches(c, info) and _unplaced(sheet, c)]
                value = min(len(open_cards), n - 1) * 0.6
                options.append((value, rng.random(), act.SuperSleuth(seat=me, card=card)))
            case "private_tip":
                open_cards = [c for c in CARD_IDS if matches(c, info) and _unplaced(sheet, c)]
                target = max(
                    legal.opponents(view, me), key=lambda s: (unplaced_in[s], rng.random())
                )
                share = unplaced_in[target] / max(1, sum(unplaced_in))
                found = len(open_cards) * share
                value = found if info.all_of_kind else min(1.0, found)
                tip = act.PrivateTip(seat=me, card=card, target=target)
                options.append((value, rng.random(), tip))
    return max(options, key=lambda x: (x[0], x[1]))[2]
