"""The secrecy audit of what the bot SENDS, for Clue: Mystery Beyond the Mansion: AI-played
tables (standard and One Against All, single games and series) through the real table
service, rendering and SQLite outbox, every stored letter checked for its recipient.

Played as testkit/audited.py says (as the 13 Clues audit, testkit/secrecy.py);
every letter a change stored is read back from the outbox. The
line rules are the e2e scan's (testkit/mansion_secrecy.py). Checked, for every letter
stored before the change that ends the table:

- to a channel: no select, no private phrase ("showed you", "Your Clue cards", ...), no
  Private Tip's question unless the card burned face up, and a card named only on a line
  the rules make public (markers, suggestions, swaps, a right accusation, the reveal of a
  finished game of a series);
- to a member (a DM or the reply to their interaction): every card named on a line that is
  not public is one this member may know at that moment: their own hands of every game so
  far, cards shown to them or by them, cards they snooped, tips they gave or received, the
  solution they chose (the fugitive) or saw when accusing, their own guesses; a Private
  Tip's question only if it is in their Action hand or they are one of its two players.
  Pickers and the notes grid list every card by design and are counted apart;
- pictures: a member's carries only their own hand (their own view) or their own notes grid;
  the channel's only the markers, from the public view (`testkit/mansion_inputs.py`);

A review (the coach's, of one game) is sent only with the end of a game (each game of a
series at its own end, the last with the table's), once to each member, and it is that
member's own review of the game that just ended (the one rendered for their seat and that
game, from the engine's review of it: it names that game's solution, as its reveal does,
and nothing of the next game, dealt in the same change).

and every private item reaches its owner in the change that made it: their dealt Clue hand,
a card shown to them (a suggestion or a Super Sleuth), a card they snooped, the answer to a
Private Tip (both players), the solution an accuser saw, the solution a fugitive chose.

Nobody learns whether a refuter held one or several of the cards it could show: no public
event, channel letter or view (public or a seat's) carries `had_choice` or a line that tells
it (`CHOICE_TELLS`), and every refuter (and Super Sleuth opponent holding a match) is asked
which card to show: its prompt is open after the change that named it, answered later like
any prompt (an AI seat's by its timer, after the same delay).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from bot.mansion import coaching, reviewing
from bot.mansion.game import GAME
from bot.models import Letter
from bot.plug import plug
from engine.mansion import GameState, player_view, public_view
from engine.mansion.deduction import solve
from engine.mansion.events import (
    AccusationMade,
    ActionDrawn,
    CardShown,
    HandDealt,
    RoundOver,
    SleuthPlayed,
    SnoopedCard,
    SolutionChosen,
    SuggestionAnswered,
    TipAnswered,
)
from engine.mansion.prompts import ShowPrompt
from engine.mansion.records import Sleuthed, Tipped
from testkit.audited import AuditedPlay, Tally, as_message, is_review
from testkit.mansion_drive import named
from testkit.mansion_inputs import check_member_picture, check_public_picture
from testkit.mansion_secrecy import (
    BURNED,
    PRIVATE_PHRASES,
    TIP_ASKS,
    is_picker,
    knowable,
    lines,
    public_card_line,
    revealed,
    tells_a_choice,
)
from testkit.once import Reviewing
from testkit.standin import Message


@dataclass
class MansionAudit(Tally):
    lines: int = 0
    """Card-naming lines checked."""

    def report(self) -> str:
        return (
            f"games {self.games} (finished {self.finished}); letters checked {self.letters} "
            f"({self.counts(self.checked)}); card-naming lines {self.lines}; private items "
            f"delivered ({self.counts(self.delivered)}); leaks {len(self.leaks)}; private "
            f"items missing {len(self.missing)}"
        )


class MansionAuditor(AuditedPlay[MansionAudit]):
    """Plays and audits Mansion tables on one SQLite file."""

    GAME = plug(GAME)
    PLAYERS = (3, 4, 4, 5)
    NUMBERS = 20_000
    MAX_STEPS = 1500
    REVIEWING: ClassVar[Reviewing] = reviewing

    def __init__(self, path: Path, seed: int, forced: Mapping[str, Any] | None = None
                 ) -> None:
        super().__init__(path, seed, MansionAudit())
        self._tips: dict[int, set[str]] = {}
        """seat → the Private Tip questions it may read (its Action cards, dealt or drawn)."""
        self._assist = "off"
        self._forced = dict(forced or {})
        """Options every table takes (`series`, `variant`), over the ones drawn."""

    def options(self) -> dict[str, Any]:
        rng = self.rng
        chosen = {
            "variant": "one-against-all" if rng.random() < 0.3 else "standard",
            "series": 1 if rng.random() < 0.8 else 2,
            "assist": rng.choice(("off", "bookkeeping", "full")),
        } | self._forced
        self._assist = str(chosen["assist"])
        return chosen

    def begin(self) -> None:
        self._tips = {}

    # -- the checks ------------------------------------------------------------------------

    def check(self, state: GameState, events: list[Any], mark: int) -> None:
        """Every letter stored by the change that led to `state` (through `events`)."""
        for event in events:
            if isinstance(event, HandDealt):
                self._tips.setdefault(event.seat, set()).update(
                    TIP_ASKS[c] for c in event.actions if c in TIP_ASKS)
            elif isinstance(event, ActionDrawn) and event.card in TIP_ASKS:
                self._tips.setdefault(event.seat, set()).add(TIP_ASKS[event.card])
        letters = self.stored_since(mark)
        seats = {s.id: i for i, s in enumerate(state.seats)}
        over = state.phase == "over"
        # the game this change ended (each game of a series): each member's review of it
        ended = next((e.round for e in events if isinstance(e, RoundOver)), None)
        reviews = {} if ended is None else {
            i: reviewing.REVIEWER.letter(state, i, "en", ended)
            for i, s in enumerate(state.seats) if s.id.startswith("u")}
        may_know = knowable(state)
        may_read = {seat: set(asks) for seat, asks in self._tips.items()}
        for game in [*state.rounds, state]:
            for record in game.log:  # type: ignore[attr-defined]
                if isinstance(record, Tipped):
                    for seat in (record.seat, record.target):
                        may_read.setdefault(seat, set()).add(TIP_ASKS[record.card])
        got: dict[int, list[str]] = {}
        for letter in letters:
            self.audit.letters += 1
            msg = as_message(letter.body)
            if letter.kind == "c" or self.to_watcher(letter):
                if over:
                    self.audit.checked["end"] += 1
                    continue
                self.audit.checked["channel"] += 1
                self.channel(letter, msg)
                self.pictures(letter, state, None)
                continue
            user = self.reader_of(letter)
            if user is None or f"u{user}" not in seats:
                continue  # a lobby reply: no game yet
            seat = seats[f"u{user}"]
            got.setdefault(seat, []).append(msg.text)
            if is_review(letter.body):
                self.check_review(ended is not None, reviews.get(seat), letter.body, seat,
                                  f"{letter.kind}:{user}")
                continue
            if over:
                self.audit.checked["end"] += 1
                continue
            self.pictures(letter, state, seat)
            if is_picker(msg):
                self.audit.checked["pickers"] += 1
                continue
            self.audit.checked["dm" if letter.kind == "u" else "reply"] += 1
            for where, line in lines(msg):
                for ask in TIP_ASKS.values():
                    if ask in line and ask not in may_read.get(seat, set()) and BURNED not in line:
                        self.audit.leaks.append(f"{letter.kind}:{user} read a tip: {line!r}")
                cards = named(line)
                if not cards or public_card_line(where, line) or revealed(msg, line):
                    continue
                self.audit.lines += 1
                leaked = cards - may_know[seat]
                if leaked:
                    self.audit.leaks.append(
                        f"{letter.kind}:{user} (seat {seat}) shown {sorted(leaked)}: {line!r}")
        self.reviews_owed({i for i, own in reviews.items() if own is not None}, got)
        if over:
            return
        self.owed(state, events, got)
        self.no_choice_told(state, events)
        if self._assist == "full":
            self.check_hint(state)

    def check_hint(self, state: GameState) -> None:
        """The hint the seat to play would get now is its own (every play ranked is one it
        may make) and advises an accusation only once its own deduction is certain."""
        seat = state.turn
        view = player_view(state, seat)
        if not coaching.hint_due(view):
            return
        advice = coaching.advise(view)  # type: ignore[attr-defined]
        text = coaching.hint_text(view, advice, "en")
        self.audit.checked["hint"] += 1
        certain = solve(view).certain()
        accused = advice.accusation
        if ("Certain" in text or accused is not None) and (
            certain is None
            or accused is None
            or (accused.suspect, accused.vehicle, accused.destination) != certain
        ):
            self.audit.leaks.append(f"hint to seat {seat}: an accusation it cannot be sure of")
        if any(r.move.seat != seat for r in advice.ranked):
            self.audit.leaks.append(f"hint to seat {seat}: ranks another seat's play")

    def no_choice_told(self, state: GameState, events: list[Any]) -> None:
        """Nothing public says whether a refuter had a choice, and every refuter is asked."""
        for event in events:
            if event.audience.scope == "public" and tells_a_choice(event.model_dump_json()):
                self.audit.leaks.append(f"a public event tells a choice: {event!r}")
        views = [public_view(state), *(player_view(state, s) for s in range(state.players))]
        if any("had_choice" in view.model_dump_json() for view in views):
            self.audit.leaks.append("a view tells whether a refuter had a choice")
        asked = [e.refuter for e in events
                 if isinstance(e, SuggestionAnswered) and e.refuter is not None]
        if any(isinstance(e, SleuthPlayed) for e in events):
            sleuth = next(r for r in reversed(state.log) if isinstance(r, Sleuthed))
            asked += [a.seat for a in sleuth.answers if not a.answered]
        for seat in asked:
            if isinstance(state.prompt_for(seat), ShowPrompt):
                self.audit.checked["asked"] += 1
            else:
                self.audit.missing.append(f"seat {seat} was not asked which card to show")

    def pictures(self, letter: Letter, state: GameState, seat: int | None) -> None:
        """The letter's pictures' stored inputs, checked for its reader (`mansion_inputs`):
        `seat`, or the channel (None)."""
        for ref in letter.body.pictures:
            self.audit.checked["pictures"] += 1
            try:
                if seat is None:
                    check_public_picture(ref, state)
                else:
                    check_member_picture(ref, state, seat)
            except AssertionError as exc:
                self.audit.leaks.append(f"picture to {letter.kind}:{letter.address}: {exc}")

    def channel(self, letter: Letter, msg: Message) -> None:
        if msg.selects:
            self.audit.leaks.append(f"channel {letter.address}: a select {msg.custom_ids}")
        for where, line in lines(msg):
            if any(p in line for p in PRIVATE_PHRASES):
                self.audit.leaks.append(f"channel {letter.address}: private line {line!r}")
            if any(ask in line for ask in TIP_ASKS.values()) and BURNED not in line:
                self.audit.leaks.append(f"channel {letter.address}: tip text {line!r}")
            if tells_a_choice(line):
                self.audit.leaks.append(f"channel {letter.address}: tells a choice {line!r}")
            cards = named(line)
            if not cards:
                continue
            self.audit.lines += 1
            if revealed(msg, line) or public_card_line(where, line):
                continue
            self.audit.leaks.append(f"channel {letter.address}: card named {line!r}")

    def owed(self, state: GameState, events: list[Any], got: dict[int, list[str]]) -> None:
        """The private items of these events, each at its owner if the owner is a member."""
        members = {i for i, s in enumerate(state.seats) if s.id.startswith("u")}

        def names(seat: int) -> set[str]:
            return {c for text in got.get(seat, []) for c in named(text)}

        def owe(kind: str, seat: int, cards: set[str], what: str) -> None:
            if seat not in members:
                return
            if cards <= names(seat):
                self.audit.delivered[kind] += 1
            else:
                self.audit.missing.append(f"{what} to seat {seat}: {sorted(cards)}")

        for event in events:
            if event.audience.scope != "private":
                continue
            if isinstance(event, HandDealt):
                owe("dealt", event.seat, set(event.clues), "dealt hand")
            elif isinstance(event, CardShown):
                owe("shown", event.to, {event.card}, "card shown")
            elif isinstance(event, SnoopedCard):
                owe("snooped", event.seat, {event.card}, "snooped card")
            elif isinstance(event, TipAnswered) and event.cards is not None:
                for seat in set(event.audience.seats):
                    owe("tip", seat, set(event.cards), "tip answer")
            elif isinstance(event, AccusationMade) and event.solution is not None:
                owe("accusation", event.seat, set(event.solution.cards()), "solution seen")
            elif isinstance(event, SolutionChosen) and event.solution is not None:
                owe("chosen", event.seat, set(event.solution.cards()), "solution chosen")


async def run_mansion_audit(path: Path, games: int, seed: int = 0, **forced: Any
                            ) -> MansionAudit:
    """Audit `games` tables; `forced`: options every table takes (say `series=2`)."""
    async with MansionAuditor(path, seed, forced) as auditor:
        for number in range(games):
            await auditor.game(number)
        return auditor.audit
