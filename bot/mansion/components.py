"""Mansion's buttons and selects: one DynamicItem family per kind of component, each owning
its custom_id template, its builders and its callback, so a click is handled after any
restart, from a DM as from the channel.

- `TableMenu`: **My turn** and **Notes** on the living table message (and My turn in DMs).
- `PanelButton`: the turn panel — your Action cards, then the choice each needs (an
  opponent, a confirmation), Accuse, End turn, Back.
- `SuggestPicker`, `AccusePicker`, `SolutionPicker`: selects whose draft lives in the id.
- `PromptButton`: answers to prompts (show a card, pick a face-down card, answer a tip).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import discord

from bot.components import TableButton, button, values, view_of
from bot.errors import UserError
from bot.family import BLUE, GREEN, GREY, NONE, RED, headed_in_dm
from bot.i18n import N_, tr
from bot.interactions import answer, language_of
from bot.mansion import actions, words
from bot.mansion.family import (
    OWN,
    PREFIX,
    Family,
    Then,
    custom_id,
)
from bot.mansion.render.labels import EFFECT_EMOJI, Voice, action_name, clip, plain_name
from bot.mansion.render.lines import prompt_text, seat_note, voice, waiting_text
from bot.mansion.settings import MansionSettings
from bot.mansion.words import KIND_EMOJI, card_name
from bot.messages import Outgoing
from bot.models import Table
from bot.tables import TableService
from bot.thinking import NOTES, require_full
from engine.mansion import Event, GameState, player_view
from engine.mansion import actions as act
from engine.mansion.cards import ACTIONS, BY_KIND, CLUES, Kind
from engine.mansion.legal import opponents, playable_cards
from engine.mansion.views import PlayerView, PublicView

Item = discord.ui.Item[Any]
LABEL = 80
"""Discord's limit on a button label."""


# ---------------------------------------------------------------- drafts


def encode(draft: list[str | None]) -> str:
    return ".".join(c or NONE for c in draft)


def step_ids(table_id: int, prompt: int, draft: list[str | None]) -> Callable[[str], str]:
    """A picker's custom_id for each of its verbs: the table, the prompt it answers and the
    choices carried so far."""
    code = encode(draft)
    return lambda verb: custom_id(verb, table_id, prompt, code)


def decode(text: str, kinds: tuple[Kind, ...]) -> list[str | None]:
    """A draft of card ids, one per kind; anything a picker never writes reads as unset."""
    parts = text.split(".") if text else []
    if len(parts) != len(kinds):
        return [None] * len(kinds)
    return [p if p in CLUES and CLUES[p].kind is k else None
            for p, k in zip(parts, kinds, strict=True)]


def card_select(lang: str, cid: str, kind: Kind, placeholder: str, chosen: str | None,
                cards: tuple[str, ...] | list[str] | None = None,
                describe: dict[str, str] | None = None) -> discord.ui.Select[Any]:
    options = [
        discord.SelectOption(label=card_name(lang, c), value=c, emoji=KIND_EMOJI[kind],
                             default=c == chosen,
                             description=(describe or {}).get(c))
        for c in (cards if cards is not None else BY_KIND[kind])
    ]
    return discord.ui.Select(custom_id=cid, placeholder=placeholder, options=options)


def chosen_value(interaction: discord.Interaction, allowed: list[str] | tuple[str, ...]) -> str:
    """The one value picked in a select, refused unless the menu offered it."""
    picked = values(interaction)
    if len(picked) != 1 or picked[0] not in allowed:
        raise UserError("That choice is not on the menu. Please pick again.")
    return picked[0]


# ---------------------------------------------------------------- the table message


def lobby_view(table_id: int, lang: str) -> discord.ui.View:
    return view_of(*(TableButton(PREFIX, verb, table_id, lang)
                     for verb in ("join", "leave", "start")))


def table_view(table_id: int, view: PublicView, lang: str) -> discord.ui.View | None:
    """The living message's buttons: My turn (it opens the panel for whoever must act),
    My secrets and Notes for everyone."""
    if view.phase == "over":
        return None
    return view_of(
        my_turn(table_id, lang),
        TableButton(PREFIX, "hand", table_id, lang),
        button(tr(lang, "Notes"), custom_id("notes", table_id), GREY, emoji="📓"),
    )


def my_turn(table_id: int, lang: str) -> Item:
    return button(tr(lang, "My turn"), custom_id("turn", table_id), BLUE, emoji="▶️")


def back(table_id: int, pid: int, lang: str) -> Item:
    return button(tr(lang, "Back"), custom_id("back", table_id, pid), GREY, emoji="↩️")


# ---------------------------------------------------------------- prompts and the panel


def prompt_items(table_id: int, view: PlayerView, lang: str, *, panel: bool = False,
                 hint: bool = False) -> list[Item]:
    """The buttons answering the seat's open prompt (for a DM, `/mansion hand` and the
    panel). A turn's play prompt outside the panel offers My turn, which opens the panel;
    in the panel at full assist (`hint`), also Hint."""
    prompt = view.prompt
    if prompt is None:
        return []
    pid = prompt.id
    match prompt.kind:
        case "play":
            if not panel:
                return [my_turn(table_id, lang)]
            items: list[Item] = [
                button(clip(action_name(lang, c), LABEL), custom_id("card", table_id, pid, c), BLUE,
                       emoji=EFFECT_EMOJI[ACTIONS[c].effect])
                for c in playable_cards(view, view.seat)
            ]
            items.append(button(tr(lang, "Accuse"), custom_id("acopen", table_id, pid), RED,
                                emoji="⚖️"))
            if hint:
                items.append(button(tr(lang, "Hint"), custom_id("hint", table_id, pid), GREY,
                                    emoji="💡"))
            return items
        case "accuse_or_end":
            return [
                button(tr(lang, "Accuse"), custom_id("acopen", table_id, pid), RED, emoji="⚖️"),
                button(tr(lang, "End turn"), custom_id("end", table_id, pid), GREEN,
                       emoji="⏹️"),
            ]
        case "show":
            return [
                button(card_name(lang, o[0]), custom_id("show", table_id, pid, o[0]), BLUE,
                       emoji=KIND_EMOJI[CLUES[o[0]].kind])
                for o in prompt.options or []
            ]
        case "pick":
            return [
                button(tr(lang, "Card {number}", number=i + 1),
                       custom_id("pick", table_id, pid, str(i)), BLUE, emoji="🂠")
                for i in range(prompt.count or 0)
            ]
        case "answer_tip":
            return [
                button(clip(tr(lang, "Return {cards}", cards=", ".join(
                    card_name(lang, c) for c in option) or tr(lang, "nothing")), LABEL),
                       custom_id("tip", table_id, pid, str(i)), BLUE, emoji="🤫")
                for i, option in enumerate(prompt.options or [])
            ]
        case "choose_solution":
            return solution_items(table_id, pid, [None, None, None], lang)


def prompt_message(table_id: int, view: PlayerView, lang: str, note: str = "",
                   hint: bool = False) -> Outgoing:
    """A prompt on its own: its text and its buttons (a DM's answer, a panel's step)."""
    assert view.prompt is not None
    text = prompt_text(view.prompt, view, voice(view, view.seat, lang))
    return Outgoing.of("\n".join(x for x in (note, text) if x),
                       view=view_of(*prompt_items(table_id, view, lang, panel=True, hint=hint)))


def panel(table_id: int, view: PlayerView, lang: str, note: str = "", hint: bool = False
          ) -> Outgoing:
    """The turn panel (ephemeral): what this seat must do now, with its buttons; or, when it
    has nothing to do, where the game stands. `hint`: the table plays at full assist."""
    if view.prompt is not None:
        return prompt_message(table_id, view, lang, note, hint)
    return Outgoing.of("\n".join(x for x in (note, idle_text(view, lang)) if x))


def idle_text(view: PlayerView, lang: str) -> str:
    """Where the game stands for a seat with nothing to answer."""
    v = voice(view, lang=lang)
    if view.phase == "over":
        return tr(lang, "🏁 The game is over: the channel has the reveal.")
    waits = [waiting_text(p, v) for p in view.waiting]
    waiting = " " + tr(lang, "Waiting for {waits}.", waits="; ".join(waits)) if waits else ""
    if view.seats[view.seat].eliminated:
        return tr(lang, "You accused wrongly, so you take no more turns.") + waiting
    if view.turn == view.seat and view.phase == "playing":
        return tr(lang, "⏳ Your card is on the table.") + waiting
    return tr(lang, "Nothing to do for you right now.") + waiting


DONE = N_("✅ Done.")


def after(table_id: int, seat: int, lang: str, done: str = DONE) -> Then:
    """A member's answer once their action is stored: what it taught them (or `done`, an
    English template), then what they must do next (the panel moves on), rendered from the
    new state in the member's language."""

    def render(state: GameState, events: list[Event]) -> Outgoing:
        view = player_view(state, seat)
        return panel(table_id, view, lang, note=seat_note(events, view, lang) or tr(lang, done))

    return render


def card_step(table_id: int, view: PlayerView, card: str, lang: str) -> Outgoing:
    """The choices one Action card needs, before it is played."""
    assert view.prompt is not None
    pid = view.prompt.id
    info = ACTIONS[card]
    v = voice(view, view.seat, lang)
    match info.effect:
        case "suggest_any":
            return suggest_any_picker(table_id, view, [None, None, None], lang)
        case "suggest_present":
            return suggest_present_picker(table_id, view, [None, None, None], lang)
        case "snoop":
            targets = [
                button(clip(tr(lang, "Snoop {name}", name=plain_name(view.seats[t].name)),
                            LABEL),
                       custom_id("sn", table_id, pid, str(t)), BLUE, emoji="👀")
                for t in opponents(view, view.seat)
            ]
            return Outgoing.of(tr(lang, "👀 **Snoop**: whose hand do you look at? They lay it "
                                        "face down and you pick one card."),
                               view=view_of(*targets, back(table_id, pid, lang)))
        case "all_snoop":
            looks = _all_snoop_looks(view, card, v)
            go = button(clip(tr(lang, "Play {card}", card=action_name(lang, card)), LABEL),
                        custom_id("as", table_id, pid, card), GREEN, emoji="🔄")
            return Outgoing.of(tr(lang, "🔄 **{card}**: everyone looks at one face-down card of "
                                        "a neighbour's hand ({looks}).",
                                  card=action_name(lang, card),
                                  looks=looks),
                               view=view_of(go, back(table_id, pid, lang)))
        case "super_sleuth":
            go = button(tr(lang, "Play it"), custom_id("ss", table_id, pid, card), GREEN,
                        emoji="🔎")
            return Outgoing.of(tr(lang, "🔎 **{card}**: every opponent must show you one, if "
                                        "they hold any (the table sees who showed, not what).",
                                  card=action_name(lang, card)),
                               view=view_of(go, back(table_id, pid, lang)))
        case "private_tip":
            targets = [
                button(clip(tr(lang, "Tip {name}", name=plain_name(view.seats[t].name)), LABEL),
                       custom_id("pt", table_id, pid, f"{card}.{t}"), BLUE, emoji="🤫")
                for t in opponents(view, view.seat)
            ]
            return Outgoing.of(tr(lang, "🤫 **Private Tip: {ask}**: to whom? Only the two of "
                                        "you see the tip and the answer.",
                                  ask=words.ask(lang, card)),
                               view=view_of(*targets, back(table_id, pid, lang)))
    raise UserError("That card cannot be played.")


def _all_snoop_looks(view: PlayerView, card: str, v: Voice) -> str:
    """Who looks at whose hand, from the reader's side: "You → Bob's, Bob → Cy's"."""
    n = len(view.seats)
    left = ACTIONS[card].direction == "left"
    looks = []
    for i in range(n):
        j = (i - 1) % n if left else (i + 1) % n
        if i == view.seat:
            looks.append(tr(v.lang, "You → {seat}'s", seat=v.plain(j)))
        elif j == view.seat:
            looks.append(tr(v.lang, "{seat} → your", seat=v.plain(i)))
        else:
            looks.append(tr(v.lang, "{seat} → {target}'s", seat=v.plain(i), target=v.plain(j)))
    return ", ".join(looks)


# ---------------------------------------------------------------- pickers

ACCUSED = N_("⚖️ Accusation made.")
"""The answer to an accusation, once it is stored (its button's and `/mansion accuse`)."""
SUGGEST_KINDS = (Kind.DESTINATION, Kind.SUSPECT, Kind.VEHICLE)
PRESENT_KINDS = (Kind.SUSPECT, Kind.VEHICLE, Kind.DESTINATION)
TRIPLE_KINDS = (Kind.SUSPECT, Kind.VEHICLE, Kind.DESTINATION)


def where_described(view: PlayerView, lang: str) -> dict[str, str]:
    """Destination → who has its marker, as a select option's description."""
    out = {d: tr(lang, "by the tray: you swap with the tray") for d in view.tray}
    for i, s in enumerate(view.seats):
        if s.marker:
            out[s.marker] = (tr(lang, "you are here") if i == view.seat
                             else tr(lang, "{name}'s marker: you swap with them",
                                     name=s.name[:40]))
    return out


def suggest_any_picker(table_id: int, view: PlayerView, draft: list[str | None], lang: str
                       ) -> Outgoing:
    assert view.prompt is not None
    pid = view.prompt.id
    dest, suspect, vehicle = draft
    cid = step_ids(table_id, pid, draft)
    items: list[Item] = [
        card_select(lang, cid("sad"), Kind.DESTINATION,
                    tr(lang, "From which destination? (you take its marker)"), dest,
                    describe=where_described(view, lang)),
        card_select(lang, cid("sas"), Kind.SUSPECT, tr(lang, "The suspect…"), suspect),
        card_select(lang, cid("sav"), Kind.VEHICLE, tr(lang, "The vehicle…"), vehicle),
        button(tr(lang, "Suggest"), cid("sago"), GREEN, emoji="💬", disabled=None in draft),
        back(table_id, pid, lang),
    ]
    return Outgoing.of(tr(lang, "💬 **Suggestion from ANY destination**: take any destination's "
                                "marker (swapping with its holder or the tray), then suggest "
                                "from there."),
                       view=view_of(*items))


def suggest_present_picker(table_id: int, view: PlayerView, draft: list[str | None], lang: str
                           ) -> Outgoing:
    assert view.prompt is not None
    pid = view.prompt.id
    suspect, vehicle, dest = draft
    here = view.seats[view.seat].marker
    cid = step_ids(table_id, pid, draft)
    elsewhere = [d for d in BY_KIND[Kind.DESTINATION] if d != here]
    items: list[Item] = [
        card_select(lang, cid("sps"), Kind.SUSPECT, tr(lang, "The suspect…"), suspect),
        card_select(lang, cid("spv"), Kind.VEHICLE, tr(lang, "The vehicle…"), vehicle),
        card_select(lang, cid("spm"), Kind.DESTINATION,
                    tr(lang, "…or move instead (no suggestion) to…"), dest, cards=elsewhere,
                    describe=where_described(view, lang)),
        button(clip(tr(lang, "Suggest from {place}", place=card_name(lang, here)), LABEL),
               cid("spgo"), GREEN, emoji="🏠", disabled=suspect is None or vehicle is None),
        button(tr(lang, "Move"), cid("spmgo"), BLUE, emoji="🚶", disabled=dest is None),
        back(table_id, pid, lang),
    ]
    return Outgoing.of(tr(lang, "🏠 **Suggestion from PRESENT destination**: suggest from "
                                "**{place}**, or swap your marker for another and end your "
                                "turn without a suggestion.", place=card_name(lang, here)),
                       view=view_of(*items))


def accuse_picker(table_id: int, pid: int, draft: list[str | None], lang: str) -> Outgoing:
    cid = step_ids(table_id, pid, draft)
    items: list[Item] = [
        *triple_selects(lang, cid, ("acs", "acv", "acd"), draft),
        button(tr(lang, "Accuse"), cid("acgo"), RED, emoji="⚖️", disabled=None in draft),
        back(table_id, pid, lang),
    ]
    return Outgoing.of(tr(lang, "⚖️ **Accusation** (once per game): name the suspect, the "
                                "vehicle and the destination. Right wins; wrong means no more "
                                "turns."),
                       view=view_of(*items))


def triple_selects(lang: str, cid: Callable[[str], str], verbs: tuple[str, str, str],
                   draft: list[str | None]) -> list[Item]:
    """The suspect, vehicle and destination selects of an accusation or a solution."""
    holders = (N_("The suspect…"), N_("The vehicle…"), N_("The destination…"))
    return [card_select(lang, cid(verb), kind, tr(lang, holder), chosen)
            for verb, kind, holder, chosen in zip(verbs, TRIPLE_KINDS, holders, draft,
                                                  strict=True)]


def solution_items(table_id: int, pid: int, draft: list[str | None], lang: str) -> list[Item]:
    cid = step_ids(table_id, pid, draft)
    return [
        *triple_selects(lang, cid, ("sols", "solv", "sold"), draft),
        button(tr(lang, "Choose this solution"), cid("solgo"), GREEN, emoji="🦹",
               disabled=None in draft),
    ]


# ---------------------------------------------------------------- families


async def show_or_edit(interaction: discord.Interaction, out: Outgoing) -> None:
    """A step of the panel: the panel (ephemeral) changes in place; from a DM or a public
    message, the step opens as a new message only this member sees."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(**out.reply_kwargs())
    else:
        await answer(interaction, out)


class Acting(Family, template=r"mbm:never:acting"):
    """A family whose last step applies an action: its answer is the turn panel's next step."""

    def after(self, table_id: int, seat: int, lang: str, done: str) -> Then:
        return after(table_id, seat, lang, done)


class TableMenu(Family, template=r"mbm:(?P<verb>turn|notes):(?P<table>\d+)(?::-)?"):
    """My turn opens the panel for the clicking member; Notes shows their notes grid."""

    async def clicked(self, interaction: discord.Interaction) -> None:
        if self.click.verb == "notes":
            from bot.mansion.notes import notes_answer

            table, view = await self.seat_view(interaction)
            await answer(interaction, await notes_answer(interaction, table, view))
            return
        table, view = await self.seat_view(interaction)
        lang = await language_of(interaction)
        await answer(interaction, open_panel(table.id, view, lang, hint=hints(table)))


def member_view(tables: TableService, table: Table, user_id: int) -> PlayerView:
    """The member's seat's view of a table in play (refused for strangers and lobbies)."""
    if table.state is None:
        raise UserError("The game has not started yet.")
    return player_view(OWN.state(tables.state_of(table)), tables.seat(table, user_id))


def turn_panel(tables: TableService, table: Table, user_id: int, lang: str) -> Outgoing:
    """`/mansion turn`: the member's panel at a game in play."""
    if table.status != "playing":
        if table.status == "over":
            raise UserError("This game is over.")
        raise UserError("The game has not started yet.")
    return open_panel(table.id, member_view(tables, table, user_id), lang, hint=hints(table))


def hints(table: Table) -> bool:
    """The table plays at full assist: the panel offers the coach's Hint."""
    return MansionSettings.model_validate(table.options).assist == "full"


def open_panel(table_id: int, view: PlayerView, lang: str, hint: bool = False) -> Outgoing:
    """`/mansion turn` and My turn: the panel, or a clear word when there is nothing to do."""
    if view.prompt is None and not (view.turn == view.seat and view.phase == "playing"):
        v = voice(view, lang=lang)
        waits = [waiting_text(p, v) for p in view.waiting]
        if waits:
            raise UserError("It is not your turn and nothing waits for you (waiting for "
                            "{waits}).", waits="; ".join(waits))
        raise UserError("It is not your turn and nothing waits for you (nothing to answer).")
    return panel(table_id, view, lang, hint=hint)


class PanelButton(Acting, template=r"mbm:(?P<verb>card|back|end|sn|pt|as|ss|acopen|hint):"
                                   r"(?P<table>\d+):(?P<stamp>\d+)(?::(?P<draft>[a-z0-9_.]+))?"):
    """The turn panel's steps: an Action card, its target or confirmation, Accuse, End turn,
    Back, Hint."""

    async def clicked(self, interaction: discord.Interaction) -> None:
        verb, draft = self.click.verb, self.click.draft
        if verb == "hint":
            await self.hint(interaction)
            return
        table, view = await self.current(interaction)
        assert view.prompt is not None
        pid = view.prompt.id
        lang = await language_of(interaction)
        if verb == "back":
            await show_or_edit(interaction, panel(table.id, view, lang, hint=hints(table)))
        elif verb == "acopen":
            await show_or_edit(interaction, accuse_picker(table.id, pid, [None] * 3, lang))
        elif verb == "card":
            if draft not in playable_cards(view, view.seat):
                raise UserError("You cannot play that card now.")
            await show_or_edit(interaction, card_step(table.id, view, draft, lang))
        elif verb == "end":
            await self.act(interaction, actions.end_turn(pid), N_("⏹️ Turn ended."))
        elif verb == "sn":
            await self.act(interaction, actions.snoop(pid, _int(draft)), N_("👀 Snoop played."))
        elif verb == "pt":
            card, _, target = draft.partition(".")
            await self.act(interaction, actions.private_tip(pid, card, _int(target)),
                           N_("🤫 Private Tip passed."))
        elif verb == "as":
            await self.act(interaction, actions.all_snoop(pid, draft),
                           N_("🔄 All Snoop played."))
        else:
            await self.act(interaction, actions.super_sleuth(pid, draft),
                           N_("🔎 Super Sleuth played."))


    async def hint(self, interaction: discord.Interaction) -> None:
        """The coach's three best plays for this seat, at full assist only; a new message
        only the member sees, so the panel stays."""
        from bot.mansion.coaching import advice_for, hint_due, hint_text

        table = await self.table(interaction)
        require_full(MansionSettings.model_validate(table.options).assist, NOTES)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table, view = await self.current(interaction)
        if not hint_due(view):
            raise UserError("Hints are for your turn, before you play your card.")
        lang = await language_of(interaction)
        await answer(interaction, hint_text(view, await advice_for(interaction, view), lang))


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UserError("That choice is not on the menu. Please pick again.") from None


class SuggestPicker(Acting, template=r"mbm:(?P<verb>sad|sas|sav|sago|sps|spv|spm|spgo|spmgo):"
                                     r"(?P<table>\d+):(?P<stamp>\d+):(?P<draft>[a-z_.]+)"):
    """The two suggestion cards: destination (ANY) or move (PRESENT), suspect, vehicle."""

    ANY: ClassVar[dict[str, int]] = {"sad": 0, "sas": 1, "sav": 2}
    PRESENT: ClassVar[dict[str, int]] = {"sps": 0, "spv": 1, "spm": 2}

    async def clicked(self, interaction: discord.Interaction) -> None:
        verb = self.click.verb
        table, view = await self.current(interaction)
        assert view.prompt is not None
        pid = view.prompt.id
        present = verb.startswith("sp")
        kinds = PRESENT_KINDS if present else SUGGEST_KINDS
        draft = decode(self.click.draft, kinds)
        if verb == "sago":
            dest, suspect, vehicle = draft
            if dest is None or suspect is None or vehicle is None:
                raise UserError("Pick a destination, a suspect and a vehicle first.")
            await self.act(interaction, actions.suggest_any(pid, dest, suspect, vehicle),
                           N_("💬 Suggestion made."))
        elif verb == "spgo":
            suspect, vehicle, _ = draft
            if suspect is None or vehicle is None:
                raise UserError("Pick a suspect and a vehicle first.")
            await self.act(interaction, actions.suggest_present(pid, suspect, vehicle),
                           N_("🏠 Suggestion made."))
        elif verb == "spmgo":
            if draft[2] is None:
                raise UserError("Pick the destination to move to first.")
            await self.act(interaction, actions.move(pid, draft[2]), N_("🚶 Moved."))
        else:
            slot = (self.PRESENT if present else self.ANY)[verb]
            allowed = BY_KIND[kinds[slot]]
            draft[slot] = chosen_value(interaction, allowed)
            picker = suggest_present_picker if present else suggest_any_picker
            lang = await language_of(interaction)
            await interaction.response.edit_message(
                **picker(table.id, view, draft, lang).reply_kwargs())


class TriplePicker(Acting, template=r"mbm:never:triple"):
    """A suspect, a vehicle and a destination picked one by one (`SLOTS`), then sent (`GO`):
    an accusation, or the fugitive's solution."""

    SLOTS: ClassVar[dict[str, int]]
    GO: ClassVar[str]
    DONE: ClassVar[str]
    """What the member is told once it is sent (a template for `tr`)."""
    NAMED: ClassVar[type[act.Accuse | act.ChooseSolution]]
    """The action the three cards make."""

    def redrawn(self, interaction: discord.Interaction, table: Table, view: PlayerView,
                draft: list[str | None], lang: str) -> Outgoing:
        raise NotImplementedError

    async def clicked(self, interaction: discord.Interaction) -> None:
        table, view = await self.current(interaction)
        assert view.prompt is not None
        draft = decode(self.click.draft, TRIPLE_KINDS)
        if self.click.verb == self.GO:
            named = actions.naming(self.NAMED, view.prompt.id, *draft)
            await self.act(interaction, named, self.DONE)
            return
        slot = self.SLOTS[self.click.verb]
        draft[slot] = chosen_value(interaction, BY_KIND[TRIPLE_KINDS[slot]])
        lang = await language_of(interaction)
        await interaction.response.edit_message(
            **self.redrawn(interaction, table, view, draft, lang).reply_kwargs())


class AccusePicker(TriplePicker, template=r"mbm:(?P<verb>acs|acv|acd|acgo):(?P<table>\d+):"
                                          r"(?P<stamp>\d+):(?P<draft>[a-z_.]+)"):
    """Suspect, vehicle, destination, then Accuse (on your turn, before or after playing)."""

    SLOTS: ClassVar[dict[str, int]] = {"acs": 0, "acv": 1, "acd": 2}
    GO = "acgo"
    DONE = ACCUSED
    NAMED = act.Accuse

    def redrawn(self, interaction: discord.Interaction, table: Table, view: PlayerView,
                draft: list[str | None], lang: str) -> Outgoing:
        assert view.prompt is not None
        return accuse_picker(table.id, view.prompt.id, draft, lang)


class SolutionPicker(TriplePicker, template=r"mbm:(?P<verb>sols|solv|sold|solgo):(?P<table>\d+):"
                                            r"(?P<stamp>\d+):(?P<draft>[a-z_.]+)"):
    """One Against All: the fugitive chooses the solution (by DM, `hand` or the panel)."""

    SLOTS: ClassVar[dict[str, int]] = {"sols": 0, "solv": 1, "sold": 2}
    GO = "solgo"
    DONE = N_("🦹 Solution chosen.")
    NAMED = act.ChooseSolution

    def redrawn(self, interaction: discord.Interaction, table: Table, view: PlayerView,
                draft: list[str | None], lang: str) -> Outgoing:
        assert view.prompt is not None
        text = prompt_text(view.prompt, view, voice(view, view.seat, lang))
        out = Outgoing.of(text, view=view_of(*solution_items(table.id, view.prompt.id, draft,
                                                             lang)))
        return headed_in_dm(interaction, table, out, lang)


class PromptButton(Acting, template=r"mbm:(?P<verb>show|pick|tip):(?P<table>\d+):"
                                    r"(?P<stamp>\d+):(?P<draft>[a-z0-9_]+)"):
    """Answers: the card to show, the face-down position to look at, the tip's answer."""

    async def clicked(self, interaction: discord.Interaction) -> None:
        verb, draft = self.click.verb, self.click.draft
        pid = self.click.stamp
        assert pid is not None
        if verb == "show":
            await self.act(interaction, actions.show(pid, draft), N_("🃏 Card shown."))
        elif verb == "pick":
            await self.act(interaction, actions.pick(pid, _int(draft)), N_("👀 Card picked."))
        else:
            await self.act(interaction, actions.answer_tip(pid, _int(draft)),
                           N_("🤫 Tip answered."))


FAMILIES: tuple[type[Family], ...] = (
    TableMenu, PanelButton, SuggestPicker, AccusePicker, SolutionPicker, PromptButton,
)
