"""13 Clues plugged into the shell: engine calls, what is delivered, what commands show."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence

import discord

from bot.components import lobby_message
from bot.i18n import N_, tr
from bot.messages import Outgoing, Picture
from bot.models import SeatRef, Table
from bot.plug import YOUR_TURN, PydanticGame, TableSettings
from bot.reviews import review_letters
from bot.thirteen_clues import components, pictures, words
from bot.thirteen_clues.casebook import casebook_update
from bot.thirteen_clues.coaching import deducible
from bot.thirteen_clues.family import PREFIX
from bot.thirteen_clues.render.embeds import (
    hand_embed,
    lobby_embed,
    outcome_text,
    reveal_embed,
    table_embed,
)
from bot.thirteen_clues.render.lines import channel_text, dm_text
from bot.thirteen_clues.render.texts import question_log_text, rules_text
from bot.thirteen_clues.reviewing import review_letter
from bot.thirteen_clues.shown import casebook_picture, reveal_picture, view_picture
from engine.errors import RuleError
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
from engine.thirteen_clues.events import (
    CardsDealt,
    CaseFile,
    GameOver,
    InformantCard,
    PassChosen,
    QuestionAnswered,
)
from engine.thirteen_clues.state import DEFAULT_EDITION
from engine.thirteen_clues.state import Edition as Edition  # re-exported for the cog
from engine.thirteen_clues.views import PlayerView, PublicView

CASEBOOK = "casebook"
"""The slot of each member's kept DM."""
EMBEDS_LIMIT = 6000
"""Discord's limit on the characters of all the embeds of one message."""


class ThirteenCluesSettings(TableSettings):
    edition: Edition = DEFAULT_EDITION
    top_secret: bool = False


class ThirteenClues(PydanticGame[GameState, Action, Event, ThirteenCluesSettings]):
    key = "13clues"
    title = "13 Clues"
    command = "13clues"
    prefix = PREFIX
    extension = "cogs.thirteen_clues"
    min_players = 2
    max_players = 6
    ai_levels: tuple[str, ...] = ("easy", "normal", "expert")
    default_level = "normal"
    idle_level = "normal"
    gone_level = "normal"
    settings = ThirteenCluesSettings
    started_text = N_("Cards dealt: check your DMs (or `/13clues hand`) and choose what to "
                      "pass left.")
    help = N_(
        "🔎 **13 Clues** (2–6 players) — `/13clues new` opens a table in this channel; others "
        "`join`, the host can `add-ai`, then `start`. Your secrets arrive by DM (or "
        "`/13clues hand`). On your turn use the **Ask / Informant / Accuse** buttons, or "
        "`/13clues ask`, `informant`, `accuse`. `/13clues rules` explains the game, "
        "`/13clues log` lists every answer, `/13clues casebook` keeps your notes, "
        "`/13clues review` goes over your moves after the game."
    )

    state_model = GameState
    drawers = pictures.DRAWERS
    warm_pictures = staticmethod(pictures.warm_up)
    actions = ACTION_ADAPTER
    events = EVENT_ADAPTER

    def start(
        self, seats: Sequence[SeatRef], settings: ThirteenCluesSettings, seed: int
    ) -> tuple[GameState, list[Event]]:
        options = Options(
            players=len(seats),
            edition=settings.edition,
            top_secret=settings.top_secret and len(seats) > 2,
        )
        return new_game([PlayerRef(id=s.player_id, name=s.name) for s in seats], options, seed)

    apply = staticmethod(apply)
    waiting_on = staticmethod(legal.waiting_on)
    turn_key = staticmethod(legal.turn_key)

    def abandon(self, state: GameState, reason: str) -> tuple[GameState, list[Event]]:
        return apply(state, Abandon(reason=reason))

    def awaited(self, state: GameState, seat: int, *, lang: str) -> str | None:
        """The pass is everyone's choice at once, asked by the deal DM: not "your turn"."""
        return tr(lang, "choose the cards to pass (the menu is in your DMs)") \
            if state.phase == "passing" else tr(lang, YOUR_TURN)

    def is_over(self, state: GameState) -> bool:
        return state.phase == "over"

    def under_way(self, state: GameState) -> bool:
        return state.turn_number > 0  # 0 until the passes are made

    def winners(self, state: GameState) -> set[int]:
        return {state.winner} if state.winner is not None else set()

    def ai_action(self, state: GameState, seat: int, level: str, rng: random.Random) -> Action:
        from engine.thirteen_clues.ai import LEVELS, Level, choose_action

        known: dict[str, Level] = {name: name for name in LEVELS}  # unknown: fails, not expert
        return choose_action(player_view(state, seat), known[level], rng)

    def idle_notice(self, table: Table, state: GameState, seat: int, *, lang: str) -> str:
        return tr(lang, "⏰ {name} took too long: an AI detective plays this turn for them.",
                  name=state.seats[seat].name)

    def refusal(self, error: RuleError, *, lang: str) -> str:
        return tr(lang, error.message, **words.worded(lang, error.params))

    # what is delivered ------------------------------------------------------------------

    def table_message(self, table: Table, state: GameState | None, *, lang: str) -> Outgoing:
        if state is None:
            return lobby_message(table, "🪑 **13 Clues**", components.lobby_view(table, lang),
                                 lambda host, names: lobby_embed(lang, host, names,
                                                                 table.options), lang)
        view = public_view(state)
        # the end is one message: the reveal alone (and its picture), no table status beside it
        embeds, headline = [table_embed(lang, view)], _headline(lang, view)
        shown: list[Picture] = []
        if state.phase == "over":
            # said once: the living message shows the news of the end instead of the
            # headline, and `status` the headline, so the embed does not say who won
            over = reveal(state)
            embeds = [reveal_embed(lang, over, view, outcome=False)]
            headline += " " + outcome_text(lang, over, view)
            shown.append(reveal_picture(over, view, lang, embed=0))
        return Outgoing.of(
            headline, embeds=embeds,
            view=components.table_view(lang, table.id, table.version, view, hint=_full(table)),
            pictures=shown,
        )

    def news(self, table: Table, state: GameState, events: Sequence[Event], *, lang: str
             ) -> str | None:
        return channel_text(lang, events, public_view(state)) or None

    def letter(
        self, table: Table, state: GameState, events: Sequence[Event], seat: int, *, lang: str
    ) -> Outgoing | None:
        if state.phase == "over":
            return None  # the reveal in the channel says it all (the reviews are slow letters)
        view = player_view(state, seat)
        # the pass choice is confirmed by the answer to the choice itself, not again by DM
        text = dm_text(lang, [e for e in events if not isinstance(e, PassChosen)], view)
        if text is None:
            return None
        dealt = any(isinstance(e, CardsDealt) and e.seat == seat for e in events)
        shown = [view_picture(view, lang)] if _sees_more(events, seat) else []
        return Outgoing.of(
            text, view=components.pass_view(lang, table.id, view) if dealt else None,
            pictures=shown,
        )

    def letter_slot(self, state: GameState, events: Sequence[Event], seat: int) -> str | None:
        """The deal (with its pass prompt) and the case file are the member's kept DM, which
        the casebook then keeps up to date: one message, posted once. The member's pass
        click on it brings the token that edits it outside the global rate limit (issue 21)."""
        shows = any(isinstance(e, CardsDealt | CaseFile) and e.seat == seat for e in events)
        return CASEBOOK if shows else None

    def slow_letters(self, state: GameState, events: Sequence[Event]
                     ) -> Callable[[Mapping[int, str]], Mapping[int, Outgoing]] | None:
        """Each member's review, once, with the end of the game."""
        if not any(isinstance(e, GameOver) for e in events):
            return None
        return functools.partial(review_letters, review_letter, state)

    def slots(
        self, table: Table, state: GameState, events: Sequence[Event], seat: int, *,
        catch_up: bool, lang: str
    ) -> dict[str, Outgoing]:
        """The casebook: one living DM per player (the deal's, then the case file's),
        brought up to date when their turn begins and after each of their own answers, when
        that changed it. It keeps showing the case file (what the seat sees), as `hand`
        does, beside the casebook."""
        if state.phase != "turns":
            return {}
        view = player_view(state, seat)
        casebook = _casebook_now(lang, table, view) if catch_up else _casebook_update(
            lang, table, view, events)
        if casebook is None:
            return {}
        case_file = hand_embed(lang, view)
        if len(case_file) + len(casebook) > EMBEDS_LIMIT:
            return {CASEBOOK: Outgoing.of(embeds=[casebook], pictures=_casebook_pictures(
                table, view, 0, lang))}
        return {CASEBOOK: Outgoing.of(embeds=[case_file, casebook], pictures=[
            view_picture(view, lang, embed=0), *_casebook_pictures(table, view, 1, lang)])}

    def farewell(self, table: Table, state: GameState, seat: int, *, lang: str
                 ) -> Outgoing | None:
        """The reveal by DM, for a table whose channel can no longer show it."""
        if state.phase != "over":
            return None
        over, view = reveal(state), public_view(state)
        return Outgoing.of(embeds=[reveal_embed(lang, over, view)],
                           pictures=[reveal_picture(over, view, lang, embed=0)])

    # what commands show -----------------------------------------------------------------

    def hand(self, table: Table, state: GameState, seat: int, *, lang: str) -> Outgoing:
        view = player_view(state, seat)
        choosing = state.phase == "passing" and state.seats[seat].passed is None
        return Outgoing.of(
            embeds=[hand_embed(lang, view)],
            view=components.pass_view(lang, table.id, view) if choosing else None,
            pictures=[view_picture(view, lang, embed=0)],
        )

    def log(self, table: Table, state: GameState, *, lang: str) -> str:
        return question_log_text(lang, public_view(state))

    def rules(self, table: Table | None, lang: str) -> str:
        if table is None:
            return rules_text(lang, DEFAULT_EDITION)
        settings = ThirteenCluesSettings.model_validate(table.options)
        players = len(table.seats) if table.status == "playing" else None
        return rules_text(lang, settings.edition, players, settings.top_secret)


def _sees_more(events: Sequence[Event], seat: int) -> bool:
    """Whether these events show the seat new cards (its deal, the holders and its screen
    when play begins, an informant card): the DMs that carry its view as a picture."""
    return any(
        isinstance(e, CardsDealt | CaseFile | InformantCard) and e.seat == seat for e in events
    )


def _casebook_pictures(table: Table, view: PlayerView, embed: int, lang: str
                       ) -> list[Picture]:
    """The casebook's grid, at full assist once there is something to deduce."""
    return [casebook_picture(view, lang, embed=embed)] if _full(table) and deducible(view) else []


def _full(table: Table) -> bool:
    return ThirteenCluesSettings.model_validate(table.options).assist == "full"


def _casebook_now(lang: str, table: Table, view: PlayerView) -> discord.Embed | None:
    """At the seat's turn, its casebook if the answers since its last turn began changed it
    (as `casebook_update` counts a change): the DM was brought up to date then, and while
    that turn lasted, but not by the answer that ended it. An edit that changes nothing
    costs no request (the outbox leaves it out)."""
    assist = ThirteenCluesSettings.model_validate(table.options).assist
    mine = [i for i, q in enumerate(view.questions) if q.asker == view.seat]
    first = mine[-1] if mine else 0
    while first > 0 and view.questions[first - 1].asker == view.seat:
        first -= 1
    return casebook_update(lang, view.model_copy(update={"questions": view.questions[:first]}),
                           view, assist)


def _casebook_update(
    lang: str, table: Table, view: PlayerView, events: Sequence[Event]
) -> discord.Embed | None:
    """After an answer this seat learned, its casebook, if the answer changed it."""
    assist = ThirteenCluesSettings.model_validate(table.options).assist
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
    return casebook_update(lang, before, view, assist)


def _headline(lang: str, view: PublicView) -> str:
    """The living message's first line, kept when a newer message takes over its buttons."""
    if view.phase == "passing":
        waiting = [s.name for s in view.seats if not s.has_passed]
        return tr(lang, "🔎 **13 Clues**: choosing cards to pass (waiting for {waiting}).",
                  waiting=", ".join(waiting))
    if view.phase == "over":
        return tr(lang, "🔎 **13 Clues**: the game is over.")
    return tr(lang, "🔎 **13 Clues**, turn {n}: **{name}** to play.", n=view.turn_number,
              name=view.seats[view.turn].name)


GAME = ThirteenClues()
