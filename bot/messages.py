"""A message as the bot owes it: plain JSON, so it can be stored in the same transaction as the
change that caused it and sent later exactly as it was rendered then."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import discord
from pydantic import BaseModel

from bot.collector import unlink_view

CONTENT_LIMIT = 2000
"""A message's text."""
DESCRIPTION_LIMIT = 4096
"""An embed's description: room for texts longer than a message, such as a rules summary,
whose translations run longer than the English."""
FIELD_LIMIT = 1024
"""An embed field's value."""
EMBED_LIMIT = 6000
"""All the text of one embed together."""
COLOUR_LOBBY = discord.Colour.blurple()
COLOUR_OVER = discord.Colour.gold()
COLOUR_SECRET = discord.Colour.dark_purple()
"""Every game's embeds wear these for a lobby, a finished game and a seat's secrets (each
game has its own colour for a game in play)."""

class Picture(BaseModel):
    """A picture to attach, named by what draws it; drawn when sent (drawing is pure, so the
    stored reference renders the same bytes as at commit time)."""

    kind: str
    """The drawer's registry key, e.g. `13c.view`."""
    data: dict[str, Any]
    """Its input as JSON (a view, a reveal): what the drawer needs, rendered at commit time."""
    filename: str
    description: str = ""
    """The attachment's alt text; empty: the text the drawer gives the picture."""
    embed: int | None = None
    """The embed (index) that shows the picture; None: a plain attachment under the text."""


class Outgoing(BaseModel):
    """Content, embeds and components as Discord's JSON. For an edit, `content=None` leaves the
    text as it is, while `embeds` and `components` are always replaced (an empty list clears)."""

    content: str | None = None
    embeds: list[dict[str, Any]] = []
    components: list[dict[str, Any]] = []
    mentions: list[int] = []
    """Users this message may ping; nobody else is ever pinged (roles and everyone never)."""
    pictures: list[Picture] = []
    drop_pictures: bool = False
    """For an edit: take away the pictures the message had (its text now says something the
    old pictures do not show); an edit otherwise keeps them unless it brings new ones."""

    @classmethod
    def of(
        cls,
        content: str | None = None,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
        mentions: Sequence[int] = (),
        pictures: Sequence[Picture] = (),
    ) -> Outgoing:
        """From discord.py's builders, which the rendering code uses for their checks. The
        view is used up: rendered to JSON, then emptied (`bot.collector.unlink_view`)."""
        components = []
        if view is not None:
            components = view.to_components()
            unlink_view(view)
        return cls(
            content=content,
            # discord.py types the dict as its EmbedData TypedDict; stored here as plain JSON
            embeds=[cast(dict[str, Any], e.to_dict()) for e in embeds],
            components=components,
            mentions=list(mentions),
            pictures=list(pictures),
        )

    @classmethod
    def retired(cls) -> Outgoing:
        """What an old living table message becomes: its news stays, status and buttons go."""
        return cls()

    @property
    def text(self) -> str:
        return self.content or ""

    def allowed_mentions(self) -> dict[str, Any]:
        return {"parse": [], "users": [str(u) for u in self.mentions]}

    def payload(self) -> dict[str, Any]:
        """The JSON body of a message create or edit."""
        body: dict[str, Any] = {
            "embeds": self.embeds,
            "components": self.components,
            "allowed_mentions": self.allowed_mentions(),
        }
        if self.content is not None:
            body["content"] = self.content
        if self.drop_pictures:
            body["attachments"] = []
        return body

    def replaces(self, earlier: Outgoing) -> bool:
        """Whether this edit leaves a message the same whether or not `earlier` was applied
        just before it: its text is set (or `earlier` kept the text), and it settles the
        pictures (brings or drops them, or `earlier` did neither)."""
        text = self.content is not None or earlier.content is None
        pictures = bool(self.pictures) or self.drop_pictures or not (
            earlier.pictures or earlier.drop_pictures
        )
        return text and pictures

    def reply_kwargs(self) -> dict[str, Any]:
        """For discord.py's interaction methods (ephemeral answers, picker edits)."""
        kwargs: dict[str, Any] = {
            "embeds": [discord.Embed.from_dict(e) for e in self.embeds],
            "view": Rendered(self.components),
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in self.mentions]
            ),
        }
        if self.content is not None:
            kwargs["content"] = self.content
        if self.drop_pictures:
            kwargs["attachments"] = []
        return kwargs


class Rendered(discord.ui.View):
    """Components already rendered to JSON: discord.py only needs `to_components()`. Clicks
    are routed by the DynamicItem families, never by this view, so it is never stored."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._components

    def is_finished(self) -> bool:
        return True
