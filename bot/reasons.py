"""Why a game ended early, as the engine keeps it and each reader reads it.

The engine stores one text with the game (`abandon(state, reason)`: it writes no language), so
the shell writes that text from a few marked templates, in English; a game's rendering reads
it back here in its reader's language (the template translated, its `{why}` too). A text no
template makes (an older game's) is shown as it was stored."""

from __future__ import annotations

import functools
import re

from bot.i18n import N_, tr

ENDED_BY = N_("{name} ended the game.")
CLOSED = N_("The table was closed: {why}.")
TEMPLATES = (ENDED_BY, CLOSED)


def written(template: str, **params: str) -> str:
    """The reason to store: `template` (one of TEMPLATES) filled, in English."""
    return template.format(**params)


@functools.cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+)"
                              for i, p in enumerate(parts)) + r"\Z")


def read(lang: str, stored: str, also: tuple[str, ...] = ()) -> str:
    """A stored reason in `lang` (a `why` is itself a marked text: translated too); `also`:
    the templates the game's engine writes its own reasons from."""
    for template in (*TEMPLATES, *also):
        found = _pattern(template).match(stored)
        if found is not None:
            params = {k: tr(lang, v) if k == "why" else v for k, v in found.groupdict().items()}
            return tr(lang, template, **params)
    return stored
