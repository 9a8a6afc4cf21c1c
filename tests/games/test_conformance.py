"""What every game must satisfy to run on the shell, checked once for all games: every game
of the registry and the toy (tests/games/games.py), each played once through the real bot,
its outbox and the Discord stand-in (tests/games/conformance.py), then read by each check.

A game's own tests keep only its rules."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.archive import ArchiveError
from bot.messages import Outgoing
from bot.models import Table
from bot.registry import GAMES
from tests.games.conformance import Playthrough, playthrough
from tests.games.games import SPECS, Spec

OUT_OF_DATE = ("out of date", "older version", "moved on", "use the latest table message")


@pytest.fixture(params=SPECS, ids=[s.game.key for s in SPECS])
def spec(request: pytest.FixtureRequest) -> Spec:
    chosen: Spec = request.param
    return chosen


@pytest.fixture
def played(spec: Spec, tmp_path_factory: pytest.TempPathFactory) -> Playthrough:
    return playthrough(spec, tmp_path_factory)


def test_every_registered_game_is_played() -> None:
    assert {s.game.key for s in SPECS if s.registered} == {g.key for g in GAMES}


def test_the_game_fills_the_plug(spec: Spec) -> None:
    """What the shell reads of a game without playing it: a unique key and component
    prefix, seat counts, AI levels, options every table has."""
    game = spec.game
    others = [s.game for s in SPECS if s is not spec]
    assert game.key not in {g.key for g in others}
    assert game.prefix not in {g.prefix for g in others} and ":" not in game.prefix
    assert 1 <= game.min_players <= spec.players <= game.max_players
    assert {game.default_level, game.gone_level} <= set(game.ai_levels)
    assert game.settings.merged({}, {}) == game.settings()
    for option, values in game.settings.own_options().items():
        assert values and option not in ("assist", "turn_minutes")


def test_random_legal_play_reaches_the_end(played: Playthrough) -> None:
    assert played.steps, "no move was played"
    assert played.over and played.status == "over", (played.status, len(played.steps))
    assert not played.errors, played.errors


def test_the_state_round_trips_json_at_every_step(played: Playthrough) -> None:
    assert all(step.round_trips for step in played.steps)
    assert all(json.loads(step.stored) for step in played.steps)


def test_no_reader_receives_what_is_not_theirs(played: Playthrough) -> None:
    """Through the game's own secrecy hook: every letter stored, for its reader (a channel,
    a member's DM); and each private item reached its owner."""
    assert played.letters > len(played.steps)
    assert not played.leaks, played.leaks[:5]
    assert not played.missing, played.missing[:5]


def test_turn_key_changes_exactly_when_someone_new_is_to_act(played: Playthrough) -> None:
    """A seat newly waited on (or the end) changes the key; a seat answering while others
    still must (they only leave the waiting set) keeps it, so their clocks run on."""
    for step in played.steps:
        before, after = set(step.waiting_before), set(step.waiting_after)
        changed = step.key_before != step.key_after
        if not after or not after <= before:
            assert changed, step
        elif after < before:
            assert not changed, step
    assert any(s.key_before != s.key_after for s in played.steps)


def test_every_message_fits_discords_limits(played: Playthrough) -> None:
    assert not played.too_big, played.too_big[:5]
    assert not played.violations, played.violations[:5]


def test_a_restart_mid_game_plays_on(played: Playthrough) -> None:
    assert played.restarted_at is not None and 0 < played.restarted_at < len(played.steps)
    assert played.after_restart, "the restarted bot did not answer `hand`"
    assert played.over


def test_an_illegal_move_is_refused_with_a_message_and_changes_nothing(
        played: Playthrough) -> None:
    illegal = [r for r in played.refusals if r.kind == "illegal"]
    assert illegal
    assert all(r.ephemeral and r.text and not r.changed for r in illegal), illegal[:3]


def test_a_stale_move_is_refused_with_a_message_and_changes_nothing(
        played: Playthrough) -> None:
    stale = [r for r in played.refusals if r.kind.startswith("stale")]
    assert {r.kind for r in stale} == {"stale", "stale click"}, stale
    assert all(r.ephemeral and r.text and not r.changed for r in stale), stale[:3]
    assert any(any(f in r.text for f in OUT_OF_DATE) for r in stale if r.kind == "stale click")


def test_an_unfinished_game_has_no_record(spec: Spec) -> None:
    """Replays and downloads exist only for finished games (nothing secret while in play)."""
    from bot.archive import record_of
    from bot.models import Table

    table = Table(id=1, guild_id=1, channel_id=1, game=spec.game.key, status="playing",
                  host_id=1, seats=[], options={})
    with pytest.raises(ArchiveError):
        record_of(spec.game, table, [])


def test_the_secrecy_check_sees_a_planted_leak(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: a toy whose DMs tell each seat the other's number is caught."""
    import asyncio

    from tests.games.conformance import _play
    from tests.toy.game import HighCard, Shown, State

    def leaky(self: HighCard, table: Table, state: State, events: Sequence[Shown],
              seat: int, *, lang: str) -> Outgoing | None:
        other = state.seats[1 - seat]
        return Outgoing(content=f"Your number: {state.seats[seat].number}. "
                                f"{other.name}: {other.number}")

    monkeypatch.setattr(HighCard, "letter", leaky)
    toy = next(s for s in SPECS if not s.registered)
    leaked = asyncio.run(_play(toy, tmp_path, 0))
    assert any("reads seat" in leak for leak in leaked.leaks), leaked.leaks
