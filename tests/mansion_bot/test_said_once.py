"""Said once (issue 21's REST budget): a member whose own interaction made a change reads its
news in the answer to that interaction, so the DM that would repeat it is not sent; its next
prompt is in that answer too, with its buttons (issue 18: no DM saying it again). Only a new
game's hand (a picture) still goes by DM."""

from __future__ import annotations

from bot import news
from bot.mansion.components import after as answer
from bot.mansion.game import GAME
from bot.plug import plug
from engine.mansion import legal
from tests.mansion_bot.test_rendering import games, table_for


def test_the_actor_is_not_told_twice_and_its_answer_brings_its_prompt() -> None:
    quiet = prompted = 0
    for seed in range(3):
        earlier: list[int] = []
        for state, events in games(4, seed):
            table = table_for(state)
            actor = earlier[0] if earlier else None  # the seat that made this change
            earlier = [] if state.phase == "over" else legal.waiting_on(state)
            if actor is None:
                continue
            _, every = news.letters(plug(GAME), table, state, events, newly_waiting=[], alerts={},
                                    langs={}, channel=False)
            _, told = news.letters(plug(GAME), table, state, events, newly_waiting=[], alerts={},
                                   langs={}, channel=False, told=actor)
            mine = f"u:{actor + 1}"
            before = [x for x in every if x.to == mine and x.slot is None]
            after = [x for x in told if x.to == mine and x.slot is None]
            assert [x for x in every if x.to != mine] == [x for x in told if x.to != mine]
            assert after == [x for x in before if x.body.pictures]
            if any(x.body.components for x in before):  # the answer brings the prompt
                assert answer(table.id, actor, "en")(state, list(events)).components
                prompted += 1
            quiet += len(before) - len(after)
    assert quiet > 10 and prompted > 0, (quiet, prompted)
