"""Several processes on one PostgreSQL database (a shard cluster): what each process keeps in
memory stays true, each destination's letters and each timer are in one process's hands at a
time, a dead process's claims pass on, commits wake the others, closed DMs are known to all,
and the lease is one per shard set. Each test's two or three storages are the processes."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.errors import UserError
from bot.family import Click
from bot.languages import Languages
from bot.mansion.components import PanelButton
from bot.mansion.family import custom_id as mansion_id
from bot.mansion.game import GAME as MANSION
from bot.messages import Outgoing
from bot.models import Letter, TimerSpec
from bot.plug import plug
from bot.storage import Change, Committed, SqliteStorage, TimerPlan
from bot.storage.common import CLAIM_SECONDS, POLL_SECONDS, TIMER_CLAIM_SECONDS
from bot.storage.postgres import FOREIGN_WAKE, HANDOVER, PostgresStorage
from bot.tables import TableService
from bot.thirteen_clues import components
from bot.thirteen_clues.family import custom_id
from bot.thirteen_clues.game import GAME
from engine.mansion import player_view as mansion_view
from engine.thirteen_clues.actions import ChoosePass
from engine.thirteen_clues.cards import CARDS, Category
from tests.shell.conftest import easy, lobby


@pytest.fixture
async def pair(postgres_url: str) -> AsyncIterator[tuple[PostgresStorage, PostgresStorage]]:
    one, two = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    await one.open()
    await two.open()
    yield one, two
    await asyncio.gather(one.close(), two.close())


def post(text: str, channel: int = 10) -> Letter:
    return Letter.post(channel, Outgoing(content=text))


async def test_a_cached_table_is_checked_against_the_row(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    assert await two.open_table(10) is not None  # opened by another process
    seen = await two.table(table.id)
    assert seen is not None and seen.version == 0  # `two` keeps it now
    after = table.model_copy(update={"version": 1, "feed": ["news"]})
    await one.commit(Change(after, expected=0, letters=[Letter.post(
        10, Outgoing(content="table"), living=True)]))
    moved = await two.table(table.id)
    assert moved is not None and moved.version == 1 and moved.feed == ["news"]
    # the living message, placed by whichever process sent it, is the row's
    [posting] = await one.due_postings(time.time(), 10)
    await one.posting_sent(posting, 777)
    assert await two.living_message(table.id) == 777
    again = await two.table(table.id)
    assert again is not None and again.message_id == 777
    over = after.model_copy(update={"version": 2, "status": "over"})
    await one.commit(Change(over, expected=1))
    assert await two.open_table(10) is None  # closed by another process


async def test_a_channels_cached_table_is_checked_in_the_read_that_finds_it(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    assert await two.open_table(10) is not None  # read whole, and kept
    reads: list[str] = []
    rows, table_row = two._rows, two._table_row

    async def counted(sql: str, args: tuple[Any, ...] = ()) -> Any:
        reads.append(sql)
        return await rows(sql, args)

    async def counted_row(sql: str, args: tuple[Any, ...]) -> Any:
        reads.append(sql)
        return await table_row(sql, args)

    two._rows = counted  # type: ignore[method-assign]
    two._table_row = counted_row  # type: ignore[method-assign]
    found = await two.open_table(10)
    assert found is not None and found.version == 0 and len(reads) == 1
    after = table.model_copy(update={"version": 1, "feed": ["news"]})
    await one.commit(Change(after, expected=0))
    found = await two.open_table(10)  # moved: read whole again
    assert found is not None and found.version == 1 and found.feed == ["news"]
    assert len(reads) == 3
    assert await two.open_table(10) == found and len(reads) == 4


async def test_a_click_shows_the_kept_copy_until_another_process_changes_the_row(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    await two.listen(lambda: None)
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    assert (await two.table(table.id)) is not None  # read whole, and kept
    reads: list[str] = []
    table_row = two._table_row

    async def counted_row(sql: str, args: tuple[Any, ...]) -> Any:
        reads.append(sql)
        return await table_row(sql, args)

    two._table_row = counted_row  # type: ignore[method-assign]
    for _ in range(3):
        shown = await two.recent_table(table.id)
        assert shown is not None and shown.version == 0
    assert reads == []  # nothing heard of since: no round trip
    after = table.model_copy(update={"version": 1, "feed": ["news"]})
    await one.commit(Change(after, expected=0))
    for _ in range(100):  # its NOTIFY comes at the commit
        shown = await two.recent_table(table.id)
        if shown is not None and shown.version == 1:
            break
        await asyncio.sleep(0.02)
    assert shown is not None and shown.version == 1 and shown.feed == ["news"] and len(reads) == 1
    own = after.model_copy(update={"version": 2})
    await two.commit(Change(own, expected=1))  # its own change: kept as stored
    shown = await two.recent_table(table.id)
    assert shown is not None and shown.version == 2 and len(reads) == 1
    # a process that does not hear the others (its listener gone) reads the row every time
    assert two._listener is not None
    two._listener.terminate()
    await asyncio.sleep(0.05)
    assert not two.hears
    await one.commit(Change(own.model_copy(update={"version": 3}), expected=2))
    shown = await two.recent_table(table.id)
    assert shown is not None and shown.version == 3


async def test_a_process_that_does_not_listen_reads_the_row_for_a_click(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    assert (await two.table(table.id)) is not None
    await one.commit(Change(table.model_copy(update={"version": 1}), expected=0))
    shown = await two.recent_table(table.id)
    assert shown is not None and shown.version == 1


def click_by(tables: TableService, user_id: int | None) -> Any:
    """A click in channel 10 of guild 1, as much of an interaction as a family reads."""
    return SimpleNamespace(client=SimpleNamespace(tables=tables), guild_id=1, channel_id=10,
                           user=SimpleNamespace(id=user_id))


def deaf_to_changes(storage: PostgresStorage) -> None:
    """The storage hears no other process's change of a table from now on: what it reads
    next is kept, however late the NOTIFYs of the commits before it arrive (one arriving
    during the read would leave it unkept, and the test would read the row instead)."""
    storage._tables.heard = lambda table_id, version: None  # type: ignore[method-assign]


async def test_a_button_made_by_a_change_not_yet_heard_of_is_not_refused(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """The member's turn came with a change another process stored, which this process has
    not heard of yet: their button's version is newer than the kept copy, so the row decides
    (read), not the copy (a stale refusal)."""
    one, two = pair
    await two.listen(lambda: None)
    here = TableService(one, {GAME.key: plug(GAME)}, ai_delay=0.0, seed=lambda: 7)
    there = TableService(two, {GAME.key: plug(GAME)}, ai_delay=0.0, seed=lambda: 7)
    table = await here.open(1, 10, GAME.key, 100, "Ann", {})
    await here.join(table.id, 101, "Bea")
    await here.start(table.id, 100)
    for member in (100, 101):
        await here.act(table.id, member, easy(GAME))
    deaf_to_changes(two)
    before = await there.by_id(table.id)  # kept by the process the click reaches
    first = before.seats[GAME.load(before.state or "").turn].user_id
    assert first is not None
    asked = await here.act(table.id, first, easy(GAME))  # not heard of by `two`
    after = asked.table
    turn = GAME.load(after.state or "").turn
    user = after.seats[turn].user_id
    assert user is not None and user != first
    assert (await two.recent_table(table.id)) == before  # the copy, as kept
    click = click_by(there, user)

    def ask_button(version: int) -> components.TurnButton:
        cid = custom_id("ask", table.id, version)
        match = components.TurnButton.__discord_ui_compiled_template__.fullmatch(cid)
        assert match is not None
        return components.TurnButton(discord.ui.Button(custom_id=cid), Click.of(match))

    found, state, seat = await ask_button(after.version).my_turn(click)
    assert found.version == after.version and state.turn == seat == turn
    with pytest.raises(UserError):  # a button of an older version is still refused
        await ask_button(before.version).my_turn(click)


async def test_a_mansion_prompt_not_yet_heard_of_is_not_refused(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """As above for the Mansion, whose buttons carry the prompt they answer."""
    one, two = pair
    await two.listen(lambda: None)
    games = {MANSION.key: plug(MANSION)}
    here = TableService(one, games, ai_delay=0.0, seed=lambda: 7)
    there = TableService(two, games, ai_delay=0.0, seed=lambda: 7)
    table = await here.open(1, 10, MANSION.key, 100, "Ann", {})
    for joining, name in ((101, "Bea"), (102, "Cy")):
        await here.join(table.id, joining, name)
    await here.start(table.id, 100)
    deaf_to_changes(two)
    before = await there.by_id(table.id)  # kept by the process the click reaches
    table_now = before
    while True:  # the members act in `one`, unheard of by `two`, until a new prompt opens
        state = MANSION.load(table_now.state or "")
        seat = MANSION.waiting_on(state)[0]
        member = table_now.seats[seat].user_id
        assert member is not None
        table_now = (await here.act(table.id, member, easy(MANSION))).table
        state = MANSION.load(table_now.state or "")
        prompt = next((p for p in (mansion_view(state, s).prompt
                                   for s in MANSION.waiting_on(state)) if p is not None), None)
        old = [mansion_view(MANSION.load(before.state or ""), s).prompt for s in range(3)]
        if prompt is not None and all(p is None or p.id < prompt.id for p in old):
            break
    assert (await two.recent_table(table.id)) == before  # the copy, as kept
    user = table_now.seats[prompt.seat].user_id
    click = click_by(there, user)
    cid = mansion_id("back", table.id, prompt.id)
    match = PanelButton.__discord_ui_compiled_template__.fullmatch(cid)
    assert match is not None
    button = PanelButton(discord.ui.Button(custom_id=cid), Click.of(match))
    found, view = await button.current(click)
    assert found.version == table_now.version
    assert view.prompt is not None and view.prompt.id == prompt.id


async def test_a_destination_is_in_one_process_hands_at_a_time(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    await one.commit(Change(table, letters=[post("a", 10), post("b", 11), post("c", 10)]))
    now = time.time()
    mine = await one.due_postings(now, 10)
    assert [p.letter.body.content for p in mine] == ["a", "b", "c"]
    assert await two.due_postings(now, 10) == []  # both destinations are claimed
    await one.posting_sent(mine[0], 1)
    await one.release_destination("c:10")
    theirs = await two.due_postings(now, 10)
    assert [p.letter.body.content for p in theirs] == ["c"]  # in order, "a" sent already
    # a claim renewed stays; one not renewed (a dead process) passes on when it runs out
    await one.renew_claims(now + CLAIM_SECONDS - 1)
    assert await two.due_postings(now + CLAIM_SECONDS, 10, busy=["c:10"]) == []
    later = now + 2 * CLAIM_SECONDS
    taken = await two.due_postings(later, 10, busy=["c:10"])
    assert [p.letter.body.content for p in taken] == ["b"]


async def test_letters_another_process_holds_are_not_read(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    await one.commit(Change(table, letters=[post("a", 10), post("b", 11)]))
    now = time.time()
    assert len(await one.due_postings(now, 10)) == 2  # `one` holds both destinations
    tried: list[list[str]] = []
    claim = two._claim

    async def counted(dests: list[str], now: float) -> list[str]:
        tried.append(dests)
        return await claim(dests, now)

    two._claim = counted  # type: ignore[method-assign]
    assert await two.due_postings(now, 10) == []
    assert tried == []  # left out of the read, not read and then refused a claim
    assert await two.next_posting_at() is None  # and no reason to look again soon
    await one.release_destination("c:11")
    assert [p.letter.to for p in await two.due_postings(now, 10)] == ["c:11"]
    later = now + 2 * CLAIM_SECONDS  # `one`'s claim on c:10 ran out (not renewed)
    assert [p.letter.to for p in await two.due_postings(later, 10, busy=["c:11"])] == ["c:10"]


async def test_two_processes_claiming_at_once_never_share_a_destination(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    await one.commit(Change(table, letters=[post(str(i), 100 + i % 20) for i in range(200)]))
    now = time.time()
    first, second = await asyncio.gather(one.due_postings(now, 500), two.due_postings(now, 500))
    dests_one = {p.letter.to for p in first}
    dests_two = {p.letter.to for p in second}
    assert not dests_one & dests_two
    assert len(first) + len(second) == 200


async def test_a_timer_fires_in_one_process(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    await one.commit(Change(table, timers=TimerPlan(add=tuple(
        TimerSpec(kind="ai", seat=s, key="k", due=time.time() - 1) for s in range(6)))))
    now = time.time()
    mine = await one.due_timers(now, 10)
    assert len(mine) == 6
    assert await two.due_timers(now, 10) == []
    assert await one.due_timers(now, 10, running=[t.id for t in mine[1:]]) == mine[:1]
    # the others see a claimed timer due when its claim runs out
    assert await one.next_timer_due() == pytest.approx(mine[0].due)
    assert await two.next_timer_due() == pytest.approx(now + TIMER_CLAIM_SECONDS, abs=1)
    # a handler that failed gives its timer back; a dead process's timers pass on
    await one.retry_timer(mine[0].id, now)
    assert [t.id for t in await two.due_timers(now, 10)] == [mine[0].id]
    later = await two.due_timers(now + TIMER_CLAIM_SECONDS + 1, 10)
    assert sorted(t.id for t in later) == sorted(t.id for t in mine)


async def test_timers_claimed_at_once_fire_once(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    await one.commit(Change(table, timers=TimerPlan(add=tuple(
        TimerSpec(kind="ai", seat=s, key=str(k), due=time.time() - 1)
        for s in range(6) for k in range(20)))))
    now = time.time()
    got = await asyncio.gather(one.due_timers(now, 200), two.due_timers(now, 200))
    ids = [t.id for timers in got for t in timers]
    assert len(ids) == len(set(ids)) == 120


async def test_a_timer_fires_in_the_process_of_its_tables_shard(postgres_url: str) -> None:
    """The process that plays a table's shard fires its timers when due; another only once
    HANDOVER has passed (the shard's process dead, or deaf)."""
    zero, one = (PostgresStorage(postgres_url, shards=(s,), shard_count=2) for s in (0, 1))
    await zero.open()
    await one.open()
    try:
        table = (await zero.create_table(lobby(guild_id=1 << 22), lambda t: Change(t))).table
        due = time.time() - 0.5
        await zero.commit(Change(table, timers=TimerPlan(add=(
            TimerSpec(kind="ai", seat=1, key="k", due=due),))))
        now = time.time()
        assert await zero.due_timers(now, 10) == []  # shard 1's table: not yet for shard 0
        assert await zero.next_timer_due() == pytest.approx(due + HANDOVER)
        assert await one.next_timer_due() == pytest.approx(due)
        [late] = await zero.due_timers(due + HANDOVER, 10)  # shard 1's process never came
        assert late.table_id == table.id
        assert await one.due_timers(due + HANDOVER, 10) == []  # claimed: it fires once
        await zero.retry_timer(late.id, due)
        [mine] = await one.due_timers(now, 10)
        assert mine.id == late.id
    finally:
        await asyncio.gather(zero.close(), one.close())


async def test_a_letter_goes_first_from_the_process_that_sends_it_best(
    postgres_url: str,
) -> None:
    """In a cluster a channel's letters are sent first by the process of its table's shard
    (it holds the channel's interaction tokens), an answer's and a DM's by the process that
    stored them (it took the interaction); another process sends them once HANDOVER has
    passed since they were stored (that process dead, or deaf), or at once when the process
    that stored them is gone."""
    zero, one = (PostgresStorage(postgres_url, shards=(s,), shard_count=2) for s in (0, 1))
    await zero.open()
    await one.open()
    try:
        assert await zero.acquire_lease("zero", 30, time.time()) is None
        # shard 1's table; a DM click (which reaches shard 0) changes it in process 0
        table = (await zero.create_table(lobby(guild_id=1 << 22), lambda t: Change(t))).table
        stored = time.time()
        await zero.commit(Change(table, letters=[
            post("table"), Letter.dm(5, Outgoing(content="hand")),
            Letter.reply(7, "token", Outgoing(content="answer"))]))
        now = time.time()
        assert [p.letter.to for p in await one.due_postings(now, 10)] == ["c:10"]
        mine = await zero.due_postings(now, 10)
        assert [p.letter.to for p in mine] == ["i:7", "u:5"]
        for posting in mine:
            await zero.posting_sent(posting, None)
        await one.release_destination("c:10")  # shard 1's process never sent it
        assert await zero.due_postings(now, 10) == []
        assert await zero.next_posting_at() == pytest.approx(stored + HANDOVER, abs=1.0)
        [late] = await zero.due_postings(now + HANDOVER + 1, 10)
        assert late.letter.to == "c:10"
        await zero.posting_sent(late, 1)
        # process 0 stores a DM and dies: its letters pass on at once
        await zero.commit(Change(table, letters=[Letter.dm(6, Outgoing(content="news"))]))
        assert await one.due_postings(time.time(), 10) == []
        assert zero._lease is not None
        zero._lease.terminate()  # as a SIGKILL ends it
        deadline = time.monotonic() + 5
        while not await one.due_postings(time.time(), 10) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert [p.letter.to for p in await one.due_postings(time.time(), 10)] == ["u:6"]
    finally:
        await asyncio.gather(zero.close(), one.close())


async def test_a_reply_waits_for_its_news_sent_by_another_process(postgres_url: str) -> None:
    """A reply waits for the letters of its own change (`Letter.follows`): in a cluster
    another process may send them (a shard-1 channel's, here), and the wait ends when that
    one marks them sent, not when REPLY_WAIT runs out. Letters it sends itself are waited
    for without asking the database again."""
    from bot.outbox import REPLY_WAIT, Sender
    from tests.shell.test_outbox import Script

    zero, one = (PostgresStorage(postgres_url, shards=(s,), shard_count=2) for s in (0, 1))
    await zero.open()
    await one.open()
    try:
        table = (await zero.create_table(lobby(guild_id=1 << 22), lambda t: Change(t))).table
        news, dm = (await zero.commit(Change(table, letters=[
            post("news"), Letter.dm(5, Outgoing(content="hand"))]))).letters
        assert await zero.postings_waiting([news, dm]) == (2, 1)  # the channel's: shard 1's
        assert await one.postings_waiting([news, dm]) == (2, 1)  # the DM: zero's, which stored it

        async def undeliverable(*_: object) -> None:
            raise AssertionError("nothing is refused here")

        async def sent_by_one() -> None:
            await asyncio.sleep(0.3)
            [posting] = await one.due_postings(time.time(), 10)
            await one.posting_sent(posting, 5)

        waiting = Sender(zero, Script(), undeliverable)
        started = time.monotonic()
        arrived, _ = await asyncio.gather(waiting.delivered([news], REPLY_WAIT), sent_by_one())
        assert arrived and time.monotonic() - started < REPLY_WAIT - 0.5
    finally:
        await asyncio.gather(zero.close(), one.close())


async def test_a_commit_wakes_the_other_processes(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    woken, own = asyncio.Event(), asyncio.Event()
    await two.listen(woken.set)
    await one.listen(own.set)
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    await one.commit(Change(table))  # nothing owed: nobody woken
    await asyncio.sleep(0.2)
    assert not woken.is_set()
    await one.commit(Change(table, letters=[post("news")]))
    stored = time.monotonic()
    await asyncio.wait_for(woken.wait(), 5)
    assert time.monotonic() - stored < FOREIGN_WAKE  # at once, not at the window's end
    await asyncio.sleep(FOREIGN_WAKE + 0.2)
    assert not own.is_set()  # the process that stored them kicked itself already


async def test_in_a_cluster_a_commit_wakes_only_the_process_of_its_tables_shard(
    postgres_url: str,
) -> None:
    """What a commit stores goes first from its table's shard's process (a channel's letters,
    timers) or from the process that stored it (answers, DMs): only the first is told, and
    nobody when that is the process that stored it."""
    zero, one = (PostgresStorage(postgres_url, shards=(s,), shard_count=2) for s in (0, 1))
    await zero.open()
    await one.open()
    try:
        woken = {0: asyncio.Event(), 1: asyncio.Event()}
        await zero.listen(woken[0].set)
        await one.listen(woken[1].set)
        here = (await zero.create_table(lobby(guild_id=0), lambda t: Change(t))).table
        there = (await zero.create_table(lobby(channel_id=11, guild_id=1 << 22),
                                         lambda t: Change(t))).table
        await zero.commit(Change(here, letters=[post("news"), Letter.dm(5, Outgoing(
            content="hand"))]))  # shard 0's, stored by its own process
        await asyncio.sleep(FOREIGN_WAKE + 0.2)
        assert not woken[0].is_set() and not woken[1].is_set()
        await zero.commit(Change(there, letters=[post("news", 11)]))  # a DM click on shard 1's
        await asyncio.wait_for(woken[1].wait(), 5)
        woken[1].clear()
        await one.commit(Change(there, letters=[post("more", 11)]))
        await asyncio.sleep(FOREIGN_WAKE + 0.2)
        assert not woken[0].is_set() and not woken[1].is_set()
    finally:
        await asyncio.gather(zero.close(), one.close())


async def test_a_burst_of_commits_wakes_another_process_once(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    wakes = 0

    def woken() -> None:
        nonlocal wakes
        wakes += 1

    await two.listen(woken)
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    for n in range(20):
        await one.commit(Change(table, letters=[post(f"news {n}")]))
    await asyncio.sleep(FOREIGN_WAKE * 2 + 0.3)
    assert 1 <= wakes <= 3, wakes  # 20 commits in well under a second: one or two looks
    await one.commit(Change(table, letters=[post("later")]))
    await asyncio.sleep(FOREIGN_WAKE * 2 + 0.3)
    assert wakes >= 2  # a commit after the window wakes it again


async def test_a_language_written_elsewhere_is_read_again_here_and_only_then(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    await one.listen(lambda: None)
    reads = 0
    member_language = one.member_language

    async def counted(user_id: int) -> tuple[str | None, str | None]:
        nonlocal reads
        reads += 1
        return await member_language(user_id)

    one.member_language = counted  # type: ignore[method-assign]
    here, elsewhere = Languages(one, clock=lambda: 0.0), Languages(two)

    async def heard(mark: int) -> None:
        for _ in range(100):
            if one.language_mark(6) != mark:
                return
            await asyncio.sleep(0.02)

    await elsewhere.saw(6, "fr")
    await heard(0)
    for _ in range(5):
        assert await here.of_user(6) == "fr"
    assert reads == 1  # nothing written since: the copy stands
    mark = one.language_mark(6)
    assert mark is not None
    await elsewhere.choose(6, "de")
    await heard(mark)
    assert await here.of_user(6) == "de"
    assert await here.of_user(6) == "de"
    assert reads == 2
    await here.choose(6, None)  # its own write: known without a read, its NOTIFY ignored
    await asyncio.sleep(0.3)
    assert await here.of_user(6) == "fr"
    assert reads == 2


async def test_a_closed_dm_is_known_to_every_process(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    one, two = pair
    now = time.time()
    assert not await two.dm_closed(5, now)
    await one.remember_closed_dm(5, now)
    assert await one.dm_closed(5, now)
    assert await two.dm_closed(5, now + POLL_SECONDS)
    assert not await two.dm_closed(5, now + 3600)


async def test_the_lease_is_one_per_shard_set(postgres_url: str) -> None:
    stores = [PostgresStorage(postgres_url, shards=s) for s in ((0, 1), (2,), (1,), None)]
    for store in stores:
        await store.open()
    try:
        now = time.time()
        first, second, overlapping, everything = stores
        assert await first.acquire_lease("p0", 30, now) is None
        assert await second.acquire_lease("p1", 30, now) is None  # other shards: it plays
        assert await overlapping.acquire_lease("p2", 30, now) is not None  # shard 1 is held
        assert await everything.acquire_lease("p3", 30, now) is not None  # a cluster plays
        await first.release_lease("p0")
        assert await overlapping.acquire_lease("p2", 30, now) is None
        await overlapping.release_lease("p2")
        await second.release_lease("p1")
        assert await everything.acquire_lease("p3", 30, now) is None
        assert await first.acquire_lease("p0", 30, now) is not None
    finally:
        for store in stores:
            await store.close()


async def test_one_process_on_sqlite_claims_nothing(tmp_path: object) -> None:
    from pathlib import Path

    store = SqliteStorage(Path(str(tmp_path)) / "bot.sqlite3")
    await store.open()
    try:
        assert not store.shared and store.poll_every is None
        table = (await store.create_table(lobby(), lambda t: Change(t))).table
        await store.commit(Change(table, letters=[post("a")]))
        assert len(await store.due_postings(time.time(), 10)) == 1
        assert len(await store.due_postings(time.time(), 10)) == 1  # no claim kept it
        await store.remember_closed_dm(5, time.time())
        assert await store.dm_closed(5, time.time())
    finally:
        await store.close()


async def test_a_stopped_sender_passes_its_destinations_on_in_order(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """One process's sender stops halfway (its workers cancelled mid-send); the other
    process's sender carries on: every letter goes, each destination's in the order stored,
    and one sent twice (in flight when the first stopped) carries the same nonce both times,
    which Discord's `enforce_nonce` turns into one message."""
    from bot.outbox import Sender
    from tests.shell.test_outbox import Script

    one, two = pair
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    letters = [post(f"{i}", 100 + i % 7) for i in range(140)]
    ids = (await one.commit(Change(table, letters=letters))).letters
    first, second = Script(delay=lambda _: 0.02), Script()

    async def undeliverable(*_: object) -> None:
        raise AssertionError("nothing is refused here")

    stopped = Sender(one, first, undeliverable)
    stopped.start()
    # stopped halfway: once it has sent a few (a fixed 0.3 s was at times none at all, on a
    # loaded machine with four test processes)
    deadline = time.monotonic() + 10
    while len(first.calls) < 14 and time.monotonic() < deadline:  # a second round: marks
        await asyncio.sleep(0.01)
    await stopped.stop()
    assert 0 < await one.postings_pending(ids) < 140
    carrying_on = Sender(two, second, undeliverable)
    carrying_on.start()
    try:
        deadline = time.monotonic() + 20
        while await one.postings_pending(ids) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
    finally:
        await carrying_on.stop()
    assert await one.postings_pending(ids) == 0
    calls = first.calls + second.calls
    assert {text for _, text, _ in calls} == {str(i) for i in range(140)}
    nonces: dict[str | None, set[str]] = {}
    for _, text, nonce in calls:
        nonces.setdefault(text, set()).add(nonce)
    assert all(len(n) == 1 for n in nonces.values())
    for dest in {to for to, _, _ in calls}:
        order = [int(text or 0) for to, text, _ in calls if to == dest]
        assert sorted(set(order)) == [n for i, n in enumerate(order) if n not in order[:i]]


async def test_a_bucket_identifies_once_per_spacing_across_processes(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """Discord's IDENTIFY limit: one shard per `max_concurrency` bucket every 5 seconds, every
    process together (here 0.4 s): the second process's shard of a bucket waits its turn,
    another bucket's does not."""
    one, two = pair
    started = time.monotonic()
    await one.identify_turn(0, 0.4)
    await two.identify_turn(1, 0.4)
    assert time.monotonic() - started < 0.3
    await asyncio.gather(one.identify_turn(0, 0.4), two.identify_turn(0, 0.4))
    assert time.monotonic() - started >= 0.8  # two more turns of bucket 0, one after another


async def test_a_dead_process_claims_pass_on_at_once(
    pair: tuple[PostgresStorage, PostgresStorage],
) -> None:
    """A process holding the lease names its claims after the lease's session: when that
    session ends (the process died), its destinations and timers pass on without waiting
    for their claims to run out."""
    one, two = pair
    now = time.time()
    assert await one.acquire_lease("one", 30, now) is None
    assert one.holder.startswith("pid:")
    table = (await one.create_table(lobby(), lambda t: Change(t))).table
    await one.commit(Change(table, letters=[post("a")], timers=TimerPlan(add=(
        TimerSpec(kind="ai", seat=1, key="k", due=now - 1),))))
    assert len(await one.due_postings(now, 10)) == 1
    assert len(await one.due_timers(now, 10)) == 1
    assert await two.due_postings(now, 10) == [] and await two.due_timers(now, 10) == []
    assert one._lease is not None
    one._lease.terminate()  # as a SIGKILL ends it
    deadline = time.monotonic() + 5
    while not await two.due_postings(time.time(), 10) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert [p.letter.body.content for p in await two.due_postings(time.time(), 10)] == ["a"]
    assert len(await two.due_timers(time.time(), 10)) == 1
    assert await two.next_timer_due() == pytest.approx(now - 1)


class Overtaken(PostgresStorage):
    """A process whose next commit comes just after another process's change (`meanwhile`)."""

    meanwhile: Callable[[], Awaitable[object]] | None = None

    async def commit(self, change: Change) -> Committed:
        if self.meanwhile is not None:
            meanwhile, self.meanwhile = self.meanwhile, None
            await meanwhile()
        return await super().commit(change)


async def test_a_timer_overtaken_by_another_process_is_handled_again_at_once(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # a member's pass reaches process `two` while the AI's timer fires in `one`: the AI's
    # move, read before the pass and committed after it, is refused by the version check,
    # and played again on the new version, with no error logged
    here, there = Overtaken(postgres_url), PostgresStorage(postgres_url)
    await here.open()
    await there.open()
    try:
        one = TableService(here, {GAME.key: plug(GAME)}, ai_delay=0.0, seed=lambda: 7)
        two = TableService(there, {GAME.key: plug(GAME)}, ai_delay=0.0, seed=lambda: 7)
        table = await two.open(1, 10, GAME.key, 100, "Ann", {})
        await two.join(table.id, 101, "Bea")
        await two.add_ai(table.id, 100, 1, "normal")
        await two.start(table.id, 100)
        [timer] = [t for t in await there.timers(table.id) if t.kind == "ai"]
        assert await one.storage.table(table.id) is not None  # `one` has read the table

        def choose(state: Any, seat: int) -> ChoosePass:
            dealt = state.seats[seat].dealt
            person, location, weapon = (next(c for c in dealt if CARDS[c].category == k)
                                        for k in Category)
            return ChoosePass(seat=seat, person=person, location=location, weapon=weapon)

        here.meanwhile = lambda: two.act(table.id, 100, choose)
        with caplog.at_level(logging.INFO):
            await one.on_timer(timer)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("another process's change" in r.getMessage() for r in caplog.records)
        passes = [e for e in await there.action_log(table.id) if "choose_pass" in e.action]
        assert sorted(a.actor for a in passes) == [f"ai:{timer.seat}", "u100"]
    finally:
        await asyncio.gather(here.close(), there.close())
