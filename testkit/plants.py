"""Planted leaks: a game's letters and news made to tell a secret, so that each secrecy
audit proves it is not vacuous by reporting them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.messages import Outgoing
from bot.models import Table


def plant_leaks(monkeypatch: pytest.MonkeyPatch, game: type[Any],
                in_letter: Callable[[Any, int], str | None],
                in_news: Callable[[Any], str | None]) -> None:
    """Wrap `game.letter` and `game.news`: `in_letter(state, seat)` and `in_news(state)` give
    the words each appends (None: the message goes as written)."""
    letter, news = game.letter, game.news

    def leaky_letter(self: object, table: Table, state: Any, events: Sequence[Any], seat: int,
                     *, lang: str) -> Outgoing | None:
        out: Outgoing | None = letter(self, table, state, events, seat, lang=lang)
        secret = in_letter(state, seat)
        if secret is None:
            return out
        return Outgoing(content=f"{out.content if out else ''}{secret}")

    def leaky_news(self: object, table: Table, state: Any, events: Sequence[Any], *,
                   lang: str) -> str | None:
        text: str | None = news(self, table, state, events, lang=lang)
        secret = in_news(state)
        if text is None or secret is None:
            return text
        return f"{text}{secret}"

    monkeypatch.setattr(game, "letter", leaky_letter)
    monkeypatch.setattr(game, "news", leaky_news)
