"""Mansion rendering and components over whole random games, without Discord: every message
fits Discord's limits, the channel names no secret, a seat's DM names only what that seat may
know, every custom_id is handled by exactly one component family, and the turn timer's
notice says what its move does."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import cache
from typing import Any, Literal

import pytest
from discord.ui import DynamicItem

from bot.components import TableButton
from bot.mansion import components
from bot.mansion.components import FAMILIES
from bot.mansion.game import GAME, IDLE
from bot.mansion.notes import choice_text, notes_message
from bot.mansion.render.labels import action_name
from bot.messages import Outgoing
from bot.models import SeatRef, Table
from engine.mansion import (
    Event,
    GameState,
    Options,
    PlayerRef,
    PrivateTip,
    legal,
    new_game,
    player_view,
)
from engine.mansion.actions import PLAY_TYPES, card_played
from engine.mansion.ai import choose_action
from engine.mansion.prompts import PickPrompt
from engine.mansion.state import Variant
from testkit.mansion_drive import named
from testkit.mansion_secrecy import (
    BURNED,
    PRIVATE_PHRASES,
    TIP_ASKS,
    knowable,
    public_card_line,
)
from testkit.standin.limits import check_message

NAMES = ["Ann *the* `Great` of the North Wing", "B_e_a", "Cid ||x||", "Dee", "Ève"]
TABLE_ID = 987654321012345678

Step = tuple[GameState, list[Event]]


def table_for(state: GameState, **options: object) -> Table:
    return Table(id=TABLE_ID, guild_id=1, channel_id=2, game="mansion", status="playing",
                 host_id=1, options={"assist": "full", **options},
                 seats=[SeatRef(name=s.name, user_id=i + 1) for i, s in enumerate(state.seats)],
                 version=7)


def games(players: int, seed: int, variant: Variant = "standard", series: Literal[1, 2, 3] = 1
          ) -> Iterator[Step]:
    """A random game of AI players (easy or expert), step by step."""
    refs = [PlayerRef(id=f"p{i}", name=NAMES[i]) for i in range(players)]
    state, events = new_game(refs, Options(players=players, variant=variant,
                                           series_wins=series), seed)
    rng = random.Random(seed)
    yield state, events
    while state.phase != "over":
        seat = legal.waiting_on(state)[0]
        level = "expert" if seat % 2 else "easy"
        if rng.random() < 0.2:
            action = GAME.ai_action(state, seat, IDLE, rng)
        else:
            action = choose_action(player_view(state, seat), level, rng)  # type: ignore[arg-type]
        state, events = GAME.apply(state, action)
        yield state, events


@cache
def played(players: int, seed: int, variant: Variant, series: Literal[1, 2, 3]) -> list[Step]:
    """A case's game, played once per test process: this module's test and the language
    tests (`test_languages`) render the same games (they only read the states)."""
    return list(games(players, seed, variant, series))


CASES: list[tuple[int, int, Variant, Literal[1, 2, 3]]] = [
    (3, 1, "standard", 1), (4, 2, "one_against_all", 1), (5, 3, "standard", 2),
    (3, 4, "one_against_all", 2)]


def fits(out: Outgoing, where: str) -> None:
    problems = check_message(out.payload(), creating=True, interaction=False)
    assert not problems, (where, problems, out.text[:200])


def lines(out: Outgoing) -> Iterator[tuple[str, str]]:
    for line in out.text.splitlines():
        yield "content", line
    for embed in out.embeds:
        for line in str(embed.get("description") or "").splitlines():
            yield "description", line
        for fld in embed.get("fields", []):
            for line in str(fld.get("value", "")).splitlines():
                yield f"field:{fld.get('name')}", line


@pytest.mark.parametrize(("players", "seed", "variant", "series"), CASES)
def test_every_message_fits_and_keeps_secrets(players: int, seed: int, variant: Variant,
                                              series: Literal[1, 2, 3]) -> None:
    messages = 0
    for n, (state, events) in enumerate(played(players, seed, variant, series)):
        table = table_for(state, series=series)
        news = GAME.news(table, state, events, lang="en")
        if news:
            fits(Outgoing(content=news), "news")
            reveal = "is over**" in news
            for line in news.splitlines():
                assert not any(p in line for p in PRIVATE_PHRASES), line
                assert not any(a in line for a in TIP_ASKS.values()) or BURNED in line, line
                if named(line) and not (reveal and line.startswith(("• ", "🔓", "🏁"))):
                    assert public_card_line("content", line), line
        fits(GAME.table_message(table, state, lang="en"), "table")
        may_know = knowable(state)
        for seat in range(players):
            letter = GAME.letter(table, state, events, seat, lang="en")
            if letter is None:
                continue
            messages += 1
            fits(letter, "letter")
            for where, line in lines(letter):
                cards = named(line)
                if cards and not public_card_line(where, line) and "is over**" not in (news or ""):
                    assert cards <= may_know[seat], (seat, line)
        if n % 7 == 0:  # the looks, now and then
            for seat in range(players):
                fits(GAME.hand(table, state, seat, lang="en"), "hand")
                view = player_view(state, seat)
                fits(components.panel(table.id, view, "en"), "panel")
                if view.prompt is not None and view.prompt.kind == "play":
                    for card in legal.playable_cards(view, seat):
                        fits(components.card_step(table.id, view, card, "en"), card)
                    fits(components.accuse_picker(table.id, view.prompt.id, [None] * 3, "en"),
                         "acc")
            view = player_view(state, n % players)
            fits(notes_message(table, view, "en", choice=choice_text(view, "en")), "notes")
    assert state.phase == "over" and messages > 10
    fits(Outgoing(content=GAME.log(table, state, lang="en")), "log")


FAMILIES_AND_TABLE: tuple[type[DynamicItem[Any]], ...] = (*FAMILIES, TableButton)
TEMPLATES = [re.compile(f.__discord_ui_compiled_template__) for f in FAMILIES_AND_TABLE]


def custom_ids(out: Outgoing) -> list[str]:
    found: list[str] = []

    def walk(items: list[dict]) -> None:  # type: ignore[type-arg]
        for item in items:
            if "custom_id" in item:
                found.append(item["custom_id"])
            walk(item.get("components", []))

    walk(out.components)
    return found


def test_every_custom_id_is_handled_by_exactly_one_family() -> None:
    seen: set[str] = set()
    for state, events in games(5, 9, "one_against_all"):
        table = table_for(state)
        outs = [GAME.table_message(table, state, lang="en")]
        for seat in range(len(state.seats)):
            view = player_view(state, seat)
            outs.append(components.panel(table.id, view, "en"))
            letter = GAME.letter(table, state, events, seat, lang="en")
            if letter:
                outs.append(letter)
            if view.prompt is not None and view.prompt.kind == "play":
                for card in legal.playable_cards(view, seat):
                    outs.append(components.card_step(table.id, view, card, "en"))
                draft = ["golden_gate", "scarlet", "automobile"]
                outs.append(components.suggest_any_picker(table.id, view, draft, "en"))  # type: ignore[arg-type]
                outs.append(components.accuse_picker(table.id, view.prompt.id,
                                                     ["plum", "automobile", "lincoln_memorial"],
                                                     "en"))
        for out in outs:
            for cid in custom_ids(out):
                assert len(cid) <= 100, cid
                matches = [t for t in TEMPLATES if t.fullmatch(cid)]
                assert len(matches) == 1, (cid, matches)
                seen.add(cid.split(":")[1])
    assert {"turn", "notes", "card", "acopen", "end", "show", "pick", "sols", "sad",
            "hand"} <= seen


def test_drafts_read_back_only_what_a_picker_writes() -> None:
    kinds = components.TRIPLE_KINDS
    assert components.decode("plum.train.alamo", kinds) == ["plum", "train", "alamo"]
    assert components.decode("train.plum.alamo", kinds) == [None, None, "alamo"]
    assert components.decode("_._.nowhere", kinds) == [None, None, None]
    assert components.decode("plum.train", kinds) == [None, None, None]
    assert components.decode("", kinds) == [None, None, None]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_idle_notice_says_what_the_timer_does(seed: int) -> None:
    told = 0
    for state, _ in games(4, seed):
        if state.phase == "over":
            break
        for seat in legal.waiting_on(state):
            notice = GAME.idle_notice(table_for(state), state, seat, lang="en")
            action = GAME.ai_action(state, seat, IDLE, random.Random(0))
            assert action.type != "accuse"
            assert GAME.ai_action(state, seat, IDLE, random.Random(1)) == action
            if isinstance(action, PrivateTip):  # which tip stays between the two
                assert "a **Private Tip** to" in notice and TIP_ASKS[action.card] not in notice
                told += 1
            elif isinstance(action, PLAY_TYPES):
                assert action_name("en", card_played(action)) in notice
                assert "took too long: for them" in notice
                told += 1
            assert not (named(notice) - _public_destinations(action))
    assert told > 3


def _public_destinations(action: object) -> set[str]:
    dest = getattr(action, "destination", None)
    return {dest} if dest else set()


def test_the_turn_timer_key_holds_for_a_turn_played_alone() -> None:
    previous: tuple[int, str] | None = None
    changes_within_own_turn = 0
    for state, _ in games(4, 5):
        if state.phase == "over":
            break
        key = GAME.turn_key(state)
        own = all(p.seat == state.turn and (p.kind in ("play", "accuse_or_end") or (
            isinstance(p, PickPrompt) and p.reason == "snoop")) for p in state.prompts)
        same_turn = previous is not None and previous[0] == state.turn_number
        if same_turn and own and key != previous[1] and not key.endswith("a1"):  # type: ignore[index]
            changes_within_own_turn += 1
        previous = (state.turn_number, key)
        waiting = legal.waiting_on(state)
        assert key.endswith(":w") == (waiting != [state.turn] or not own)
    assert changes_within_own_turn == 0
