"""The review after the game (Mansion): a seat's plays against the coach's, replayed from the
true log of the game.

The log holds everything that happened, secrets included, and the deal record keeps each
seat's first Action card: walking the log rebuilds, at each moment, the markers, the tray,
every Action hand and who accused wrongly. Cut there and seen through `player_view`, the
game shows exactly what the seat knew then. Every game of a series is reviewed, each from
the table's state cut to that game (its own record is kept whole in `rounds`). It names the
seat's solution, so it exists only once that game is over (when its reveal shows it to all,
while a series may play on), and it is a pure function of the stored state: kept with the
table, it reads the same whenever it is asked.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import RuleError
from engine.mansion import actions as act
from engine.mansion.cards import DESTINATIONS
from engine.mansion.coach import Play, Rated, advise
from engine.mansion.deduction import solve
from engine.mansion.prompts import AccuseOrEndPrompt, PlayPrompt
from engine.mansion.records import (
    Accused,
    AllSnooped,
    Dealt,
    Drew,
    Record,
    Sleuthed,
    Snooped,
    Suggested,
    Swapped,
    Tipped,
    TurnBegan,
)
from engine.mansion.state import GameState, RoundResult
from engine.mansion.views import PlayerView, player_view

Triple = tuple[str, str, str]


@dataclass(frozen=True)
class Position:
    """The game as it stood just before its log's `cut`-th record: on turn `turn` of seat
    `seat`, about to play its card (`stage` "play") or once its card was resolved
    ("after")."""

    cut: int
    turn: int
    seat: int
    stage: str
    markers: tuple[str, ...]
    tray: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    eliminated: tuple[bool, ...]


@dataclass(frozen=True)
class Step:
    """One move of the seat on its turn: what it played and what the coach would have, with
    the possible solutions expected to be left after each. `best` None: the coach would
    have ended the turn (an accusation the seat could not be sure of)."""

    turn: int
    here: str
    """The seat's marker then (a Suggestion from PRESENT is made there)."""
    solutions: int
    """Possible solutions just before the move."""
    played: Rated
    best: Rated | None
    chance: float | None = None
    """For an accusation: the chance it was right, from what the seat knew then."""


@dataclass(frozen=True)
class Moment:
    """When a card of the solution became certain for the seat: during turn `turn` (0: from
    the deal on), which was `by`'s, playing `move` (None: no card played)."""

    turn: int
    by: int | None
    move: Play | act.Accuse | None


@dataclass(frozen=True)
class Review:
    seat: int
    round: int
    solution: Triple
    steps: tuple[Step, ...]
    could_accuse: int | None
    """The first of the seat's turns on which its deduction was certain, if any."""
    certain: dict[str, Moment | None]
    """Each card of the solution: when it became certain for the seat (None: never)."""
    complete: bool
    """False for a game stored before the deal kept the Action hands, or ended before play."""


def review(state: GameState, seat: int, game: int | None = None) -> Review:
    """The review of `seat` in finished game `game` of the table (1 for a series' first, which
    is reviewed while the series plays on; None: the last game of a finished table). An
    earlier game is reviewed from the table cut to it: the games after it did not happen
    yet, so nothing of them is read."""
    if not state.rounds or (game is None and state.phase != "over"):
        raise RuleError("The review comes once the game is over.")
    if game is not None:
        if not 1 <= game <= len(state.rounds):
            raise RuleError("This table played no such game.")
        state = state.model_copy(update={"rounds": state.rounds[:game]})
    last = state.rounds[-1]
    solution: Triple = last.solution.cards() if last.solution is not None else ("", "", "")
    positions = walk(last)
    if len(positions) < 2 or last.solution is None:
        return Review(seat, last.round, solution, (), None, {}, complete=False)
    steps: list[Step] = []
    could: int | None = None
    for position in positions:
        if position.seat != seat:
            continue
        move = move_at(last.log, position)
        if position.stage == "after" and could is not None and not isinstance(move, act.Accuse):
            continue  # nothing to rate, and the first certain turn is known: no solve
        step, certain = _step(view_at(state, position), position, move)
        if certain and could is None:
            could = position.turn
        if step is not None:
            steps.append(step)
    return Review(seat, last.round, solution, tuple(steps), could,
                  _moments(state, seat, solution, positions), complete=True)


def _step(view: PlayerView, position: Position, move: Play | act.Accuse | None
          ) -> tuple[Step | None, bool]:
    """The seat's move at `position` against the coach's, and whether it was certain."""
    here = position.markers[position.seat]
    if position.stage == "play":
        advice = advise(view)
        certain = advice.accusation is not None
        if move is None:
            return None, certain
        if isinstance(move, act.Accuse):
            chance = solve(view).triple_probability(_named(move))
            return Step(position.turn, here, advice.solutions, Rated(move, 1.0),
                        advice.best(), chance), certain
        mine = advice.rated(move)
        best = advice.best()
        if mine is None or best is None:
            return None, certain  # cannot happen for a legal play of a seat still in the game
        return Step(position.turn, here, advice.solutions, mine, best), certain
    d = solve(view)
    found = d.certain()
    if not isinstance(move, act.Accuse):
        return None, found is not None
    best = None if found is None else Rated(
        act.Accuse(seat=view.seat, suspect=found[0], vehicle=found[1], destination=found[2]), 1.0)
    return Step(position.turn, here, len(d.triples), Rated(move, 1.0), best,
                d.triple_probability(_named(move))), found is not None


def walk(game: RoundResult) -> list[Position]:
    """Every moment a seat chose its move in this game, in order: after its draw, and once
    its card was resolved; then the end of the game (stage "end", nobody's). Empty for a
    game whose deal did not keep the Action hands."""
    log = game.log
    dealt = next((r for r in log if isinstance(r, Dealt)), None)
    if dealt is None or not dealt.actions:
        return []
    markers, tray = list(dealt.markers), list(dealt.tray)
    hands = [list(h) for h in dealt.actions]
    out = [False] * len(markers)
    positions: list[Position] = []
    turn, seat, played = 0, -1, False

    def here(cut: int, stage: str) -> Position:
        return Position(cut, turn, seat, stage, tuple(markers), tuple(tray),
                        tuple(tuple(h) for h in hands), tuple(out))

    for index, record in enumerate(log):
        if played and (isinstance(record, TurnBegan)
                       or (isinstance(record, Accused) and record.seat == seat)):
            positions.append(here(index, "after"))
            played = False
        match record:
            case TurnBegan():
                turn, seat = record.turn_number, record.seat
            case Drew():
                hands[record.seat].append(record.card)
                positions.append(here(index + 1, "play"))
            case Swapped():
                _swap(markers, tray, record)
            case Accused():
                if not record.correct:
                    out[record.seat] = True
                    hands[record.seat] = []
            case _:
                pass
        move = _play_of(log, index)
        if move is not None:
            hands[move.seat].remove(act.card_played(move))
            played = True
    if played:
        positions.append(here(len(log), "after"))
    seat = -1
    positions.append(here(len(log), "end"))
    return positions


def _swap(markers: list[str], tray: list[str], record: Swapped) -> None:
    """The markers moved as `plays._swap` moved them (the tray kept in table order)."""
    if record.other is None:
        tray.remove(record.took)
        tray.append(record.gave)
        tray.sort(key=DESTINATIONS.index)
    else:
        markers[record.other] = record.gave
    markers[record.seat] = record.took


def _play_of(log: list[Record], index: int) -> Play | None:
    """The card play the `index`-th record begins, if it begins one."""
    record = log[index]
    match record:
        case Swapped():
            follows = log[index + 1] if index + 1 < len(log) else None
            if record.card == "suggest_any":
                assert isinstance(follows, Suggested)
                return act.SuggestAny(seat=record.seat, destination=record.took,
                                      suspect=follows.named.suspect, vehicle=follows.named.vehicle)
            return act.Move(seat=record.seat, destination=record.took)
        case Suggested():
            before = log[index - 1] if index else None
            if isinstance(before, Swapped) and before.seat == record.seat:
                return None  # the suggestion of a Suggestion from ANY that moved
            if record.card == "suggest_any":
                return act.SuggestAny(seat=record.seat, destination=record.named.destination,
                                      suspect=record.named.suspect, vehicle=record.named.vehicle)
            return act.SuggestPresent(seat=record.seat, suspect=record.named.suspect,
                                      vehicle=record.named.vehicle)
        case Snooped():
            return act.Snoop(seat=record.seat, target=record.target)
        case AllSnooped():
            return act.AllSnoop(seat=record.seat, card=f"all_snoop_{record.direction}")
        case Sleuthed():
            return act.SuperSleuth(seat=record.seat, card=record.card)
        case Tipped():
            return act.PrivateTip(seat=record.seat, card=record.card, target=record.target)
        case _:
            return None


def move_at(log: list[Record], position: Position) -> Play | act.Accuse | None:
    """What the seat did at `position`: its card play or its accusation (None: it ended
    its turn, or the game ended first)."""
    record = log[position.cut] if position.cut < len(log) else None
    if isinstance(record, Accused) and record.seat == position.seat:
        named = record.named
        return act.Accuse(seat=record.seat, suspect=named.suspect, vehicle=named.vehicle,
                          destination=named.destination)
    if position.stage != "play" or record is None:
        return None
    return _play_of(log, position.cut)


def at(state: GameState, position: Position) -> GameState:
    """The last game of the finished table as it stood at `position` (what each seat had
    learned by then; the piles and the scores are not rebuilt, no view of them is read)."""
    last = state.rounds[-1]
    prompt = (PlayPrompt(id=0, seat=position.seat) if position.stage == "play"
              else AccuseOrEndPrompt(id=0, seat=position.seat))
    seats = [
        s.model_copy(update={
            "clues": list(last.hands[i]), "actions": list(position.hands[i]),
            "marker": position.markers[i], "eliminated": position.eliminated[i],
        })
        for i, s in enumerate(state.seats)
    ]
    return state.model_copy(update={
        "phase": "playing",
        "round": last.round,
        "dealer": last.dealer,
        "fugitive": last.fugitive,
        "solution": last.solution,
        "seats": seats,
        "draw": [],
        "discard": [],
        "tray": list(position.tray),
        "played": None,
        "turn": position.seat,
        "turn_number": position.turn,
        "prompts": [prompt] if position.stage in ("play", "after") else [],
        "log": last.log[: position.cut],
        "rounds": state.rounds[:-1],
        "master": None,
        "ended_by": None,
        "end_reason": "",
    })


def view_at(state: GameState, position: Position) -> PlayerView:
    """What `position.seat` knew at `position`."""
    return player_view(at(state, position), position.seat)


def _moments(state: GameState, seat: int, solution: Triple, positions: list[Position]
             ) -> dict[str, Moment | None]:
    """For each card of the solution, the turn during which the seat's deduction made it
    certain. The cuts are the starts of turns (every earlier answer given) and the end;
    facts only accumulate, so once certain a card stays so, and a search by halves finds
    the first cut with a few solves."""
    cuts = [p for p in positions if p.stage in ("play", "end")]
    solved: dict[int, dict[str, bool]] = {}

    def certain_at(k: int) -> dict[str, bool]:
        if k not in solved:
            d = solve(player_view(at(state, cuts[k]), seat))
            solved[k] = {c: d.holders[c][-1] == d.total for c in solution}
        return solved[k]

    out: dict[str, Moment | None] = {}
    for card in solution:
        if not certain_at(len(cuts) - 1)[card]:
            out[card] = None
            continue
        low, high = 0, len(cuts) - 1  # the first certain cut is in [low, high]
        while low < high:
            middle = (low + high) // 2
            if certain_at(middle)[card]:
                high = middle
            else:
                low = middle + 1
        out[card] = _moment(state.rounds[-1].log, cuts, low)
    return out


def _moment(log: list[Record], cuts: list[Position], k: int) -> Moment:
    """The turn between cut `k - 1` and cut `k` (k 0: from the deal on)."""
    if k == 0:
        return Moment(0, None, None)
    turn = cuts[k - 1]
    move: Play | act.Accuse | None = None
    for index in range(turn.cut, cuts[k].cut):
        record = log[index]
        if isinstance(record, Accused) and record.seat == turn.seat:
            move = act.Accuse(seat=record.seat, suspect=record.named.suspect,
                              vehicle=record.named.vehicle, destination=record.named.destination)
        elif move is None:
            move = _play_of(log, index)
    return Moment(turn.turn, turn.seat, move)


def _named(move: act.Accuse) -> Triple:
    return (move.suspect, move.vehicle, move.destination)

