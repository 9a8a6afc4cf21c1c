"""The casebook at its three assist levels, by slash command, by button and in DMs."""

from __future__ import annotations

from bot.thirteen_clues.casebook import CHOICE_ODDS, choice_text
from engine.thirteen_clues import player_view
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.deduction import solve
from testkit.play import open_table, play_begins, seat_user, true_state
from testkit.standin import Message
from testkit.world import World


def _versions(dms: list[Message]) -> dict[int, int]:
    """Each DM's number of edits so far."""
    return {m.id: len(m.history) for m in dms}


def _struck(text: str, card: str) -> bool:
    return f"~~{CARDS[card].name}~~" in text


async def test_full_assist_shows_the_exact_deduction_and_dms_updates(world: World) -> None:
    dc = world.dc
    async with world.running():
        await play_begins(world, assist="full")
        state = await true_state(world)
        seat = state.turn
        user = seat_user(world, state, seat)
        book = await dc.slash(user, world.channel, "13clues", "casebook")
        assert book.ephemeral and "Your casebook" in book.text
        deduction = solve(player_view(state, seat))
        assert f"Possible mysteries: {len(deduction.triples)}" in book.text
        for card in deduction.unknown:
            if deduction.status(card) == "candidate":
                assert f"**{CARDS[card].name}** {deduction.probability(card):.0%}" in book.text
        for other in state.seats[(seat + 1) % 3].holder:
            assert _struck(book.text, other)

        # after a public answer (the game's first), the casebook DM of the seat to act is
        # brought up to date if the answer changed it; the others (the asker too, once its
        # turn is over) wait for their turn (the REST budget)
        before = {u.id: _versions(dc.dms(u)) for u in world.users[:3]}
        witness = seat_user(world, state, (seat + 1) % 3)
        await dc.slash(user, world.channel, "13clues", "ask", witness=witness, about="male")
        await dc.settle()
        after = await true_state(world)
        for s in range(3):
            target = seat_user(world, after, s)
            changed = set(solve(player_view(after, s)).triples) != set(
                solve(player_view(state, s)).triples
            )
            # a new DM, or the kept DM (the deal's, then the case file's) edited
            new_dms = [m for m in dc.dms(target)
                       if before[target.id].get(m.id) != len(m.history)]
            books = [m for m in new_dms if "Your casebook" in m.text]
            assert bool(books) == (s == after.turn and changed), (s, changed)
            for dm in books:  # with the odds accounting for how players choose, apart
                odds = choice_text("en", player_view(after, s))
                assert odds is None or (CHOICE_ODDS in dm.text and odds in dm.text)


async def test_bookkeeping_crosses_out_what_the_seat_sees(world: World) -> None:
    dc = world.dc
    async with world.running():
        await play_begins(world, assist="bookkeeping")
        state = await true_state(world)
        for seat in range(3):
            user = seat_user(world, state, seat)
            living = dc.channel_messages(world.channel)[-1]
            book = await dc.click(user, living, label="Casebook")
            assert book.ephemeral and "bookkeeping" in book.text
            seen = set(state.seats[seat].screen)
            for other, s in enumerate(state.seats):
                if other != seat:
                    seen |= set(s.holder)
            for card in seen:
                assert _struck(book.text, card)
            for card in state.seats[seat].holder:
                assert not _struck(book.text, card), "the own holder can never be crossed out"


async def test_assist_off_keeps_the_players_own_marks(world: World) -> None:
    dc = world.dc
    async with world.running():
        await play_begins(world, assist="off")
        state = await true_state(world)
        user = seat_user(world, state, 0)
        book = await dc.slash(user, world.channel, "13clues", "casebook")
        assert "cross out cards yourself" in book.text
        visible = [c for c in state.seats[1].holder if CARDS[c].category == Category.PERSON]
        assert not _struck(book.text, visible[0])
        assert book.message is not None
        select = next(c for c in book.message.custom_ids if c.endswith(":person"))
        marked = await dc.select(user, book.message, select, visible)
        assert _struck(marked.text, visible[0])
    # the marks are stored per seat: they survive a restart
    async with world.running():
        again = await dc.slash(user, world.channel, "13clues", "casebook")
        assert _struck(again.text, visible[0])
        other = await dc.slash(seat_user(world, state, 1), world.channel, "13clues", "casebook")
        assert not _struck(other.text, visible[0]) or visible[0] in state.seats[1].screen


async def test_full_assist_casebook_during_the_pass_shows_bookkeeping(world: World) -> None:
    """Before every card holder is filled there is nothing to deduce yet: the casebook
    answers (with the bookkeeping marks) instead of failing."""
    dc = world.dc
    async with world.running():
        players = world.users[:3]
        await open_table(world, players, assist="full")
        book = await dc.slash(players[1], world.channel, "13clues", "casebook")
        assert book.ephemeral and "Your casebook" in book.text, book.text
        assert "after the pass" in book.text
        await dc.slash(players[0], world.channel, "13clues", "end")
        after = await dc.slash(players[1], world.channel, "13clues", "casebook")
        assert after.ephemeral and "Your casebook" in after.text, after.text
