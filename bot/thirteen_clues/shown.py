"""The pictures 13 Clues messages carry, as references stored with the letter (kind, input
JSON, file name, the embed that shows it); `bot.thirteen_clues.pictures` draws them when the
letter is sent. Each input is what its reader may see: a seat's own view (never its holder
before the end), or the end-of-game reveal."""

from __future__ import annotations

from bot.messages import Picture
from bot.thirteen_clues import pictures
from engine.thirteen_clues.events import GameOver
from engine.thirteen_clues.views import PlayerView, PublicView


def view_picture(view: PlayerView, lang: str, *, embed: int | None = None) -> Picture:
    """What the seat sees, as a picture in its member's language: its input is the seat's
    own view (never its holder before the end), drawn when the letter is sent."""
    return Picture(kind=pictures.VIEW, data=pictures.view_data(view, lang=lang),
                   filename=f"13clues-seat{view.seat + 1}.png", embed=embed)


def reveal_picture(over: GameOver, view: PublicView, lang: str, *, embed: int | None = None
                   ) -> Picture:
    """The end-of-game reveal, in the language of whoever reads it (the table's, in the
    channel)."""
    return Picture(kind=pictures.REVEAL, data=pictures.reveal_data(over, view, lang=lang),
                   filename="13clues-reveal.png", embed=embed)


def casebook_picture(view: PlayerView, lang: str, *, embed: int | None = None) -> Picture:
    """The full-assist casebook grid; its input is the seat's view (the drawer solves it)."""
    return Picture(kind=pictures.CASEBOOK,
                   data=pictures.view_data(view, lang=lang, accusations=True),
                   filename=f"13clues-casebook-seat{view.seat + 1}.png", embed=embed)
