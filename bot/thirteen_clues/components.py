"""Buttons and selects of 13 Clues, and the custom_id scheme that lets them survive restarts.

A custom_id is `13c:<verb>:<table id>:<version or ->[:<draft>]`. Nothing lives in memory:
a click is routed by the id alone (also from a DM), the version refuses stale clicks where
the moment matters, and multi-step pickers carry their draft in the id itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import discord

from bot.render.thirteen_clues.labels import card_label, subject_label
from engine.thirteen_clues.cards import CARDS, Category
from engine.thirteen_clues.views import PlayerView, PublicView

PREFIX = "13c"
TEMPLATE = re.compile(
    rf"{PREFIX}:(?P<verb>[a-z]+):(?P<table>\d+):(?P<version>-|\d+)(?::(?P<draft>[^:]*))?"
)
NONE = "_"


def custom_id(verb: str, table_id: int, version: int | None = None, draft: str = "") -> str:
    cid = f"{PREFIX}:{verb}:{table_id}:{'-' if version is None else version}"
    return f"{cid}:{draft}" if draft else cid


@dataclass(frozen=True)
class Click:
    """A parsed custom_id."""

    verb: str
    table_id: int
    version: int | None
    draft: str

    @classmethod
    def parse(cls, match: re.Match[str]) -> Click:
        version = match["version"]
        return cls(
            verb=match["verb"],
            table_id=int(match["table"]),
            version=None if version == "-" else int(version),
            draft=match["draft"] or "",
        )


def _button(
    label: str, cid: str, style: discord.ButtonStyle, *, emoji: str | None = None,
    disabled: bool = False,
) -> discord.ui.Button:
    return discord.ui.Button(
        label=label, custom_id=cid, style=style, emoji=emoji, disabled=disabled
    )


def _view(*items: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# lobby and table ---------------------------------------------------------------------------


def lobby_view(table_id: int) -> discord.ui.View:
    grey, green = discord.ButtonStyle.secondary, discord.ButtonStyle.success
    return _view(
        _button("Join", custom_id("join", table_id), green, emoji="🪑"),
        _button("Leave", custom_id("leave", table_id), grey),
        _button("Start", custom_id("start", table_id), discord.ButtonStyle.primary, emoji="▶️"),
    )


def table_view(table_id: int, version: int, view: PublicView) -> discord.ui.View | None:
    """The turn buttons on the living table message; they open pickers for the current player."""
    if view.phase == "over":
        return None
    secrets = _button("My secrets", custom_id("hand", table_id), discord.ButtonStyle.secondary,
                      emoji="🗝️")
    if view.phase == "passing":
        return _view(secrets)
    blue = discord.ButtonStyle.primary
    items: list[discord.ui.Item] = []
    must_take = (
        view.options.uses_glasses and view.seats[view.turn].glasses == 0 and view.supply == 0
    )
    if must_take:
        items.append(_button("Take a glass", custom_id("take", table_id, version), blue,
                             emoji="🔎"))
    else:
        items.append(_button("Ask", custom_id("ask", table_id, version), blue, emoji="❓"))
        if view.letters:
            items.append(_button("Informant", custom_id("inf", table_id, version), blue,
                                 emoji="🗂️"))
        items.append(_button("Accuse", custom_id("acc", table_id, version),
                             discord.ButtonStyle.danger, emoji="⚖️"))
    items.append(secrets)
    items.append(_button("Casebook", custom_id("book", table_id), discord.ButtonStyle.secondary,
                         emoji="📓"))
    return _view(*items)


# the pass-left choice ---------------------------------------------------------------------


def pass_view(table_id: int, view: PlayerView) -> discord.ui.View:
    """One select: pick the Person, Location and Weapon to pass to the left neighbour."""
    options = [
        discord.SelectOption(
            label=CARDS[c].name, value=c, description=CARDS[c].category.value.capitalize(),
            emoji=card_label(c).split(" ")[0],
        )
        for c in view.dealt
    ]
    select = discord.ui.Select(
        custom_id=custom_id("pass", table_id),
        placeholder="Pick 1 Person, 1 Location, 1 Weapon to pass left",
        min_values=3,
        max_values=3,
        options=options,
    )
    return _view(select)


# pickers opened from the turn buttons (ephemeral) ---------------------------------------------


@dataclass(frozen=True)
class AskDraft:
    witness: int | None = None
    subject: str | None = None
    side: str | None = None
    top_secret: bool = False

    def encode(self) -> str:
        parts = (
            NONE if self.witness is None else str(self.witness),
            self.subject or NONE,
            self.side or NONE,
            "1" if self.top_secret else "0",
        )
        return ".".join(parts)

    @classmethod
    def decode(cls, text: str) -> AskDraft:
        try:
            witness, subject, side, secret = text.split(".")
        except ValueError:
            return cls()
        return cls(
            witness=None if witness == NONE else int(witness),
            subject=None if subject == NONE else subject,
            side=None if side == NONE else side,
            top_secret=secret == "1",
        )

    def complete(self, two_players: bool) -> bool:
        return (
            self.witness is not None
            and self.subject is not None
            and (self.side is not None or not two_players)
        )


def ask_picker(
    table_id: int, version: int, view: PlayerView, subjects: list[str], draft: AskDraft
) -> discord.ui.View:
    two = view.options.players == 2
    code = draft.encode()
    witness = discord.ui.Select(
        custom_id=custom_id("askw", table_id, version, code),
        placeholder="Whom do you ask?",
        options=[
            discord.SelectOption(label=s.name[:100], value=str(i), default=i == draft.witness)
            for i, s in enumerate(view.seats)
            if i != view.seat
        ],
    )
    subject = discord.ui.Select(
        custom_id=custom_id("asks", table_id, version, code),
        placeholder="How many cards they see of…",
        options=[
            discord.SelectOption(label=subject_label(s)[:100], value=s, default=s == draft.subject)
            for s in subjects
        ],
    )
    items: list[discord.ui.Item] = [witness, subject]
    if two:
        items.append(
            discord.ui.Select(
                custom_id=custom_id("askd", table_id, version, code),
                placeholder="…including the card on their left or right?",
                options=[
                    discord.SelectOption(label="their left card", value="left",
                                         default=draft.side == "left"),
                    discord.SelectOption(label="their right card", value="right",
                                         default=draft.side == "right"),
                ],
            )
        )
    buttons: list[discord.ui.Item] = [
        _button("Ask", custom_id("askgo", table_id, version, code),
                discord.ButtonStyle.success, disabled=not draft.complete(two))
    ]
    if view.options.top_secret and not view.seats[view.seat].top_secret_used:
        label = "Top Secret: on" if draft.top_secret else "Top Secret: off"
        style = discord.ButtonStyle.danger if draft.top_secret else discord.ButtonStyle.secondary
        buttons.append(_button(label, custom_id("askt", table_id, version, code), style,
                               emoji="🤫"))
    return _view(*items, *buttons)


def informant_picker(table_id: int, version: int, view: PlayerView) -> discord.ui.View:
    options = [
        discord.SelectOption(
            label=f"Informant {letter}",
            value=letter,
            description=(
                f"you saw: {CARDS[view.peeks[letter]].name}" if letter in view.peeks else None
            ),
        )
        for letter in view.letters
    ]
    return _view(
        discord.ui.Select(
            custom_id=custom_id("infgo", table_id, version),
            placeholder="Which Secret Informant card do you look at?",
            options=options,
        )
    )


def accuse_picker(
    table_id: int, version: int, accusable: dict[Category, list[str]], draft: list[str | None]
) -> discord.ui.View:
    code = ".".join(c or NONE for c in draft)
    selects = [
        discord.ui.Select(
            custom_id=custom_id(verb, table_id, version, code),
            placeholder=f"The {category.value}…",
            options=[
                discord.SelectOption(label=CARDS[c].name, value=c,
                                     emoji=card_label(c).split(" ")[0], default=c == chosen)
                for c in accusable[category]
            ],
        )
        for verb, category, chosen in zip(("accp", "accl", "accw"), Category, draft, strict=True)
        if accusable[category]
    ]
    go = _button("Accuse", custom_id("accgo", table_id, version, code),
                 discord.ButtonStyle.danger, disabled=None in draft, emoji="⚖️")
    return _view(*selects, go)


def decode_accuse(draft: str) -> list[str | None]:
    parts = draft.split(".") if draft else []
    if len(parts) != 3:
        return [None, None, None]
    return [None if p == NONE else p for p in parts]


def take_picker(table_id: int, version: int, view: PlayerView, sources: list[int]):
    return _view(
        discord.ui.Select(
            custom_id=custom_id("takego", table_id, version),
            placeholder="Take a magnifying glass from…",
            options=[
                discord.SelectOption(
                    label=view.seats[i].name[:100], value=str(i),
                    description=f"holds {view.seats[i].glasses} glass(es)",
                )
                for i in sources
            ],
        )
    )
