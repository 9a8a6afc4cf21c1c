"""The secrecy scan for Mansion tables: everything the bot sent, at every edit, up to a
moment (taken just before the game-ending action).

Card names are public in some places by the rules (markers, suggestions, swaps, a right
accusation, the reveal of a finished game of a series); anywhere else a card named in the
channel is a leak, and a card named in a member's DMs or ephemeral answers must be one that
member may know: their own hand, a card shown to them or by them, one they snooped, a tip
they gave or received, the solution they chose or saw when accusing, their own guesses.
A Private Tip's text may reach only its two players. Nobody but the refuter learns whether
it held one or several of the cards it could show: no public event, view or channel line
says so (`CHOICE_TELLS`), and every refutation reads the same in the channel.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from bot.mansion.reviewing import REVIEWER
from bot.reviews import TITLE
from engine.mansion import EVENT_ADAPTER, GameState, player_view, public_view
from engine.mansion.cards import ACTIONS
from engine.mansion.events import ActionDrawn, HandDealt, SuggestionAnswered
from engine.mansion.records import Accused, AllSnooped, Sleuthed, Snooped, Suggested, Tipped
from engine.mansion.state import RoundResult
from testkit.drive import Cut, _shown_before, query, table_row
from testkit.mansion_drive import named, user_at
from testkit.standin import Message
from testkit.world import World

PUBLIC_LINE = re.compile(
    r"📍 Markers:|swaps markers with|moves instead of suggesting|suggests \*\*|"
    r"\*\*right!\*\*|took too long|you are at \*\*|— 📍 |Suggest from |"
    r"moved with|swapped with|💬 "
)
"""Lines that may name cards publicly: markers, swaps, suggestions, a right accusation, the
idle notice (it names a suggestion's destination), seat lines of the table embed, the log."""
PUBLIC_FIELDS = ("📍 By the tray", "📍 You are at")
PRIVATE_PHRASES = ("showed you", "You showed", "You looked at", "Your Clue cards",
                   "answers your Private Tip", "You answered", "the solution is",
                   "You chose the solution")
BURNED = "the top Action card burns"
"""A burned card lies face up (a Private Tip too: no player's secret is involved)."""
TIP_ASKS = {c: info.ask for c, info in ACTIONS.items() if info.effect == "private_tip"}
CHOICE_TELLS = ("had_choice", "after choosing", "had a choice")
"""What would tell the table whether a refuter (or a Super Sleuth opponent) held one or
several matching cards."""
REFUTING = "can disprove it and chooses which card to show"
"""The one channel line for every refuter, however many of the three it holds."""


def tells_a_choice(text: str) -> bool:
    return any(tell in text for tell in CHOICE_TELLS)


def public_events(world: World) -> Iterator[tuple[str, object]]:
    """(raw JSON, event) of every stored event of the channel's table the channel may see."""
    table = table_row(world)["id"]
    for row in query(world, "SELECT events FROM actions WHERE table_id = ? ORDER BY version",
                     (table,)):
        for raw in json.loads(row["events"]):
            event = EVENT_ADAPTER.validate_python(raw)
            if event.audience.scope == "public":
                yield json.dumps(raw), event


def assert_no_choice_told(world: World, final: GameState, since: int = 0) -> int:
    """No public event, view or channel line tells whether a refuter had a choice; every
    refutation is announced by the same line. Returns the refutations checked."""
    refuted = 0
    for raw, event in public_events(world):
        assert not tells_a_choice(raw), raw
        refuted += isinstance(event, SuggestionAnswered) and event.refuter is not None
    assert not tells_a_choice(public_view(final).model_dump_json())
    for seat in range(final.players):
        assert "had_choice" not in player_view(final, seat).model_dump_json()
    said = 0
    for msg in world.dc.channel_messages(world.channel):
        if msg.id <= since:
            continue
        for snap in [*msg.history, msg.snapshot()]:
            text = json.dumps(snap)
            assert not tells_a_choice(text), text
        said += msg.content.count(REFUTING)
    assert said == refuted, (said, refuted)
    return refuted


def lines(msg: Message) -> Iterator[tuple[str, str]]:
    """(where, line) for every line of text a message shows."""
    for line in msg.content.splitlines():
        yield "content", line
    for embed in msg.embeds:
        for key in ("title", "description"):
            for line in str(embed.get(key) or "").splitlines():
                yield key, line
        for fld in embed.get("fields", []):
            name = str(fld.get("name", ""))
            yield f"field:{name}", name
            for line in str(fld.get("value", "")).splitlines():
                yield f"field:{name}", line
    for comp in msg.iter_components():
        if comp.get("type") == 2 and comp.get("label"):
            yield "button", str(comp["label"])


def is_picker(msg: Message) -> bool:
    """Pickers and the notes grid list every card by design."""
    return bool(msg.selects) or any("Your notes" in str(e.get("title", "")) for e in msg.embeds)


def reveals_a_game(msg: Message) -> bool:
    return "is over**" in msg.content


def is_review(msg: Message) -> bool:
    return any(e.get("title") == TITLE for e in msg.embeds)


def assert_own_review(msg: Message, final: GameState, seat: int, who: str) -> None:
    """A review names the coach's plays and its game's solution, as that game's reveal does:
    it must be the member's own review of one of the table's games over (before the end: a
    game of the series the table played on after)."""
    own = [REVIEWER.letter(final, seat, "en", game) for game in range(1, len(final.rounds) + 1)]
    got = [e.get("description") for e in msg.embeds]
    assert any(o is not None and [e.get("description") for e in o.embeds] == got for o in own), (
        f"{who} got a review that is not their own of a game over: {msg.text[:200]!r}")


def revealed(msg: Message, line: str) -> bool:
    """A line of the reveal of a finished game (public once that game is over)."""
    return reveals_a_game(msg) and line.startswith(("• ", "🔓", "🏁"))


def public_card_line(where: str, line: str) -> bool:
    return bool(PUBLIC_LINE.search(line)) or any(where == f"field:{f}" for f in PUBLIC_FIELDS)


def games_of(state: GameState) -> list[RoundResult]:
    """Every game of the table so far, the one in play included."""
    games = list(state.rounds)
    if state.phase != "over" and state.solution is not None:
        games.append(RoundResult(round=state.round, dealer=state.dealer,
                                 fugitive=state.fugitive, solution=state.solution,
                                 hands=[list(s.clues) for s in state.seats], winner=None,
                                 how="unsolved", log=list(state.log)))
    return games


def knowable(final: GameState) -> dict[int, set[str]]:
    """Per seat, every card it may see named privately, over every game of the table."""
    seen: dict[int, set[str]] = {i: set() for i in range(final.players)}
    for game in games_of(final):
        for seat, hand in enumerate(game.hands):
            seen[seat] |= set(hand)
        if game.fugitive is not None and game.solution is not None:
            seen[game.fugitive] |= set(game.solution.cards())
        for r in game.log:
            if isinstance(r, Suggested) and r.shown and r.refuter is not None:
                seen[r.seat].add(r.shown)
            elif isinstance(r, Snooped) and r.card:
                seen[r.seat].add(r.card)
            elif isinstance(r, AllSnooped):
                for p in r.picks:
                    if p.card:
                        seen[p.looker].add(p.card)
            elif isinstance(r, Sleuthed):
                for a in r.answers:
                    if a.card:
                        seen[r.seat].add(a.card)
            elif isinstance(r, Tipped) and r.answer:
                seen[r.seat] |= set(r.answer)
                seen[r.target] |= set(r.answer)
            elif isinstance(r, Accused):
                seen[r.seat] |= set(r.named.cards())
                if game.solution is not None:
                    seen[r.seat] |= set(game.solution.cards())
    return seen


def tip_parties(world: World, final: GameState) -> dict[int, set[str]]:
    """Per seat, the Private Tip texts it may read: tips it gave or received, and the tip
    cards in its own Action hand (dealt or drawn, as the stored events say)."""
    asks: dict[int, set[str]] = {i: set() for i in range(final.players)}
    for game in final.rounds:
        for r in game.log:
            if isinstance(r, Tipped):
                asks[r.seat].add(TIP_ASKS[r.card])
                asks[r.target].add(TIP_ASKS[r.card])
    table = table_row(world)["id"]
    for row in query(world, "SELECT events FROM actions WHERE table_id = ?", (table,)):
        for raw in json.loads(row["events"]):
            event = EVENT_ADAPTER.validate_python(raw)
            held: list[str] = []
            if isinstance(event, HandDealt):
                held = list(event.actions)
            elif isinstance(event, ActionDrawn):
                held = [event.card]
            for card in held:
                if card in TIP_ASKS:
                    asks[event.seat].add(TIP_ASKS[card])  # type: ignore[union-attr]
    return asks


def assert_mansion_secrecy(world: World, final: GameState, moment: Cut, *, since: int = 0
                           ) -> int:
    """Scan everything sent up to `moment` (and after message `since`: an earlier table in
    the channel had other cards); returns the card-naming lines checked."""
    assert final.rounds, "scan once the table's games are over"
    dc = world.dc
    checked = 0
    for msg in dc.channel_messages(world.channel):
        if msg.id <= since:
            continue
        for shown in _shown_before(msg, moment):
            assert not shown.selects, f"a select in the channel: {shown!r}"
            for where, line in lines(shown):
                assert not any(p in line for p in PRIVATE_PHRASES), f"private line: {line}"
                assert not any(ask in line for ask in TIP_ASKS.values()) or BURNED in line, (
                    f"tip text: {line}")
                cards = named(line)
                if not cards:
                    continue
                checked += 1
                if revealed(shown, line):
                    continue
                assert public_card_line(where, line), f"card named in the channel: {line!r}"
    may_know, may_read = knowable(final), tip_parties(world, final)
    for seat in range(final.players):
        user = user_at(world, final, seat)
        if user is None:
            continue
        for msg in [*dc.dms(user), *dc.ephemerals(user)]:
            if msg.id <= since:
                continue
            for shown in _shown_before(msg, moment):
                if is_picker(shown):
                    continue
                if is_review(shown):
                    assert_own_review(shown, final, seat, user.name)
                    checked += 1
                    continue
                for where, line in lines(shown):
                    for ask in TIP_ASKS.values():
                        assert ask not in line or ask in may_read[seat] or BURNED in line, (
                            f"{user.name} read a tip not theirs: {line!r}")
                    cards = named(line)
                    if not cards or public_card_line(where, line) or revealed(shown, line):
                        continue
                    checked += 1
                    leaked = cards - may_know[seat]
                    assert not leaked, f"{user.name} was shown {leaked}: {line!r}"
    assert_no_choice_told(world, final, since)
    return checked
