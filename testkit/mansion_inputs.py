"""What a Mansion picture's stored input may hold for its reader (the secrecy of picture
references in letters): used by the picture tests and the shell's secrecy audit."""

from __future__ import annotations

from typing import Any

from bot.mansion import notes_picture, pictures
from bot.messages import Picture as PictureRef
from engine.mansion import GameState, player_view, public_view
from engine.mansion.views import knows_solution


def check_member_picture(ref: PictureRef, state: GameState, seat: int) -> None:
    """A picture in a letter to `seat` before the end: its own hand or notes, or public."""
    data: dict[str, Any] = ref.data
    if ref.kind == pictures.HAND:
        own = state.seats[seat]
        assert data["seat"] == seat, "a picture of another seat's hand"
        assert data["clues"] == own.clues and data["actions"] == own.actions
        assert data == pictures.view_data(player_view(state, seat))
        if data.get("solution") is not None:
            assert knows_solution(state, seat)
    elif ref.kind == notes_picture.KIND:
        assert data["notes"]["seat"] == seat
    else:
        check_public_picture(ref, state)


def check_public_picture(ref: PictureRef, state: GameState) -> None:
    """A picture the channel may carry before the end: the markers, from the public view
    (only the markers and the seats' public tags: no hand, no solution)."""
    assert ref.kind == pictures.MARKERS, f"{ref.kind} before the end"
    assert ref.data == pictures.markers_data(public_view(state))
    assert set(ref.data) == {"options", "round", "seats", "tray"}, sorted(ref.data)
