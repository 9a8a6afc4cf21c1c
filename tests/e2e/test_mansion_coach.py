"""The Mansion coach through the real bot: the Hint in the turn panel and the notes at full
assist only, its figures the engine's, and a forged Hint click below full refused."""

from __future__ import annotations

import pytest

from engine.mansion.coach import advise
from engine.mansion.views import player_view
from tests.e2e.conftest import World
from tests.e2e.mansion_drive import find, living, mstate, open_mansion, user_at
from tests.e2e.mansion_plan import find_seed


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
        # a forged Hint click (the custom_id of the full-assist button) gets no hint
        _, _, table, prompt = find(panel, "card").split(":")[:4]
        data = {"custom_id": f"mbm:hint:{table}:{prompt}", "component_type": 2}
        refused = await dc.forge(turn, panel, data)
        assert refused.ephemeral and "Best next" not in refused.text
