"""Helpers to drive a 13 Clues table through the stand-in as real members would."""

from __future__ import annotations

import re
from typing import Any

from engine.thirteen_clues import GameState, answer_for
from engine.thirteen_clues.cards import CARDS, Category
from testkit.standin import InteractionResult, Message, User
from testkit.world import World

CARD_NAME = {c: re.compile(rf"\b{re.escape(info.name)}\b") for c, info in CARDS.items()}


async def true_state(world: World) -> GameState:
    """The stored truth, read from the bot's own database (tests may know everything)."""
    assert world.bot is not None
    table = await world.bot.storage.last_game(world.channel)  # open, else the last finished
    assert table is not None and table.state is not None
    return GameState.model_validate_json(table.state)


async def open_table(world: World, players: list[User], **options: Any) -> InteractionResult:
    host, *others = players
    result = await world.dc.slash(host, world.channel, "13clues", "new", **options)
    assert "Table open" in result.text, result.text
    for user in others:
        joined = await world.dc.slash(user, world.channel, "13clues", "join")
        assert "You have a seat" in joined.text, joined.text
    started = await world.dc.slash(host, world.channel, "13clues", "start")
    assert "Cards dealt" in started.text, started.text
    await world.dc.settle()
    return started


def pass_prompt(world: World, user: User) -> Message:
    return next(m for m in reversed(world.dc.dms(user)) if any(
        cid.startswith("13c:pass:") for cid in m.custom_ids))


def first_of_each(cards: list[str]) -> list[str]:
    return [next(c for c in cards if CARDS[c].category == cat) for cat in Category]


async def pass_by_dm(world: World, user: User) -> InteractionResult:
    """Choose the first Person, Location and Weapon of the dealt five in the DM select."""
    prompt = pass_prompt(world, user)
    cid = next(c for c in prompt.custom_ids if c.startswith("13c:pass:"))
    dealt = [o["value"] for o in prompt.options(cid)]
    result = await world.dc.select(user, prompt, cid, first_of_each(dealt))
    await world.dc.settle()
    return result


async def play_begins(world: World, players: int = 3, **options: Any) -> None:
    """A table of the first `players` users, each passing by DM: the first turn begins."""
    users = world.users[:players]
    await open_table(world, users, **options)
    for user in users:
        await pass_by_dm(world, user)


async def first_turn(world: World, **options: Any) -> tuple[GameState, int, User]:
    """`play_begins` with three players: the state, the seat to act and its member."""
    await play_begins(world, **options)
    state = await true_state(world)
    return state, state.turn, seat_user(world, state, state.turn)


def seat_user(world: World, state: GameState, seat: int) -> User:
    user_id = int(state.seats[seat].id.removeprefix("u"))
    return next(u for u in world.users if u.id == user_id)


def expected_answer(state: GameState, asker: int, witness: int, subject: str,
                    side: str | None = None) -> int:
    return answer_for(state, asker, witness, subject, side)


def texts_before(messages: list[Message], until: float | None = None) -> list[str]:
    """Every text a message ever showed (all edits), for secrecy scans. `until` is wall-clock
    (time.time(), as Message.created_at), not the stand-in's monotonic dc.now(); to scan up
    to a moment exactly, edits included, prefer drive.cut() and drive.assert_secrecy()."""
    out: list[str] = []
    for m in messages:
        if until is not None and m.created_at > until:
            continue
        out.append(m.text)
        for snap in m.history:
            shown = Message(id=m.id, channel_id=m.channel_id, guild_id=m.guild_id,
                            author_id=m.author_id, content=snap.get("content") or "",
                            embeds=snap.get("embeds") or [],
                            components=snap.get("components") or [])
            out.append(shown.text)
    return out


def named_cards(text: str) -> set[str]:
    return {c for c, pattern in CARD_NAME.items() if pattern.search(text)}
