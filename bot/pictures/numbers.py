"""Numbers as the pictures print them."""

from __future__ import annotations


def percent(p: float) -> str:
    """A probability as a whole percentage that never rounds an open chance to 0% or 100%."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{p:.0%}"
