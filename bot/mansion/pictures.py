"""Clue: Mystery Beyond the Mansion as pictures: a seat's hand, the markers around the tray,
the reveal, and (in `notes_picture`) the notes grid.

Pure functions from the engine's views to a `Picture`, drawn with the shared toolkit as 13
Clues' are; no discord import. Secrecy is structural: `hand_picture` reads one seat's
`PlayerView`, `markers_picture` a `PublicView`, and `reveal_picture` refuses a view whose
game is not over. Each picture is first a `Page`, whose JSON is exactly what it shows (the
cache key).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.mansion import notes_picture
from bot.mansion.faces import KIND_LABELS, action_slot, clue_slot, marker_slot
from bot.pictures.cache import PictureCache
from bot.pictures.cards import SMALL_CARD
from bot.pictures.colours import THEME
from bot.pictures.fonts import text_width
from bot.pictures.names import alt_name, drawn_name, possessive
from bot.pictures.page import PANEL_GAP, ROW_WIDTH, Page, pack_rows, page_picture, same_width
from bot.pictures.panels import SUBTITLE, TITLE, Group, Panel
from bot.pictures.picture import Picture
from engine.mansion.cards import ACTIONS, BY_KIND, CLUES, Kind
from engine.mansion.records import Accused
from engine.mansion.state import RoundResult
from engine.mansion.views import PlayerView, PublicView

CACHE = PictureCache()
"""The process-wide cache for these pictures; pass `cache=None` to render afresh."""

HAND, MARKERS, REVEAL, NOTES = "mbm.hand", "mbm.markers", "mbm.reveal", notes_picture.KIND
"""The kinds of picture a Mansion letter may carry (see `DRAWERS`)."""

VARIANTS = {"standard": "standard game", "one_against_all": "One Against All"}
HAND_WIDTH = 1140
"""A hand's row: five Clue cards with the Action cards and the marker beside them."""


# ------------------------------------------------------------------------- public API


def hand_picture(view: PlayerView, *, cache: PictureCache | None = CACHE) -> Picture:
    """One seat's hand: its Clue cards, its Action cards, its destination marker (and the
    solution when this seat knows it: the fugitive, an accuser)."""
    page, description = hand_page(view)
    return page_picture(page, f"mansion-hand-seat{view.seat + 1}.png", description, cache)


def markers_picture(view: PublicView, *, cache: PictureCache | None = CACHE) -> Picture:
    """Where everyone is: each seat's destination marker around the tray and the markers
    lying by it (all public)."""
    page, description = markers_page(view)
    return page_picture(page, "mansion-markers.png", description, cache)


def reveal_picture(view: PublicView, *, cache: PictureCache | None = CACHE) -> Picture:
    """The end of the table: the last game's solution and every hand, the winner framed."""
    page, description = reveal_page(view)
    return page_picture(page, "mansion-reveal.png", description, cache)


# ------------------------------------------------------------------------- stored inputs

_UNDRAWN: dict[str, Any] = {"observations": [], "waiting": [], "rounds": [], "played": None,
                            "prompt": None}
"""Fields of a view no picture draws: left out of the stored input (smaller letters, and a
cache key that does not change with them), put back empty when drawing."""


def view_data(view: PublicView, *, rounds: bool = False) -> dict[str, Any]:
    """The stored input of a picture of `view`: the view without what no picture draws
    (the finished games of the series too, unless the reveal needs them)."""
    skip = {"observations", "waiting", "played"}
    if isinstance(view, PlayerView):
        skip.add("prompt")
    if not rounds:
        skip.add("rounds")
    return view.model_dump(mode="json", exclude=skip)


def _player(data: dict[str, Any]) -> PlayerView:
    return PlayerView.model_validate({**_UNDRAWN, **data})


def _public(data: dict[str, Any]) -> PublicView:
    public = {k: v for k, v in _UNDRAWN.items() if k != "prompt"}
    return PublicView.model_validate({**public, **data})


def draw_hand(data: dict[str, Any]) -> Picture:
    return hand_picture(_player(data))


def draw_markers(data: dict[str, Any]) -> Picture:
    return markers_picture(_public(data))


def draw_reveal(data: dict[str, Any]) -> Picture:
    return reveal_picture(_public(data))


def warm_up() -> None:
    """Draw a sample hand and the markers once (fonts, card faces): the first real picture
    is then as fast as the rest."""
    from engine.mansion import Options, PlayerRef, new_game, player_view, public_view

    seats = [PlayerRef(id=f"w{i}", name=f"Seat {i + 1}") for i in range(5)]
    state, _ = new_game(seats, Options(players=5), 0)
    hand_picture(player_view(state, 0), cache=None)
    markers_picture(public_view(state), cache=None)


DRAWERS: dict[str, Callable[[dict[str, Any]], Picture]] = {
    HAND: draw_hand,
    MARKERS: draw_markers,
    REVEAL: draw_reveal,
    NOTES: notes_picture.draw_notes,
}
"""What the bot's picture registry draws for the Mansion (it caches by the stored input)."""


# ------------------------------------------------------------------------- shared bits


def _name(view: PublicView, seat: int) -> str:
    return drawn_name(view.seats[seat].name, seat)


def _alt(view: PublicView, seat: int) -> str:
    return alt_name(view.seats[seat].name, seat)


def _names(cards: list[str] | tuple[str, ...]) -> str:
    return ", ".join(CLUES[c].name for c in cards) or "none"


def table_line(view: PublicView) -> str:
    line = (f"Clue: Mystery Beyond the Mansion · {len(view.seats)} players · "
            f"{VARIANTS[view.options.variant]}")
    if view.options.series_wins > 1:
        line += f" · game {view.round}, first to {view.options.series_wins} wins"
    return line


def _by_kind(cards: list[str]) -> list[Group]:
    """A hand as groups of Suspects, Vehicles, Destinations (in the table's order)."""
    groups = []
    for kind in Kind:
        mine = [c for c in BY_KIND[kind] if c in cards]
        if mine:
            groups.append(Group([clue_slot(c) for c in mine], KIND_LABELS[kind] + "s"))
    return groups


def _seat_panel(title: str, groups: list[Group], note: str, subtitle: str, *, winner: bool,
                badge: str) -> Panel:
    """A seat's panel of small cards, wide enough for its title, badge and note side by
    side (the note sits at the right of the title line)."""
    room = text_width(title, TITLE) + (text_width(badge, 12) + 40 if badge else 0)
    room += text_width(note, SUBTITLE) + 24 if note else 0
    return Panel(title, groups, subtitle=subtitle, note=note, card=SMALL_CARD,
                 min_width=max(190, room), highlight=THEME.accent if winner else None,
                 badge=badge)


# ------------------------------------------------------------------------- a seat's hand


def hand_page(view: PlayerView) -> tuple[Page, str]:
    """The page and alt text of `hand_picture`: built from the seat's PlayerView alone."""
    me = view.seat
    info = view.seats[me]
    alt = [f"{possessive(_alt(view, me))} hand at a {len(view.seats)}-player Clue: Mystery "
           "Beyond the Mansion table."]
    panels: list[Panel] = []
    if view.clues:
        panels.append(Panel("Your Clue cards", _by_kind(view.clues),
                            subtitle="Only you see these; show one to disprove"))
        alt.append(f"Your Clue cards: {_names(view.clues)}.")
    play: list[Group] = []
    if not info.fugitive and view.actions:
        play.append(Group([action_slot(a) for a in view.actions], "Action cards"))
        alt.append("Your Action cards: " + ", ".join(ACTIONS[a].name for a in view.actions) + ".")
    elif not info.fugitive:
        alt.append("No Action cards" + (": you accused wrongly." if info.eliminated else "."))
    if info.marker:
        play.append(Group([marker_slot(info.marker)], "You are at"))
        alt.append(f"You are at {CLUES[info.marker].name}.")
    if play:
        title = "Your Action cards" if len(play) == 2 else play[0].label
        subtitle = "Play one on your turn" if len(play) == 2 else ""
        if play[-1].label == "You are at":
            subtitle = (subtitle + " · your marker" if subtitle else "Your destination marker")
        if len(play) == 1:  # its title says what it is
            play = [Group(play[0].slots)]
        panels.append(Panel(title, play, subtitle=subtitle, min_width=150))
    if view.solution is not None and view.phase != "over":
        how = "you chose it" if info.fugitive else "you saw it when you accused"
        cards = list(view.solution.cards())
        panels.append(Panel("The solution", [Group([clue_slot(c, ring=THEME.accent)
                                                    for c in cards])], subtitle=how.capitalize()))
        alt.append(f"The solution ({how}): {_names(cards)}.")
    tags = []
    if info.fugitive:
        tags.append("the fugitive")
    if info.eliminated:
        tags.append("accused wrongly")
    title = f"{_name(view, me)} · your hand" + (f" ({', '.join(tags)})" if tags else "")
    if not panels:
        panels.append(Panel("Your Clue cards", [Group([])],
                            subtitle="Dealt once the fugitive has chosen the solution",
                            min_width=360))
        alt.append("No Clue cards yet.")
    page = Page(title=title, subtitle=table_line(view), rows=pack_rows(panels, HAND_WIDTH))
    return page, " ".join(alt)


# ------------------------------------------------------------------------- the markers


def markers_page(view: PublicView) -> tuple[Page, str]:
    """The page and alt text of `markers_picture`: the seats clockwise around the tray (the
    first half along the top, left to right, the rest along the bottom, right to left)."""
    n = len(view.seats)
    playing = view.phase == "playing"
    alt = [f"Where everyone is at a {n}-player Clue: Mystery Beyond the Mansion table"
           + (f", turn {view.turn_number}." if playing and view.turn_number else ".")]
    seats: list[Panel] = []
    for i, info in enumerate(view.seats):
        turn = playing and i == view.turn
        notes = [w for w, on in (("fugitive", info.fugitive),
                                 ("accused wrongly", info.eliminated)) if on]
        cards = f"{info.clue_count} Clue" + ("" if info.fugitive else
                                            f" · {info.action_count} Action")
        won = f"{info.score} won" if view.options.series_wins > 1 else ""
        slots = [marker_slot(info.marker)] if info.marker else []
        seats.append(_seat_panel(_name(view, i), [Group(slots)], " · ".join(notes),
                                 " · ".join(x for x in (cards, won) if x), winner=turn,
                                 badge="Turn" if turn else ""))
        where = CLUES[info.marker].name if info.marker else "no marker yet"
        tags = [*notes, *([won] if won else []), *(["their turn"] if turn else [])]
        extra = f" ({', '.join(tags)})" if tags else ""
        alt.append(f"{_alt(view, i)}{extra}: {where}.")
    seats = same_width(seats)
    top = (n + 1) // 2
    tray = Panel("By the tray", [Group([marker_slot(d) for d in view.tray])],
                 subtitle="Free markers: a Suggestion from ANY destination takes one",
                 card=SMALL_CARD, min_width=380)
    alt.append(f"By the tray: {_names(view.tray)}.")
    rows = [seats[:top], [tray], list(reversed(seats[top:]))]
    footer = (f"Clockwise: {' > '.join(_name(view, i) for i in range(n))} · "
              f"draw pile {view.draw_size} · discard {len(view.discard)}")
    title = "Where everyone is" + (f" · turn {view.turn_number}"
                                   if playing and view.turn_number else "")
    page = Page(title=title, subtitle=table_line(view), rows=rows, footer=footer)
    return page, " ".join(alt)


# ------------------------------------------------------------------------- the reveal


def reveal_page(view: PublicView) -> tuple[Page, str]:
    """The page and alt text of `reveal_picture`: the last game of the table, revealed."""
    if view.phase != "over" or not view.rounds:
        raise ValueError("Only a finished table is revealed.")
    last: RoundResult = view.rounds[-1]
    if last.solution is None:
        raise ValueError("The table ended before the solution was chosen: nothing to reveal.")
    winner = last.winner
    series = view.options.series_wins > 1
    title, headline = _reveal_title(view, last)
    alt = [f"Clue: Mystery Beyond the Mansion reveal: {headline}"]
    solution = list(last.solution.cards())
    panels = [Panel("The solution", [Group([clue_slot(c, ring=THEME.accent)
                                            for c in solution])], card=SMALL_CARD,
                    subtitle="Suspect, Vehicle, Destination")]
    alt.append(f"The solution: {_names(solution)}.")
    wrong = {r.seat for r in last.log if isinstance(r, Accused) and not r.correct}
    seats: list[Panel] = []
    for seat, hand in enumerate(last.hands):
        won = seat == winner
        notes = [w for w, on in (("fugitive", seat == last.fugitive),
                                 ("accused wrongly", seat in wrong)) if on]
        score = f"{view.seats[seat].score} won in the series" if series else ""
        badge = "" if not won else ("Escaped" if seat == last.fugitive else "Winner")
        seats.append(_seat_panel(_name(view, seat), _by_kind(hand) or [Group([])],
                                 " · ".join(notes), score, winner=won, badge=badge))
        tags = [*notes, *([score] if score else [])]
        extra = f" ({', '.join(tags)})" if tags else ""
        alt.append(f"{_alt(view, seat)}{extra}{' wins' if won else ''}: {_names(hand)}.")
    seats = same_width(seats)
    width = max(ROW_WIDTH, 2 * seats[0].size[0] + PANEL_GAP)
    subtitle = table_line(view) + " · everything revealed"
    if series and view.master is not None:
        subtitle += f" · Master Detective: {_name(view, view.master)}"
    page = Page(title=title, subtitle=subtitle, rows=[panels, *pack_rows(seats, width)])
    return page, " ".join(alt)


def _reveal_title(view: PublicView, last: RoundResult) -> tuple[str, str]:
    """The picture's title and the alt text's first sentence."""
    winner = last.winner
    if last.how == "escaped" and winner is not None:
        return (f"{_name(view, winner)} escaped",
                f"{_alt(view, winner)}, the fugitive, escaped.")
    if last.how == "solved" and winner is not None:
        return (f"Case closed · {_name(view, winner)} solved it",
                f"{_alt(view, winner)} solved the case.")
    if last.how == "abandoned":
        return "Table closed · the solution", "the table was closed before anyone solved it."
    return "Case closed · nobody solved it", "every accusation was wrong."
