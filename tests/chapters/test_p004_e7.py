"""Paper 004, E7 (:mod:`dpnet.chapters.functional_perturbation.p004_e7`): record-level sensitivity, and
its checks (:func:`dpnet.reference.funcpert.record_loss_checks`): the slides' guarantee at the record-level
calibration passes on an audited bound below the record-level ε and flips alone above it; the book's reading
passes on an audited loss of one record far above the nominal ε and flips alone at it; nan fails each.
The sensitivity at the fixed degrees 14 and 18, which no parameter changes, is a unit test here, not a
check."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import with_input as _set

from dpnet import funcpert as fp
from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e7

NAN = math.nan

RECORD = {"audited": 7.29, "eps": 1.0, "record_audited": 0.13, "record_eps": 1.0}

# (function, base, their names in order)
BASES = [
    pytest.param(ref.funcpert.record_loss_checks, RECORD, ["record-dp-audit", "exceeds-nominal"], id="record")
]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # above the nominal ε (strict)
    _case(ref.funcpert.record_loss_checks, RECORD, "audited", 1.001, 1.0, 1, "lower bound 1.000"),
    # at most the record-level ε (inclusive)
    _case(ref.funcpert.record_loss_checks, RECORD, "record_audited", 1.0, 1.001, 0, "lower bound 1.001"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [
    pytest.param(ref.funcpert.record_loss_checks, _set(RECORD, "audited", NAN), [1], id="record"),
    pytest.param(
        ref.funcpert.record_loss_checks, _set(RECORD, "record_audited", NAN), [0], id="record-level"
    ),
]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


def test_the_record_detail_carries_the_number():
    checks = ref.funcpert.record_loss_checks(**RECORD)
    assert [c.detail for c in checks] == ["lower bound 0.130", "lower bound 7.290"]
    # the slides' guarantee is a claim of the paper; the book's reading of it is the book's
    assert [c.against for c in checks] == ["paper", "reference"]
    # an event that never occurs under one input gives −inf: no evidence against the guarantee
    assert ref.funcpert.record_loss_checks(**_set(RECORD, "record_audited", -math.inf))[0].passed is True


def test_the_record_sensitivity_has_converged_in_the_degree() -> None:
    """At the chapter's lattice the V_q sensitivity (q = 2) changes by less than 1 % from degree 14 to 18,
    and is within 1 % at the chapter's degree 10: the record-level budget does not hinge on the degree. The
    exact loss of the released coefficients is at most the V_q bound (Cauchy–Schwarz)."""
    sens = {M: fp.record_sensitivities(fp.Basis2D(3.0, M), 2.0) for M in (10, *p004_e7.RECORD_DEGREES)}
    assert abs(sens[18]["vq"] / sens[14]["vq"] - 1) < ref.funcpert.RECORD_STABILITY
    assert abs(sens[10]["vq"] / sens[18]["vq"] - 1) < ref.funcpert.RECORD_STABILITY
    for s in sens.values():
        assert s["loss"] <= s["vq"] * (1 + 1e-12)


def test_the_audited_record_is_the_pair_with_the_largest_exact_loss() -> None:
    basis = fp.Basis2D(3.0, 4)
    delta = fp.worst_record_difference(basis, 2.0, grid=3)
    scales = fp.laplace_scales(basis.K, fp.gamma(1.0, 2.0, 1.0), 1.0)
    assert fp.privacy_loss(delta, scales) == pytest.approx(
        fp.record_sensitivities(basis, 2.0, grid=3)["loss"]
    )


def test_a_function_level_budget_that_covers_the_record_fails_the_check() -> None:
    """The check can fail: a mechanism calibrated per record (function-level ε = 1/loss, so the record's
    loss is 1) gives an audited bound below the nominal 1."""
    basis = fp.Basis2D(3.0, 6)
    delta = fp.worst_record_difference(basis, 2.0, grid=3)
    loss = fp.record_sensitivities(basis, 2.0, grid=3)["loss"]
    scales = fp.laplace_scales(basis.K, fp.gamma(1.0 / loss, 2.0, 1.0), 1.0)
    audit = fp.likelihood_ratio_audit(delta, scales, 20_000, np.random.default_rng(4))
    checks = ref.funcpert.record_loss_checks(audit.log_ratio(ref.funcpert.AUDIT_ALPHA), 1.0, 0.1, 1.0)
    assert checks[1].passed is False


def test_a_record_level_calibration_too_weak_for_the_record_fails_the_guarantee() -> None:
    """The headline can fail: calibrated to a function-level ε ten times too large for the record (its
    exact loss 10 at a claimed record-level 1), the audit of the worst pair exceeds the record-level 1."""
    basis = fp.Basis2D(3.0, 6)
    delta = fp.worst_record_difference(basis, 2.0, grid=3)
    loss = fp.record_sensitivities(basis, 2.0, grid=3)["loss"]
    scales = fp.laplace_scales(basis.K, fp.gamma(10.0 / loss, 2.0, 1.0), 1.0)
    audited = fp.likelihood_ratio_audit(delta, scales, 20_000, np.random.default_rng(4)).log_ratio(1e-3)
    assert ref.funcpert.record_loss_checks(7.3, 1.0, audited, 1.0)[0].passed is False


def test_the_record_level_result_records_both_tables() -> None:
    """The sensitivities (``fp-record-sensitivity``, the table the chapter shows) and the record-level
    comparison; the ratios of the two comparisons as metrics."""
    table = pd.DataFrame({"record-level ε": [10.0, 100.0], "functional perturbation": [0.2, 0.02],
                          "message perturbation (best)": [0.4, 0.03]})  # fmt: skip
    sens = {"vq": 160.0, "loss": 65.0, "l2": 14.7, "gradient": 1.8}
    e7 = p004_e7.RecordLevel(10, {10: sens}, {"vq": 70.0, "l2": 14.7, "gradient": 1.8}, table, {10.0: 3.0},
                             7.3, 7.3, 0.1, {})  # fmt: skip
    assert list(e7.tables()) == ["fp-record-sensitivity", "fp-record-level"]
    assert e7.tables()["fp-record-sensitivity"].equals(e7.sensitivity_table)
    assert e7.sensitivity_table.iloc[0].tolist() == [10, 160.0, 65.0, 14.7, 1.8]
    assert e7.metrics()["nominal_ratio"] == {"10": 3.0} and e7.record_ratio.tolist() == [2.0, 1.5]
    assert e7.metrics()["record_audit"] == 7.3 and e7.metrics()["record_level_audit"] == 0.1
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
