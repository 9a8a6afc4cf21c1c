"""A scripted, seeded 13 Clues game played as friends would (pass by the DM menu, questions
by the Ask picker, the winning accusation by the Accuse picker), and the count of what it
made on Discord: channel posts and edits, DMs, ephemerals, pings.

Self-contained on purpose (the stand-in, the engine and the bot's database only), so the same
script can be run against an older build to compare message counts.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from engine.thirteen_clues import GameState, legal
from engine.thirteen_clues.cards import CARDS, Category
from testkit.standin import Message, User

SEED = 20261123
QUESTIONS = 30
"""Questions asked before the player whose turn it is accuses their true holder."""


def _latest(world: Any) -> tuple[str, int]:
    """The state and version of the channel's latest table."""
    con = sqlite3.connect(world.db, timeout=5)
    try:
        row = con.execute("SELECT state, version FROM tables WHERE channel_id = ? ORDER BY id "
                          "DESC LIMIT 1", (world.channel,)).fetchone()
    finally:
        con.close()
    return row[0], row[1]


def state_of(world: Any) -> GameState:
    return GameState.model_validate_json(_latest(world)[0])


def user_of(world: Any, state: GameState, seat: int) -> User | None:
    sid = state.seats[seat].id
    return world.dc.users[int(sid[1:])] if sid.startswith("u") else None


def living(world: Any) -> Message:
    messages: list[Message] = world.dc.channel_messages(world.channel)
    for msg in reversed(messages):
        if any(c.startswith("13c:") for c in msg.custom_ids):
            return msg
    raise AssertionError("no table message with buttons")


async def turn_message(world: Any, verb: str) -> Message:
    """The living table message once it offers `verb` for the stored version of the table:
    the outbox (paced) may still be posting the new turn's message when the database already
    has it, and the previous turn's message offers the same verbs, to be refused as stale."""
    for _ in range(500):
        try:
            msg = living(world)
            version = str(_latest(world)[1])
            if any(c.split(":")[1] == verb and c.split(":")[3] == version
                   for c in msg.custom_ids):
                return msg
        except AssertionError:
            pass
        await asyncio.sleep(0.02)
    raise AssertionError(f"no table message offering {verb!r}")


def cid(msg: Message, verb: str) -> str:
    return next(c for c in msg.custom_ids if c.split(":")[1] == verb)


@dataclass
class Marks:
    """Positions in the stand-in's record, to count what happened in between."""

    questions: int = 0
    asks: list[tuple[int, int]] = field(default_factory=list)
    """(picker message id, user id) of every Ask picker opened."""
    turn_starts: int = 0
    ai_turns: int = 0


async def pass_all(world: Any, users: list[User]) -> None:
    for user in users:
        prompt = None
        for _ in range(250):  # the deal's DM may still be on its way
            prompt = next((m for m in reversed(world.dc.dms(user))
                           if any(c.startswith("13c:pass:") for c in m.custom_ids)), None)
            if prompt is not None:
                break
            await asyncio.sleep(0.02)
        assert prompt is not None, f"no pass menu for {user.name}"
        pid = next(c for c in prompt.custom_ids if c.startswith("13c:pass:"))
        dealt = [o["value"] for o in prompt.options(pid)]
        chosen = [next(c for c in dealt if CARDS[c].category == cat) for cat in Category]
        await world.dc.select(user, prompt, pid, chosen)
        await world.dc.settle()


async def open_and_deal(world: Any, users: list[User], *, ai: int = 0, seed: int = SEED,
                        **options: Any) -> None:
    world.bot.tables.seed = lambda: seed
    host, *others = users
    await world.dc.slash(host, world.channel, "13clues", "new", **options)
    for user in others:
        await world.dc.slash(user, world.channel, "13clues", "join")
    if ai:
        await world.dc.slash(host, world.channel, "13clues", "add-ai", count=ai)
    await world.dc.slash(host, world.channel, "13clues", "start")
    await world.dc.settle()
    await pass_all(world, users)


async def play_turns(world: Any, marks: Marks, questions: int = QUESTIONS) -> GameState:
    """Play until the game ends: questions to the left and right neighbours in turn about
    the subjects in order; a member who must take a glass takes it from the seat holding the
    most; after `questions` questions the player whose turn it is names their true holder."""
    dc = world.dc
    last_turn: tuple[int, int] | None = None
    for _ in range(400):
        state = state_of(world)
        if state.phase == "over":
            return state
        seat = state.turn
        user = user_of(world, state, seat)
        if user is None:  # an AI seat: its turn plays on the timer queue
            await dc.settle()
            continue
        if (state.turn_number, seat) != last_turn:
            last_turn = (state.turn_number, seat)
            marks.turn_starts += 1
        if legal.must_take(state):
            sources = legal.take_sources(state, seat)
            source = max(sources, key=lambda s: (state.seats[s].glasses, -s))
            table_msg = await turn_message(world, "take")
            opened = await dc.click(user, table_msg, cid(table_msg, "take"))
            assert opened.message is not None
            await dc.select(user, opened.message, cid(opened.message, "takego"), [str(source)])
            await dc.settle()
            continue
        if marks.questions >= questions:
            cards = list(state.seats[seat].holder)
            table_msg = await turn_message(world, "acc")
            opened = await dc.click(user, table_msg, cid(table_msg, "acc"))
            picker = opened.message
            assert picker is not None
            for verb, card in zip(("accp", "accl", "accw"), cards, strict=True):
                await dc.select(user, picker, cid(picker, verb), [card])
            await dc.click(user, picker, cid(picker, "accgo"))
            await dc.settle()
            continue
        witnesses = legal.witnesses(state, seat)
        witness = witnesses[marks.questions % len(witnesses)]
        subjects = legal.question_subjects(state)
        subject = subjects[(marks.questions * 7) % len(subjects)]
        table_msg = await turn_message(world, "ask")
        opened = await dc.click(user, table_msg, cid(table_msg, "ask"))
        picker = opened.message
        assert picker is not None and opened.ephemeral, opened.text
        marks.asks.append((picker.id, user.id))
        await dc.select(user, picker, cid(picker, "askw"), [str(witness)])
        await dc.select(user, picker, cid(picker, "asks"), [subject])
        await dc.click(user, picker, cid(picker, "askgo"))
        await dc.settle()
        marks.questions += 1
    raise AssertionError("the scripted game did not end")


@dataclass
class Counts:
    channel_posts: int
    channel_edits: int
    dms: int
    dm_edits: int
    ephemerals: int
    ephemeral_leftovers: int
    pings: int
    pinged: dict[int, int]

    def line(self) -> str:
        return (f"channel posts {self.channel_posts}, channel edits {self.channel_edits}, "
                f"DMs {self.dms} (+{self.dm_edits} edits), ephemerals {self.ephemerals} "
                f"({self.ephemeral_leftovers} left over), pings {self.pings}")


def count(world: Any, since: int = 0) -> Counts:
    """What the bot sent after the first `since` stand-in messages."""
    sent = [m for m in world.dc.messages[since:] if m.author_id == world.dc.bot_user.id]
    channel = [m for m in sent if m.channel_id == world.channel and not m.ephemeral]
    dms = [m for m in sent if m.is_dm]
    ephemerals = [m for m in sent if m.ephemeral]
    pinged: dict[int, int] = {}
    for m in sent:
        for u in m.pings:
            pinged[u] = pinged.get(u, 0) + 1
    return Counts(
        channel_posts=len(channel),
        channel_edits=sum(len(m.history) for m in channel),
        dms=len(dms),
        dm_edits=sum(len(m.history) for m in dms),
        ephemerals=len(ephemerals),
        ephemeral_leftovers=sum(1 for m in ephemerals if not m.deleted),
        pings=sum(pinged.values()),
        pinged=pinged,
    )
