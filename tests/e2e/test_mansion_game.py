"""Complete Mansion games through the real bot and the local Discord stand-in: every kind
of action, by the turn panel, DM buttons, `/mansion hand` and slash commands."""

from __future__ import annotations

from bot.mansion.words import card_name
from engine.mansion import Abandon, Accuse, Action, GameState, PickCard
from engine.mansion.cards import ACTIONS
from engine.mansion.records import Suggested, Tipped
from testkit.mansion_drive import (
    Driver,
    Via,
    ever_custom_ids,
    ever_text,
    mstate,
    named,
    open_mansion,
    play_script,
    seat_of,
    slash,
    user_at,
)
from testkit.mansion_plan import STANDARD, covered, find_seed
from testkit.mansion_secrecy import assert_mansion_secrecy
from testkit.world import World


def mixed_ways(state: GameState, action: Action, i: int) -> Via:
    """Members use every way in: answers by DM (now and then `/mansion hand`), turns by the
    My turn button or `/mansion turn`, the wrong accusation by `/mansion accuse`."""
    assert not isinstance(action, Abandon), "the script plays a seat's moves"
    prompt = state.prompt_for(action.seat)
    assert prompt is not None
    if isinstance(action, Accuse):
        return "slash" if state.seats[action.seat].eliminated is False and \
            "wrong" not in covered(state.log, [s.clues for s in state.seats]) else "panel"
    if prompt.kind in ("show", "answer_tip", "choose_solution"):
        return "dm"
    if isinstance(action, PickCard):
        ways: tuple[Via, ...] = ("dm", "hand", "panel")
        return ways[i % 3]
    if prompt.kind == "play":
        turns: tuple[Via, ...] = ("panel", "slash", "dmturn")
        return turns[i % 3]
    return "slash" if i % 2 else "panel"


def channel(world: World) -> str:
    return "\n".join(m.text for m in world.dc.channel_messages(world.channel))


async def test_a_standard_game_uses_every_action(world: World) -> None:
    dc = world.dc
    users = world.users[:4]
    seed = find_seed(4)
    async with world.running():
        for user in users:  # a turn's DM alert brings My turn, which some turns are played from
            await dc.slash(user, world.channel, "notify", alert="dm")
        await open_mansion(world, users, seed=seed)
        state = mstate(world)
        me = user_at(world, state, state.turn)
        assert me is not None
        choices = await dc.autocomplete(me, world.channel, "mansion", "accuse",
                                        focused="vehicle", vehicle="air")
        assert [c["value"] for c in choices] == ["balloon", "airliner"]
        notes = await slash(world, me, "notes")
        mine = state.seats[state.turn].clues
        assert notes.ephemeral and "Your notes" in notes.text
        grid = "\n".join(f["value"] for e in notes.embeds for f in e["fields"])
        for card in mine:  # an X in the member's own column (columns in seat order)
            row = next(line for line in grid.splitlines() if line.startswith(card_name("en", card)))
            marks = row[len(card_name("en", card)):].split()
            assert marks[state.turn] == "X" and marks.count("X") == 1, row
        final, moment = await play_script(world, Driver(world), mixed_ways)
        await dc.settle()

    log = final.rounds[-1].log
    # turns were also played from a DM's My turn button (a panel only that member sees)
    assert any(m.is_dm and m.ephemeral for u in users for m in dc.ephemerals(u))
    assert set(STANDARD) <= covered(log, final.rounds[-1].hands)
    assert final.master is not None and final.ended_by == "won"
    text = channel(world)
    for line in ("chooses which card to show", "plays **Snoop**", "All Snoop", "Super Sleuth",
                 "passes a **Private Tip**", "swaps markers with the tray",
                 "accusation — **wrong**", "**right!**", "The hands:"):
        assert line in text, line
    # every refuter chose among their matching cards by DM buttons, even with one card that
    # fits (the table cannot tell one from several), and only the two saw it
    hands = final.rounds[-1].hands
    counts = set()
    for suggestion in (r for r in log if isinstance(r, Suggested)):
        if suggestion.refuter is None:
            continue
        refuter = user_at(world, final, suggestion.refuter)
        assert refuter is not None
        matching = [c for c in hands[suggestion.refuter] if c in suggestion.named.cards()]
        counts.add(min(len(matching), 2))
        prompts = [m for m in dc.dms(refuter)
                   if any(":show:" in c for c in ever_custom_ids(m))]
        shows = [sorted(c.split(":")[-1] for c in ever_custom_ids(m) if ":show:" in c)
                 for m in prompts]
        assert sorted(matching) in shows, (matching, shows)
        suggester = final.seats[suggestion.seat].name
        assert (f"🤔 **{refuter.name}** can disprove it and chooses which card to show "
                f"{suggester}.") in text
        assert f"🃏 **{refuter.name}** showed **{suggester}** a card." in text  # once chosen
    assert counts == {1, 2}
    assert all("You showed" in m.text for u in users for m in dc.dms(u)
               if any(":show:" in c for c in ever_custom_ids(m)))
    # a Private Tip's text and answer reach the two players only
    tip = next(r for r in log if isinstance(r, Tipped))
    for user in users:
        dms = "\n".join(ever_text(m) for m in dc.dms(user))
        party = seat_of(final, user) in (tip.seat, tip.target)
        assert (f"Private Tip: {ACTIONS[tip.card].ask}" in dms) == party, user.name
    assert assert_mansion_secrecy(world, final, moment) > 30
    # the right accusation names the solution to all, with every hand
    assert final.rounds[-1].solution is not None
    assert set(final.rounds[-1].solution.cards()) <= named(dc.last_message(world.channel).text)
