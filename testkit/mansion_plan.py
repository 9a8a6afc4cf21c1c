"""A deterministic script for Mansion games in end-to-end tests: `next_move(state, goals)`
chooses, from the true state, the move that covers the next feature a test wants to see
(a refutation choice, a snoop, an all snoop, ...), and `find_seed` finds a deal in which the
script covers them all. The bot replays the same moves through its buttons and commands:
with the same seed and the same actions the engine deals and draws the same cards."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.mansion import GameState, Options, PlayerRef, apply, legal, new_game, records
from engine.mansion import actions as act
from engine.mansion.cards import ACTIONS, DESTINATIONS, SUSPECTS, VEHICLES

STANDARD = ("choice", "one", "snoop", "all_snoop", "sleuth", "tip", "swap_player",
            "swap_tray", "wrong", "right")
"""`choice`: a refuter held two or more of the three; `one`: a refuter held exactly one
(and was asked all the same)."""


def covered(log: Iterable[records.Record], hands: Sequence[Sequence[str]]) -> set[str]:
    """The features a game's log shows (`hands`: that game's Clue hands, by seat)."""
    seen: set[str] = set()
    for r in log:
        if isinstance(r, records.Suggested) and r.refuter is not None and r.shown is not None:
            held = sum(c in r.named.cards() for c in hands[r.refuter])
            seen.add("choice" if held > 1 else "one")
        if isinstance(r, records.Suggested) and r.burned:
            seen.add("burn")
        elif isinstance(r, records.Snooped):
            seen.add("snoop")
        elif isinstance(r, records.AllSnooped):
            seen.add("all_snoop")
        elif isinstance(r, records.Sleuthed):
            seen.add("sleuth")
        elif isinstance(r, records.Tipped):
            seen.add("tip")
        elif isinstance(r, records.Swapped):
            seen.add("swap_tray" if r.other is None else "swap_player")
        elif isinstance(r, records.Accused):
            seen.add("right" if r.correct else "wrong")
    return seen


def wrong_triple(state: GameState) -> tuple[str, str, str]:
    assert state.solution is not None
    s = next(x for x in SUSPECTS if x != state.solution.suspect)
    return s, state.solution.vehicle, state.solution.destination


def first_refuter(state: GameState, seat: int, named: tuple[str, str, str]
                  ) -> tuple[int | None, int]:
    for other in legal.refutation_order(state, seat):
        n = sum(c in named for c in state.seats[other].clues)
        if n:
            return other, n
    return None, 0


def next_move(state: GameState, goals: tuple[str, ...] = STANDARD, *,
              accuse_when_done: bool = True, seat: int | None = None) -> act.Action:
    """The scripted move of `seat` (default: the first seat the game waits on)."""
    seat = legal.waiting_on(state)[0] if seat is None else seat
    prompt = state.prompt_for(seat)
    assert prompt is not None
    done = covered(state.log, [s.clues for s in state.seats])
    todo = [g for g in goals if g not in done]
    accusations_left = [g for g in todo if g in ("wrong", "right")]
    only_accusations = len(accusations_left) == len(todo)
    assert state.solution is not None or prompt.kind == "choose_solution"
    match prompt.kind:
        case "choose_solution":
            return act.ChooseSolution(seat=seat, suspect=SUSPECTS[0], vehicle=VEHICLES[0],
                                      destination=DESTINATIONS[0])
        case "show":
            return act.ShowCard(seat=seat, card=prompt.options[-1])
        case "pick":
            return act.PickCard(seat=seat, position=0)
        case "answer_tip":
            return act.AnswerTip(seat=seat, cards=list(prompt.options[0]))
        case "accuse_or_end" | "play" if todo and only_accusations and accuse_when_done:
            active = [s for s in range(state.players) if state.active(s)]
            if "wrong" in todo and len(active) > 1:
                s, v, d = wrong_triple(state)
            else:
                assert state.solution is not None
                s, v, d = state.solution.cards()
            return act.Accuse(seat=seat, suspect=s, vehicle=v, destination=d)
        case "accuse_or_end":
            return act.EndTurn(seat=seat)
    return _play(state, seat, todo)


def _play(state: GameState, seat: int, todo: list[str]) -> act.Action:
    hand = state.seats[seat].actions
    left = state.left_of(seat)
    me = state.seats[seat].marker
    player_markers = [s.marker for i, s in enumerate(state.seats) if i != seat]
    for card in hand:
        effect = ACTIONS[card].effect
        if effect == "snoop" and "snoop" in todo:
            return act.Snoop(seat=seat, target=left)
        if effect == "all_snoop" and "all_snoop" in todo:
            return act.AllSnoop(seat=seat, card=card)
        if effect == "super_sleuth" and "sleuth" in todo:
            return act.SuperSleuth(seat=seat, card=card)
        if effect == "private_tip" and "tip" in todo:
            return act.PrivateTip(seat=seat, card=card, target=left)
    if "burn" in todo and state.fugitive is not None:
        burn = _burn(state, seat)
        if burn is not None:
            return burn
    for card in hand:
        effect = ACTIONS[card].effect
        if effect == "suggest_any":
            choice = _choice(state, seat, todo)
            if choice is not None:
                return choice
        if effect == "suggest_present" and ("swap_player" in todo or "swap_tray" in todo):
            dest = player_markers[0] if "swap_player" in todo else state.tray[0]
            return act.Move(seat=seat, destination=dest)
        if effect == "suggest_present" and "choice" in todo:
            for s in SUSPECTS:
                for v in VEHICLES:
                    refuter, n = first_refuter(state, seat, (s, v, me))
                    if refuter is not None and n > 1:
                        return act.SuggestPresent(seat=seat, suspect=s, vehicle=v)
    # nothing useful: a quiet move
    card = hand[0]
    match ACTIONS[card].effect:
        case "suggest_any":
            return act.SuggestAny(seat=seat, destination=me, suspect=SUSPECTS[0],
                                  vehicle=VEHICLES[0])
        case "suggest_present":
            return act.SuggestPresent(seat=seat, suspect=SUSPECTS[0], vehicle=VEHICLES[0])
        case "snoop":
            return act.Snoop(seat=seat, target=left)
        case "all_snoop":
            return act.AllSnoop(seat=seat, card=card)
        case "super_sleuth":
            return act.SuperSleuth(seat=seat, card=card)
    return act.PrivateTip(seat=seat, card=card, target=left)


def _burn(state: GameState, seat: int) -> act.Action | None:
    """A suggestion only the fugitive can disprove (so an Action card burns)."""
    for card in state.seats[seat].actions:
        effect = ACTIONS[card].effect
        if effect not in ("suggest_any", "suggest_present"):
            continue
        dests = DESTINATIONS if effect == "suggest_any" else (state.seats[seat].marker,)
        for dest in dests:
            for s in SUSPECTS:
                for v in VEHICLES:
                    refuter, _ = first_refuter(state, seat, (s, v, dest))
                    if refuter is None or refuter != state.fugitive:
                        continue
                    if effect == "suggest_present":
                        return act.SuggestPresent(seat=seat, suspect=s, vehicle=v)
                    return act.SuggestAny(seat=seat, destination=dest, suspect=s, vehicle=v)
    return None


def _choice(state: GameState, seat: int, todo: list[str]) -> act.SuggestAny | None:
    """A Suggestion from ANY destination covering a swap and/or a refutation choice."""
    players = {s.marker for i, s in enumerate(state.seats) if i != seat}
    wanted: list[str] = []
    if "swap_player" in todo:
        wanted += sorted(players, key=DESTINATIONS.index)
    if "swap_tray" in todo:
        wanted += list(state.tray)
    if not wanted and "choice" in todo:
        wanted = list(DESTINATIONS)
    if not wanted:
        return None
    for dest in wanted:
        for s in SUSPECTS:
            for v in VEHICLES:
                refuter, n = first_refuter(state, seat, (s, v, dest))
                if "choice" not in todo or (refuter is not None and n > 1):
                    return act.SuggestAny(seat=seat, destination=dest, suspect=s, vehicle=v)
    if "choice" in todo and len(todo) > 1:
        dest = wanted[0]
        return act.SuggestAny(seat=seat, destination=dest, suspect=SUSPECTS[0], vehicle=VEHICLES[0])
    return None


def simulate(players: int, seed: int, goals: tuple[str, ...] = STANDARD, *,
             variant: str = "standard", series: int = 1, limit: int = 400
             ) -> tuple[GameState, list[act.Action]] | None:
    """Play the script offline; the final state and the moves if it ended within `limit`."""
    refs = [PlayerRef(id=f"p{i}", name=f"P{i}") for i in range(players)]
    state, _ = new_game(refs, Options(players=players, variant=variant,  # type: ignore[arg-type]
                                      series_wins=series), seed)  # type: ignore[arg-type]
    moves: list[act.Action] = []
    for _ in range(limit):
        if state.phase == "over":
            return state, moves
        action = next_move(state, goals)
        moves.append(action)
        state, _ = apply(state, action)
    return None


def find_seed(players: int, goals: tuple[str, ...] = STANDARD, *, max_moves: int = 60,
              start: int = 0, **kw: object) -> int:
    """The first seed whose scripted game covers every goal within `max_moves` moves."""
    for seed in range(start, start + 500):
        result = simulate(players, seed, goals, limit=max_moves, **kw)  # type: ignore[arg-type]
        if result is not None and set(goals) <= set().union(
                *(covered(game.log, game.hands) for game in result[0].rounds)):
            return seed
    raise AssertionError("no seed covers every goal")
