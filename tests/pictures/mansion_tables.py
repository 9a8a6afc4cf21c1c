"""Hand-laid Mansion views for the golden pictures: no shuffle and no engine play, so a
change to dealing, the AI or the rules' bookkeeping does not move them."""

from __future__ import annotations

from engine.mansion.cards import CLUES
from engine.mansion.notes import Assist, CardNotes, Mark, Notes, SolutionOdds
from engine.mansion.records import Accused, Triple
from engine.mansion.state import Options, RoundResult
from engine.mansion.views import PlayerView, PublicView, SeatInfo
from testkit.positions import MANSION_NAMES

NAMES = MANSION_NAMES


def _seats(markers: list[str], counts: list[int], *, fugitive: int | None = None,
           eliminated: tuple[int, ...] = (), scores: tuple[int, ...] = ()) -> list[SeatInfo]:
    return [
        SeatInfo(name=NAMES[i], marker=m, clue_count=counts[i],
                 action_count=0 if i == fugitive or i in eliminated else 1,
                 eliminated=i in eliminated, fugitive=i == fugitive,
                 score=scores[i] if scores else 0)
        for i, m in enumerate(markers)
    ]


def _public(options: Options, seats: list[SeatInfo], tray: list[str], **extra: object
            ) -> dict[str, object]:
    fields: dict[str, object] = {
        "options": options, "phase": "playing", "round": 1, "dealer": 0, "fugitive": None,
        "turn": 1, "turn_number": 6, "seats": seats, "tray": tray, "draw_size": 21,
        "discard": [], "played": None, "waiting": [], "observations": [], "rounds": [],
        "master": None, "ended_by": None, "end_reason": "",
    }
    fields.update(extra)
    return fields


def hand_4p() -> PlayerView:
    """Ann's hand at a standard 4-player table: four Clue cards (two kinds), two Action
    cards, at Niagara Falls."""
    markers = ["niagara_falls", "alamo", "miami_beach", "old_faithful"]
    tray = ["coney_island", "mt_rushmore", "golden_gate", "hoover_dam", "lincoln_memorial"]
    seats = _seats(markers, [4, 4, 5, 5])
    return PlayerView.model_validate(
        _public(Options(players=4), seats, tray, seat=0,
                clues=["mustard", "plum", "alamo", "lincoln_memorial"],
                actions=["suggest_any", "tip_red"], prompt=None))


def hand_fugitive_3p() -> PlayerView:
    """The fugitive's hand at a 3-player One Against All table: six Clue cards, no Action
    cards, and the solution they chose."""
    markers = ["golden_gate", "coney_island", "hoover_dam"]
    tray = ["niagara_falls", "mt_rushmore", "old_faithful", "alamo", "lincoln_memorial",
            "miami_beach"]
    seats = _seats(markers, [6, 6, 6], fugitive=1)
    solution = Triple(suspect="white", vehicle="train", destination="golden_gate")
    return PlayerView.model_validate(
        _public(Options(players=3, variant="one_against_all"), seats, tray, fugitive=1,
                solution=solution, turn=2, seat=1,
                clues=["scarlet", "green", "seaplane", "airliner", "coney_island", "alamo"],
                actions=[], prompt=None))


def markers_5p() -> PublicView:
    """A 5-player series game: Cid's turn, Eve accused wrongly, scores 1-0-0-0-0."""
    markers = ["mt_rushmore", "golden_gate", "hoover_dam", "lincoln_memorial", "miami_beach"]
    tray = ["niagara_falls", "coney_island", "old_faithful", "alamo"]
    seats = _seats(markers, [4, 4, 4, 3, 3], eliminated=(4,), scores=(1, 0, 0, 0, 0))
    return PublicView.model_validate(
        _public(Options(players=5, series_wins=2), seats, tray, turn=2, round=2, turn_number=11,
                draw_size=17))


HANDS_4P = [
    ["mustard", "plum", "alamo", "lincoln_memorial"],
    ["white", "peacock", "airliner", "old_faithful"],
    ["seaplane", "limousine", "balloon", "hoover_dam", "miami_beach"],
    ["green", "automobile", "niagara_falls", "coney_island", "golden_gate"],
]
SOLUTION_4P = Triple(suspect="scarlet", vehicle="train", destination="mt_rushmore")


def _notes(seat: int, assist: Assist, hands: list[list[str]], known: set[str],
           solution: Triple) -> Notes:
    """A plausible grid for `seat`: its own hand and the `known` cards marked, the rest
    open (at full with made-up odds that add up per card)."""
    n = len(hands)
    holder = {c: s for s, hand in enumerate(hands) for c in hand}
    out = []
    for k, card in enumerate(CLUES):
        mine = card in hands[seat]
        sure = mine or card in known
        marks: list[Mark] = []
        for s in range(n):
            if sure:
                marks.append("held" if holder.get(card) == s else "not_held")
            else:
                marks.append("not_held" if s == seat else "unknown")
        solved = card in solution.cards() and assist == "full" and k % 2 == 0
        sol: Mark = "not_held" if sure else ("held" if solved else "unknown")
        row = CardNotes(card=card, kind=CLUES[card].kind.value, marks=marks, solution=sol)
        if assist == "full":
            open_cols = [s for s in range(n) if marks[s] == "unknown"]
            probs = [1.0 if marks[s] == "held" else 0.0 for s in range(n)]
            p_sol = 1.0 if sol == "held" else 0.0
            if open_cols and sol == "unknown":
                p_sol = round(0.1 + 0.05 * (k % 5), 3)
                for j, s in enumerate(open_cols):
                    share = (j + 1) / sum(range(1, len(open_cols) + 1))
                    probs[s] = round((1 - p_sol) * share, 3)
            elif sol == "held":
                probs = [0.0] * n
                row.marks = ["not_held"] * n
            row.solution_probability = p_sol
            row.holder_probabilities = probs
            row.deduced = solved  # in the solution by deduction: tagged in the picture
        out.append(row)
    solutions = []
    if assist == "full":
        odds = (("train", 0.42), ("automobile", 0.31), ("balloon", 0.17), ("seaplane", 0.1))
        solutions = [SolutionOdds(solution=Triple(suspect="scarlet", vehicle=v,
                                                  destination="mt_rushmore"), probability=p)
                     for v, p in odds]
    return Notes(seat=seat, assist=assist, players=n, cards=out,
                 possible=7 if assist == "full" else None, solutions=solutions)


def notes_full_4p() -> Notes:
    return _notes(0, "full", HANDS_4P, {"white", "airliner", "niagara_falls"}, SOLUTION_4P)


def notes_bookkeeping_5p() -> Notes:
    hands = [["mustard", "plum", "alamo", "lincoln_memorial"],
             ["white", "peacock", "airliner", "old_faithful"],
             ["seaplane", "limousine", "balloon", "hoover_dam"],
             ["green", "automobile", "niagara_falls"],
             ["coney_island", "golden_gate", "miami_beach"]]
    return _notes(2, "bookkeeping", hands, {"plum", "green", "coney_island"}, SOLUTION_4P)


def reveal_4p() -> PublicView:
    """The end of a 4-player game: Zoë solved it after Bartholomew accused wrongly."""
    markers = ["niagara_falls", "alamo", "miami_beach", "old_faithful"]
    seats = _seats(markers, [4, 4, 5, 5], eliminated=(1,))
    wrong = Accused(seat=1, named=Triple(suspect="green", vehicle="train",
                                         destination="alamo"), correct=False)
    right = Accused(seat=3, named=SOLUTION_4P, correct=True)
    result = RoundResult(round=1, dealer=0, fugitive=None, solution=SOLUTION_4P,
                         hands=HANDS_4P, winner=3, how="solved", log=[wrong, right])
    tray = ["coney_island", "mt_rushmore", "golden_gate", "hoover_dam", "lincoln_memorial"]
    return PublicView.model_validate(
        _public(Options(players=4), seats, tray, phase="over", rounds=[result], master=3,
                ended_by="won", solution=SOLUTION_4P, end_reason="Zoë named the solution."))


def reveal_escaped_3p() -> PublicView:
    """One Against All, 3 players: the draw pile ran out and Bartholomew, the fugitive,
    escaped."""
    markers = ["golden_gate", "coney_island", "hoover_dam"]
    seats = _seats(markers, [6, 6, 6], fugitive=1)
    solution = Triple(suspect="white", vehicle="train", destination="golden_gate")
    hands = [["mustard", "plum", "peacock", "balloon", "limousine", "niagara_falls"],
             ["scarlet", "green", "seaplane", "airliner", "coney_island", "alamo"],
             ["automobile", "mt_rushmore", "old_faithful", "hoover_dam", "lincoln_memorial",
              "miami_beach"]]
    result = RoundResult(round=1, dealer=1, fugitive=1, solution=solution, hands=hands,
                         winner=1, how="escaped", log=[])
    return PublicView.model_validate(
        _public(Options(players=3, variant="one_against_all"), seats, [], phase="over",
                fugitive=1, rounds=[result], master=1, ended_by="won", solution=solution,
                draw_size=0, end_reason="The draw pile ran out."))
