"""The pictures Mansion letters carry, as the bot stores and sends them (`bot.news.letters`,
`hand`, `/mansion notes`), drawn by the registry the bot gives its transport.

- Every picture a letter carries, at 3-5 players in both variants, draws into an attachment
  Discord takes, and the message with its pictures stays within Discord's limits.
- Secrecy of the stored inputs over seeded games: a member's letter carries only that
  seat's own hand (its own view) or its own notes; the channel carries the markers (the
  public view, nothing private in it) and the reveal only once the table is over.
- A golden image for a fixed seed, through the whole path (deal, letter, reference, drawer).
"""

from __future__ import annotations

import json

import pytest

from bot.drawings import Drawings
from bot.mansion import pictures
from bot.mansion.game import GAME
from bot.mansion.notes import notes_message
from bot.messages import Picture as PictureRef
from bot.plug import plug
from engine.mansion import GameState, player_view, public_view
from testkit.letters import play, table_for
from testkit.mansion_inputs import check_member_picture, check_public_picture
from tests.pictures.golden import check_golden
from tests.pictures.test_letters import check_letters_fit

VARIANTS = ("standard", "one-against-all")
MANSION = plug(GAME)
"""The Mansion as the shell holds it (the letters are rendered through the plug)."""


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_picture_a_mansion_letter_carries_fits_discord(players: int, variant: str
                                                             ) -> None:
    letters = play(players, 13 * players, game=MANSION, variant=variant, max_steps=400)
    kinds = check_letters_fit(Drawings.of([GAME]), letters, pictures.REVEAL)
    assert kinds == {pictures.HAND, pictures.MARKERS, pictures.REVEAL}, kinds


@pytest.mark.parametrize(("players", "variant", "seed"),
                         [(p, v, s) for p in (3, 4, 5) for v in VARIANTS for s in range(3)])
def test_no_mansion_picture_input_holds_what_its_reader_may_not_see(
        players: int, variant: str, seed: int) -> None:
    checked = {"member": 0, "channel": 0, "reveal": 0}
    for sent in play(players, 50 + seed, game=MANSION, variant=variant, max_steps=300):
        state: GameState = sent.state
        for ref in sent.body.pictures:
            if sent.over:
                assert ref.kind != pictures.MARKERS or sent.seat is not None
                checked["reveal"] += ref.kind == pictures.REVEAL
                continue
            assert ref.kind != pictures.REVEAL, "a reveal before the end"
            if sent.seat is None:
                check_public_picture(ref, state)
                checked["channel"] += 1
            else:
                check_member_picture(ref, state, sent.seat)
                checked["member"] += 1
    assert checked["member"] and checked["channel"], checked


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_markers_picture_is_drawn_again_only_when_what_it_shows_changes(variant: str
                                                                            ) -> None:
    """The living table message carries the markers at every change: their input (the key
    the picture is drawn once for) is the same for as long as no marker moves, no seat is
    eliminated and no game of the series is won, however many turns go by; the turn, the
    hands' sizes and the piles are the message's text (`table_embed`), not the picture's."""
    keys: dict[object, str] = {}
    carried = 0
    for sent in play(4, 50, game=MANSION, variant=variant, max_steps=400, hands=False):
        for ref in sent.body.pictures:
            if ref.kind != pictures.MARKERS:
                continue
            view = public_view(sent.state)
            shown = (view.round, tuple(view.tray),
                     tuple((s.marker, s.fugitive, s.eliminated, s.score) for s in view.seats))
            key = json.dumps(ref.data, sort_keys=True)
            assert keys.setdefault(shown, key) == key, f"turn {view.turn_number}: a new input"
            carried += 1
    assert len(set(keys.values())) == len(keys) > 1
    assert carried >= 4 * len(keys), (carried, len(keys))  # 115 and 12 on this seed


def test_a_hand_pictures_input_is_what_it_draws() -> None:
    """The hand picture's stored input leaves out the table's state and the other seats but
    their names: drawn from it, the picture is the one the seat's whole view gives, and the
    input changes only when that picture does (a `hand` asked again after turns that moved
    nothing of the seat's is the same input: the bot's cache answers it), in play."""
    inputs: dict[str, bytes] = {}
    carried = 0
    for sent in play(4, 51, game=MANSION, max_steps=400):
        for ref in sent.body.pictures:
            if ref.kind != pictures.HAND or sent.over:  # (the end's shows no solution)
                continue
            whole = pictures.hand_picture(player_view(sent.state, ref.data["seat"]))
            drawn = pictures.draw_hand(ref.data)
            assert drawn.png == whole.png and drawn.description == whole.description
            key = json.dumps(ref.data, sort_keys=True)
            assert inputs.setdefault(key, drawn.png) == drawn.png
            carried += 1
    # 52 carried, 31 inputs (with the whole view: nearly one input each)
    assert len(set(inputs.values())) == len(inputs) and 2 * carried >= 3 * len(inputs), \
        (carried, len(inputs))


def test_notes_carry_a_picture_at_bookkeeping_and_full_only() -> None:
    state = next(s.state for s in play(4, 9, game=MANSION, max_steps=30, hands=False)
                 if s.state.turn_number >= 3)
    view = player_view(state, 1)
    for assist, drawn in (("off", False), ("bookkeeping", True), ("full", True)):
        out = notes_message(table_for(4, MANSION, assist=assist), view, "en")
        assert bool(out.pictures) is drawn, assist
        for ref in out.pictures:
            check_member_picture(ref, state, 1)
            assert ref.embed == 0 and ref.data["notes"]["assist"] == assist
            picture = Drawings.of([GAME]).picture(ref)
            assert "notes grid" in picture.description and not picture.faces


def seeded_deal_picture(seed: int = 7) -> PictureRef:
    """Seat 0's hand picture in its deal DM, from a 4-player standard game dealt by `seed`."""
    for sent in play(4, seed, game=MANSION, max_steps=2, hands=False):
        for ref in sent.body.pictures:
            if sent.seat == 0 and ref.kind == pictures.HAND:
                return ref
    raise AssertionError("no hand picture in seat 0's deal DM")


def test_golden_seeded_deal_letter() -> None:
    """Pixel-wise against tests/golden/mansion/letter-hand-4p-seed7.png (the deal only: the
    rules' play does not move it)."""
    ref = seeded_deal_picture()
    assert ref.embed is None and ref.filename == "mansion-hand-seat1.png"
    check_golden("mansion/letter-hand-4p-seed7", Drawings.of([GAME], cache=None).draw(ref))
