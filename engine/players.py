"""Who sits down: how the shell names a player to any game's `new_game`."""

from __future__ import annotations

from pydantic import BaseModel


class PlayerRef(BaseModel):
    """An opaque player id chosen by the caller (a Discord user, an AI) and a display name."""

    id: str
    name: str
