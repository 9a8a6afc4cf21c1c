"""A finished game kept: its record (what the engine needs to play it again to the same end),
the frames a replay steps through, and a readable transcript.

A stored game is its final state and its action log. The deal is not logged (a rematch has
no "start" row), but the engine's state keeps its seed, so the record gives the seats in the
order the deal was given them, the options and the seed: `module.start` deals the same cards
again and every logged action is applied on top. The record is checked against the stored end
before it is shown or exported, so a replay never shows a game other than the one played.

Only games that are over are kept this way: while a game is in play, its log is secret.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from bot.errors import UserError
from bot.i18n import tr, trn
from bot.messages import Outgoing
from bot.models import SeatRef, Table
from bot.plug import AnyGame, settings_of
from bot.sitting import Sat
from bot.storage import LogEntry

ENDED = frozenset({"end", "close"})
"""Log actions that are the table being ended (the engine's abandon), not a player's move."""
NOT_A_MOVE = frozenset({"start"})
"""Log actions that are not applied: the deal is replayed from the seed."""


class ArchiveError(UserError):
    """A game that cannot be replayed: a refusal, shown to the member in their language."""


class Move(BaseModel):
    """One logged action: an engine action (as JSON), or the table ended and why."""

    actor: str
    """The log's actor: `u<user id>`, `ai:<seat>` or `bot`."""
    action: Any = None
    abandon: str | None = None
    sat: Sat | None = None
    """A member took over this seat (`sit`): the engine learns its new id and name."""


class GameRecord(BaseModel):
    """A finished game as a file: enough for the engine to play it again to the same end."""

    format: Literal["deduction-table/game"] = "deduction-table/game"
    version: Literal[1] = 1
    game: str
    table_id: int
    guild_id: int
    channel_id: int
    finished_at: float
    options: dict[str, Any]
    seed: int
    seats: list[SeatRef]
    """In the order they were given to the deal (the engine may shuffle them), as dealt:
    a seat taken over later is a `sat` move."""
    moves: list[Move]
    final_state: dict[str, Any]
    """The stored end: replaying `moves` must arrive exactly here."""


@dataclass(frozen=True)
class Frame:
    """The game after one step of the replay: the deal, then each move."""

    actor: str
    state: BaseModel
    events: list[object]


def record_of(module: AnyGame, table: Table, log: Sequence[LogEntry]) -> GameRecord:
    """The record of a finished table, from its stored row and its action log."""
    if table.status != "over" or table.state is None:
        raise ArchiveError("Only a finished game can be replayed or downloaded: this one is "
                           "still in play.")
    final = json.loads(table.state)
    seed = int(final["seed"])
    moves: list[Move] = []
    dealt = list(table.seats)  # the engine's order; seats taken over are put back below
    for entry in log:
        if entry.action in NOT_A_MOVE:
            continue
        if (sat := Sat.parse(entry.action)) is not None:
            moves.append(Move(actor=entry.actor, sat=sat))
        elif entry.action in ENDED:
            moves.append(Move(actor=entry.actor, abandon=str(final.get("end_reason", ""))))
        else:
            moves.append(Move(actor=entry.actor, action=json.loads(entry.action)))
    for move in reversed(moves):
        if move.sat is not None:
            dealt[move.sat.seat] = move.sat.was
    as_dealt = table.model_copy(update={"seats": dealt})
    return GameRecord(
        game=table.game, table_id=table.id, guild_id=table.guild_id,
        channel_id=table.channel_id, finished_at=table.updated_at, options=table.options,
        seed=seed, seats=dealt_order(module, as_dealt, seed), moves=moves, final_state=final,
    )


def dealt_order(module: AnyGame, table: Table, seed: int) -> list[SeatRef]:
    """The seats as they were given to the deal, from the engine's order after it.

    An engine shuffles seats with its seeded randomness, which moves positions the same way
    whoever sits in them: dealing the final order once shows where each position goes, and
    putting each seat back where it came from gives the order the deal was given."""
    settings = settings_of(module, table)
    seats = list(table.seats)
    wanted = [s.player_id for s in seats]
    moved = module.seat_ids(module.start(seats, settings, seed)[0])
    given: list[SeatRef | None] = [None] * len(seats)
    for k, pid in enumerate(moved):
        given[wanted.index(pid)] = seats[k]
    order = [s for s in given if s is not None]
    if module.seat_ids(module.start(order, settings, seed)[0]) != wanted:
        raise ArchiveError("This game's deal cannot be played again by this version of the "
                           "bot, so it cannot be replayed.")
    return order


def frames(module: AnyGame, record: GameRecord) -> Iterator[Frame]:
    """Every step of the game, from the deal to the stored end, one at a time (a long
    series is hundreds of states of a hundred kilobytes each: they are not all kept).
    Raises ArchiveError once the moves do not arrive at the stored end (a game played by
    another version of the rules): a caller shows nothing before the last step is checked."""
    settings = module.settings.model_validate(record.options)
    state, events = module.start(record.seats, settings, record.seed)
    yield Frame("deal", state, events)
    for move in record.moves:
        state, events = _step(module, state, move)
        yield Frame(move.actor, state, events)
    if not arrives(json.loads(module.dump(state)), record.final_state):
        raise ArchiveError("Played again, this game does not arrive at its stored end (it was "
                           "played by another version of the rules), so it cannot be replayed.")


def arrives(played: Any, stored: Any) -> bool:
    """The state played again is the stored end. A field the engine has kept since the game
    was stored (13 Clues' order of play, the Mansion's Action cards dealt) is in the state
    played again and not in the stored one: it is left out of the comparison, so an older
    game still replays; every field the stored state has must agree."""
    if isinstance(played, dict) and isinstance(stored, dict):
        return set(stored) <= set(played) and all(arrives(played[k], v)
                                                 for k, v in stored.items())
    if isinstance(played, list) and isinstance(stored, list):
        return len(played) == len(stored) and all(map(arrives, played, stored))
    return bool(played == stored)


def _step(module: AnyGame, state: BaseModel, move: Move) -> tuple[BaseModel, list[object]]:
    try:
        if move.sat is not None:
            now = move.sat.now
            return module.seated(state, move.sat.seat, now.player_id, now.name), []
        if move.abandon is not None:
            return module.abandon(state, move.abandon)
        return module.apply(state, module.load_action(json.dumps(move.action)))
    except Exception as exc:
        raise ArchiveError("This game's moves cannot be played again by this version of the "
                           "bot, so it cannot be replayed.") from exc


class Replay:
    """A checked replay that can show any step: the game is played through once (and checked
    to arrive at its stored end), keeping the state every `EVERY` steps; a step is then
    played on from the checkpoint before it."""

    EVERY = 16

    def __init__(self, module: AnyGame, record: GameRecord) -> None:
        self.module, self.record = module, record
        self.checkpoints: dict[int, BaseModel] = {}
        count = 0
        for step, frame in enumerate(frames(module, record)):
            if step % self.EVERY == 0:
                self.checkpoints[step] = frame.state
            count = step + 1
        self.steps = count
        """Steps in all: the deal and each move."""

    def frame(self, step: int) -> Frame:
        step = max(0, min(step, self.steps - 1))
        if step == 0:
            settings = self.module.settings.model_validate(self.record.options)
            state, events = self.module.start(self.record.seats, settings, self.record.seed)
            return Frame("deal", state, events)
        base = (step - 1) - (step - 1) % self.EVERY  # before the step: its events are needed
        state, events = self.checkpoints[base], []
        for move in self.record.moves[base:step]:
            state, events = _step(self.module, state, move)
        return Frame(self.record.moves[step - 1].actor, state, events)


def seat_news(record: GameRecord, step: int, lang: str) -> str | None:
    """What the channel was told at a step that is no engine action (a seat taken over)."""
    move = record.moves[step - 1] if 0 < step <= len(record.moves) else None
    return move.sat.news(lang) if move is not None and move.sat is not None else None


def table_of(record: GameRecord) -> Table:
    """The table as rendering needs it, from a record alone (seats in the engine's order)."""
    state_ids = [s["id"] for s in record.final_state.get("seats", [])]
    by_id = {s.player_id: s for s in record.seats}
    by_id.update({m.sat.now.player_id: m.sat.now for m in record.moves if m.sat is not None})
    seats = [by_id[i] for i in state_ids] if set(state_ids) <= set(by_id) else record.seats
    return Table(id=record.table_id, guild_id=record.guild_id, channel_id=record.channel_id,
                 game=record.game, status="over", host_id=0, options=record.options,
                 seats=seats, updated_at=record.finished_at)


def actor_name(table: Table, actor: str, lang: str) -> str:
    """Who a log line's actor is, as the table knew them."""
    if actor == "deal":
        return tr(lang, "the deal")
    if actor == "bot":
        return tr(lang, "the bot")
    if actor.startswith("ai:") and actor[3:].isdigit():  # an AI move for that seat
        seat = int(actor[3:])
        name = table.seats[seat].name if 0 <= seat < len(table.seats) else "?"
        return f"{name} (AI)"
    for ref in table.seats:
        if ref.player_id == actor:
            return ref.name
    return actor


def plain(out: Outgoing) -> str:
    """A message's words without Discord around them: its text and its embeds' text."""
    parts = [out.text] if out.text else []
    for embed in out.embeds:
        for key in ("title", "description"):
            if embed.get(key):
                parts.append(str(embed[key]))
        for field in embed.get("fields") or []:
            parts.append(f"{field.get('name', '')}\n{field.get('value', '')}")
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            parts.append(str(footer))
    return "\n".join(parts)


def transcript(module: AnyGame, record: GameRecord, lang: str) -> str:
    """The whole game to read, in `lang`: at each step what the channel was told and what
    each seat was told privately (the game is over: nothing is secret any more)."""
    table = table_of(record)
    names = ", ".join(s.name + (" (AI)" if s.is_ai else "") for s in table.seats)
    lines = [tr(lang, "{game} — game #{number}", game=module.title, number=record.table_id),
             tr(lang, "Players (in seat order): {names}", names=names),
             trn(lang, "Seed {seed}; {n} move", "Seed {seed}; {n} moves", len(record.moves),
                 seed=record.seed), ""]
    end = None
    for step, frame in enumerate(frames(module, record)):
        end = frame.state
        step_is = tr(lang, "Step {step}: {actor}", step=step,
                     actor=actor_name(table, frame.actor, lang))
        lines.append(f"== {step_is} ==")
        news = module.news(table, frame.state, frame.events, lang=lang) \
            or seat_news(record, step, lang)
        if news:
            lines.append(tr(lang, "[table] {news}", news=news))
        for seat, ref in enumerate(table.seats):
            letter = module.letter(table, frame.state, frame.events, seat, lang=lang)
            told = plain(letter) if letter is not None else ""
            if told:
                lines.append(f"[→ {ref.name}] {told}")
        lines.append("")
    lines.append("== " + tr(lang, "The end: what each seat knew") + " ==")
    if end is None:
        raise ArchiveError("This record has no deal, so it cannot be read.")
    for seat, ref in enumerate(table.seats):
        lines.append(f"-- {ref.name} --\n{plain(module.hand(table, end, seat, lang=lang))}")
    return "\n".join(lines) + "\n"
