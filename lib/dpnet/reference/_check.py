"""What the reference modules share: one test of "within a tolerance"."""

from __future__ import annotations

import math

__all__ = ["within"]


def within(value: float, bounds: tuple[float, float]) -> bool:
    """Whether ``bounds[0] ≤ value ≤ bounds[1]`` for a finite ``value`` (nan and ±∞ never are).

    A tolerance around a target is the same test on the difference:
    ``within(value - target, (-tol, tol))`` is ``|value − target| ≤ tol``, exactly.
    """
    x = float(value)
    return math.isfinite(x) and bounds[0] <= x <= bounds[1]
