"""The living table message's text stays within Discord's 2,000 characters: its feed, the
news, and a line for each member the game waits on, counted together (five members' lines
under a long feed once reached 2,071 and Discord refused the edit: `bench.load`)."""

from __future__ import annotations

from bot import news
from bot.mansion.game import GAME
from bot.messages import CONTENT_LIMIT
from bot.plug import plug
from engine.mansion import legal
from tests.mansion_bot.test_rendering import games, table_for


def test_the_table_message_fits_with_every_waiting_member_under_a_long_feed() -> None:
    checked = 0
    for state, _ in games(5, 3):
        if len(legal.waiting_on(state)) < 2 or state.phase == "over":
            continue
        for size in range(1500, 1800, 25):  # feeds just under the limit for a new post
            feed = [f"{i:03} " + "·" * 96 for i in range(size // 100)]
            table = table_for(state, turn_minutes=5).model_copy(
                update={"feed": feed, "deadline": 1_800_000_000.0})
            _, letters = news.living(plug(GAME), table, state, "🕵️ " + "n" * (size % 100 + 40))
            for letter in letters:
                text = letter.body.content or ""
                assert len(text) <= CONTENT_LIMIT, len(text)
            checked += 1
    assert checked > 20, checked


def test_one_news_longer_than_a_message_is_cut_not_refused() -> None:
    state, _ = next(games(4, 1))
    _, letters = news.living(plug(GAME), table_for(state), state, "x" * 2500)
    assert all(len(letter.body.content or "") <= CONTENT_LIMIT for letter in letters)


def test_a_retired_message_carrying_a_long_feed_fits() -> None:
    """An AI's held steps join the feed unchecked; the message retired with that feed keeps
    its newest news within the limit."""
    state, _ = next(games(4, 1))
    feed = [f"{i:03} " + "·" * 96 for i in range(21)]  # 2,120 characters
    table = table_for(state).model_copy(update={"feed": feed})
    _, letters = news.living(plug(GAME), table, state, "🕵️ news", fresh=True, carry_feed=True)
    retired = letters[0].body.content or ""
    assert len(retired) <= CONTENT_LIMIT, len(retired)
    assert retired.endswith(feed[-1]) and feed[-2] in retired
