"""Paper 003, Proposition 4.6 (Chapter 3): §12's sensitivity against what one patient does to a centre's
likelihood, the ε the noise then buys, the size checks, and the item's cost."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpnet import reference
from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import cohorts, p003_prop4_6


def passed(checks: list) -> list[bool | None]:
    return [c.passed for c in checks]


NAMES = [
    "remove-within-delta", "add-within-delta", "event-within-delta", "time-within-delta",
    "modify-within-delta", "treatment-within-delta", "treatment-within-delta-these-data", "eps-dp",
]  # fmt: skip
KINDS = ("remove", "add", "event", "time", "modify")


def _checks(largest: dict, treatment: list, worst: float, eps_worst: float) -> list:
    return reference.clinical.sensitivity_checks(
        {**largest, "treatment": treatment}, 2 * math.log(2), worst=worst, worst_patients=227,
        eps_worst=eps_worst, eps=1.0,
    )  # fmt: skip


def test_p003_prop4_6_sensitivity_checks_fail_on_a_counterexample_and_never_pass_on_data() -> None:
    """A change beyond Δ on these centres refutes §12's bound for its kind; no such change proves nothing
    (undecided), nor does no measurement at all. A change of treatment is judged on the worst-case data
    set, and the per-instance statement on these centres alone."""
    big = {kind: [5.4, 5.8] for kind in KINDS}
    checks = _checks(big, [0.0, 0.69], 4.736, 1.708)
    assert [c.name for c in checks] == NAMES
    assert passed(checks) == [False] * 5 + [False, True, False]
    small = {kind: [0.5, 1.0] for kind in KINDS}
    assert passed(_checks(small, [0.0, 0.69], 1.0, 0.5)) == [None] * 5 + [True, True, True]
    # a change of treatment beyond Δ on these centres: both treatment checks fail
    assert passed(_checks(small, [1.5], 1.0, 0.9))[5:7] == [False, False]
    empty = _checks({kind: [] for kind in KINDS}, [], 1.0, 0.5)
    assert passed(empty)[:5] == [None] * 5 and passed(empty)[6] is None  # no centre measured
    assert "no change measured" in empty[0].detail
    assert [c.against for c in checks].count("reference") == 1  # only the per-instance statement


def test_p003_prop4_6_size_checks() -> None:
    checks = reference.clinical.prop46_checks({"simple": 0.04, "composite": 0.05}, 0.05)
    assert [c.name for c in checks] == ["simple-size", "composite-size"] and all(passed(checks))
    assert passed(reference.clinical.prop46_checks({"simple": 0.331, "composite": 0.459}, 0.05)) == [
        False,
        False,
    ]


def test_p003_prop4_6_is_a_catalogue_item_whose_headline_is_the_simple_tests_size() -> None:
    from dpnet.reference.catalogue import ITEMS

    item = ITEMS["p003-prop4-6"]
    assert item.chapter == "hypothesis-testing" and item.check == "simple-size"
    assert item.caption == "Paper 003, Proposition 4.6" and "Type I error at most α" in item.headline


def test_p003_prop4_6_sensitivity_on_the_five_centres(actg: pd.DataFrame) -> None:
    """Every kind of neighbour but a change of treatment moves a centre's log-likelihood by about four times
    Δ = 2 log 2 (removal: ε ≈ 4 bought at ε = 1); a change of treatment stays within Δ on these data
    (ε ≈ 0.25), but moves a worst-case data set of 227 patients by log 114 = 4.736 = 3.4Δ, ε = 1.71."""
    P = resolve("hypothesis-testing", {})
    sens = p003_prop4_6.sensitivity(P, cohorts(P))
    assert sens.patients.tolist() == [198, 227, 225, 225, 218]
    np.testing.assert_allclose(sens.largest["remove"][1], [5.425, 5.778], atol=1e-3)
    np.testing.assert_allclose(sens.largest["treatment"][:, 0], 0.0, atol=1e-12)
    np.testing.assert_allclose(sens.largest["event"][:, 1], [5.666, 5.778, 5.844, 5.781, 5.793], atol=1e-3)
    assert sens.bought("remove") == pytest.approx(4.04, abs=0.01)
    assert sens.bought("treatment") == pytest.approx(0.249, abs=0.001)
    assert sens.worst_patients == 227 and abs(sens.worst[1]) == pytest.approx(math.log(114.0))
    assert sens.bought("worst") == pytest.approx(math.log(114.0) / (4 * math.log(2)))
    verdicts = {c.name: c.passed for c in sens.checks["p003-prop4-6"]}
    assert verdicts == {**dict.fromkeys(NAMES, False), "treatment-within-delta-these-data": True}
    eps_dp = next(c for c in sens.checks["p003-prop4-6"] if c.name == "eps-dp")
    assert "1.708" in eps_dp.detail
    table = sens.table
    assert len(table) == 7 and set(table.neighbour) == {*p003_prop4_6.CHANGES.values(), p003_prop4_6.WORST}
    # the ε bought scales with the budget, and ε-DP fails at every budget
    doubled = p003_prop4_6.sensitivity(resolve("hypothesis-testing", {"eps": 2.0}), cohorts(P))
    assert doubled.bought("remove") == pytest.approx(2 * sens.bought("remove"))
    assert next(c for c in doubled.checks["p003-prop4-6"] if c.name == "eps-dp").passed is False


def test_p003_prop4_6_cost_is_three_tenths_of_a_second_per_centre() -> None:
    values = dict(resolve("hypothesis-testing", {}))
    need = p003_prop4_6.cost(values)
    assert need.seconds == pytest.approx(1.5) and need.peak == 0 and need.kept == 0
    assert p003_prop4_6.cost({**values, "n_centers": 50}).seconds == pytest.approx(15.0)
