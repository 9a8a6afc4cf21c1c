"""Which actions the rules allow: one answer per rule, for the engine, the AI and the bot.

Every query accepts the whole truth (a `GameState`) or what one seat may know (a
`PlayerView`), so the AI and the bot's pickers ask exactly the questions `apply` answers.
Queries that need only public facts also accept a `PublicView` (the table message): `Table`.
Queries that need a seat's own secrets (the cards it sees) take a `Game`: with a PlayerView
they answer for that view's own seat only. `check` is the one validation `apply` runs; its
refusals are sentences fit to show the player.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from engine.errors import RuleError
from engine.thirteen_clues.actions import Accuse, Action, Ask, ChoosePass, Consult, TakeGlass
from engine.thirteen_clues.cards import (
    CARDS,
    REMOVED_SUITS,
    Category,
    SubCategory,
    card_name,
    cards_in_play,
    subject_kind,
    subject_name,
    suits_in_play,
)
from engine.thirteen_clues.state import GameState, Options, Side
from engine.thirteen_clues.views import PlayerView, PublicView

Table = GameState | PublicView
"""The whole truth or the public view (a PlayerView is a PublicView): public facts only."""
Game = GameState | PlayerView
"""The whole truth or one seat's view: enough to know what that seat sees."""
Duty = Literal["pass", "take", "act"]


# --- what may be asked, consulted and named ----------------------------------------------------


def question_subjects(game: Table) -> list[str]:
    """Suits in play, the six sub-categories, and (2016 only) the three categories."""
    subjects = [s.value for s in suits_in_play(game.options.players)]
    subjects += [s.value for s in SubCategory]
    if game.options.edition == "2016":
        subjects += [c.value for c in Category]
    return subjects


def witnesses(game: Table, seat: int) -> list[int]:
    """The players `seat` may question: everyone else."""
    return [i for i in range(game.options.players) if i != seat]


def sides(game: Table) -> list[Side | None]:
    """The sides a question must name: both with two players, none otherwise."""
    return ["left", "right"] if game.options.players == 2 else [None]


def can_use_top_secret(game: Table, seat: int) -> bool:
    """The table plays the Top Secret variant and `seat` still holds its token."""
    return game.options.top_secret and not game.seats[seat].top_secret_used


def informant_letters(game: Table) -> list[str]:
    """The Secret Informant letters in play (none with six players)."""
    return game.letters() if isinstance(game, GameState) else list(game.letters)


def sees(game: Game, seat: int) -> set[str]:
    """The cards `seat` can see: its screen and every holder but its own."""
    if isinstance(game, GameState):
        return game.sees(seat)
    _own_seat(game, seat)
    return game.sees()


def accusable_cards(game: Game, seat: int) -> dict[Category, list[str]]:
    """Every card `seat` may name in an accusation now, by category, in deck order: what
    `check` accepts. 2020, and two players: the cards in play it cannot see. 2016 with 3-6
    players: any card at all (naming a card it sees, or one of a suit set aside, is allowed
    and simply wrong). For a picker, prefer `accusation_choices`."""
    return accusable(game.options, sees(game, seat))


def accusable(options: Options, seen: set[str]) -> dict[Category, list[str]]:
    """Every card a seat that sees `seen` may name under `options`, by category."""
    if not options.bans_visible:
        return _by_category(CARDS)
    return _by_category(c for c in cards_in_play(options.players) if c not in seen)


def accusation_choices(game: Game, seat: int) -> dict[Category, list[str]]:
    """The cards worth offering `seat` in an accusation picker, by category, in deck order:
    the cards in play it cannot see. Where `Options.bans_visible` exactly `accusable_cards`;
    under 2016 with 3-6 players the rules allow any card, but a card the seat sees (or of a
    suit set aside) is certainly wrong, so a picker need not offer it. Informant cards it
    consulted stay in: the rules do not count them as seen (see docs/decisions.md)."""
    seen = sees(game, seat)
    return _by_category(c for c in cards_in_play(game.options.players) if c not in seen)


# --- whose move it is -------------------------------------------------------------------------


def waiting_on(game: Table) -> list[int]:
    """Seats whose input the game waits on: all who have not chosen during the pass phase,
    the current player during play, nobody once the game is over."""
    if game.phase == "passing":
        return [i for i in range(game.options.players) if not _has_passed(game, i)]
    return [game.turn] if game.phase == "turns" else []


def turn_key(game: Table) -> str:
    """The waiting situation the turn timer runs for: the whole pass phase is one (seats
    leave it as they choose, nobody joins), then one per turn; it changes whenever a seat is
    newly waited on."""
    if game.phase == "over":
        return "over"
    return "pass" if game.phase == "passing" else f"turn{game.turn_number}"


def must_take(game: Table) -> bool:
    """The player whose turn it is holds no glass and the supply is empty: before anything
    else they must take a glass from another player (`TakeGlass`). The one definition."""
    return (
        game.phase == "turns"
        and game.options.uses_glasses
        and game.seats[game.turn].glasses == 0
        and game.supply == 0
    )


def take_sources(game: Table, seat: int) -> list[int]:
    """Players `seat` may take a glass from; empty unless it must choose one now."""
    if not must_take(game) or game.turn != seat:
        return []
    return [i for i in witnesses(game, seat) if game.seats[i].glasses > 0]


def can_act(game: Table, seat: int) -> bool:
    """`seat` may ask, consult or accuse right now."""
    if game.phase != "turns" or game.turn != seat:
        return False
    return not game.options.uses_glasses or game.seats[seat].glasses > 0


def duty(game: Table, seat: int) -> Duty | None:
    """What the game waits on from `seat` now: choose its pass, take a glass, or act; None
    if it waits on someone else (or the game is over)."""
    if game.phase == "passing":
        return None if _has_passed(game, seat) else "pass"
    if must_take(game):
        return "take" if game.turn == seat else None
    return "act" if can_act(game, seat) else None


def not_your_turn(game: Table, seat: int) -> RuleError:
    """The refusal for `seat` acting (asking, consulting, accusing, taking) when the game
    does not wait on it: the game is over, the passes are not all made, or it is another
    player's turn. Raises ValueError when it is in fact `seat`'s turn to play."""
    if game.phase == "over":
        return RuleError("This game is already over.")
    if game.phase == "passing":
        return RuleError("Everyone must first choose the cards to pass left.")
    if game.turn == seat:
        raise ValueError(f"It is seat {seat}'s turn.")
    return RuleError("It is {name}'s turn, not yours.", name=game.seats[game.turn].name)


def not_your_turn_message(game: Table, seat: int) -> str:
    """`not_your_turn` in English."""
    return str(not_your_turn(game, seat))


# --- the one validation -----------------------------------------------------------------------


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
    if state.phase != "turns" or state.turn != seat:
        raise not_your_turn(state, seat)
    if isinstance(action, TakeGlass):
        _check_take(state, action)
        return
    if must_take(state):
        raise RuleError("The supply is empty: first take a magnifying glass from another player.")
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
            raise RuleError("{card} is not among your five cards.", card=card_name(card))
        if CARDS[card].category != category:
            raise RuleError("{card} is not a {category}.", card=card_name(card),
                            category=category.value)


def _check_take(state: GameState, action: TakeGlass) -> None:
    if not must_take(state):
        if not state.options.uses_glasses:
            raise RuleError("There are no magnifying glasses in a two-player game.")
        raise RuleError(
            "You only take a glass from a player when you hold none and the supply is empty."
        )
    if action.source == action.seat or not 0 <= action.source < state.players:
        raise RuleError("Take the glass from another player at this table.")
    if state.seats[action.source].glasses == 0:
        raise RuleError("{name} holds no magnifying glass.", name=state.seats[action.source].name)


def _check_ask(state: GameState, action: Ask) -> None:
    if action.witness not in witnesses(state, action.seat):
        raise RuleError("Ask another player at this table.")
    kind = subject_kind(action.subject)
    if kind is None:
        raise RuleError("'{subject}' is not something you can ask about.",
                        subject=action.subject)
    if action.subject not in question_subjects(state):
        if kind == "category":
            raise RuleError(
                "In the 2020 rules you cannot ask about a whole category; ask about a suit "
                "or a sub-category."
            )
        raise RuleError("The {suit} suit is not in play at this table.",
                        suit=subject_name(action.subject))
    if action.side not in sides(state):
        if state.players == 2:
            raise RuleError("With two players, say which side: the card on their left or right.")
        raise RuleError("Sides are only named in a two-player game.")
    if action.top_secret and not can_use_top_secret(state, action.seat):
        if not state.options.top_secret:
            raise RuleError("This table does not play the Top Secret variant.")
        raise RuleError("You have already used your Top Secret token.")


def _check_consult(state: GameState, action: Consult) -> None:
    letters = informant_letters(state)
    if not letters:
        raise RuleError("There is no Secret Informant in a six-player game.")
    if action.letter not in letters:
        raise RuleError("There is no informant {letter}; the letters are {letters}.",
                        letter=action.letter, letters=", ".join(letters))


def _check_accuse(state: GameState, action: Accuse) -> None:
    """Any card of the right category in 2016 with 3-6 players; in 2020, and with two
    players, only cards in play the accuser cannot see (see docs/decisions.md for cards of
    the suits set aside)."""
    named = (action.person, action.location, action.weapon)
    for card, category in zip(named, Category, strict=True):
        _known_card(card)
        if CARDS[card].category != category:
            raise RuleError("{card} is not a {category}.", card=card_name(card),
                            category=category.value)
    if not state.options.bans_visible:
        return
    allowed = {c for cards in accusable_cards(state, action.seat).values() for c in cards}
    for card in named:
        if card in allowed:
            continue
        suit = CARDS[card].suit
        if suit in REMOVED_SUITS[state.players]:
            raise RuleError(
                "{card} is not in play at this table: the {suit} suit is set aside with {n} "
                "players. In the 2020 rules you may only accuse cards in play.",
                card=card_name(card), suit=subject_name(suit.value), n=state.players)
        if card in state.seats[action.seat].screen:
            raise RuleError("{card} is behind your own screen: in the 2020 rules you cannot "
                            "accuse a card you can see.", card=card_name(card))
        raise RuleError("{card} is on {name}'s card holder: in the 2020 rules you cannot accuse "
                        "a card you can see.", card=card_name(card),
                        name=_holder_owner(state, card))


# --- helpers ----------------------------------------------------------------------------------


def _own_seat(view: PlayerView, seat: int) -> None:
    if seat != view.seat:
        raise ValueError(f"The view of seat {view.seat} cannot tell what seat {seat} sees.")


def _has_passed(game: Table, seat: int) -> bool:
    if isinstance(game, GameState):
        return game.seats[seat].passed is not None
    return game.seats[seat].has_passed


def _by_category(cards: Iterable[str]) -> dict[Category, list[str]]:
    """`cards` by category, each list in deck order."""
    chosen = set(cards)
    return {
        category: [c.id for c in CARDS.values() if c.category == category and c.id in chosen]
        for category in Category
    }


def _holder_owner(state: GameState, card: str) -> str:
    return next(s.name for s in state.seats if card in s.holder)


def _known_card(card: str) -> None:
    if card not in CARDS:
        raise RuleError("There is no card called '{card}'.", card=card)
