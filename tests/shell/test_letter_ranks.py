"""Who a DM is for decides its rank when the REST budget is short (issue 21): the DMs of the
member who acted go before the table message; those of the members to act now (their prompt,
their casebook, their alert) after it; the other members' DMs (their case file, their news)
last."""

from __future__ import annotations

import random

from bot.news import letters
from bot.pacing import KEPT, OWN, PROMPT, rank_of
from bot.plug import plug
from bot.thirteen_clues.game import GAME
from testkit.letters import table_for


def test_the_acting_and_awaited_members_dms_go_first_and_the_others_last() -> None:
    ranks: dict[tuple[str, int], int] = {}
    """(what, rank) → how many DMs."""
    for seed in range(3):
        table = table_for(4, edition="2020", assist="full")
        state, events = GAME.start(table.seats, GAME.settings.model_validate(table.options), seed)
        by_id = {s.player_id: s for s in table.seats}
        table = table.model_copy(update={"seats": [by_id[i] for i in GAME.seat_ids(state)]})
        users = {s.user_id: i for i, s in enumerate(table.seats)}
        rng = random.Random(seed)
        earlier: set[int] = set()
        acted: int | None = None
        for _ in range(40):
            waiting = [] if GAME.is_over(state) else GAME.waiting_on(state)
            newly = [s for s in waiting if s not in earlier]
            earlier = set(waiting)
            table, owed = letters(plug(GAME), table, state, events, newly_waiting=newly,
                                  alerts={}, langs={}, acted=acted)
            for letter in owed:
                if letter.kind != "u":
                    continue
                seat = users[letter.address]
                expected = OWN if seat == acted else PROMPT if seat in waiting else KEPT
                assert rank_of(letter) == expected, (seed, seat, waiting, acted, letter.body)
                what = "casebook" if letter.slot is not None else "dm"
                ranks[what, expected] = ranks.get((what, expected), 0) + 1
            if GAME.is_over(state):
                break
            acted = waiting[0]
            state, events = GAME.apply(state, GAME.ai_action(state, acted, "easy", rng))
    # the acting member's own DMs first; the deal's pass prompts and the awaited members'
    # casebooks after the table; others' case files last
    assert ranks.get(("casebook", PROMPT), 0) > 10 and ranks.get(("casebook", KEPT), 0) >= 3, ranks
    assert ranks.get(("dm", OWN), 0) + ranks.get(("casebook", OWN), 0) > 5, ranks
