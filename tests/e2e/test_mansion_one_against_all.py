"""One Against All through the bot: the fugitive chooses the solution by DM (or `/mansion
hand`), detectives disprove first and the fugitive's disproof burns an Action card; a game
a detective wins, then one the fugitive escapes when the draw pile runs out."""

from __future__ import annotations

from collections.abc import Callable

from engine.mansion import Abandon, Accuse, Action, GameState
from engine.mansion.records import Suggested
from testkit.drive import cut
from testkit.mansion_drive import (
    Driver,
    Via,
    applied,
    ever_text,
    mstate,
    open_mansion,
    play_script,
    user_at,
)
from testkit.mansion_plan import covered, find_seed, next_move, wrong_triple
from testkit.mansion_secrecy import assert_mansion_secrecy
from testkit.world import World

WIN = ("burn", "wrong", "right")
ESCAPE = ("burn",)


def answers_by(where: Via) -> Callable[[GameState, Action, int], Via]:
    def choose(state: GameState, action: Action, i: int) -> Via:
        assert not isinstance(action, Abandon), "the script plays a seat's moves"
        prompt = state.prompt_for(action.seat)
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
        assert game.fugitive is not None
        fugitive = user_at(world, final, game.fugitive)
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
        # the last message of the first game, DMs included: a member who did not act is
        # DMed after the table's message (the REST budget's order)
        first = max(m.id for m in dc.messages)
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
        assert game.fugitive is not None
        name = final.seats[game.fugitive].name
        assert f"🏆 **{name}**, the fugitive, escapes and wins!" in text
        assert assert_mansion_secrecy(world, final, moment, since=first) > 10
    assert cut(world)


async def test_a_one_against_all_series_to_two_solved_crimes(world: World) -> None:
    """A series (first to 2) through the bot: the fugitive deals every game and passes left;
    game 1 the fugitive escapes (every detective accuses wrongly) and scores nothing; game 2
    and game 3 the same seat solves the crime and is the Master Detective."""
    dc = world.dc
    users = world.users[:3]
    async with world.running():
        await open_mansion(world, users, seed=5, series=2, variant="one-against-all")
        driver = Driver(world)

        async def act(action: Action, via: Via = "panel") -> GameState:
            state = mstate(world)
            result = await driver.perform(state, action, via)
            await applied(world, state, result)
            return mstate(world)

        async def choose(via: Via) -> GameState:
            state = mstate(world)
            assert state.phase == "choosing_solution" and state.fugitive is not None
            assert state.dealer == state.fugitive  # "The fugitive is also the dealer"
            return await act(next_move(state), via)

        state = mstate(world)
        first = state.fugitive
        assert first is not None
        # game 1: the fugitive chooses by DM; both detectives accuse wrongly: an escape
        state = await choose("dm")
        assert state.turn == (first + 1) % 3  # the player on the fugitive's left goes first
        while state.round == 1:
            s, v, d = wrong_triple(state)
            state = await act(Accuse(seat=state.turn, suspect=s, vehicle=v, destination=d),
                              "slash")
        game = state.rounds[0]
        assert game.how == "escaped" and game.winner == first == game.dealer
        assert [seat.score for seat in state.seats] == [0, 0, 0]  # an escape solves no crime
        assert state.fugitive == state.dealer == (first + 1) % 3  # the role passes left
        # game 2: the new fugitive chooses by /mansion hand; the first player (on its left)
        # plays a quiet turn; the game-1 fugitive, now a detective, solves it
        state = await choose("hand")
        assert state.turn == (first + 2) % 3
        while state.turn != first or state.prompt_for(first) is None:
            state = await act(next_move(state, (), accuse_when_done=False), "dm")
        assert state.solution is not None
        state = await act(Accuse(seat=first, **state.solution.model_dump()), "panel")
        assert state.rounds[1].how == "solved" and state.rounds[1].winner == first
        assert state.seats[first].score == 1 and not state.is_over
        assert state.fugitive == state.dealer == (first + 2) % 3
        # game 3: the same seat plays first and solves its second crime
        state = await choose("dm")
        assert state.turn == first and state.solution is not None
        moment = cut(world)
        final = await act(Accuse(seat=first, **state.solution.model_dump()), "slash")
        await dc.settle()

    assert final.is_over and final.ended_by == "won" and final.master == first
    assert [r.fugitive for r in final.rounds] == [r.dealer for r in final.rounds] == [
        first, (first + 1) % 3, (first + 2) % 3]
    assert [r.how for r in final.rounds] == ["escaped", "solved", "solved"]
    assert [s.score for s in final.seats] == [2 if i == first else 0 for i in range(3)]
    text = channel_since(world, 0)
    for n in (1, 2, 3):
        assert f"**Game {n}**: 🦹" in text and f"**Game {n} is over**" in text
    assert "Crimes solved so far" in text and "an escape solves none" in text
    assert "the fugitive (and dealer) passes left" in text
    assert f"**{final.seats[first].name}** is the **Master Detective**!" in text
    for i, game in enumerate(final.rounds):  # each game's fugitive chose by DM or hand
        assert game.fugitive is not None
        fugitive = user_at(world, final, game.fugitive)
        assert fugitive is not None
        chose = [m for m in dc.dms(fugitive) if "You are the fugitive" in ever_text(m)]
        assert len(chose) == [r.fugitive for r in final.rounds].count(game.fugitive), i
    assert assert_mansion_secrecy(world, final, moment) > 10
