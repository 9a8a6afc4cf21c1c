"""Rules reference: "What each player may know" — the views and the observation record."""

from __future__ import annotations

from engine.mansion import PlayerView, PublicView, legal, player_view, public_view
from engine.mansion import actions as act
from engine.mansion import observations as obs
from engine.mansion.cards import CLUES
from engine.mansion.prompts import PickPrompt
from engine.mansion.state import GameState

from .helpers import HANDS, SOLUTION, build_state, fresh_game, play


def scripted() -> GameState:
    """Four turns touching most kinds of entry: a suggestion with a choice, a snoop, a super
    sleuth, and a private tip waiting for its answer."""
    state = build_state(
        4,
        hands=HANDS,
        actions={
            0: ["suggest_any", "snoop"],
            1: ["snoop", "snoop"],
            2: ["sleuth_female", "snoop"],
            3: ["tip_red", "snoop"],
        },
        draw=["snoop"] * 20,
    )
    snooped, _ = play(
        state,
        act.SuggestAny(seat=0, destination="golden_gate", suspect="peacock", vehicle="automobile"),
        act.ShowCard(seat=3, card="automobile"),
        act.EndTurn(seat=0),
        act.Snoop(seat=1, target=2),
    )
    pick = snooped.prompt_for(1)
    assert isinstance(pick, PickPrompt)
    after, _ = play(
        snooped,
        act.PickCard(seat=1, position=0),
        act.EndTurn(seat=1),
        act.SuperSleuth(seat=2, card="sleuth_female"),
        act.ShowCard(seat=3, card="peacock"),
        act.ShowCard(seat=1, card="white"),
        act.EndTurn(seat=2),
        act.PrivateTip(seat=3, card="tip_red", target=1),
    )
    assert after.prompts[0].kind == "answer_tip"
    return after


def test_public_view_holds_no_secret() -> None:
    state = scripted()
    view = public_view(state)
    text = view.model_dump_json(exclude={"observations", "seats", "tray"})
    assert not {c for c in CLUES if f'"{c}"' in text}
    assert view.solution is None
    assert [s.clue_count for s in view.seats] == [5, 5, 4, 4]
    assert view.draw_size == len(state.draw)
    assert [d.card for d in view.discard] == ["suggest_any", "snoop", "sleuth_female"]
    assert [p.kind for p in view.waiting] == ["answer_tip"]
    assert view.waiting[0].tip is None and view.waiting[0].options is None
    assert not isinstance(view, PlayerView)


def test_player_view_holds_own_hands_and_own_prompt() -> None:
    state = scripted()
    bea = player_view(state, 1)
    assert bea.clues == HANDS[1] and bea.actions == state.seats[1].actions
    assert bea.prompt is not None and bea.prompt.kind == "answer_tip"
    assert bea.prompt.tip == "tip_red"
    assert bea.prompt.options == [[]]  # Bea holds no red vehicle
    dee = player_view(state, 3)
    assert dee.prompt is None
    assert dee.waiting[0].tip == "tip_red" and dee.waiting[0].options is None
    assert legal.legal_actions(bea, 1) == legal.legal_actions(state, 1)


def test_observation_record_for_each_seat() -> None:
    state, _ = play(scripted(), act.AnswerTip(seat=1, cards=[]))
    logs = {seat: player_view(state, seat).observations for seat in range(4)}
    channel = public_view(state).observations
    kinds = [e.kind for e in channel]
    assert kinds == [
        "dealt",
        "turn",
        "swap",
        "suggestion",
        "turn",
        "snoop",
        "turn",
        "super_sleuth",
        "turn",
        "private_tip",
    ]
    for seat, log in logs.items():
        mine = [e.kind for e in log if e.kind != "drew"]
        assert mine == kinds, seat
    # draws: each seat sees only its own
    assert all(isinstance(e, obs.DrewSeen) and e.seat == 0 for e in logs[0] if e.kind == "drew")
    assert not [e for e in channel if e.kind == "drew"]
    dealt = channel[0]
    assert isinstance(dealt, obs.DealtSeen) and dealt.clue_counts == [5, 5, 4, 4]
    swap = channel[2]
    assert isinstance(swap, obs.SwapSeen) and (swap.gave, swap.took, swap.other) == (
        "niagara_falls",
        "golden_gate",
        None,
    )
    # the suggestion: Bea and Cid passed, Dee had a choice; only Ann and Dee see the card
    for seat in range(4):
        entry = logs[seat][[e.kind for e in logs[seat]].index("suggestion")]
        assert isinstance(entry, obs.SuggestionSeen)
        assert entry.named.cards() == ("peacock", "automobile", "golden_gate")
        assert (entry.passed, entry.refuter) == ([1, 2], 3)
        assert "had_choice" not in entry.model_dump()
        assert not entry.pending and not entry.fugitive_refuted
        assert entry.shown == ("automobile" if seat in (0, 3) else None)
    # the snoop: only Bea sees the card, and it is one of Cid's
    for seat in range(4):
        entry = next(e for e in logs[seat] if isinstance(e, obs.SnoopSeen))
        assert (entry.seat, entry.target, entry.count, entry.done) == (1, 2, 4, True)
        assert (entry.card is not None) == (seat == 1)
    bea_snoop = next(e for e in logs[1] if isinstance(e, obs.SnoopSeen))
    assert bea_snoop.card in HANDS[2]
    # the super sleuth: Dee showed peacock, Ann nothing, Bea white; only Cid and the shower
    for seat in range(4):
        entry = next(e for e in logs[seat] if isinstance(e, obs.SleuthSeen))
        assert [(a.seat, a.showed) for a in entry.answers] == [
            (3, True),
            (0, False),
            (1, True),
        ]
        cards = [a.card for a in entry.answers]
        expected = {
            2: ["peacock", None, "white"],
            3: ["peacock", None, None],
            1: [None, None, "white"],
            0: [None, None, None],
        }[seat]
        assert cards == expected
    # the tip: Dee and Bea know the card and the (empty) answer; Ann and Cid only that it passed
    for seat in range(4):
        entry = next(e for e in logs[seat] if isinstance(e, obs.TipSeen))
        assert (entry.seat, entry.target, entry.answered) == (3, 1, True)
        if seat in (1, 3):
            assert (entry.card, entry.cards) == ("tip_red", [])
        else:
            assert (entry.card, entry.cards) == (None, None)
    turns = [e for e in channel if isinstance(e, obs.TurnSeen)]
    assert [(t.seat, t.turn_number) for t in turns] == [(0, 1), (1, 2), (2, 3), (3, 4)]


def test_known_holders_is_what_the_seat_learned() -> None:
    state, _ = play(scripted(), act.AnswerTip(seat=1, cards=[]))
    ann = player_view(state, 0).known_holders()
    assert ann == {**dict.fromkeys(HANDS[0], 0), "automobile": 3}
    cid = player_view(state, 2).known_holders()
    assert cid == {**dict.fromkeys(HANDS[2], 2), "peacock": 3, "white": 1}
    bea = player_view(state, 1)
    snooped = next(e for e in bea.observations if isinstance(e, obs.SnoopSeen)).card
    assert snooped is not None
    assert bea.known_holders() == {**dict.fromkeys(HANDS[1], 1), snooped: 2}


def test_all_snoop_view_each_seat_its_own_card() -> None:
    state = build_state(4, hands=HANDS, turn=1, actions={1: ["all_snoop_left", "snoop"]})
    state, _ = play(state, act.AllSnoop(seat=1, card="all_snoop_left"))
    for seat in range(4):
        state, _ = play(state, act.PickCard(seat=seat, position=1))
    for seat in range(4):
        entry = player_view(state, seat).observations[-1]
        assert isinstance(entry, obs.AllSnoopSeen)
        assert entry.card in HANDS[(seat - 1) % 4]
        assert [(look.looker, look.target) for look in entry.looks] == [
            (1, 0),
            (2, 1),
            (3, 2),
            (0, 3),
        ]
        assert player_view(state, seat).known_holders()[entry.card] == (seat - 1) % 4


def test_wrong_accuser_and_fugitive_see_the_solution_others_do_not() -> None:
    state = build_state(4, hands=HANDS, fugitive=3)
    assert player_view(state, 3).solution == SOLUTION
    assert player_view(state, 0).solution is None
    after, _ = play(state, act.Accuse(seat=0, suspect="plum", vehicle="train", destination="alamo"))
    assert player_view(after, 0).solution == SOLUTION
    assert player_view(after, 1).solution is None
    entry = next(e for e in player_view(after, 0).observations if isinstance(e, obs.AccusationSeen))
    assert entry.named is not None and entry.solution == SOLUTION
    other = next(e for e in player_view(after, 2).observations if isinstance(e, obs.AccusationSeen))
    assert other.named is None and other.solution is None and not other.correct


def test_one_against_all_fugitive_view_from_the_start() -> None:
    state, _ = fresh_game(3, "one_against_all", seed=4, fugitive=0)
    view = player_view(state, 0)
    assert view.prompt is not None and view.prompt.kind == "choose_solution"
    assert len(legal.legal_actions(view, 0)) == 6 * 6 * 9
    after, _ = play(
        state, act.ChooseSolution(seat=0, suspect="plum", vehicle="train", destination="alamo")
    )
    fugitive = player_view(after, 0)
    assert fugitive.solution is not None and fugitive.solution.suspect == "plum"
    entry = next(e for e in fugitive.observations if isinstance(e, obs.SolutionChosenSeen))
    assert entry.solution == fugitive.solution
    detective = player_view(after, 1)
    assert detective.solution is None and detective.fugitive == 0
    assert detective.seats[0].fugitive and detective.seats[0].action_count == 0
    entry = next(e for e in detective.observations if isinstance(e, obs.SolutionChosenSeen))
    assert entry.solution is None


def test_views_round_trip_json_and_reveal_at_the_end() -> None:
    state = scripted()
    for seat in range(4):
        view = player_view(state, seat)
        assert PlayerView.model_validate_json(view.model_dump_json()) == view
    assert PublicView.model_validate_json(public_view(state).model_dump_json()) == public_view(
        state
    )
    over, _ = play(state, act.AnswerTip(seat=1, cards=[]), act.EndTurn(seat=3))
    over, _ = play(over, act.Accuse(seat=0, **SOLUTION.model_dump()))
    channel = public_view(over)
    assert channel.solution == SOLUTION and channel.master == 0
    assert channel.rounds[-1].hands == [HANDS[i] for i in range(4)]
    assert [e.kind for e in channel.rounds[-1].log][-1] == "accusation"


def test_suggestion_pending_while_the_refuter_chooses() -> None:
    state = build_state(4, hands=HANDS)
    after, _ = play(state, act.SuggestPresent(seat=0, suspect="peacock", vehicle="train"))
    entry = public_view(after).observations[-1]
    assert isinstance(entry, obs.SuggestionSeen) and entry.pending and entry.refuter == 3
    assert entry.refuter == 3
