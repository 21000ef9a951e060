"""Paper 001, Table 1 (chapter distributed-estimation): the exact-moment study, its result and cost, and
the checks of ``dpnet.reference.estimation.moment_checks`` and ``bound_checks``."""

from __future__ import annotations

import pytest
from check_cases import all_pass as _all
from check_cases import named as _named
from check_cases import verdicts as _verdicts

from dpnet import reference as ref
from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_estimation import p001_table1


def test_moment_checks_fail_beyond_five_percent():
    rows = [{"name": "alg3-cop", "algorithm": "Alg 3", "quantity": "CoP²", "exact": 1.0, "monte_carlo": 1.04}]
    assert _all(_named(ref.estimation.moment_checks(rows)))
    assert not _all(ref.estimation.moment_checks([{**rows[0], "monte_carlo": 1.06}]))
    assert not _all(ref.estimation.moment_checks([{**rows[0], "monte_carlo": 0.94}]))


def test_bound_checks_are_one_check_over_every_theorem():
    """One check, ``bounds``: it fails when any theorem's bound is exceeded, and is undecided without a
    case (an empty set of theorems is no evidence)."""
    rows = [
        {"case": "Algorithm 3 (MVUE)", "error": 1.0, "bound": 2.0},
        {"case": "Algorithm 4 (OL, Signal DP)", "error": 1.0, "bound": 40.0},
    ]
    (check,) = ref.estimation.bound_checks(rows)
    assert check.name == "bounds" and check.passed and "bound/error = 2" in check.detail
    assert not _all(ref.estimation.bound_checks([rows[0], {**rows[1], "error": 41.0}]))
    assert _verdicts(ref.estimation.bound_checks([])) == {"bounds": None}


def test_p001_table1_checks_are_named_for_their_algorithm_and_quantity() -> None:
    """Each moment check takes its name from the row it checks (algorithm and quantity), whatever the order
    of the rows; on the reference case every moment is within 5 % and every bound holds, by a factor of
    more than 10 (the bounds' structural slack)."""
    study = chapter.moment_study(resolve("distributed-estimation", {"n_mc": 400}))
    checks = study.checks["p001-table1"]
    assert [c.name for c in checks] == [
        "alg3-cop", "alg3-cod", "alg4-cop", "alg4-cod", "alg5-cop", "alg5-cod", "bounds",
    ]  # fmt: skip
    assert [c.claim.split(":")[0] for c in checks[:2]] == ["Algorithm 3 (MVUE)"] * 2
    assert "E‖ν−μ‖²" in checks[0].claim and "E‖μ−𝟙m‖²" in checks[1].claim
    assert _all(checks) and study.worst < 0.05 and study.slack > 10
    assert study.runs == 400 and study.case == ref.estimation.MOMENT_CASE
    assert list(study.tables()) == ["moments", "bounds"] and study.metrics() == {}
    assert study.deviations == (("p001-table1", "corrected equation (8)", "note-est-eq8"),)
    with pytest.raises(ValueError, match="not an algorithm's row"):
        p001_table1._algorithm("Theorem 4.1")


def test_p001_table1_cost_counts_the_runs() -> None:
    cost = p001_table1.cost({"n_mc": 1000})
    assert cost.seconds == pytest.approx(5.0) and cost.peak == 5 * 8.0 * 200 * 10 * 1000 and cost.kept == 0.0
