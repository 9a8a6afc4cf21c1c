"""The typed plug a game fills in to run on the shell: the engine calls the table service
needs, the rendering it delivers, and the reads its commands show.

Adding a game is `engine/<game>/`, `bot/<game>/` (an object satisfying `GameModule`),
`cogs/<game>.py` (its own commands on the generic table cog) and one line in `bot/registry.py`.

The seam is typed both ways: a game is checked against `GameModule[S, A, E, O]` with its own
state, action, event and settings types where it is plugged (`plug`), and the shell holds the
games of a registry as `AnyGame`, whose state (a `BaseModel`), actions and events are opaque to the
shell: it can only hand them back to the game that made them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, Literal, Protocol, TypeVar, cast, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from bot.drawings import Drawer
from bot.i18n import N_, command, tr
from bot.messages import Outgoing
from bot.models import SeatRef, Table
from bot.parsed import parsed_states
from engine.errors import RuleError

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A")
E = TypeVar("E")
O = TypeVar("O", bound="TableSettings")  # noqa: E741

Assist = Literal["off", "bookkeeping", "full"]
YOUR_TURN = N_("your turn")
"""What the table waits on a member for, when the game says no more."""



class TableSettings(BaseModel):
    """Options every table has; a game's settings extend them. Stored with the table as JSON."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    assist: Assist = "off"
    turn_minutes: int = Field(default=0, ge=0, le=1440)
    """Minutes a member may take before an AI plays for them; 0: no limit."""

    @classmethod
    def merged(cls, defaults: Mapping[str, object], given: Mapping[str, object]
               ) -> TableSettings:
        """The server's defaults, overridden by what was given to `new`. "Not given" is None
        only: 0 and False are values and win over a default."""
        known = set(cls.model_fields)
        chosen = {k: v for k, v in defaults.items() if k in known and v is not None}
        chosen.update({k: v for k, v in given.items() if v is not None})
        return cls.model_validate(chosen)

    @classmethod
    def own_options(cls) -> dict[str, dict[str, object]]:
        """The game's own options (beyond every table's) and the values each takes, by the
        text a member types: read from the model, so `/settings` and the demo offer a new
        game's options with no word of the shell changed."""
        return {name: _values(field.annotation) for name, field in cls.model_fields.items()
                if name not in TableSettings.model_fields}


def _values(annotation: object) -> dict[str, object]:
    """Text → value for an option that takes a few values (a Literal or a bool)."""
    if annotation is bool:
        return {"true": True, "false": False}
    if get_origin(annotation) is Literal:
        return {str(v): v for v in get_args(annotation)}
    raise TypeError(f"a game option takes a Literal or a bool, not {annotation!r}")


class GameModule(Protocol[S, A, E, O]):
    """A game as the shell sees it. State, actions and events are the engine's models."""

    key: str
    """The registry key, also stored with each table."""
    title: str
    command: str
    """The slash-command group, e.g. `13clues`."""
    prefix: str
    """The custom_id prefix of its components, e.g. `13c`."""
    extension: str
    """The cog module holding the game's commands, loaded at start-up."""
    min_players: int
    max_players: int
    ai_levels: tuple[str, ...]
    default_level: str
    """The level `add-ai` seats when none is chosen."""
    idle_level: str
    """The level that answers for an idle member when the turn timer runs out."""
    gone_level: str
    """The AI level that plays the seat of a member who left the server, from then on."""
    settings: type[O]
    started_text: str
    """The reply to `start`: where the new game's first secrets are."""
    help: str
    """How to play it with the bot, in a few lines for `/help`."""
    @property
    def drawers(self) -> Mapping[str, Drawer]:
        """The pictures its letters may carry, by kind: each draws a `bot.pictures.Picture`
        from the JSON stored in the letter (pure; called in a worker thread when sent)."""

    def start(self, seats: Sequence[SeatRef], settings: O, seed: int) -> tuple[S, list[E]]:
        """Deal; the engine may shuffle the seats (see `seat_ids`)."""
        ...

    def seat_ids(self, state: S) -> list[str]:
        """The engine's seat order, as the player ids it was given."""
        ...

    def load(self, raw: str) -> S: ...
    def dump(self, state: S) -> str: ...
    def dump_action(self, action: A) -> str: ...
    def load_action(self, raw: str) -> A:
        """An action of the log, as `dump_action` wrote it (replays and exports)."""
        ...

    def dump_events(self, events: Sequence[E]) -> str: ...
    def load_events(self, raw: str) -> list[E]:
        """A change's events, as `dump_events` wrote them (the action log)."""
        ...

    def apply(self, state: S, action: A) -> tuple[S, list[E]]:
        """The engine's apply; raises engine.errors.RuleError."""
        ...

    def abandon(self, state: S, reason: str) -> tuple[S, list[E]]: ...
    def seated(self, state: S, seat: int, player_id: str, name: str) -> S:
        """The state with a new player in `seat` (`sit`): its id and name change, nothing
        else (its cards and what it learned stay with the seat)."""
        ...


    def waiting_on(self, state: S) -> list[int]:
        """Seats whose input the game waits for now."""
        ...

    def turn_key(self, state: S) -> str:
        """Changes whenever the waiting situation changes (idle timers compare it)."""
        ...

    def is_over(self, state: S) -> bool: ...
    def under_way(self, state: S) -> bool:
        """Whether play began (past what every seat sets up at once: a pass, the fugitive's
        solution): a game ended before that offers no Rematch, as it was never played."""
        ...

    def winners(self, state: S) -> set[int]: ...
    def ai_action(self, state: S, seat: int, level: str, rng: random.Random) -> A: ...

    def idle_notice(self, table: Table, state: S, seat: int, *, lang: str) -> str:
        """What the channel is told when the turn timer answers for an idle member (once per
        waiting situation): who, and what is done for them."""
        ...

    def refusal(self, error: RuleError, *, lang: str) -> str:
        """An engine refusal in `lang`: its template through the catalogs, its parameters
        (card names and the like) in the game's own words."""
        ...

    # what is delivered, rendered when the change is stored, each text in the language of
    # who reads it: the table's for the channel (`table_message`, `news`, `idle_notice`,
    # `awaited`), each member's own for their DMs

    def table_message(self, table: Table, state: S | None, *, lang: str) -> Outgoing:
        """The living table message: public status and the buttons for what comes next."""
        ...

    def news(self, table: Table, state: S, events: Sequence[E], *, lang: str) -> str | None:
        """What the channel learns from these events (public and end-reveal only)."""
        ...

    def letter(self, table: Table, state: S, events: Sequence[E], seat: int, *, lang: str
               ) -> Outgoing | None:
        """What `seat` privately learns from these events, with any prompt it must answer."""
        ...

    def letter_slot(self, state: S, events: Sequence[E], seat: int) -> str | None:
        """The kept DM (a slot, see `slots`) that this change's letter to `seat` is, when it
        shows what that DM keeps up to date (13 Clues: the deal and its pass prompt, then
        the case file, then the casebook, one message): posted the first time, then edited,
        through the member's own click's token once they clicked it (outside the global
        rate limit). None: a new DM."""
        ...

    def slow_letters(self, state: S, events: Sequence[E]
                     ) -> Callable[[Mapping[int, str]], Mapping[int, Outgoing]] | None:
        """Private letters too slow to render on the event loop (each member's review at the
        end of a game: up to seconds of solving), as pure work the table service runs in the
        thinkers' pool before the change is stored: given the members' seats (each with its
        member's language), it returns seat → letter. It must pickle (a partial of
        module-level functions). None: these events owe none."""
        ...

    def slots(self, table: Table, state: S, events: Sequence[E], seat: int, *,
              catch_up: bool, lang: str) -> Mapping[str, Outgoing]:
        """DMs kept up to date in place (a casebook), by name: posted the first time, then
        edited. Asked only for a seat the game waits on (the REST budget: a member's DM is
        brought up to date when they are to act, not after every answer); `catch_up` when
        that seat has just become waited on: the DM as it stands, if it changed since the
        seat last saw it, whatever these events."""
        ...

    def farewell(self, table: Table, state: S, seat: int, *, lang: str) -> Outgoing | None:
        """The end of the game by DM, when the table's channel can no longer show it."""
        ...

    def awaited(self, state: S, seat: int, *, lang: str) -> str | None:
        """What the table waits on `seat` for, in a few words the channel may read ("your
        turn", "show Bob a card"); None when a new wait needs no alert (the seat is in the
        middle of its own turn and the DM of what it learned brings its next step)."""
        ...

    def alert_dm(self, table: Table, state: S, seat: int, *, lang: str) -> Outgoing:
        """The DM alert of a member who chose `dm`, for a wait that brought no prompt DM."""
        ...

    # what commands show

    def hand(self, table: Table, state: S, seat: int, *, lang: str) -> Outgoing:
        """Everything `seat` may see, with its open prompts (the DM-less way to play)."""
        ...

    def log(self, table: Table, state: S, *, lang: str) -> str: ...
    def rules(self, table: Table | None, lang: str) -> str:
        """A summary of the table's rules (the game's defaults without one), in `lang`."""
        ...


AnyGame = GameModule[BaseModel, object, object, TableSettings]
"""A game among others (the registry, the shell's rooms): its state, actions and events are
opaque to the shell, which only hands them back to the game that made them. Made by `plug`."""


def plug(game: GameModule[S, A, E, O]) -> AnyGame:
    """The one erasure: mypy checks `game` against the contract with its own types here, and
    the shell then holds it among others. Sound because the shell passes a game only the
    states, actions and events that game produced (a table is loaded by its own game's key)."""
    return cast(AnyGame, game)


def commands_of(games: Iterable[AnyGame], sub: str, lang: str, joiner: str,
                option: tuple[str, str] | None = None) -> str:
    """`/<game> <sub>` for every game as a member reading `lang` sees it, e.g. "`/13clues
    replay` and `/mansion replay`" (`joiner`: the word between the last two): texts that
    name a command build it here, from the registry, never by a game's name."""
    named = [command(lang, g.command, sub, option=option) for g in games]
    return ", ".join(named[:-1]) + f" {joiner} " + named[-1] if len(named) > 1 else named[0]


class PydanticGame(Generic[S, A, E, O]):
    """Storage for a game whose state, actions and events are pydantic models."""

    state_model: type[S]
    drawers: ClassVar[Mapping[str, Drawer]] = {}
    actions: TypeAdapter[A]
    events: TypeAdapter[E]

    def load(self, raw: str) -> S:
        """Shared with every reader of the same JSON (`bot.parsed`): never change it."""
        return parsed_states(self.state_model).load(raw)

    def dump(self, state: S) -> str:
        """From here on `state` is shared with the readers of its JSON: never change it."""
        return parsed_states(self.state_model).dump(state)

    def dump_action(self, action: A) -> str:
        return self.actions.dump_json(action).decode()

    def load_action(self, raw: str) -> A:
        loaded: A = self.actions.validate_json(raw)
        return loaded

    def dump_events(self, events: Sequence[E]) -> str:
        return json.dumps([self.events.dump_python(e, mode="json") for e in events])

    def load_events(self, raw: str) -> list[E]:
        return [self.events.validate_python(e) for e in json.loads(raw)]

    def slow_letters(self, state: S, events: Sequence[E]
                     ) -> Callable[[Mapping[int, str]], Mapping[int, Outgoing]] | None:
        return None

    def letter_slot(self, state: S, events: Sequence[E], seat: int) -> str | None:
        return None

    def slots(self, table: Table, state: S, events: Sequence[E], seat: int, *,
              catch_up: bool, lang: str) -> Mapping[str, Outgoing]:
        return {}

    def farewell(self, table: Table, state: S, seat: int, *, lang: str) -> Outgoing | None:
        return None

    def awaited(self, state: S, seat: int, *, lang: str) -> str | None:
        return tr(lang, YOUR_TURN)

    def refusal(self, error: RuleError, *, lang: str) -> str:
        return tr(lang, error.message, **error.params)

    def under_way(self, state: S) -> bool:
        return True

    def seat_ids(self, state: S) -> list[str]:
        """For a state whose `seats` each carry an `id` (as every game's here)."""
        return [str(seat["id"]) for seat in state.model_dump(include={"seats"})["seats"]]

    def seated(self, state: S, seat: int, player_id: str, name: str) -> S:
        """For a state whose `seats` each carry an `id` and a `name` (as every game's here)."""
        data = state.model_dump(mode="json")
        data["seats"][seat].update(id=player_id, name=name)
        # a ClassVar cannot name S; each game sets state_model to its S
        return self.state_model.model_validate(data)

    def alert_dm(self, table: Table, state: S, seat: int, *, lang: str) -> Outgoing:
        return Outgoing(content=tr(lang, "🔔 The table is waiting for you: {channel}.",
                                   channel=f"<#{table.channel_id}>"))


def settings_of(game: AnyGame, table: Table) -> TableSettings:
    settings: TableSettings = game.settings.model_validate(table.options)
    return settings


Built = Callable[[BaseModel, int], object]
"""What the table service calls to make a seat's action from its table's state: a game's
own builder, erased by `Own.builder` (the service holds every game's)."""
Rendered = Callable[[BaseModel, Sequence[object]], Outgoing]
"""What the table service calls to render an answer from a change's new state and events:
a game's own renderer, erased by `Own.then`."""


@dataclass(frozen=True)
class Own(Generic[S, E]):
    """A game's own types, given back to its code from the shell's erased values (states as
    `BaseModel`, actions and events as `object`): the one typed wrapper where the shell's
    collection of games meets one game's code. The state is checked, never assumed; the
    events are the ones the same game's `apply` made with that state."""

    model: type[S]

    def state(self, state: BaseModel) -> S:
        if not isinstance(state, self.model):
            raise TypeError(f"a {type(state).__name__} is not a {self.model.__name__}")
        return state

    def events(self, events: Sequence[object]) -> list[E]:
        return cast(list[E], list(events))

    def builder(self, build: Callable[[S, int], object]) -> Built:
        return lambda state, seat: build(self.state(state), seat)

    def then(self, render: Callable[[S, list[E]], Outgoing]) -> Rendered:
        return lambda state, events: render(self.state(state), self.events(events))
