"""A hundred interactions on one table at the same moment: the same button, other buttons,
slash commands, from seated and unseated members. Exactly one of them may change the game (the
current player's first action to reach the table lock); every other one is refused clearly and
ephemerally, and every one is answered within Discord's 3 s (the stand-in enforces it and fails
the test on any late answer)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable

from engine.thirteen_clues import legal
from testkit.drive import (
    Snapshot,
    action_count,
    cid,
    living,
    member_at,
    state_of,
    wrong_accusation,
)
from testkit.play import open_table, pass_by_dm
from testkit.standin import InteractionResult, User
from testkit.world import World

STORM = 100
REFUSALS = (
    "out of date",  # a button made for the version before the one action
    "turn, not yours",  # anyone but the player whose turn it is
    "not seated",  # members without a seat
    "already started",  # the lobby's commands
    "already open",  # `new` where a table plays
    "Only the host",
)


async def test_a_hundred_interactions_at_once_change_the_game_once(world: World) -> None:
    dc = world.dc
    players = world.users  # Ann, Bea, Cid, Dee
    outsiders = [dc.add_user(f"Out{i}", guild_id=world.guild.id) for i in range(4)]
    async with world.running():
        await open_table(world, players)
        for user in players:
            await pass_by_dm(world, user)
        await dc.settle()
        state = state_of(world)
        assert state.phase == "turns"
        me = state.turn
        current, nxt = member_at(world, state, me), member_at(world, state, (me + 1) % 4)
        others = [member_at(world, state, (me + k) % 4) for k in (2, 3)]
        table_msg = living(world)
        # the current player's Ask picker, filled in and ready to be clicked many times
        opened = await dc.click(current, table_msg, cid(table_msg, "ask"))
        picker = opened.message
        assert picker is not None
        await dc.select(current, picker, cid(picker, "askw"), [str((me + 2) % 4)])
        await dc.select(current, picker, cid(picker, "asks"), ["red"])
        await dc.settle()
        before = Snapshot.take(world)
        actions = action_count(world)
        wrong = wrong_accusation(state, me)
        letter = legal.informant_letters(state)[0]
        witness = others[0]

        def slash(user: User, name: str, **options: object) -> Awaitable[InteractionResult]:
            return dc.slash(user, world.channel, "13clues", name, wait=False, options=options)

        def click(user: object, msg: object, verb: str) -> Awaitable[InteractionResult]:
            return dc.click(user, msg, cid(msg, verb), wait=False)  # type: ignore[arg-type]

        storm: list[tuple[str, Awaitable[InteractionResult]]] = []
        # the current player: one turn, many ways to take it
        storm += [("act", click(current, picker, "askgo")) for _ in range(20)]
        storm += [("act", slash(current, "ask", witness=witness, about=about))
                  for about in ("blue", "green", "yellow", "male", "female") * 2]
        storm += [("act", slash(current, "accuse", person=wrong[0], location=wrong[1],
                               weapon=wrong[2])) for _ in range(5)]
        storm += [("act", slash(current, "informant", card=letter)) for _ in range(5)]
        storm += [("open", click(current, table_msg, "ask")) for _ in range(5)]
        # the next player acts on the table message made before the one action
        storm += [("refuse", click(nxt, table_msg, verb)) for verb in ("ask", "acc") * 5]
        # the other seats, out of turn, by command and by button
        for user in others:
            storm += [("refuse", slash(user, "ask", witness=current, about="red"))]
            storm += [("refuse", slash(user, "accuse", person=wrong[0], location=wrong[1],
                                       weapon=wrong[2]))]
            storm += [("refuse", click(user, table_msg, "inf"))]
            storm += [("refuse", slash(user, "start"))]
        # members without a seat, and the lobby commands of a game in play
        for user in outsiders:
            storm += [("refuse", slash(user, "join")), ("refuse", slash(user, "hand")),
                      ("refuse", click(user, table_msg, "ask")),
                      ("refuse", slash(user, "ask", witness=current, about="red"))]
        storm += [("refuse", slash(players[0], "new"))]
        # lookers-on: read-only commands and buttons of seated members
        looks = [slash(u, name) for u in players for name in ("status", "hand", "log",
                                                              "casebook")]
        looks += [click(u, table_msg, verb) for u in players for verb in ("hand", "book")]
        for request in looks[STORM - len(storm):]:
            request.close()  # type: ignore[attr-defined]  # not needed: never started
        storm += [("look", c) for c in looks[:STORM - len(storm)]]
        assert len(storm) == STORM, len(storm)

        fired = await asyncio.gather(*(request for _, request in storm))
        results = await asyncio.gather(*(dc.complete(r, timeout=10.0) for r in fired))
        await dc.settle()

        kinds = [kind for kind, _ in storm]
        texts = ["\n".join(m.text for m in r.messages if m.text) for r in results]
        assert all(r.callback_type is not None for r in results)
        assert all(r.latency is not None and r.latency < 3.0 for r in results)
        assert all(r.ephemeral for r in results), [t for r, t in zip(results, texts, strict=True)
                                                  if not r.ephemeral]
        # exactly one action, answered as such once; the game moved on by exactly one turn
        successes = [t for k, t in zip(kinds, texts, strict=True)
                     if k == "act" and not any(no in t for no in REFUSALS)]
        assert len(successes) == 1, Counter(texts)
        assert action_count(world) == actions + 1
        after = state_of(world)
        assert after.turn == (me + 1) % 4 or after.phase == "over"
        assert Snapshot.take(world) != before
        # everything else was refused with a reason, or only looked
        for kind, text in zip(kinds, texts, strict=True):
            if kind == "refuse" or (kind == "act" and text not in successes):
                assert any(no in text for no in REFUSALS), text
            elif kind == "look":  # status, hand, log, casebook: shown, whatever the moment
                assert text and not any(no in text for no in REFUSALS), text
            elif kind == "open":
                assert "Question a witness" in text or "out of date" in text, text
        assert not world.unexpected_errors()
