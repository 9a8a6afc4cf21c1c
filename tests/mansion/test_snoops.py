"""Rules reference: Snoop and All Snoop — Left / Right."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from engine.mansion import legal, player_view, public_view
from engine.mansion.actions import AllSnoop, EndTurn, PickCard, Snoop
from engine.mansion.events import AllSnoopPlayed, CardPicked, PromptOpened, SnoopedCard, SnoopPlayed
from engine.mansion.observations import AllSnoopSeen, SnoopSeen
from engine.mansion.prompts import PickPrompt
from engine.mansion.state import GameState
from testkit.events import of_type

from .helpers import build_state, play, refused, waiting_kinds


def snoop_table(players: int = 3, eliminated: Iterable[int] = ()) -> GameState:
    return build_state(players, actions={0: ["snoop", "all_snoop_left"]}, eliminated=eliminated)


def test_snoop_lays_the_targets_hand_face_down_and_the_snooper_picks() -> None:
    state = snoop_table()
    after, events = play(state, Snoop(seat=0, target=2))
    assert waiting_kinds(after) == [(0, "pick")]
    prompt = after.prompts[0]
    assert isinstance(prompt, PickPrompt)
    assert prompt.target == 2 and prompt.count == 6
    assert sorted(prompt.order) == sorted(after.seats[2].clues)
    assert of_type(events, SnoopPlayed)[0].audience.scope == "public"
    opened = of_type(events, PromptOpened)[0]
    assert opened.prompt.count == 6 and opened.prompt.options is None
    assert "order" not in opened.prompt.model_dump()
    assert legal.legal_actions(after, 0) == [PickCard(seat=0, position=i) for i in range(6)]


def test_the_card_seen_is_the_one_at_the_picked_position_and_only_the_snooper_learns_it() -> None:
    state, _ = play(snoop_table(), Snoop(seat=0, target=2))
    prompt = state.prompts[0]
    assert isinstance(prompt, PickPrompt)
    after, events = play(state, PickCard(seat=0, position=4))
    card = prompt.order[4]
    snooped = of_type(events, SnoopedCard)[0]
    assert snooped.audience.seats == (0,) and snooped.card == card
    picked = of_type(events, CardPicked)[0]
    assert picked.audience.scope == "public" and "card" not in picked.model_dump()
    mine = player_view(after, 0).observations[-1]
    assert isinstance(mine, SnoopSeen) and mine.card == card and mine.done
    for seat in (1, 2):
        theirs = player_view(after, seat).observations[-1]
        assert isinstance(theirs, SnoopSeen) and theirs.card is None and theirs.done
    assert waiting_kinds(after) == [(0, "accuse_or_end")]


def test_the_face_down_order_is_random() -> None:
    orders = set()
    for seed in range(12):
        state = snoop_table().model_copy(update={"seed": seed})
        after, _ = play(state, Snoop(seat=0, target=1))
        prompt = after.prompts[0]
        assert isinstance(prompt, PickPrompt)
        orders.add(tuple(prompt.order))
    assert len(orders) > 6


def test_snoop_a_wrong_accuser_or_the_fugitive() -> None:
    after, _ = play(snoop_table(eliminated=[1]), Snoop(seat=0, target=1))
    assert waiting_kinds(after) == [(0, "pick")]
    oaa = build_state(3, actions={0: ["snoop", "snoop"]}, fugitive=2)
    after, _ = play(oaa, Snoop(seat=0, target=2))
    assert waiting_kinds(after) == [(0, "pick")]


def test_snoop_refusals() -> None:
    refused(snoop_table(), Snoop(seat=0, target=0), "Choose another player at this table.")
    refused(snoop_table(), Snoop(seat=0, target=3), "Choose another player at this table.")
    state, _ = play(snoop_table(), Snoop(seat=0, target=2))
    refused(state, PickCard(seat=0, position=6), "There are 6 face-down cards")
    refused(state, PickCard(seat=0, position=-1), "There are 6 face-down cards")
    refused(state, PickCard(seat=1, position=0), "You have no face-down card to pick.")
    refused(state, EndTurn(seat=0), "First pick one of Cid's face-down cards.")


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("card", ["all_snoop_left", "all_snoop_right"])
def test_all_snoop_every_player_picks_from_the_neighbour_on_the_side_shown(
    players: int, card: str
) -> None:
    """Left: each hand goes to its owner's left neighbour, so each player looks at the hand
    of the player on their right. Right is the mirror."""
    state = build_state(players, turn=1, actions={1: [card, "snoop"]}, eliminated=[players - 1])
    after, events = play(state, AllSnoop(seat=1, card=card))
    assert legal.waiting_on(after) == list(range(players))
    shift = -1 if card == "all_snoop_left" else 1
    for seat in range(players):
        prompt = after.prompt_for(seat)
        assert isinstance(prompt, PickPrompt) and prompt.reason == "all_snoop"
        assert prompt.target == (seat + shift) % players
    played = of_type(events, AllSnoopPlayed)[0]
    assert played.looks_at == [(s + shift) % players for s in range(players)]
    assert len(of_type(events, PromptOpened)) == players
    for seat in range(players):
        after, picked = play(after, PickCard(seat=seat, position=0))
        secret = of_type(picked, SnoopedCard)[0]
        assert secret.audience.seats == (seat,)
        target = (seat + shift) % players
        assert secret.card in after.seats[target].clues
    assert waiting_kinds(after) == [(1, "accuse_or_end")]


def test_all_snoop_each_learns_only_their_own_card() -> None:
    state = build_state(3, actions={0: ["all_snoop_right", "snoop"]})
    after, _ = play(
        state,
        AllSnoop(seat=0, card="all_snoop_right"),
        PickCard(seat=2, position=1),
        PickCard(seat=0, position=0),
        PickCard(seat=1, position=5),
    )
    cards = []
    for seat in range(3):
        entry = player_view(after, seat).observations[-1]
        assert isinstance(entry, AllSnoopSeen)
        assert entry.card is not None and entry.card in after.seats[(seat + 1) % 3].clues
        assert all(look.done for look in entry.looks)
        cards.append(entry.card)
    public_entry = public_view(after).observations[-1]
    assert isinstance(public_entry, AllSnoopSeen) and public_entry.card is None


def test_all_snoop_includes_the_fugitive_and_answers_in_any_order() -> None:
    state = build_state(4, actions={0: ["all_snoop_left", "snoop"]}, fugitive=2)
    after, _ = play(state, AllSnoop(seat=0, card="all_snoop_left"))
    assert legal.waiting_on(after) == [0, 1, 2, 3]
    after, _ = play(after, PickCard(seat=2, position=0))
    assert legal.waiting_on(after) == [0, 1, 3]
    refused(after, PickCard(seat=2, position=0), "You have no face-down card to pick.")
    refused(after, EndTurn(seat=0), "First pick one of Dee's face-down cards.")


def test_all_snoop_needs_an_all_snoop_card() -> None:
    refused(
        snoop_table(),
        AllSnoop(seat=0, card="all_snoop_right"),
        "You do not hold an All Snoop — Right card.",
    )
    refused(snoop_table(), AllSnoop(seat=0, card="snoop"), "'snoop' is not an All Snoop card.")
