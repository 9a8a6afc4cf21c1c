"""Clue: Mystery Beyond the Mansion plugged into the shell: engine calls, what is delivered,
what commands show."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence

from bot.components import lobby_message, view_of
from bot.i18n import N_, tr
from bot.mansion import components, pictures, words
from bot.mansion.family import PREFIX
from bot.mansion.render.embeds import hand_embed, lobby_embed, status_line, table_embed
from bot.mansion.render.labels import TITLE, Voice, action_name, plain_name
from bot.mansion.render.lines import awaited_text, channel_text, dm_text, prompt_text, voice
from bot.mansion.render.texts import log_text, rules_text
from bot.mansion.reviewing import review_letter
from bot.mansion.settings import MansionSettings
from bot.mansion.shown import hand_picture, markers_picture, reveal_picture
from bot.mansion.words import card_name
from bot.messages import Outgoing
from bot.models import SeatRef, Table
from bot.plug import YOUR_TURN, PydanticGame
from bot.reviews import review_letters
from engine.errors import RuleError
from engine.mansion import (
    ACTION_ADAPTER,
    EVENT_ADAPTER,
    Abandon,
    Action,
    AllSnoop,
    Event,
    GameState,
    Move,
    Options,
    PlayerRef,
    PrivateTip,
    Snoop,
    SuggestAny,
    SuggestPresent,
    SuperSleuth,
    apply,
    idle_action,
    legal,
    new_game,
    player_view,
    public_view,
)
from engine.mansion.ai import LEVELS, Level, choose_action
from engine.mansion.events import ActionDrawn, HandDealt, PromptOpened, RoundOver, RoundStarted
from engine.mansion.prompts import PickPrompt, ShowPrompt, TipPrompt

IDLE = "idle"
"""The level that answers for an idle member: a random legal choice that never accuses
(`engine.mansion.legal.idle_action`)."""


class Mansion(PydanticGame[GameState, Action, Event, MansionSettings]):
    key = "mansion"
    title = TITLE
    command = "mansion"
    prefix = PREFIX
    extension = "cogs.mansion"
    min_players = 3
    max_players = 5
    ai_levels: tuple[str, ...] = LEVELS
    default_level = "normal"
    idle_level = IDLE
    gone_level = "normal"
    """A member who left the server is replaced for good: by a real AI, not idle moves."""
    settings = MansionSettings
    help = N_(
        "🕵️ **Clue: Mystery Beyond the Mansion** (3–5 players) — `/mansion new` (variant "
        "standard or one-against-all, series 1–3 wins) opens a table; others `join`, the host "
        "can `add-ai`, then `start`. Your cards and prompts (show a card, pick a face-down "
        "card, answer a tip) arrive by DM, or `/mansion hand`. On your turn press **My turn** "
        "or `/mansion turn`: your Action cards, then what each needs; `/mansion accuse` "
        "names the solution. `/mansion notes` keeps your grid, `/mansion rules`, `log`."
    )
    started_text = N_(
        "🃏 The game starts: your cards and anything you must answer come by DM (or "
        "`/mansion hand`). On your turn press **My turn** or use `/mansion turn`."
    )

    state_model = GameState
    drawers = pictures.DRAWERS
    warm_pictures = staticmethod(pictures.warm_up)
    actions = ACTION_ADAPTER
    events = EVENT_ADAPTER

    def start(self, seats: Sequence[SeatRef], settings: MansionSettings, seed: int
              ) -> tuple[GameState, list[Event]]:
        options = Options(players=len(seats), variant=settings.engine_variant,
                          series_wins=settings.series)
        return new_game([PlayerRef(id=s.player_id, name=s.name) for s in seats], options, seed)

    apply = staticmethod(apply)
    waiting_on = staticmethod(legal.waiting_on)
    turn_key = staticmethod(legal.turn_key)
    is_over = staticmethod(legal.is_over)
    winners = staticmethod(legal.winners)

    def abandon(self, state: GameState, reason: str) -> tuple[GameState, list[Event]]:
        return apply(state, Abandon(reason=reason))

    def under_way(self, state: GameState) -> bool:
        """A game of the series was dealt (One Against All deals once the fugitive chose)."""
        return state.solution is not None or any(r.solution is not None for r in state.rounds)

    def ai_action(self, state: GameState, seat: int, level: str, rng: random.Random) -> Action:
        if level == IDLE:
            action = _idle_choice(state, seat)
            assert action is not None, "the game waits on a seat with nothing legal to do"
            return action
        known: dict[str, Level] = {name: name for name in LEVELS}  # unknown: fails, not easy
        return choose_action(player_view(state, seat), known[level], rng)

    def idle_notice(self, table: Table, state: GameState, seat: int, *, lang: str) -> str:
        """Says exactly what the timer does (the idle choice is drawn from the state, so the
        notice and the move agree), never what is secret: no card shown, no tip text."""
        v = voice(public_view(state), lang=lang)
        prompt = state.prompt_for(seat)
        action = _idle_choice(state, seat)
        name = v.who(seat)
        if prompt is None or action is None:
            return tr(lang, "⏰ {seat} took too long.", seat=name)
        match prompt.kind:
            case "play":
                what = tr(lang, "for them, {play}; then their turn is played out for them (an "
                                "idle turn never accuses).", play=_played(action, v))
            case "accuse_or_end":
                what = tr(lang, "their turn is ended for them (no accusation).")
            case "show":
                assert isinstance(prompt, ShowPrompt)
                what = tr(lang, "one of the cards they could show is picked at random and "
                                "shown to {seat}.", seat=v.who(prompt.to))
            case "pick":
                assert isinstance(prompt, PickPrompt)
                what = tr(lang, "one of {seat}'s face-down cards is picked for them at random.",
                          seat=v.who(prompt.target))
            case "answer_tip":
                assert isinstance(prompt, TipPrompt)
                what = tr(lang, "{seat}'s Private Tip is answered for them with a random "
                                "allowed answer (only the two of them see it).",
                          seat=v.who(prompt.to))
            case "choose_solution":
                what = tr(lang, "a random solution is chosen for them (it stays secret).")
        return tr(lang, "⏰ {seat} took too long: {what}", seat=name, what=what)

    def refusal(self, error: RuleError, *, lang: str) -> str:
        """The engine's refusal in `lang`, the game's words in it (a card's name, what a
        Super Sleuth or Private Tip asks for); a name a member typed stays as typed."""
        params = {k: words.term(lang, v) if isinstance(v, str) else v
                  for k, v in error.params.items()}
        return tr(lang, error.message, **params)

    # what is delivered ------------------------------------------------------------------

    def table_message(self, table: Table, state: GameState | None, *, lang: str) -> Outgoing:
        if state is None:
            return lobby_message(table, f"🕵️ **{TITLE}**", components.lobby_view(table.id, lang),
                                 lambda host, names: lobby_embed(host, names, table.options,
                                                                 lang), lang)
        view = public_view(state)
        # No content: an edit keeps the news the message was posted with (a change with no
        # public news, like a refuter's private choice, only updates the status embed).
        # The table embed shows the markers around the tray while playing, the reveal at the end.
        # At the end the news is the content (who won, said once: the embed does not repeat
        # it); `status` after the end, with no news, says it in the content instead.
        shown = (reveal_picture(view, lang, embed=0) if view.phase == "over"
                 else markers_picture(view, lang, embed=0))
        ended = status_line(view, voice(view, lang=lang)) if view.phase == "over" else None
        return Outgoing.of(ended, embeds=[table_embed(view, lang)],
                           view=components.table_view(table.id, view, lang),
                           pictures=[shown] if shown is not None else [])

    def news(self, table: Table, state: GameState, events: Sequence[Event], *, lang: str
             ) -> str | None:
        return channel_text(events, public_view(state), lang) or None

    def awaited(self, state: GameState, seat: int, *, lang: str) -> str | None:
        """The turn player's own steps after the turn began (the Snoop's pick, accuse or end)
        need no alert: the turn's alert was given, and the DM of what they learned brings
        the next step."""
        view = public_view(state)
        prompt = next((p for p in view.waiting if p.seat == seat), None)
        if prompt is None:
            return tr(lang, YOUR_TURN)
        if seat == view.turn and prompt.kind != "play" and (
                prompt.kind == "accuse_or_end" or prompt.reason == "snoop"):
            return None
        return awaited_text(prompt, voice(view, lang=lang))

    def alert_dm(self, table: Table, state: GameState, seat: int, *, lang: str) -> Outgoing:
        """The turn's one DM for a member who chose `dm`: what to do, with My turn."""
        view = player_view(state, seat)
        if view.prompt is None:
            return super().alert_dm(table, state, seat, lang=lang)
        items = components.prompt_items(table.id, view, lang)
        return Outgoing.of(prompt_text(view.prompt, view, voice(view, seat, lang)),
                           view=view_of(*items) if items else None)

    def letter(self, table: Table, state: GameState, events: Sequence[Event], seat: int, *,
               lang: str) -> Outgoing | None:
        """What the seat learned, with the prompts it must answer; a turn's start (its draw
        and its play prompt) is not among them: the member's alert says it, as they chose (a
        ping, a DM or nothing), and the panel shows the cards."""
        events = [e for e in events if not isinstance(e, ActionDrawn)
                  and not (isinstance(e, PromptOpened) and e.prompt.kind == "play")]
        view = player_view(state, seat)
        dealt = any(isinstance(e, HandDealt) and e.seat == seat for e in events)
        starts = [i for i, e in enumerate(events) if isinstance(e, RoundStarted)]
        if starts:  # a new game of the series: its own DM (the last game's news came before)
            events = events[starts[-1]:]
        text = dm_text(events, view, lang)
        if text is None:
            return None
        if dealt and state.round > 1:
            text = f"{series_line(state, lang)}\n{text}"
        opened = {e.prompt.id for e in events
                  if isinstance(e, PromptOpened) and e.audience.includes(seat)}
        items = (components.prompt_items(table.id, view, lang)
                 if view.prompt is not None and view.prompt.id in opened else [])
        return Outgoing.of(text, view=view_of(*items) if items else None,
                           pictures=[hand_picture(view, lang)] if dealt else [])

    def slow_letters(self, state: GameState, events: Sequence[Event]
                     ) -> Callable[[Mapping[int, str]], Mapping[int, Outgoing]] | None:
        """Each member's review of a game, once, when it ends: every game of a series, the
        last with the table's end."""
        if not any(isinstance(e, RoundOver) for e in events):
            return None
        return functools.partial(review_letters, review_letter, state)

    # what commands show -----------------------------------------------------------------

    def hand(self, table: Table, state: GameState, seat: int, *, lang: str) -> Outgoing:
        view = player_view(state, seat)
        items = components.prompt_items(table.id, view, lang)
        return Outgoing.of(embeds=[hand_embed(view, lang)],
                           view=view_of(*items) if items else None,
                           pictures=[hand_picture(view, lang, embed=0)] if view.clues else [])

    def log(self, table: Table, state: GameState, *, lang: str) -> str:
        return log_text(public_view(state), lang)

    def rules(self, table: Table | None, lang: str) -> str:
        if table is None:
            return rules_text(lang)
        settings = MansionSettings.model_validate(table.options)
        return rules_text(lang, settings.variant, settings.series)


def series_line(state: GameState, lang: str) -> str:
    """The head of a new game's deal DM: which game of the series, and the score."""
    score = " · ".join(f"{plain_name(s.name)} {s.score}" for s in state.seats)
    return tr(lang, "🔁 **Game {round} of the series** (first to {wins} wins) · score: {score}",
              round=state.round, wins=state.options.series_wins, score=score)


def _idle_choice(state: GameState, seat: int) -> Action | None:
    """The idle move, drawn from the state alone (seed, step, seat): the same every time it
    is asked, so `idle_notice` can say what `ai_action` will do."""
    rng = random.Random(f"{state.seed}:{state.step}:idle:{seat}")
    return idle_action(player_view(state, seat), seat, rng)


def _played(action: Action, v: Voice) -> str:
    """A card play as the table may hear it (a Private Tip's text stays secret)."""
    who, lang = (v.who(action.seat) if hasattr(action, "seat") else "?"), v.lang
    match action:
        case SuggestAny():
            return tr(lang, "{seat} plays **{card}** from **{place}**", seat=who,
                      card=action_name(lang, "suggest_any"),
                      place=card_name(lang, action.destination))
        case SuggestPresent():
            return tr(lang, "{seat} plays **{card}**", seat=who,
                      card=action_name(lang, "suggest_present"))
        case Move():
            return tr(lang, "{seat} plays **{card}** to move to **{place}**", seat=who,
                      card=action_name(lang, "suggest_present"),
                      place=card_name(lang, action.destination))
        case Snoop():
            return tr(lang, "{seat} plays **Snoop** on {target}", seat=who,
                      target=v.who(action.target))
        case AllSnoop() | SuperSleuth():
            return tr(lang, "{seat} plays **{card}**", seat=who,
                      card=action_name(lang, action.card))
        case PrivateTip():
            return tr(lang, "{seat} passes a **Private Tip** to {target}", seat=who,
                      target=v.who(action.target))
    return tr(lang, "{seat} plays a card", seat=who)



GAME = Mansion()
