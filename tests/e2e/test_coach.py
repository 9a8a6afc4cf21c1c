"""The coach through the real bot: the Hint at full assist only, and `casebook why`."""

from __future__ import annotations

import pytest

from bot.thirteen_clues.casebook import CHOICE_ODDS
from engine.thirteen_clues import answer_for, choices, legal, player_view
from engine.thirteen_clues.cards import CARDS, cards_in_play, in_subject
from engine.thirteen_clues.coach import advise
from engine.thirteen_clues.deduction import solve
from testkit.drive import living
from testkit.play import first_turn, play_begins, seat_user, true_state
from testkit.world import World


def _labels(world: World) -> list[str]:
    return [str(c.get("label")) for c in living(world).iter_components() if c.get("label")]


async def test_the_hint_at_full_assist_ranks_the_players_moves(world: World) -> None:
    dc = world.dc
    async with world.running():
        state, seat, user = await first_turn(world, assist="full")
        assert "Hint" in _labels(world)
        hint = await dc.click(user, living(world), label="Hint")
        assert hint.ephemeral and "Best next moves" in hint.text, hint.text
        advice = advise(player_view(state, seat))
        assert f"({advice.mysteries} possible mysteries now)" in hint.text
        best = advice.top()[0]
        assert f"leaves {best.left:.1f} of {advice.mysteries}" in hint.text
        assert hint.text.count("possible mysteries on average") == 3
        own = {CARDS[c].name for c in state.seats[seat].holder}
        assert not any(name in hint.text for name in own), "a hint names no card of the holder"

        # another seat's click is refused: the hint is for the player to act
        other = seat_user(world, state, (seat + 1) % 3)
        refused = await dc.click(other, living(world), label="Hint")
        assert refused.ephemeral and "turn" in refused.text

        # the casebook shows the same hint, and the odds accounting for how players choose
        # beside the exact ones: the engine's figures
        book = await dc.slash(user, world.channel, "13clues", "casebook")
        assert "Best next moves" in book.text
        assert CHOICE_ODDS in book.text
        view = player_view(state, seat)
        top = choices.odds(view).likeliest()[0]
        line = f"{choices.odds(view).triple_probability(top):.0%} — " + ", ".join(
            CARDS[c].name for c in top)
        assert line in book.text


@pytest.mark.parametrize("assist", ["off", "bookkeeping"])
async def test_no_hint_below_full_assist(world: World, assist: str) -> None:
    dc = world.dc
    async with world.running():
        _, _, user = await first_turn(world, assist=assist)
        assert "Hint" not in _labels(world)
        book = await dc.slash(user, world.channel, "13clues", "casebook")
        assert "Best next moves" not in book.text and "Hint" not in book.text
        assert CHOICE_ODDS not in book.text and "how players choose" not in book.text
        # a forged Hint click (the custom_id of the full-assist button) gets no hint
        table_id = living(world).custom_ids[0].split(":")[2]
        data = {"custom_id": f"13c:hint:{table_id}:-", "component_type": 2}
        refused = await dc.forge(user, living(world), data)
        assert refused.ephemeral and "Best next" not in refused.text


async def test_why_explains_a_deduced_mark(world: World) -> None:
    dc = world.dc
    async with world.running():
        state, seat, user = await first_turn(world, assist="full")
        witness = seat_user(world, state, (seat + 1) % 3)
        await dc.slash(user, world.channel, "13clues", "ask", witness=witness, about="up_close")
        await dc.settle()
        state = await true_state(world)
        view = player_view(state, seat)
        deduction = solve(view)
        seen = state.seats[(seat + 2) % 3].holder[0]
        answer = await dc.slash(user, world.channel, "13clues", "casebook",
                                why=CARDS[seen].name)
        assert answer.ephemeral
        assert f"**{CARDS[seen].name}** is not on your holder: it is on" in answer.text
        open_card = next(c for c in deduction.unknown if deduction.status(c) == "candidate")
        answer = await dc.slash(user, world.channel, "13clues", "casebook",
                                why=CARDS[open_card].name)
        assert f"**{CARDS[open_card].name}** is still possible" in answer.text
        unknown = await dc.slash(user, world.channel, "13clues", "casebook", why="Unicorn")
        assert "There is no card called" in unknown.text
        choices = await dc.autocomplete(user, world.channel, "13clues", "casebook",
                                        focused="why", why="")
        assert 0 < len(choices) <= 25
        first = {str(c["value"]) for c in choices[:len(deduction.unknown)]}
        assert first == set(deduction.unknown), "the cards the seat cannot see come first"


async def test_why_at_bookkeeping_names_the_zero_answer(world: World) -> None:
    """The current player asks a question the truth answers with 0 about a subject holding a
    card it cannot see; `why` on that card names the answer."""
    dc = world.dc
    async with world.running():
        await play_begins(world, assist="bookkeeping")
        for _ in range(12):
            state = await true_state(world)
            seat = state.turn
            user = seat_user(world, state, seat)
            known = player_view(state, seat).known()
            found = [
                (witness, subject, card)
                for witness in legal.witnesses(state, seat)
                for subject in legal.question_subjects(state)
                if answer_for(state, seat, witness, subject, None) == 0
                for card in cards_in_play(3)
                if card not in known and in_subject(card, subject)
            ]
            if found:
                witness, subject, card = found[0]
                await dc.slash(user, world.channel, "13clues", "ask",
                               witness=seat_user(world, state, witness), about=subject)
                await dc.settle()
                answer = await dc.slash(user, world.channel, "13clues", "casebook",
                                        why=CARDS[card].name)
                assert f"**{CARDS[card].name}** is not on your holder" in answer.text
                assert "answered 0 for" in answer.text, answer.text
                return
            await dc.slash(user, world.channel, "13clues", "ask",
                           witness=seat_user(world, state, (seat + 1) % 3), about="male")
            await dc.settle()
        pytest.fail("no question with a zero answer in twelve turns")


async def test_the_review_after_the_end_by_dm_and_by_command(world: World) -> None:
    dc = world.dc
    players = world.users[:3]
    async with world.running():
        await play_begins(world, assist="off")
        state = await true_state(world)
        asker = seat_user(world, state, state.turn)
        # no review while the game is in play: it names the player's own mystery
        early = await dc.slash(asker, world.channel, "13clues", "review")
        assert early.ephemeral and "once the game is over" in early.text
        witness = seat_user(world, state, (state.turn + 1) % 3)
        await dc.slash(asker, world.channel, "13clues", "ask", witness=witness, about="ranged")
        await dc.settle()
        state = await true_state(world)
        seat = state.turn
        winner = seat_user(world, state, seat)
        before = {u.id: len(dc.dms(u)) for u in players}
        person, location, weapon = state.seats[seat].holder
        await dc.slash(winner, world.channel, "13clues", "accuse", person=person,
                       location=location, weapon=weapon)
        await dc.settle()
        final = await true_state(world)
        assert final.phase == "over"
        for s in range(3):
            user = seat_user(world, final, s)
            reviews = [m for m in dc.dms(user)[before[user.id]:] if "Your review" in m.text]
            assert len(reviews) == 1, (s, [m.text[:80] for m in dc.dms(user)])
            text = reviews[0].text
            own = {CARDS[c].name for c in final.seats[s].holder}
            assert all(name in text for name in own), "the review names the member's mystery"
            others = {CARDS[c].name for o in range(3) if o != s
                      for c in final.seats[o].holder} - own
            assert not any("Your mystery was" in line and any(n in line for n in others)
                           for line in text.splitlines())
            assert "Turn by turn" in text
        asker_seat = next(i for i in range(3) if seat_user(world, final, i) == asker)
        asked = await dc.slash(asker, world.channel, "13clues", "review")
        assert asked.ephemeral and "Your review" in asked.text
        assert "Ask" in asked.text and "coach" in asked.text
        assert all(CARDS[c].name in asked.text for c in final.seats[asker_seat].holder)
    # kept with the finished game: the same review after a restart
    async with world.running():
        again = await dc.slash(asker, world.channel, "13clues", "review")
        assert again.text == asked.text
        # a new lobby in the channel: the game before it is still the one reviewed
        host = next(u for u in players if u != asker)
        await dc.slash(host, world.channel, "13clues", "new")
        await dc.settle()
        later = await dc.slash(asker, world.channel, "13clues", "review")
        assert later.ephemeral and later.text == asked.text, later.text
        # the other game's lobby in the channel: still this game's last one
        await dc.slash(host, world.channel, "13clues", "end")
        await dc.slash(host, world.channel, "mansion", "new")
        await dc.settle()
        other = await dc.slash(asker, world.channel, "13clues", "review")
        assert other.ephemeral and other.text == asked.text, other.text
        stranger = await dc.slash(world.users[-1], world.channel, "13clues", "review")
        assert stranger.ephemeral and "not seated" in stranger.text
