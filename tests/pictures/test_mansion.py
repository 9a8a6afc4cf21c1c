"""The Mansion's pictures: the hand, the markers around the tray, the notes grid and the
reveal render at 3-5 players in both variants within Discord's limits, match their golden
images, and show exactly what their viewer may see."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.mansion import notes_picture, pictures
from bot.mansion.faces import clue_face
from bot.mansion.pictures import (
    hand_page,
    hand_picture,
    markers_page,
    markers_picture,
    reveal_page,
    reveal_picture,
)
from bot.pictures import Picture
from engine.mansion import (
    player_view,
    public_view,
)
from engine.mansion.cards import CLUES
from engine.mansion.notes import notes
from engine.mansion.views import PlayerView
from testkit.positions import mansion_states
from tests.pictures import mansion_tables as tables
from tests.pictures.golden import assert_fit_for_discord, check_golden_picture

PLAYERS = (3, 4, 5)
VARIANTS = ("standard", "one_against_all")


def names(text: str) -> set[str]:
    return {c for c, info in CLUES.items() if info.name in text}


# ------------------------------------------------------------------ renders everywhere


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", PLAYERS)
def test_every_picture_fits_discord(players: int, variant: str) -> None:
    states = list(mansion_states(players, 5 * players, variant))
    middle = next(s for s in states[len(states) // 3:] if s.phase == "playing")
    for seat in range(players):
        view = player_view(middle, seat)
        assert_fit_for_discord(hand_picture(view, cache=None))
        for assist in ("bookkeeping", "full"):
            grid = notes(view, assist)
            line = pictures.table_line(view)
            names_ = [s.name for s in view.seats]
            assert_fit_for_discord(notes_picture.notes_picture(grid, names_, line, cache=None))
    assert_fit_for_discord(markers_picture(public_view(middle), cache=None))
    assert_fit_for_discord(reveal_picture(public_view(states[-1]), cache=None))


# ------------------------------------------------------------------ golden pictures


GOLDEN: dict[str, Callable[[], Picture]] = {
    "hand-4p": lambda: hand_picture(tables.hand_4p(), cache=None),
    "hand-fugitive-3p": lambda: hand_picture(tables.hand_fugitive_3p(), cache=None),
    "markers-5p-series": lambda: markers_picture(tables.markers_5p(), cache=None),
    "notes-full-4p": lambda: notes_picture.notes_picture(
        tables.notes_full_4p(), list(tables.NAMES[:4]), "Clue: Mystery Beyond the Mansion",
        cache=None),
    "notes-bookkeeping-5p": lambda: notes_picture.notes_picture(
        tables.notes_bookkeeping_5p(), list(tables.NAMES), "Clue: Mystery Beyond the Mansion",
        cache=None),
    "reveal-4p": lambda: reveal_picture(tables.reveal_4p(), cache=None),
    "reveal-escaped-3p": lambda: reveal_picture(tables.reveal_escaped_3p(), cache=None),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden(name: str) -> None:
    check_golden_picture(f"mansion/{name}", GOLDEN[name]())


def test_the_golden_tables_show_what_they_say() -> None:
    """The hand-laid scenes: each picture's faces and alt text are the ones expected."""
    hand = hand_picture(tables.hand_4p(), cache=None)
    assert hand.faces == {"mustard", "plum", "alamo", "lincoln_memorial", "action:suggest_any",
                          "action:tip_red", "marker:niagara_falls"}
    assert "You are at Niagara Falls" in hand.description
    fugitive = hand_picture(tables.hand_fugitive_3p(), cache=None)
    assert {"white", "train", "golden_gate"} <= fugitive.faces
    assert not any(f.startswith("action:") for f in fugitive.faces)
    assert "The solution (you chose it)" in fugitive.description
    markers = markers_picture(tables.markers_5p(), cache=None)
    assert all(f.startswith("marker:") for f in markers.faces) and len(markers.faces) == 9
    assert "Cid (0 won): Hoover Dam" in markers.description
    assert "turn" not in markers.description.lower()  # the table message's text says it
    assert "Eve (accused wrongly, 0 won)" in markers.description
    reveal = reveal_picture(tables.reveal_4p(), cache=None)
    assert reveal.faces == set(CLUES)
    assert reveal.description.startswith("Clue: Mystery Beyond the Mansion reveal: Zoë solved")
    escaped = reveal_page(tables.reveal_escaped_3p())[0]
    assert escaped.title == "Bartholomew Maximilian escaped"


def test_a_pale_suspect_card_is_readable() -> None:
    """Mrs. White's card is pale like 13 Clues' White suit: drawn with the dark band."""
    from bot.pictures.cards import PALE_INK, face_colours

    assert face_colours(clue_face("white").colour)[0] == PALE_INK


# ------------------------------------------------------------------ secrecy


def may_see(view: PlayerView) -> set[str]:
    """The Clue cards a seat's hand picture shows: its own hand, and the solution while it
    knows it in play (the fugitive, an accuser; at the end the reveal shows it)."""
    known = view.solution is not None and view.phase != "over"
    return set(view.clues) | (set(view.solution.cards()) if known and view.solution else set())


@pytest.mark.parametrize(("players", "variant", "seed"),
                         [(p, v, s) for p in PLAYERS for v in VARIANTS for s in range(2)])
def test_each_picture_shows_only_what_its_viewer_may_see(players: int, variant: str,
                                                         seed: int) -> None:
    """Over whole seeded games, every few states: each seat's hand picture draws exactly its
    own Clue cards (and the solution it knows), its Action cards and the markers; the
    markers picture draws markers only; the alt texts name nothing else; the reveal
    refuses a table still in play."""
    states = list(mansion_states(players, 100 + seed, variant))
    for k, state in enumerate(states):
        if k % 9 and k != len(states) - 1:
            continue
        public = public_view(state)
        if state.phase != "over":
            with pytest.raises(ValueError):
                reveal_page(public)
            _, alt = markers_page(public)
            markers = markers_picture(public, cache=None)
            assert all(f.startswith("marker:") for f in markers.faces)
            assert names(alt) <= {m for m in [*state.tray, *(s.marker for s in state.seats)]}
        for seat in range(players):
            view = player_view(state, seat)
            picture = hand_picture(view, cache=None)
            clues = {f for f in picture.faces if ":" not in f}
            assert clues == may_see(view)
            assert {f.split(":")[1] for f in picture.faces if f.startswith("action:")} == \
                set(view.actions)
            markers_ = {f.split(":")[1] for f in picture.faces if f.startswith("marker:")}
            assert markers_ == {state.seats[seat].marker} - {""}
            allowed = may_see(view) | markers_
            assert names(hand_page(view)[1]) <= allowed, (seat, k)
    over = public_view(states[-1])
    if over.rounds and over.rounds[-1].solution is not None:
        assert reveal_picture(over, cache=None).faces >= set(over.rounds[-1].solution.cards())


def test_notes_pictures_are_drawn_from_the_seats_own_notes_only() -> None:
    """The notes picture's input is the seat's own grid and the names; off draws nothing."""
    state = list(mansion_states(4, 3, steps=40))[30]
    view = player_view(state, 2)
    with pytest.raises(ValueError):
        notes_picture.notes_scene(notes(view, "off"), [s.name for s in view.seats], "x")
    grid = notes(view, "bookkeeping")
    scene = notes_picture.notes_scene(grid, [s.name for s in view.seats], "x")
    assert scene.heads[2] == "You" and scene.me == 2 and not scene.full
    marks = {(r.card, tuple(r.marks)) for _, rows in scene.blocks for r in rows}
    assert marks == {(c.card, (*c.marks, c.solution)) for c in grid.cards}
    assert not any(r.deduced for _, rows in scene.blocks for r in rows)
    exact = notes(view, "full")
    full = notes_picture.notes_scene(exact, [s.name for s in view.seats], "x")
    assert full.full and all(len(r.odds) == 5 for _, rows in full.blocks for r in rows)
    # the full grid tags each card worked out rather than seen, as its notes say
    tagged = {r.card for _, rows in full.blocks for r in rows if r.deduced}
    assert tagged == {c.card for c in exact.cards if c.deduced}
    golden = notes_picture.notes_scene(tables.notes_full_4p(), list(tables.NAMES[:4]), "x")
    assert {r.card for _, rows in golden.blocks for r in rows if r.deduced} == \
        {"scarlet", "mt_rushmore"}
    assert "Deduced, not seen: Miss Scarlet, Mt. Rushmore." in golden.description
