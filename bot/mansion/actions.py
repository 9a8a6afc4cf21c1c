"""What members pick or type, turned into engine actions (one builder for a slash command and
its buttons), and the choices autocomplete offers.

Builders run under the table lock on the newest state: those made by a button check that
the prompt it answers is still the seat's open prompt, so a stale click changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.errors import UserError
from bot.i18n import N_
from bot.mansion import words
from bot.mansion.family import Build, check_prompt
from engine.mansion import GameState
from engine.mansion import actions as act
from engine.mansion.cards import BY_KIND, CLUES, Kind
from engine.mansion.prompts import TipPrompt

Choice = tuple[str, str]
NOT_OF_KIND = {
    Kind.SUSPECT: N_("{card} is not a suspect."),
    Kind.VEHICLE: N_("{card} is not a vehicle."),
    Kind.DESTINATION: N_("{card} is not a destination."),
}
MAX_INPUT = 50
"""Longer input is never a card: refused without echoing it back."""


def card(text: str, kind: Kind) -> str:
    """The card of `kind` a member meant by `text` (id or name, any case)."""
    found = words.CARD_WORDS.find(text) if len(text) <= MAX_INPUT else None
    if found is None:
        shown = text if len(text) <= MAX_INPUT else f"{text[:20]}…"
        raise UserError("There is no card called '{name}'. Pick one from the list.", name=shown)
    if CLUES[found].kind is not kind:
        raise UserError(NOT_OF_KIND[kind], card=CLUES[found].name)
    return found


def answering(prompt: int | None, make: Callable[[GameState, int], act.Action]) -> Build:
    """A builder that first checks the seat still has the prompt `prompt` open (None: a slash
    command, which acts on whatever is open now)."""

    def build(state: GameState, seat: int) -> act.Action:
        if prompt is not None:
            open_prompt = state.prompt_for(seat)
            check_prompt(open_prompt.id if open_prompt else None, prompt)
        return make(state, seat)

    return build


# the turn ---------------------------------------------------------------------------------


def end_turn(prompt: int | None) -> Build:
    return answering(prompt, lambda s, seat: act.EndTurn(seat=seat))


def suggest_any(prompt: int, destination: str, suspect: str, vehicle: str) -> Build:
    return answering(prompt, lambda s, seat: act.SuggestAny(
        seat=seat, destination=card(destination, Kind.DESTINATION),
        suspect=card(suspect, Kind.SUSPECT), vehicle=card(vehicle, Kind.VEHICLE)))


def suggest_present(prompt: int, suspect: str, vehicle: str) -> Build:
    return answering(prompt, lambda s, seat: act.SuggestPresent(
        seat=seat, suspect=card(suspect, Kind.SUSPECT), vehicle=card(vehicle, Kind.VEHICLE)))


def move(prompt: int, destination: str) -> Build:
    return answering(prompt, lambda s, seat: act.Move(
        seat=seat, destination=card(destination, Kind.DESTINATION)))


def snoop(prompt: int, target: int) -> Build:
    return answering(prompt, lambda s, seat: act.Snoop(seat=seat, target=target))


def all_snoop(prompt: int, action_card: str) -> Build:
    return answering(prompt, lambda s, seat: act.AllSnoop(seat=seat, card=action_card))


def super_sleuth(prompt: int, action_card: str) -> Build:
    return answering(prompt, lambda s, seat: act.SuperSleuth(seat=seat, card=action_card))


def private_tip(prompt: int, action_card: str, target: int) -> Build:
    return answering(prompt, lambda s, seat: act.PrivateTip(seat=seat, card=action_card,
                                                            target=target))


def accuse(prompt: int | None, suspect: str | None, vehicle: str | None,
           destination: str | None) -> Build:
    return naming(act.Accuse, prompt, suspect, vehicle, destination)


def naming(kind: type[act.Accuse | act.ChooseSolution], prompt: int | None,
            suspect: str | None, vehicle: str | None, destination: str | None) -> Build:
    """An accusation or a fugitive's solution: both name a suspect, a vehicle and a
    destination, all three required."""

    def make(state: GameState, seat: int) -> act.Action:
        if suspect is None or vehicle is None or destination is None:
            raise UserError("Pick a suspect, a vehicle and a destination first.")
        return kind(seat=seat, suspect=card(suspect, Kind.SUSPECT),
                      vehicle=card(vehicle, Kind.VEHICLE),
                      destination=card(destination, Kind.DESTINATION))

    return answering(prompt, make)


# answers ----------------------------------------------------------------------------------


def show(prompt: int, shown: str) -> Build:
    return answering(prompt, lambda s, seat: act.ShowCard(seat=seat, card=shown))


def pick(prompt: int, position: int) -> Build:
    return answering(prompt, lambda s, seat: act.PickCard(seat=seat, position=position))


def answer_tip(prompt: int, option: int) -> Build:
    """The tip prompt's `option`-th answer (the options are fixed when the tip is passed)."""

    def make(state: GameState, seat: int) -> act.Action:
        open_prompt = state.prompt_for(seat)
        assert isinstance(open_prompt, TipPrompt)
        if not 0 <= option < len(open_prompt.options):
            raise UserError("That answer is not one of the choices.")
        return act.AnswerTip(seat=seat, cards=list(open_prompt.options[option]))

    return answering(prompt, make)


def choose_solution(prompt: int, suspect: str | None, vehicle: str | None,
                    destination: str | None) -> Build:
    return naming(act.ChooseSolution, prompt, suspect, vehicle, destination)


# choices ----------------------------------------------------------------------------------


def card_choices(kind: Kind, current: str, lang: str, first: Sequence[str] = ()
                 ) -> list[Choice]:
    """Autocomplete: the cards of `kind` whose name contains what was typed, in the
    member's language or in English (those in `first` first), labelled in their language."""
    cards = sorted(BY_KIND[kind], key=lambda c: (c not in first, BY_KIND[kind].index(c)))
    return [(words.card_label(lang, c), c) for c in cards
            if words.CARD_WORDS.matches(lang, c, current)][:25]


def why_choices(current: str, lang: str) -> list[Choice]:
    """Autocomplete of `notes why`: every Clue card whose name contains what was typed."""
    return [(words.card_label(lang, c), c) for c in CLUES
            if words.CARD_WORDS.matches(lang, c, current)][:25]


def focused_kind(data: object) -> Kind:
    """The kind of the card option being typed (`suspect`, `vehicle` or `destination`)."""
    command = data if isinstance(data, dict) else {}
    options = (command.get("options") or [{}])[0].get("options", [])
    focused = next((o["name"] for o in options if o.get("focused")), "suspect")
    return Kind(focused if focused in ("suspect", "vehicle", "destination") else "suspect")
