"""What members type or pick, turned into engine actions (one builder for a slash command and
its buttons), and the choices autocomplete and pickers offer."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot import i18n
from bot.errors import UserError
from bot.i18n import tr
from bot.models import player_id
from bot.thirteen_clues import words
from engine.thirteen_clues import GameState as GameState  # re-exported: the cog types by it
from engine.thirteen_clues import actions as act
from engine.thirteen_clues import legal, player_view
from engine.thirteen_clues.cards import CARDS, Category, cards_in_play, subject_kind

Build = Callable[[GameState, int], act.Action]
Choice = tuple[str, str]
"""(label, value) for an autocomplete choice."""
CategoryChoices = Callable[[GameState, int, Category, str, str], list[Choice]]
"""Autocomplete of a card option of one category: (state, seat, category, typed, lang)."""

MAX_INPUT = 50
"""Longer input is never a card or subject: refused without echoing it back."""


def card(text: str) -> str:
    found = words.CARD_WORDS.find(text) if len(text) <= MAX_INPUT else None
    if found is None:
        shown = text if len(text) <= MAX_INPUT else f"{text[:20]}…"
        raise UserError("There is no card called '{name}'. Pick one from the list.", name=shown)
    return found


def subject(text: str) -> str:
    key = text.strip().lower().replace(" ", "_").replace("-", "_")[:MAX_INPUT]
    if key.endswith("s") and subject_kind(key[:-1]) == "category":
        key = key[:-1]
    if subject_kind(key) is None:
        shown = text if len(text) <= MAX_INPUT else f"{text[:20]}…"
        raise UserError("'{name}' is not something you can ask about. Pick one from the list.",
                        name=shown)
    return key


def member_seat(state: GameState, user_id: int, *, taking: bool = False) -> int:
    """The seat a member named in a command plays (`taking`: for `take`, whose button the
    refusal names, not Ask's)."""
    for i, s in enumerate(state.seats):
        if s.id == player_id(user_id):
            return i
    if taking:
        raise UserError("That member is not seated at this table (AI seats: use the Take a "
                        "glass button).")
    raise UserError("That member is not seated at this table (AI seats: use the Ask button).")


# builders ---------------------------------------------------------------------------------


def pass_named(person: str, location: str, weapon: str) -> Build:
    def build(state: GameState, seat: int) -> act.Action:
        p, loc, w = card(person), card(location), card(weapon)
        return act.ChoosePass(seat=seat, person=p, location=loc, weapon=w)

    return build


def pass_chosen(chosen: Sequence[str]) -> Build:
    """The pass select's three values, one per category."""

    def build(state: GameState, seat: int) -> act.Action:
        by_category = {CARDS[c].category: c for c in chosen if c in CARDS}
        if len(by_category) != 3:
            raise UserError("Pick exactly one Person, one Location and one Weapon.")
        return act.ChoosePass(
            seat=seat,
            person=by_category[Category.PERSON],
            location=by_category[Category.LOCATION],
            weapon=by_category[Category.WEAPON],
        )

    return build


def ask(
    witness: int | Callable[[GameState], int], about: str, side: str | None, top_secret: bool
) -> Build:
    """`witness` is a seat, or finds one in the state (a member named in a slash command)."""

    def build(state: GameState, seat: int) -> act.Action:
        target = witness(state) if callable(witness) else witness
        # side: the command's Literal or the picker's left/right; pydantic checks it too
        return act.Ask(seat=seat, witness=target, subject=subject(about), side=side,  # type: ignore[arg-type]
                       top_secret=top_secret)

    return build


def consult(letter: str) -> Build:
    def build(state: GameState, seat: int) -> act.Action:
        return act.Consult(seat=seat, letter=letter.strip().upper()[:2])

    return build


def accuse(person: str | None, location: str | None, weapon: str | None) -> Build:
    def build(state: GameState, seat: int) -> act.Action:
        if person is None or location is None or weapon is None:
            raise UserError("Pick a Person, a Location and a Weapon first.")
        return act.Accuse(seat=seat, person=card(person), location=card(location),
                          weapon=card(weapon))

    return build


def take(source: int | Callable[[GameState], int]) -> Build:
    def build(state: GameState, seat: int) -> act.Action:
        return act.TakeGlass(seat=seat, source=source(state) if callable(source) else source)

    return build


# choices ---------------------------------------------------------------------------------


def card_choices(cards: Sequence[str], current: str, lang: str) -> list[Choice]:
    """The cards whose name holds what was typed, in the member's language or in English,
    labelled in their language."""
    return [(words.card_label(lang, c), c) for c in cards
            if words.CARD_WORDS.matches(lang, c, current)][:25]


def pass_choices(state: GameState, seat: int, category: Category, current: str, lang: str
                 ) -> list[Choice]:
    dealt = [c for c in state.seats[seat].dealt if CARDS[c].category == category]
    return card_choices(dealt, current, lang)


def accuse_choices(state: GameState, seat: int, category: Category, current: str, lang: str
                   ) -> list[Choice]:
    if state.phase != "turns":
        return []
    return card_choices(legal.accusation_choices(state, seat)[category], current, lang)


def why_choices(state: GameState, seat: int, current: str, lang: str) -> list[Choice]:
    """The cards in play for `casebook why`, those the seat cannot see first (the ones whose
    marks need explaining); from the seat's own view only."""
    if state.phase == "passing":
        return []
    known = player_view(state, seat).known()
    cards = cards_in_play(state.players)
    return card_choices([c for c in cards if c not in known] + [c for c in cards if c in known],
                        current, lang)


def subject_choices(state: GameState, current: str, lang: str) -> list[Choice]:
    return [
        (words.subject_label(lang, s), s)
        for s in legal.question_subjects(state)
        if i18n.typed_in(current, s, words.subject_label(i18n.SOURCE, s),
                          words.subject_label(lang, s))
    ][:25]


def letter_choices(state: GameState, seat: int, current: str, lang: str) -> list[Choice]:
    peeks = state.seats[seat].peeks
    return [
        (tr(lang, "{letter} (you saw {card})", letter=letter,
            card=words.card_name(lang, peeks[letter])) if letter in peeks else letter, letter)
        for letter in legal.informant_letters(state)
        if letter.startswith(current.strip().upper())
    ]


def focused_category(data: object) -> Category:
    """The category of the card option being typed (`person`, `location` or `weapon`)."""
    command = data if isinstance(data, dict) else {}
    options = (command.get("options") or [{}])[0].get("options", [])
    focused = next((o["name"] for o in options if o.get("focused")), "person")
    return Category(focused if focused in ("person", "location", "weapon") else "person")
