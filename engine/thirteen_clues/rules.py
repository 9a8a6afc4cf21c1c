"""Setup and `apply(state, action) -> (state, events)`: the 13 Clues rules, pure and seeded."""

from __future__ import annotations

import random
from typing import Literal

from engine.audience import Audience
from engine.errors import RuleError
from engine.thirteen_clues import actions as act
from engine.thirteen_clues import legal
from engine.thirteen_clues.cards import CARDS, Category, cards_in_play, in_subject
from engine.thirteen_clues.events import (
    AccusationMade,
    CardsDealt,
    CaseFile,
    Event,
    GameOver,
    GameStarted,
    GlassMoved,
    GlassTaken,
    InformantCard,
    InformantConsulted,
    PassChosen,
    PlayBegan,
    QuestionAnswered,
    SecretQuestionAsked,
    TurnStarted,
)
from engine.thirteen_clues.state import (
    GLASSES_IN_BOX,
    LETTERS,
    Accusation,
    Consultation,
    GameState,
    Options,
    Played,
    PlayerRef,
    Question,
    Seat,
)
from engine.thirteen_clues.views import PublicView

PUBLIC = Audience.public()


def new_game(
    players: list[PlayerRef], options: Options, seed: int
) -> tuple[GameState, list[Event]]:
    """Shuffle seats, deal category-first, letter the informants, pick the starting player."""
    if len(players) != options.players:
        raise RuleError("This table is set for {n} players, not {seated}.", n=options.players,
                        seated=len(players))
    if len({p.id for p in players}) != len(players):
        raise RuleError("A player cannot take two seats.")
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    deck = cards_in_play(options.players)
    hands: list[list[str]] = [[] for _ in order]
    for category in Category:
        pile = [c for c in deck if CARDS[c].category == category]
        rng.shuffle(pile)
        for hand in hands:
            hand.append(pile.pop())
    rest = [c for c in deck if not any(c in h for h in hands)]
    rng.shuffle(rest)
    for _ in range(2):
        for hand in hands:
            hand.append(rest.pop())
    starter = rng.randrange(len(order))
    state = GameState(
        options=options,
        seed=seed,
        seats=[Seat(id=p.id, name=p.name, dealt=h) for p, h in zip(order, hands, strict=True)],
        informants=rest,
        starter=starter,
        turn=starter,
    )
    events: list[Event] = [
        GameStarted(audience=PUBLIC, seat_names=[p.name for p in order], starter=starter)
    ]
    events += [
        CardsDealt(audience=Audience.to(i), seat=i, cards=list(s.dealt))
        for i, s in enumerate(state.seats)
    ]
    return state, events


def apply(state: GameState, action: act.Action) -> tuple[GameState, list[Event]]:
    """Validate `action` against `state`; return the next state and what happened.

    Raises RuleError (and leaves `state` untouched) when the rules forbid the action.
    """
    if isinstance(action, act.Abandon):
        if state.phase == "over":
            raise RuleError("This game is already over.")
        new = _fork(state)
        return new, _finish(new, winner=None, reason=action.reason)
    legal.check(state, action)
    new = _fork(state)
    match action:
        case act.ChoosePass():
            events = _choose_pass(new, action)
        case act.TakeGlass():
            new.seats[action.source].glasses -= 1
            new.seats[action.seat].glasses += 1
            events = [GlassTaken(audience=PUBLIC, seat=action.seat, source=action.source)]
        case act.Ask():
            new.played.append(Played(seat=action.seat, turn=new.turn_number, kind="ask"))
            events = _ask(new, action)
        case act.Consult():
            new.played.append(Played(seat=action.seat, turn=new.turn_number, kind="consult"))
            events = _consult(new, action)
        case act.Accuse():
            new.played.append(Played(seat=action.seat, turn=new.turn_number, kind="accuse"))
            events = _accuse(new, action)
    if new.phase == "turns" and _turn_is_over(new, action):
        events += _next_turn(new)
    return new, events


def _fork(state: GameState) -> GameState:
    """An independent copy to mutate: a dump and re-validate is several times faster than
    `model_copy(deep=True)` (a Python deepcopy of the whole history) and checks the result."""
    return GameState.model_validate(state.model_dump())


def _choose_pass(state: GameState, action: act.ChoosePass) -> list[Event]:
    seat = state.seats[action.seat]
    seat.passed = [action.person, action.location, action.weapon]
    waiting = [i for i, s in enumerate(state.seats) if s.passed is None]
    events: list[Event] = [
        PassChosen(audience=PUBLIC, seat=action.seat, waiting_for=waiting),
        PassChosen(
            audience=Audience.to(action.seat),
            seat=action.seat,
            cards=list(seat.passed),
            waiting_for=waiting,
        ),
    ]
    if not waiting:
        events += _begin_play(state)
    return events


def _begin_play(state: GameState) -> list[Event]:
    sides = _screen_rng(state)
    for i, seat in enumerate(state.seats):
        assert seat.passed is not None
        state.seats[state.left_of(i)].holder = list(seat.passed)
        kept = [c for c in seat.dealt if c not in seat.passed]
        if state.players == 2:
            sides.shuffle(kept)  # which kept card is "left" must not follow the deal order
        seat.screen = kept
    if state.options.uses_glasses:
        for seat in state.seats:
            seat.glasses = 1
        state.supply = GLASSES_IN_BOX[state.options.edition] - state.players
    state.phase = "turns"
    events: list[Event] = [
        PlayBegan(
            audience=PUBLIC,
            starter=state.starter,
            glasses=[s.glasses for s in state.seats],
            supply=state.supply,
            letters=state.letters(),
        )
    ]
    for i, seat in enumerate(state.seats):
        holders = {j: list(s.holder) for j, s in enumerate(state.seats) if j != i}
        events.append(
            CaseFile(audience=Audience.to(i), seat=i, screen=list(seat.screen), holders=holders)
        )
    state.turn = state.starter
    return events + _start_turn(state)


def _screen_rng(state: GameState) -> random.Random:
    """The seeded randomness that puts each two-player screen's cards left and right.

    The deal gives a Person, Location and Weapon first and two random cards after, so in
    deal order the first kept card is a Person more often than not (39% against 33%, and
    the second a Weapon). Shuffling the kept pair makes left and right uniform, as the
    deduction solver assumes. Derived from the table's seed alone: a replayed game (seed
    and action log) puts the same cards on the same sides.
    """
    return random.Random(f"13clues-screens:{state.seed}")


def _start_turn(state: GameState) -> list[Event]:
    """Turn start: a player without a glass takes one from the supply, or must pick a source."""
    state.turn_number += 1
    seat = state.seats[state.turn]
    events: list[Event] = []
    taken = False
    if state.options.uses_glasses and seat.glasses == 0 and state.supply > 0:
        state.supply -= 1
        seat.glasses += 1
        taken = True
    events.append(
        TurnStarted(
            audience=PUBLIC,
            seat=state.turn,
            turn_number=state.turn_number,
            glasses=seat.glasses,
            must_take=legal.must_take(state),
        )
    )
    if taken:
        events.append(GlassTaken(audience=PUBLIC, seat=state.turn, source=None))
    return events


def _turn_is_over(state: GameState, action: act.Action) -> bool:
    if isinstance(action, act.ChoosePass | act.TakeGlass):
        return False
    if not state.options.uses_glasses:
        return True
    return state.seats[state.turn].glasses == 0


def _next_turn(state: GameState) -> list[Event]:
    state.turn = state.left_of(state.turn)
    return _start_turn(state)


def _ask(state: GameState, action: act.Ask) -> list[Event]:
    answer = answer_for(state, action.seat, action.witness, action.subject, action.side)
    state.questions.append(
        Question(
            asker=action.seat,
            witness=action.witness,
            subject=action.subject,
            side=action.side,
            answer=answer,
            top_secret=action.top_secret,
        )
    )
    events: list[Event] = []
    if state.options.uses_glasses:
        state.seats[action.seat].glasses -= 1
        state.seats[action.witness].glasses += 1
        events.append(
            GlassMoved(
                audience=PUBLIC, giver=action.seat, receiver=action.witness, reason="question"
            )
        )
    answered = QuestionAnswered(
        audience=PUBLIC,
        asker=action.seat,
        witness=action.witness,
        subject=action.subject,
        side=action.side,
        answer=answer,
    )
    if action.top_secret:
        state.seats[action.seat].top_secret_used = True
        events.insert(
            0, SecretQuestionAsked(audience=PUBLIC, asker=action.seat, witness=action.witness)
        )
        answered = answered.model_copy(
            update={"audience": Audience.to(action.seat, action.witness), "top_secret": True}
        )
    return [*events, answered]


def answer_for(state: GameState, asker: int, witness: int, subject: str, side: str | None) -> int:
    """The true count the witness gives: every holder but its own plus its screen (3–6
    players), or the asker's holder plus the named screen card (2 players)."""
    if state.players == 2:
        seen = [*state.seats[asker].holder, state.seats[witness].screen[_side_index(side)]]
    else:
        seen = list(state.seats[witness].screen)
        for i, seat in enumerate(state.seats):
            if i != witness:
                seen += seat.holder
    return sum(in_subject(card, subject) for card in seen)


def _side_index(side: str | None) -> int:
    return 0 if side == "left" else 1


def _consult(state: GameState, action: act.Consult) -> list[Event]:
    events = _spend_glass(state, action.seat, "informant")
    card = state.informants[LETTERS.index(action.letter)]
    state.seats[action.seat].peeks[action.letter] = card
    state.consultations.append(Consultation(seat=action.seat, letter=action.letter))
    return [
        InformantConsulted(audience=PUBLIC, seat=action.seat, letter=action.letter),
        *events,
        InformantCard(
            audience=Audience.to(action.seat), seat=action.seat, letter=action.letter, card=card
        ),
    ]


def _accuse(state: GameState, action: act.Accuse) -> list[Event]:
    named = (action.person, action.location, action.weapon)
    seat = state.seats[action.seat]
    correct = set(named) == set(seat.holder)
    state.accusations.append(Accusation(seat=action.seat, cards=named, correct=correct))
    events = _spend_glass(state, action.seat, "accusation")
    events += [
        AccusationMade(audience=PUBLIC, seat=action.seat, correct=correct),
        AccusationMade(
            audience=Audience.to(action.seat), seat=action.seat, correct=correct, cards=list(named)
        ),
    ]
    if correct:
        return events + _finish(state, winner=action.seat, reason="solved")
    if state.options.uses_glasses and state.options.edition == "2020" and seat.glasses:
        events.append(
            GlassMoved(
                audience=PUBLIC,
                giver=action.seat,
                receiver=None,
                count=seat.glasses,
                reason="wrong_accusation",
            )
        )
        state.supply += seat.glasses
        seat.glasses = 0
    return events


def _spend_glass(
    state: GameState, seat: int, reason: Literal["informant", "accusation"]
) -> list[Event]:
    """Informant and accusation glasses go where the edition says (witnesses get theirs)."""
    if not state.options.uses_glasses:
        return []
    state.seats[seat].glasses -= 1
    receiver = spent_glass_receiver(state, seat)
    if receiver is None:
        state.supply += 1
    else:
        state.seats[receiver].glasses += 1
    return [GlassMoved(audience=PUBLIC, giver=seat, receiver=receiver, reason=reason)]


def spent_glass_receiver(game: GameState | PublicView, giver: int) -> int | None:
    """2020: the first player clockwise holding none, else the supply (None).
    2016: the first player clockwise holding the fewest. Only the others' glasses count, so
    it reads the same before or after `giver` lets go of it, and from any view (the AI
    asks it to foresee where its glass would go)."""
    players = game.options.players
    others = [(giver + k) % players for k in range(1, players)]
    if game.options.edition == "2020":
        return next((i for i in others if game.seats[i].glasses == 0), None)
    fewest = min(game.seats[i].glasses for i in others)
    return next(i for i in others if game.seats[i].glasses == fewest)


def _finish(state: GameState, winner: int | None, reason: str) -> list[Event]:
    state.phase = "over"
    state.winner = winner
    state.ended_by = "solved" if winner is not None else "abandoned"
    state.end_reason = reason
    return [reveal(state)]


def reveal(state: GameState) -> GameOver:
    """The end-of-game reveal of a finished game: every holder, screen and informant card."""
    if state.phase != "over":
        raise RuleError("Nothing is revealed before the game is over.")
    return GameOver(
        audience=Audience.reveal(),
        winner=state.winner,
        reason=state.end_reason,
        dealt=[list(s.dealt) for s in state.seats],
        holders=[list(s.holder) for s in state.seats],
        screens=[list(s.screen) for s in state.seats],
        informants=list(state.informants),
        accusations=[(a.seat, list(a.cards), a.correct) for a in state.accusations],
        secret_questions=[
            (q.asker, q.witness, q.subject, q.side, q.answer)
            for q in state.questions
            if q.top_secret
        ],
    )
