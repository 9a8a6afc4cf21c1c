"""Rules reference, Making a Suggestion: "Nobody else learns whether the refuter held one or
several of the three: the refuter is always asked which card to show, even when only one
fits (an instant answer for one card and a prompt for several would tell the table)."

Through the real table service and SQLite storage: an AI refuter holding one of the three
and one holding two are both prompted, both answer through the same AI timer (the same
delay), and the channel hears the same line either way.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot.mansion.family import OWN
from bot.mansion.game import GAME
from bot.plug import plug
from bot.storage import SqliteStorage
from bot.tables import TableService
from engine.mansion import Options, PlayerRef, SuggestAny, new_game
from engine.mansion.cards import DESTINATIONS, SUSPECTS, VEHICLES
from engine.mansion.prompts import ShowPrompt
from engine.mansion.records import Suggested
from engine.mansion.state import GameState

AI_DELAY = 7.0
HOST = 100


def _seed() -> int:
    """A 3-seat deal where seat 0 (the member) plays first with a Suggestion from ANY."""
    refs = [PlayerRef(id=f"p{i}", name=f"P{i}") for i in range(3)]
    for seed in range(200):
        state, _ = new_game(refs, Options(players=3), seed)
        if state.turn == 0 and "suggest_any" in state.seats[0].actions:
            return seed
    raise AssertionError("no seed")


def _naming(state: GameState, held: int) -> SuggestAny:
    """A suggestion of which seat 1 (the first asked) holds exactly `held` cards."""
    hand = state.seats[1].clues
    for d in DESTINATIONS:
        for s in SUSPECTS:
            for v in VEHICLES:
                if sum(c in hand for c in (s, v, d)) == held:
                    return SuggestAny(seat=0, destination=d, suspect=s, vehicle=v)
    raise AssertionError("no such suggestion")


async def _refute(tmp_path: Path, channel: int, held: int) -> tuple[float, str, int]:
    """(the AI refuter's delay, the channel's news, the options it was prompted with)."""
    storage = SqliteStorage(tmp_path / f"t{channel}.sqlite3")
    await storage.open()
    try:
        seed = _seed()
        service = TableService(storage, {GAME.key: plug(GAME)}, ai_delay=AI_DELAY,
                               seed=lambda: seed)
        table = await service.open(1, channel, GAME.key, HOST, "Ann", {})
        await service.add_ai(table.id, HOST, 2, "normal")
        started = await service.start(table.id, HOST)
        action = _naming(OWN.state(started.state), held)
        before = time.time()
        applied = await service.act(table.id, HOST, lambda state, seat: action)
        state = OWN.state(applied.state)
        prompt = state.prompt_for(1)
        assert isinstance(prompt, ShowPrompt) and len(prompt.options) == held
        [timer] = [t for t in await storage.timers(table.id) if t.seat == 1]
        assert timer.kind == "ai"
        news = GAME.news(applied.table, state, OWN.events(applied.events), lang="en") or ""
        await service.on_timer(timer)
        stored = await storage.table(table.id)
        assert stored is not None and stored.state is not None
        record = next(r for r in reversed(GAME.load(stored.state).log)
                      if isinstance(r, Suggested))
        assert record.refuter == 1 and record.shown in prompt.options
        return timer.due - before, news, len(prompt.options)
    finally:
        await storage.close()


async def test_an_ai_refuter_answers_after_the_same_delay_either_way(tmp_path: Path) -> None:
    one_delay, one_news, one = await _refute(tmp_path, 10, held=1)
    two_delay, two_news, two = await _refute(tmp_path, 11, held=2)
    assert (one, two) == (1, 2)
    for delay in (one_delay, two_delay):
        assert AI_DELAY - 1 < delay <= AI_DELAY + 0.01
    refuting = "🤔 **Holmes (AI)** can disprove it and chooses which card to show Ann."
    for news in (one_news, two_news):
        assert refuting in news, news
        assert "shows" not in news.split(refuting)[1]
