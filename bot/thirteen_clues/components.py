"""13 Clues' buttons and selects: one DynamicItem family each, owning its custom_id template,
its builder, its parser and its callback, so a click is handled after any restart, also from
a DM."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import discord

from bot.components import TableButton, button, values, view_of
from bot.errors import UserError
from bot.family import BLUE, GREEN, GREY, NONE, RED, headed_in_dm
from bot.i18n import N_, SOURCE, tr, trn
from bot.interactions import answer, language_of, place_of, run, run_update, tables_of
from bot.messages import Outgoing
from bot.models import Table
from bot.plug import TableSettings
from bot.tables import Reply
from bot.thinking import require_full
from bot.thirteen_clues import actions
from bot.thirteen_clues.casebook import MarkSelect, show_casebook
from bot.thirteen_clues.coaching import advice_for, hint_text
from bot.thirteen_clues.family import (
    OWN,
    PREFIX,
    Family,
    Then,
    custom_id,
    picked,
)
from bot.thirteen_clues.render.lines import consulted_answer, pass_answer
from bot.thirteen_clues.words import card_label, card_name, category_name, subject_label
from engine.thirteen_clues import Event, GameState, legal, player_view
from engine.thirteen_clues.cards import CARDS, Category, subject_kind
from engine.thirteen_clues.views import PlayerView, PublicView

# the table message --------------------------------------------------------------------------


class TurnButton(Family, template=r"13c:(?P<verb>ask|inf|acc|take|book|hint):(?P<table>\d+):"
                                 r"(?P<stamp>-|\d+)"):
    """Ask, Informant, Accuse, Take a glass, Hint (the current player's) and Casebook
    (anyone's)."""

    async def clicked(self, interaction: discord.Interaction) -> None:
        if self.click.verb == "book":
            await show_casebook(interaction, lambda: self.table(interaction))
            return
        if self.click.verb == "hint":
            await run(interaction, lambda: self.hint(interaction))
            return
        if self.click.verb == "take":
            table = await self.table(interaction)
            tables = tables_of(interaction)
            seat = tables.seat(table, interaction.user.id)
            state = OWN.state(tables.state_of(table))
            sources = legal.take_sources(state, seat)
            if not sources:
                if state.turn != seat:
                    raise legal.not_your_turn(state, seat)
                raise UserError("You do not need to take a glass from a player now.")
            lang = await language_of(interaction)
            await answer(interaction, Outgoing.of(
                tr(lang, "🔎 The supply is empty: take a magnifying glass from a player."),
                view=TakePicker.picker(lang, table, player_view(state, seat), sources)))
            return
        table, state, seat = await self.my_turn(interaction)
        view = player_view(state, seat)
        lang = await language_of(interaction)
        if self.click.verb == "ask":
            text, picker = ASK_TEXT, AskPicker.picker(lang, table, view, AskDraft())
        elif self.click.verb == "inf":
            text = N_("🗂️ **Secret Informant**: which letter?")
            picker = InformantPicker.picker(lang, table, view)
        else:
            text, picker = ACCUSE_TEXT, AccusePicker.picker(lang, table, state, seat, [None] * 3)
        await answer(interaction, Outgoing.of(tr(lang, text), view=picker))

    async def hint(self, interaction: discord.Interaction) -> str:
        """The coach's top three moves for the player to act, at full assist only."""
        table = await self.table(interaction)
        require_full(TableSettings.model_validate(table.options).assist)
        table, state, seat = await self.my_turn(interaction)
        view = player_view(state, seat)
        return hint_text(await language_of(interaction), view, await advice_for(interaction, view))


def lobby_view(table: Table, lang: str) -> discord.ui.View:
    verbs = ("join", "leave", "start", *(("unai",) if any(s.is_ai for s in table.seats) else ()))
    return view_of(*(TableButton(PREFIX, verb, table.id, lang) for verb in verbs))


def table_view(lang: str, table_id: int, version: int, view: PublicView, *, hint: bool = False
               ) -> discord.ui.View | None:
    """The turn buttons on the living table message; they open pickers for the current player.
    `hint`: the table plays at full assist, so the player to act may ask the coach."""
    if view.phase == "over":
        return None
    secrets = TableButton(PREFIX, "hand", table_id, lang)
    if view.phase == "passing":
        return view_of(secrets)
    items: list[discord.ui.Item[Any]] = []
    if legal.must_take(view):
        items.append(button(tr(lang, "Take a glass"), custom_id("take", table_id, version), BLUE,
                            emoji="🔎"))
    else:
        items.append(button(tr(lang, "Ask"), custom_id("ask", table_id, version), BLUE,
                            emoji="❓"))
        if view.letters:
            items.append(button(tr(lang, "Informant"), custom_id("inf", table_id, version), BLUE,
                                emoji="🗂️"))
        items.append(button(tr(lang, "Accuse"), custom_id("acc", table_id, version), RED,
                            emoji="⚖️"))
        if hint:
            items.append(button(tr(lang, "Hint"), custom_id("hint", table_id, version), GREY,
                                emoji="💡"))
    items.append(secrets)
    items.append(button(tr(lang, "Casebook"), custom_id("book", table_id), GREY, emoji="📓"))
    return view_of(*items)


# the pass-left choice -----------------------------------------------------------------------


class PassSelect(Family, template=r"13c:(?P<verb>pass):(?P<table>\d+)(?::-)?"):
    """The DM select (also in `hand`): the Person, Location and Weapon to pass left."""

    @staticmethod
    def build_view(lang: str, table_id: int, view: PlayerView) -> discord.ui.View:
        options = [
            discord.SelectOption(
                label=card_name(lang, c), value=c,
                description=capitalized(category_name(lang, CARDS[c].category)),
                emoji=card_label(lang, c).split(" ")[0],
            )
            for c in view.dealt
        ]
        return view_of(discord.ui.Select(
            custom_id=custom_id("pass", table_id),
            placeholder=tr(lang, "Pick 1 Person, 1 Location, 1 Weapon to pass left"),
            min_values=3, max_values=3, options=options,
        ))

    async def clicked(self, interaction: discord.Interaction) -> None:
        chosen = values(interaction)

        def passing(lang: str) -> str:
            named = ", ".join(card_label(lang, c) for c in chosen if c in CARDS)
            return tr(lang, "You pass {cards} to your left neighbour's card holder. Waiting for "
                            "the others…", cards=named)

        async def work(reply: Reply) -> None:
            lang = await language_of(interaction)  # once acknowledged: it may read the database
            text = passing(lang)
            reply.body = Outgoing(content=text, components=[], drop_pictures=True)
            tables = tables_of(interaction)
            table, then = await self.table(interaction), pass_reply(lang, text)
            seat, game = table.seat_of(interaction.user.id), tables.module(table)
            kept = seat is not None and _on_a_dm(interaction)

            def answer(state: GameState, events: list[Event]) -> Outgoing:
                said = then(state, events)
                # the pass that begins play: this prompt is the member's kept DM, which
                # becomes their case file in the same change; as the answer edits it last,
                # it says the case file too
                news = game.letter(table, state, events, seat, lang=lang) \
                    if kept and seat is not None else None
                if news is not None:
                    said = news.model_copy(update={"content": f"{said.content}\n{news.content}"})
                return headed_in_dm(interaction, table, said, lang)

            reply.then = OWN.then(answer)
            await tables_of(interaction).act(
                self.click.table_id, interaction.user.id, OWN.builder(actions.pass_chosen(chosen)),
                place=place_of(interaction), reply=reply,
            )

        await run_update(interaction, work, passing(SOURCE), keep=True)


pass_view = PassSelect.build_view


def _on_a_dm(interaction: discord.Interaction) -> bool:
    """A click on a DM of the bot's (not on an ephemeral answer, such as `hand`'s)."""
    message = interaction.message
    return interaction.guild_id is None and message is not None and not message.flags.ephemeral


# pickers (ephemeral, opened from the turn buttons) ------------------------------------------

ASK_TEXT = N_("❓ **Question a witness**: pick the witness and the subject, then **Ask**.")
ACCUSE_TEXT = N_(
    "⚖️ **Accusation**: name the Person, Location and Weapon on your own card holder. "
    "Only cards you may accuse are offered."
)


@dataclass(frozen=True)
class AskDraft:
    witness: int | None = None
    subject: str | None = None
    side: str | None = None
    top_secret: bool = False

    def encode(self) -> str:
        return ".".join((
            NONE if self.witness is None else str(self.witness),
            self.subject or NONE,
            self.side or NONE,
            "1" if self.top_secret else "0",
        ))

    @classmethod
    def decode(cls, text: str) -> AskDraft:
        """A draft from a custom_id; whatever a forged one holds that no picker writes is
        dropped (it would be written back into the next custom_id)."""
        try:
            witness, subject, side, secret = text.split(".")
        except ValueError:
            return cls()
        return cls(
            witness=int(witness) if witness.isdecimal() and len(witness) == 1 else None,
            subject=subject if subject_kind(subject) is not None else None,
            side=side if side in ("left", "right") else None,
            top_secret=secret == "1",
        )

    def complete(self, two_players: bool) -> bool:
        return (
            self.witness is not None
            and self.subject is not None
            and (self.side is not None or not two_players)
        )


class AskPicker(Family, template=r"13c:(?P<verb>askw|asks|askd|askt|askgo):(?P<table>\d+):"
                                 r"(?P<stamp>\d+):(?P<draft>[^:]*)"):
    """Witness, subject, side (two players), Top Secret, then Ask."""

    @staticmethod
    def picker(lang: str, table: Table, view: PlayerView, draft: AskDraft) -> discord.ui.View:
        two, code = view.options.players == 2, draft.encode()

        def cid(verb: str) -> str:
            return custom_id(verb, table.id, table.version, code)

        items: list[discord.ui.Item[Any]] = [
            discord.ui.Select(
                custom_id=cid("askw"), placeholder=tr(lang, "Whom do you ask?"),
                options=[
                    discord.SelectOption(label=s.name[:100], value=str(i),
                                         default=i == draft.witness)
                    for i, s in enumerate(view.seats) if i != view.seat
                ],
            ),
            discord.ui.Select(
                custom_id=cid("asks"), placeholder=tr(lang, "How many cards they see of…"),
                options=[
                    discord.SelectOption(label=subject_label(lang, s)[:100], value=s,
                                         default=s == draft.subject)
                    for s in legal.question_subjects(view)
                ],
            ),
        ]
        if two:
            items.append(discord.ui.Select(
                custom_id=cid("askd"),
                placeholder=tr(lang, "…including the card on their left or right?"),
                options=[
                    discord.SelectOption(label=tr(lang, "their left card"), value="left",
                                         default=draft.side == "left"),
                    discord.SelectOption(label=tr(lang, "their right card"), value="right",
                                         default=draft.side == "right"),
                ],
            ))
        items.append(button(tr(lang, "Ask"), cid("askgo"), GREEN,
                            disabled=not draft.complete(two)))
        if view.options.top_secret and not view.seats[view.seat].top_secret_used:
            on = draft.top_secret
            items.append(button(tr(lang, "Top Secret: on") if on else tr(lang, "Top Secret: off"),
                                cid("askt"), RED if on else GREY, emoji="🤫"))
        return view_of(*items)

    async def clicked(self, interaction: discord.Interaction) -> None:
        draft = AskDraft.decode(self.click.draft)
        if self.click.verb == "askgo":
            if draft.witness is None or draft.subject is None:
                raise UserError("Pick a witness and a subject first.")
            build = actions.ask(draft.witness, draft.subject, draft.side, draft.top_secret)
            done = (N_("Asked: the answer is in the channel (Top Secret: in your DMs and in "
                       "**My secrets**).") if draft.top_secret
                    else N_("Asked: the answer is in the channel."))
            await self.act(interaction, build, done, vanish=not draft.top_secret)
            return
        table, state, seat = await self.my_turn(interaction)
        lang = await language_of(interaction)
        view = player_view(state, seat)
        change: dict[str, Any]
        if self.click.verb == "askt":
            change = {"top_secret": not draft.top_secret}
        elif self.click.verb == "askw":
            others = [str(i) for i in range(len(view.seats)) if i != seat]
            change = {"witness": int(picked(interaction, others))}
        elif self.click.verb == "asks":
            change = {"subject": picked(interaction, legal.question_subjects(view))}
        else:
            change = {"side": picked(interaction, ("left", "right"))}
        await interaction.response.edit_message(**Outgoing.of(
            tr(lang, ASK_TEXT), view=self.picker(lang, table, view, replace(draft, **change))
        ).reply_kwargs())


class InformantPicker(Family, template=r"13c:(?P<verb>infgo):(?P<table>\d+):(?P<stamp>\d+)"):
    @staticmethod
    def picker(lang: str, table: Table, view: PlayerView) -> discord.ui.View:
        options = [
            discord.SelectOption(
                label=tr(lang, "Informant {letter}", letter=letter), value=letter,
                description=(tr(lang, "you saw: {card}", card=card_name(lang, view.peeks[letter]))
                             if letter in view.peeks else None),
            )
            for letter in view.letters
        ]
        return view_of(discord.ui.Select(
            custom_id=custom_id("infgo", table.id, table.version),
            placeholder=tr(lang, "Which Secret Informant card do you look at?"), options=options,
        ))

    async def clicked(self, interaction: discord.Interaction) -> None:
        letter = picked(interaction)
        await self.act(interaction, actions.consult(letter),
                       N_("✅ You consulted informant {letter} (also in **My secrets**)."),
                       params={"letter": letter}, vanish=False, then=consult_reply)


class AccusePicker(Family, template=r"13c:(?P<verb>accp|accl|accw|accgo):(?P<table>\d+):"
                                    r"(?P<stamp>\d+):(?P<draft>[^:]*)"):
    VERBS: ClassVar[tuple[str, str, str]] = ("accp", "accl", "accw")

    @classmethod
    def picker(cls, lang: str, table: Table, state: GameState, seat: int,
               draft: list[str | None]) -> discord.ui.View:
        accusable = legal.accusation_choices(state, seat)
        code = ".".join(c or NONE for c in draft)
        selects: list[discord.ui.Select[Any]] = [
            discord.ui.Select(
                custom_id=custom_id(verb, table.id, table.version, code),
                placeholder=tr(lang, _THE[category]),
                options=[
                    discord.SelectOption(label=card_name(lang, c), value=c,
                                         emoji=card_label(lang, c).split(" ")[0],
                                         default=c == chosen)
                    for c in accusable[category]
                ],
            )
            for verb, category, chosen in zip(cls.VERBS, Category, draft, strict=True)
            if accusable[category]
        ]
        go = button(tr(lang, "Accuse"), custom_id("accgo", table.id, table.version, code), RED,
                    disabled=None in draft, emoji="⚖️")
        return view_of(*selects, go)

    @staticmethod
    def decode(draft: str) -> list[str | None]:
        parts = draft.split(".") if draft else []
        if len(parts) != 3:
            return [None, None, None]
        return [p if p in CARDS else None for p in parts]  # a forged draft names no card

    async def clicked(self, interaction: discord.Interaction) -> None:
        draft = self.decode(self.click.draft)
        if self.click.verb == "accgo":
            await self.act(interaction, actions.accuse(*draft), N_("Accusation made."))
            return
        table, state, seat = await self.my_turn(interaction)
        lang = await language_of(interaction)
        index = self.VERBS.index(self.click.verb)
        accusable = legal.accusation_choices(state, seat)[list(Category)[index]]
        draft[index] = picked(interaction, accusable)
        await interaction.response.edit_message(**Outgoing.of(
            tr(lang, ACCUSE_TEXT), view=self.picker(lang, table, state, seat, draft)
        ).reply_kwargs())


class TakePicker(Family, template=r"13c:(?P<verb>takego):(?P<table>\d+):(?P<stamp>\d+)"):
    @staticmethod
    def picker(lang: str, table: Table, view: PlayerView, sources: list[int]
               ) -> discord.ui.View:
        return view_of(discord.ui.Select(
            custom_id=custom_id("takego", table.id, table.version),
            placeholder=tr(lang, "Take a magnifying glass from…"),
            options=[
                discord.SelectOption(label=view.seats[i].name[:100], value=str(i),
                                     description=glasses_text(lang, view.seats[i].glasses))
                for i in sources
            ],
        ))

    async def clicked(self, interaction: discord.Interaction) -> None:
        source = int(picked(interaction, [str(i) for i in range(6)]))
        await self.act(interaction, actions.take(source), N_("You took a magnifying glass."))


_THE = {
    Category.PERSON: N_("The person…"),
    Category.LOCATION: N_("The location…"),
    Category.WEAPON: N_("The weapon…"),
}


def pass_reply(lang: str, done: str) -> Then:
    """The answer to a pass choice, from what happened: the cards, to whom, the screen."""
    return lambda state, events: Outgoing(content=pass_answer(lang, state, events, done),
                                          components=[], drop_pictures=True)


def consult_reply(lang: str, done: str) -> Then:
    """The answer to a consultation, from what happened: the card itself."""
    return lambda _state, events: Outgoing(content=consulted_answer(lang, events, done),
                                           components=[], drop_pictures=True)


def glasses_text(lang: str, n: int) -> str:
    return trn(lang, "holds {n} glass", "holds {n} glasses", n)


def capitalized(word: str) -> str:
    return word[:1].upper() + word[1:]


FAMILIES: tuple[type[Family], ...] = (
    TurnButton, PassSelect, AskPicker, InformantPicker, AccusePicker, TakePicker, MarkSelect,
)
