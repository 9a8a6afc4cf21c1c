"""The pictures Mansion messages carry, as references stored with the letter (kind, input
JSON, file name, the embed that shows it); `bot.mansion.pictures` draws them when the letter
is sent. Each input is what its reader may see: a seat's own view, the public view (the
markers), the reveal once the table is over, a seat's own notes grid."""

from __future__ import annotations

from bot.mansion import notes_picture, pictures
from bot.messages import Picture
from engine.mansion.notes import Notes
from engine.mansion.views import PlayerView, PublicView


def hand_picture(view: PlayerView, lang: str, *, embed: int | None = None) -> Picture:
    """The seat's hand, in its member's language: its input is the seat's own view."""
    return Picture(kind=pictures.HAND, data=pictures.view_data(view, lang=lang),
                   filename=f"mansion-hand-seat{view.seat + 1}.png", embed=embed)


def markers_picture(view: PublicView, lang: str, *, embed: int | None = None
                    ) -> Picture | None:
    """The markers around the tray (public, in the table's language); None before every
    seat has its marker. Its input is what it shows (`pictures.Markers`), not the whole
    view: it stays the same, and is drawn once, for as long as no marker moves."""
    if any(not s.marker for s in view.seats):
        return None
    return Picture(kind=pictures.MARKERS, data=pictures.markers_data(view, lang=lang),
                   filename="mansion-markers.png", embed=embed)


def reveal_picture(view: PublicView, lang: str, *, embed: int | None = None
                   ) -> Picture | None:
    """The reveal of the table's last game; None before the end, or when the table ended
    before the solution was chosen (nothing to reveal)."""
    if view.phase != "over" or not view.rounds or view.rounds[-1].solution is None:
        return None
    return Picture(kind=pictures.REVEAL, data=pictures.view_data(view, lang=lang, rounds=True),
                   filename="mansion-reveal.png", embed=embed)


def notes_grid_picture(grid: Notes, view: PlayerView, lang: str, *, embed: int | None = None
                       ) -> Picture | None:
    """The seat's notes grid, drawn at bookkeeping and full assist only."""
    if grid.assist not in notes_picture.DRAWN_ASSISTS:
        return None
    data = notes_picture.notes_data(grid, [s.name for s in view.seats],
                                    pictures.table_line(view, lang), lang)
    return Picture(kind=notes_picture.KIND, data=data,
                   filename=f"mansion-notes-seat{view.seat + 1}.png", embed=embed)
