"""Paper 004, E7 (:mod:`dpnet.chapters.functional_perturbation.p004_e7`): record-level sensitivity, and
its check (:func:`dpnet.reference.funcpert.record_checks`): it passes on the book's prediction (a change
167/166 − 1 from degree 14 to 18), flips alone at its tolerance, and nan fails it."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import with_input as _set

from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e7

NAN = math.nan

RECORD = {"relative_change": 167 / 166 - 1}

# (function, base, their names in order)
BASES = [pytest.param(ref.funcpert.record_checks, RECORD, ["sensitivity-converged"], id="record")]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # < 1 % (strict)
    _case(ref.funcpert.record_checks, RECORD, "relative_change", 0.0099, 0.01, 0, "measured 0.01"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [pytest.param(ref.funcpert.record_checks, _set(RECORD, "relative_change", NAN), [0], id="record")]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_the_record_detail_carries_the_number():
    assert ref.funcpert.record_checks(**RECORD)[0].detail == "measured 0.00602"


def test_the_record_level_result_records_both_tables() -> None:
    """The sensitivities (``fp-record-sensitivity``, the table the chapter shows) and the record-level
    comparison; the ratios of the two comparisons as metrics."""
    table = pd.DataFrame({"record-level ε": [10.0, 100.0], "functional perturbation": [0.2, 0.02],
                          "message perturbation (best)": [0.4, 0.03]})  # fmt: skip
    sens = {"vq": 160.0, "l2": 14.7, "gradient": 1.8}
    e7 = p004_e7.RecordLevel(
        10, {10: sens}, {"vq": 70.0, "l2": 14.7, "gradient": 1.8}, table, {10.0: 3.0}, {}
    )
    assert list(e7.tables()) == ["fp-record-sensitivity", "fp-record-level"]
    assert e7.tables()["fp-record-sensitivity"].equals(e7.sensitivity_table)
    assert e7.sensitivity_table.iloc[0].tolist() == [10, 160.0, 14.7, 1.8]
    assert e7.metrics()["nominal_ratio"] == {"10": 3.0} and e7.record_ratio.tolist() == [2.0, 1.5]
    assert (e7.deviations, e7.paper_setting) == ((), True)


def test_its_cost_is_its_2d_runs_and_tuned_messages() -> None:
    """``runs_2d`` runs at each of the 4 budgets and ``0.5·message_runs`` seconds, holding the larger of a
    2-D run's basis and the schedules run side by side."""
    cost = p004_e7.cost({"n_agents": 10, "degree_2d": 10, "runs_2d": 5, "message_runs": 5})
    assert cost.seconds == pytest.approx(4 * 5 * 1e-7 * 10 * 66**3 + 0.5 * 5, rel=1e-12)
    assert (cost.peak, cost.kept) == (2**24 + 6200 * 10 * 5, 0.0)
    assert (
        p004_e7.cost({"n_agents": 2, "degree_2d": 18, "runs_2d": 2, "message_runs": 5}).peak
        == 2200.0 * 190**2
    )
