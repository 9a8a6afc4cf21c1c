"""Ending a game at once through the bot, as a member would: the player to move accuses
what the stored truth says is right."""

from __future__ import annotations

from testkit.drive import state_of
from testkit.mansion_drive import mstate
from testkit.mansion_drive import slash as mansion_slash
from testkit.play import seat_user
from testkit.standin import User
from testkit.world import World


async def solve_thirteen_clues(world: World) -> tuple[User, tuple[str, str, str]]:
    """The member whose turn it is names their own holder and wins: (winner, the cards)."""
    state = state_of(world)
    winner = seat_user(world, state, state.turn)
    p, loc, w = state.seats[state.turn].holder
    await world.dc.slash(winner, world.channel, "13clues", "accuse", person=p, location=loc,
                         weapon=w)
    await world.dc.settle()
    return winner, (p, loc, w)


async def solve_mansion(world: World, players: list[User]) -> User:
    """The member whose turn it is accuses the solution and wins."""
    game = mstate(world)
    assert game.solution is not None
    solver = next(u for u in players if f"u{u.id}" == game.seats[game.turn].id)
    s, v, d = game.solution.cards()
    await mansion_slash(world, solver, "accuse", suspect=s, vehicle=v, destination=d)
    assert mstate(world).phase == "over"
    return solver
