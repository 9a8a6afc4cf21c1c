"""The games the conformance suite plays: every registered game and the toy, each with the
seats it is played with and its own secrecy hook (the audit that knows what each reader may
see of that game: testkit/secrecy.py for 13 Clues, whose members never read their own
holder's cards; testkit/mansion_audit.py for the Mansion; `ToyAudit` for the toy)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.plug import AnyGame, plug
from bot.registry import GAMES
from testkit.audited import AuditedPlay, Tally
from testkit.mansion_audit import MansionAuditor
from testkit.secrecy import Auditor
from tests.toy.game import GAME as TOY
from tests.toy.game import State

Hook = AuditedPlay[Any]


class ToyAudit(AuditedPlay[Tally]):
    """High Card's secret is each seat's number until that seat reveals it: the channel and
    the other seat read it only once shown; its owner reads it from the deal on."""

    GAME = plug(TOY)
    PLAYERS = (2,)
    NUMBERS = 30_000
    MAX_STEPS = 4

    def __init__(self, path: Path, seed: int) -> None:
        super().__init__(path, seed, Tally())

    def check(self, state: Any, events: list[Any], mark: int) -> None:
        assert isinstance(state, State)
        seats = {s.id: i for i, s in enumerate(state.seats)}
        told: set[int] = set()
        for letter in self.stored_since(mark):
            self.audit.letters += 1
            text = letter.body.text
            user = self.reader_of(letter)
            reader = None if letter.kind == "c" else seats.get(f"u{user}")
            if letter.kind != "c" and reader is None:
                continue  # a lobby answer: no game yet
            for i, seat in enumerate(state.seats):
                if i == reader or seat.shown:
                    continue
                said = re.search(rf"{re.escape(seat.name)}(: | shows ){seat.number}\b", text)
                if said or (reader is None and "Your number" in text):
                    self.audit.leaks.append(f"{letter.to} reads seat {i}'s number: {text!r}")
            if reader is not None:
                self.audit.checked["dm" if letter.kind == "u" else "reply"] += 1
                own = re.findall(r"Your number: (\d+)", text)
                if any(int(n) != state.seats[reader].number for n in own):
                    self.audit.leaks.append(f"{letter.to} reads another number: {text!r}")
                told |= {reader} if own else set()
            else:
                self.audit.checked["channel"] += 1
        if not events and not state.over:  # the deal: each member learns their number
            for i, seat in enumerate(state.seats):
                if seat.id.startswith("u") and i not in told:
                    self.audit.missing.append(f"seat {i} was not told its number")
                else:
                    self.audit.delivered["number"] += 1


@dataclass(frozen=True)
class Spec:
    game: AnyGame
    players: int
    """Members seated (the world has four)."""
    audit: Callable[[Path, int], Hook]
    registered: bool = True
    restart_after: int = 10
    """Moves before the bot is restarted mid-game."""

    def secrecy(self, db: Path) -> Hook:
        """The game's secrecy hook, reading the outbox of the database at `db`."""
        return self.audit(db, 0).reading()


BY_KEY = {g.key: g for g in GAMES}
SPECS = (
    Spec(BY_KEY["13clues"], 4, Auditor, restart_after=6),
    Spec(BY_KEY["mansion"], 4, MansionAuditor, restart_after=8),
    Spec(plug(TOY), 2, ToyAudit, registered=False, restart_after=1),
)
"""Every registered game and the toy (a game added to the registry must be added here: a
check fails otherwise)."""
