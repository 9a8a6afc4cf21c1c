"""The secrecy audit of stored letters (see testkit/secrecy.py), sized for the suite;
`python -m bench.secrecy_audit` runs 1,000 games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.messages import Outgoing
from bot.models import Letter, Table
from bot.plug import AnyGame
from engine.thirteen_clues.state import GameState
from testkit.plants import plant_leaks
from testkit.secrecy import Auditor, run_audit

GAMES = 20


async def test_no_letter_tells_anyone_a_secret(tmp_path: Path) -> None:
    audit = await run_audit(tmp_path / "audit.sqlite3", GAMES, seed=1)
    print(audit.report())
    audit.assert_clean(GAMES)
    assert audit.delivered["dealt"] > 0 and audit.delivered["informant"] > 0
    assert audit.delivered["top_secret"] > 0
    assert audit.checked["hint"] > 0


async def test_the_audit_sees_a_planted_leak(tmp_path: Path, monkeypatch: object) -> None:
    """The audit is not vacuous: a DM that names one card of its reader's own holder (and a
    channel message naming a card) are both reported."""
    import pytest

    from bot.thirteen_clues.game import ThirteenClues
    from engine.thirteen_clues.cards import CARDS

    assert isinstance(monkeypatch, pytest.MonkeyPatch)

    def own_holder_card(state: GameState, seat: int) -> str | None:
        if state.phase != "turns":
            return None
        return f" psst: {CARDS[state.seats[seat].holder[0]].name}"

    def first_holder_card(state: GameState) -> str | None:
        if state.phase != "turns":
            return None
        return f" {CARDS[state.seats[0].holder[0]].name}"

    plant_leaks(monkeypatch, ThirteenClues, own_holder_card, first_holder_card)
    audit = await run_audit(tmp_path / "audit.sqlite3", 3, seed=2)
    assert any("own holder" in leak for leak in audit.leaks), audit.leaks[:3]
    assert any(leak.startswith("channel") for leak in audit.leaks), audit.leaks[:3]


async def test_the_audit_sees_a_leaky_hint_and_a_misaddressed_review(
    tmp_path: Path, monkeypatch: object
) -> None:
    """The coach's audit is not vacuous: a hint naming a card of its reader's own holder, and
    a review sent with another seat's content, are both reported."""
    import pytest

    from bot.thirteen_clues import coaching, reviewing
    from engine.thirteen_clues.cards import CARDS
    from engine.thirteen_clues.views import PlayerView
    from testkit import secrecy

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    hint, letter = coaching.hint_text, reviewing.review_letter

    def leaky_hint(lang: str, view: PlayerView, advice: object) -> str:
        state = secrecy_state.get("state")
        own = state.seats[view.seat].holder[0] if state is not None else ""
        return hint(lang, view, advice) + (f" {CARDS[own].name}" if own else "")  # type: ignore[arg-type]

    secrecy_state: dict[str, GameState] = {}
    check_hint = secrecy.Auditor.check_hint

    def remembering(self: secrecy.Auditor, state: GameState, seats: dict[str, int]) -> None:
        secrecy_state["state"] = state
        check_hint(self, state, seats)

    def swapped(state: GameState, seat: int, lang: str) -> Outgoing | None:
        return letter(state, (seat + 1) % len(state.seats), lang)

    monkeypatch.setattr(secrecy, "hint_text", leaky_hint)
    monkeypatch.setattr(secrecy.Auditor, "check_hint", remembering)
    monkeypatch.setattr(reviewing, "review_letter", swapped)
    monkeypatch.setattr("bot.thirteen_clues.game.review_letter", swapped)
    # three tables show both (eight cost 7 s of CPU to the same end)
    audit = await run_audit(tmp_path / "audit.sqlite3", 3, seed=3)
    assert any(leak.startswith("hint to seat") for leak in audit.leaks), audit.leaks[:3]
    assert any("is not the review of seat" in leak for leak in audit.leaks), audit.leaks[:3]



async def test_the_audit_sees_a_game_in_play_replayed_or_listed(
    tmp_path: Path, monkeypatch: object
) -> None:
    """Not vacuous for the archive either: a replay that lets a game in play through, and a
    history that lists every table, are both reported."""
    import pytest

    from bot.replay import Looker
    from testkit import audited

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    auditor = Auditor(tmp_path / "audit.sqlite3", 3)
    storage = auditor.storage

    async def lets_through(_: object, looker: Looker, game: str,
                           table_id: int | None) -> Table | None:
        assert looker.here is not None
        return await storage.open_table(looker.here)

    async def lists_all(guild_id: int, **_: object) -> list[Table]:
        return await storage.active_tables(guild_id)

    monkeypatch.setattr(audited, "finished_game", lets_through)
    monkeypatch.setattr(storage, "finished_tables", lists_all)
    async with auditor:
        await auditor.game(0)
    assert any(leak.startswith("replay:") for leak in auditor.audit.leaks)
    assert any(leak.startswith("history:") for leak in auditor.audit.leaks)


async def test_the_audit_sees_a_secret_told_to_a_watcher(
    tmp_path: Path, monkeypatch: object
) -> None:
    """Not vacuous for spectators: a watcher's DM naming a card of a holder is reported."""
    import pytest

    from bot import spectators
    from bot.messages import Outgoing
    from bot.models import Letter
    from engine.thirteen_clues.cards import CARDS

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    real = spectators.letters

    def leaky(game: AnyGame, table: Table, state: GameState, events: Sequence[object],
              langs: Mapping[int, str]) -> list[Letter]:
        owed = real(game, table, state, events, langs)
        if state.phase != "turns":
            return owed
        psst = Outgoing(content=f"psst: {CARDS[state.seats[0].holder[0]].name}")
        return [*owed, *(Letter.dm(u, psst) for u in spectators.watchers(table))]

    monkeypatch.setattr(spectators, "letters", leaky)
    audit = await run_audit(tmp_path / "audit.sqlite3", 2, seed=4)
    assert any("psst" in leak for leak in audit.leaks), audit.leaks[:3]


async def test_the_audit_sees_a_member_who_sits_shown_their_own_holder(
    tmp_path: Path, monkeypatch: object
) -> None:
    """Not vacuous for `sit`: the seat's secrets sent to the member who takes it over are
    checked as that seat's, so a welcome DM naming the seat's own holder is reported."""
    import pytest

    from bot.thirteen_clues.game import ThirteenClues
    from engine.thirteen_clues.cards import CARDS

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    hand = ThirteenClues.hand

    def leaky_hand(self: ThirteenClues, table: Table, state: GameState, seat: int, *,
                   lang: str) -> Outgoing:
        out = hand(self, table, state, seat, lang=lang)
        if not state.seats[seat].holder:
            return out
        card = CARDS[state.seats[seat].holder[0]].name
        return out.model_copy(update={"content": f"{out.content or ''} psst: {card}"})

    monkeypatch.setattr(ThirteenClues, "hand", leaky_hand)
    # three tables: a watcher sits at the third (six of them proved nothing more)
    audit = await run_audit(tmp_path / "audit.sqlite3", 3, seed=3)
    assert audit.checked["sat"] > 0
    assert any("own holder" in leak and "psst" in leak for leak in audit.leaks), audit.leaks[:3]
