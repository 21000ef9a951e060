"""The book's table ti-arm-sensitivity (Chapter 4): how far one patient moves an entry of the four-arm
table, against §12's Δ = 2B_θ, and its checks."""

from __future__ import annotations

import pandas as pd
import pytest

from dpnet import reference
from dpnet.chapters import resolve
from dpnet.chapters.treatment_identification import ti_arm_sensitivity


def test_arm_entry_checks_fail_on_a_worst_case_and_are_undecided_without_neighbours() -> None:
    checks = reference.identification.arm_entry_checks
    within = checks({"remove": 0.5, "treatment": 0.84}, 2.0, worst=1.5, worst_patients=229)
    assert [(c.name, c.passed) for c in within] == [
        ("entries-within-delta", None),  # no counterexample proves no bound
        ("entries-within-delta-these-data", True),
    ]
    beyond = checks({"remove": 0.5}, 2.0, worst=3.3, worst_patients=229)
    assert [c.passed for c in beyond] == [False, True]
    here = checks({"remove": 2.5}, 2.0, worst=1.0, worst_patients=229)
    assert [c.passed for c in here] == [False, False]
    empty = checks({}, 2.0, worst=1.0, worst_patients=229)
    assert empty[1].passed is None and "undecided" in empty[1].detail


@pytest.fixture(scope="module")
def actg() -> pd.DataFrame:
    from dpnet import survival as sv

    return sv.load_actg175()


def test_arm_sensitivity_on_the_paper_setting(actg: pd.DataFrame) -> None:
    """At the defaults every measured change stays below Δ = 2, while the constructed centre of the
    largest comparison's size exceeds it: §12's bound fails on some data set."""
    P = resolve("treatment-identification", {})
    sens = ti_arm_sensitivity.arm_sensitivity(P, actg)
    assert sens.delta == 2.0 and max(sens.largest.values()) < sens.delta < sens.worst
    passed = {c.name: c.passed for c in sens.checks["p003-fig5"]}
    assert passed == {"entries-within-delta": False, "entries-within-delta-these-data": True}
    assert set(sens.pivot().columns) == {"remove", "add", "event", "treatment"}
