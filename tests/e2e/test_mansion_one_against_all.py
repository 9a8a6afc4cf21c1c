"""One Against All through the bot: the fugitive chooses the solution by DM (or `/mansion
hand`), detectives disprove first and the fugitive's disproof burns an Action card; a game
a detective wins, then one the fugitive escapes when the draw pile runs out."""

from __future__ import annotations

from engine.mansion import Action, GameState
from engine.mansion.records import Suggested
from tests.e2e.conftest import World
from tests.e2e.drive import cut
from tests.e2e.mansion_drive import (
    Driver,
    Via,
    applied,
    ever_text,
    mstate,
    open_mansion,
    play_script,
    user_at,
)
from tests.e2e.mansion_plan import covered, find_seed, next_move
from tests.e2e.mansion_secrecy import assert_mansion_secrecy

WIN = ("burn", "wrong", "right")
ESCAPE = ("burn",)


def answers_by(where: Via):
    def choose(state: GameState, action: Action, i: int) -> Via:
        prompt = state.prompt_for(action.seat)  # type: ignore[union-attr]
        assert prompt is not None
        if prompt.kind in ("choose_solution", "show", "answer_tip", "pick"):
            return where
        return "panel" if i % 2 else "slash"

    return choose


def channel_since(world: World, since: int) -> str:
    return "\n".join(m.text for m in world.dc.channel_messages(world.channel) if m.id > since)


async def test_one_against_all_ends_each_way(world: World) -> None:
    dc = world.dc
    users = world.users[:4]
    async with world.running():
        # a detective solves it
        await open_mansion(world, users, seed=find_seed(4, WIN, variant="one_against_all"),
                           variant="one-against-all")
        final, moment = await play_script(world, Driver(world), answers_by("dm"), goals=WIN)
        await dc.settle()
        game = final.rounds[-1]
        fugitive = user_at(world, final, game.fugitive)  # type: ignore[arg-type]
        assert fugitive is not None
        assert game.how == "solved" and final.master != game.fugitive
        assert {"burn", "wrong", "right"} <= covered(game.log, game.hands)
        text = channel_since(world, 0)
        assert "is the **fugitive**" in text and "has chosen the solution" in text
        assert "the top Action card burns" in text and "(the fugitive)" in text
        chose = "\n".join(ever_text(m) for m in dc.dms(fugitive))
        assert "You are the fugitive" in chose and "You chose the solution" in chose
        assert game.solution is not None
        assert game.solution.cards() == ("scarlet", "balloon", "niagara_falls")  # the DM's
        burned = next(r for r in game.log if isinstance(r, Suggested) and r.burned)
        assert burned.refuter == game.fugitive and burned.passed  # detectives first
        assert assert_mansion_secrecy(world, final, moment) > 10

        # the fugitive escapes: a detective must draw from an empty pile
        first = dc.channel_messages(world.channel)[-1].id
        await open_mansion(world, users, seed=find_seed(4, ESCAPE, variant="one_against_all",
                                                      max_moves=400),
                           variant="one-against-all")
        driver = Driver(world)
        state = mstate(world)
        assert state.phase == "choosing_solution" and state.fugitive is not None
        fugitive = user_at(world, state, state.fugitive)
        assert fugitive is not None
        chosen = await driver.perform(state, next_move(state, ESCAPE), "hand")
        await applied(world, state, chosen)
        refused = await dc.slash(fugitive, world.channel, "mansion", "turn")  # no turns
        assert refused.ephemeral and "not your turn" in refused.text, refused.text
        final, moment = await play_script(world, driver, answers_by("hand"),
                                          goals=ESCAPE, limit=400)
        await dc.settle()
        game = final.rounds[-1]
        assert game.how == "escaped" and game.winner == game.fugitive
        assert final.master is None and final.ended_by == "escaped"  # no crime solved
        text = channel_since(world, first)
        assert "must draw, but the draw pile is empty" in text and "the fugitive escapes" in text
        name = final.seats[game.fugitive].name  # type: ignore[index]
        assert f"🏆 **{name}**, the fugitive, escapes and wins!" in text
        assert assert_mansion_secrecy(world, final, moment, since=first) > 10
    assert cut(world)
