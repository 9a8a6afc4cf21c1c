"""The outbox sender against a scripted transport: order per destination, parallel across
destinations, retries with back-off, giving up, and what Discord refuses for good."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

from bot.drawings import Drawn
from bot.messages import Outgoing
from bot.models import Letter, Posting
from bot.outbox import Sender
from bot.pacing import OWN, Pacer, paced
from bot.storage import Change, SqliteStorage
from bot.transport import Outcome
from tests.shell.conftest import Flaky, lobby


class Script:
    """A transport that answers each letter as a test says, after an optional delay."""

    def __init__(self, answer: Callable[[Letter, int], Outcome] | None = None,
                 delay: Callable[[Letter], float] = lambda _: 0.0,
                 drawing: Callable[[Letter], float] = lambda _: 0.0) -> None:
        self.answer = answer or (lambda letter, n: Outcome("sent", 1))
        self.delay = delay
        self.drawing = drawing
        self.calls: list[tuple[str, str | None, str]] = []
        self.tries: dict[str | None, int] = {}
        self.prepared: list[str | None] = []
        """The letters whose pictures were drawn (and DM channels opened)."""
        self.lent: dict[str, asyncio.Event] = {}
        """Destinations an interaction's token sends to, outside the budget, once set."""
        self.loading: dict[str, str] = {}
        """Answers not given yet (their tokens), and the destination each lends once given."""
        self.hurried: list[tuple[str, int]] = []
        """What `hurry` was told: a destination and the rank its letters in hand go at."""
        self.borrowing: dict[str, asyncio.Event] = {}
        """Destinations a letter waits for a token on its way of, once set."""

    async def prepare(self, letter: Letter, rank: int | None = None) -> Drawn:
        self.prepared.append(letter.body.content)
        await asyncio.sleep(self.drawing(letter))
        return []

    def exempt(self, letter: Letter, living: int | None, *, again: bool = False) -> bool:
        return not paced(letter) or (not again and self.lending(letter.to).is_set())

    async def borrowable(self, letter: Letter, living: int | None, *,
                         holding: bool = False) -> None:
        if holding:
            self.borrowing.setdefault(letter.to, asyncio.Event()).set()
        await self.lending(letter.to).wait()

    def coming(self, letter: Letter) -> bool:
        return letter.to in self.loading.values()

    def hurry(self, destination: str, rank: int) -> None:
        self.hurried.append((destination, rank))

    async def awaited(self, letter: Letter) -> None:
        to = self.loading.get(letter.token or "")
        if to is None:
            await asyncio.get_running_loop().create_future()
        else:
            await self.borrowing.setdefault(to, asyncio.Event()).wait()

    def lending(self, destination: str) -> asyncio.Event:
        return self.lent.setdefault(destination, asyncio.Event())

    async def deliver(self, letter: Letter, nonce: str, living: int | None,
                      drawn: Drawn, *, again: bool = False) -> Outcome:
        text = letter.body.content
        self.tries[text] = self.tries.get(text, 0) + 1
        self.calls.append((letter.to, text, nonce))
        if letter.token in self.loading:  # an answer given: its token posts now
            self.lending(self.loading.pop(letter.token)).set()
        await asyncio.sleep(self.delay(letter))
        return self.answer(letter, self.tries[text])


async def owe(storage: SqliteStorage, *letters: Letter) -> tuple[int, ...]:
    table = await storage.open_table(10)
    if table is None:
        table = (await storage.create_table(lobby(), lambda t: Change(t))).table
    return (await storage.commit(Change(table, letters=list(letters)))).letters


def post(text: str, channel: int = 10) -> Letter:
    return Letter.post(channel, Outgoing(content=text))


def dm(text: str, user: int) -> Letter:
    return Letter.dm(user, Outgoing(content=text))


async def budget_awaited(pacer: Pacer, waiting: int) -> None:
    """Return once `waiting` requests have waited for the pacer's budget (up to 2 s)."""
    for _ in range(100):
        if pacer.waited >= waiting:
            return
        await asyncio.sleep(0.02)


async def run_until_done(sender: Sender, ids: tuple[int, ...], timeout: float = 5.0) -> bool:
    sender.start()
    sender.kick()
    try:
        return await sender.delivered(ids, timeout)
    finally:
        await sender.stop()


async def test_in_order_per_destination_and_in_parallel_across(storage: SqliteStorage) -> None:
    script = Script(delay=lambda letter: 0.4)
    ids = await owe(storage, post("c1"), dm("a1", 7), dm("b1", 8), post("c2"), dm("a2", 7))
    refused: list[Posting] = []

    async def undeliverable(p: Posting, o: Outcome) -> None:
        refused.append(p)

    sender = Sender(storage, script, undeliverable)
    started = time.monotonic()
    assert await run_until_done(sender, ids)
    elapsed = time.monotonic() - started
    # three destinations in parallel, two letters each at most: about 2 × 0.4 s, not 5 × 0.4 s
    assert elapsed < 1.6, elapsed
    by_destination: dict[str, list[str | None]] = {}
    for to, text, _ in script.calls:
        by_destination.setdefault(to, []).append(text)
    assert by_destination == {"c:10": ["c1", "c2"], "u:7": ["a1", "a2"], "u:8": ["b1"]}
    assert refused == [] and sender.sent == 5
    assert await storage.postings_pending(ids) == 0
    # every letter carries its own nonce: the database's salt and its row id
    salt = await storage.nonce_salt()
    assert sorted(n for _, _, n in script.calls) == sorted(f"{salt}{i}" for i in ids)


async def test_a_passing_fault_is_retried_and_the_rest_of_its_destination_waits(
    storage: SqliteStorage,
) -> None:
    def answer(letter: Letter, tries: int) -> Outcome:
        if letter.body.content == "first" and tries < 3:
            return Outcome("retry", after=0.0, detail="503")
        return Outcome("sent", 1)

    script = Script(answer)
    ids = await owe(storage, post("first"), post("second"), dm("elsewhere", 7))
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0), backoff=lambda t: 0.05)
    assert await run_until_done(sender, ids)
    channel = [text for to, text, _ in script.calls if to == "c:10"]
    assert channel == ["first", "first", "first", "second"]
    assert script.tries["elsewhere"] == 1


async def test_giving_up_is_bounded_and_reported(storage: SqliteStorage) -> None:
    script = Script(lambda letter, tries: Outcome("retry", after=0.0, detail="502"))
    ids = await owe(storage, dm("never", 7))
    reported: list[tuple[Posting, Outcome]] = []

    async def undeliverable(p: Posting, o: Outcome) -> None:
        reported.append((p, o))

    sender = Sender(storage, script, undeliverable, max_tries=4, backoff=lambda t: 0.01)
    assert await run_until_done(sender, ids)
    assert script.tries["never"] == 4
    [(posting, outcome)] = reported
    assert posting.letter.to == "u:7" and "gave up" in outcome.detail


async def test_what_discord_refuses_for_good_is_not_retried(storage: SqliteStorage) -> None:
    verdicts = {"closed": "closed_dms", "gone": "deleted", "denied": "forbidden"}
    script = Script(lambda letter, tries: Outcome(verdicts[letter.body.content or ""]))  # type: ignore[arg-type]
    ids = await owe(storage, dm("closed", 7), post("gone", 11), post("denied", 12))
    reported: list[str] = []

    async def undeliverable(p: Posting, o: Outcome) -> None:
        reported.append(o.verdict)

    assert await run_until_done(Sender(storage, script, undeliverable), ids)
    assert sorted(reported) == ["closed_dms", "deleted", "forbidden"]
    assert all(t == 1 for t in script.tries.values())


async def test_a_reply_waits_for_the_news_of_its_change(storage: SqliteStorage) -> None:
    script = Script(delay=lambda letter: 0.3 if letter.kind == "c" else 0.0)
    news = post("news")
    reply = Letter.reply(99, "token", Outgoing(content="✅ Asked."), follows=1)
    ids = await owe(storage, news, reply)
    assert await run_until_done(Sender(storage, script, lambda p, o: asyncio.sleep(0)), ids)
    assert [text for _, text, _ in script.calls] == ["news", "✅ Asked."]


async def test_a_reply_does_not_wait_forever_and_says_the_news_follows(
    storage: SqliteStorage,
) -> None:
    script = Script(lambda letter, tries: Outcome("retry", after=30.0) if letter.kind == "c"
                    else Outcome("sent", 1))
    reply = Letter.reply(99, "token", Outgoing(content="✅ Asked."), follows=1)
    ids = await owe(storage, post("slow news"), reply)
    assert await run_until_done(Sender(storage, script, lambda p, o: asyncio.sleep(0)),
                                ids[1:], timeout=4.0)
    [answered] = [text for to, text, _ in script.calls if to == "i:99"]
    assert answered is not None and "✅ Asked." in answered and "on its way" in answered


async def test_the_sender_survives_a_failing_database(
    storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = await owe(storage, post("after the outage"))
    flaky = Flaky(storage.look, 2, "disk I/O error")
    monkeypatch.setattr(storage, "look", flaky)
    script = Script()
    assert await run_until_done(Sender(storage, script, lambda p, o: asyncio.sleep(0)), ids,
                                timeout=8.0)
    assert flaky.failed == 2 and script.tries["after the outage"] == 1


async def test_a_letter_waiting_for_its_pictures_holds_no_sending_slot(
    storage: SqliteStorage,
) -> None:
    # one sending slot; the first letter's pictures take 0.8 s to draw: the text letters
    # to other destinations go out meanwhile, not after it
    script = Script(drawing=lambda letter: 0.8 if letter.body.content == "drawn" else 0.0)
    ids = await owe(storage, dm("drawn", 7), dm("text", 8), post("news"))
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0), concurrency=1)
    assert await run_until_done(sender, ids)
    assert [text for _, text, _ in script.calls][-1] == "drawn"
    assert sender.sent == 3


def calls_of(monkeypatch: pytest.MonkeyPatch, storage: SqliteStorage, name: str
             ) -> list[tuple[Any, ...]]:
    """Every call of the storage's method `name` from now on (its arguments)."""
    calls: list[tuple[Any, ...]] = []
    method = getattr(storage, name)

    async def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return await method(*args, **kwargs)

    monkeypatch.setattr(storage, name, counted)
    return calls


async def test_the_sender_does_not_look_again_while_its_workers_send(
    storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # one letter takes a second to send: the sender looks at the outbox when it begins and
    # when the worker is done, not ten times a second meanwhile
    script = Script(delay=lambda letter: 1.0)
    ids = await owe(storage, post("slow"))
    looks = calls_of(monkeypatch, storage, "look")
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0))
    assert await run_until_done(sender, ids)
    assert len(looks) <= 4, looks


async def test_a_worker_done_with_its_destination_looks_again_only_for_its_letters(
    storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every other destination was looked at after its last change: the sender looks again at
    a worker's end only when letters to its destination are pending still (stored while it
    had them in hand); at every end, most looks found nothing."""
    script = Script(delay=lambda letter: 0.3 if letter.body.content == "slow" else 0.0)
    looks = calls_of(monkeypatch, storage, "look")
    ids = await owe(storage, *(dm(f"hand {user}", user) for user in range(1, 7)))
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0))
    sender.start()
    try:
        assert await sender.delivered(ids, 5.0)
        await asyncio.sleep(0.1)
        assert len(looks) == 1  # six workers ended: none looked again
        slow = await owe(storage, post("slow"))
        sender.kick()
        while not script.calls or script.calls[-1][1] != "slow":
            await asyncio.sleep(0.01)
        later = await owe(storage, post("after it"))  # its destination in hand: not read
        sender.kick()
        assert await sender.delivered(slow + later, 5.0)  # the slow one's end looks again
    finally:
        await sender.stop()
    assert [text for _, text, _ in script.calls][-2:] == ["slow", "after it"]


async def test_releasing_a_destination_says_whether_letters_to_it_are_pending(
    storage: SqliteStorage,
) -> None:
    await owe(storage, post("one"), dm("two", 7))
    two, _ = await storage.due_postings(time.time(), 10)  # DMs first
    await storage.posting_sent(two, 1)
    assert await storage.release_destination("c:10")  # "one" pending
    assert not await storage.release_destination("u:7")


async def test_the_sender_asks_when_to_look_again_only_when_its_look_was_cut(
    storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A look that read every pending letter says when the next falls due (`Storage.look`);
    one cut at the batch asks `next_posting_at`."""
    asked = calls_of(monkeypatch, storage, "next_posting_at")
    ids = await owe(storage, post("one"), dm("two", 7))
    assert await run_until_done(Sender(storage, Script(), lambda p, o: asyncio.sleep(0)), ids)
    assert not asked
    monkeypatch.setattr("bot.outbox.BATCH", 1)
    ids = await owe(storage, post("three"), dm("four", 7), dm("five", 8))
    assert await run_until_done(Sender(storage, Script(), lambda p, o: asyncio.sleep(0)), ids)
    assert asked


def living_edit(text: str | None, **extra: object) -> Letter:
    return Letter.edit(10, "living", Outgoing(content=text, **extra))  # type: ignore[arg-type]


def casebook(text: str, user: int = 7) -> Letter:
    return Letter.dm(user, Outgoing(content=text), slot="casebook")


async def test_under_a_backlog_an_edit_replaced_whole_is_not_sent(storage: SqliteStorage) -> None:
    from bot.messages import Picture

    picture = Picture(kind="13c.view", data={}, filename="view.png")
    ids = await owe(
        storage,
        living_edit("turn 1"), living_edit("turn 2"),  # 1 replaced by 2
        living_edit(None),  # keeps the text: does not replace 2 (but the next replaces it)
        Letter.edit(10, "living", Outgoing(content="with a picture", pictures=[picture])),
        living_edit("text only"),  # keeps the picture: does not replace the one before
        Letter.post(10, Outgoing(content="new table message"), living=True),
        living_edit("of the new message"),  # another message: replaces nothing before
        casebook("casebook 1"), casebook("casebook 2"), casebook("other seat", 8),
    )
    script = Script()
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0))
    assert await run_until_done(sender, ids)
    sent = [text for _, text, _ in script.calls]
    assert sorted(sent, key=str) == sorted(
        ["turn 2", "with a picture", "text only", "new table message",
         "of the new message", "casebook 2", "other seat"], key=str)
    assert sender.skipped == 3 and sender.sent == 7
    assert await storage.postings_pending(ids) == 0


async def test_a_dm_found_closed_is_not_tried_again(storage: SqliteStorage) -> None:
    """Each try at a closed DM is an invalid request (10,000 in 10 minutes ban the bot):
    once found closed, the member's next DMs are given up without one."""
    script = Script(lambda letter, n: Outcome("closed_dms", detail="403 50007"))
    refused: list[str] = []

    async def undeliverable(p: Posting, o: Outcome) -> None:
        refused.append(f"{p.letter.body.content}: {o.verdict}")

    first = await owe(storage, dm("a1", 7))
    assert await run_until_done(Sender(storage, script, undeliverable), first)
    later = await owe(storage, dm("a2", 7), dm("b1", 8))
    assert await run_until_done(Sender(storage, script, undeliverable), later)
    assert [to for to, _, _ in script.calls] == ["u:7", "u:8"]
    # the two members' DMs go in parallel: the order of their refusals is not promised
    assert refused[0] == "a1: closed_dms"
    assert sorted(refused[1:]) == ["a2: closed_dms", "b1: closed_dms"]


async def test_an_edit_that_would_leave_its_message_as_it_is_is_not_sent(
        storage: SqliteStorage) -> None:
    script = Script()
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0))
    # one at a time (no backlog to coalesce): the post, then edits of the message it made
    for letter in (Letter.post(10, Outgoing(content="turn 1"), living=True),
                   living_edit("turn 1"),  # as it was posted
                   living_edit("turn 2"), living_edit("turn 2"),  # the second changes nothing
                   living_edit("turn 1"),  # back: it changes the message again
                   casebook("casebook 1"), casebook("casebook 1")):
        assert await run_until_done(sender, await owe(storage, letter))
    sent = [text for _, text, _ in script.calls]
    assert sent == ["turn 1", "turn 2", "turn 1", "casebook 1"]
    assert sender.skipped == 3
    assert script.prepared == sent  # no picture is drawn for an edit that is not sent


async def test_an_edit_waiting_for_the_budget_goes_out_with_the_newest_body(
        storage: SqliteStorage) -> None:
    """Issue 21: under a backlog a table message (or a casebook DM) is sent once with its
    newest state, not once per state it passed through: the edits stored while the first
    waited for the budget replace it, up to a letter of another kind (order is kept)."""
    hold = asyncio.Event()  # the budget is spent until the test lets it go
    pacer = Pacer(rate=1000.0, gate=lambda: hold)
    script = Script()
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0), pacer=pacer)
    first = await owe(storage, living_edit("turn 1"), casebook("casebook 1"))
    sender.start()
    sender.kick()
    try:
        await budget_awaited(pacer, 2)  # both wait for the budget
        assert pacer.waited == 2 and script.calls == []
        newer = await owe(storage, living_edit("turn 2"), living_edit("turn 3"),
                          post("a notice"), living_edit("turn 4"),
                          casebook("casebook 2"), casebook("casebook 3"))
        hold.set()
        assert await sender.delivered([*first, *newer], 5.0)
    finally:
        await sender.stop()
        await pacer.close()
    by_destination: dict[str, list[str | None]] = {}
    for to, text, _ in script.calls:
        by_destination.setdefault(to, []).append(text)
    assert by_destination == {"c:10": ["turn 3", "a notice", "turn 4"], "u:7": ["casebook 3"]}
    assert sender.skipped == 4 and sender.sent == 4
    assert await storage.postings_pending([*first, *newer]) == 0
    # the letter sent in a replaced one's place carries its own nonce
    salt = await storage.nonce_salt()
    assert ("u:7", "casebook 3", f"{salt}{newer[-1]}") in script.calls


async def test_an_edit_not_replaced_whole_by_the_newer_one_still_goes_out(
        storage: SqliteStorage) -> None:
    hold = asyncio.Event()
    pacer = Pacer(rate=1000.0, gate=lambda: hold)
    script = Script()
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0), pacer=pacer)
    first = await owe(storage, living_edit("turn 1"))
    sender.start()
    sender.kick()
    try:
        await budget_awaited(pacer, 1)
        newer = await owe(storage, living_edit(None))  # keeps turn 1's text: no replacement
        hold.set()
        assert await sender.delivered([*first, *newer], 5.0)
    finally:
        await sender.stop()
        await pacer.close()
    assert [text for _, text, _ in script.calls] == ["turn 1", None]
    assert sender.skipped == 0


async def test_a_letter_waiting_for_the_budget_goes_out_when_a_token_comes(
        storage: SqliteStorage) -> None:
    """Issue 21: a table post stored before an interaction's token may post in its channel (a
    slash command's "thinking" answer not given yet) waits for the budget behind the DMs
    ahead of it, until the token comes: then it goes out through the token at once, outside
    the budget, and its channel's next letter follows it; the DMs still wait for their
    budget. (At 400 tables such posts waited up to 54 s for budget they never spent.)"""
    hold = asyncio.Event()  # the budget is spent until the test lets it go
    pacer = Pacer(rate=1000.0, gate=lambda: hold)
    script = Script()
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0), pacer=pacer)
    dms = await owe(storage, dm("your turn", 7), dm("news", 8))
    table = await owe(storage, post("the table"), living_edit("its edit"))
    sender.start()
    sender.kick()
    try:
        await budget_awaited(pacer, 3)  # the DMs and the post wait for the budget
        assert pacer.waited == 3 and script.calls == []
        script.lending("c:10").set()  # an interaction in the channel: its token may post
        assert await sender.delivered(table, 2.0)
        assert [to for to, _, _ in script.calls] == ["c:10", "c:10"]
        assert await storage.postings_pending(dms) == 2
        hold.set()
        assert await sender.delivered(dms, 2.0)
    finally:
        await sender.stop()
        await pacer.close()
    texts = [text for _, text, _ in script.calls]
    assert texts[:2] == ["the table", "its edit"] and set(texts[2:]) == {"news", "your turn"}


async def test_a_destination_waiting_for_the_budget_goes_at_the_rank_of_what_waits_behind_it(
        storage: SqliteStorage) -> None:
    """Issue 21: a destination's letters go in order, so a DM that could wait (another
    member's news) holds back the member's own DM behind it: it takes the budget at that
    DM's rank, whether the own DM was in hand when it began to wait (u:7) or was stored while
    it waited (u:9, `Sender.urge`). Both go before the table and another member's prompt."""
    hold = asyncio.Event()  # the budget is spent until the test lets it go
    pacer = Pacer(rate=20.0, gate=lambda: hold)  # 50 ms apart: the order is the pacer's
    script = Script()
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0), pacer=pacer)

    def news(text: str, user: int, *, later: bool = False, own: bool = False) -> Letter:
        return Letter.dm(user, Outgoing(content=text), later=later, own=own)

    first = await owe(storage, news("a prompt", 8), post("the table"),
                      news("7's old news", 7, later=True), news("7's own", 7, own=True),
                      news("9's old news", 9, later=True))
    sender.start()
    sender.kick()
    try:
        await budget_awaited(pacer, 4)
        assert pacer.waited == 4 and script.calls == []
        own = news("9's own", 9, own=True)
        newer = await owe(storage, own)
        sender.urge([own])
        hold.set()
        assert await sender.delivered([*first, *newer], 5.0)
    finally:
        await sender.stop()
        await pacer.close()
    assert [text for _, text, _ in script.calls] == [
        "7's old news", "9's old news", "7's own", "9's own", "the table", "a prompt"]
    assert script.hurried == [("u:9", OWN)]  # and what 9's old news waits for (its opening)


async def test_a_slash_commands_post_waits_for_its_token_and_its_answer_does_not_wait_for_it(
        storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: a slash command's table post is stored before its "thinking" answer gives
    the token that posts it outside the budget, and the answer waits for its change's news.
    When the budget is short, the post waits for the token rather than take the budget (it
    would go by the bot's route, and every edit of it after), and the answer goes at once,
    its news right after it: at 400 tables each waited for the other until the answer's
    wait ran out (`bench.load`)."""
    monkeypatch.setattr("bot.outbox.REPLY_WAIT", 60.0)  # only the fix lets them go in time
    hold = asyncio.Event()  # no budget at all: only the token sends the post
    pacer = Pacer(rate=1000.0, gate=lambda: hold)
    script = Script()
    script.loading["the command's token"] = "c:10"
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0), pacer=pacer)
    waiting = await owe(storage, dm("a deal", 7))
    sender.start()
    sender.kick()
    try:
        await budget_awaited(pacer, 1)  # the budget is short: a DM waits for it
        ids = await owe(storage, post("the lobby"),
                        Letter.reply(99, "the command's token", Outgoing(content="Table open."),
                                     follows=1))
        assert await run_until_done(sender, ids, timeout=5.0)
        assert await storage.postings_pending(waiting) == 1
    finally:
        await sender.stop()
        await pacer.close()
    assert [(to, text) for to, text, _ in script.calls] == [
        ("i:99", "Table open."), ("c:10", "the lobby")]  # the news right after it
    assert pacer.waited == 1


async def test_a_kept_message_draws_only_its_newest_body(storage: SqliteStorage) -> None:
    """Issue 21: under a backlog drawings queue; an edit of the table message (or a casebook)
    replaced whole by a newer one stored while its destination was busy is not drawn: only
    the newest is, and sent."""
    from bot.messages import Picture

    def markers(turn: int) -> Picture:
        return Picture(kind="mbm.markers", data={"turn": turn}, filename="markers.png")

    script = Script(delay=lambda letter: 0.3 if letter.body.content == "a notice" else 0.0)
    sender = Sender(storage, script, lambda p, o: asyncio.sleep(0))
    first = await owe(storage, post("a notice"), living_edit("turn 1", pictures=[markers(1)]))
    sender.start()
    sender.kick()
    try:
        for _ in range(100):  # the notice is being sent: the edit behind it waits
            if script.calls:
                break
            await asyncio.sleep(0.01)
        newer = await owe(storage, living_edit("turn 2", pictures=[markers(2)]))
        assert await sender.delivered([*first, *newer], 5.0)
    finally:
        await sender.stop()
    assert [text for _, text, _ in script.calls] == ["a notice", "turn 2"]
    assert script.prepared == ["a notice", "turn 2"]  # turn 1's markers never drawn
    assert sender.skipped == 1


async def test_a_kicked_sender_counts_as_busy_until_its_look_hands_the_letters_over(
    storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Between a change's commit (its kick) and the look that hands its letters to a
    worker, no destination is in hand: `looking` covers that moment, which the stand-in's
    `settle` once took for quiet (a kill test found 2 letters owed)."""
    sender = Sender(storage, Script(delay=lambda letter: 0.5), lambda p, o: asyncio.sleep(0))
    assert not sender.looking  # not running: nothing to wait for
    sender.start()
    try:
        await asyncio.sleep(0.1)  # its first look, of an empty outbox, is over
        assert not sender.looking and sender.working == 0
        look = storage.look
        held = asyncio.Event()

        async def slow_look(*args: object, **kwargs: object) -> object:
            await held.wait()  # the look is under way, nothing in hand yet
            return await look(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(storage, "look", slow_look)
        await owe(storage, post("owed"))
        sender.kick()
        assert sender.looking and sender.working == 0
        await asyncio.sleep(0.05)
        assert sender.looking and sender.working == 0  # looking, nothing taken yet
        held.set()
        for _ in range(100):
            if sender.working:
                break
            await asyncio.sleep(0.01)
        assert sender.working == 1 and not sender.looking
    finally:
        await sender.stop()
    assert not sender.looking
