"""Requests the bot refuses: each gets a clear ephemeral answer and changes nothing, neither
in the database nor in the channel."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from engine.thirteen_clues import legal
from engine.thirteen_clues.cards import CARDS
from testkit.drive import (
    Snapshot,
    cid,
    living,
    seat_of,
    slash,
    state_of,
    table_row,
    user_at,
)
from testkit.play import first_of_each, open_table, pass_by_dm, pass_prompt
from testkit.standin import InteractionResult, User
from testkit.world import World

Request = Callable[[], Awaitable[InteractionResult]]


async def refused(world: World, request: Request, *needles: str) -> InteractionResult:
    """Run `request`; it must be answered ephemerally with every needle, and change nothing."""
    before = Snapshot.take(world)
    public = [(m.id, len(m.history)) for m in world.dc.channel_messages(world.channel)]
    result = await request()
    await world.dc.settle(quiet=0.05)
    text = "\n".join(m.text for m in result.messages)
    assert result.ephemeral, f"not ephemeral: {text}"
    for needle in needles:
        assert needle in text, f"{needle!r} not in {text!r}"
    assert Snapshot.take(world) == before, f"the refusal changed the database: {text}"
    after = [(m.id, len(m.history)) for m in world.dc.channel_messages(world.channel)]
    assert after == public, f"the refusal changed the channel: {text}"
    return result


NO_TABLE = "There is no 13 Clues table in this channel"
OVER = "The 13 Clues game in this channel is over"


def slash_request(world: World, user: User, name: str, **options: object) -> Request:
    return lambda: world.dc.slash(user, world.channel, "13clues", name, options=options)


async def test_refusals_without_a_table_and_in_the_lobby(world: World) -> None:
    dc = world.dc
    ann, bea, cid_, dee = world.users

    def cmd(user: User, name: str, **options: object) -> Request:
        return slash_request(world, user, name, **options)

    async with world.running():
        no_table = NO_TABLE
        for command, options in (
            ("join", {}), ("leave", {}), ("start", {}), ("status", {}), ("hand", {}),
            ("casebook", {}), ("log", {}), ("end", {}), ("informant", {"card": "A"}),
            ("ask", {"witness": bea, "about": "red"}),
            ("accuse", {"person": "duke", "location": "park", "weapon": "knife"}),
            ("pass", {"person": "duke", "location": "park", "weapon": "knife"}),
            ("take", {"player": bea}), ("add-ai", {}),
        ):
            await refused(world, cmd(ann, command, **options), no_table)

        await slash(world, ann, "new")
        await refused(world, cmd(bea, "new"), "already open")
        await slash(world, bea, "join")
        await slash(world, cid_, "join")
        await refused(world, cmd(bea, "start"), "Only the host")
        await refused(world, cmd(bea, "add-ai"), "Only the host")
        await refused(world, cmd(bea, "join"), "already seated")
        await refused(world, cmd(ann, "leave"), "You are the host")
        lobby = living(world)
        await refused(world, lambda: dc.click(bea, lobby, cid(lobby, "start")), "Only the host")
        await slash(world, ann, "start")
        await refused(world, cmd(dee, "join"), "already started")
        await refused(world, cmd(bea, "ask", witness=ann, about="red"),
                      "choose the cards to pass")
        await refused(world, cmd(ann, "start"), "already started")


async def test_refusals_in_play_change_nothing(world: World) -> None:
    dc = world.dc
    ann, bea, cid_, dee = world.users
    mod = dc.add_user("Mod", guild_id=world.guild.id, manage_guild=True)
    ch = world.channel

    def cmd(user: User, name: str, **options: object) -> Request:
        return slash_request(world, user, name, **options)

    async with world.running():
        await open_table(world, [ann, bea, cid_])
        for user in (ann, bea, cid_):
            await pass_by_dm(world, user)

        state = state_of(world)
        me = state.turn
        current, nxt, last = (user_at(world, state, (me + k) % 3) for k in range(3))
        assert current is not None and nxt is not None and last is not None
        # out of turn, by command and by button
        await refused(world, cmd(nxt, "ask", witness=current, about="red"),
                      f"It is {current.name}'s turn, not yours")
        await refused(world, cmd(last, "informant", card="A"), "turn, not yours")
        table_msg = living(world)
        await refused(world, lambda: dc.click(nxt, table_msg, cid(table_msg, "ask")),
                      "turn, not yours")
        # a member who is not seated
        await refused(world, cmd(dee, "ask", witness=current, about="red"), "not seated")
        await refused(world, cmd(dee, "hand"), "not seated")
        await refused(world, lambda: dc.click(dee, table_msg, cid(table_msg, "acc")),
                      "not seated")
        # a bad card, a suit out of play, a letter out of range, seen cards under 2020
        await refused(world, cmd(current, "accuse", person="Batman", location="park",
                                 weapon="knife"), "no card called 'Batman'")
        await refused(world, cmd(current, "accuse", person="park", location="park",
                                 weapon="knife"), "is not a person")
        await refused(world, cmd(current, "accuse", person="sailor", location="park",
                                 weapon="knife"), "not in play")
        await refused(world, cmd(current, "ask", witness=nxt, about="gray"),
                      "Gray suit is not in play")
        await refused(world, cmd(current, "ask", witness=nxt, about="the butler"),
                      "not something you can ask about")
        await refused(world, cmd(current, "ask", witness=current, about="red"),
                      "Ask another player")
        await refused(world, cmd(current, "ask", witness=dee, about="red"),
                      "not seated at this table (AI seats: use the Ask button)")
        await refused(world, cmd(current, "take", player=dee),
                      "not seated at this table (AI seats: use the Take a glass button)")
        await refused(world, cmd(current, "ask", witness=nxt, about="red", side="left"),
                      "two-player")
        await refused(world, cmd(current, "ask", witness=nxt, about="red", top_secret=True),
                      "Top Secret variant")
        await refused(world, cmd(current, "informant", card="Z"), "no informant Z")
        await refused(world, cmd(current, "take", player=nxt), "only take a glass")
        seen = state.seats[(me + 1) % 3].holder  # on the next player's holder: visible
        await refused(world, cmd(current, "accuse", person=seen[0], location=seen[1],
                                 weapon=seen[2]), "cannot accuse a card you can see")

        # a stale picker: opened and filled in, then the table moves on by command
        opened = await dc.click(current, table_msg, cid(table_msg, "ask"))
        picker = opened.message
        assert picker is not None
        await dc.select(current, picker, cid(picker, "askw"), [str((me + 1) % 3)])
        await dc.select(current, picker, cid(picker, "asks"), ["green"])
        acc = await dc.click(current, table_msg, cid(table_msg, "acc"))
        assert acc.message is not None
        accuse_picker = acc.message
        person = legal.accusable_cards(state, me)
        await slash(world, current, "ask", witness=nxt, about="blue")
        assert state_of(world).turn == (me + 1) % 3
        stale = await refused(world, lambda: dc.click(current, picker, cid(picker, "askgo")),
                              "out of date")
        assert "out of date" in stale.followups[0].text
        again = await dc.click(current, picker, cid(picker, "askgo"))  # still refused
        assert "out of date" in again.text
        first_person = next(iter(person.values()))[0]
        await refused(
            world,
            lambda: dc.select(current, accuse_picker, cid(accuse_picker, "accp"),
                              [first_person]),
            "out of date",
        )
        old_table_msg = table_msg
        assert not dc.message(old_table_msg.id).custom_ids  # retired: no buttons left

        # host-only end: refused for a player, fine for a moderator who is not seated
        await refused(world, cmd(bea, "end"), "Only the host")
        closed = await slash(world, mod, "end")
        assert "closed" in closed.text
        assert table_row(world)["status"] == "over" and state_of(world).phase == "over"
        assert "ended the game" in dc.last_message(ch).text

        # after the game: every command that acts says the game is over and points to Rematch
        # (the moderator's end too); status, hand and log still show the finished game
        for user, name, options in (
            (ann, "ask", {"witness": bea, "about": "red"}), (ann, "end", {}), (mod, "end", {}),
            (bea, "join", {}),
        ):
            over = await refused(world, cmd(user, name, **options), OVER)
            assert "Rematch" in over.text and "/13clues new" in over.text
        finished = await slash(world, current, "status")
        assert finished.ephemeral and "ended the game" in finished.text
        assert all(c in CARDS for c in state.informants)


async def test_pass_select_after_the_game_ended_is_refused(world: World) -> None:
    ann, bea = world.users[:2]
    async with world.running():
        await open_table(world, [ann, bea])
        await pass_by_dm(world, ann)
        await slash(world, ann, "end")
        prompt = pass_prompt(world, bea)
        select = cid(prompt, "pass")
        dealt = [o["value"] for o in prompt.options(select)]
        await refused(
            world, lambda: world.dc.select(bea, prompt, select, first_of_each(dealt)),
            "This game is over",
        )
        final = state_of(world)
        assert final.phase == "over" and final.seats[seat_of(final, bea)].passed is None


async def test_new_without_send_permission_is_refused(world: World) -> None:
    dc = world.dc
    ann = world.users[0]
    other = dc.add_channel(world.guild.id, "no-bot-posts")
    async with world.running():
        dc.deny_send(other)
        await dc.settle()
        before = Snapshot.take(world)
        result = await dc.slash(ann, other, "13clues", "new")
        await dc.settle()
        assert result.ephemeral and "Send Messages" in result.text, result.text
        assert Snapshot.take(world) == before
        assert not dc.channel_messages(other)
        # once the permission is back, the same command works
        dc.allow_send(other)
        await dc.settle()
        ok = await dc.slash(ann, other, "13clues", "new")
        assert "Table open" in ok.text


async def test_new_in_a_thread_asks_for_send_messages_in_threads(world: World) -> None:
    """A thread's posts take Send Messages in Threads (inherited from its parent), not Send
    Messages: without it `new` is refused and stores nothing; with it alone, it opens."""
    dc = world.dc
    ann = world.users[0]
    parent = dc.add_channel(world.guild.id, "threads-only")
    async with world.running():
        thread = dc.add_thread(parent)
        dc.deny_send(thread)
        await dc.settle()
        before = Snapshot.take(world)
        refused = await dc.slash(ann, thread, "13clues", "new")
        await dc.settle()
        assert refused.ephemeral and "Send Messages in Threads" in refused.text, refused.text
        assert Snapshot.take(world) == before and not dc.channel_messages(thread)
        dc.allow_send(thread)
        dc.deny_send(parent)  # Send Messages taken, Send Messages in Threads kept
        await dc.settle()
        ok = await dc.slash(ann, thread, "13clues", "new")
        await dc.settle()
        assert "Table open" in ok.text, ok.text
        assert any("/13clues join" in m.text for m in dc.channel_messages(thread))
