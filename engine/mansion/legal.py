"""Which actions the rules allow: one validating `check`, an exhaustive `legal_actions`, and
the queries the UI, the AI and the table service need (who is waited on, turn keys, winners).

Queries that take `GameState | PlayerView` give the same answer from a seat's own view, so
an AI that only holds its view can ask them too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import TypeVar

from engine.errors import RuleError
from engine.mansion import actions as act
from engine.mansion.cards import (
    ACTIONS,
    CLUES,
    DESTINATIONS,
    SUSPECTS,
    VEHICLES,
    Kind,
    action_name,
    clue_name,
    matches,
)
from engine.mansion.events import PromptInfo
from engine.mansion.prompts import PickPrompt, Prompt, ShowPrompt, TipPrompt
from engine.mansion.records import AllSnooped, Sleuthed, Suggested, Tipped, TurnBegan
from engine.mansion.state import GameState
from engine.mansion.views import PlayerView, PublicView, prompt_info

Game = GameState | PlayerView
_Naming = TypeVar("_Naming", act.Accuse, act.ChooseSolution)

# --- status queries -----------------------------------------------------------------------


def waiting_on(state: GameState) -> list[int]:
    """Seats whose answer the game waits for (several at once during an All Snoop or a
    Super Sleuth); nobody once the game is over."""
    if state.phase == "over":
        return []
    return sorted({p.seat for p in state.prompts}) or [state.turn]


def turn_key(state: GameState) -> str:
    """The waiting situation the turn timer runs for: one key per stretch of a turn, so the
    timer runs once for the turn player's whole turn (play, a Snoop's pick, accuse or end)
    and starts again only after others answered in it; while others answer (a refuter, an
    All Snoop, a Super Sleuth, a Private Tip) the key holds, so one seat answering does not
    restart the others' clocks. Whenever a seat is newly waited on, the key changes."""
    if state.phase == "over":
        return "over"
    base = f"g{state.round}t{state.turn_number}"
    own = state.phase == "playing" and all(
        p.seat == state.turn
        and (p.kind in ("play", "accuse_or_end")
             or (isinstance(p, PickPrompt) and p.reason == "snoop"))
        for p in state.prompts
    )
    if own:
        return f"{base}:a{1 if _others_answered(state) else 0}"
    return f"{base}:w"


def _others_answered(state: GameState) -> bool:
    """This turn's card made another seat answer (a refuter's choice, an All Snoop, a Super
    Sleuth card shown, a Private Tip): the turn player's clock starts again after it."""
    for record in reversed(state.log):
        if isinstance(record, TurnBegan):
            return False
        if isinstance(record, Suggested) and record.refuter is not None:
            return True
        if isinstance(record, AllSnooped | Tipped):
            return True
        if isinstance(record, Sleuthed) and any(a.card is not None for a in record.answers):
            return True
    return False


def is_over(state: GameState) -> bool:
    return state.phase == "over"


def winners(state: GameState) -> set[int]:
    """The table's winners, for the stats: the Master Detective once the series is decided,
    and every fugitive who escaped in one of its games (the reference: an escape "wins that
    game (and counts in the stats) but solves no crime")."""
    won = {r.winner for r in state.rounds if r.how == "escaped" and r.winner is not None}
    return won | ({state.master} if state.master is not None else set())


def round_winners(state: GameState) -> list[int | None]:
    """The winner of each finished game of the series, in order (None: nobody)."""
    return [r.winner for r in state.rounds]


# --- rule queries -------------------------------------------------------------------------


def refutation_order(game: GameState | PublicView, seat: int) -> list[int]:
    """Who is asked to disprove `seat`'s suggestion, in order: clockwise from its left; in
    One Against All the detectives first and the fugitive last."""
    players = len(game.seats)
    order = [(seat + k) % players for k in range(1, players)]
    if game.fugitive is None:
        return order
    return [s for s in order if s != game.fugitive] + [game.fugitive]


def tip_options(clues: Sequence[str], tip: str) -> list[list[str]]:
    """Every answer a hand may give to a Private Tip: each matching card for a "one" tip,
    all of the kind for an "all" tip, nothing when nothing matches."""
    info = ACTIONS[tip]
    matching = [c for c in clues if matches(c, info)]
    if info.all_of_kind:
        return [matching]
    return [[c] for c in matching] or [[]]


def opponents(game: Game, seat: int) -> list[int]:
    """Seats a Snoop or a Private Tip may target: everyone else, wrong accusers and the
    fugitive included."""
    return [i for i in range(len(game.seats)) if i != seat]


def move_destinations(game: Game, seat: int) -> list[str]:
    """Where the PRESENT card's "or move" may take `seat`: any marker but its own."""
    return [d for d in DESTINATIONS if d != game.seats[seat].marker]


def prompt_of(game: Game, seat: int) -> PromptInfo | None:
    """What `seat` must answer now, as it sees it (with its options)."""
    if isinstance(game, PlayerView):
        if seat != game.seat:
            raise ValueError("A player view only knows its own prompt.")
        return game.prompt
    prompt = game.prompt_for(seat)
    return prompt_info(prompt, seat) if prompt is not None else None


def playable_cards(game: Game, seat: int) -> list[str]:
    """The distinct Action cards `seat` may play now (empty unless it is to play)."""
    info = prompt_of(game, seat)
    if info is None or info.kind != "play":
        return []
    return [card for card in ACTIONS if card in _hand(game, seat)]


def can_accuse(game: Game, seat: int) -> bool:
    """`seat` may accuse now: on its turn, instead of playing or once its card is resolved."""
    info = prompt_of(game, seat)
    return info is not None and info.kind in ("play", "accuse_or_end")


def _hand(game: Game, seat: int) -> list[str]:
    if isinstance(game, PlayerView):
        return list(game.actions)
    return list(game.seats[seat].actions)


# --- enumeration --------------------------------------------------------------------------


def legal_actions(game: Game, seat: int) -> list[act.Action]:
    """Every action `seat` may take now (Abandon, a host's action, is not listed).

    Non-empty exactly when `seat` is in `waiting_on`, so a random choice is always possible.
    """
    info = prompt_of(game, seat)
    if info is None:
        return []
    match info.kind:
        case "choose_solution":
            return list(_choices(seat))
        case "play":
            return [*_plays(game, seat), *_accusations(seat)]
        case "accuse_or_end":
            return [act.EndTurn(seat=seat), *_accusations(seat)]
        case "show":
            return [act.ShowCard(seat=seat, card=o[0]) for o in info.options or []]
        case "pick":
            return [act.PickCard(seat=seat, position=i) for i in range(info.count or 0)]
        case "answer_tip":
            return [act.AnswerTip(seat=seat, cards=list(o)) for o in info.options or []]


@cache
def _accusations(seat: int) -> tuple[act.Accuse, ...]:
    return _every_triple(act.Accuse, seat)


@cache
def _choices(seat: int) -> tuple[act.ChooseSolution, ...]:
    return _every_triple(act.ChooseSolution, seat)


def _every_triple(naming: type[_Naming], seat: int) -> tuple[_Naming, ...]:
    """An accusation or a fugitive's choice for every suspect, vehicle and destination."""
    return tuple(
        naming(seat=seat, suspect=s, vehicle=v, destination=d)
        for s in SUSPECTS
        for v in VEHICLES
        for d in DESTINATIONS
    )


@cache
def _suggestions_any(seat: int) -> tuple[act.SuggestAny, ...]:
    return tuple(
        act.SuggestAny(seat=seat, destination=d, suspect=s, vehicle=v)
        for d in DESTINATIONS
        for s in SUSPECTS
        for v in VEHICLES
    )


@cache
def _suggestions_present(seat: int) -> tuple[act.SuggestPresent, ...]:
    return tuple(
        act.SuggestPresent(seat=seat, suspect=s, vehicle=v) for s in SUSPECTS for v in VEHICLES
    )


def _plays(game: Game, seat: int) -> list[act.Action]:
    out: list[act.Action] = []
    for card in playable_cards(game, seat):
        match ACTIONS[card].effect:
            case "suggest_any":
                out += _suggestions_any(seat)
            case "suggest_present":
                out += _suggestions_present(seat)
                out += [act.Move(seat=seat, destination=d) for d in move_destinations(game, seat)]
            case "snoop":
                out += [act.Snoop(seat=seat, target=t) for t in opponents(game, seat)]
            case "all_snoop":
                out.append(act.AllSnoop(seat=seat, card=card))
            case "super_sleuth":
                out.append(act.SuperSleuth(seat=seat, card=card))
            case "private_tip":
                out += [
                    act.PrivateTip(seat=seat, card=card, target=t) for t in opponents(game, seat)
                ]
    return out


def idle_action(game: Game, seat: int, rng: random.Random) -> act.Action | None:
    """A random legal action that never accuses: a harmless move for an idle player.

    Picks the kind of action first (so the 324 possible suggestions do not drown a Snoop).
    """
    choices = [a for a in legal_actions(game, seat) if not isinstance(a, act.Accuse)]
    if not choices:
        return None
    kinds = sorted({_kind(a) for a in choices})
    kind = rng.choice(kinds)
    return rng.choice([a for a in choices if _kind(a) == kind])


def _kind(action: act.Action) -> str:
    if isinstance(action, act.AllSnoop | act.SuperSleuth | act.PrivateTip):
        return f"{action.type}:{action.card}"
    return action.type


# --- validation ---------------------------------------------------------------------------

_ANSWERS: dict[str, tuple[type, ...]] = {
    "choose_solution": (act.ChooseSolution,),
    "play": (*act.PLAY_TYPES, act.Accuse),
    "accuse_or_end": (act.Accuse, act.EndTurn),
    "show": (act.ShowCard,),
    "pick": (act.PickCard,),
    "answer_tip": (act.AnswerTip,),
}


def check(state: GameState, action: act.Action) -> None:
    """Raise RuleError, with a message for the player, if `action` is not allowed now."""
    if state.phase == "over":
        raise RuleError("This game is already over.")
    if isinstance(action, act.Abandon):
        return
    seat = action.seat
    if not 0 <= seat < state.players:
        raise RuleError("You are not seated at this table.")
    prompt = state.prompt_for(seat)
    if prompt is None or not isinstance(action, _ANSWERS[prompt.kind]):
        raise _not_now(state, seat, action, prompt)
    match action:
        case _ if isinstance(action, act.PLAY_TYPES):
            _check_play(state, action)
        case act.Accuse() | act.ChooseSolution():
            _triple(action.suspect, action.vehicle, action.destination)
        case act.ShowCard():
            assert isinstance(prompt, ShowPrompt)
            _check_show(state, action, prompt)
        case act.PickCard():
            assert isinstance(prompt, PickPrompt)
            if not 0 <= action.position < prompt.count:
                raise RuleError(
                    "There are {count} face-down cards: pick one of them (1 to {count}).",
                    count=prompt.count,
                )
        case act.AnswerTip():
            assert isinstance(prompt, TipPrompt)
            _check_tip(state, action, prompt)
        case act.EndTurn():
            pass


def _name(state: GameState, seat: int) -> str:
    return state.seats[seat].name


def _asks(state: GameState, prompt: Prompt) -> RuleError:
    """What an open prompt asks of its seat, addressed to that seat."""
    match prompt.kind:
        case "choose_solution":
            return RuleError("First choose the solution: a suspect, a vehicle and a destination.")
        case "play":
            return RuleError("Play one of your Action cards, or accuse.")
        case "accuse_or_end":
            return RuleError("You have played your card: accuse now, or end your turn.")
        case "show":
            assert isinstance(prompt, ShowPrompt)
            return RuleError("First choose which card to show {name}.",
                             name=_name(state, prompt.to))
        case "pick":
            assert isinstance(prompt, PickPrompt)
            return RuleError("First pick one of {name}'s face-down cards.",
                             name=_name(state, prompt.target))
        case "answer_tip":
            assert isinstance(prompt, TipPrompt)
            return RuleError("First answer {name}'s Private Tip.", name=_name(state, prompt.to))


def _not_now(state: GameState, seat: int, action: act.Action, prompt: Prompt | None) -> RuleError:
    """Why `seat` may not take `action` now, and (if it has one) what it should do instead."""
    turn_action = isinstance(action, (*act.PLAY_TYPES, act.Accuse, act.EndTurn))
    if prompt is not None and prompt.kind == "play" and isinstance(action, act.EndTurn):
        return RuleError("Play one of your Action cards (or accuse) before you end your turn.")
    if prompt is not None and prompt.kind == "accuse_or_end" and turn_action:
        return RuleError("You have already played a card this turn: accuse now, or end your "
                         "turn.")
    if prompt is not None:
        return _asks(state, prompt)
    if turn_action:
        if state.phase == "choosing_solution":
            return RuleError("The fugitive is still choosing the solution.")
        if seat == state.fugitive:
            return RuleError("The fugitive takes no turns: the detectives play.")
        if state.seats[seat].eliminated:
            if isinstance(action, act.Accuse):
                return RuleError("You have already made your accusation: only one per game.")
            return RuleError("You accused wrongly, so you take no more turns.")
        if seat != state.turn:
            return RuleError("It is {name}'s turn, not yours.", name=_name(state, state.turn))
        *others, last = [_name(state, s) for s in waiting_on(state)]
        if others:
            return RuleError("Wait: {names} and {last} must answer first.",
                             names=", ".join(others), last=last)
        return RuleError("Wait: {name} must answer first.", name=last)
    match action:
        case act.ShowCard():
            return RuleError("Nobody is waiting for you to show a card.")
        case act.PickCard():
            return RuleError("You have no face-down card to pick.")
        case act.AnswerTip():
            return RuleError("You have no Private Tip to answer.")
        case act.ChooseSolution():
            if state.fugitive is None:
                return RuleError("Nobody chooses the solution in the standard game: it is "
                                 "dealt.")
            if state.phase == "choosing_solution":
                return RuleError("Only the fugitive chooses the solution.")
            return RuleError("The solution has already been chosen.")
    return RuleError("You cannot do that now.")


def _check_play(state: GameState, action: act.PlayAction) -> None:
    card = act.card_played(action)
    effects = {
        act.AllSnoop: "all_snoop",
        act.SuperSleuth: "super_sleuth",
        act.PrivateTip: "private_tip",
    }
    wanted = effects.get(type(action))
    if wanted is not None and (card not in ACTIONS or ACTIONS[card].effect != wanted):
        if wanted == "all_snoop":
            raise RuleError("'{typed}' is not an All Snoop card.", typed=card)
        if wanted == "super_sleuth":
            raise RuleError("'{typed}' is not a Super Sleuth card.", typed=card)
        raise RuleError("'{typed}' is not a Private Tip card.", typed=card)
    if card not in state.seats[action.seat].actions:
        name = action_name(card)
        if name[0] in "AEIOU":
            raise RuleError("You do not hold an {action} card.", action=name)
        raise RuleError("You do not hold a {action} card.", action=name)
    me = state.seats[action.seat]
    match action:
        case act.SuggestAny():
            _clue(action.destination, Kind.DESTINATION)
            _clue(action.suspect, Kind.SUSPECT)
            _clue(action.vehicle, Kind.VEHICLE)
        case act.SuggestPresent():
            _clue(action.suspect, Kind.SUSPECT)
            _clue(action.vehicle, Kind.VEHICLE)
        case act.Move():
            _clue(action.destination, Kind.DESTINATION)
            if action.destination == me.marker:
                raise RuleError("You are already at {card}: choose another destination to "
                                "move to.", card=clue_name(action.destination))
        case act.Snoop() | act.PrivateTip():
            if action.target == action.seat or not 0 <= action.target < state.players:
                raise RuleError("Choose another player at this table.")
        case act.AllSnoop() | act.SuperSleuth():
            pass


def _clue(card: str, kind: Kind) -> None:
    info = CLUES.get(card)
    if info is None:
        raise RuleError("There is no card called '{typed}'.", typed=card)
    if info.kind is not kind:
        match kind:
            case Kind.SUSPECT:
                raise RuleError("{card} is not a suspect.", card=info.name)
            case Kind.VEHICLE:
                raise RuleError("{card} is not a vehicle.", card=info.name)
            case Kind.DESTINATION:
                raise RuleError("{card} is not a destination.", card=info.name)


def _triple(suspect: str, vehicle: str, destination: str) -> None:
    _clue(suspect, Kind.SUSPECT)
    _clue(vehicle, Kind.VEHICLE)
    _clue(destination, Kind.DESTINATION)


def _check_show(state: GameState, action: act.ShowCard, prompt: ShowPrompt) -> None:
    if action.card not in CLUES:
        raise RuleError("There is no card called '{typed}'.", typed=action.card)
    if action.card not in state.seats[action.seat].clues:
        raise RuleError("You do not hold {card}.", card=clue_name(action.card))
    if action.card not in prompt.options:
        if prompt.reason == "suggestion":
            raise RuleError("{card} is not one of the three cards named.",
                            card=clue_name(action.card))
        raise RuleError("{card} is not {ask}.", card=clue_name(action.card),
                        ask=ACTIONS[_sleuth_card(state)].ask)


def _sleuth_card(state: GameState) -> str:
    return next(r.card for r in reversed(state.log) if isinstance(r, Sleuthed))


def _check_tip(state: GameState, action: act.AnswerTip, prompt: TipPrompt) -> None:
    hand = state.seats[action.seat].clues
    for card in action.cards:
        if card not in CLUES:
            raise RuleError("There is no card called '{typed}'.", typed=card)
        if card not in hand:
            raise RuleError("You do not hold {card}.", card=clue_name(card))
    if any(sorted(action.cards) == sorted(o) for o in prompt.options):
        return
    tip = ACTIONS[prompt.tip]
    kind = f"{tip.kind}s" if tip.kind is not None else "cards"
    if prompt.options == [[]]:
        thing = tip.ask.removeprefix("one ") if not tip.all_of_kind else kind
        raise RuleError("You hold no {thing}: return nothing.", thing=thing)
    if tip.all_of_kind:
        raise RuleError("This tip asks for {ask}: return every one of them, once.", ask=tip.ask)
    thing = tip.ask.removeprefix("one ")
    wrong = next((c for c in action.cards if not matches(c, tip)), None)
    if len(action.cards) == 1 and wrong is not None:
        raise RuleError("{card} is not a {thing}.", card=clue_name(wrong), thing=thing)
    raise RuleError("This tip asks for {ask}: return exactly one.", ask=tip.ask)
