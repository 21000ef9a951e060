"""The book's figure ti-best-arm-probability (Chapter 4): the reliability threshold and the curve at a
budget."""

from __future__ import annotations

import math

import pandas as pd

from dpnet.chapters import resolve
from dpnet.chapters.treatment_identification import ALGORITHMS, ti_best_arm_probability
from dpnet.results import RECORDED
from dpnet.survival import treatments


def test_first_reliable_needs_the_level_from_there_on() -> None:
    eps = [0.1, 1.0, 10.0, 100.0]
    assert treatments.first_reliable(eps, [0.2, 0.96, 0.9, 0.99], 0.95) == 100.0
    assert treatments.first_reliable(eps, [0.96, 0.97, 0.99, 1.0], 0.95) == 0.1
    assert treatments.first_reliable(eps, [0.1, 0.2, 0.3, 0.94], 0.95) is None


def _curve() -> ti_best_arm_probability.BestArmCurve:
    frame = pd.DataFrame(
        [{"eps": e, "algorithm": k, "probability": p, "probability, as published": p}
         for e, p in ((1.0, 0.2), (100.0, 0.9)) for k in ALGORITHMS]
    )  # fmt: skip
    return ti_best_arm_probability.BestArmCurve(frame, 0.95, 4)


def test_the_curve_at_a_budget() -> None:
    """The curve reads off its grid."""
    curve = _curve()
    assert curve.at(100.0) == {k: 0.9 for k in ALGORITHMS}
    assert all(math.isnan(p) for p in curve.at(30.0).values())


def test_the_curve_is_recordable_and_checks_nothing() -> None:
    curve = _curve()
    assert all(hasattr(curve, name) for name in RECORDED)
    assert curve.checks == {} and curve.deviations == () and curve.paper_setting is True


def test_cost_is_figure5s_study_at_every_budget() -> None:
    values = dict(resolve("treatment-identification", {}))
    one = ti_best_arm_probability.cost({**values, "best_arm_eps": [1.0]})
    grid = ti_best_arm_probability.cost(values)
    assert grid.seconds == one.seconds * len(values["best_arm_eps"]) and grid.peak == one.peak
