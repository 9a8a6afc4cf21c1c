"""A Mansion table's settings: the shell's (assist, turn timer) plus variant and series."""

from __future__ import annotations

from typing import Literal

from bot.plug import TableSettings

Variant = Literal["standard", "one-against-all"]
"""As typed in `/mansion new`; the engine spells the second `one_against_all`."""


class MansionSettings(TableSettings):
    variant: Variant = "standard"
    series: Literal[1, 2, 3] = 1
    """Wins needed to be Master Detective; 1 plays a single game."""

    @property
    def engine_variant(self) -> Literal["standard", "one_against_all"]:
        return "one_against_all" if self.variant == "one-against-all" else "standard"
