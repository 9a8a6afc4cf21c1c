"""Which actions the rules allow, as queries for the UI and AI and as one validating `check`."""

from __future__ import annotations

from engine.errors import RuleError
from engine.thirteen_clues.actions import Accuse, Action, Ask, ChoosePass, Consult, TakeGlass
from engine.thirteen_clues.cards import (
    CARDS,
    REMOVED_SUITS,
    Category,
    SubCategory,
    card_name,
    subject_kind,
    subject_name,
    suits_in_play,
)
from engine.thirteen_clues.state import GameState, Options
from engine.thirteen_clues.views import PlayerView


def question_subjects(game: GameState | PlayerView) -> list[str]:
    """Suits in play, the six sub-categories, and (2016 only) the three categories."""
    subjects = [s.value for s in suits_in_play(game.options.players)]
    subjects += [s.value for s in SubCategory]
    if game.options.edition == "2016":
        subjects += [c.value for c in Category]
    return subjects


def witnesses(game: GameState | PlayerView, seat: int) -> list[int]:
    return [i for i in range(game.options.players) if i != seat]


def informant_letters(state: GameState) -> list[str]:
    return state.letters()


def accusable_cards(state: GameState, seat: int) -> dict[Category, list[str]]:
    """Every card `seat` may name in an accusation now, by category, in deck order: what
    `check` accepts. 2020: the cards in play it cannot see. 2016: any card at all (naming a
    card it sees, or one of a suit set aside, is allowed and simply wrong)."""
    return accusable(state.options, state.sees(seat))


def accusable(options: Options, seen: set[str]) -> dict[Category, list[str]]:
    """Every card a seat that sees `seen` may name under `options`, by category."""
    in_play = set(suits_in_play(options.players))
    return {
        category: [
            c.id
            for c in CARDS.values()
            if c.category == category
            and (options.edition == "2016" or (c.suit in in_play and c.id not in seen))
        ]
        for category in Category
    }


def waiting_on(state: GameState) -> list[int]:
    """Seats whose input the game waits on: all who have not chosen during the pass phase,
    the current player during play, nobody once the game is over."""
    if state.phase == "passing":
        return [i for i, s in enumerate(state.seats) if s.passed is None]
    return [state.turn] if state.phase == "turns" else []


def take_sources(state: GameState, seat: int) -> list[int]:
    """Players `seat` may take a glass from; empty unless it must choose one now."""
    if not state.awaiting_take() or state.turn != seat:
        return []
    return [i for i, s in enumerate(state.seats) if i != seat and s.glasses > 0]


def can_act(state: GameState, seat: int) -> bool:
    """`seat` may ask, consult or accuse right now."""
    if state.phase != "turns" or state.turn != seat:
        return False
    return not state.options.uses_glasses or state.seats[seat].glasses > 0


def check(state: GameState, action: Action) -> None:
    """Raise RuleError with a message for the player if `action` is not allowed now."""
    seat = getattr(action, "seat", None)
    if state.phase == "over":
        raise RuleError("This game is already over.")
    if seat is None or not 0 <= seat < state.players:
        raise RuleError("You are not seated at this table.")
    if isinstance(action, ChoosePass):
        _check_pass(state, action)
        return
    if state.phase == "passing":
        raise RuleError("Everyone must first choose the cards to pass left.")
    if state.turn != seat:
        raise RuleError(f"It is {state.seats[state.turn].name}'s turn, not yours.")
    if isinstance(action, TakeGlass):
        _check_take(state, action)
        return
    if state.awaiting_take():
        raise RuleError(
            "The supply is empty: first take a magnifying glass from another player."
        )
    match action:
        case Ask():
            _check_ask(state, action)
        case Consult():
            _check_consult(state, action)
        case Accuse():
            _check_accuse(state, action)


def _check_pass(state: GameState, action: ChoosePass) -> None:
    seat = state.seats[action.seat]
    if state.phase != "passing":
        raise RuleError("The cards have already been passed.")
    if seat.passed is not None:
        raise RuleError("You have already chosen the cards to pass left.")
    for card, category in zip(
        (action.person, action.location, action.weapon), Category, strict=True
    ):
        _known_card(card)
        if card not in seat.dealt:
            raise RuleError(f"{card_name(card)} is not among your five cards.")
        if CARDS[card].category != category:
            raise RuleError(f"{card_name(card)} is not a {category.value}.")


def _check_take(state: GameState, action: TakeGlass) -> None:
    if not state.awaiting_take():
        if not state.options.uses_glasses:
            raise RuleError("There are no magnifying glasses in a two-player game.")
        raise RuleError("You only take a glass from a player when you hold none and the "
                        "supply is empty.")
    if action.source == action.seat or not 0 <= action.source < state.players:
        raise RuleError("Take the glass from another player at this table.")
    if state.seats[action.source].glasses == 0:
        raise RuleError(f"{state.seats[action.source].name} holds no magnifying glass.")


def _check_ask(state: GameState, action: Ask) -> None:
    if not 0 <= action.witness < state.players or action.witness == action.seat:
        raise RuleError("Ask another player at this table.")
    kind = subject_kind(action.subject)
    if kind is None:
        raise RuleError(f"'{action.subject}' is not something you can ask about.")
    if action.subject not in question_subjects(state):
        if kind == "category":
            raise RuleError(
                "In the 2020 rules you cannot ask about a whole category; ask about a suit "
                "or a sub-category."
            )
        raise RuleError(f"The {subject_name(action.subject)} suit is not in play at this table.")
    if state.players == 2 and action.side is None:
        raise RuleError("With two players, say which side: the card on their left or right.")
    if state.players > 2 and action.side is not None:
        raise RuleError("Sides are only named in a two-player game.")
    if action.top_secret:
        if not state.options.top_secret:
            raise RuleError("This table does not play the Top Secret variant.")
        if state.seats[action.seat].top_secret_used:
            raise RuleError("You have already used your Top Secret token.")


def _check_consult(state: GameState, action: Consult) -> None:
    letters = state.letters()
    if not letters:
        raise RuleError("There is no Secret Informant in a six-player game.")
    if action.letter not in letters:
        raise RuleError(
            f"There is no informant {action.letter}; the letters are {', '.join(letters)}."
        )


def _check_accuse(state: GameState, action: Accuse) -> None:
    """Any card of the right category in 2016; in 2020 only cards in play the accuser
    cannot see (see docs/decisions.md for cards of the suits set aside)."""
    named = (action.person, action.location, action.weapon)
    for card, category in zip(named, Category, strict=True):
        _known_card(card)
        if CARDS[card].category != category:
            raise RuleError(f"{card_name(card)} is not a {category.value}.")
    if state.options.edition == "2016":
        return
    allowed = {c for cards in accusable_cards(state, action.seat).values() for c in cards}
    for card in named:
        if card in allowed:
            continue
        suit = CARDS[card].suit
        if suit in REMOVED_SUITS[state.players]:
            raise RuleError(
                f"{card_name(card)} is not in play at this table: the "
                f"{subject_name(suit.value)} suit is set aside with {state.players} players. "
                "In the 2020 rules you may only accuse cards in play."
            )
        where = "behind your own screen" if card in state.seats[action.seat].screen else (
            f"on {_holder_owner(state, card)}'s card holder"
        )
        raise RuleError(
            f"{card_name(card)} is {where}: in the 2020 rules you cannot accuse a card "
            "you can see."
        )


def _holder_owner(state: GameState, card: str) -> str:
    return next(s.name for s in state.seats if card in s.holder)


def _known_card(card: str) -> None:
    if card not in CARDS:
        raise RuleError(f"There is no card called '{card}'.")
