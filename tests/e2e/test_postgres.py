"""The real bot on PostgreSQL: whole games of both, simultaneous clicks, a restart with its
buttons and timers, stats and the leaderboard, a paused table and the turn timer. These are
the SQLite end-to-end tests themselves, imported here, with `database_url` naming a fresh
database of the test server (tests/conftest.py), which every fixture of `world` then uses."""

from __future__ import annotations

import pytest

from testkit.world import World
from tests.e2e.test_closed_dms import test_closed_dms_player_finishes_with_hand
from tests.e2e.test_concurrency import (
    test_double_click_on_the_ask_button_asks_once,
    test_two_simultaneous_accusations_apply_once,
)
from tests.e2e.test_feel import test_plurals_and_a_leaderboard_by_wins_with_the_ai_that_won
from tests.e2e.test_general import test_finished_games_count_in_stats_and_leaderboard
from tests.e2e.test_mansion_game import test_a_standard_game_uses_every_action
from tests.e2e.test_mansion_turn_timer import test_the_timer_answers_for_idle_members
from tests.e2e.test_restart import (
    test_buttons_posted_before_a_restart_still_work,
    test_pending_ai_moves_are_made_after_a_restart,
)
from tests.e2e.test_storm import test_a_hundred_interactions_at_once_change_the_game_once
from tests.e2e.test_thirteen_clues_game import (
    test_three_player_game_from_new_to_correct_accusation,
)
from tests.e2e.test_world_changes import (
    test_lost_send_messages_pauses_the_table_until_it_is_given_back,
)

__all__ = [  # collected again here, on PostgreSQL
    "test_a_hundred_interactions_at_once_change_the_game_once",
    "test_a_standard_game_uses_every_action",
    "test_buttons_posted_before_a_restart_still_work",
    "test_closed_dms_player_finishes_with_hand",
    "test_double_click_on_the_ask_button_asks_once",
    "test_finished_games_count_in_stats_and_leaderboard",
    "test_lost_send_messages_pauses_the_table_until_it_is_given_back",
    "test_pending_ai_moves_are_made_after_a_restart",
    "test_plurals_and_a_leaderboard_by_wins_with_the_ai_that_won",
    "test_the_timer_answers_for_idle_members",
    "test_three_player_game_from_new_to_correct_accusation",
    "test_two_simultaneous_accusations_apply_once",
]


@pytest.fixture
def database_url(postgres_url: str) -> str:
    return postgres_url


async def test_the_bot_plays_on_postgresql(world: World) -> None:
    """The tests above really ran on PostgreSQL, not on the SQLite file beside it."""
    async with world.running() as bot:
        assert type(bot.storage).__name__ == "PostgresStorage"
    assert not world.db.exists()
