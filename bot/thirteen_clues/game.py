"""13 Clues plugged into the game-agnostic table service: engine calls and presentation."""

from __future__ import annotations

import json
import random
from typing import Any

from discord import Embed

from bot.games import Outgoing
from bot.models import SeatRef, Table
from bot.render.thirteen_clues.embeds import lobby_embed, reveal_embed, table_embed
from bot.render.thirteen_clues.lines import channel_text, dm_text
from bot.thirteen_clues import components
from bot.thirteen_clues.casebook import casebook_update
from engine.thirteen_clues import (
    ACTION_ADAPTER,
    EVENT_ADAPTER,
    Abandon,
    Action,
    Event,
    GameState,
    Options,
    PlayerRef,
    apply,
    legal,
    new_game,
    player_view,
    public_view,
    reveal,
)
from engine.thirteen_clues.events import CardsDealt, GameOver, QuestionAnswered
from engine.thirteen_clues.views import PlayerView, PublicView

DEFAULT_OPTIONS: dict[str, Any] = {
    "edition": "2020",
    "top_secret": False,
    "assist": "off",
    "turn_minutes": 0,
}


class ThirteenClues:
    key = "13clues"
    title = "13 Clues"
    command = "13clues"
    min_players = 2
    max_players = 6
    ai_levels = ("easy", "normal", "expert")

    def start(
        self, seats: list[SeatRef], options: dict[str, Any], seed: int
    ) -> tuple[GameState, list[Event]]:
        engine_options = Options(
            players=len(seats),
            edition=options.get("edition", "2020"),
            top_secret=bool(options.get("top_secret")) and len(seats) > 2,
        )
        players = [PlayerRef(id=s.player_id, name=s.name) for s in seats]
        return new_game(players, engine_options, seed)

    def load(self, raw: str) -> GameState:
        return GameState.model_validate_json(raw)

    def dump(self, state: GameState) -> str:
        return state.model_dump_json()

    def dump_action(self, action: Action) -> str:
        return ACTION_ADAPTER.dump_json(action).decode()

    def dump_events(self, events: list[Event]) -> str:
        return json.dumps([EVENT_ADAPTER.dump_python(e, mode="json") for e in events])

    def load_events(self, raw: str) -> list[Event]:
        return [EVENT_ADAPTER.validate_python(e) for e in json.loads(raw)]

    def apply(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        return apply(state, action)

    def abandon(self, state: GameState, reason: str) -> tuple[GameState, list[Event]]:
        return apply(state, Abandon(reason=reason))

    def waiting_on(self, state: GameState) -> list[int]:
        return legal.waiting_on(state)

    def turn_key(self, state: GameState) -> str:
        return "pass" if state.phase == "passing" else f"turn{state.turn_number}"

    def is_over(self, state: GameState) -> bool:
        return state.phase == "over"

    def winners(self, state: GameState) -> set[int]:
        return {state.winner} if state.winner is not None else set()

    def ai_action(self, state: GameState, seat: int, level: str, rng: random.Random) -> Action:
        from engine.thirteen_clues.ai import choose_action

        return choose_action(player_view(state, seat), level, rng)  # type: ignore[arg-type]

    # presentation -----------------------------------------------------------------------

    def table_message(self, table: Table, state: GameState | None) -> Outgoing:
        if state is None:
            if table.status == "over":
                return Outgoing(content="This table was closed before the game started.")
            names = [s.name for s in table.seats]
            host = next((s.name for s in table.seats if s.user_id == table.host_id), "?")
            return Outgoing(
                content=f"🪑 **13 Clues**: {host} opened a table here. Press **Join** to play.",
                embeds=[lobby_embed(host, names, table.options)],
                view=components.lobby_view(table.id),
            )
        view = public_view(state)
        embeds = [table_embed(view)]
        if state.phase == "over":
            embeds.append(reveal_embed(reveal(state), view))
        return Outgoing(
            content=_headline(view),
            embeds=embeds,
            view=components.table_view(table.id, table.version, view),
        )

    def channel_text(self, table: Table, state: GameState, events: list[Event]) -> str | None:
        return channel_text(events, public_view(state)) or None

    def dm_message(
        self, table: Table, state: GameState, events: list[Event], seat: int
    ) -> Outgoing | None:
        view = player_view(state, seat)
        text = dm_text(events, view)
        over = next((e for e in events if isinstance(e, GameOver)), None)
        casebook = self._casebook_update(table, view, events)
        if text is None and over is None and casebook is None:
            return None
        out = Outgoing(content=text, embeds=[casebook] if casebook else [])
        if over is not None:
            out.embeds.append(reveal_embed(over, public_view(state)))
        if any(isinstance(e, CardsDealt) and e.seat == seat for e in events):
            out.view = components.pass_view(table.id, view)
        return out

    @staticmethod
    def _casebook_update(table: Table, view: PlayerView, events: list[Event]) -> Embed | None:
        """After an answer this seat learned, its casebook, if the answer changed it."""
        assist = str(table.options.get("assist", "off"))
        heard = [
            e for e in events
            if isinstance(e, QuestionAnswered) and e.audience.includes(view.seat)
        ]
        if not heard or view.phase != "turns":
            return None
        before = view.model_copy(
            update={
                "questions": view.questions[:-1],
                "secret_questions": view.secret_questions[:-1]
                if heard[0].top_secret
                else view.secret_questions,
            }
        )
        return casebook_update(before, view, assist)


def _headline(view: PublicView) -> str:
    """The living message's first line, kept when a newer message takes over its buttons."""
    if view.phase == "passing":
        waiting = [s.name for s in view.seats if not s.has_passed]
        return f"🔎 **13 Clues**: choosing cards to pass (waiting for {', '.join(waiting)})."
    if view.phase == "over":
        return "🔎 **13 Clues**: the game is over."
    return f"🔎 **13 Clues**, turn {view.turn_number}: **{view.seats[view.turn].name}** to play."
