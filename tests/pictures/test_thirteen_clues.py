"""13 Clues pictures: every kind renders at 2-6 players in both editions within Discord's
limits, matches its golden image, and never shows a seat its own holder before the end."""

from __future__ import annotations

import inspect
import io
import random
import re
from collections.abc import Callable, Iterator

import pytest
from PIL import Image, ImageDraw

from bot.pictures import Picture, PictureCache
from bot.pictures.fonts import font
from bot.thirteen_clues.pictures import (
    casebook_picture,
    casebook_scene,
    face,
    player_page,
    player_picture,
    reveal_page,
    reveal_picture,
)
from engine.thirteen_clues import (
    Abandon,
    GameState,
    Options,
    PlayerView,
    apply,
    new_game,
    player_view,
    public_view,
    reveal,
)
from engine.thirteen_clues.cards import CARDS, cards_in_play
from engine.thirteen_clues.deduction import solve
from engine.thirteen_clues.events import GameOver
from engine.thirteen_clues.state import Edition
from testkit.events import of_type
from testkit.positions import game_states
from testkit.thirteen_clues import eventual_holder, refs
from tests.pictures import tables
from tests.pictures.golden import assert_fit_for_discord, check_golden, compare, pixel

EDITIONS: tuple[Edition, ...] = ("2020", "2016")
PLAYERS = (2, 3, 4, 5, 6)


def names_in(text: str, cards: set[str]) -> set[str]:
    """Which of `cards` the text names, as whole words ("Gun" is not in "Blowgun")."""
    return {c for c in cards if re.search(rf"\b{re.escape(CARDS[c].name)}\b", text)}


def may_see(view: PlayerView) -> set[str]:
    """Everything the rules let this seat see: its five cards, the other holders, the
    informant cards it consulted; and, once the game is over, everything."""
    if view.reveal is not None:
        return set(cards_in_play(view.options.players))
    return (
        set(view.dealt)
        | set(view.peeks.values())
        | {c for cards in view.holders.values() for c in cards}
    )


# ------------------------------------------------------------------ renders everywhere


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", PLAYERS)
def test_every_picture_renders_within_limits(players: int, edition: Edition) -> None:
    states = game_states(players, seed=players, edition=edition, truth=0.0, max_steps=30)
    passing = next(s for s in states if s.phase == "passing" and s.seats[0].passed is None)
    turns = [s for s in states if s.phase == "turns"]
    middle = turns[len(turns) // 2]
    end = states[-1]
    seat = players - 1
    for picture in (
        player_picture(player_view(passing, 0), cache=None),
        player_picture(player_view(middle, seat), cache=None),
        casebook_picture(player_view(middle, seat), solve(player_view(middle, seat)), cache=None),
        reveal_picture(reveal(end), public_view(end), cache=None),
        player_picture(player_view(end, seat), cache=None),
    ):
        assert_fit_for_discord(picture)
    view = player_picture(player_view(middle, seat), cache=None)
    assert len(view.faces) == 2 + 3 * (players - 1) + len(player_view(middle, seat).peeks)


def test_the_pass_phase_shows_the_five_dealt_cards() -> None:
    for passed in (False, True):
        view = tables.passing_view(passed)
        picture = player_picture(view, cache=None)
        assert picture.faces == frozenset(view.dealt)
        assert names_in(picture.description, set(view.dealt)) == set(view.dealt)
    assert "Passed to Bob's holder" in picture.description


def test_two_players_see_left_and_right() -> None:
    view = tables.turns_view(2)
    page, description = player_page(view)
    assert "Your screen (left, right)" in description
    slots = [
        s for row in page.rows for p in row if p.title == "Your screen" for s in p.groups[0].slots
    ]
    assert [s.caption for s in slots] == ["Left", "Right"]
    assert [s.card for s in slots] == view.screen


def test_the_informant_letters_not_consulted_stay_face_down() -> None:
    view = tables.turns_view(4)  # seat 0 consulted A
    picture = player_picture(view, cache=None)
    assert view.peeks["A"] in picture.faces
    assert "face down: B, C, D" in picture.description
    informants = set(tables.table(4).informants) - set(view.peeks.values())
    assert not picture.faces & informants


def test_the_reveal_shows_everything_and_the_winner() -> None:
    over, view = tables.finished(5)
    picture = reveal_picture(over, view, cache=None)
    everything = {c for cards in over.holders + over.screens for c in cards} | set(over.informants)
    assert picture.faces == everything
    assert "Catherine solved the mystery and wins" in picture.description
    page_json = reveal_page(over, view)[0].to_json()
    assert page_json.count('"badge":"Winner"') == 1


def test_a_table_ended_during_the_pass_shows_the_deal() -> None:
    state, _ = new_game(refs(3), Options(players=3, edition="2016"), seed=3)
    state, events = apply(state, Abandon(reason="The host ended the table."))
    (over,) = of_type(events, GameOver)
    picture = reveal_picture(over, public_view(state), cache=None)
    assert_fit_for_discord(picture)
    assert picture.faces == {c for dealt in over.dealt for c in dealt} | set(over.informants)
    assert "ended before the cards were passed. The host ended the table." in picture.description
    mine = player_picture(player_view(state, 0), cache=None)
    assert_fit_for_discord(mine)
    assert mine.faces == set(state.seats[0].dealt) | set(state.informants)


def test_the_casebook_marks_what_the_deduction_says() -> None:
    view = player_view(tables.casebook_state(), 0)
    deduction = solve(view)
    scene = casebook_scene(view, deduction)
    cells = {cell.card: cell for row in scene.rows for cell in row.cells}
    assert set(cells) == set(cards_in_play(3))
    for card, cell in cells.items():
        assert cell.status == deduction.status(card)
        assert cell.probability == pytest.approx(deduction.probability(card), abs=5e-4)
    assert cells[view.screen[0]].reason == "your screen"
    assert cells[view.peeks["A"]].reason == "informant A"
    deduced = [c for c in cells.values() if c.reason.startswith("deduced")]
    assert deduced and all(c.status == "ruled_out" for c in deduced)
    assert all(c.card not in view.known() for c in deduced)
    assert scene.mysteries == len(deduction.triples)
    picture = casebook_picture(view, deduction, cache=None)
    assert picture.faces == frozenset()  # a grid of names, no card faces
    assert f"{len(deduction.triples)} possible mysteries" in picture.description
    with pytest.raises(ValueError, match="another seat"):
        casebook_scene(player_view(tables.casebook_state(), 1), deduction)


def test_names_the_font_cannot_draw_still_read() -> None:
    view = tables.odd_names_view()
    page, description = player_page(view)
    titles = [p.title for row in page.rows for p in row]
    assert page.title.startswith("Zoe ")
    assert "Seat 3's holder" in titles
    assert any(t.startswith("Bartholomew Maximilian") and "…" in t for t in titles)
    assert "🕵️'s holder" in description and "Zoë's view" in description  # alt text keeps them


def test_the_cache_renders_a_scene_once() -> None:
    cache = PictureCache()
    view = tables.turns_view(4)
    first = player_picture(view, cache=cache)
    assert player_picture(view.model_copy(deep=True), cache=cache) is first
    # a change nobody can see on this picture (a question asked) keeps the same picture
    later = view.model_copy(update={"turn_number": view.turn_number + 3})
    assert player_picture(later, cache=cache) is first
    other_seat = player_view(tables.table(4), 1)
    assert player_picture(other_seat, cache=cache) is not first
    assert (cache.stats.hits, cache.stats.misses) == (2, 2)


# ------------------------------------------------------------------ golden images


def _casebook_golden() -> Picture:
    view = player_view(tables.casebook_state(), 0)
    return casebook_picture(view, solve(view), cache=None)


GOLDEN: dict[str, Callable[[], Picture]] = {
    "view-4p-2020": lambda: player_picture(tables.turns_view(4), cache=None),
    "view-2p-2016": lambda: player_picture(tables.turns_view(2, "2016"), cache=None),
    "view-6p-odd-names": lambda: player_picture(tables.odd_names_view(), cache=None),
    "pass-2p": lambda: player_picture(tables.passing_view(True), cache=None),
    "casebook-3p-2016": _casebook_golden,
    "reveal-5p": lambda: reveal_picture(*tables.finished(5), cache=None),
}
"""Fixed, hand-laid tables (no shuffle): one golden PNG each under tests/golden/."""


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden(name: str) -> None:
    """Pixel-wise against tests/golden/thirteen_clues/<name>.png (UPDATE_GOLDEN=1 rewrites)."""
    check_golden(f"thirteen_clues/{name}", GOLDEN[name]().png)


def test_the_golden_comparison_sees_small_changes_and_forgives_jitter() -> None:
    picture = Image.open(io.BytesIO(GOLDEN["view-4p-2020"]().png)).convert("RGB")
    jitter = picture.copy()  # anti-aliasing moving a few levels on 1 pixel in 100
    for i in range(0, jitter.width * jitter.height, 100):
        xy = (i % jitter.width, i // jitter.width)
        jitter.putpixel(xy, tuple(min(255, v + 6) for v in pixel(jitter, xy)))
    assert compare(jitter, picture)[0].ok
    one_word = picture.copy()
    ImageDraw.Draw(one_word).text((40, 320), "Left", fill=(169, 176, 196), font=font(13))
    assert not compare(one_word, picture)[0].ok
    other = Image.open(io.BytesIO(GOLDEN["view-2p-2016"]().png))
    assert not compare(other, picture)[0].ok


# ------------------------------------------------------------------ secrecy


def test_the_player_picture_takes_only_a_player_view() -> None:
    """Structural: the only game input is the PlayerView (which has no own holder)."""
    signature = inspect.signature(player_picture)
    game_inputs = [p for p in signature.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert [p.annotation for p in game_inputs] in (["PlayerView"], [PlayerView])
    assert "holder" not in PlayerView.model_fields


def seeded_views(games: int) -> Iterator[tuple[GameState, PlayerView]]:
    """Every seat at every moment of `games` random games (2-6 players, both editions,
    Top Secret on some), before the end."""
    for game in range(games):
        players = PLAYERS[game % len(PLAYERS)]
        edition = EDITIONS[(game // len(PLAYERS)) % 2]
        states = game_states(
            players, seed=1000 + game, edition=edition, top_secret=game % 3 == 0, max_steps=40
        )
        for state in states:
            if state.phase == "over":
                continue
            for seat in range(players):
                yield state, player_view(state, seat)


def test_no_picture_input_ever_holds_the_own_holder() -> None:
    """Over many seeded games: the page built for a seat (everything its picture can show)
    never names its own holder cards (or, while passing, the cards coming to it)."""
    checked = 0
    for state, view in seeded_views(12):
        hidden = eventual_holder(state, view.seat)
        page, description = player_page(view)
        page_json = page.to_json()
        named = {c for c in hidden if f'"{c}"' in page_json or f'"{CARDS[c].name}"' in page_json}
        assert not named, (state.seed, view.seat)
        assert not names_in(description, hidden), (state.seed, view.seat)
        checked += 1
    assert checked > 700


def test_the_renderer_draws_only_what_the_seat_may_see() -> None:
    """Rendered pictures: the card faces actually drawn and the alt text, against what the
    seat may see, over random games (a cache makes repeated scenes free, as in the bot)."""
    cache = PictureCache(max_items=4096, max_bytes=1 << 30)
    rng = random.Random(7)
    rendered = 0
    for state, view in seeded_views(5):
        if rng.random() > 0.4:
            continue
        picture = player_picture(view, cache=cache)
        hidden = eventual_holder(state, view.seat)
        assert picture.faces <= may_see(view), (state.seed, view.seat)
        assert not picture.faces & hidden, (state.seed, view.seat)
        assert not names_in(picture.description, hidden), (state.seed, view.seat)
        # and every face it may see while playing is there: the picture is complete
        if state.phase == "turns":
            holders = {c for cards in view.holders.values() for c in cards}
            assert picture.faces == set(view.screen) | holders | set(view.peeks.values())
        rendered += 1
    assert cache.stats.misses > 30 and rendered > 100


def test_faces_match_the_cards_named_on_them() -> None:
    for card in CARDS:
        assert face(card).title == CARDS[card].name
