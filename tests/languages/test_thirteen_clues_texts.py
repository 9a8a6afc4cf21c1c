"""No English is left in what 13 Clues writes to a French reader: seeded games rendered in
French, every text of every kind (the living table message, the news, each seat's DMs and
casebook, `hand`, `log`, the reveal, the reviews, the coach, the pickers, the engine's
refusals), and no English text of the catalogs (a message id, or a piece of one between its
placeholders, at least 12 characters long, that French does not write the same) appears in
any of it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.locales.__main__ import TEMPLATE
from bot.messages import Outgoing
from bot.models import SeatRef, Table
from bot.thirteen_clues import components
from bot.thirteen_clues.casebook import casebook_message, choice_text
from bot.thirteen_clues.coaching import why_text
from bot.thirteen_clues.components import AccusePicker, AskDraft
from bot.thirteen_clues.game import GAME
from bot.thirteen_clues.reviewing import review_letter
from engine.errors import RuleError
from engine.thirteen_clues import (
    Accuse,
    ChoosePass,
    GameState,
    Options,
    apply,
    legal,
    new_game,
    player_view,
)
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.coach import advise
from testkit.thirteen_clues import refs

LANG = "fr"
SHORTEST = 12
"""Shorter pieces ("Tour", "Ask") could be a French word or a name."""
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@cache
def english_left() -> tuple[str, ...]:
    """Every piece of English the catalogs translate into French differently."""
    with TEMPLATE.open("rb") as source:
        template = read_po(source)
    french = " ".join(str(m.string) if isinstance(m.string, str) else " ".join(m.string or ())
                      for m in i18n.language(LANG).catalog if m.id)
    pieces: set[str] = set()
    for message in template:
        for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
            for piece in PLACEHOLDER.split(str(text or "")):
                piece = piece.strip(" .,:;()—·*`\n")
                if len(piece) >= SHORTEST and piece not in french:
                    pieces.add(piece)
    return tuple(sorted(pieces))


def texts_of(out: Outgoing | str | None) -> Iterator[str]:
    """Every word a message shows: its content, embeds and controls."""
    if out is None:
        return
    if isinstance(out, str):
        yield out
        return
    if out.content:
        yield out.content
    for embed in out.embeds:
        yield from (str(embed.get(k) or "") for k in ("title", "description"))
        yield str((embed.get("footer") or {}).get("text") or "")
        for field in embed.get("fields") or []:
            yield f"{field['name']}\n{field['value']}"
    yield from _controls(out.components)


def _controls(components: list[dict[str, Any]]) -> Iterator[str]:
    for item in components:
        yield from (str(item.get(k) or "") for k in ("label", "placeholder"))
        for option in item.get("options") or []:
            yield from (str(option.get(k) or "") for k in ("label", "description"))
        yield from _controls(item.get("components") or [])


def _table(players: int, edition: str, assist: str, top_secret: bool) -> Table:
    return Table(id=7, guild_id=1, channel_id=2, game="13clues", status="playing", host_id=1,
                 options={"edition": edition, "assist": assist, "top_secret": top_secret},
                 seats=[SeatRef(name=name, user_id=i + 1)
                        for i, name in enumerate(("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")[
                            :players])])


def _wrong_categories(state: GameState, seat: int) -> RuleError:
    """An engine refusal naming cards: a Location named as the Person."""
    location = next(c for c, info in CARDS.items() if info.category == Category.LOCATION)
    weapon = next(c for c, info in CARDS.items() if info.category == Category.WEAPON)
    with pytest.raises(RuleError) as refused:
        apply(state, Accuse(seat=seat, person=location, location=location, weapon=weapon))
    return refused.value


def rendered(players: int, edition: str, top_secret: bool, assist: str, seed: int,
             lang: str = LANG) -> list[str]:
    """Everything the game writes in `lang` over one seeded game played by easy AIs."""
    table = _table(players, edition, assist, top_secret)
    lobby = table.model_copy(update={"status": "lobby", "seats": table.seats[:1]})
    texts = [*texts_of(GAME.table_message(lobby, None, lang=lang)),
             GAME.rules(table, lang)]
    rng = random.Random(seed)
    options = Options(players=players, edition=edition,  # type: ignore[arg-type]
                      top_secret=top_secret)
    state, events = new_game(refs(players), options, seed)
    step = 0
    while True:
        texts += texts_of(GAME.table_message(table, state, lang=lang))
        texts += texts_of(GAME.news(table, state, events, lang=lang))
        for seat in range(players):
            view = player_view(state, seat)
            texts += texts_of(GAME.letter(table, state, events, seat, lang=lang))
            for out in GAME.slots(table, state, events, seat, catch_up=step % 3 == 0,
                                  lang=lang).values():
                texts += texts_of(out)
            texts += texts_of(GAME.hand(table, state, seat, lang=lang))
            texts += texts_of(GAME.awaited(state, seat, lang=lang))
            if step % 4 == 0 and state.phase == "turns":
                advice = advise(view) if assist == "full" and seat == state.turn else None
                why = rng.choice(list(CARDS))
                texts += texts_of(casebook_message(lang, table, view, {"ruled_out": [why]},
                                                   advice=advice, why=why,
                                                   choice=choice_text(lang, view)))
                texts.append(why_text(lang, view, assist, why, set()))  # type: ignore[arg-type]
        texts += texts_of(GAME.log(table, state, lang=lang))
        if state.phase == "over":
            break
        waiting = legal.waiting_on(state)
        seat = waiting[0]
        texts.append(GAME.idle_notice(table, state, seat, lang=lang))
        if state.phase == "turns" and state.turn == seat:
            view = player_view(state, seat)
            texts.append(GAME.refusal(_wrong_categories(state, seat), lang=lang))
            texts.append(GAME.refusal(legal.not_your_turn(state, (seat + 1) % players),
                                      lang=lang))
            picked = [rng.choice(c) if c else None
                      for c in legal.accusation_choices(state, seat).values()]
            for picker in (components.AskPicker.picker(lang, table, view, AskDraft()),
                           AccusePicker.picker(lang, table, state, seat, picked)):
                texts += _controls(picker.to_components())
            if sources := legal.take_sources(state, seat):
                texts += _controls(components.TakePicker.picker(
                    lang, table, view, sources).to_components())
            elif view.letters:
                texts += _controls(components.InformantPicker.picker(
                    lang, table, view).to_components())
        action = GAME.ai_action(state, seat, "easy", rng)
        if isinstance(action, ChoosePass) and step == 0:
            texts.append(GAME.refusal(_refused_pass(state, action), lang=lang))
        state, events = apply(state, action)
        step += 1
    for seat in range(players):
        texts += texts_of(GAME.farewell(table, state, seat, lang=lang))
        texts += texts_of(review_letter(state, seat, lang))
        texts += texts_of(GAME.hand(table, state, seat, lang=lang))
    return texts


def _refused_pass(state: GameState, action: ChoosePass) -> RuleError:
    """Passing a card the seat was not dealt."""
    other = next(c for c, info in CARDS.items()
                 if info.category == Category.PERSON and c not in state.seats[action.seat].dealt)
    with pytest.raises(RuleError) as refused:
        apply(state, action.model_copy(update={"person": other}))
    return refused.value


@pytest.mark.parametrize(("players", "edition", "top_secret", "assist", "seed"), [
    (3, "2020", True, "full", 4),
    (2, "2016", False, "bookkeeping", 5),
    (5, "2016", True, "off", 6),
])
def test_no_english_is_left_in_a_french_game(players: int, edition: str, top_secret: bool,
                                             assist: str, seed: int) -> None:
    texts = rendered(players, edition, top_secret, assist, seed)
    whole = "\n".join(texts)
    assert "porte-cartes" in whole and len(texts) > 200  # French, and a whole game of it
    left = [(piece, next(t for t in texts if piece in t))
            for piece in english_left() if piece in whole]
    assert not left, left[:5]


def test_the_check_finds_english() -> None:
    """The same game in English shows many of the pieces it looks for."""
    english = "\n".join(rendered(3, "2020", True, "full", 4, lang="en"))
    assert sum(piece in english for piece in english_left()) > 100
