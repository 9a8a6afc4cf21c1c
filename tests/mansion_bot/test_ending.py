"""The Mansion's ending (issue 18, 5b): the post at the end states the solution once (in the
news; the embed does not repeat it) and its footer no longer offers `/mansion turn`."""

from __future__ import annotations

from bot import news
from bot.mansion.game import GAME
from bot.mansion.words import card_name
from bot.plug import plug
from tests.mansion_bot.test_rendering import games, table_for


def test_the_end_states_the_solution_once_and_offers_what_still_works() -> None:
    checked = 0
    for seed in range(4):
        *_, (state, events) = games(4, seed)
        solution = state.rounds[-1].solution
        if solution is None:
            continue
        table = table_for(state)
        _, out = news.letters(plug(GAME), table, state, events, newly_waiting=[], alerts={},
                              langs={})
        post = next(x for x in out if x.op == "send" and x.living)
        text = post.body.content or ""
        fields = [f for e in post.body.embeds for f in e.get("fields", [])]
        embed_text = " ".join([*(e.get("description", "") for e in post.body.embeds),
                               *(f["name"] + " " + f["value"] for f in fields)])
        suspect = card_name("en", solution.suspect)
        assert suspect in text and suspect not in embed_text, (text, embed_text)
        footers = [e.get("footer", {}).get("text", "") for e in post.body.embeds]
        assert footers and all("/mansion turn" not in f and "replay" in f for f in footers)
        checked += 1
    assert checked >= 2
