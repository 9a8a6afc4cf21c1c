"""429, 5xx and dropped connections on DMs, channel posts, edits and interaction answers,
some of them after Discord already did what was asked: every message is delivered exactly
once (the outbox retries with a nonce Discord deduplicates by; edits are idempotent)."""

from __future__ import annotations

from collections import Counter

from testkit.drive import query, slash, state_of, user_at, wait_until
from testkit.play import pass_by_dm
from testkit.world import World


def owed(world: World) -> int:
    return int(query(world, "SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'")[0]["n"])


POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
ANSWER = "PATCH /webhooks/{application_id}/{token}/messages/@original"


async def test_storms_deliver_every_message_exactly_once(world: World) -> None:
    dc = world.dc
    ann, bea = world.users[:2]
    storms = [
        dc.faults.server_error(POST, status=503, after_apply=True, times=None,
                               probability=0.2, seed=1),
        dc.faults.drop(POST, after_apply=True, times=None, probability=0.1, seed=2),
        dc.faults.rate_limit(POST, times=None, probability=0.2, seed=3),
        dc.faults.rate_limit(None, global_=True, times=3, probability=0.3, seed=4),
        dc.faults.server_error(EDIT, status=503, times=None, probability=0.2, seed=5),
        dc.faults.drop(ANSWER, after_apply=True, times=None, probability=0.2, seed=6),
    ]
    async with world.running():
        await slash(world, ann, "new")
        await slash(world, bea, "join")
        await slash(world, ann, "add-ai", count=1, level="normal")
        await slash(world, ann, "start")
        for member in (ann, bea):
            await pass_by_dm(world, member)
        await wait_until(lambda: state_of(world).phase == "turns", 10, "play to begin")
        asked = 0
        while state_of(world).phase != "over":
            await dc.settle(timeout=20)
            state = state_of(world)
            user = user_at(world, state, state.turn)
            if user is None or state.phase == "over":
                continue
            if asked < 3:
                other = bea if user == ann else ann
                await slash(world, user, "ask", witness=other, about="red")
                asked += 1
            else:
                p, loc, w = state.seats[state.turn].holder
                await slash(world, user, "accuse", person=p, location=loc, weapon=w)
        # the outbox's own back-off is unknown to the stand-in: wait for nothing to be owed
        await wait_until(lambda: owed(world) == 0, 30, "every letter to be delivered")
        await dc.settle(timeout=20)

    assert sum(s.count for s in storms) > 5, [s.count for s in storms]
    assert dc.deduplicated, "no retry of an already created message: the storm missed"
    letters = query(world, "SELECT id, letter, state FROM outbox")
    assert letters and all(r["state"] == "sent" for r in letters), Counter(
        r["state"] for r in letters)
    salt = query(world, "SELECT value FROM meta WHERE key = 'nonce_salt'")[0]["value"]
    sent = [m for m in dc.messages if m.author_id == dc.bot_user_id and m.nonce is not None]
    by_nonce = Counter(str(m.nonce) for m in sent)
    assert all(n == 1 for n in by_nonce.values()), "two messages for one letter"
    posts = [r for r in letters if '"op":"send"' in r["letter"]]
    for row in posts:
        assert by_nonce[f"{salt}{row['id']}"] == 1, f"letter {row['id']} not delivered once"
