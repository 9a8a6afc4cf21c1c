"""The coach's texts: every why chain reads, every review fits in one embed."""

from __future__ import annotations

import random
from typing import Literal

import discord

from bot.thirteen_clues.coaching import hint_text, why_text
from bot.thirteen_clues.reviewing import review_embed
from engine.thirteen_clues import Options, PlayerRef, new_game
from engine.thirteen_clues.bruteforce import random_position
from engine.thirteen_clues.cards import CARDS
from engine.thirteen_clues.coach import advise
from engine.thirteen_clues.review import review
from engine.thirteen_clues.state import Question
from engine.thirteen_clues.why import explain
from testkit.thirteen_clues import ai_game


def test_every_why_names_its_card_and_each_premise() -> None:
    rng = random.Random(4)
    chains = 0
    for _ in range(30):
        _, view = random_position(rng, rng.randint(2, 6), max_actions=40)
        if view.phase != "turns":
            continue
        for card in CARDS:
            text = why_text("en", view, "full", card, set())
            assert f"**{CARDS[card].name}**" in text
            why = explain(view, card)
            if why.mark == "candidate":
                assert "still possible" in text
                continue
            assert ("is on your holder" in text) == (why.mark == "certain")
            for fact in why.premises:
                if isinstance(fact, Question):
                    chains += 1
                    witness = view.seats[fact.witness].name
                    assert f"answered {fact.answer}" in text
                    assert witness in text or fact.witness == view.seat
    assert chains > 20


def test_why_at_off_and_for_a_card_crossed_out_by_hand() -> None:
    _, view = random_position(random.Random(2), 4, max_actions=10)
    card = next(c for c in CARDS if c not in view.known())
    assert "Assist is off" in why_text("en", view, "off", card, set())
    assert "yourself" in why_text("en", view, "off", card, {card})


def test_the_hint_lists_three_moves_or_the_accusation() -> None:
    _, view = random_position(random.Random(6), 5, max_actions=20)
    advice = advise(view)
    text = hint_text("en", view, advice)
    if advice.accusation is None:
        assert text.count("\n1. ") == 1 and "\n3. " in text
    else:
        assert "Certain" in text


def test_every_review_fits_one_embed() -> None:
    for players, seed in ((2, 1), (6, 2), (3, 3)):
        state, _ = new_game([PlayerRef(id=str(i), name=f"Detective {i}" * 3)
                             for i in range(players)], Options(players=players), seed)
        state = ai_game(state, "easy", random.Random(seed))
        for seat in range(players):
            embed = review_embed(state, review(state, seat), "en")
            assert isinstance(embed, discord.Embed)
            assert len(embed.description or "") <= 4096 and len(embed) <= 6000
            assert "Your mystery was" in (embed.description or "")


def test_every_mansion_review_fits_one_embed_and_names_only_its_seats_moves() -> None:
    """Long names, easy AIs (long games), both variants and a series: each member's review
    is one embed within Discord's limits; its "you:" moves are the seat's own plays."""
    from bot.mansion.reviewing import review_embed as mansion_review_embed
    from engine.mansion import legal as mansion_legal
    from engine.mansion.ai import choose_action as mansion_action
    from engine.mansion.review import review as mansion_review
    from engine.mansion.rules import apply as mansion_apply
    from engine.mansion.rules import new_game as mansion_game
    from engine.mansion.state import Options as MansionOptions
    from engine.mansion.state import PlayerRef as MansionRef
    from engine.mansion.state import Variant
    from engine.mansion.views import player_view as mansion_view

    tables: list[tuple[int, int, Variant, Literal[1, 2, 3]]] = [
        (5, 1, "standard", 1), (3, 2, "one_against_all", 1), (4, 3, "standard", 2)]
    for players, seed, variant, wins in tables:
        options = MansionOptions(players=players, variant=variant, series_wins=wins)
        state, _ = mansion_game([MansionRef(id=str(i), name=f"Detective {i}" * 3)
                                 for i in range(players)], options, seed)
        rng = random.Random(seed)
        while state.phase != "over":
            seat = mansion_legal.waiting_on(state)[0]
            state, _ = mansion_apply(state, mansion_action(mansion_view(state, seat), "easy",
                                                           rng))
        for seat in range(players):
            result = mansion_review(state, seat)
            assert all(s.played.move.seat == seat for s in result.steps)
            embed = mansion_review_embed(state, result, "en")
            assert len(embed.description or "") <= 4096 and len(embed) <= 6000
            assert "The solution was" in (embed.description or "")
