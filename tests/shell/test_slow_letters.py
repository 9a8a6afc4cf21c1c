"""The reviews at the end of a game are worked out in the thinkers' pool, never on the event
loop, and stored in the transaction of the change that ends the game, one to each member.

Through the real table service and SQLite storage, for both games: the thinkers' pool is
a recording executor (a thread, so the test can see where the work ran; the bot's is a
process pool, and the work is a partial of module-level functions so that it pickles).
"""

from __future__ import annotations

import pickle
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.models import Letter
from bot.reviews import TITLE
from bot.storage import SqliteStorage
from bot.tables import TableService
from tests.shell.test_archive import GAME, play_out, seated


class Recording(ThreadPoolExecutor):
    """A one-thread pool that remembers what it was given."""

    def __init__(self) -> None:
        super().__init__(1)
        self.given: list[Callable[..., Any]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.given.append(fn)
        return super().submit(fn, *args, **kwargs)


@pytest.mark.parametrize(("game", "module"), [("13clues", "bot.thirteen_clues.game"),
                                              ("mansion", "bot.mansion.game")])
async def test_the_reviews_are_worked_out_in_the_pool_and_stored_with_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, module: str) -> None:
    loop_thread = threading.get_ident()
    where: list[int] = []
    from importlib import import_module

    real = import_module(module).review_letter

    def watched(state: Any, seat: int, lang: str) -> Any:
        where.append(threading.get_ident())
        return real(state, seat, lang)

    storage = SqliteStorage(tmp_path / "bot.sqlite3")
    await storage.open()
    thinker = Recording()
    try:
        tables = TableService(storage, GAME, seed=lambda: 11, thinker=thinker)
        table = await play_out(tables, await seated(tables, game, 3, {}), 3, stop_after=14)
        assert table.status == "playing"
        monkeypatch.setattr(f"{module}.review_letter", watched)
        mark = _last_letter(tmp_path)
        ended = await tables.end(table.id, 100, moderator=False, name="Ann")
        assert ended.status == "over"
    finally:
        await storage.close()
        thinker.shutdown()
    assert len(where) == 3 and loop_thread not in where, "reviewed in the pool, per member"
    # one piece of work per member (another table's AI move may run between them)
    assert [getattr(f, "func", f).__name__ for f in thinker.given] == ["review_letters"] * 3
    letters = [Letter.model_validate_json(raw) for raw in _letters_since(tmp_path, mark)]
    reviews = [x for x in letters if any(e.get("title") == TITLE for e in x.body.embeds)]
    assert sorted(x.address for x in reviews) == [100, 101, 102]
    assert all(x.kind == "u" for x in reviews)


@pytest.mark.parametrize("game", ["13clues", "mansion"])
async def test_the_pool_work_pickles(tmp_path: Path, game: str) -> None:
    """A process pool sends the work by pickle: the end's work and its letters must pickle,
    and the work is owed only by the change that ends the game."""
    storage = SqliteStorage(tmp_path / "bot.sqlite3")
    await storage.open()
    try:
        tables = TableService(storage, GAME, seed=lambda: 12)
        table = await play_out(tables, await seated(tables, game, 3, {}), 4, stop_after=14)
    finally:
        await storage.close()
    module = GAME[game]
    playing = tables.state_of(table)
    final, events = module.abandon(playing, "Ann ended the game.")
    assert module.slow_letters(playing, []) is None
    assert module.slow_letters(final, []) is None, "once, with the end"
    work = module.slow_letters(final, events)
    assert work is not None
    again = pickle.loads(pickle.dumps(work))
    letters = work({0: "en", 1: "en"})
    assert again({0: "en", 1: "en"}) == letters and sorted(letters) == [0, 1]


def _last_letter(path: Path) -> int:
    with sqlite3.connect(path / "bot.sqlite3") as db:
        return int(db.execute("SELECT COALESCE(MAX(id), 0) FROM outbox").fetchone()[0])


def _letters_since(path: Path, mark: int) -> list[str]:
    with sqlite3.connect(path / "bot.sqlite3") as db:
        return [r[0] for r in db.execute(
            "SELECT letter FROM outbox WHERE id > ? ORDER BY id", (mark,))]
