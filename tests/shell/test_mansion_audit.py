"""The secrecy audit of stored Mansion letters (see testkit/mansion_audit.py), sized for
the suite; `python -m bench.secrecy_audit` runs 1,000 tables of each game."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.mansion.reviewing import review_letter
from bot.messages import Outgoing
from bot.models import Table
from engine.mansion.coach import Advice, advise
from engine.mansion.events import Event
from engine.mansion.state import GameState
from engine.mansion.views import PlayerView
from testkit.mansion_audit import run_mansion_audit
from testkit.plants import plant_leaks

GAMES = 4
SERIES = {"series": 2, "variant": "standard"}
"""A standard series: game 2 is dealt with game 1's end, so its hands and solution are
secret when game 1's reviews go out."""


async def test_no_mansion_letter_tells_anyone_a_secret(tmp_path: Path) -> None:
    audit = await run_mansion_audit(tmp_path / "audit.sqlite3", GAMES, seed=1)
    print(audit.report())
    audit.assert_clean(GAMES)
    assert audit.lines > 0 and audit.checked["pictures"] > 0
    assert audit.delivered["dealt"] > 0 and audit.delivered["shown"] > 0
    assert audit.delivered["snooped"] > 0
    assert audit.checked["asked"] > 0  # refuters asked which card to show, none told


async def test_the_mansion_audit_checks_hints_and_sees_a_planted_hint_leak(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At full assist the hint of the seat to play is checked after every change; a coach
    that advises its likeliest guess as if it were certain is reported."""
    from dataclasses import replace

    from bot.mansion import coaching
    from engine.mansion.actions import Accuse
    from engine.mansion.deduction import solve

    # one table: it plays at full assist (the second table of seed 7 did not, and checked
    # no hint)
    clean = await run_mansion_audit(tmp_path / "clean.sqlite3", 1, seed=7)
    assert clean.checked["hint"] > 0 and clean.leaks == [], clean.leaks[:3]
    def guessing(view: PlayerView) -> Advice:
        s, v, d = solve(view).candidates()[0]
        return replace(advise(view),
                       accusation=Accuse(seat=view.seat, suspect=s, vehicle=v, destination=d))

    monkeypatch.setattr(coaching, "advise", guessing)
    audit = await run_mansion_audit(tmp_path / "audit.sqlite3", 1, seed=7)
    assert any("cannot be sure of" in leak for leak in audit.leaks), audit.leaks[:3]


async def test_the_mansion_audit_sees_a_refuters_choice_told(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: a channel line saying a refuter chose among several is reported."""
    from bot.mansion.game import Mansion
    from engine.mansion.events import SuggestionAnswered

    news = Mansion.news

    def telling_news(self: Mansion, table: Table, state: GameState, events: Sequence[Event], *,
                       lang: str) -> str | None:
        text = news(self, table, state, events, lang=lang)
        if any(isinstance(e, SuggestionAnswered) and e.refuter is not None for e in events):
            return f"{text}\n(after choosing)"
        return text

    monkeypatch.setattr(Mansion, "news", telling_news)
    # one table: its refuters choose among several (a second proved nothing more, 2 s of CPU)
    audit = await run_mansion_audit(tmp_path / "audit.sqlite3", 1, seed=1)
    assert any("tells a choice" in leak for leak in audit.leaks), audit.leaks[:3]


async def test_the_mansion_audit_sees_a_planted_leak(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: a DM naming a card of another seat's hand, and a channel message naming
    a card of a hand, are both reported."""
    from bot.mansion.game import Mansion
    from engine.mansion.cards import CLUES

    def next_seats_card(state: GameState, seat: int) -> str | None:
        other = state.seats[(seat + 1) % len(state.seats)].clues
        if state.phase != "playing" or not other:
            return None
        return f"\npsst: {CLUES[other[0]].name}"

    def first_hands_card(state: GameState) -> str | None:
        if state.phase != "playing" or not state.seats[0].clues:
            return None
        return f"\npsst: {CLUES[state.seats[0].clues[0]].name}"

    plant_leaks(monkeypatch, Mansion, next_seats_card, first_hands_card)
    audit = await run_mansion_audit(tmp_path / "audit.sqlite3", 1, seed=3)
    assert any(" shown " in leak for leak in audit.leaks), audit.leaks[:3]
    assert any(leak.startswith("channel") for leak in audit.leaks), audit.leaks[:3]


async def test_the_mansion_audit_sees_a_planted_picture_leak(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous for pictures: a DM carrying the next seat's hand picture is reported."""
    from bot.mansion.game import Mansion
    from bot.mansion.shown import hand_picture
    from engine.mansion import player_view

    letter = Mansion.letter

    def leaky_letter(self: Mansion, table: Table, state: GameState, events: Sequence[Event],
                     seat: int, *, lang: str) -> Outgoing | None:
        out = letter(self, table, state, events, seat, lang=lang)
        if out is None or state.phase != "playing":
            return out
        other = player_view(state, (seat + 1) % len(state.seats))
        return out.model_copy(update={"pictures": [hand_picture(other, lang)]})

    monkeypatch.setattr(Mansion, "letter", leaky_letter)
    audit = await run_mansion_audit(tmp_path / "audit.sqlite3", 1, seed=3)
    assert any(leak.startswith("picture to u:") for leak in audit.leaks), audit.leaks[:3]


async def test_the_mansion_audit_sees_a_misaddressed_review(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous for reviews: a member sent the next seat's review is reported."""
    from bot.mansion import game

    letter = review_letter

    def swapped(state: GameState, seat: int, lang: str) -> Outgoing | None:
        return letter(state, (seat + 1) % len(state.seats), lang)

    monkeypatch.setattr(game, "review_letter", swapped)
    # one table: it ends with its members' reviews (a second proved nothing more, 3 s of CPU)
    audit = await run_mansion_audit(tmp_path / "audit.sqlite3", 1, seed=1)
    assert any("is not the review of seat" in leak for leak in audit.leaks), audit.leaks[:3]


async def test_the_mansion_audit_checks_each_game_of_a_series_and_sees_planted_reviews(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Series of two: every game's end owes each member their review of that game, checked
    against the engine's review of it. Not vacuous: at the end of a game the series plays
    on after, a review of another seat, or one naming the next game's hidden solution (dealt
    in the same change), is reported; and so is a member left without the last game's
    review."""
    from bot.mansion import game
    from bot.mansion.words import card_name

    def named(card: str) -> str:
        return card_name("en", card)

    clean = await run_mansion_audit(tmp_path / "clean.sqlite3", 1, seed=1, **SERIES)
    assert clean.leaks == [] and clean.missing == [], (clean.leaks[:3], clean.missing[:3])
    # the table played at least two games (first to two wins), each reviewed at its end
    assert clean.checked["review"] >= 2 and clean.delivered["review"] >= 2

    # the three plants in one series, each on a seat of its own (the first seats the bot
    # asks a review for): a series played once more instead of three times, 6 s of CPU
    letter = review_letter
    planted: dict[str, int] = {}

    def planting(state: GameState, seat: int, lang: str) -> Outgoing | None:
        if state.phase == "over":  # the series' last end: the swapped seat is left without
            return None if seat == planted.get("swapped") else letter(state, seat, lang)
        if "swapped" not in planted:
            planted["swapped"] = seat
        elif seat != planted["swapped"]:
            planted.setdefault("hidden", seat)
        plant = next((p for p, s in planted.items() if s == seat), None)
        if plant == "swapped":  # another seat's review
            return letter(state, (seat + 1) % len(state.seats), lang)
        out = letter(state, seat, lang)
        if plant != "hidden" or out is None or state.solution is None:
            return out
        # the review naming the next game's hidden solution
        secret = " · ".join(map(named, state.solution.cards()))
        told = {**out.embeds[0], "description": f"{out.embeds[0]['description']}\n{secret}"}
        return out.model_copy(update={"embeds": [told]})

    monkeypatch.setattr(game, "review_letter", planting)
    audit = await run_mansion_audit(tmp_path / "planted.sqlite3", 1, seed=1, **SERIES)
    assert planted["swapped"] != planted["hidden"], planted
    for plant in ("swapped", "hidden"):
        assert any(f"is not the review of seat {planted[plant]}" in leak
                   for leak in audit.leaks), (plant, audit.leaks[:3])
    assert f"0 reviews to seat {planted['swapped']}" in audit.missing, audit.missing[:3]


async def test_the_mansion_audit_sees_a_member_who_sits_shown_another_seats_card(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous for `sit`: the secrets sent to the member who takes over a seat are checked
    as that seat's, so a welcome DM naming a card of the next seat's hand is reported."""
    from bot.mansion.game import Mansion
    from engine.mansion.cards import CLUES

    hand = Mansion.hand

    def leaky_hand(self: Mansion, table: Table, state: GameState, seat: int, *,
                   lang: str) -> Outgoing:
        out = hand(self, table, state, seat, lang=lang)
        other = state.seats[(seat + 1) % len(state.seats)].clues
        if not other:
            return out
        return out.model_copy(update={"content": f"{out.content or ''}\npsst: "
                                                 f"{CLUES[other[0]].name}"})

    monkeypatch.setattr(Mansion, "hand", leaky_hand)
    # one table: a watcher sits at it (the three more of seed 3 cost 15 s of CPU and
    # proved nothing more)
    audit = await run_mansion_audit(tmp_path / "audit.sqlite3", 1, seed=3)
    assert audit.checked["sat"] > 0
    assert any(" shown " in leak and "psst" in leak for leak in audit.leaks), audit.leaks[:3]
