"""Paper 002, E4 (Chapter 7), continued: E4b, MaxSense against its sensing constant θ, and E4c, the exact
w-subset simulator against the fast one (full mode only): the experiment on small sizes and its cost."""

from __future__ import annotations

import math

import pytest
from small import CHECKS, small

from dpnet.chapters import resolve
from dpnet.chapters.recommender_maxsense import p002_e4_theta


def test_sensing_constant_without_the_exact_simulators_leaves_e4c_undefined() -> None:
    e4b = p002_e4_theta.sensing_constant(small("recommender-maxsense"))
    checks = e4b.checks["p002-e4"]
    assert [c.name for c in checks] == CHECKS["p002-e4"].split()[-2:]
    assert all(c.passed is None and "exact_simulators" in c.detail for c in checks)
    assert e4b.exact is None and e4b.tables() == {} and math.isnan(e4b.exact_ratio(50, 10))
    assert len(e4b.u90) == len(p002_e4_theta.E4_THETAS) and 0.1 < e4b.best_theta < 8


def test_p002_e4_theta_cost_adds_the_exact_simulator_in_full_mode() -> None:
    """5 θ at 15 points; with exact_simulators, both simulators at 7 points for N = 50 (w = 10, 5)."""
    quick = dict(resolve("recommender-maxsense", {"mode": "quick"}))
    ms = 5e-4 + 1e-6 * 100
    assert p002_e4_theta.cost(quick).seconds == pytest.approx(5 * 15 * 40 * ms, rel=1e-12)
    exact = dict(resolve("recommender-maxsense", {"mode": "quick", "exact_simulators": True}))
    extra = 7 * 40 * 2 * (5e-4 + 1e-6 * 50 + 1e-4 * 50)
    assert p002_e4_theta.cost(exact).seconds == pytest.approx(5 * 15 * 40 * ms + extra, rel=1e-12)
