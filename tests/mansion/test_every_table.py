"""Every action and decision of the rules reference at every table: 3, 4 and 5 players, the
standard game and One Against All (the fugitive in the last seat).

The other rule tests pin one hand-laid table each; these run the same rules over seeded
deals at each size and variant and compare the engine with what the rules text says,
computed here without the engine: who swaps markers with whom, who refutes (clockwise from
the suggester's left, the fugitive last) and which cards they may show, the burn, every
Snoop and All Snoop pick, every Super Sleuth and Private Tip answer, the accusations, the
empty draw pile.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from engine.mansion import actions as act
from engine.mansion import legal
from engine.mansion.cards import ACTIONS, CLUES, DESTINATIONS, SUSPECTS, VEHICLES, kind_of
from engine.mansion.events import (
    AccusationMade,
    CardShown,
    DrawPileReshuffled,
    Event,
    SnoopedCard,
    SuggestionMade,
    TipAnswered,
    TipPassed,
)
from engine.mansion.prompts import PickPrompt, ShowPrompt, TipPrompt
from engine.mansion.records import Sleuthed, Suggested, Swapped, Tipped
from engine.mansion.state import DiscardedCard, GameState
from testkit.events import of_type

from .helpers import RIGHT, SOLUTION, WRONG, build_state, play, private_to, refused, waiting_kinds

TABLES = [(p, v) for p in (3, 4, 5) for v in ("standard", "one_against_all")]
IDS = [f"{p}p-{v}" for p, v in TABLES]
SLEUTHS = [c for c, a in ACTIONS.items() if a.effect == "super_sleuth"]
TIPS = [c for c, a in ACTIONS.items() if a.effect == "private_tip"]


def table(players: int, variant: str, seed: int = 0, turn: int = 0, *,
          actions: dict[int, list[str]] | None = None, eliminated: Iterable[int] = (),
          draw: list[str] | None = None) -> GameState:
    """`turn` (default seat 0) to play; the 18 other Clue cards dealt at random (seeded)
    one at a time from seat 0; in One Against All the last seat is the fugitive."""
    free = [c for c in CLUES if c not in SOLUTION.cards()]
    random.Random(seed).shuffle(free)
    hands = {i: free[i::players] for i in range(players)}
    fugitive = players - 1 if variant == "one_against_all" else None
    # others hold a Suggestion card: there are only four Snoops
    held: dict[int, list[str]] = {i: ["suggest_any"] for i in range(players) if i != turn}
    held[turn] = ["suggest_any", "suggest_present"]
    held.update(actions or {})
    return build_state(players, hands=hands, fugitive=fugitive, actions=held, turn=turn,
                       eliminated=eliminated, draw=draw)


def clockwise_with_fugitive_last(state: GameState, seat: int) -> list[int]:
    """The rules text: clockwise from the suggester's left; the fugitive only after every
    detective."""
    order = [(seat + k) % state.players for k in range(1, state.players)]
    return [s for s in order if s != state.fugitive] + [s for s in order if s == state.fugitive]


def expected_refuter(state: GameState, seat: int, named: tuple[str, ...]
                     ) -> tuple[list[int], int | None, list[str]]:
    passed: list[int] = []
    for other in clockwise_with_fugitive_last(state, seat):
        holding = [c for c in state.seats[other].clues if c in named]
        if holding:
            return passed, other, holding
        passed.append(other)
    return passed, None, []


def check_refutation(before: GameState, after: GameState, events: list[Event], seat: int,
                     named: tuple[str, ...]) -> GameState:
    """The engine refuted `named` as the rules text says; the refuter is asked even with one
    matching card, and answers with the last one. Returns the state once the turn player may
    accuse or end."""
    passed, refuter, holding = expected_refuter(before, seat, named)
    record = next(r for r in reversed(after.log) if isinstance(r, Suggested))
    assert record.named.cards() == named
    assert (record.passed, record.refuter) == (passed, refuter)
    if refuter is not None and refuter == before.fugitive:
        assert record.burned == before.draw[-1]
        assert after.draw == before.draw[:-1]
        assert after.discard[-1] == DiscardedCard(card=before.draw[-1], face_up=True)
    else:
        assert record.burned is None and after.draw == before.draw
    if refuter is None:
        assert waiting_kinds(after) == [(seat, "accuse_or_end")]
        return after
    assert record.shown is None and not of_type(events, CardShown)
    prompt = after.prompt_for(refuter)
    assert isinstance(prompt, ShowPrompt) and prompt.to == seat
    assert sorted(prompt.options) == sorted(holding)
    assert legal.waiting_on(after) == [refuter]
    outsider = next(c for c in CLUES if c not in holding)
    refused(after, act.ShowCard(seat=refuter, card=outsider), "")
    done, more = play(after, act.ShowCard(seat=refuter, card=holding[-1]))
    record = next(r for r in reversed(done.log) if isinstance(r, Suggested))
    assert record.shown == holding[-1] and record.burned == (
        before.draw[-1] if refuter == before.fugitive else None)
    shown = of_type(more, CardShown)
    assert [(e.card, e.audience.seats) for e in shown] == [
        (holding[-1], tuple(sorted((seat, refuter))))]
    assert waiting_kinds(done) == [(seat, "accuse_or_end")]
    return done


def suggestions() -> list[tuple[str, str]]:
    return [(s, VEHICLES[i]) for i, s in enumerate(SUSPECTS)]


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
def test_suggestion_from_any_destination_swaps_then_is_refuted_clockwise(
    players: int, variant: str
) -> None:
    seen: set[str] = set()
    for seed, me in ((0, 0), (1, 1), (2, 0), (3, 1)):  # the fugitive (last seat) sits
        state = table(players, variant, seed, turn=me)  # after seat 0, and before seat 1
        mine = state.seats[me].marker
        others = [s for s in range(players) if s != me]
        for destination in DESTINATIONS:
            holder = state.marker_holder(destination)
            for suspect, vehicle in suggestions():
                after, events = play(state, act.SuggestAny(seat=me, destination=destination,
                                                           suspect=suspect, vehicle=vehicle))
                markers = [s.marker for s in after.seats]
                if destination == mine:
                    assert markers == [s.marker for s in state.seats]
                    assert not any(isinstance(r, Swapped) for r in after.log)
                elif holder is not None:  # a player's marker, the fugitive's included
                    assert markers[me] == destination and markers[holder] == mine
                    swap = next(r for r in after.log if isinstance(r, Swapped))
                    assert (swap.gave, swap.took, swap.other) == (mine, destination, holder)
                else:  # by the tray
                    assert markers[me] == destination
                    assert [markers[s] for s in others] == [state.seats[s].marker for s in others]
                    assert mine in after.tray and destination not in after.tray
                    swap = next(r for r in after.log if isinstance(r, Swapped))
                    assert swap.other is None
                named = (suspect, vehicle, destination)
                check_refutation(state, after, events, me, named)
                _, refuter, holding = expected_refuter(state, me, named)
                seen.add("choice" if len(holding) > 1 else "one" if holding else "nobody")
                if refuter is not None and refuter == state.fugitive:
                    seen.add("fugitive")
                if refuter is not None and refuter != state.left_of(me):
                    seen.add("passed")
    # the deals exercise every case: a choice, a single card, passing, the fugitive last
    assert {"choice", "one", "passed"} <= seen
    assert ("fugitive" in seen) == (variant == "one_against_all")


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
def test_suggestion_from_present_destination_or_move(players: int, variant: str) -> None:
    for seed in range(3):
        state = table(players, variant, seed)
        mine = state.seats[0].marker
        for suspect, vehicle in suggestions():
            suggestion = act.SuggestPresent(seat=0, suspect=suspect, vehicle=vehicle)
            after, events = play(state, suggestion)
            assert [s.marker for s in after.seats] == [s.marker for s in state.seats]
            check_refutation(state, after, events, 0, (suspect, vehicle, mine))
        refused(state, act.Move(seat=0, destination=mine), "")
        for destination in DESTINATIONS:
            if destination == mine:
                continue
            holder = state.marker_holder(destination)
            after, events = play(state, act.Move(seat=0, destination=destination))
            assert after.seats[0].marker == destination
            if holder is not None:
                assert after.seats[holder].marker == mine
            else:
                assert mine in after.tray and destination not in after.tray
            assert not any(isinstance(r, Suggested) for r in after.log)
            assert not of_type(events, SuggestionMade)
            assert waiting_kinds(after) == [(0, "accuse_or_end")]
            ended, _ = play(after, act.EndTurn(seat=0))
            assert ended.turn == 1 and ended.discard[-1].card == "suggest_present"


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
def test_snoop_every_opponent_at_every_position(players: int, variant: str) -> None:
    state = table(players, variant, actions={0: ["snoop", "suggest_any"]})
    refused(state, act.Snoop(seat=0, target=0), "")
    for target in range(1, players):  # the fugitive (last seat) included
        after, _ = play(state, act.Snoop(seat=0, target=target))
        prompt = after.prompt_for(0)
        assert isinstance(prompt, PickPrompt) and prompt.target == target
        assert sorted(prompt.order) == sorted(state.seats[target].clues)
        assert legal.waiting_on(after) == [0]
        for position in range(prompt.count):
            done, events = play(after, act.PickCard(seat=0, position=position))
            secret = of_type(events, SnoopedCard)
            assert [(e.card, e.audience.seats) for e in secret] == [(prompt.order[position], (0,))]
            for other in range(1, players):
                assert not of_type(private_to(events, other), SnoopedCard)
            assert waiting_kinds(done) == [(0, "accuse_or_end")]
            assert done.draw == state.draw  # a snoop never burns


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
@pytest.mark.parametrize("card", ["all_snoop_left", "all_snoop_right"])
def test_all_snoop_everyone_looks_at_the_neighbour_on_the_side_shown(
    players: int, variant: str, card: str
) -> None:
    state = table(players, variant, actions={0: [card, "snoop"]})
    after, _ = play(state, act.AllSnoop(seat=0, card=card))
    assert legal.waiting_on(after) == list(range(players))  # the fugitive too
    # Left: each hand goes to its owner's left, so each looks at the player on their right.
    looks_at = {s: (s - 1 if card == "all_snoop_left" else s + 1) % players
                for s in range(players)}
    for seat in reversed(range(players)):  # answers in any order
        prompt = after.prompt_for(seat)
        assert isinstance(prompt, PickPrompt) and prompt.target == looks_at[seat]
        assert sorted(prompt.order) == sorted(state.seats[looks_at[seat]].clues)
        if seat != 0:
            refused(after, act.EndTurn(seat=0), "")
        after, picked = play(after, act.PickCard(seat=seat, position=prompt.count - 1))
        secret = of_type(picked, SnoopedCard)
        assert [(e.card, e.audience.seats) for e in secret] == [(prompt.order[-1], (seat,))]
    assert waiting_kinds(after) == [(0, "accuse_or_end")]


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
@pytest.mark.parametrize("card", SLEUTHS)
def test_super_sleuth_each_opponent_in_turn_order_shows_a_match_or_nothing(
    players: int, variant: str, card: str
) -> None:
    for seed in range(3):
        state = table(players, variant, seed, actions={0: [card, "snoop"]})
        after, events = play(state, act.SuperSleuth(seat=0, card=card))
        feature = ACTIONS[card].feature
        matching = {s: [c for c in state.seats[s].clues if feature in CLUES[c].features]
                    for s in range(1, players)}
        choosers = [s for s, m in matching.items() if m]  # asked even with one match
        assert legal.waiting_on(after) == (choosers or [0])
        for s in choosers:
            prompt = after.prompt_for(s)
            assert isinstance(prompt, ShowPrompt) and prompt.reason == "super_sleuth"
            assert sorted(prompt.options) == sorted(matching[s])
            after, more = play(after, act.ShowCard(seat=s, card=matching[s][0]))
            events += more
        record = next(r for r in reversed(after.log) if isinstance(r, Sleuthed))
        assert [a.seat for a in record.answers] == list(range(1, players))
        for answer in record.answers:
            m = matching[answer.seat]
            assert answer.card == (m[0] if m else None)
        shown = of_type(events, CardShown)
        assert sorted((e.card, e.audience.seats) for e in shown) == sorted(
            (m[0], (0, s)) for s, m in matching.items() if m)
        assert after.draw == state.draw  # only refuting a Suggestion burns
        assert waiting_kinds(after) == [(0, "accuse_or_end")]


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
@pytest.mark.parametrize("card", TIPS)
def test_private_tip_to_every_opponent(players: int, variant: str, card: str) -> None:
    state = table(players, variant, actions={0: [card, "snoop"]})
    tip = ACTIONS[card]
    for target in range(1, players):
        after, events = play(state, act.PrivateTip(seat=0, card=card, target=target))
        prompt = after.prompt_for(target)
        assert isinstance(prompt, TipPrompt) and prompt.to == 0 and prompt.tip == card
        held = [c for c in state.seats[target].clues if kind_of(c) == tip.kind]
        if tip.all_of_kind:
            answers = [held]
        else:
            answers = [[c] for c in held if tip.feature in CLUES[c].features] or [[]]
        assert sorted(sorted(a) for a in prompt.options) == sorted(sorted(a) for a in answers)
        passed = of_type(events, TipPassed)
        assert {(e.audience.scope, e.card) for e in passed} == {
            ("public", None), ("private", card)}
        assert [e.audience.seats for e in passed if e.audience.scope == "private"] == [
            (0, target)]
        done, more = play(after, act.AnswerTip(seat=target, cards=answers[-1]))
        record = next(r for r in reversed(done.log) if isinstance(r, Tipped))
        assert sorted(record.answer or []) == sorted(answers[-1])
        private = [e for e in of_type(more, TipAnswered) if e.audience.scope == "private"]
        assert [e.audience.seats for e in private] == [(0, target)]
        assert done.draw == state.draw
        assert waiting_kinds(done) == [(0, "accuse_or_end")]
        ended, _ = play(done, act.EndTurn(seat=0))
        assert ended.discard[-1] == DiscardedCard(card=card, face_up=False, seen_by=[0, target])


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
def test_wrong_accusers_keep_answering_then_everyone_wrong_ends_the_game(
    players: int, variant: str
) -> None:
    state = table(players, variant)
    detectives = [s for s in range(players) if s != state.fugitive]
    after, events = play(state, act.Accuse(seat=0, **WRONG))
    assert after.seats[0].eliminated and after.seats[0].actions == []
    made = [e for e in of_type(events, AccusationMade) if e.audience.scope == "public"]
    assert len(made) == 1 and not made[0].correct
    assert made[0].named is None and made[0].solution is None  # a wrong one reveals nothing
    assert after.turn == detectives[1] and not after.is_over
    refused(after, act.Accuse(seat=0, **RIGHT), "")
    # a wrong accuser still refutes first when it can, and its marker may be taken
    out = table(players, variant, eliminated=[1])
    theirs = out.seats[1].clues
    suspect = next((c for c in theirs if c in SUSPECTS), SUSPECTS[1])
    vehicle = next((c for c in theirs if c in VEHICLES), VEHICLES[1])
    destination = out.seats[1].marker
    taken, more = play(out, act.SuggestAny(seat=0, destination=destination, suspect=suspect,
                                           vehicle=vehicle))
    assert taken.seats[0].marker == destination and taken.seats[1].marker == out.seats[0].marker
    if {suspect, vehicle} & set(theirs):
        assert next(r for r in taken.log if isinstance(r, Suggested)).refuter == 1
    check_refutation(out, taken, more, 0, (suspect, vehicle, destination))
    # every other detective accuses wrongly
    for seat in detectives[1:]:
        assert not after.is_over and after.turn == seat
        after, events = play(after, act.Accuse(seat=seat, **WRONG))
    assert after.is_over
    result = after.rounds[-1]
    if variant == "standard":
        assert result.winner is None and after.master is None
    else:
        assert result.winner == state.fugitive and result.how == "escaped"
        assert after.master is None and legal.winners(after) == {state.fugitive}
    assert result.solution == SOLUTION
    assert events[-1].audience.scope == "reveal"


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
def test_a_right_accusation_wins_instead_of_or_after_playing(players: int, variant: str) -> None:
    for before in ([], [act.SuggestPresent(seat=0, suspect="plum", vehicle="train")]):
        state = table(players, variant)
        state, _ = play(state, *before)
        while state.prompts and state.prompts[0].kind == "show":
            prompt = state.prompts[0]
            assert isinstance(prompt, ShowPrompt)
            state, _ = play(state, act.ShowCard(seat=prompt.seat, card=prompt.options[0]))
        after, events = play(state, act.Accuse(seat=0, **RIGHT))
        assert after.is_over and after.master == 0
        assert after.rounds[-1].winner == 0 and after.rounds[-1].how == "solved"
        public = [e for e in of_type(events, AccusationMade) if e.audience.scope == "public"]
        assert public and public[0].correct and public[0].solution == SOLUTION
    if variant == "one_against_all":
        fugitive = players - 1
        refused(table(players, variant), act.Accuse(seat=fugitive, **RIGHT), "")


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=IDS)
def test_an_empty_draw_pile_reshuffles_or_lets_the_fugitive_escape(
    players: int, variant: str
) -> None:
    state = table(players, variant, draw=[])
    rest = ["snoop", "suggest_any"]
    state = state.model_copy(update={"discard": [DiscardedCard(card=c) for c in rest]})
    after, events = play(state, act.Move(seat=0, destination=DESTINATIONS[-1]), act.EndTurn(seat=0))
    if variant == "standard":
        shuffled = of_type(events, DrawPileReshuffled)
        assert len(shuffled) == 1 and shuffled[0].size == len(rest) + 1
        assert not after.is_over and after.turn == 1 and after.discard == []
        assert len(after.draw) == len(rest) and len(after.seats[1].actions) == 2
    else:
        assert after.is_over and after.rounds[-1].how == "escaped"
        assert after.rounds[-1].winner == players - 1 and after.master is None
        assert not of_type(events, DrawPileReshuffled)
