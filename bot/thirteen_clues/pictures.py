"""13 Clues as pictures: what a seat sees, the end-of-game reveal, the casebook grid.

Pure functions from the engine's views to a `Picture` (PNG bytes, file name, alt text); no
discord import, so they are testable alone and the bot attaches them as it likes.

Secrecy is structural: `player_picture` takes a `PlayerView`, which never contains the
seat's own holder before the end, and draws the holder as three card backs. Each picture
is first described as a `Page` (or a `CasebookScene`), a plain value whose JSON is exactly
what the picture shows: the cache keys on it and the renderer draws nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from PIL import Image

from bot.i18n import N_, SOURCE, tr, trn
from bot.pictures.cache import PictureCache, cached
from bot.pictures.canvas import Canvas
from bot.pictures.cards import CARD, SMALL_CARD, FaceSpec
from bot.pictures.colours import RGB, THEME, ink_on, mix, rgb
from bot.pictures.fonts import drawable, text_width
from bot.pictures.grid import grid, grid_size
from bot.pictures.names import alt_name, drawn_name
from bot.pictures.numbers import percent
from bot.pictures.page import (
    PANEL_GAP,
    Page,
    Scene,
    draw_header,
    pack_rows,
    page_picture,
    same_width,
)
from bot.pictures.panels import Group, Panel, Slot
from bot.pictures.picture import Picture, make_picture
from bot.thirteen_clues.words import card_name
from bot.thirteen_clues.words import subject_name as word
from engine.thirteen_clues.cards import (
    CARDS,
    SUB_CATEGORY_NAMES,
    Category,
    Suit,
    suits_in_play,
)
from engine.thirteen_clues.deduction import Deduction, solve
from engine.thirteen_clues.events import GameOver
from engine.thirteen_clues.state import Question
from engine.thirteen_clues.views import PlayerView, PublicView
from engine.thirteen_clues.why import Chains

SUIT_COLOURS: dict[Suit, RGB] = {
    Suit.PURPLE: rgb("#7d4ea8"),
    Suit.PINK: rgb("#e06c9f"),
    Suit.RED: rgb("#cf3b3b"),
    Suit.GREEN: rgb("#3f9a52"),
    Suit.YELLOW: rgb("#f0c23b"),
    Suit.BLUE: rgb("#2f6fc4"),
    Suit.ORANGE: rgb("#ee8a2e"),
    Suit.WHITE: rgb("#e9e4d8"),
    Suit.BROWN: rgb("#8a5a3b"),
    Suit.GRAY: rgb("#8a8f99"),
}
"""The ten suit colours, close to the emoji the text messages use."""

GLYPHS: dict[Category, str] = {
    Category.PERSON: "person",
    Category.LOCATION: "pin",
    Category.WEAPON: "dagger",
}
CATEGORY_LABELS: dict[Category, str] = {
    Category.PERSON: N_("Person"),
    Category.LOCATION: N_("Location"),
    Category.WEAPON: N_("Weapon"),
}
CATEGORY_PLURALS: dict[Category, str] = {
    Category.PERSON: N_("Persons"),
    Category.LOCATION: N_("Locations"),
    Category.WEAPON: N_("Weapons"),
}
"""A category's column head in the casebook (English as it always read: "Persons")."""

CACHE = PictureCache()
"""The process-wide cache for these pictures; pass `cache=None` to render afresh."""


@lru_cache(maxsize=256)
def face(card: str, lang: str = SOURCE) -> FaceSpec:
    """How the card with id `card` looks face up, its words in `lang`."""
    info = CARDS[card]
    english = lang == SOURCE
    return FaceSpec(
        title=info.name if english else card_name(lang, card),
        caption=SUB_CATEGORY_NAMES[info.sub] if english else word(lang, info.sub),
        band=info.suit.value.upper() if english else word(lang, info.suit).upper(),
        colour=SUIT_COLOURS[info.suit],
        glyph=GLYPHS[info.category],
    )


# ------------------------------------------------------------------------- public API


def player_picture(view: PlayerView, *, lang: str = SOURCE,
                   cache: PictureCache | None = CACHE) -> Picture:
    """What one seat sees at the table: its own holder as card backs, its screen, every
    other holder, the informant cards it consulted; during the pass phase its five cards."""
    page, description = player_page(view, lang=lang)
    return page_picture(page, f"13clues-seat{view.seat + 1}.png", description, cache)


def reveal_picture(
    over: GameOver, view: PublicView, *, lang: str = SOURCE,
    cache: PictureCache | None = CACHE
) -> Picture:
    """The end of the game: every seat's holder and screen, the informants, the winner."""
    page, description = reveal_page(over, view, lang=lang)
    return page_picture(page, "13clues-reveal.png", description, cache)


def casebook_picture(
    view: PlayerView, deduction: Deduction, *, lang: str = SOURCE,
    cache: PictureCache | None = CACHE
) -> Picture:
    """The casebook at full assist: suits by categories, ruled-out cards crossed out,
    candidates shaded by the probability that they are on the seat's own holder."""
    scene = casebook_scene(view, deduction, lang=lang)
    filename = f"13clues-casebook-seat{view.seat + 1}.png"

    def render() -> Picture:
        return make_picture(render_casebook(scene), filename, scene.description)

    return cached(cache, filename, scene.to_json(), render)


# ------------------------------------------------------------------------- drawers

VIEW, REVEAL, CASEBOOK = "13c.view", "13c.reveal", "13c.casebook"
"""The kinds of picture a letter may carry (see `DRAWERS`)."""


UNDRAWN: dict[str, Any] = {"turn": 0, "turn_number": 0, "supply": 0, "questions": [],
                           "consultations": [], "accusations": [], "winner": None,
                           "secret_questions": [], "my_accusations": []}
UNDRAWN_SEAT: dict[str, Any] = {"glasses": 0, "top_secret_used": False}
"""Fields of a view (and of its seats) the player picture does not draw: left out of its
stored input, put back empty when drawing. Why: the question log, the turn and the seats'
glasses change at every question, so with them every seat's picture was a new input after
every question (in seeded games, 504 inputs of 504 letters), drawn again in a helper even
when it looked the same; without them an input changes only when the picture does, and the
bot's own cache answers the rest."""


def view_data(view: PlayerView, *, lang: str = SOURCE, accusations: bool = False
              ) -> dict[str, Any]:
    """The stored input of a picture of the seat's view: the seat's own view, nothing else.
    The player picture's leaves out what it does not draw (`UNDRAWN`); the casebook's
    (`accusations`) is the whole view, its deduction needs every answer and the seat's own
    accusations (a wrong one rules its three cards out together)."""
    if accusations:
        data = view.model_dump(mode="json")
    else:
        data = view.model_dump(mode="json", exclude={**dict.fromkeys(UNDRAWN, True),
                                                     "seats": {"__all__": set(UNDRAWN_SEAT)}})
    return data if lang == SOURCE else {**data, "lang": lang}


def reveal_data(over: GameOver, view: PublicView, *, lang: str = SOURCE) -> dict[str, Any]:
    data = {"over": over.model_dump(mode="json"), "view": view.model_dump(mode="json")}
    return data if lang == SOURCE else {**data, "lang": lang}


def _lang(data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The language a stored input is drawn in (English when it names none) and the rest."""
    rest = dict(data)
    return str(rest.pop("lang", SOURCE)), rest


# The drawers go through CACHE, keyed by the scene: two inputs that look the same (a casebook
# whose view changed in nothing it shows) share one rendering, for the cost of building the
# scene (a millisecond or two).


def draw_view(data: dict[str, Any]) -> Picture:
    lang, view = _lang(data)
    seats = [{**UNDRAWN_SEAT, **seat} for seat in view.pop("seats")]
    return player_picture(PlayerView.model_validate({**UNDRAWN, **view, "seats": seats}),
                          lang=lang)


def draw_reveal(data: dict[str, Any]) -> Picture:
    lang, rest = _lang(data)
    over = GameOver.model_validate(rest["over"])
    return reveal_picture(over, PublicView.model_validate(rest["view"]), lang=lang)


def draw_casebook(data: dict[str, Any]) -> Picture:
    """From the seat's view alone: the exact deduction is solved here, in the drawing thread
    (so the stored input is the view, which never holds the seat's own holder)."""
    lang, rest = _lang(data)
    view = PlayerView.model_validate(rest)
    return casebook_picture(view, solve(view), lang=lang)


def warm_up() -> None:
    """Draw a sample view once (fonts, card faces and backs): the first real one is then as
    fast as the rest."""
    from engine.thirteen_clues import Options, PlayerRef, new_game, player_view

    seats = [PlayerRef(id=f"w{i}", name=f"Seat {i + 1}") for i in range(6)]
    state, _ = new_game(seats, Options(players=6), 0)
    player_picture(player_view(state, 0), cache=None)


DRAWERS: dict[str, Callable[[dict[str, Any]], Picture]] = {
    VIEW: draw_view,
    REVEAL: draw_reveal,
    CASEBOOK: draw_casebook,
}
"""What the bot's picture registry draws for 13 Clues (it caches by the stored input)."""


# ------------------------------------------------------------------------- shared bits


def seat_name(view: PublicView, seat: int) -> str:
    """A seat's name as the bundled font can draw it, clipped; "Seat 3" if nothing is left."""
    return drawn_name(view.seats[seat].name, seat)


def _alt_name(view: PublicView, seat: int) -> str:
    return alt_name(view.seats[seat].name, seat)


def _whose(lang: str, message: str, name: str, **params: object) -> str:
    """`message` (marked with `N_`, holding "{name}'s") in `lang` for `name`: English writes
    "Bess' holder" as it always did, the other languages as their catalogs say."""
    if lang == SOURCE and name.endswith("s"):
        message = message.replace("{name}'s", "{name}'")
    return tr(lang, message, name=name, **params)


def _card_alt(card: str, lang: str = SOURCE) -> str:
    info = CARDS[card]
    if lang == SOURCE:
        return f"{info.name} ({info.suit.value})"
    return f"{card_name(lang, card)} ({word(lang, info.suit).lower()})"


def _cards_alt(cards: Sequence[str], lang: str = SOURCE) -> str:
    return ", ".join(_card_alt(c, lang) for c in cards)


def _table_line(view: PublicView, lang: str = SOURCE) -> str:
    o = view.options
    extra = " · " + tr(lang, "Top Secret") if o.top_secret else ""
    return tr(lang, "13 Clues · {players} players · {edition} rules", players=o.players,
              edition=o.edition) + extra


def _up(card: str, caption: str = "", ring: RGB | None = None, lang: str = SOURCE) -> Slot:
    return Slot(card=card, spec=face(card, lang), caption=caption, ring=ring)


def _down(label: str = "", caption: str = "") -> Slot:
    return Slot(label=label, caption=caption)


def _sides(count: int, two_players: bool, lang: str = SOURCE) -> list[str]:
    return [tr(lang, "Left"), tr(lang, "Right")] if two_players and count == 2 else [""] * count


def _hidden_holder(lang: str) -> Group:
    return Group([_down("?", tr(lang, CATEGORY_LABELS[c])) for c in Category])


def _unfilled(view: PlayerView, lang: str) -> str:
    return (tr(lang, "Your holder: 3 face-down cards, your mystery.") if view.phase != "over"
            else tr(lang, "Your holder: never filled, the game ended before play began."))


# ------------------------------------------------------------------------- a seat's view


def player_page(view: PlayerView, *, lang: str = SOURCE) -> tuple[Page, str]:
    """The page and alt text of `player_picture`: built from the PlayerView alone."""
    if view.phase == "passing" or not view.screen:  # (or ended before play began)
        return _passing_page(view, lang)
    me = view.seat
    n = view.options.players
    two = n == 2
    name = seat_name(view, me)
    revealed = view.reveal
    alt: list[str] = [_whose(lang, N_("{name}'s view of a {players}-player 13 Clues table."),
                             _alt_name(view, me), players=n)]

    if revealed is not None:
        own = revealed.seats[me].holder
        holder = Panel(
            tr(lang, "Your holder"),
            [Group([_up(c, lang=lang) for c in own])],
            subtitle=tr(lang, "Your mystery, revealed at the end"),
        )
        alt.append(tr(lang, "Your holder, revealed: {cards}.", cards=_cards_alt(own, lang)))
    else:
        holder = Panel(
            tr(lang, "Your holder"),
            [_hidden_holder(lang)],
            subtitle=tr(lang, "Your mystery: everyone sees it but you"),
        )
        alt.append(_unfilled(view, lang))
    screen = Panel(
        tr(lang, "Your screen"),
        [Group([_up(c, side, lang=lang)
                for c, side in zip(view.screen, _sides(2, two, lang), strict=False)])],
        subtitle=tr(lang, "Only you see these"),
    )
    if two:
        alt.append(tr(lang, "Your screen (left, right): {cards}.",
                      cards=_cards_alt(view.screen, lang)))
    else:
        alt.append(tr(lang, "Your screen: {cards}.", cards=_cards_alt(view.screen, lang)))

    holders: list[Panel] = []
    for k in range(1, n):
        seat = (me + k) % n
        cards = view.holders.get(seat, [])
        note = ("" if two else tr(lang, "your left") if k == 1
                else tr(lang, "your right") if k == n - 1 else "")
        holders.append(
            Panel(
                _whose(lang, N_("{name}'s holder"), seat_name(view, seat)),
                [Group([_up(c, lang=lang) for c in cards])],
                note=note,
            )
        )
        if note:
            alt.append(_whose(lang, N_("{name}'s holder ({where}): {cards}."),
                              _alt_name(view, seat), where=note, cards=_cards_alt(cards, lang)))
        else:
            alt.append(_whose(lang, N_("{name}'s holder: {cards}."), _alt_name(view, seat),
                              cards=_cards_alt(cards, lang)))

    panels = [holder, screen, *holders]
    if two:  # one row for the three panels that matter: smaller cards
        panels = [replace(p, card=SMALL_CARD) for p in panels]
    panels = panels[:2] + same_width(panels[2:])
    informants = _informant_panel(view, alt, lang)
    if informants is not None:
        panels.append(informants)
    page = Page(title=tr(lang, "{name} · your view", name=name),
                subtitle=_table_line(view, lang), rows=pack_rows(panels))
    return page, " ".join(alt)


def _informant_panel(view: PlayerView, alt: list[str], lang: str = SOURCE) -> Panel | None:
    if not view.letters:
        return None
    revealed = view.reveal
    slots: list[Slot] = []
    seen: list[str] = []
    hidden: list[str] = []
    for i, letter in enumerate(view.letters):
        card = view.peeks.get(letter)
        if card is None and revealed is not None:
            card = revealed.informants[i]
        if card is not None:
            slots.append(_up(card, letter, lang=lang))
            seen.append(f"{letter} {_card_alt(card, lang)}")
        else:
            slots.append(_down(letter))
            hidden.append(letter)
    size = CARD if len(slots) <= 4 else SMALL_CARD
    if revealed is not None:
        subtitle = tr(lang, "Every informant card, revealed")
    elif view.peeks:
        subtitle = tr(lang, "The ones you consulted face up")
    else:
        subtitle = tr(lang, "Consult one by its letter to see it")
    parts = []
    if seen:
        parts.append(tr(lang, "seen: {cards}", cards="; ".join(seen)))
    if hidden:
        parts.append(tr(lang, "face down: {letters}", letters=", ".join(hidden)))
    alt.append(tr(lang, "Secret Informant: {parts}.", parts="; ".join(parts)))
    return Panel(tr(lang, "Secret Informant"), [Group(slots)], subtitle=subtitle, card=size)


def _passing_page(view: PlayerView, lang: str = SOURCE) -> tuple[Page, str]:
    me, n = view.seat, view.options.players
    left, right = (me + 1) % n, (me - 1) % n
    left_name, right_name = seat_name(view, left), seat_name(view, right)
    alt = [_whose(lang, N_("{name}'s five cards at the start of a {players}-player 13 Clues "
                           "game."), _alt_name(view, me), players=n)]
    passed = set(view.passed or [])
    if view.passed:
        slots = [
            _up(c, tr(lang, "to {name}", name=left_name), THEME.accent, lang) if c in passed
            else _up(c, tr(lang, "screen"), lang=lang)
            for c in view.dealt
        ]
        subtitle = _whose(lang, N_("Ringed: passed to {name}'s holder; the rest is your "
                                   "screen"), left_name)
        alt.append(tr(lang, "Dealt: {cards}.", cards=_cards_alt(view.dealt, lang)) + " "
                   + _whose(lang, N_("Passed to {name}'s holder: {cards}."),
                            _alt_name(view, left), cards=_cards_alt(view.passed, lang)))
    elif view.phase == "over":  # ended before the pass was made: nothing more to choose
        slots = [_up(c, lang=lang) for c in view.dealt]
        subtitle = tr(lang, "Dealt; the game ended before they were passed")
        alt.append(tr(lang, "Dealt: {cards}.", cards=_cards_alt(view.dealt, lang)) + " "
                   + tr(lang, "The game ended before the pass."))
    else:
        slots = [_up(c, lang=lang) for c in view.dealt]
        subtitle = _whose(lang, N_("Pass 1 Person, 1 Location, 1 Weapon to {name}'s holder"),
                          left_name)
        alt.append(tr(lang, "Dealt: {cards}.", cards=_cards_alt(view.dealt, lang)) + " "
                   + tr(lang, "Not passed yet."))
    hand = Panel(tr(lang, "Your five cards"), [Group(slots)], subtitle=subtitle)
    chosen = view.seats[right].has_passed
    if view.phase == "over":
        waiting = tr(lang, "The game ended before play began")
    elif chosen:
        waiting = tr(lang, "{name} has chosen your mystery", name=right_name)
    else:
        waiting = tr(lang, "{name} is choosing your mystery", name=right_name)
    holder = Panel(tr(lang, "Your holder"), [_hidden_holder(lang)], subtitle=waiting)
    alt.append(_unfilled(view, lang))
    panels = [hand, holder]
    informants = _informant_panel(view, alt, lang)
    if informants is not None:
        panels.append(informants)
    footer = "" if view.passed or view.phase != "passing" else tr(lang, _TIP)
    page = Page(
        title=tr(lang, "{name} · your cards", name=seat_name(view, me)),
        subtitle=_table_line(view, lang),
        rows=pack_rows(panels),
        footer=footer,
    )
    return page, " ".join(alt)


_TIP = N_("Tip: avoid passing three cards of one suit.")


# ------------------------------------------------------------------------- the reveal


def reveal_page(over: GameOver, view: PublicView, *, lang: str = SOURCE) -> tuple[Page, str]:
    """The page and alt text of `reveal_picture`."""
    n = len(over.holders)
    two = n == 2
    winner = over.winner
    why = ""
    if winner is not None:
        title = tr(lang, "Case closed · {name} solved it", name=seat_name(view, winner))
        alt = [tr(lang, "13 Clues reveal: {name} solved the mystery and wins.",
                  name=_alt_name(view, winner))]
    elif not any(over.holders):  # ended during the pass phase, as the news says
        title = tr(lang, "Ended before play · the cards dealt")
        why = over.reason if over.reason and over.reason != "solved" else ""
        alt = [(tr(lang, "13 Clues reveal: the game ended before the cards were passed.")
                + f" {why}").strip()]
    else:
        title = tr(lang, "Case closed · no winner")
        why = over.reason if over.reason and over.reason != "solved" else ""
        alt = [(tr(lang, "13 Clues reveal: the game ended without a winner.")
                + f" {why}").strip()]
    wrong: dict[int, int] = {}
    for seat, _cards, ok in over.accusations:
        if not ok:
            wrong[seat] = wrong.get(seat, 0) + 1
    panels: list[Panel] = []
    for seat in range(n):
        holder, screen = over.holders[seat], over.screens[seat]
        won = seat == winner
        ring = THEME.accent if won else None
        if holder:
            groups = [
                Group([_up(c, ring=ring, lang=lang) for c in holder], tr(lang, "Mystery")),
                Group([_up(c, s, lang=lang)
                       for c, s in zip(screen, _sides(2, two, lang), strict=False)],
                      tr(lang, "Screen")),
            ]
            alt.append(tr(lang, "{name}: mystery {mystery}; screen {screen}.",
                          name=_alt_name(view, seat), mystery=_cards_alt(holder, lang),
                          screen=_cards_alt(screen, lang)))
        else:  # ended during the pass phase: only the dealt cards exist
            groups = [Group([_up(c, lang=lang) for c in over.dealt[seat]], tr(lang, "Dealt"))]
            alt.append(tr(lang, "{name}: dealt {cards}.", name=_alt_name(view, seat),
                          cards=_cards_alt(over.dealt[seat], lang)))
        misses = wrong.get(seat, 0)
        note = (trn(lang, "{n} wrong accusation", "{n} wrong accusations", misses)
                if misses else "")
        panels.append(
            Panel(
                seat_name(view, seat),
                groups,
                note=note,
                card=SMALL_CARD,
                highlight=THEME.accent if won else None,
                badge=tr(lang, "Winner") if won else "",
            )
        )
    panels = same_width(panels)
    if over.informants:
        letters = "ABCDEFGH"
        panels.append(
            Panel(
                tr(lang, "Secret Informant"),
                [Group([_up(c, letters[i], lang=lang) for i, c in enumerate(over.informants)])],
                card=SMALL_CARD,
            )
        )
        alt.append(tr(lang, "Informant: {cards}.", cards="; ".join(
            f"{letters[i]} {_card_alt(c, lang)}" for i, c in enumerate(over.informants))))
    rows = pack_rows(panels, 2 * panels[0].size[0] + PANEL_GAP)  # two seats a row
    subtitle = _table_line(view, lang) + " · " + tr(lang, "everything revealed")
    if winner is None and why:
        subtitle += " · " + drawable(why, "")
    page = Page(title=title, subtitle=subtitle, rows=rows)
    return page, " ".join(alt)


# ------------------------------------------------------------------------- the casebook


@dataclass(frozen=True)
class CaseCell:
    """One card in the casebook: its status, probability (to 3 decimals) and why it is out."""

    card: str
    name: str
    status: str
    probability: float
    reason: str = ""


@dataclass(frozen=True)
class CaseRow:
    suit: str
    cells: tuple[CaseCell, CaseCell, CaseCell]


@dataclass(frozen=True)
class CasebookScene(Scene):
    """Everything the casebook picture shows (and nothing else): the cache key."""

    rows: tuple[CaseRow, ...]
    mysteries: int
    top: tuple[tuple[float, tuple[str, str, str]], ...]
    description: str
    lang: str = SOURCE


def casebook_scene(view: PlayerView, deduction: Deduction, *, lang: str = SOURCE
                   ) -> CasebookScene:
    """The casebook's content for `view.seat`, from its view and its exact deduction."""
    if deduction.seat != view.seat:
        raise ValueError("The deduction is for another seat.")
    reasons = _whereabouts(view, lang)
    chains = Chains(view, deduction)
    rows: list[CaseRow] = []
    for suit in suits_in_play(view.options.players):
        cells = []
        for card in (c for c in CARDS if CARDS[c].suit == suit):
            status = deduction.status(card)
            cells.append(
                CaseCell(
                    card=card,
                    name=card_name(lang, card),
                    status=status,
                    probability=round(deduction.probability(card), 3),
                    reason=reasons.get(card) or _deduced(view, card, chains, lang)
                    if status == "ruled_out" else "",
                )
            )
        rows.append(CaseRow(suit.value, (cells[0], cells[1], cells[2])))
    top = tuple(
        (round(deduction.triple_probability(t), 3), (card_name(lang, t[0]),
                                                     card_name(lang, t[1]),
                                                     card_name(lang, t[2])))
        for t in deduction.candidates()[:4]
    )
    name = seat_name(view, view.seat)
    description = _casebook_alt(view, deduction, rows, lang)
    return CasebookScene(
        title=_whose(lang, N_("{name}'s casebook"), name),
        subtitle=_table_line(view, lang) + " · "
        + tr(lang, "full assist: exact odds for your holder"),
        rows=tuple(rows),
        mysteries=len(deduction.triples),
        top=top,
        description=description,
        lang=lang,
    )


def _deduced(view: PlayerView, card: str, chains: Chains, lang: str = SOURCE) -> str:
    """A ruled-out card the seat does not see: marked deduced, with the answer that proves
    it when one does alone (`casebook why` gives the whole chain)."""
    why = chains.explain(card)
    premise = why.premises[0] if len(why.premises) == 1 else None
    if isinstance(premise, Question):
        who = seat_name(view, premise.witness)
        return tr(lang, "deduced: {name} said {answer} · {subject}", name=who,
                  answer=premise.answer, subject=word(lang, premise.subject))
    if why.premises:
        return tr(lang, "deduced from {count} facts", count=len(why.premises))
    return tr(lang, "deduced")


def _whereabouts(view: PlayerView, lang: str = SOURCE) -> dict[str, str]:
    """Where the seat knows a card to be: why the casebook rules it out."""
    out: dict[str, str] = {}
    for letter, card in view.peeks.items():
        out[card] = tr(lang, "informant {letter}", letter=letter)
    for seat, cards in view.holders.items():
        for card in cards:
            out[card] = _whose(lang, N_("{name}'s holder"), seat_name(view, seat))
    for card in view.screen:
        out[card] = tr(lang, "your screen")
    return out


def _casebook_alt(view: PlayerView, deduction: Deduction, rows: list[CaseRow],
                  lang: str = SOURCE) -> str:
    parts = [_whose(lang, N_("{name}'s casebook (full assist)."), _alt_name(view, view.seat))]
    solved = deduction.certain()
    if solved:
        parts.append(tr(lang, "Solved: {cards}.",
                        cards=", ".join(card_name(lang, c) for c in solved)))
    else:
        parts.append(tr(lang, "{count} possible mysteries.", count=len(deduction.triples)))
    for category in Category:
        cells = [row.cells[list(Category).index(category)] for row in rows]
        live = [c for c in cells if c.status != "ruled_out"]
        certain = tr(lang, "certain")
        text = ", ".join(
            f"{c.name} {certain if c.status == 'certain' else percent(c.probability)}"
            for c in sorted(live, key=lambda c: -c.probability)
        )
        parts.append(tr(lang, "{category} still possible: {cards}.",
                        category=tr(lang, CATEGORY_PLURALS[category]),
                        cards=text or tr(lang, "none")))
    return " ".join(parts)


# Casebook geometry (logical pixels)
_SUIT_W = 118
_CELL_W, _CELL_H = 214, 50
_GAP = 8
_HEAD_H = 34
_MARGIN = 22
_HEADER_H = 25 + 10 + 15 + 8 + 8
_LIKELY = rgb("#e6b450")


def render_casebook(scene: CasebookScene, scale: int | None = None) -> Image.Image:
    """The casebook grid's pixels: a header row of categories, a row per suit."""
    cell, gap = (_CELL_W, _CELL_H), (_GAP, _GAP)
    grid_w, grid_h = grid_size(3 * len(scene.rows), 3, cell, gap)
    width = round(2 * _MARGIN + _SUIT_W + grid_w)
    summary_h = 34 + 26 * max(1, len(scene.top))
    height = round(_MARGIN + _HEADER_H + _HEAD_H + grid_h + 14 + summary_h + _MARGIN)
    canvas = Canvas(width, height, THEME.background, **({"scale": scale} if scale else {}))
    draw_header(canvas, scene.title, scene.subtitle)
    x0, y0 = _MARGIN, _MARGIN + _HEADER_H
    for i, (cx, _) in enumerate(grid(3, 3, cell, gap, (x0 + _SUIT_W, y0))):
        category = list(Category)[i]
        canvas.glyph(
            GLYPHS[category], (cx + 4, y0 + 2, cx + 26, y0 + 24), THEME.accent, THEME.background
        )
        live = sum(r.cells[i].status != "ruled_out" for r in scene.rows)
        canvas.text((cx + 34, y0 + 5), tr(scene.lang, CATEGORY_PLURALS[category]), 16,
                    THEME.text, bold=True)
        canvas.text((cx + _CELL_W - 6, y0 + 7), tr(scene.lang, "{count} left", count=live), 13,
                    THEME.muted, anchor="ra")
    y0 += _HEAD_H
    cells = grid(3 * len(scene.rows), 3, cell, gap, (x0 + _SUIT_W, y0))
    for r, row in enumerate(scene.rows):
        colour = SUIT_COLOURS[Suit(row.suit)]
        y = cells[3 * r][1]
        canvas.rect(
            (x0, y + 13, x0 + 24, y + 37), colour, radius=12, outline=THEME.panel_edge, width=1
        )
        canvas.text((x0 + 34, y + _CELL_H / 2), word(scene.lang, row.suit), 16, THEME.text,
                    anchor="lm")
        for i, case in enumerate(row.cells):
            cx, cy = cells[3 * r + i]
            _draw_cell(canvas, case, colour, (cx, cy, cx + _CELL_W, cy + _CELL_H))
    _draw_summary(canvas, scene, (x0, y0 + grid_h + 14, width - _MARGIN))
    return canvas.finish()


def _draw_cell(
    canvas: Canvas, cell: CaseCell, colour: RGB, box: tuple[float, float, float, float]
) -> None:
    x0, y0, x1, y1 = box
    mid = (y0 + y1) / 2
    if cell.status == "ruled_out":
        canvas.rect(box, mix(THEME.background, THEME.panel, 0.5), radius=8)
        canvas.rect((x0, y0, x0 + 5, y1), mix(colour, THEME.background, 0.6), radius=2)
        width = canvas.text((x0 + 16, mid - 8), cell.name, 15, THEME.muted, anchor="lm")
        canvas.line([(x0 + 13, mid - 7), (x0 + 19 + width, mid - 7)], THEME.bad, 2)
        canvas.text(
            (x0 + 16, mid + 11),
            cell.reason,
            12,
            mix(THEME.muted, THEME.background, 0.3),
            anchor="lm",
            max_width=x1 - x0 - 24,
        )
        return
    fill = mix(THEME.panel, _LIKELY, 0.12 + 0.62 * cell.probability)
    certain = cell.status == "certain"
    canvas.rect(
        box,
        fill,
        radius=8,
        outline=THEME.good if certain else THEME.panel_edge,
        width=2.5 if certain else 1,
    )
    canvas.rect((x0 + 1, y0 + 1, x0 + 6, y1 - 1), colour, radius=2)
    ink = ink_on(fill, THEME.card_ink, THEME.text)
    canvas.text(
        (x0 + 16, mid - 7), cell.name, 16, ink, anchor="lm", bold=True, max_width=x1 - x0 - 90
    )
    bar = (x0 + 16, y1 - 13, x1 - 70, y1 - 8)
    canvas.rect(bar, mix(fill, THEME.background, 0.35), radius=2.5)
    if cell.probability > 0:
        filled = bar[0] + max(5, (bar[2] - bar[0]) * cell.probability)
        canvas.rect((bar[0], bar[1], filled, bar[3]), ink, radius=2.5)
    if certain:
        canvas.rect((x1 - 44, mid - 15, x1 - 14, mid + 15), THEME.good, radius=15)
        canvas.glyph("check", (x1 - 38, mid - 9, x1 - 20, mid + 9), THEME.text, THEME.good)
    else:
        canvas.text((x1 - 10, mid), percent(cell.probability), 18, ink, anchor="rm", bold=True)


def _draw_summary(canvas: Canvas, scene: CasebookScene, span: tuple[float, float, float]) -> None:
    x0, y, x1 = span
    count = scene.mysteries
    lang = scene.lang
    head = (tr(lang, "Solved") if count == 1
            else tr(lang, "{count} possible mysteries", count=count))
    canvas.text((x0, y), head, 17, THEME.accent if count == 1 else THEME.text, bold=True)
    if count > len(scene.top):
        canvas.text((x1, y + 3), tr(lang, "the {count} most likely", count=len(scene.top)), 13,
                    THEME.muted, anchor="ra")
    y += 30
    for p, names in scene.top:
        label = percent(p)
        canvas.rect((x0, y + 3, x0 + 120, y + 17), THEME.panel, radius=4)
        canvas.rect((x0, y + 3, x0 + max(4, 120 * p), y + 17), _LIKELY, radius=4)
        canvas.text((x0 + 132, y + 10), label, 15, THEME.text, anchor="lm", bold=True)
        canvas.text(
            (x0 + 132 + text_width("100%", 15) + 14, y + 10),
            " · ".join(names),
            15,
            THEME.text,
            anchor="lm",
            max_width=x1 - x0 - 200,
        )
        y += 26
