"""More helpers for driving 13 Clues tables through the stand-in: database snapshots, the
living table message, pickers, turn loops and the secrecy scan.

The database is read with a separate connection (sqlite3: WAL allows it while the bot runs,
and it also works while the bot is stopped between restarts; or asyncpg on PostgreSQL).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.storage.postgres import numbered
from bot.storage.rows import Row
from engine.thirteen_clues import GameState, legal
from engine.thirteen_clues.cards import Category
from testkit.play import named_cards
from testkit.standin import InteractionResult, Message, User
from testkit.world import World


def query(world: World, sql: str, args: tuple[Any, ...] = ()) -> list[Row]:
    """One statement on the bot's database, its rows read by name; `?` placeholders, and SQL
    both backends speak."""
    if world.database_url is not None:
        return list(postgres_query(world.database_url, sql, args))
    con = sqlite3.connect(world.db, timeout=5)
    con.row_factory = sqlite3.Row
    try:
        with con:  # a write (a test's own rows) is committed
            return con.execute(sql, args).fetchall()
    finally:
        con.close()


def postgres_query(url: str, sql: str, args: tuple[Any, ...]) -> list[asyncpg.Record]:
    """The same read on PostgreSQL, on a connection of its own in a thread of its own (the
    helpers are called synchronously from inside the test's event loop)."""
    async def fetch() -> list[asyncpg.Record]:
        con = await asyncpg.connect(url)
        try:
            return await con.fetch(numbered(sql), *args)
        finally:
            await con.close()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, fetch()).result()


def table_row(world: World) -> Row:
    """The channel's latest table row (open or finished)."""
    rows = query(world, "SELECT * FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                 (world.channel,))
    assert rows, "no table in this channel"
    return rows[0]


def state_of(world: World) -> GameState:
    row = table_row(world)
    assert row["state"] is not None, "the game has not started"
    return GameState.model_validate_json(row["state"])


def action_count(world: World, table_id: int | None = None) -> int:
    tid = table_row(world)["id"] if table_id is None else table_id
    return int(query(world, "SELECT COUNT(*) AS n FROM actions WHERE table_id = ?",
                     (tid,))[0]["n"])


def action_versions(world: World, table_id: int) -> list[int]:
    rows = query(world, "SELECT version FROM actions WHERE table_id = ? ORDER BY version",
                 (table_id,))
    return [r["version"] for r in rows]


@dataclass(frozen=True)
class Snapshot:
    """Everything a refusal must leave unchanged."""

    tables: tuple[tuple[Any, ...], ...]
    actions: int
    timers: int

    @classmethod
    def take(cls, world: World) -> Snapshot:
        tables = tuple(
            (r["id"], r["status"], r["version"], r["state"], r["seats"], r["options"],
             r["host_id"])
            for r in query(world, "SELECT * FROM tables ORDER BY id")
        )
        actions = query(world, "SELECT COUNT(*) AS n FROM actions")[0]["n"]
        timers = query(world, "SELECT COUNT(*) AS n FROM timers")[0]["n"]
        return cls(tables, actions, timers)


def seat_of(state: GameState, user: User) -> int:
    return next(i for i, s in enumerate(state.seats) if s.id == f"u{user.id}")


def user_at(world: World, state: GameState, seat: int) -> User | None:
    """The member in `seat`, None for an AI seat."""
    sid = state.seats[seat].id
    if not sid.startswith("u"):
        return None
    return world.dc.users[int(sid.removeprefix("u"))]


def member_at(world: World, state: GameState, seat: int) -> User:
    """The member in `seat`, where a test knows a member (not an AI) sits."""
    user = user_at(world, state, seat)
    assert user is not None, f"an AI plays seat {seat}"
    return user


def living(world: World) -> Message:
    """The living table message: the newest channel message carrying the turn buttons."""
    for msg in reversed(world.dc.channel_messages(world.channel)):
        if any(c.startswith("13c:") for c in msg.custom_ids):
            return msg
    raise AssertionError("no table message with buttons in the channel")


def cid(msg: Message, verb: str) -> str:
    """The custom_id of the component with this verb on `msg`."""
    found = [c for c in msg.custom_ids if c.split(":")[1] == verb]
    assert found, f"no {verb!r} component on {msg!r}"
    return found[0]


def news(world: World) -> str:
    """The newest channel message's content: what the last action told the table."""
    return world.dc.last_message(world.channel).content


async def slash(world: World, user: User, command: str, **options: Any) -> InteractionResult:
    result = await world.dc.slash(user, world.channel, "13clues", command, **options)
    await world.dc.settle()
    return result


async def ask_by_picker(
    world: World, user: User, witness: int, subject: str, *, side: str | None = None,
    top_secret: bool = False,
) -> InteractionResult:
    """Ask button on the living message → witness → subject (→ side) (→ Top Secret) → Ask."""
    dc = world.dc
    opened = await dc.click(user, living(world), cid(living(world), "ask"))
    assert opened.ephemeral, opened.text
    picker = opened.message
    assert picker is not None
    await dc.select(user, picker, cid(picker, "askw"), [str(witness)])
    await dc.select(user, picker, cid(picker, "asks"), [subject])
    if side is not None:
        await dc.select(user, picker, cid(picker, "askd"), [side])
    if top_secret:
        await dc.click(user, picker, cid(picker, "askt"))
    done = await dc.click(user, picker, cid(picker, "askgo"))
    await dc.settle()
    assert_done(world, picker, done, kept="Asked" if top_secret else None)
    return done


def assert_done(world: World, picker: Message, done: InteractionResult,
                kept: str | None = None) -> None:
    """A picker's last step went through: the picker is gone (the channel's news is the
    answer, no ephemeral is left behind), or it shows `kept` when its answer says more."""
    refusals = [m.text for m in done.followups]
    assert not refusals, refusals
    shown = world.dc.message(picker.id)
    if kept is None:
        assert shown.deleted, f"the picker is still there: {shown.text[:200]}"
    else:
        assert kept in shown.text and not shown.custom_ids, shown.text


async def accuse_by_picker(world: World, user: User, cards: list[str]) -> InteractionResult:
    """Accuse button → Person, Location, Weapon selects → Accuse."""
    dc = world.dc
    opened = await dc.click(user, living(world), cid(living(world), "acc"))
    picker = opened.message
    assert picker is not None and opened.ephemeral
    for verb, card in zip(("accp", "accl", "accw"), cards, strict=True):
        await dc.select(user, picker, cid(picker, verb), [card])
    done = await dc.click(user, picker, cid(picker, "accgo"))
    await dc.settle()
    assert_done(world, picker, done)
    return done


async def take_by_picker(world: World, user: User, source: int) -> InteractionResult:
    dc = world.dc
    opened = await dc.click(user, living(world), cid(living(world), "take"))
    picker = opened.message
    assert picker is not None
    done = await dc.select(user, picker, cid(picker, "takego"), [str(source)])
    await dc.settle()
    assert_done(world, picker, done)
    return done


def wrong_accusation(state: GameState, seat: int) -> list[str]:
    """A legal accusation naming none of the seat's holder cards (never a winner)."""
    allowed = legal.accusable_cards(state, seat)
    holder = set(state.seats[seat].holder)
    return [next(c for c in allowed[cat] if c not in holder) for cat in Category]


async def wait_until(predicate: Any, timeout: float, what: str, step: float = 0.02) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(step)


# ------------------------------------------------------------------------ secrecy


Cut = dict[int, int]
"""A moment in the recorded history: message id → how many edits it had by then."""


def cut(world: World) -> Cut:
    """Remember what every message showed so far (call it just before the game ends)."""
    return {m.id: len(m.history) for m in world.dc.messages}


def _shown_before(msg: Message, moment: Cut) -> list[Message]:
    """Every state of `msg` shown up to the moment (none if it was sent later)."""
    if msg.id not in moment:
        return []
    edits = moment[msg.id]
    states = [*msg.history[:edits]]
    current = msg.history[edits] if len(msg.history) > edits else msg.snapshot()
    return [
        Message(id=msg.id, channel_id=msg.channel_id, guild_id=msg.guild_id,
                author_id=msg.author_id, content=snap.get("content") or "",
                embeds=snap.get("embeds") or [], components=snap.get("components") or [])
        for snap in [*states, current]
    ]


_LISTS_CANDIDATES = ("accp", "accl", "accw", "accgo", "mark")
"""Pickers that list candidate cards by design: the accusation picker, the casebook grid."""


def _lists_candidates(msg: Message) -> bool:
    if any(c.split(":")[1] in _LISTS_CANDIDATES for c in msg.custom_ids):
        return True
    return any("casebook" in (e.get("title") or "").lower() for e in msg.embeds)


def assert_secrecy(world: World, final: GameState, moment: Cut) -> int:
    """Up to `moment` (taken just before the game-ending action):
    - no channel message, at any edit, named any card;
    - no player's DM or ephemeral reply named a card of that player's own holder (the
      accusation picker and the casebook grid list candidates by design and are skipped).
    Returns how many message states were scanned (so a test can see the scan was not empty).
    """
    dc = world.dc
    scanned = 0
    for msg in dc.channel_messages(world.channel):
        for shown in _shown_before(msg, moment):
            scanned += 1
            assert not named_cards(shown.text), f"card names in the channel: {shown.text[:300]}"
    for seat, s in enumerate(final.seats):
        user = user_at(world, final, seat)
        if user is None:
            continue
        own = set(s.holder)
        for msg in [*dc.dms(user), *dc.ephemerals(user)]:
            for shown in _shown_before(msg, moment):
                scanned += 1
                if _lists_candidates(shown):
                    continue
                leaked = named_cards(shown.text) & own
                assert not leaked, (
                    f"{user.name} was shown their own holder card(s) {leaked}: "
                    f"{shown.text[:300]}"
                )
    return scanned
