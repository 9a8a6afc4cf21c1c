"""The transport sends a letter's pictures as Discord's multipart upload, drawn by the
registry; a retried send uploads the very same bytes; a letter sent without a drawer, or
whose picture cannot be drawn, goes out as its text alone."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Hashable
from typing import Any

import discord
import pytest

from bot.drawings import Drawings
from bot.messages import Outgoing
from bot.messages import Picture as PictureRef
from bot.models import Letter
from bot.pacing import KEPT, OWN, PROMPT, Pacer
from bot.thirteen_clues.game import GAME
from bot.transport import OPENING, Outcome, Transport
from testkit.letters import play


class FakeResponse:
    status = 500
    reason = "Internal Server Error"


class FakeHTTP:
    """Records what the transport asks discord.py's HTTP client; fails the first `fail`."""

    def __init__(self, fail: int = 0) -> None:
        self.calls: list[dict[str, Any]] = []
        self.fail = fail

    async def request(self, route: Any, **kwargs: Any) -> Any:
        call: dict[str, Any] = {"route": f"{route.method} {route.path}"}
        if "form" in kwargs:
            form = list(kwargs["form"])
            call["payload"] = json.loads(form[0]["value"])
            call["files"] = [(f["name"], f["filename"], f["content_type"], f["value"].read())
                             for f in form[1:]]
        else:
            call["payload"] = kwargs["json"]
        self.calls.append(call)
        if len(self.calls) <= self.fail:
            raise discord.HTTPException(FakeResponse(), {"code": 0, "message": "boom"})
        return {"id": "42"}

    async def start_private_message(self, user_id: int) -> dict[str, Any]:
        return {"id": str(user_id + 1)}


class FakeClient:
    application_id = 1

    def __init__(self, fail: int = 0) -> None:
        self.http = FakeHTTP(fail)


def send(transport: Transport, letter: Letter, nonce: str) -> Outcome:
    """As the sender does it: the pictures drawn first, then the letter sent with them."""
    async def both() -> Outcome:
        return await transport.deliver(letter, nonce, None, await transport.prepare(letter))

    return asyncio.run(both())


def reveal_letter() -> Letter:
    for sent in play(3, 5, hands=False, max_steps=10):
        for ref in sent.body.pictures:
            if ref.kind == "13c.reveal":
                return Letter.post(2, sent.body)
    raise AssertionError("no reveal")


def test_a_retried_send_uploads_the_same_bytes() -> None:
    letter = reveal_letter()
    client = FakeClient(fail=1)
    transport = Transport(client, Drawings.of([GAME]))  # type: ignore[arg-type]
    first = send(transport, letter, "n1")
    second = send(transport, letter, "n1")
    assert (first.verdict, second.verdict) == ("retry", "sent")
    one, two = client.http.calls
    assert one["files"] == two["files"] and one["payload"] == two["payload"]
    [(field, filename, content_type, png)] = one["files"]
    assert (field, filename, content_type) == ("files[0]", "13clues-reveal.png", "image/png")
    assert png.startswith(b"\x89PNG")
    payload = one["payload"]
    assert payload["attachments"][0]["filename"] == "13clues-reveal.png"
    assert "13 Clues reveal" in payload["attachments"][0]["description"]
    assert payload["embeds"][0]["image"] == {"url": "attachment://13clues-reveal.png"}
    assert payload["nonce"] == "n1" and payload["enforce_nonce"] is True
    assert "image" not in letter.body.embeds[0], "the stored letter is left as it was"


@pytest.mark.parametrize("drawings", [None, "broken"])
def test_without_its_pictures_a_letter_is_its_text(
    drawings: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    body = Outgoing(content="your cards", embeds=[{"title": "case"}], pictures=[
        PictureRef(kind="13c.view", data={"seat": "?"}, filename="v.png", embed=0)])
    client = FakeClient()
    draw = Drawings.of([GAME]) if drawings else None
    transport = Transport(client, draw)  # type: ignore[arg-type]
    outcome = send(transport, Letter.dm(7, body), "n2")
    assert outcome.verdict == "sent"
    [call] = client.http.calls
    assert "files" not in call and call["payload"]["embeds"] == [{"title": "case"}]
    assert call["payload"]["content"] == "your cards"
    if drawings:
        assert "cannot draw a picture of kind 13c.view" in caplog.text


def test_an_edit_that_drops_pictures_says_so() -> None:
    body = Outgoing(content="You pass…", drop_pictures=True)
    assert body.payload()["attachments"] == []
    assert body.reply_kwargs()["attachments"] == []
    assert "attachments" not in Outgoing(content="keep").payload()


def test_a_dm_waits_for_the_opening_of_its_channel_ahead_instead_of_opening_it_again() -> None:
    """A seated member's DM channel is opened ahead (`open_dm_soon`); the deal's DM that needs
    it meanwhile waits for that opening: one request, not two (issue 21's budget)."""
    opened: list[int] = []

    class SlowHTTP(FakeHTTP):
        async def start_private_message(self, user_id: int) -> dict[str, Any]:
            opened.append(user_id)
            await asyncio.sleep(0.05)
            return await super().start_private_message(user_id)

    async def both() -> Outcome:
        client = FakeClient()
        client.http = SlowHTTP()
        transport = Transport(client)  # type: ignore[arg-type]
        transport.open_dm_soon(7)
        return await transport.deliver(Letter.dm(7, Outgoing(content="your cards")), "n3",
                                       None, [])

    assert asyncio.run(both()).verdict == "sent"
    assert opened == [7]


def test_a_dms_channel_is_opened_while_it_is_prepared_not_in_a_sending_slot() -> None:
    """The sender prepares a letter outside its sending slots: a DM to a member whose
    channel is not open yet waits for the opening (a request under the global limit) there,
    not in a slot that a table post outside the limit needs."""
    opened: list[int] = []

    class CountingHTTP(FakeHTTP):
        async def start_private_message(self, user_id: int) -> dict[str, Any]:
            opened.append(user_id)
            return await super().start_private_message(user_id)

    async def prepared_then_sent() -> tuple[list[int], Outcome]:
        client = FakeClient()
        client.http = CountingHTTP()
        transport = Transport(client)  # type: ignore[arg-type]
        letter = Letter.dm(7, Outgoing(content="your cards"))
        drawn = await transport.prepare(letter)
        before = list(opened)
        return before, await transport.deliver(letter, "n4", None, drawn)

    before, outcome = asyncio.run(prepared_then_sent())
    assert before == [7] and opened == [7] and outcome.verdict == "sent"


def test_dm_channels_are_opened_a_few_at_a_time_most_urgent_first() -> None:
    """discord.py sends every DM channel's opening on one rate-limit bucket: budget handed to
    more openings than go at once waited there, then went out together past the global
    limit. So they take their turns here (`OPENING` at once), the acting member's first,
    and an opening begun ahead is hurried by the member's own DM that waits for it."""
    release = asyncio.Event()
    opened: list[int] = []
    flying = [0, 0]  # now, most
    paced: list[int] = []

    class Recording(Pacer):
        async def take(self, priority: int, key: Hashable | None = None) -> bool:
            paced.append(priority)
            return False

    class GatedHTTP(FakeHTTP):
        async def start_private_message(self, user_id: int) -> dict[str, Any]:
            flying[0] += 1
            flying[1] = max(flying)
            await release.wait()
            opened.append(user_id)
            flying[0] -= 1
            return await super().start_private_message(user_id)

    async def prepared() -> None:
        client = FakeClient()
        client.http = GatedHTTP()
        transport = Transport(client, pacer=Recording())  # type: ignore[arg-type]
        body = Outgoing(content="news")
        first = [asyncio.create_task(transport.prepare(Letter.dm(u, body, later=True)))
                 for u in range(1, OPENING + 1)]
        await asyncio.sleep(0.01)
        later = [asyncio.create_task(transport.prepare(Letter.dm(u, body, later=True)))
                 for u in (11, 12)]
        acting = asyncio.create_task(transport.prepare(Letter.dm(13, body)))
        transport.open_dm_soon(14)  # seated: opened ahead, as a prompt's
        await asyncio.sleep(0.01)
        own = asyncio.create_task(transport.prepare(Letter.dm(14, body, own=True)))
        transport.open_dm_soon(15)
        await asyncio.sleep(0.01)  # the member's own DM hurries the opening begun ahead
        transport.hurry("u:15", OWN)  # the sender's: an own DM stored behind 15's letters
        release.set()
        await asyncio.gather(*first, *later, acting, own)

    asyncio.run(prepared())
    assert flying[1] == OPENING
    assert opened == [*range(1, OPENING + 1), 14, 15, 13, 11, 12]
    # in its turn an opening is paced at its letter's rank (the member's own DM's, hurried)
    assert paced == [KEPT, KEPT, OWN, OWN, PROMPT, KEPT, KEPT]


def test_an_urgent_opening_hurries_the_budget_of_the_openings_holding_the_turns() -> None:
    """Openings held in their turns wait for the budget at their letters' rank; one that
    can wait (a watcher's, another member's news) must not keep the acting member's opening
    waiting for a turn behind a prompt's budget: it goes at the waiting member's rank."""
    hold = asyncio.Event()  # the budget is spent until the test lets it go
    order: list[str] = []

    async def scenario() -> None:
        pacer = Pacer(rate=20.0, gate=lambda: hold)
        client = FakeClient()
        transport = Transport(client, pacer=pacer)  # type: ignore[arg-type]
        body = Outgoing(content="news")

        async def prompt() -> None:
            await pacer.take(PROMPT)
            order.append("a prompt")

        async def opened(user: int, *, later: bool = False, own: bool = False) -> None:
            await transport.prepare(Letter.dm(user, body, later=later, own=own))
            order.append(f"opened {user}")

        holders = [asyncio.create_task(opened(u, later=True)) for u in range(1, OPENING + 1)]
        await asyncio.sleep(0.01)  # both hold a turn and wait for the budget
        waiting = asyncio.create_task(prompt())
        await asyncio.sleep(0.01)
        own = asyncio.create_task(opened(9, own=True))  # waits for a turn
        await asyncio.sleep(0.01)
        hold.set()
        await asyncio.gather(*holders, waiting, own)
        await pacer.close()

    asyncio.run(scenario())
    assert order == [*(f"opened {u}" for u in range(1, OPENING + 1)), "opened 9", "a prompt"]
