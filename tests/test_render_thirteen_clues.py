"""Rendering of 13 Clues: Discord's limits always hold, secrets never leak, and the phrasing
of the key events reads as intended.

Whole games are played at random through the real engine (2–6 players, both editions, Top
Secret) and every rendering is checked after every action, from every seat.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterable

import discord
import pytest

from bot.thirteen_clues.render import (
    NUMBER_EMOJI,
    SUIT_EMOJI,
    card_label,
    case_file_text,
    channel_text,
    dm_text,
    event_text,
    hand_embed,
    lobby_embed,
    pass_hint,
    question_log_text,
    reveal_embed,
    rules_text,
    subject_label,
    table_embed,
)
from bot.thirteen_clues.words import card_name
from engine.audience import Audience
from engine.thirteen_clues import GameState, Options, PlayerRef, apply, legal, new_game
from engine.thirteen_clues import actions as act
from engine.thirteen_clues.cards import CARDS, Suit
from engine.thirteen_clues.events import (
    AccusationMade,
    CardsDealt,
    Event,
    GameOver,
    GlassMoved,
    GlassTaken,
    InformantCard,
    InformantConsulted,
    PassChosen,
    QuestionAnswered,
    SecretQuestionAsked,
    TurnStarted,
)
from engine.thirteen_clues.state import DEFAULT_EDITION, Edition, Question
from engine.thirteen_clues.views import PlayerView, PublicView, SeatInfo, player_view, public_view
from testkit.thirteen_clues import first_choice, random_action

PUBLIC = Audience.public()
NAMES = ["Ann", "Bea", "Cid", "Dan", "Eve", "Fay"]
TRUTH = 0.015
"""The chance a random turn accuses the true holder (the games also end with a winner)."""
# Markdown, a mention and an over-long name: rendering must stay valid and within limits.
ODD_NAMES = ["a_b*c~", "@everyone", "Z" * 60, "`tick`", "Bea|x", "Eve>"]


@functools.cache
def _card_words(lang: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """The card names of `lang` as whole words (longest first), and the card each names."""
    by_name = {card_name(lang, c): c for c in CARDS}
    names = sorted(by_name, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b"), by_name


# ---------------------------------------------------------------- helpers


def names_in(text: str, cards: Iterable[str], lang: str = "en") -> set[str]:
    """The cards among `cards` whose name in `lang` appears in `text` as a whole word ("Gun"
    is not found in "Blowgun", nor "Bow" in "Crossbow")."""
    words, by_name = _card_words(lang)
    found = {by_name[name] for name in words.findall(text)}
    return found.intersection(cards)


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def assert_embed_ok(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.footer.text or "") <= 2048
    assert len(embed.fields) <= 25
    for f in embed.fields:
        assert f.name and len(f.name) <= 256
        assert f.value and len(f.value) <= 1024
    assert len(embed) <= 6000


def assert_message_ok(text: str | None) -> None:
    if text is not None:
        assert len(text) <= 2000


def check_everything(state: GameState, events: list[Event], accused: list[set[str]],
                     lang: str = "en") -> None:
    """Every renderer, every viewer, in `lang`: limits always; secrecy while the game is not
    over."""
    over = state.phase == "over"
    pub = public_view(state)
    in_play = [c for c in CARDS]

    channel = channel_text(lang, events, pub)
    assert_message_ok(channel)
    table = table_embed(lang, pub)
    assert_embed_ok(table)
    log = question_log_text(lang, pub)
    assert_message_ok(log)
    public_lines = [event_text(lang, e, pub) for e in events]
    for line in public_lines:
        assert_message_ok(line)
    if not over:
        assert not names_in(channel, in_play, lang), channel
        assert not names_in(embed_text(table), in_play, lang)
        assert not names_in(log, in_play, lang), log
        for line in public_lines:
            assert line is None or not names_in(line, in_play, lang), line
    for e in events:
        if isinstance(e, GameOver):
            reveal = reveal_embed(lang, e, pub)
            assert_embed_ok(reveal)
            assert names_in(embed_text(reveal), [c for h in e.holders for c in h], lang)

    for seat in range(state.players):
        view = player_view(state, seat)
        # Cards the seat named itself in an accusation may appear (its own guess, no leak).
        forbidden = set(state.seats[seat].holder) - accused[seat]
        dm = dm_text(lang, events, view)
        hand = hand_embed(lang, view)
        assert_message_ok(dm)
        assert_embed_ok(hand)
        texts = [dm or "", embed_text(hand)]
        texts += [t for e in events if (t := event_text(lang, e, view)) is not None]
        if state.phase != "passing":
            case = case_file_text(lang, view)
            assert_message_ok(case)
            texts.append(case)
        for t in texts:
            assert_message_ok(t)
            if not over:
                assert not names_in(t, forbidden, lang), (seat, t)
        mine = [e for e in events if e.audience.scope == "private" and seat in e.audience.seats]
        assert (dm is None) == (not mine)


CONFIGS = [(2, "2020", False), (2, "2016", False)] + [
    (n, ed, ts) for n in range(3, 7) for ed in ("2020", "2016") for ts in (False, True)
]


@pytest.mark.parametrize(("players", "edition", "top_secret"), CONFIGS)
def test_random_games_respect_limits_and_secrecy(
    players: int, edition: Edition, top_secret: bool
) -> None:
    play_random_games(players, edition, top_secret, "en")


@pytest.mark.parametrize("lang", ["fr", "de", "es"])
@pytest.mark.parametrize(("players", "edition", "top_secret"),
                         [(2, "2016", False), (4, "2020", True), (6, "2016", True)])
def test_random_games_respect_limits_and_secrecy_in_every_language(
    lang: str, players: int, edition: Edition, top_secret: bool
) -> None:
    """Translations run longer: the same games, rendered in each catalog's language."""
    play_random_games(players, edition, top_secret, lang)


def play_random_games(players: int, edition: Edition, top_secret: bool, lang: str) -> None:
    for seed, steps in ((1, 100), (2, 40)):
        names = (NAMES if seed == 1 else ODD_NAMES)[:players]
        refs = [PlayerRef(id=str(i), name=n) for i, n in enumerate(names)]
        options = Options(players=players, edition=edition, top_secret=top_secret)
        state, events = new_game(refs, options, seed=seed * 100 + players)
        accused: list[set[str]] = [set() for _ in range(players)]
        check_everything(state, events, accused, lang)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.phase == "over":
                break
            action = random_action(state, rng, truth=TRUTH)
            if isinstance(action, act.Accuse):
                accused[action.seat] |= {action.person, action.location, action.weapon}
            state, events = apply(state, action)
            check_everything(state, events, accused, lang)
        if state.phase != "over":
            state, events = apply(state, act.Abandon(reason="The host ended the game."))
            check_everything(state, events, accused, lang)
        assert state.phase == "over"


# ---------------------------------------------------------------- exact phrasing


def make_view(
    names: list[str],
    *,
    edition: Edition = DEFAULT_EDITION,
    top_secret: bool = False,
    seat: int | None = None,
) -> PublicView:
    """A hand-built view (seat order as given), so the phrasing tests read plainly."""
    players = len(names)
    fields: dict[str, object] = {
        "options": Options(players=players, edition=edition, top_secret=top_secret),
        "phase": "turns",
        "seats": [
            SeatInfo(name=n, glasses=1, top_secret_used=False, has_passed=True) for n in names
        ],
        "turn": 0,
        "turn_number": 1,
        "supply": 8 - players if players > 2 else 0,
        "letters": list("ABCDEFGH"[: {2: 8, 3: 6, 4: 4, 5: 2, 6: 0}[players]]),
        "questions": [],
        "consultations": [],
        "accusations": [],
        "winner": None,
    }
    if seat is None:
        return PublicView.model_validate(fields)
    return PlayerView.model_validate(dict(
        fields,
        seat=seat,
        dealt=[],
        passed=None,
        screen=["rifle", "nurse"],
        holders={i: ["officer", "library", "sword"] for i in range(players) if i != seat},
        peeks={},
        secret_questions=[],
        my_accusations=[],
    ))


ABC = ["Ann", "Bea", "Cid"]


def test_labels() -> None:
    assert card_label("en", "knife") == "🟣 Knife"
    assert subject_label("en", "purple") == "🟣 Purple"
    assert subject_label("en", "up_close") == "Up close"
    assert subject_label("en", "weapon") == "Weapons"
    assert set(SUIT_EMOJI) == set(Suit) and len(set(SUIT_EMOJI.values())) == 10
    assert NUMBER_EMOJI[10] == "🔟"


def test_public_question() -> None:
    event = QuestionAnswered(audience=PUBLIC, asker=0, witness=1, subject="purple", answer=2)
    assert (
        event_text("en", event, make_view(ABC))
        == "❓ **Ann** asked **Bea** how many 🟣 Purple cards Bea sees: **2**."
    )
    assert (
        event_text("en", event, make_view(ABC, seat=1))
        == "❓ **Ann** asked you how many 🟣 Purple cards you see: **2**."
    )
    category = event.model_copy(update={"subject": "weapon", "answer": 0})
    assert "how many Weapons Bea sees: **0**" in (event_text("en", category, make_view(ABC)) or "")


def test_two_player_question_names_the_side() -> None:
    event = QuestionAnswered(
        audience=PUBLIC, asker=0, witness=1, subject="red", side="right", answer=1
    )
    assert event_text("en", event, make_view(["Ann", "Bea"])) == (
        "❓ **Ann** asked **Bea** how many 🔴 Red cards Bea sees, "
        "including the card on Bea's right: **1**."
    )
    assert event_text("en", event, make_view(["Ann", "Bea"], seat=1)) == (
        "❓ **Ann** asked you how many 🔴 Red cards you see, including the card on your right: "
        "**1**."
    )


def test_top_secret_question() -> None:
    trace = SecretQuestionAsked(audience=PUBLIC, asker=0, witness=1)
    answer = QuestionAnswered(
        audience=Audience.to(0, 1),
        asker=0,
        witness=1,
        subject="up_close",
        answer=3,
        top_secret=True,
    )
    events: list[Event] = [
        trace, GlassMoved(audience=PUBLIC, giver=0, receiver=1, reason="question"), answer
    ]
    assert channel_text("en", events, make_view(ABC, top_secret=True)) == (
        "🤫 **Ann** asked **Bea** a Top Secret question.\n🔎 **Ann**'s glass goes to **Bea**."
    )
    asker = make_view(ABC, top_secret=True, seat=0)
    assert isinstance(asker, PlayerView)
    assert dm_text("en", events, asker) == (
        "🤫 You asked **Bea** (Top Secret) how many Up close cards Bea sees: **3**. "
        "Only you and **Bea** know this."
    )
    witness = make_view(ABC, top_secret=True, seat=1)
    assert isinstance(witness, PlayerView)
    assert dm_text("en", events, witness) == (
        "🤫 **Ann** asked you (Top Secret) how many Up close cards you see: **3**. "
        "Only you and **Ann** know this."
    )
    other = make_view(ABC, top_secret=True, seat=2)
    assert isinstance(other, PlayerView)
    assert dm_text("en", events, other) is None
    assert event_text("en", answer, other) is None
    assert event_text("en", answer, make_view(ABC)) is None


def test_informant() -> None:
    consulted = InformantConsulted(audience=PUBLIC, seat=0, letter="C")
    card = InformantCard(audience=Audience.to(0), seat=0, letter="C", card="rifle")
    moved = GlassMoved(audience=PUBLIC, giver=0, receiver=None, reason="informant")
    # The engine emits the glass first; the channel says the action first.
    assert channel_text("en", [moved, consulted, card], make_view(ABC)) == (
        "🗂️ **Ann** consulted informant **C**.\n🔎 **Ann**'s glass goes back to the supply."
    )
    ann = make_view(ABC, seat=0)
    assert isinstance(ann, PlayerView)
    assert dm_text("en", [consulted, moved, card], ann) == "🕵️ Informant **C** is **🔵 Rifle**."
    assert event_text("en", card, make_view(ABC, seat=1)) is None


def test_accusations() -> None:
    wrong = AccusationMade(audience=PUBLIC, seat=0, correct=False)
    right = AccusationMade(audience=PUBLIC, seat=0, correct=True)
    assert event_text("en", wrong, make_view(ABC)) == "⚖️ **Ann** made an accusation: ❌ wrong."
    assert event_text("en", right, make_view(ABC)) == (
        "⚖️ **Ann** made an accusation: ✅ right — Ann solved the mystery and wins!"
    )
    assert event_text("en", right, make_view(ABC, seat=0)) == (
        "⚖️ You made an accusation: ✅ right — you solved your mystery and win!"
    )
    named = AccusationMade(
        audience=Audience.to(0), seat=0, correct=False, cards=["officer", "library", "knife"]
    )
    assert event_text("en", named, make_view(ABC, seat=0)) == (
        "⚖️ You accused 🟣 Officer, 🔴 Library, 🟣 Knife: ❌ wrong "
        "(at least one is not on your holder)."
    )
    assert event_text("en", named, make_view(ABC)) is None


def test_glass_moves() -> None:
    view = make_view(ABC)
    to_cid = GlassMoved(audience=PUBLIC, giver=0, receiver=2, reason="accusation")
    assert event_text("en", to_cid, view) == "🔎 **Ann**'s glass goes to **Cid**."
    assert event_text("en", to_cid, make_view(ABC, seat=0)) == "🔎 Your glass goes to **Cid**."
    assert event_text("en", to_cid, make_view(ABC, seat=2)) == "🔎 **Ann**'s glass goes to you."
    back = GlassMoved(audience=PUBLIC, giver=0, receiver=None, count=2, reason="wrong_accusation")
    assert event_text("en", back, view) == (
        "🔎 **Ann**'s remaining 2 glasses go back to the supply: the turn ends."
    )
    supply = GlassTaken(audience=PUBLIC, seat=0, source=None)
    assert event_text("en", supply, view) == "🔎 **Ann** takes a magnifying glass from the supply."
    taken = GlassTaken(audience=PUBLIC, seat=0, source=1)
    assert event_text("en", taken, make_view(ABC, seat=0)) == (
        "🔎 You take a magnifying glass from **Bea**."
    )


def test_turns_and_passing() -> None:
    view = make_view(ABC)
    chosen = PassChosen(audience=PUBLIC, seat=0, waiting_for=[1, 2])
    assert event_text("en", chosen, view) == (
        "📨 **Ann** has chosen the cards to pass (waiting for **Bea**, **Cid**)."
    )
    must = TurnStarted(audience=PUBLIC, seat=0, turn_number=9, glasses=0, must_take=True)
    text = event_text("en", must, view) or ""
    assert "must take a magnifying glass from another player" in text
    mine = TurnStarted(audience=PUBLIC, seat=0, turn_number=2, glasses=2)
    assert event_text("en", mine, make_view(ABC, seat=0)) == (
        "▶️ Turn 2: **your turn** — 🔎🔎 (2 actions)."
    )
    private = PassChosen(
        audience=Audience.to(0), seat=0, cards=["officer", "library", "sword"], waiting_for=[1]
    )
    assert (event_text("en", private, make_view(ABC, seat=0)) or "").startswith(
        "✅ You pass 🟣 Officer, 🔴 Library, 🟢 Sword to **Bea**'s card holder."
    )
    dealt = CardsDealt(audience=Audience.to(1), seat=1, cards=["officer"])
    assert event_text("en", dealt, make_view(ABC)) is None


@pytest.mark.parametrize("seed", range(8))
def test_two_players_are_told_their_sides_once_drawn_not_before(seed: int) -> None:
    """The sides of a two-player screen are drawn when play begins (`rules._begin_play`):
    while passing, no message names a left or right card (deal order was wrong half the
    time); from then on the case file and `hand` name the drawn ones."""
    refs = [PlayerRef(id=str(i), name=n) for i, n in enumerate(NAMES[:2])]
    state, events = new_game(refs, Options(players=2), seed=seed)
    dealt = next(e for e in events if isinstance(e, CardsDealt) and e.seat == 0)
    assert "drawn when play begins" in (event_text("en", dealt, player_view(state, 0)) or "")
    said: list[str] = []
    for seat in (0, 1):
        state, events = apply(state, act.ChoosePass(seat=seat, **first_choice(
            state.seats[seat].dealt)))
        if seat == 0:
            before_play = state
            view = player_view(state, 0)
            said += [dm_text("en", events, view) or "", embed_text(hand_embed("en", view))]
    assert said and not any("⬅️" in text or "➡️" in text for text in said)
    kept = [c for c in state.seats[0].dealt if c not in (state.seats[0].passed or [])]
    ended, _ = apply(before_play, act.Abandon(reason="The host ended the table."))
    assert ended.phase == "over" and not ended.seats[0].screen
    fields = {f.name: f.value for f in hand_embed("en", player_view(ended, 0)).fields}
    shown = fields["Behind your screen"] or ""  # the game ended before play began
    assert all(card_label("en", c) in shown for c in kept) and "⬅️" not in shown
    view = player_view(state, 0)
    left, right = (card_label("en", c) for c in view.screen)
    assert f"⬅️ left {left} · {right} right ➡️" in (dm_text("en", events, view) or "")
    assert f"⬅️ left: {left}\nright ➡️: {right}" in embed_text(hand_embed("en", view))


def test_pass_hint() -> None:
    hint = pass_hint("en", ["officer", "parlor", "knife", "nurse", "harbor"])
    assert hint is not None and "Purple" in hint and "🟣 Officer" in hint
    assert pass_hint("en", ["officer", "parlor", "sword", "nurse", "harbor"]) is None


def test_table_embed_shows_who_must_take() -> None:
    view = make_view(ABC, edition="2020", top_secret=True)
    view.seats[0].glasses = 0
    view.supply = 0
    embed = table_embed("en", view)
    assert embed.title == "13 Clues — 2020 rules (Top Secret)"
    assert "must take a magnifying glass" in (embed.description or "")
    assert "/13clues hand" in (embed.footer.text or "")
    assert_embed_ok(embed)


def test_names_are_escaped() -> None:
    event = InformantConsulted(audience=PUBLIC, seat=0, letter="A")
    text = event_text("en", event, make_view(["a_b*c", "Bea", "Cid"])) or ""
    assert "**a\\_b\\*c**" in text


def test_question_log_keeps_the_latest() -> None:
    view = make_view(ABC, top_secret=True)
    view.questions = [
        Question(asker=i % 3, witness=(i + 1) % 3, subject="purple", answer=i % 4)
        for i in range(300)
    ] + [Question(asker=0, witness=1, subject="", answer=-1, top_secret=True)]
    text = question_log_text("en", view)
    assert len(text) <= 2000
    assert "earlier questions omitted" in text
    assert "`301.` 🤫 **Ann** → **Bea** (Top Secret)" in text
    assert "`300.`" in text


def test_lobby_and_rules() -> None:
    embed = lobby_embed("en", "Ann", ["Ann", "Bea"], {"edition": "2016", "top_secret": True})
    assert_embed_ok(embed)
    assert "2/6" in embed_text(embed) and "/13clues join" in embed_text(embed)
    for edition in ("2020", "2016"):
        for players in (None, 2, 3, 4, 5, 6):
            for secret in (False, True):
                text = rules_text("en", edition, players, secret)
                assert len(text) <= 2000
                assert ("Top Secret" in text) == (secret and players != 2)
                # a lobby does not know yet whether two will play, which drops the variant
                assert ("a table of two plays without it" in text) == (secret and not players)
    assert "left *or* right" in rules_text("en", "2020", 2)
    assert "Persons, Locations, Weapons" in rules_text("en", "2016", 4)
    assert "Persons, Locations, Weapons" not in rules_text("en", "2020", 4)
    editions: tuple[Edition, ...] = ("2020", "2016")
    for edition in editions:  # two players: wrong ends the turn, no visible cards
        assert "Wrong ends your turn. You cannot name a card you can see." in rules_text(
            "en", edition, 2)
    assert "any cards may be named" in rules_text("en", "2016", 3)


def test_empty_supply_take_is_rendered() -> None:
    """Questions only, 2016 rules: glasses pile up with one player until the supply is empty
    and someone must take one from another player."""
    refs = [PlayerRef(id=str(i), name=n) for i, n in enumerate(NAMES[:3])]
    state, _ = new_game(refs, Options(players=3, edition="2016"), seed=7)
    rng = random.Random(7)
    while state.phase == "passing":
        state, _ = apply(state, random_action(state, rng, truth=TRUTH))
    for _ in range(200):
        if legal.take_sources(state, state.turn):
            break
        seat = state.turn
        # Everyone feeds seat 0, so the others start their turns empty-handed.
        ask = act.Ask(seat=seat, witness=0 if seat else 1, subject="red")
        state, events = apply(state, ask)
    else:
        pytest.fail("the supply never ran out")
    text = channel_text("en", events, public_view(state))
    assert "must take a magnifying glass from another player" in text
    status = table_embed("en", public_view(state)).description or ""
    assert "must take a magnifying glass" in status
    source = legal.take_sources(state, state.turn)[0]
    state, events = apply(state, act.TakeGlass(seat=state.turn, source=source))
    taker, giver = state.seats[state.turn].name, state.seats[source].name
    expected = f"🔎 **{taker}** takes a magnifying glass from **{giver}**."
    assert channel_text("en", events, public_view(state)) == expected
