"""Reading the table from a view: the clock in One Against All, and rivals' progress."""

from __future__ import annotations

from engine.mansion.observations import (
    AllSnoopSeen,
    SleuthSeen,
    SnoopSeen,
    SuggestionSeen,
    TipSeen,
)
from engine.mansion.views import PlayerView


def active_detectives(view: PlayerView) -> list[int]:
    return [i for i, s in enumerate(view.seats) if not s.fugitive and not s.eliminated]


def last_chance(view: PlayerView) -> bool:
    """One Against All: the draw pile runs out before this seat's next turn (each active
    detective draws one card per turn), so a guess now beats the fugitive's sure escape."""
    if view.fugitive is None:
        return False
    return view.draw_size < len(active_detectives(view))


def seen_counts(view: PlayerView) -> list[int]:
    """A public estimate of how many Clue cards each seat has seen: its hand, one per card
    shown, snooped or tipped to it (at least one per tip), and all three named cards of a
    suggestion nobody refuted (the suggester then knows them)."""
    seen = [s.clue_count for s in view.seats]
    for entry in view.observations:
        match entry:
            case SuggestionSeen():
                seen[entry.seat] += 1 if entry.refuter is not None else 3
            case SnoopSeen(done=True):
                seen[entry.seat] += 1
            case AllSnoopSeen():
                for look in entry.looks:
                    seen[look.looker] += look.done
            case SleuthSeen():
                seen[entry.seat] += sum(bool(a.showed) for a in entry.answers)
            case TipSeen(answered=True):
                seen[entry.seat] += 1
            case _:
                pass
    return seen


def rival_close(view: PlayerView, threshold: int) -> bool:
    """Some other seat still in the race has seen at least `threshold` Clue cards."""
    seen = seen_counts(view)
    return any(seen[s] >= threshold for s in active_detectives(view) if s != view.seat)
