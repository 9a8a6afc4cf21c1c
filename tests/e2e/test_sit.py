"""`/… sit` through the real bot on the stand-in (issue 18, item 9): a member without a seat
asks for an AI's seat in the channel, only the host answers (agree or decline), and the
member plays on to the end with exactly what that seat may see; a member whose seat an AI
plays since they left takes it back at once; every refusal is an ephemeral answer that
changes nothing."""

from __future__ import annotations

import json

from testkit.drive import assert_secrecy, cut, query, state_of, table_row, wait_until
from testkit.mansion_drive import Driver, mstate, open_mansion, play_members
from testkit.mansion_drive import slash as mansion_slash
from testkit.mansion_secrecy import assert_mansion_secrecy
from testkit.play import named_cards
from testkit.standin import Message, User
from testkit.world import World
from tests.e2e.feel_game import Marks, open_and_deal, play_turns


def request_of(world: World, user: User) -> Message:
    """The channel's request for a seat by `user`, with its Agree and Decline buttons."""
    wanted = f":{table_row(world)['id']}:{user.id}"
    return next(m for m in reversed(world.dc.channel_messages(world.channel))
                if any(c.startswith("13c:sitok") or c.startswith("mbm:sitok")
                       for c in m.custom_ids) and any(c.endswith(wanted) for c in m.custom_ids))


def button_of(msg: Message, verb: str) -> str:
    return next(c for c in msg.custom_ids if c.split(":")[1] == verb)


def seats(world: World) -> list[dict[str, object]]:
    return list(json.loads(table_row(world)["seats"]))


def options(world: World) -> dict[str, object]:
    return dict(json.loads(table_row(world)["options"]))


def moves_by(world: World, user: User) -> int:
    rows = query(world, "SELECT actor, action FROM actions WHERE table_id = ?",
                 (table_row(world)["id"],))
    return sum(1 for r in rows if r["actor"] == f"u{user.id}" and r["action"][:1] == "{")


async def test_a_watcher_takes_an_ai_seat_with_the_hosts_agreement_and_plays_to_the_end(
    world: World,
) -> None:
    """13 Clues: Cid watches, asks for the AI's seat; Bea (not the host) cannot agree, Ann
    (the host) agrees; Cid gets that seat's secrets (never his own holder), stops watching,
    plays on to the end; the game replays to its stored end with the seat change in it."""
    dc = world.dc
    ann, bea, cid, dee = world.users
    async with world.running():
        await open_and_deal(world, [ann, bea], ai=1)
        moment = cut(world)
        refused = await dc.slash(ann, world.channel, "13clues", "sit")
        assert refused.ephemeral and "already seated" in refused.text, refused.text
        await dc.slash(cid, world.channel, "13clues", "watch")
        version = table_row(world)["version"]
        asked = await dc.slash(cid, world.channel, "13clues", "sit")
        assert asked.ephemeral and "Asked" in asked.text, asked.text
        await dc.settle()
        assert table_row(world)["version"] == version  # a request leaves the buttons valid
        again = await dc.slash(cid, world.channel, "13clues", "sit")
        assert "already asked" in again.text, again.text
        taken = await dc.slash(dee, world.channel, "13clues", "sit")
        assert "Someone has already asked" in taken.text, taken.text
        request = request_of(world, cid)
        assert request.pings == [ann.id] and "Cid" in request.content
        ai_seat = next(i for i, s in enumerate(state_of(world).seats) if s.id.startswith("ai:"))

        not_host = await dc.click(bea, request, button_of(request, "sitok"))
        assert "Only the host" in not_host.text, not_host.text
        assert dc.message(request.id).custom_ids, "the host can still answer"
        assert not any(s["user_id"] == cid.id for s in seats(world))

        agreed = await dc.click(ann, request, button_of(request, "sitok"))
        await dc.settle()
        assert "✅ The host agreed" in dc.message(request.id).content, agreed.text
        assert dc.message(request.id).custom_ids == []
        state = state_of(world)
        assert state.seats[ai_seat].id == f"u{cid.id}" and state.seats[ai_seat].name == "Cid"
        assert seats(world)[ai_seat] == {"name": "Cid", "user_id": cid.id, "ai_level": None}
        watchers = options(world).get("watchers", [])
        assert isinstance(watchers, list) and cid.id not in watchers
        welcome = next(m for m in dc.dms(cid) if "You now play this seat" in m.text)
        screen = set(state.seats[ai_seat].screen)  # the seat's own secrets come with it
        assert screen and screen <= named_cards(welcome.text), welcome.text
        assert not named_cards(welcome.text) & set(state.seats[ai_seat].holder)

        marks = Marks()
        final = await play_turns(world, marks, questions=12)
        assert final.phase == "over"
        assert any(user == cid.id for _, user in marks.asks), "Cid played on in that seat"
        assert assert_secrecy(world, final, moment) > 0  # never his own holder, as watcher or
        finished = await dc.slash(cid, world.channel, "13clues", "sit")  # player
        assert "is over" in finished.text
        replay = await dc.slash(cid, world.channel, "13clues", "replay")
        assert replay.ephemeral and "cannot be replayed" not in replay.text, replay.text
        assert "Cid" in replay.text


async def test_the_host_declines_and_a_member_who_left_takes_their_seat_back(
    world: World,
) -> None:
    """13 Clues: Dee's request declined (told by DM, nothing changes, she may ask again);
    Bea leaves mid-game and takes her seat back with `sit` alone, no request; refusals."""
    dc = world.dc
    ann, bea, cid, dee = world.users
    async with world.running():
        helped = await dc.slash(dee, world.channel, "help")  # the new commands are named
        for named in ("`/13clues sit`", "`/mansion sit`", "`/13clues watch`", "`/mansion watch`",
                      "`/13clues replay`", "`/mansion replay`", "Download", "`/history`",
                      "`/13clues review`"):
            assert named in helped.text, named
        await open_and_deal(world, [ann, bea, cid])
        none = await dc.slash(dee, world.channel, "13clues", "sit")
        assert "no AI seat" in none.text, none.text
        left = await dc.slash(bea, world.channel, "13clues", "leave")
        assert "left" in left.text.lower(), left.text
        await dc.settle()
        seat = next(i for i, s in enumerate(seats(world)) if s["user_id"] == bea.id)
        assert seats(world)[seat]["ai_level"] is not None

        member = await dc.slash(dee, world.channel, "13clues", "sit", seat="Ann")
        assert "played by a member" in member.text, member.text
        nobody = await dc.slash(dee, world.channel, "13clues", "sit", seat="Zed")
        assert "no seat named 'Zed'" in nobody.text, nobody.text
        asked = await dc.slash(dee, world.channel, "13clues", "sit", seat="bea")
        assert "Asked" in asked.text, asked.text
        await dc.settle()
        request = request_of(world, dee)
        declined = await dc.click(ann, request, button_of(request, "sitno"))
        await dc.settle()
        assert "declined" in dc.message(request.id).content, declined.text
        assert any("declined your request" in m.text for m in dc.dms(dee))
        assert seats(world)[seat]["user_id"] == bea.id and options(world)["sit_requests"] == {}
        assert dc.message(request.id).custom_ids == []  # answered: no buttons left

        back = await dc.slash(bea, world.channel, "13clues", "sit")
        assert "back in your seat" in back.text, back.text
        await dc.settle()
        assert seats(world)[seat] == {"name": "Bea", "user_id": bea.id, "ai_level": None}
        assert any("Bea** is back" in m.text for m in dc.channel_messages(world.channel))
        assert any("You now play this seat" in m.text for m in dc.dms(bea))
        again = await dc.slash(dee, world.channel, "13clues", "sit")
        assert "no AI seat" in again.text, again.text


async def test_a_member_takes_a_mansion_ai_seat_and_plays_to_the_end(world: World) -> None:
    """The Mansion: two AI seats, so the seat is named; the host declines Dee; a non-host
    cannot agree to Cid, the host does after a restart; Cid plays on to the end and is never
    shown what the seat may not know."""
    dc = world.dc
    ann, bea, cid, dee = world.users
    async with world.running():
        await open_mansion(world, [ann, bea], seed=5, ai=(2, "easy"))
        first = dc.channel_messages(world.channel)[0].id
        moment = cut(world)
        unnamed = await mansion_slash(world, cid, "sit")
        assert "Name the seat" in unnamed.text, unnamed.text
        state = mstate(world)
        target, other = (i for i, s in enumerate(state.seats) if s.id.startswith("ai:"))
        offered = await dc.autocomplete(cid, world.channel, "mansion", "sit", focused="seat")
        assert sorted(c["value"] for c in offered) == sorted(
            state.seats[i].name for i in (target, other))  # the AI seats, no member's
        name = state.seats[target].name
        await mansion_slash(world, dee, "sit", seat=state.seats[other].name)
        declined = request_of(world, dee)
        await dc.click(ann, declined, button_of(declined, "sitno"))
        await dc.settle()
        assert "declined" in dc.message(declined.id).content
        assert any("declined your request" in m.text for m in dc.dms(dee))
        assert mstate(world).seats[other].id.startswith("ai:")
        asked = await mansion_slash(world, cid, "sit", seat=name)
        assert "Asked" in asked.text, asked.text
        request = request_of(world, cid)
    async with world.running():  # the request and its buttons survive a restart
        refused = await dc.click(dee, request, button_of(request, "sitok"))
        assert "Only the host" in refused.text, refused.text
        await dc.click(ann, request, button_of(request, "sitok"))
        await wait_until(lambda: mstate(world).seats[target].id == f"u{cid.id}", 10,
                         "the seat taken")
        await dc.settle()
        assert any("You now play this seat" in m.text for m in dc.dms(cid))
        await play_members(world, Driver(world))
        final = mstate(world)
        assert final.phase == "over"
        assert moves_by(world, cid) > 0, "Cid played on in that seat"
        assert assert_mansion_secrecy(world, final, moment, since=first) > 0


async def test_a_member_whose_seat_was_taken_over_cannot_take_another(world: World) -> None:
    """13 Clues: Cid leaves, Dee takes over his seat; Cid saw the AI seat's holder while he
    played, so he may not ask for it (or any seat): refused, ephemeral, nothing changes."""
    dc = world.dc
    ann, bea, cid, dee = world.users
    async with world.running():
        await open_and_deal(world, [ann, bea, cid], ai=1)
        await dc.settle()
        ai = next(i for i, s in enumerate(seats(world)) if s["user_id"] is None)
        cids = next(i for i, s in enumerate(seats(world)) if s["user_id"] == cid.id)
        await dc.slash(cid, world.channel, "13clues", "leave")
        await dc.settle()
        await dc.slash(dee, world.channel, "13clues", "sit", seat=str(seats(world)[cids]["name"]))
        await dc.settle()
        request = request_of(world, dee)
        await dc.click(ann, request, button_of(request, "sitok"))
        await dc.settle()
        assert seats(world)[cids]["user_id"] == dee.id and options(world)["former_players"] == [
            cid.id]
        before = table_row(world)["version"]
        refused = await dc.slash(cid, world.channel, "13clues", "sit",
                                 seat=str(seats(world)[ai]["name"]))
        assert refused.ephemeral and "cannot take one" in refused.text, refused.text
        await dc.settle()
        assert table_row(world)["version"] == before and seats(world)[ai]["user_id"] is None
        assert options(world)["sit_requests"] == {}
