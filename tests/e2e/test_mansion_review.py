"""The Mansion review through the real bot: refused while the game is in play, a DM to each
member at the end (their own review), `/mansion review` later (ephemeral, the same after a
restart, from the stored game), refused to a member who did not play; in a series, each
game reviewed at its own end and `/mansion review game:<k>`. As 13 Clues' review,
it is given at every assist level: it teaches after the game, it gives no hint during it."""

from __future__ import annotations

from bot.mansion.reviewing import REVIEWER, review_letter
from bot.mansion.words import card_label, card_name
from bot.messages import Outgoing
from testkit.mansion_drive import Driver, mstate, open_mansion, play_script, seat_of, user_at
from testkit.mansion_plan import find_seed
from testkit.standin import Message
from testkit.world import World

SERIES_SEED = 31
"""A scripted series of 3 members whose first to two wins takes two games."""


def _embed_text(out: Outgoing) -> str:
    return "\n".join(str(e.get("description") or "") for e in out.embeds)


def _reviews(world: World, user: object, since: int) -> list[Message]:
    return [m for m in world.dc.dms(user)[since:] if "Your review" in m.text]  # type: ignore[arg-type]


async def test_the_review_after_the_end_by_dm_and_by_command(world: World) -> None:
    dc = world.dc
    players = world.users[:3]
    async with world.running():
        await open_mansion(world, players, seed=find_seed(3), assist="off")
        state = mstate(world)
        first = user_at(world, state, state.turn)
        assert first is not None
        early = await dc.slash(first, world.channel, "mansion", "review")
        assert early.ephemeral and "once the game is over" in early.text, early.text
        assert mstate(world) == state, "a refused review changes nothing"
        before = {u.id: len(dc.dms(u)) for u in players}
        final, _ = await play_script(world, Driver(world))
        await dc.settle()
        assert final.phase == "over"
        solution = final.rounds[-1].solution
        assert solution is not None
        for seat in range(3):
            user = user_at(world, final, seat)
            assert user is not None
            reviews = _reviews(world, user, before[user.id])
            assert len(reviews) == 1, (seat, [m.text[:80] for m in dc.dms(user)])
            own = review_letter(final, seat, "en")
            assert own is not None
            assert _embed_text(own) in reviews[0].text, "the member's own review"
            assert all(card_name("en", c) in reviews[0].text for c in solution.cards())
            assert "Turn by turn" in reviews[0].text
        asked = await dc.slash(first, world.channel, "mansion", "review")
        assert asked.ephemeral and "Your review" in asked.text
        first_seat = next(i for i in range(3) if user_at(world, final, i) == first)
        mine = review_letter(final, first_seat, "en")
        assert mine is not None and _embed_text(mine) in asked.text
        assert "you:" in asked.text and "possible" in asked.text
    # kept with the finished game: the same review after a restart
    async with world.running():
        again = await dc.slash(first, world.channel, "mansion", "review")
        assert again.text == asked.text
        stranger = await dc.slash(world.users[-1], world.channel, "mansion", "review")
        assert stranger.ephemeral and "not seated" in stranger.text


async def test_each_game_of_a_series_is_reviewed_and_kept(world: World) -> None:
    """A series of two games: each member gets one review DM at the end of each game (game
    1's while game 2 is played); `/mansion review game:<k>` shows that game's review (each
    naming its own solution), refuses a game not over or never played, and still answers
    after a restart."""
    dc = world.dc
    players = world.users[:3]
    async with world.running():
        await open_mansion(world, players, seed=SERIES_SEED, series=2, assist="off")
        before = {u.id: len(dc.dms(u)) for u in players}
        middle, _ = await play_script(world, Driver(world),
                                      until=lambda s: len(s.rounds) == 1)
        assert middle.phase == "playing" and middle.round == 2
        for seat in range(3):
            user = user_at(world, middle, seat)
            assert user is not None
            reviews = _reviews(world, user, before[user.id])
            assert len(reviews) == 1, (seat, [m.text[:80] for m in dc.dms(user)])
            own = REVIEWER.letter(middle, seat, "en", 1)
            assert own is not None and _embed_text(own) in reviews[0].text
            assert "game 1 of the series" in reviews[0].text
        ann = user_at(world, middle, 0)
        assert ann is not None
        playing = await dc.slash(ann, world.channel, "mansion", "review", game=2)
        assert playing.ephemeral and "no finished game 2" in playing.text, playing.text
        first = await dc.slash(ann, world.channel, "mansion", "review")
        assert first.ephemeral and "game 1 of the series" in first.text
        assert mstate(world) == middle, "a review changes nothing"
        final, _ = await play_script(world, Driver(world))
        await dc.settle()
        assert final.phase == "over" and len(final.rounds) == 2
        for seat in range(3):
            user = user_at(world, final, seat)
            assert user is not None
            reviews = _reviews(world, user, before[user.id])
            assert len(reviews) == 2, (seat, [m.text[:80] for m in dc.dms(user)])
            for game, got in enumerate(reviews, start=1):
                own = REVIEWER.letter(final, seat, "en", game)
                assert own is not None and _embed_text(own) in got.text, (seat, game)
        seat = seat_of(final, ann)
        shown = {}
        for game in (1, 2):
            asked = await dc.slash(ann, world.channel, "mansion", "review", game=game)
            own = REVIEWER.letter(final, seat, "en", game)
            assert asked.ephemeral and own is not None and _embed_text(own) in asked.text
            assert f"game {game} of the series" in asked.text
            solution = final.rounds[game - 1].solution
            assert solution is not None
            assert f"The solution was {' · '.join(card_label('en', c) for c in solution.cards())}" \
                in asked.text
            shown[game] = asked.text
        assert shown[1] != shown[2]
        last = await dc.slash(ann, world.channel, "mansion", "review")
        assert last.text == shown[2], "by default, the last game"
        beyond = await dc.slash(ann, world.channel, "mansion", "review", game=3)
        assert beyond.ephemeral and "no finished game 3" in beyond.text, beyond.text
        assert "numbered 1 to 2" in beyond.text
        assert mstate(world) == final
    async with world.running():
        again = await dc.slash(ann, world.channel, "mansion", "review", game=1)
        assert again.text == shown[1]
