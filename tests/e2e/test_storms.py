"""429, 5xx and dropped connections on DMs, channel posts, edits and interaction answers,
some of them after Discord already did what was asked: every message is delivered exactly
once (the outbox retries with a nonce Discord deduplicates by; edits are idempotent)."""

from __future__ import annotations

import json
from collections import Counter

from bot.storage.rows import Row
from testkit.drive import query, slash, state_of, user_at, wait_until
from testkit.play import pass_by_dm
from testkit.world import World


def owed(world: World) -> int:
    return int(query(world, "SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'")[0]["n"])


def created_once(world: World, letters: list[Row], by_nonce: Counter[str]) -> None:
    """Every letter that creates a message created exactly one: each post, and each kept DM
    (a slot: the first of its letters sent posts it, the next ones edit it). `letters`: the
    outbox's rows (id, table_id, letter); `by_nonce`: the bot's messages by nonce."""
    salt = query(world, "SELECT value FROM meta WHERE key = 'nonce_salt'")[0]["value"]
    rows = query(world, "SELECT id, letter, message_id FROM outbox")
    made = {int(r["id"]): r["message_id"] for r in rows if json.loads(r["letter"])["op"] == "send"}
    # a channel post sent as an interaction's followup carries no nonce: each public
    # followup in a channel is the message of exactly one letter, and that letter's alone
    followups = {m.id for m in world.dc.messages if m.webhook_id is not None
                 and m.visible_to is None and m.dm_recipient_id is None
                 and m.interaction_id is not None and m.id not in world.dc.answers()}
    claimed = Counter(made.values())
    assert all(claimed[m] == 1 for m in followups), "a followup posted for no letter, or twice"
    kept: dict[tuple[int, str, str], list[int]] = {}
    for row in letters:
        letter = json.loads(row["letter"])
        if letter["op"] != "send":
            continue
        if letter["slot"] is None:
            once = by_nonce[f"{salt}{row['id']}"] + (made.get(int(row["id"])) in followups)
            assert once == 1, f"letter {row['id']} not delivered once"
        else:
            kept.setdefault((row["table_id"], letter["to"], letter["slot"]), []).append(row["id"])
    for slot, ids in kept.items():
        assert sum(by_nonce[f"{salt}{i}"] for i in ids) == 1, f"kept DM {slot} not posted once"


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
    letters = query(world, "SELECT id, table_id, letter, state FROM outbox")
    assert letters and all(r["state"] == "sent" for r in letters), Counter(
        r["state"] for r in letters)
    sent = [m for m in dc.messages if m.author_id == dc.bot_user_id and m.nonce is not None]
    by_nonce = Counter(str(m.nonce) for m in sent)
    assert all(n == 1 for n in by_nonce.values()), "two messages for one letter"
    created_once(world, letters, by_nonce)
