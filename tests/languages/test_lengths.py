"""Translations run longer than English: the longest texts still fit Discord's limits in every
language (a rules summary is an embed's description, clipped at 4096 characters: a clipped
one would lose its end, so each must fit whole)."""

from __future__ import annotations

import itertools

import pytest

from bot import i18n
from bot.mansion.render.texts import rules_text as mansion_rules
from bot.messages import DESCRIPTION_LIMIT
from bot.registry import GAMES
from bot.thirteen_clues.render.texts import rules_text as thirteen_clues_rules
from cogs.general import help_text
from engine.thirteen_clues.state import EDITIONS

LANGUAGES = i18n.languages()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rules_summary_fits_whole(lang: str) -> None:
    texts = [thirteen_clues_rules(lang, edition, players, secret)
             for edition, players, secret in itertools.product(
                 EDITIONS, (None, 2, 3, 4, 5, 6), (False, True))]
    texts += [mansion_rules(lang, variant, series)
              for variant, series in itertools.product(("standard", "one-against-all"),
                                                       (1, 2, 3))]
    for text in texts:
        assert len(text) < DESCRIPTION_LIMIT and not text.endswith("…"), (lang, len(text))


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_rules_read_in_the_language_asked_for(lang: str) -> None:
    assert thirteen_clues_rules(lang, "2020", 4) != thirteen_clues_rules("en", "2020", 4)
    assert mansion_rules(lang, "one-against-all", 2) != mansion_rules("en", "one-against-all", 2)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_fits_one_embed_whole(lang: str) -> None:
    assert len(help_text(lang, GAMES)) < DESCRIPTION_LIMIT


def test_the_commands_named_together_are_joined_in_the_language() -> None:
    assert "`/13clues wiederholung` und `/mansion wiederholung`" in help_text("de", GAMES)
    assert "`/13clues prendre-place` et `/mansion prendre-place`" in help_text("fr", GAMES)
    assert "`/13clues watch` and `/mansion watch`" in help_text("en", GAMES)
