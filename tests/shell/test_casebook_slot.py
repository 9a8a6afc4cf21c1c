"""The casebook DM at full assist (issue 21's REST budget): kept up to date when its member is
to act (at their turn, and after their own answers while it lasts), not after every answer.
Whatever was asked meanwhile, nothing that matters (`casebook_update`: a possible mystery
ruled out) has changed since the DM a member has when they are to act; and a seat not to act
gets no casebook DM. At full assist the DM carries the odds accounting for how players choose
in a field of its own, as the ephemeral casebook does."""

from __future__ import annotations

import random

from bot.news import letters
from bot.plug import plug
from bot.thirteen_clues.casebook import CHOICE_ODDS, casebook_update, choice_text
from bot.thirteen_clues.game import GAME
from engine.thirteen_clues import PlayerView, player_view
from testkit.letters import seated


def test_the_casebook_is_up_to_date_whenever_its_member_is_to_act() -> None:
    checked = sent = with_odds = 0
    for seed in range(4):
        players = 3 + seed % 2
        table, state, events = seated(players, seed, edition="2020", assist="full")
        users = {s.user_id: i for i, s in enumerate(table.seats)}
        rng = random.Random(seed)
        shown: dict[int, PlayerView] = {}
        """Each seat's view when its casebook DM was last sent."""
        earlier: set[int] = set()
        for _ in range(60):
            if GAME.is_over(state):
                break
            waiting = GAME.waiting_on(state)
            newly = [s for s in waiting if s not in earlier]
            earlier = set(waiting)
            table, owed = letters(plug(GAME), table, state, events, newly_waiting=newly, alerts={},
                                  langs={})
            for letter in owed:
                # the kept DM's casebook updates (the deal and the case file go to it too)
                if letter.slot == "casebook" and any(
                        "Your casebook" in str(e.get("title")) for e in letter.body.embeds):
                    seat = users[letter.address]
                    assert seat in waiting, "a casebook DM for a seat not to act"
                    shown[seat] = player_view(state, seat)
                    sent += 1
                    fields = {f["name"]: f["value"] for f in letter.body.embeds[-1]["fields"]}
                    odds = choice_text("en", shown[seat])
                    assert fields.get(CHOICE_ODDS) == odds, "the choice odds, apart"
                    with_odds += odds is not None
            if state.phase == "turns":
                for seat in waiting:
                    view = player_view(state, seat)
                    # what the DM showed, with what the seat learned itself since (its own
                    # informant peeks, Top Secret answers: said in the answers to it)
                    asked = shown[seat].questions if seat in shown else []
                    last = view.model_copy(update={"questions": asked})
                    assert casebook_update("en", last, view, "full") is None, (seed, seat)
                    checked += 1
            actor = waiting[0]
            state, events = GAME.apply(state, GAME.ai_action(state, actor, "easy", rng))
    assert checked > 50 and sent > 5 and with_odds > 3, (checked, sent, with_odds)
