"""The pictures 13 Clues letters carry, as the bot stores and sends them: the references made
at commit time (`bot.news.letters`, `hand`), drawn by the registry the bot gives its
transport.

- Every picture a letter carries, at 2-6 players in both editions, draws into an attachment
  Discord takes (PNG, size, alt text, at most 10 a message, each embed image naming a file of
  its message), and the message with its pictures stays within Discord's message limits.
- Secrecy over many random seeded games: no picture's stored INPUT in a letter to a member
  ever holds a card of that member's own holder before the end, and the channel gets no
  picture before the reveal.
- A golden image for a fixed seed, through the whole path (deal, letter, reference, drawer).
- Drawing is cached: the same input gives the very same bytes (a retried send is identical).
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from PIL import Image

from bot.drawings import MAX_ATTACHMENTS, Drawings, with_images
from bot.messages import Outgoing
from bot.messages import Picture as PictureRef
from bot.pictures import TARGET_BYTES
from bot.pictures.picture import DESCRIPTION_LIMIT
from bot.registry import GAMES
from bot.thirteen_clues import pictures
from bot.thirteen_clues.game import GAME
from engine.thirteen_clues import player_view
from engine.thirteen_clues.cards import CARDS
from testkit.letters import Sent, play
from testkit.standin import limits
from tests.pictures.golden import check_golden

EDITIONS = ("2020", "2016")
KINDS = set(Drawings.of(GAMES).drawers)
"""Every picture kind a game of the registry draws."""


def strings(data: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings(value)


def final_holders(played: Iterable[Sent]) -> list[list[str]]:
    """Each seat's holder in this seeded game (fixed once the passes are made), read from
    its end: the game is played once and its messages kept for the checks."""
    for sent in played:
        if sent.over and sent.seat is None:
            for picture in sent.body.pictures:
                if picture.kind == pictures.REVEAL:
                    return [list(h) for h in picture.data["over"]["holders"]]
    raise AssertionError("the game ended without a reveal picture")


# ------------------------------------------------------------------ fit for Discord


def check_message(body: Outgoing, drawn: dict[str, Any], creating: bool) -> None:
    """The message as the transport sends it: files, embed images, and every limit."""
    refs = body.pictures
    assert len(refs) <= MAX_ATTACHMENTS
    assert len({r.filename for r in refs}) == len(refs), "two pictures with one file name"
    for ref in refs:
        assert ref.kind in KINDS
        assert ref.filename.endswith(".png") and len(ref.filename) <= 100
        assert ref.embed is None or 0 <= ref.embed < len(body.embeds)
    payload = {**body.payload(), "embeds": with_images(body.embeds, refs)}
    files = [{"field": f"files[{i}]", "filename": r.filename, "size": drawn[r.filename],
              "index": i, "description": "x"} for i, r in enumerate(refs)]
    problems = limits.check_message(payload, creating=creating, interaction=False,
                                    has_files=bool(files)) + limits.check_files(files)
    assert not problems, problems
    names = {r.filename for r in refs}
    for embed in payload["embeds"]:
        url = (embed.get("image") or {}).get("url", "")
        assert not url or url.removeprefix("attachment://") in names


def check_letters_fit(drawings: Drawings, letters: Iterable[Sent], reveal: str) -> set[str]:
    """Every letter with its pictures within Discord's limits; the first few pictures of each
    kind, and every `reveal` (one a game), drawn into attachments Discord takes (drawing them
    all would be slow). Returns the kinds drawn."""
    kinds: dict[str, int] = {}
    for sent in letters:
        drawn: dict[str, int] = {}
        for ref in sent.body.pictures:
            if kinds.get(ref.kind, 0) < 3 or ref.kind == reveal:
                picture = drawings.picture(ref)
                kinds[ref.kind] = kinds.get(ref.kind, 0) + 1
                assert picture.png.startswith(b"\x89PNG\r\n\x1a\n")
                assert picture.size < TARGET_BYTES < limits.UPLOAD_LIMIT
                assert 0 < len(picture.description) <= DESCRIPTION_LIMIT
                with Image.open(io.BytesIO(picture.png)) as image:
                    assert image.size == (picture.width, picture.height)
                drawn[ref.filename] = picture.size
            else:
                drawn[ref.filename] = 1
        check_message(sent.body, drawn, sent.creating)
    return set(kinds)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_picture_a_letter_carries_fits_discord(players: int, edition: str) -> None:
    letters = play(players, 11 * players, edition=edition)
    kinds = check_letters_fit(Drawings.of([GAME]), letters, pictures.REVEAL)
    assert kinds == {pictures.VIEW, pictures.CASEBOOK, pictures.REVEAL}, kinds


# ------------------------------------------------------------------ secrecy of the inputs


SECRECY_GAMES = [
    (players, seed, EDITIONS[seed % 2], seed % 3 == 0 and players > 2)
    for players in (2, 3, 4, 5, 6)
    for seed in range(8)
]


@pytest.mark.parametrize(("players", "seed", "edition", "top_secret"), SECRECY_GAMES)
def test_no_picture_input_holds_what_its_reader_may_not_see(
    players: int, seed: int, edition: str, top_secret: bool
) -> None:
    played = list(play(players, seed, edition=edition, top_secret=top_secret, max_steps=40))
    holders = final_holders(played)
    every_hidden = {c for h in holders for c in h}
    checked = 0
    for sent in played:
        if sent.over:
            continue  # the end reveals everything, to everyone
        for ref in sent.body.pictures:
            own_guesses = ref.data.get("my_accusations", [])
            # the seat's own accusations name the cards it chose to name: its words, not a
            # secret, and only the casebook carries them (its deduction rules a wrong one
            # out); each one before the end is wrong (a right one ends the game)
            assert not own_guesses or ref.kind == pictures.CASEBOOK
            assert all(not a["correct"] for a in own_guesses)
            data = {k: v for k, v in ref.data.items() if k != "my_accusations"}
            found = set(strings(data)) | set(strings(ref.description))
            if sent.seat is None:
                leaked = found & every_hidden
                assert not leaked, f"the channel's picture holds {leaked}"
                raise AssertionError("no picture in the channel before the end")
            leaked = found & set(holders[sent.seat])
            assert not leaked, (
                f"seat {sent.seat}'s {ref.kind} picture input holds its own holder: "
                + ", ".join(CARDS[c].name for c in leaked)
            )
            assert ref.kind in (pictures.VIEW, pictures.CASEBOOK)
            assert ref.data["seat"] == sent.seat, "a picture of another seat's view"
            checked += 1
    assert checked > 0


def test_the_drawn_faces_of_a_letter_picture_never_show_the_own_holder() -> None:
    """Beyond the input: what the renderer actually drew face up (`Picture.faces`)."""
    drawings = Drawings.of([GAME])
    for players in (2, 4, 6):
        played = list(play(players, 3, hands=False))
        holders = final_holders(played)
        for sent in played:
            if sent.over or sent.seat is None:
                continue
            for ref in sent.body.pictures:
                if ref.kind == pictures.VIEW:
                    faces = drawings.picture(ref).faces
                    assert not faces & set(holders[sent.seat])
                    assert faces  # it does draw cards: its screen, the others' holders


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_view_pictures_input_is_what_it_draws(players: int) -> None:
    """The player picture's stored input leaves out what it does not draw (the question
    log, the turn, the glasses): drawn from it, the page is the one the seat's whole view
    gives, and the input changes only when that page does, so a seat's picture after a
    question that moved nothing it shows is the same input (the bot's cache answers it)."""
    inputs: dict[str, str] = {}
    carried = 0
    for sent in play(players, 20, hands=False):
        for ref in sent.body.pictures:
            if ref.kind != pictures.VIEW:
                continue
            assert not set(ref.data) & set(pictures.UNDRAWN)
            whole = player_view(sent.state, ref.data["seat"])
            page, alt = pictures.player_page(whole)
            drawn = pictures.draw_view(ref.data)
            assert drawn.png == pictures.player_picture(whole).png and drawn.description == alt
            shown = page.to_json() + alt
            key = json.dumps(ref.data, sort_keys=True)
            assert inputs.setdefault(key, shown) == shown
            carried += 1
    pages = set(inputs.values())
    assert len(pages) == len(inputs) and carried >= 2 * len(inputs), (carried, len(inputs))


def test_a_card_id_is_a_word_of_its_own() -> None:
    """The secrecy scan compares whole strings: a card id is never part of another string
    it could hide in (a name, a letter), so an exact match is the right test."""
    seen = {s for sent in play(3, 1, hands=False) for r in sent.body.pictures
            for s in strings(r.data)}
    assert seen & set(CARDS)  # the inputs do name cards (the seat's own five, others')
    for card in CARDS:
        assert card == card.strip() and card.isascii()


# ------------------------------------------------------------------ golden, fixed seed


def seeded_letter_pictures(seed: int = 7) -> dict[str, PictureRef]:
    """Seat 0's case-file picture at play start and the reveal, from a 4-player 2020 game
    dealt by `seed` and played by easy AIs seeded alike."""
    found: dict[str, PictureRef] = {}
    for sent in play(4, seed, assist="off", max_steps=24, hands=False):
        for ref in sent.body.pictures:
            if sent.seat == 0 and ref.kind == pictures.VIEW and ref.data["phase"] == "turns":
                found.setdefault("letter-view-4p-seed7", ref)
            if ref.kind == pictures.REVEAL:
                found.setdefault("letter-reveal-4p-seed7", ref)
    return found


@pytest.mark.parametrize("name", ["letter-view-4p-seed7", "letter-reveal-4p-seed7"])
def test_golden_seeded_letter(name: str) -> None:
    """Pixel-wise against tests/golden/thirteen_clues/<name>.png; after an intended change:
    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/pictures -k golden (and look at them).
    A change of the engine's shuffle moves these too (the hand-laid goldens it does not)."""
    ref = seeded_letter_pictures()[name]
    pictures.CACHE.clear()
    check_golden(f"thirteen_clues/{name}", Drawings.of([GAME], cache=None).draw(ref))


# ------------------------------------------------------------------ the registry and cache


def test_the_same_input_draws_the_same_bytes_once() -> None:
    drawings = Drawings.of([GAME])
    ref = seeded_letter_pictures()["letter-view-4p-seed7"]
    first = drawings.draw(ref)
    again = drawings.draw(PictureRef.model_validate_json(ref.model_dump_json()))  # as stored
    assert again == first
    assert (drawings.cache.stats.misses, drawings.cache.stats.hits) == (1, 1)
    pictures.CACHE.clear()  # and the drawers' scene cache: drawing alone is deterministic
    fresh = Drawings.of([GAME], cache=None)
    assert fresh.draw(ref) == first
    assert pictures.CACHE.stats.misses == 1


def test_files_are_drawn_off_the_loop_and_a_broken_picture_is_left_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    drawings = Drawings.of([GAME])
    good = seeded_letter_pictures()["letter-reveal-4p-seed7"]
    broken = PictureRef(kind=pictures.VIEW, data={"seat": "nonsense"}, filename="x.png")
    unknown = PictureRef(kind="nope", data={}, filename="y.png")
    drawn = asyncio.run(drawings.files([broken, good, unknown]))
    assert [r.filename for r, _ in drawn] == ["13clues-reveal.png"]
    [(_, file)] = drawn
    assert file.filename == "13clues-reveal.png"
    assert file.description and "13 Clues reveal" in file.description
    assert "cannot draw a picture of kind nope" in caplog.text


def test_helpers_draw_the_same_bytes_once_each_and_a_dead_helper_is_replaced(
    caplog: pytest.LogCaptureFixture,
) -> None:
    view = seeded_letter_pictures()["letter-view-4p-seed7"]
    reveal = seeded_letter_pictures()["letter-reveal-4p-seed7"]
    here = Drawings.of([GAME], cache=None)
    expected = {r.filename: here.draw(r) for r in (view, reveal)}

    async def scenario() -> None:
        drawings = Drawings.of([GAME], workers=1)
        try:
            await drawings.warm()
            # four letters asking at once: each picture is drawn once, the rest wait for it
            drawn = await asyncio.gather(*(drawings.pictures([view, reveal]) for _ in range(4)))
            for pair in drawn:
                assert {r.filename: p.png for r, p in pair} == expected
            assert drawings.cache.stats.misses == 0 and len(drawings.cache) == 2
            [helper] = drawings._executor._processes.values()  # type: ignore[attr-defined]
            helper.kill()
            helper.join()
            drawings.cache.clear()
            [(_, again)] = await drawings.pictures([view])
            assert again.png == expected[view.filename]
        finally:
            await drawings.close()

    asyncio.run(scenario())
    assert "a drawing process died" in caplog.text


def test_with_images_names_only_the_files_that_go() -> None:
    embeds = [{"title": "a"}, {"title": "b"}]
    refs = [PictureRef(kind="k", data={}, filename="a.png", embed=1),
            PictureRef(kind="k", data={}, filename="b.png")]
    shown = with_images(embeds, refs)
    assert shown[1]["image"] == {"url": "attachment://a.png"} and "image" not in shown[0]
    assert embeds[1] == {"title": "b"}, "the stored embeds are left as they were"
    assert with_images(embeds, []) == embeds


def test_two_games_cannot_claim_one_kind() -> None:
    with pytest.raises(ValueError, match="two games"):
        Drawings.of([GAME, GAME])


def test_every_game_declares_its_drawers_and_no_kind_twice() -> None:
    from bot.mansion import pictures as mansion_pictures
    from bot.registry import GAMES

    kinds = Drawings.of(GAMES).drawers
    assert set(kinds) == set(pictures.DRAWERS) | set(mansion_pictures.DRAWERS)
    assert not set(pictures.DRAWERS) & set(mansion_pictures.DRAWERS)


def test_the_registry_warms_the_drawing_up_in_its_thread() -> None:
    drawings = Drawings.of([GAME])
    assert drawings.warmers == [GAME.warm_pictures]

    async def warm() -> None:
        await drawings.warm()
        await drawings.close()

    asyncio.run(warm())
