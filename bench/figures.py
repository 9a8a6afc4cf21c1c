"""How the benchmarks state a figure: one percentile and one way to write a duration, so
that the same words mean the same number in every benchmark's output."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The value at quantile `q` (0 to 1) by nearest rank, no interpolation."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    """A duration in milliseconds, two decimals."""
    return f"{seconds * 1000:.2f}ms"


def ms_spread(seconds: Sequence[float], *, worst: bool = True) -> tuple[str, ...]:
    """Durations as a table's cells: median and p99, then the max unless `worst` is off."""
    figures = [statistics.median(seconds), percentile(seconds, 0.99)]
    if worst:
        figures.append(max(seconds))
    return tuple(ms(f) for f in figures)
