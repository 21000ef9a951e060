"""The reference layer's shared tests of a value: within a tolerance, and in every case."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpnet.reference._check import every, within


@pytest.mark.parametrize(
    ("value", "inside"),
    [(0.5, True), (0.0, True), (1.0, True), (1.0 + 1e-12, False), (-1e-12, False), (math.nan, False),
     (math.inf, False), (-math.inf, False), (np.float64(0.25), True)],
)  # fmt: skip
def test_within_closed_bounds_for_finite_values(value: float, inside: bool) -> None:
    assert within(value, (0.0, 1.0)) is inside


def test_a_tolerance_around_a_target_is_exact() -> None:
    target, tol = 0.3, 0.1
    for value in (0.2, 0.4, 0.19999, 0.40001, 0.1 + 0.2):
        assert within(value - target, (-tol, tol)) == (abs(value - target) <= tol)


def test_every_is_undecided_on_an_empty_set_of_cases() -> None:
    assert every([]) is None and every(iter(())) is None
    assert every([True, np.True_]) is True and every([True, False]) is False
    assert every(x > 0 for x in [1, 2, 3]) is True
