"""The secrecy audit of what the bot SENDS: AI-played 13 Clues games through the real table
service, rendering and SQLite outbox (played as testkit/audited.py says), every stored
letter checked for its recipient: each is rendered and stored by the production path and
read back from the outbox exactly as the sender would deliver it. Checked, for every letter
stored before the change that ends the game:

- to a channel: no card is named at all;
- to a member (a DM, or the reply to their interaction): no card is named that the member
  may not know at that moment: their own holder above all (the engine's `player_view`:
  their dealt five, their screen, the holders they see, the informant cards they read, and
  the cards they named themselves in an accusation). The casebook grid and the accusation
  picker list candidate cards by design and are counted apart;
- pictures attached to a letter carry no card of the recipient's own holder in their input
  (but for the cards they named themselves in a wrong accusation: the casebook's deduction
  needs them);

and every private item reaches its owner in the change that made it: their five dealt cards,
each informant card they consult, each Top Secret answer they ask or give.

The coach is audited too. At full assist, after every change, the hint the player to act
would get (the production rendering, from their view) names no card they may not know,
but for the accusation it advises once their own deduction is certain. A review is sent
only with the end of the game, once to each member, and it is that member's own review
(the one rendered for their seat: it names their mystery, as the reveal does).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from bot.i18n import SOURCE
from bot.messages import Outgoing
from bot.plug import plug
from bot.thirteen_clues import reviewing
from bot.thirteen_clues.coaching import hint_text
from bot.thirteen_clues.game import GAME
from bot.thirteen_clues.reviewing import review_letter
from engine.thirteen_clues import GameState, player_view
from engine.thirteen_clues.coach import advise
from engine.thirteen_clues.events import CardsDealt, GameOver, InformantCard, QuestionAnswered
from testkit.audited import AuditedPlay, Tally, as_message, is_review
from testkit.once import Reviewing
from testkit.play import named_cards

CANDIDATE_LISTS = ("accp", "accl", "accw", "accgo", "mark")


@dataclass
class Audit(Tally):
    echoes: int = 0
    """Letters naming a member's own holder card only because they accused it themselves."""

    def report(self) -> str:
        return (
            f"games {self.games} (finished {self.finished}); letters checked {self.letters} "
            f"({self.counts(self.checked)}); private items delivered "
            f"({self.counts(self.delivered)}); own accusations echoed {self.echoes}; leaks "
            f"{len(self.leaks)}; private items missing {len(self.missing)}"
        )


def letter_text(body: Outgoing) -> str:
    """Everything a recipient reads in a message: as the stand-in reads it, plus the
    descriptions of select options."""
    msg = as_message(body)
    extra = [str(o.get("description", "")) for comp in msg.iter_components()
             for o in comp.get("options", []) if o.get("description")]
    return "\n".join([msg.text, *extra])


def lists_candidates(body: Outgoing) -> bool:
    msg = as_message(body)
    if any(c.split(":")[1] in CANDIDATE_LISTS for c in msg.custom_ids if ":" in c):
        return True
    return any("casebook" in str(e.get("title") or "").lower() for e in body.embeds)


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


class Auditor(AuditedPlay[Audit]):
    """Plays and audits 13 Clues games on one SQLite file."""

    GAME = plug(GAME)
    PLAYERS = (2, 3, 3, 4, 4, 5, 6)
    NUMBERS = 10_000
    MAX_STEPS = 800
    REVIEWING: ClassVar[Reviewing] = reviewing

    def __init__(self, path: Path, seed: int) -> None:
        super().__init__(path, seed, Audit())
        self.assist = "off"

    def options(self) -> dict[str, Any]:
        rng = self.rng
        edition, top_secret = rng.choice(("2020", "2016")), rng.random() < 0.5
        self.assist = rng.choice(("off", "bookkeeping", "full"))
        return {"edition": edition, "top_secret": top_secret, "assist": self.assist}

    # -- the checks ------------------------------------------------------------------------

    def check(self, state: GameState, events: list[Any], mark: int) -> None:
        """Every letter stored by the change that led to `state` (through `events`)."""
        letters = self.stored_since(mark)
        seats = {s.id: i for i, s in enumerate(state.seats)}
        over = state.phase == "over"
        got: dict[int, list[str]] = {}
        for letter in letters:
            self.audit.letters += 1
            text = letter_text(letter.body)
            if letter.kind == "c" or self.to_watcher(letter):
                if over:
                    self.audit.checked["end"] += 1
                    continue
                self.audit.checked["channel"] += 1
                if named_cards(text):
                    self.audit.leaks.append(f"channel {letter.address}: {text[:200]}")
                continue
            user = self.reader_of(letter)
            if user is None or f"u{user}" not in seats:
                continue  # a lobby reply: no game yet
            seat = seats[f"u{user}"]
            got.setdefault(seat, []).append(text)
            if is_review(letter.body):
                self.check_review(self.ended(state, events), review_letter(state, seat, "en"),
                                  letter.body, seat, f"{letter.kind}:{user}")
                continue
            if over:
                self.audit.checked["end"] += 1
                continue
            view = player_view(state, seat)
            accused = {c for a in view.my_accusations for c in a.cards}
            own = set(state.seats[seat].holder) - accused  # named by the seat itself
            pictures = {v for p in letter.body.pictures for v in _strings(p.data)}
            if pictures & own:
                self.audit.leaks.append(f"picture to {user}: holds own card(s) {pictures & own}")
            if lists_candidates(letter.body):
                self.audit.checked["candidates"] += 1
                continue
            self.audit.checked["dm" if letter.kind == "u" else "reply"] += 1
            allowed = view.known() | set(view.dealt) | accused
            named = named_cards(text)
            if named - allowed:
                what = "own holder" if named & own - accused else "not theirs to know"
                self.audit.leaks.append(
                    f"{letter.kind}:{user} ({what}: {sorted(named - allowed)}): {text[:200]}"
                )
            elif named & own:
                self.audit.echoes += 1
        if over:
            if self.ended(state, events) and state.played:
                self.reviews_owed({i for i, s in enumerate(state.seats)
                                   if s.id.startswith("u")}, got)
            return
        self.owed(state, events, got, seats)
        if self.assist == "full" and state.phase == "turns":
            self.check_hint(state, seats)

    def check_hint(self, state: GameState, seats: dict[str, int]) -> None:
        """The hint the player to act would get now names only cards they may know, and the
        cards of the accusation it advises once their deduction is certain."""
        seat = state.turn
        if state.seats[seat].id not in seats or not state.seats[seat].id.startswith("u"):
            return
        view = player_view(state, seat)
        advice = advise(view)
        text = hint_text(SOURCE, view, advice)
        self.audit.checked["hint"] += 1
        accused = {c for a in view.my_accusations for c in a.cards}
        allowed = view.known() | set(view.dealt) | accused
        if advice.accusation is not None:
            certain = advice.accusation
            allowed |= {certain.person, certain.location, certain.weapon}
        if named_cards(text) - allowed:
            self.audit.leaks.append(f"hint to seat {seat}: {sorted(named_cards(text) - allowed)}")

    def ended(self, state: GameState, events: list[Any]) -> bool:
        return state.phase == "over" and any(isinstance(e, GameOver) for e in events)

    def owed(self, state: GameState, events: list[Any], got: dict[int, list[str]],
             seats: dict[str, int]) -> None:
        """The private items of these events, each at its owner if the owner is a member."""
        members = {i for i, s in enumerate(state.seats) if s.id.startswith("u")}

        def at(seat: int, *needles: str) -> bool:
            return any(all(n in text for n in needles) for text in got.get(seat, []))

        for event in events:
            if isinstance(event, CardsDealt) and event.seat in members:
                names = {c for text in got.get(event.seat, []) for c in named_cards(text)}
                if set(event.cards) <= names:
                    self.audit.delivered["dealt"] += 1
                else:
                    self.audit.missing.append(f"dealt cards of seat {event.seat}")
            elif isinstance(event, InformantCard) and event.seat in members:
                if any(event.card in named_cards(t) for t in got.get(event.seat, [])):
                    self.audit.delivered["informant"] += 1
                else:
                    self.audit.missing.append(f"informant {event.letter} of seat {event.seat}")
            elif isinstance(event, QuestionAnswered) and event.top_secret:
                for seat in {event.asker, event.witness} & members:
                    if at(seat, "Top Secret", f"**{event.answer}**"):
                        self.audit.delivered["top_secret"] += 1
                    else:
                        self.audit.missing.append(f"Top Secret answer to seat {seat}")


async def run_audit(path: Path, games: int, seed: int = 0) -> Audit:
    async with Auditor(path, seed) as auditor:
        for number in range(games):
            await auditor.game(number)
        return auditor.audit
