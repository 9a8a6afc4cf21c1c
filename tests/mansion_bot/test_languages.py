"""The Mansion in French, German and Spanish, without Discord: over whole seeded games every
message the game renders (the table message, the news, each seat's letters, prompts and
alerts, the panel and its pickers, `hand`, `log`, the notes, the hint, the why chains, the
review, the refusals) fits Discord's limits in every language, and a French reader finds no
English text of the catalogs left in any of them.

What a game's messages are worked out from does not depend on the language (the seeded game,
the odds, the why chains, the advice, the reviews: deterministic engine results), so each is
computed once per test process and rendered in every language (`Once`)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from functools import cache
from typing import Any, Literal

import pytest

from bot import i18n
from bot.mansion import components
from bot.mansion.coaching import hint_text, why_text
from bot.mansion.game import GAME
from bot.mansion.notes import choice_text, notes_message
from bot.mansion.reviewing import REVIEWER
from bot.mansion.words import card_name
from bot.messages import Outgoing
from engine.errors import RuleError
from engine.mansion import Accuse, PickCard, choices, legal, player_view
from engine.mansion.cards import ACTIONS, CLUES
from engine.mansion.coach import advise
from engine.mansion.state import Variant
from engine.mansion.why import explain
from testkit.once import Once
from tests.mansion_bot.test_rendering import CASES, fits, games, played, table_for

LANGUAGES = ("fr", "de", "es")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
LONG = 12
"""An English fragment at least this long is a sentence, not a shared word like "Notes"."""
PRINTED = tuple(info.name for info in ACTIONS.values())
"""The Action cards' printed names, English in every language (the game had no other
edition): a fragment of them is not English left behind."""


once_explain, once_advise = Once(explain), Once(advise)
REVIEWER_ONCE = dataclasses.replace(REVIEWER, review=Once(REVIEWER.review))


@pytest.fixture(autouse=True)
def _odds_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The notes' odds under the choice model (`choice_text`), the costliest of them."""
    monkeypatch.setattr(choices, "odds", ODDS_ONCE)


ODDS_ONCE = Once(choices.odds)


def strings(payload: Any) -> Iterator[str]:
    """Every text a member reads in a message payload (not custom_ids, urls, emoji)."""
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in ("content", "title", "description", "name", "value", "text", "label",
                       "placeholder") and isinstance(value, str):
                yield value
            elif isinstance(value, dict | list):
                yield from strings(value)
    elif isinstance(payload, list):
        for item in payload:
            yield from strings(item)


@cache
def english_fragments(lang: str) -> tuple[str, ...]:
    """The long English pieces of every catalog message (between its placeholders) that its
    translation in `lang` does not keep: any of them in a message means English is left."""
    found: set[str] = set()
    for message in i18n.language(lang).catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        kept = " ".join(message.string) if isinstance(message.string, tuple) \
            else str(message.string)
        for text in ids:
            for piece in PLACEHOLDER.split(str(text)):
                for line in piece.split("\n"):
                    line = line.strip(" :;,.")
                    if len(line) >= LONG and line not in kept \
                            and not any(line in name for name in PRINTED):
                        found.add(line)
    return tuple(sorted(found))


def english_in(text: str, lang: str) -> list[str]:
    return [f for f in english_fragments(lang) if f in text]


def rendered(lang: str, players: int, seed: int, variant: Variant, series: Literal[1, 2, 3]
             ) -> Iterator[tuple[str, Outgoing]]:
    """Every message of a whole seeded game, in `lang`, with where it comes from."""
    for n, (state, events) in enumerate(played(players, seed, variant, series)):
        table = table_for(state, series=series)
        news = GAME.news(table, state, events, lang=lang)
        if news:
            yield "news", Outgoing(content=news)
        yield "table", GAME.table_message(table, state, lang=lang)
        for seat in range(players):
            letter = GAME.letter(table, state, events, seat, lang=lang)
            if letter is not None:
                yield "letter", letter
            awaited = GAME.awaited(state, seat, lang=lang)
            if awaited:
                yield "awaited", Outgoing(content=awaited)
        for seat in legal.waiting_on(state) if state.phase != "over" else []:
            yield "alert", GAME.alert_dm(table, state, seat, lang=lang)
            yield "idle", Outgoing(content=GAME.idle_notice(table, state, seat, lang=lang))
        if n % 5 == 0:
            yield from _looks(lang, table, state)
    yield "log", Outgoing(content=GAME.log(table, state, lang=lang))
    for seat in range(players):
        yield "hand", GAME.hand(table, state, seat, lang=lang)
        review = REVIEWER_ONCE.letter(state, seat, lang)
        if review is not None:
            yield "review", review


@cache
def in_french(players: int, seed: int, variant: Variant, series: Literal[1, 2, 3]
              ) -> tuple[tuple[str, Outgoing], ...]:
    """Every message of a game in French, rendered once per test process: both tests below
    read them all (the French reader's and the fits of every language)."""
    return tuple(rendered("fr", players, seed, variant, series))


def _looks(lang: str, table: Any, state: Any) -> Iterator[tuple[str, Outgoing]]:
    """What a member may open at any moment: hand, panel, pickers, notes, hint, why."""
    for seat in range(len(state.seats)):
        view = player_view(state, seat)
        yield "hand", GAME.hand(table, state, seat, lang=lang)
        try:
            yield "panel", components.open_panel(table.id, view, lang, hint=True)
        except Exception as refused:
            yield "refusal", Outgoing(content=GAME.refusal(refused, lang=lang)
                                      if isinstance(refused, RuleError)
                                      else refused.text(lang))  # type: ignore[attr-defined]
        if view.prompt is not None and view.prompt.kind == "play":
            pid = view.prompt.id
            for card in legal.playable_cards(view, seat):
                yield "step", components.card_step(table.id, view, card, lang)
            yield "picker", components.suggest_any_picker(
                table.id, view, ["golden_gate", "scarlet", None], lang)
            yield "picker", components.suggest_present_picker(
                table.id, view, ["plum", None, None], lang)
            yield "accuse", components.accuse_picker(table.id, pid, [None] * 3, lang)
            yield "hint", Outgoing(content=hint_text(view, once_advise(view), lang))
        yield "notes", notes_message(table, view, lang, choice=choice_text(view, lang))
        if state.phase == "playing":
            card = sorted(CLUES)[(state.step + seat) % len(CLUES)]
            yield "why", Outgoing(content=why_text(view, "full", once_explain(view, card),
                                                   lang))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("players", "seed", "variant", "series"), CASES[:3])
def test_every_message_fits_discord_in_every_language(lang: str, players: int, seed: int,
                                                      variant: Variant,
                                                      series: Literal[1, 2, 3]) -> None:
    kinds = set()
    every = (in_french(players, seed, variant, series) if lang == "fr"
             else rendered(lang, players, seed, variant, series))
    for where, out in every:
        fits(out, where)
        kinds.add(where)
    assert {"news", "table", "letter", "hand", "panel", "notes", "log", "review"} <= kinds


@pytest.mark.parametrize(("players", "seed", "variant", "series"), CASES)
def test_no_english_is_left_for_a_french_reader(players: int, seed: int, variant: Variant,
                                                series: Literal[1, 2, 3]) -> None:
    seen = 0
    for where, out in in_french(players, seed, variant, series):
        for text in strings(out.payload()):
            assert not english_in(text, "fr"), (where, english_in(text, "fr"), text)
            seen += 1
    assert seen > 200


def test_the_check_finds_english_where_it_is_left() -> None:
    """The test above fails when a text is left English: the same game in English is full of
    the fragments it looks for."""
    state = next(s for s, _ in games(4, 2, "standard", 1)
                 if any(p.kind == "play" for p in s.prompts))
    table = table_for(state)
    english = GAME.table_message(table, state, lang="en").payload()
    assert any(english_in(t, "fr") for t in strings(english))
    french = GAME.table_message(table, state, lang="fr").payload()
    assert not any(english_in(t, "fr") for t in strings(french))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_engines_refusals_are_in_the_readers_language(lang: str) -> None:
    """The engine keeps its English template and parameters; the game words them in the
    reader's language, card names included (a name a member typed stays as typed)."""
    state = next(s for s, _ in games(4, 3, "standard", 1)
                 if any(p.kind == "play" for p in s.prompts))
    seat = state.turn
    other = next(s for s in range(len(state.seats)) if s != seat)
    refusals = {}
    for key, action in (
        ("not a vehicle", Accuse(seat=seat, suspect="scarlet", vehicle="plum",
                                 destination="alamo")),
        ("no such card", Accuse(seat=seat, suspect="batmobile", vehicle="train",
                                destination="alamo")),
        ("not your turn", Accuse(seat=other, suspect="plum", vehicle="train",
                                 destination="alamo")),
        ("play first", PickCard(seat=seat, position=9)),
    ):
        with pytest.raises(RuleError) as raised:
            GAME.apply(state, action)
        english = GAME.refusal(raised.value, lang="en")
        assert english == str(raised.value)  # the English wording is the engine's own
        refusals[key] = GAME.refusal(raised.value, lang=lang)
        assert refusals[key] != english and not english_in(refusals[key], lang), refusals[key]
    assert card_name(lang, "plum") in refusals["not a vehicle"]
    assert "Professor Plum" not in refusals["not a vehicle"]
    assert "batmobile" in refusals["no such card"]
    assert state.seats[seat].name in refusals["not your turn"]
