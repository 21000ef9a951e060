"""What the reference modules share: one test of "within a tolerance", and one of "in every case" that
does not pass on an empty set of cases."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

__all__ = ["every", "within"]


def within(value: float, bounds: tuple[float, float]) -> bool:
    """Whether ``bounds[0] ≤ value ≤ bounds[1]`` for a finite ``value`` (nan and ±∞ never are).

    A tolerance around a target is the same test on the difference:
    ``within(value - target, (-tol, tol))`` is ``|value − target| ≤ tol``, exactly.
    """
    x = float(value)
    return math.isfinite(x) and bounds[0] <= x <= bounds[1]


def every(conditions: Iterable[bool | np.bool_]) -> bool | None:
    """Whether every condition holds, over a set of cases that may be empty.

    ``None`` (the check is undecided) when there is no case at all: an empty set of cases is no evidence,
    for or against (``all([])`` would say the claim holds).
    """
    outcomes = [bool(c) for c in conditions]
    return all(outcomes) if outcomes else None
