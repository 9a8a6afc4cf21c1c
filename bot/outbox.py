"""The outbox sender: delivers the stored letters, in order per destination and concurrently
across destinations, marking each one after its own send.

A letter is only ever read from the database after the transaction that wrote it committed,
so the bot never sends news of a change it did not keep. Passing faults are retried with
back-off (bounded); what Discord refuses for good is handed to `on_undeliverable` (closed
DMs, a channel gone, a permission lost), which lets the table service act on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol

from bot.drawings import Drawn
from bot.models import LIVING, ON_ITS_WAY, Letter, Posting
from bot.pacing import ANSWER, Pacer, paced, rank_of
from bot.storage import Look, Storage
from bot.storage.common import CLAIM_SECONDS
from bot.transport import Outcome
from bot.urgency import task

log = logging.getLogger(__name__)

MAX_TRIES = 12
"""A letter still failing after this many tries (some six minutes of back-off) is given up,
with a visible notice."""
BATCH = 500
CONCURRENCY = 48
"""Destinations worked on at once, about a second of the global budget in flight: the pacer
hands out the budget before a slot, and with 16 slots and answers taking half a second
(`bench.load` at 200 tables) the letters it let go waited for a slot, went out together,
and met the global limit (hundreds of 429s) while the budget went half unspent."""
SHOWN = 50_000
"""Kept messages whose last body the sender remembers (forgotten all at once past this)."""
NEWER = 50
"""Letters read after a kept message's edit that waited for the budget, for newer edits of
the same message."""
REPLY_WAIT = 1.5
"""How long a reply waits for the news of its own change before it answers anyway."""
TOKEN_WAIT = 3.0
"""How long a channel post waits for a token on its way (`Deliverer.coming`) when the budget
is short, before it takes the budget too, whichever comes first."""
SENT_ELSEWHERE = 0.1
"""In a cluster, how often a reply waiting for news of its change that another process
sends asks whether it went out."""

Undeliverable = Callable[[Posting, Outcome], Awaitable[None]]


class Deliverer(Protocol):
    async def prepare(self, letter: Letter, rank: int | None = None) -> Drawn: ...

    async def deliver(
        self, letter: Letter, nonce: str, living: int | None, drawn: Drawn, *,
        again: bool = False,
    ) -> Outcome: ...

    def exempt(self, letter: Letter, living: int | None, *, again: bool = False) -> bool:
        """Whether this letter's request is outside the global limit (no pacing); for a
        channel post, that it goes out as an interaction's followup."""
        ...

    async def borrowable(self, letter: Letter, living: int | None, *,
                         holding: bool = False) -> None:
        """Return once this letter may go outside the global limit after all (an
        interaction's token came that sends it); never, for a letter none sends.
        `holding`: it waits for a token on its way (`coming`) instead of the budget."""
        ...

    def coming(self, letter: Letter) -> bool:
        """Whether a token that sends this letter outside the global limit is on its way
        (an interaction's answer not given yet)."""
        ...

    def hurry(self, destination: str, rank: int) -> None:
        """A letter of this rank waits behind those in hand for `destination`: what they wait
        for before the budget (a DM channel's opening) goes at that rank now."""
        ...

    async def awaited(self, letter: Letter) -> None:
        """Return once a letter waits for the token this answer gives (`borrowable`'s
        `holding`); never for another letter."""
        ...


class Sender:
    def __init__(
        self,
        storage: Storage,
        transport: Deliverer,
        on_undeliverable: Undeliverable,
        *,
        concurrency: int = CONCURRENCY,
        max_tries: int = MAX_TRIES,
        backoff: Callable[[int], float] | None = None,
        pacer: Pacer | None = None,
    ) -> None:
        self.storage = storage
        self.transport = transport
        self.on_undeliverable = on_undeliverable
        self.max_tries = max_tries
        self.backoff = backoff or _backoff
        self.pacer = pacer
        """Paces the letters under the global rate limit, most urgent first; taken before a
        sending slot, so that letters waiting for the budget do not hold the slots the
        urgent ones need. None: unpaced."""
        self._slots = asyncio.Semaphore(concurrency)
        self._reply_slots = asyncio.Semaphore(concurrency)
        """Replies to interactions have their own lane: a member waits on each, an interaction
        webhook is outside the bot's global rate limit, and under load (`bench.load`, 200
        tables) a reply queued behind hundreds of DMs and channel posts came after 10 s."""
        self._kicked = asyncio.Event()
        self._busy: dict[str, asyncio.Task[None]] = {}
        self._urgent: dict[str, int] = {}
        """The most urgent rank of a letter stored for a destination while its worker had it
        in hand (`urge`): the worker's letters go at that rank, since it waits behind them."""
        self._watch: dict[int, asyncio.Future[None]] = {}
        self._handled: set[int] = set()
        """Letters finished (sent, failed, or put off) since the current read of the due
        letters began: that read may predate their marks, so it must not hand them out again."""
        self._task: asyncio.Task[None] | None = None
        self._looking = False
        self._claims: asyncio.Task[None] | None = None
        """Renews this process's claims on the destinations it works on (a shared
        database: see `Storage.due_postings`)."""
        self._stopping = False
        self.sent = 0
        """Letters delivered by this process (the figures of benchmarks and tests)."""
        self.skipped = 0
        """Letters not sent because a later letter in hand replaced them whole, or because
        they would leave their message as it is."""
        self._shown: dict[int, str] = {}
        """The body each kept message (the table message, a casebook DM) was last sent with,
        by message id: an edit that would leave it as it is costs no request (issue 21)."""

    # control ------------------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = task(self._run(), name="outbox-sender")
        if self.storage.shared and self._claims is None:
            self._claims = task(self._keep_claims(), name="outbox-claims")

    async def stop(self) -> None:
        """Stop at once; a letter in flight stays pending and goes out at the next start."""
        if self._task is not None:
            # Python 3.11's wait_for can swallow a cancel that meets a kick: the loop then
            # sees this flag instead of waiting forever
            self._stopping = True
            self._kicked.set()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._stopping = False
        if self._claims is not None:
            self._claims.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._claims
            self._claims = None
        workers = list(self._busy.values())
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        self._busy.clear()

    def kick(self) -> None:
        self._kicked.set()

    def urge(self, letters: Iterable[Letter]) -> None:
        """A change stored these letters: where one is more urgent than the letters of its
        destination in a worker's hand, which it must wait for (a destination's order), those
        go at its rank (`Pacer.hurry`), and so does their DM channel's opening: a Mansion
        member acts through the channel before their deal's DM, waiting for its opening at
        the last rank, reached them (own DMs up to 37 s at 400 tables, `bench.load`)."""
        for letter in letters:
            if letter.to not in self._busy or not paced(letter):
                continue
            rank = rank_of(letter)
            if rank < self._urgent.get(letter.to, rank + 1):
                self._urgent[letter.to] = rank
                self.transport.hurry(letter.to, rank)
                if self.pacer is not None:
                    self.pacer.hurry(letter.to, rank)

    @property
    def working(self) -> int:
        """Destinations whose letters are being delivered right now."""
        return len(self._busy)

    @property
    def looking(self) -> bool:
        """Kicked (a change stored letters) and not done looking at the outbox yet: the
        letters may be in no worker's hands for a moment."""
        return self._task is not None and (self._kicked.is_set() or self._looking)

    async def flush(self, timeout: float) -> bool:
        """Deliver what is due now, for up to `timeout` seconds; True if nothing is left."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.kick()
            if not self._busy and not await self.storage.due_postings(time.time(), 1):
                return True
            await asyncio.sleep(0.05)
        return False

    async def delivered(self, ids: Iterable[int], timeout: float) -> bool:
        """Wait until these letters are sent or failed; True if they all are. In a cluster
        another process may send some of them (a channel's letters go from its shard's
        process): then the database is asked again every `SENT_ELSEWHERE` seconds."""
        wanted = list(ids)
        loop = asyncio.get_running_loop()
        futures = [self._watch.setdefault(i, loop.create_future()) for i in wanted]
        waiting, elsewhere_first = await self.storage.postings_waiting(wanted)
        elsewhere = elsewhere_first > 0
        if waiting == 0:
            self._resolve(wanted)
        end = loop.time() + timeout
        try:
            while True:
                left = end - loop.time()
                look = min(left, SENT_ELSEWHERE) if elsewhere else left
                # asyncio.wait leaves the futures alone on a timeout: others may share them
                _, pending = await asyncio.wait(futures, timeout=max(0.0, look))
                if not pending or loop.time() >= end:
                    break
                if await self.storage.postings_pending(wanted) == 0:
                    self._resolve(wanted)
        finally:
            for i in wanted:
                future = self._watch.get(i)
                if future is not None and future.done():
                    del self._watch[i]
        return not pending

    # the loop -----------------------------------------------------------------------------

    async def _run(self) -> None:
        failures = 0
        while not self._stopping:
            self._kicked.clear()
            try:
                self._looking = True
                try:
                    look = await self._pump()
                finally:
                    self._looking = False
                failures = 0
                if self._kicked.is_set():
                    continue  # kicked meanwhile: look again now, when next is moot
                wake = (look.later if look.whole
                        else await self.storage.next_posting_at(list(self._busy)))
            except Exception:
                failures += 1
                log.exception("the outbox sender failed (%d in a row); it carries on", failures)
                await asyncio.sleep(min(30.0, 0.5 * 2**failures))
                continue
            timeout = None if wake is None else wake - time.time()
            if timeout is not None and timeout <= 0:
                timeout = 0.1  # more due than a look takes, or stored after the last look
            await sleep_until(self._kicked, polled(timeout, self.storage.poll_every))

    async def _pump(self) -> Look:
        """Hands the due letters to workers; what the look found, for when to look again (a
        letter a worker puts off while the look is under way kicks the sender at its end)."""
        # A worker may finish (and free its destination) while the read below is under way:
        # whatever it handled before the read began is marked in the database already.
        self._handled.clear()
        by_destination: dict[str, list[Posting]] = {}
        busy = list(self._busy)
        look = await self.storage.look(time.time(), BATCH, busy)
        for posting in look.postings:
            if posting.id not in self._handled:
                by_destination.setdefault(posting.letter.to, []).append(posting)
        for destination, postings in by_destination.items():
            if destination not in self._busy:
                # a member waits on an answer: its lane is as urgent as their interaction
                answering = any(rank_of(p.letter) == ANSWER for p in postings)
                self._busy[destination] = task(self._work(destination, postings),
                                               name=f"outbox:{destination}", urgent=answering)
        return look

    async def _work(self, destination: str, postings: list[Posting]) -> None:
        try:
            later = superseded(postings)
            done: set[int] = set()
            for posting, rank in zip(postings, behind(postings), strict=True):
                if posting.id in done:
                    continue  # replaced by a newer one while it waited for the budget
                if posting.id in later:
                    await self._skip(posting)
                elif not await self._one(posting, done, rank):
                    break  # the rest of this destination waits for it
        except Exception:
            log.exception("delivery to %s failed", destination)
            await asyncio.sleep(1.0)  # a storage fault: do not spin on it
        finally:
            self._busy.pop(destination, None)
            self._urgent.pop(destination, None)
            try:
                more = await self.storage.release_destination(destination)
            except Exception:  # its claim runs out; look again at what it held
                more = True
            if more:
                self.kick()

    async def _keep_claims(self) -> None:
        while True:
            await asyncio.sleep(CLAIM_SECONDS / 3)
            try:
                await self.storage.renew_claims(time.time())
            except Exception:
                log.exception("could not renew the outbox's claims; trying again")

    async def _one(self, posting: Posting, done: set[int], rank: int) -> bool:
        """Deliver one letter; False when it must be tried again later. A kept message's
        edit that waited for the budget goes out with the newest body stored for it since
        (the letters it replaces are added to `done`, marked without a request). `rank`: the
        most urgent of the letters in hand behind it, which wait for it."""
        letter = posting.letter
        if letter.op == "reply" and letter.follows and not await self._news_out(posting):
            letter = letter.with_note(letter.pending or ON_ITS_WAY)
        if letter.kind == "u" and await self.storage.dm_closed(
            letter.address, time.time()
        ):
            await self._give_up(posting, Outcome("closed_dms", detail="found closed lately"))
            self._handled.add(posting.id)
            self._resolve([posting.id])
            return True
        living = None
        if posting.table_id is not None:
            if letter.target == LIVING:
                living = await self.storage.living_message(posting.table_id)
            elif letter.slot is not None:
                living = await self.storage.slot_message(posting.table_id, letter.to, letter.slot)
        kept = letter.target == LIVING or letter.living or letter.slot is not None
        if letter.body.pictures and kept_key(posting) is not None:
            latest = await self._latest(posting, done, living)  # only the newest is drawn
            if latest is None:
                return True
            posting, letter = latest, latest.letter
        nonce = f"{await self.storage.nonce_salt()}{posting.id}"
        body = letter.body.model_dump_json() if kept else ""
        if kept and self._shows(living, body):
            await self._skip(posting)  # before its pictures are drawn: they would go unused
            return True
        rank = self._rank(letter, rank)
        drawn = await self.transport.prepare(letter, rank)  # not in a slot: see `prepare`
        # a channel post tried before may be out already as a followup (it has no nonce)
        again = posting.tries > 0 and letter.channel_post
        exempt = self.transport.exempt(letter, living, again=again)
        waited = False
        if self.pacer is not None and not exempt:
            waited, exempt = await self._budget(self.pacer, letter, living, rank, again=again)
        if exempt and letter.channel_post:
            await self.storage.posting_tried(posting)  # before the followup: see `again`
        if waited and kept_key(posting) is not None:  # newer edits may be stored since
            latest = await self._latest(posting, done, living)
            if latest is None:
                return True
            if latest is not posting:
                posting, letter = latest, latest.letter
                nonce = f"{await self.storage.nonce_salt()}{posting.id}"
                body = letter.body.model_dump_json()
                drawn = await self.transport.prepare(letter, rank)
        async with self._reply_slots if letter.op == "reply" else self._slots:
            outcome = await self.transport.deliver(letter, nonce, living, drawn, again=again)
        if outcome.verdict == "sent":
            await self.storage.posting_sent(posting, outcome.message_id)
            self.sent += 1
            if kept and outcome.message_id is not None:
                if len(self._shown) >= SHOWN:
                    self._shown.clear()
                self._shown[outcome.message_id] = body
        elif outcome.verdict == "retry":
            if posting.tries + 1 < self.max_tries:
                after = max(outcome.after, self.backoff(posting.tries))
                log.warning("letter %s to %s: %s; retrying in %.1fs", posting.id, letter.to,
                            outcome.detail, after)
                await self.storage.posting_retry(posting, time.time() + after)
                self._handled.add(posting.id)
                return False
            await self._give_up(posting, Outcome("retry", detail=f"gave up: {outcome.detail}"))
        else:
            if outcome.verdict == "closed_dms":
                await self.storage.remember_closed_dm(letter.address, time.time())
            await self._give_up(posting, outcome)
        self._handled.add(posting.id)
        self._resolve([posting.id])
        return True

    async def _news_out(self, reply: Posting) -> bool:
        """Whether the news of a reply's change is out (or goes right after it), waited for
        briefly. A letter of it that waits for the token this reply gives (a slash command's
        table post, when the budget is short) goes right after it: at 400 tables each such
        answer and post waited for each other until `REPLY_WAIT` ran out (`bench.load`)."""
        siblings = range(reply.id - reply.letter.follows, reply.id)
        news = asyncio.ensure_future(self.delivered(siblings, REPLY_WAIT))
        held = asyncio.ensure_future(self.transport.awaited(reply.letter))
        try:
            await asyncio.wait((news, held), return_when=asyncio.FIRST_COMPLETED)
        finally:
            held.cancel()
            news.cancel()
        if held.done() and not held.cancelled():
            return True
        return news.done() and not news.cancelled() and news.result()

    async def _budget(self, pacer: Pacer, letter: Letter, living: int | None, rank: int, *,
                      again: bool) -> tuple[bool, bool]:
        """Wait for the letter's share of the budget, or for an interaction's token that
        sends it outside the limit, whichever comes first: (whether it waited, whether it
        is exempt now). A slash command's table post is stored before its "thinking" answer
        makes the channel's token usable: at 400 tables 385 of 400 such posts waited for the
        budget behind the DMs (up to 54 s, holding their channel's later letters back) and
        then went out through the token that had come meanwhile (`bench.load`); given the
        budget sooner, 111 of them went by the bot's route, and so did 251 edits of them. So
        when the budget is short a post whose token is on its way waits for it first
        (`TOKEN_WAIT`; the command's answer then goes first, `_news_out`); when it is not,
        the post goes at once by the bot's route, before the answer that tells of it. A post
        tried before goes by the bot's route (`again`): it waits for the budget alone."""
        if not again and self.transport.coming(letter) and pacer.short:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(TOKEN_WAIT):
                    await self.transport.borrowable(letter, living, holding=True)
                    return True, True
        take = asyncio.ensure_future(pacer.take(self._rank(letter, rank), key=letter.to))
        if again:
            return await take, False
        borrow = asyncio.ensure_future(self.transport.borrowable(letter, living))
        try:
            await asyncio.wait((take, borrow), return_when=asyncio.FIRST_COMPLETED)
        finally:
            borrow.cancel()
            take.cancel()  # a waiter cancelled gives its turn away (`Pacer`)
        if take.done() and not take.cancelled():
            return take.result(), False
        return True, True

    def _rank(self, letter: Letter, behind: int) -> int:
        """The rank a letter goes at: the most urgent of its own, of the letters in hand
        behind it (`behind`), and of those stored for its destination since (`urge`)."""
        return min(behind, self._urgent.get(letter.to, behind))

    def _shows(self, living: int | None, body: str) -> bool:
        """Whether the kept message already shows this body (an edit to it changes nothing)."""
        return living is not None and self._shown.get(living) == body

    async def _latest(self, posting: Posting, done: set[int], living: int | None
                      ) -> Posting | None:
        """`_newest`, or None when the newest would leave the message as it shows (it is then
        marked without a request). Checked before a kept message's pictures are drawn too:
        under a backlog the drawings queue (at 400 tables the Mansion table message's markers
        waited up to 8 s for theirs), and an edit drawn while a newer one waited to replace
        it was a drawing for nothing."""
        newer = await self._newest(posting, done)
        if newer is not posting and self._shows(living, newer.letter.body.model_dump_json()):
            await self._skip(newer)
            return None
        return newer

    async def _newest(self, posting: Posting, done: set[int]) -> Posting:
        """The newest letter stored for the message this one keeps up to date, when the
        letters after it to its destination replace it, one after the other (`superseded`:
        the same message, nothing else between them): under a backlog a table message
        waiting for the budget is sent once with its newest state, not once per state it
        passed through. The ones replaced are marked sent (`_skip`)."""
        run = [posting]
        for after in await self.storage.pending_after(posting, NEWER):
            if kept_key(after) != kept_key(posting):
                break
            run.append(after)
        later = superseded(run)
        for replaced in run[:-1]:
            if replaced.id not in later:
                return replaced
            await self._skip(replaced)
            done.add(replaced.id)
        return run[-1]

    async def _skip(self, posting: Posting) -> None:
        """A letter a later one in hand replaces whole, or one that would change nothing:
        marked, not sent."""
        await self.storage.posting_sent(posting, None)
        self.skipped += 1
        self._handled.add(posting.id)
        self._resolve([posting.id])

    async def _give_up(self, posting: Posting, outcome: Outcome) -> None:
        if outcome.verdict == "invalid":
            log.error("Discord refused letter %s (%s): %s", posting.id, posting.letter.to,
                      outcome.detail)
        await self.storage.posting_failed(posting, f"{outcome.verdict}: {outcome.detail}"[:500])
        await self.on_undeliverable(posting, outcome)

    def _resolve(self, ids: Iterable[int]) -> None:
        for i in ids:
            future = self._watch.get(i)
            if future is not None and not future.done():
                future.set_result(None)


def superseded(postings: list[Posting]) -> set[int]:
    """The postings of one destination (in order) that a later one makes pointless: an edit
    of the table's living message, or a slot's letter (a member's casebook DM), followed by
    another of the same message that leaves it exactly as it would be without the first
    (`Outgoing.replaces`). Sending them would only show a state already past. Only ever
    under a backlog: when the sender keeps up, each letter is alone in hand. A new living
    message ends the run (the edits before it belong to the message it retires)."""
    later: set[int] = set()
    last: dict[tuple[int | None, str], Posting] = {}
    for posting in postings:
        if posting.letter.living:
            last.pop((posting.table_id, LIVING), None)
        key = kept_key(posting)
        if key is None:
            continue
        before = last.get(key)
        if before is not None and posting.letter.body.replaces(before.letter.body):
            later.add(before.id)
        last[key] = posting
    return later


def behind(postings: list[Posting]) -> list[int]:
    """For each of a destination's letters (in order), the most urgent rank among it and the
    letters after it, which wait for it."""
    ranks: list[int] = []
    for posting in reversed(postings):
        rank = rank_of(posting.letter)
        ranks.append(min(rank, ranks[-1]) if ranks else rank)
    return ranks[::-1]


def kept_key(posting: Posting) -> tuple[int | None, str] | None:
    """The kept message a letter edits in place (the table's living message, or a slot: a
    member's casebook DM), as a key; None for any other letter."""
    letter = posting.letter
    if letter.op == "edit" and letter.target == LIVING:
        return (posting.table_id, LIVING)
    if letter.op == "send" and letter.slot is not None:
        return (posting.table_id, f"slot:{letter.slot}")
    return None


async def sleep_until(event: asyncio.Event, timeout: float | None) -> None:
    """Wait for `event` or `timeout` seconds. (`asyncio.timeout`, not `wait_for`: on Python
    3.11 `wait_for` can swallow a cancellation that arrives as its timeout ends, and a
    stopping loop would then never stop.)"""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            await event.wait()


def polled(timeout: float | None, every: float | None) -> float | None:
    """A sleep's timeout, cut to the polling interval of a shared database."""
    if every is None:
        return timeout
    return every if timeout is None else min(timeout, every)


def _backoff(tries: int) -> float:
    return float(min(60.0, 0.5 * 2**tries))
