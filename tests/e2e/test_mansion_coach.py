"""The Mansion coach through the real bot: the Hint in the turn panel and the notes at full
assist only, its figures the engine's, a forged Hint click below full refused, and
`/mansion notes why:<card>`."""

from __future__ import annotations

import pytest

from bot.mansion.coaching import why_text
from bot.mansion.notes import CHOICE_ODDS
from bot.mansion.words import card_name
from engine.mansion import choices
from engine.mansion.cards import CLUES
from engine.mansion.coach import advise
from engine.mansion.deduction import solve
from engine.mansion.views import player_view
from engine.mansion.why import explain
from testkit.mansion_drive import (
    Driver,
    applied,
    find,
    living,
    mstate,
    open_mansion,
    user_at,
)
from testkit.mansion_plan import find_seed, next_move
from testkit.world import World


def _has(msg: object, verb: str) -> bool:
    try:
        find(msg, verb)  # type: ignore[arg-type]
    except AssertionError:
        return False
    return True


async def test_the_hint_at_full_assist_ranks_the_players_plays(world: World) -> None:
    dc = world.dc
    async with world.running():
        await open_mansion(world, world.users[:3], seed=find_seed(3), assist="full")
        state = mstate(world)
        turn = user_at(world, state, state.turn)
        other = user_at(world, state, (state.turn + 1) % 3)
        assert turn is not None and other is not None
        panel = (await dc.slash(turn, world.channel, "mansion", "turn")).message
        assert panel is not None and _has(panel, "hint")
        hint = await dc.click(turn, panel, find(panel, "hint"))
        assert hint.ephemeral and "Best next plays" in hint.text, hint.text
        advice = advise(player_view(state, state.turn))
        assert f"({advice.solutions} possible solutions now)" in hint.text
        best = advice.top()[0]
        assert f"leaves {best.left:.1f} of {advice.solutions}" in hint.text
        assert hint.text.count("possible solutions on average") == 3
        assert mstate(world) == state, "a hint changes nothing"

        # another member sending that button's id gets no hint: it is not their prompt
        data = {"custom_id": find(panel, "hint"), "component_type": 2}
        refused = await dc.forge(other, living(world), data)
        assert refused.ephemeral and "Best next" not in refused.text

        # the notes carry the same hint on the player's turn, and none off it
        notes = await dc.slash(turn, world.channel, "mansion", "notes")
        assert "Best next plays" in notes.text
        # and the odds accounting for how players choose, beside the exact ones
        assert CHOICE_ODDS in notes.text
        _, odds = choices.odds(player_view(state, state.turn))
        top = odds.likeliest()[0]
        assert f"{odds.triple_probability(top):>4.0%} **{card_name('en', top[0])}**" in notes.text
        theirs = await dc.slash(other, world.channel, "mansion", "notes")
        assert "Best next" not in theirs.text


@pytest.mark.parametrize("assist", ["off", "bookkeeping"])
async def test_no_hint_below_full_assist(world: World, assist: str) -> None:
    dc = world.dc
    async with world.running():
        await open_mansion(world, world.users[:3], seed=find_seed(3), assist=assist)
        state = mstate(world)
        turn = user_at(world, state, state.turn)
        assert turn is not None
        panel = (await dc.slash(turn, world.channel, "mansion", "turn")).message
        assert panel is not None and not _has(panel, "hint")
        notes = await dc.slash(turn, world.channel, "mansion", "notes")
        assert "Best next" not in notes.text
        assert CHOICE_ODDS not in notes.text and "how players choose" not in notes.text
        # a forged Hint click (the custom_id of the full-assist button) gets no hint
        _, _, table, prompt = find(panel, "card").split(":")[:4]
        data = {"custom_id": f"mbm:hint:{table}:{prompt}", "component_type": 2}
        refused = await dc.forge(turn, panel, data)
        assert refused.ephemeral and "Best next" not in refused.text


async def test_notes_why_explains_a_deduced_card(world: World) -> None:
    dc = world.dc
    async with world.running():
        await open_mansion(world, world.users[:3], seed=find_seed(3), assist="full")
        driver = Driver(world)
        found = None
        for _ in range(8):
            state = mstate(world)
            for seat in range(3):
                view = player_view(state, seat)
                d = solve(view)
                card = next((c for c in CLUES
                             if explain(view, c, d).verdict in ("held", "not_solution")), None)
                if card is not None:
                    found = (state, seat, card)
                    break
            if found is not None:
                break
            # a click deferred as an update returns before its change is stored
            await applied(world, state, await driver.perform(state, next_move(state)))
        assert found is not None, "some seat deduces a card within eight moves"
        state, seat, card = found
        user = user_at(world, state, seat)
        assert user is not None
        view = player_view(state, seat)
        answer = await dc.slash(user, world.channel, "mansion", "notes", why=card_name("en", card))
        assert answer.ephemeral
        assert answer.text == why_text(view, "full", explain(view, card), "en"), answer.text
        assert answer.text.startswith(f"**{card_name('en', card)}** ")
        mine = state.seats[seat].clues[0]
        own = await dc.slash(user, world.channel, "mansion", "notes", why=mine)
        assert own.text == f"**{card_name('en', mine)}** is in your hand."
        unknown = await dc.slash(user, world.channel, "mansion", "notes", why="Unicorn")
        assert unknown.ephemeral and "There is no card called" in unknown.text
