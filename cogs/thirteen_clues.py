"""`/13clues` and its buttons: parse, defer, call the table service, answer ephemerally."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import DeductionBot, reply
from bot.errors import UserError
from bot.games import Outgoing
from bot.models import Table, player_id
from bot.render.thirteen_clues.embeds import hand_embed
from bot.render.thirteen_clues.labels import card_label, subject_label
from bot.render.thirteen_clues.texts import question_log_text, rules_text
from bot.thirteen_clues import components
from bot.thirteen_clues.casebook import casebook_message, with_marks
from bot.thirteen_clues.components import AskDraft, Click
from engine.errors import RuleError
from engine.thirteen_clues import (
    Accuse,
    Ask,
    ChoosePass,
    Consult,
    GameState,
    TakeGlass,
    legal,
    player_view,
    public_view,
)
from engine.thirteen_clues.cards import CARDS, Category, find_card, subject_kind

log = logging.getLogger(__name__)
GAME = "13clues"


class ThirteenCluesComponent(
    discord.ui.DynamicItem[discord.ui.Item], template=components.TEMPLATE
):
    """Every 13 Clues button and select, found again from its custom_id after a restart."""

    def __init__(self, item: discord.ui.Item, click: Click) -> None:
        super().__init__(item)
        self.click = click

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any
    ) -> ThirteenCluesComponent:
        return cls(item, Click.parse(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog(ThirteenCluesCog.__cog_name__)  # type: ignore[attr-defined]
        await cog.on_click(interaction, self.click)


class ThirteenCluesCog(commands.Cog, name="13 Clues"):
    group = app_commands.Group(
        name="13clues", description="13 Clues: find the Person, Location and Weapon you hold",
        guild_only=True,
    )

    def __init__(self, bot: DeductionBot) -> None:
        self.bot = bot

    @property
    def tables(self):
        return self.bot.tables

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ThirteenCluesComponent)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ThirteenCluesComponent)

    # helpers ------------------------------------------------------------------------------

    async def _table(self, interaction: discord.Interaction, *, finished: bool = False) -> Table:
        """The table in this channel; `finished` also finds the last game, to look at."""
        assert interaction.channel_id is not None
        return await self.tables.in_channel(interaction.channel_id, GAME, finished=finished)

    async def _guarded(
        self, interaction: discord.Interaction, work: Callable[[], Awaitable[str | Outgoing]]
    ) -> None:
        """Defer at once (ephemeral), run `work`, answer with its result or the refusal."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            result = await work()
        except (UserError, RuleError) as exc:
            await interaction.followup.send(str(exc), ephemeral=True)
            return
        if isinstance(result, str):
            await interaction.followup.send(result, ephemeral=True)
        else:
            await interaction.followup.send(ephemeral=True, **result.send_kwargs())

    async def _act_in_channel(
        self, interaction: discord.Interaction, build: Callable[[GameState, int], Any], done: str
    ) -> None:
        async def work() -> str:
            table = await self._table(interaction)
            await self.tables.act(table.id, interaction.user.id, build)
            return done

        await self._guarded(interaction, work)

    def _state_and_seat(self, table: Table, user_id: int) -> tuple[GameState, int]:
        """The game and the user's seat in it; refused for someone not seated."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError("You are not seated at this table.")
        return self.tables.state_of(table), seat

    async def _table_or(
        self, interaction: discord.Interaction, table_id: int | None, *, finished: bool = False
    ) -> Table:
        """The table a button names, or (slash commands) the one in this channel."""
        if table_id is not None:
            return await self.tables.by_id(table_id)
        return await self._table(interaction, finished=finished)

    async def _on_table(
        self,
        interaction: discord.Interaction,
        table_id: int | None,
        work: Callable[[Table], Awaitable[str | Outgoing]],
        *,
        finished: bool = False,
    ) -> None:
        """Find the table (by button or channel), run `work` on it, answer ephemerally."""

        async def run() -> str | Outgoing:
            return await work(await self._table_or(interaction, table_id, finished=finished))

        await self._guarded(interaction, run)

    async def _join(self, interaction: discord.Interaction, table_id: int | None) -> None:
        async def join(table: Table) -> str:
            await self.tables.join(table.id, interaction.user.id, interaction.user.display_name)
            return "You have a seat. The host starts the game."

        await self._on_table(interaction, table_id, join)

    async def _leave(self, interaction: discord.Interaction, table_id: int | None) -> None:
        async def leave(table: Table) -> str:
            await self.tables.leave(table.id, interaction.user.id)
            return "You left the table."

        await self._on_table(interaction, table_id, leave)

    async def _start(self, interaction: discord.Interaction, table_id: int | None) -> None:
        async def start(table: Table) -> str:
            await self.tables.start(table.id, interaction.user.id)
            return "Cards dealt: check your DMs (or `/13clues hand`) and choose what to pass left."

        await self._on_table(interaction, table_id, start)

    async def _show_hand(self, interaction: discord.Interaction, table_id: int | None) -> None:
        async def hand(table: Table) -> Outgoing:
            return self._hand(table, interaction.user.id)

        await self._on_table(interaction, table_id, hand, finished=True)

    async def _show_casebook(self, interaction: discord.Interaction, table_id: int | None) -> None:
        async def casebook(table: Table) -> Outgoing:
            return await self._casebook(table, interaction.user.id)

        await self._on_table(interaction, table_id, casebook)

    # lobby --------------------------------------------------------------------------------

    @group.command(name="new", description="Open a 13 Clues table in this channel")
    @app_commands.describe(
        edition="Rule set (2020 by default)",
        top_secret="Top Secret variant: one secret question per player",
        assist="How much the casebook helps: off, bookkeeping, or full deduction",
        turn_minutes="Minutes per turn before an AI plays it (0 = no limit)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        edition: Literal["2020", "2016"] | None = None,
        top_secret: bool = False,
        assist: Literal["off", "bookkeeping", "full"] | None = None,
        turn_minutes: app_commands.Range[int, 0, 1440] = 0,
    ) -> None:
        async def work() -> str:
            perms = interaction.app_permissions
            if not (perms.send_messages and perms.embed_links and perms.view_channel):
                raise UserError(
                    "I need View Channel, Send Messages and Embed Links in this channel to run a "
                    "table here. Ask a moderator to grant them, or use another channel."
                )
            assert interaction.guild_id is not None and interaction.channel_id is not None
            defaults = await self.bot.storage.guild_settings(interaction.guild_id)
            options = {
                "edition": edition or defaults.get("edition", "2020"),
                "top_secret": top_secret,
                "assist": assist or defaults.get("assist", "off"),
                "turn_minutes": turn_minutes or defaults.get("turn_minutes", 0),
            }
            await self.tables.open(
                interaction.guild_id,
                interaction.channel_id,
                GAME,
                interaction.user.id,
                interaction.user.display_name,
                options,
            )
            return "Table open. Others join with the **Join** button or `/13clues join`."

        await self._guarded(interaction, work)

    @group.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._join(interaction, None)

    @group.command(name="leave", description="Leave the table before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._leave(interaction, None)

    @group.command(name="add-ai", description="Seat AI detectives (host only)")
    @app_commands.describe(count="How many", level="easy, normal or expert")
    async def add_ai(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 5] = 1,
        level: Literal["easy", "normal", "expert"] = "normal",
    ) -> None:
        async def work() -> str:
            table = await self._table(interaction)
            await self.tables.add_ai(table.id, interaction.user.id, count, level)
            return f"Seated {count} {level} AI detective(s)."

        await self._guarded(interaction, work)

    @group.command(name="start", description="Deal the cards (host, 2–6 seated)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._start(interaction, None)

    @group.command(name="end", description="End the table (host or Manage Server)")
    async def end(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            table = await self._table(interaction)
            await self.tables.end(
                table.id,
                interaction.user.id,
                moderator=interaction.permissions.manage_guild,
                name=interaction.user.display_name,
            )
            return "The table is closed."

        await self._guarded(interaction, work)

    # play ---------------------------------------------------------------------------------

    @group.command(name="pass", description="Choose the Person, Location, Weapon to pass left")
    async def pass_(
        self, interaction: discord.Interaction, person: str, location: str, weapon: str
    ) -> None:
        def build(state: GameState, seat: int) -> ChoosePass:
            p, loc, w = (_card(c) for c in (person, location, weapon))
            return ChoosePass(seat=seat, person=p, location=loc, weapon=w)

        await self._act_in_channel(interaction, build, "Your choice is made; nothing is shown "
                                   "until everyone has chosen.")

    @group.command(name="ask", description="Question a witness")
    @app_commands.describe(
        witness="The player you ask",
        about="A suit, a sub-category (or, 2016 rules, a category)",
        side="Two players only: including the witness's left or right card",
        top_secret="Spend your Top Secret token: only you and the witness learn this",
    )
    async def ask(
        self,
        interaction: discord.Interaction,
        witness: discord.User,
        about: str,
        side: Literal["left", "right"] | None = None,
        top_secret: bool = False,
    ) -> None:
        def build(state: GameState, seat: int) -> Ask:
            target = _seat_of_player(state, witness.id)
            return Ask(seat=seat, witness=target, subject=_subject(about), side=side,
                       top_secret=top_secret)

        await self._act_in_channel(interaction, build, "Asked.")

    @group.command(name="informant", description="Look at a Secret Informant card")
    @app_commands.describe(card="The informant's letter")
    async def informant(self, interaction: discord.Interaction, card: str) -> None:
        def build(state: GameState, seat: int) -> Consult:
            return Consult(seat=seat, letter=card.strip().upper())

        await self._act_in_channel(interaction, build, "Done: the card is in your DMs and in "
                                   "`/13clues hand`.")

    @group.command(name="accuse", description="Name the Person, Location and Weapon on your holder")
    async def accuse(
        self, interaction: discord.Interaction, person: str, location: str, weapon: str
    ) -> None:
        def build(state: GameState, seat: int) -> Accuse:
            p, loc, w = (_card(c) for c in (person, location, weapon))
            return Accuse(seat=seat, person=p, location=loc, weapon=w)

        await self._act_in_channel(interaction, build, "Accusation made.")

    @group.command(name="take", description="Take a magnifying glass from a player (empty supply)")
    async def take(self, interaction: discord.Interaction, player: discord.User) -> None:
        def build(state: GameState, seat: int) -> TakeGlass:
            return TakeGlass(seat=seat, source=_seat_of_player(state, player.id))

        await self._act_in_channel(interaction, build, "You took a magnifying glass.")

    # looking ------------------------------------------------------------------------------

    @group.command(name="status", description="The table: seats, glasses, whose turn")
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> Outgoing:
            table = await self._table(interaction, finished=True)
            return self.tables.module(table).table_message(
                table, self.tables.state_of(table) if table.state else None
            )

        await self._guarded(interaction, work)

    @group.command(name="hand", description="Everything you may see (only you see this)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self._show_hand(interaction, None)

    @group.command(name="casebook", description="Your casebook of candidates (only you see this)")
    async def casebook(self, interaction: discord.Interaction) -> None:
        await self._show_casebook(interaction, None)

    @group.command(name="log", description="Every public question and answer so far")
    async def log_(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            table = await self._table(interaction, finished=True)
            return question_log_text(public_view(self.tables.state_of(table)))

        await self._guarded(interaction, work)

    @group.command(name="rules", description="A summary of this table's rules")
    async def rules(self, interaction: discord.Interaction) -> None:
        async def work() -> str:
            assert interaction.channel_id is not None
            table = await self.bot.storage.open_table(interaction.channel_id)
            if table is None or table.game != GAME:
                return rules_text("2020")
            players = len(table.seats) if table.status == "playing" else None
            return rules_text(
                table.options.get("edition", "2020"), players,
                bool(table.options.get("top_secret")),
            )

        await self._guarded(interaction, work)

    def _hand(self, table: Table, user_id: int) -> Outgoing:
        state, seat = self._state_and_seat(table, user_id)
        view = player_view(state, seat)
        out = Outgoing(embeds=[hand_embed(view)])
        if state.phase == "passing" and state.seats[seat].passed is None:
            out.view = components.pass_view(table.id, view)
        return out

    async def _casebook(self, table: Table, user_id: int) -> Outgoing:
        state, seat = self._state_and_seat(table, user_id)
        notes = await self.bot.storage.seat_notes(table.id, seat)
        return casebook_message(table, player_view(state, seat), notes)

    # autocomplete -------------------------------------------------------------------------

    async def _autocomplete_state(
        self, interaction: discord.Interaction
    ) -> tuple[GameState, int] | None:
        try:
            table = await self._table(interaction)
            return self._state_and_seat(table, interaction.user.id)
        except UserError:
            return None

    @pass_.autocomplete("person")
    @pass_.autocomplete("location")
    @pass_.autocomplete("weapon")
    async def _pass_cards(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self._autocomplete_state(interaction)
        if found is None:
            return []
        state, seat = found
        category = _focused_category(interaction)
        cards = [c for c in state.seats[seat].dealt if CARDS[c].category == category]
        return _card_choices(cards, current)

    @accuse.autocomplete("person")
    @accuse.autocomplete("location")
    @accuse.autocomplete("weapon")
    async def _accusable(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self._autocomplete_state(interaction)
        if found is None or found[0].phase != "turns":
            return []
        state, seat = found
        return _card_choices(
            legal.accusable_cards(state, seat)[_focused_category(interaction)], current
        )

    @ask.autocomplete("about")
    async def _subjects(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self._autocomplete_state(interaction)
        if found is None:
            return []
        needle = current.strip().lower()
        return [
            app_commands.Choice(name=subject_label(s), value=s)
            for s in legal.question_subjects(found[0])
            if needle in s or needle in subject_label(s).lower()
        ][:25]

    @informant.autocomplete("card")
    async def _letters(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self._autocomplete_state(interaction)
        if found is None:
            return []
        state, seat = found
        peeks = state.seats[seat].peeks
        return [
            app_commands.Choice(
                name=f"{letter} (you saw {CARDS[peeks[letter]].name})" if letter in peeks
                else letter,
                value=letter,
            )
            for letter in state.letters()
            if letter.startswith(current.strip().upper())
        ]

    # buttons and selects ------------------------------------------------------------------

    async def on_click(self, interaction: discord.Interaction, click: Click) -> None:
        """Route a component by the verb in its custom_id; never leave a click unanswered."""
        handler = getattr(self, f"_click_{click.verb}", None)
        try:
            if handler is None:
                raise UserError("This button belongs to an older version of the bot.")
            await handler(interaction, click)
        except (UserError, RuleError) as exc:
            await reply(interaction, str(exc))
        except Exception:
            log.exception("click %s failed", click)
            await reply(interaction, "Something went wrong on my side; the game is unchanged.")

    async def _click_join(self, interaction: discord.Interaction, click: Click) -> None:
        await self._join(interaction, click.table_id)

    async def _click_leave(self, interaction: discord.Interaction, click: Click) -> None:
        await self._leave(interaction, click.table_id)

    async def _click_start(self, interaction: discord.Interaction, click: Click) -> None:
        await self._start(interaction, click.table_id)

    async def _click_hand(self, interaction: discord.Interaction, click: Click) -> None:
        await self._show_hand(interaction, click.table_id)

    async def _click_book(self, interaction: discord.Interaction, click: Click) -> None:
        await self._show_casebook(interaction, click.table_id)

    async def _click_mark(self, interaction: discord.Interaction, click: Click) -> None:
        """Casebook menus: the cards this seat crosses out by hand, per category."""
        table = await self.tables.by_id(click.table_id)
        state, seat = self._state_and_seat(table, interaction.user.id)
        notes = await self.bot.storage.seat_notes(table.id, seat)
        notes = with_marks(notes, click.draft, _values(interaction))
        await self.bot.storage.set_seat_notes(table.id, seat, notes)
        out = casebook_message(table, player_view(state, seat), notes)
        await interaction.response.edit_message(**out.send_kwargs())

    async def _click_pass(self, interaction: discord.Interaction, click: Click) -> None:
        chosen = _values(interaction)

        def build(state: GameState, seat: int) -> ChoosePass:
            by_category = {CARDS[c].category: c for c in chosen if c in CARDS}
            if len(by_category) != 3:
                raise UserError("Pick exactly one Person, one Location and one Weapon.")
            return ChoosePass(
                seat=seat,
                person=by_category[Category.PERSON],
                location=by_category[Category.LOCATION],
                weapon=by_category[Category.WEAPON],
            )

        await interaction.response.defer()
        await self.tables.act(click.table_id, interaction.user.id, build)
        await interaction.edit_original_response(
            content=f"You pass {', '.join(card_label(c) for c in chosen)} to your left "
            "neighbour's card holder. Waiting for the others…",
            view=None,
        )

    async def _my_turn(self, interaction: discord.Interaction, click: Click) -> tuple[
        Table, GameState, int
    ]:
        table = await self.tables.by_id(click.table_id)
        if click.version is not None and click.version != table.version:
            raise UserError("That button is out of date: use the latest table message.")
        state, seat = self._state_and_seat(table, interaction.user.id)
        if state.phase != "turns" or state.turn != seat:
            raise UserError(_not_your_turn(state))
        return table, state, seat

    async def _click_ask(self, interaction: discord.Interaction, click: Click) -> None:
        table, state, seat = await self._my_turn(interaction, click)
        await self._show_ask(interaction, table, state, seat, AskDraft(), fresh=True)

    async def _show_ask(
        self,
        interaction: discord.Interaction,
        table: Table,
        state: GameState,
        seat: int,
        draft: AskDraft,
        *,
        fresh: bool = False,
    ) -> None:
        picker = components.ask_picker(
            table.id, table.version, player_view(state, seat), legal.question_subjects(state),
            draft,
        )
        text = "❓ **Question a witness**: pick the witness and the subject, then **Ask**."
        if fresh:
            await interaction.response.send_message(text, view=picker, ephemeral=True)
        else:
            await interaction.response.edit_message(content=text, view=picker)

    async def _edit_ask(
        self, interaction: discord.Interaction, click: Click, change: dict[str, Any]
    ) -> None:
        table, state, seat = await self._my_turn(interaction, click)
        draft = AskDraft.decode(click.draft)
        draft = AskDraft(**{**draft.__dict__, **change})
        await self._show_ask(interaction, table, state, seat, draft)

    async def _click_askw(self, interaction: discord.Interaction, click: Click) -> None:
        await self._edit_ask(interaction, click, {"witness": int(_values(interaction)[0])})

    async def _click_asks(self, interaction: discord.Interaction, click: Click) -> None:
        await self._edit_ask(interaction, click, {"subject": _values(interaction)[0]})

    async def _click_askd(self, interaction: discord.Interaction, click: Click) -> None:
        await self._edit_ask(interaction, click, {"side": _values(interaction)[0]})

    async def _click_askt(self, interaction: discord.Interaction, click: Click) -> None:
        draft = AskDraft.decode(click.draft)
        await self._edit_ask(interaction, click, {"top_secret": not draft.top_secret})

    async def _click_askgo(self, interaction: discord.Interaction, click: Click) -> None:
        draft = AskDraft.decode(click.draft)

        def build(state: GameState, seat: int) -> Ask:
            if draft.witness is None or draft.subject is None:
                raise UserError("Pick a witness and a subject first.")
            return Ask(seat=seat, witness=draft.witness, subject=draft.subject,
                       side=draft.side, top_secret=draft.top_secret)

        await self._finish_picker(interaction, click, build, "Asked: the answer is in the channel"
                                  + (" (Top Secret: in your DMs)." if draft.top_secret else "."))

    async def _click_inf(self, interaction: discord.Interaction, click: Click) -> None:
        table, state, seat = await self._my_turn(interaction, click)
        await interaction.response.send_message(
            "🗂️ **Secret Informant**: which letter?",
            view=components.informant_picker(table.id, table.version, player_view(state, seat)),
            ephemeral=True,
        )

    async def _click_infgo(self, interaction: discord.Interaction, click: Click) -> None:
        letter = _values(interaction)[0]

        def build(state: GameState, seat: int) -> Consult:
            return Consult(seat=seat, letter=letter)

        await self._finish_picker(interaction, click, build, f"You consulted informant {letter}:"
                                  " the card is in your DMs and in **My secrets**.")

    async def _click_acc(self, interaction: discord.Interaction, click: Click) -> None:
        table, state, seat = await self._my_turn(interaction, click)
        await interaction.response.send_message(
            _ACCUSE_TEXT,
            view=components.accuse_picker(
                table.id, table.version, legal.accusable_cards(state, seat), [None, None, None]
            ),
            ephemeral=True,
        )

    async def _edit_accuse(
        self, interaction: discord.Interaction, click: Click, index: int
    ) -> None:
        table, state, seat = await self._my_turn(interaction, click)
        draft = components.decode_accuse(click.draft)
        draft[index] = _values(interaction)[0]
        await interaction.response.edit_message(
            content=_ACCUSE_TEXT,
            view=components.accuse_picker(
                table.id, table.version, legal.accusable_cards(state, seat), draft
            ),
        )

    async def _click_accp(self, interaction: discord.Interaction, click: Click) -> None:
        await self._edit_accuse(interaction, click, 0)

    async def _click_accl(self, interaction: discord.Interaction, click: Click) -> None:
        await self._edit_accuse(interaction, click, 1)

    async def _click_accw(self, interaction: discord.Interaction, click: Click) -> None:
        await self._edit_accuse(interaction, click, 2)

    async def _click_accgo(self, interaction: discord.Interaction, click: Click) -> None:
        draft = components.decode_accuse(click.draft)

        def build(state: GameState, seat: int) -> Accuse:
            p, loc, w = draft
            if p is None or loc is None or w is None:
                raise UserError("Pick a Person, a Location and a Weapon first.")
            return Accuse(seat=seat, person=p, location=loc, weapon=w)

        await self._finish_picker(interaction, click, build, "Accusation made.")

    async def _click_take(self, interaction: discord.Interaction, click: Click) -> None:
        table = await self.tables.by_id(click.table_id)
        state, seat = self._state_and_seat(table, interaction.user.id)
        sources = legal.take_sources(state, seat)
        if not sources:
            raise UserError(_not_your_turn(state) if state.turn != seat else
                            "You do not need to take a glass from a player now.")
        await interaction.response.send_message(
            "🔎 The supply is empty: take a magnifying glass from a player.",
            view=components.take_picker(table.id, table.version, player_view(state, seat),
                                        sources),
            ephemeral=True,
        )

    async def _click_takego(self, interaction: discord.Interaction, click: Click) -> None:
        source = int(_values(interaction)[0])

        def build(state: GameState, seat: int) -> TakeGlass:
            return TakeGlass(seat=seat, source=source)

        await self._finish_picker(interaction, click, build, "You took a magnifying glass.")

    async def _finish_picker(
        self,
        interaction: discord.Interaction,
        click: Click,
        build: Callable[[GameState, int], Any],
        done: str,
    ) -> None:
        """Apply the picker's action; the picker becomes its result. A refusal only takes the
        picker's controls away and is answered apart: after a double click the picker must go
        on showing the first click's success, not the second click's refusal."""
        await interaction.response.defer()
        try:
            await self.tables.act(click.table_id, interaction.user.id, build,
                                  version=click.version)
        except (UserError, RuleError) as exc:
            await interaction.edit_original_response(view=None)
            await interaction.followup.send(f"⚠️ {exc}", ephemeral=True)
            return
        await interaction.edit_original_response(content=f"✅ {done}", view=None)


_ACCUSE_TEXT = (
    "⚖️ **Accusation**: name the Person, Location and Weapon on your own card holder. "
    "Only cards you may accuse are offered."
)


def _values(interaction: discord.Interaction) -> list[str]:
    data = interaction.data or {}
    return list(data.get("values", []))  # type: ignore[call-overload]


def _seat_of_player(state: GameState, user_id: int) -> int:
    for i, s in enumerate(state.seats):
        if s.id == player_id(user_id):
            return i
    raise UserError("That member is not seated at this table (AI seats: use the Ask button).")


def _not_your_turn(state: GameState) -> str:
    if state.phase == "passing":
        return "The game is waiting for everyone to choose the cards to pass left."
    if state.phase == "over":
        return "This game is over."
    return f"It is {state.seats[state.turn].name}'s turn, not yours."


def _card(text: str) -> str:
    card = find_card(text)
    if card is None:
        raise UserError(f"There is no card called '{text}'. Pick one from the list.")
    return card


def _subject(text: str) -> str:
    key = text.strip().lower().replace(" ", "_").replace("-", "_")
    if key.endswith("s") and subject_kind(key[:-1]) == "category":
        key = key[:-1]
    if subject_kind(key) is None:
        raise UserError(f"'{text}' is not something you can ask about. Pick one from the list.")
    return key


def _focused_category(interaction: discord.Interaction) -> Category:
    focused = next(
        (o["name"] for o in (interaction.data or {}).get("options", [{}])[0].get("options", [])
         if o.get("focused")),
        "person",
    )
    return Category(focused if focused in ("person", "location", "weapon") else "person")


def _card_choices(cards: list[str], current: str) -> list[app_commands.Choice[str]]:
    needle = current.strip().lower()
    return [
        app_commands.Choice(name=card_label(c), value=c)
        for c in cards
        if needle in CARDS[c].name.lower()
    ][:25]


async def setup(bot: DeductionBot) -> None:
    await bot.add_cog(ThirteenCluesCog(bot))
