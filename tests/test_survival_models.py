"""Tests of dpnet.survival's models: score and information, penalised Cox fits, the sensitivity,
per-centre tables and fits, the one-covariate cohorts, the lifelines wrappers and the private tests.

Oracles are exact formulas, finite differences of the (brute-force-checked) partial likelihood,
independent re-computations (log-rank, Kaplan–Meier, noise moments), paper 003's published numbers and
the reference numbers of :mod:`dpnet.reference.clinical`.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from scipy.optimize import minimize_scalar

from dpnet import inference as inf
from dpnet import networks
from dpnet.errors import ParameterError
from dpnet.survival import (
    ACTG175_ARMS,
    TMB_COVARIATES,
    TMB_GROUPS,
    arm_cohort,
    centre_fits,
    centre_information,
    centre_loglik,
    code_schedule,
    cohort_centres,
    composite_table,
    composite_test,
    cox_lifelines,
    cox_partial_loglik,
    cox_score_information,
    cox_sensitivity,
    fit_cox,
    kaplan_meier,
    loglik_gap,
    logrank_pvalue,
    mle_study,
    observed_statistic,
    prop46_schedule,
    simple_alternative,
    simple_test,
    split_centres,
    tmb_cohort,
    tmb_groups,
)
from dpnet.survival.binary import binary_cox, centre_cox
from dpnet.survival.cox import (
    NEIGHBOURS,
    legacy_order,
    neighbour_changes,
    neighbour_records,
    neighbour_times,
    treatment_worst_case,
    treatment_worst_change,
)
from dpnet.survival.data import TMB_TIE_RULES, tied_at_cutoff, top_fraction
from dpnet.survival.private_tests import (
    ChiBarSquared,
    laplace_sum_pdf,
    make_private_test,
    median_interval,
    risk_set_law,
    sum_sf,
)
from dpnet.survival.studies import gm_limit_probability, promise_rates, two_threshold_rates

LOG2 = math.log(2.0)

# ----------------------------------------------------------------------------------------------------------
# Fixtures (the datasets themselves come from conftest.py)


@pytest.fixture(scope="module")
def ddi(actg: pd.DataFrame) -> pd.DataFrame:
    """ddI (x = 1) vs ZDV (x = 0), the original CSV index kept."""
    return arm_cohort(actg, "ddI")


def _arrays(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        frame["x"].to_numpy(dtype=float),
        frame["time"].to_numpy(dtype=float),
        frame["event"].to_numpy(dtype=float),
    )


def _random_cohort(seed: int, n: int = 40) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A small cohort with many tied times; binary x for even seeds, Gaussian x for odd ones."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n) if seed % 2 else rng.integers(0, 2, size=n).astype(float)
    t = rng.integers(1, 8, size=n).astype(float)
    d = rng.integers(0, 2, size=n).astype(float)
    d[:3] = 1.0  # at least a few events
    return x, t, d


# ----------------------------------------------------------------------------------------------------------
# cox_score_information: derivatives of cox_partial_loglik


@pytest.mark.parametrize("seed", range(4))
def test_score_and_information_are_derivatives_of_the_loglik(seed: int) -> None:
    x, t, d = _random_cohort(seed)
    h1, h2 = 1e-5, 2e-4
    for theta in (-1.5, -0.3, 0.0, 0.7, 2.0):
        score, info = cox_score_information(x, t, d, theta)
        lm1, l0, lp1 = cox_partial_loglik(x, t, d, np.array([theta - h1, theta, theta + h1]))
        lm2, _, lp2 = cox_partial_loglik(x, t, d, np.array([theta - h2, theta, theta + h2]))
        # Central differences: truncation O(h²), rounding ~ 1e-16·|Λ|/h (resp. /h²) — both < 1e-6 here,
        # while a wrong risk set or tie rule moves U and I by O(0.1).
        assert score == pytest.approx((lp1 - lm1) / (2 * h1), abs=1e-6)
        assert info == pytest.approx(-(lp2 - 2 * l0 + lm2) / h2**2, abs=1e-5)
        assert info > 0.0


def test_score_at_zero_is_the_logrank_observed_minus_expected(ddi: pd.DataFrame) -> None:
    # With Breslow risk sets, U(0) = Σ_event-times (d1 − d·n1/n): the log-rank numerator.
    x, t, d = _arrays(ddi)
    o_minus_e = 0.0
    for tj in np.unique(t[d == 1]):
        at_risk = t >= tj
        dead = (t == tj) & (d == 1)
        o_minus_e += x[dead].sum() - dead.sum() * x[at_risk].sum() / at_risk.sum()
    score, _ = cox_score_information(x, t, d, 0.0)
    assert score == pytest.approx(o_minus_e, rel=1e-12)


def test_score_information_without_events_are_exactly_zero() -> None:
    x = np.array([0.0, 1.0, 1.0, 0.0, 3.5])
    t = np.array([1.0, 2.0, 2.0, 5.0, 7.0])
    d = np.zeros(5)
    for theta in (-2.0, 0.0, 0.4):
        assert cox_score_information(x, t, d, theta) == (0.0, 0.0)
    assert cox_score_information([], [], [], 1.0) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([0.0, 1.0], [1.0], [1, 0], 0.0), "same length"),
        (([0.0, 1.0], [1.0, 2.0], [1, 2], 0.0), "event must hold only 0"),
        (([0.0, 1.0], [1.0, 2.0], [1, 0], float("nan")), "theta"),
        (([0.0, 1.0], [1.0, 2.0], [1, 0], "0.5"), "theta"),
    ],
)
def test_score_information_rejects_bad_input(args: tuple, match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        cox_score_information(*args)


# ----------------------------------------------------------------------------------------------------------
# fit_cox


@pytest.mark.parametrize("seed", range(4))
def test_unpenalised_fit_is_the_maximiser(seed: int) -> None:
    x, t, d = _random_cohort(seed, n=60)
    fit = fit_cox(x, t, d)
    score, info = cox_score_information(x, t, d, fit.theta)
    assert abs(score) < 1e-7
    best = minimize_scalar(
        lambda th: -cox_partial_loglik(x, t, d, th),
        bounds=(-10, 10),
        method="bounded",
        options={"xatol": 1e-9},
    ).x
    assert fit.theta == pytest.approx(best, abs=1e-6)
    assert fit.loglik == pytest.approx(cox_partial_loglik(x, t, d, fit.theta), rel=1e-13)
    assert fit.loglik_null == pytest.approx(cox_partial_loglik(x, t, d, 0.0), rel=1e-13)
    assert fit.penalty == 0.0
    assert fit.lrt == pytest.approx(2 * (fit.loglik - fit.loglik_null), rel=1e-12)
    assert fit.se == pytest.approx(1 / math.sqrt(info), rel=1e-12)


@pytest.mark.parametrize("penalizer", [0.05, 0.1, 1.0])
def test_penalised_fit_solves_the_penalised_score_equation(penalizer: float) -> None:
    x, t, d = _random_cohort(3, n=60)
    c = len(x) * penalizer * np.var(x, ddof=1) / 2  # lifelines' ridge in θ units
    fit = fit_cox(x, t, d, penalizer=penalizer)
    score, info = cox_score_information(x, t, d, fit.theta)
    assert score - 2 * c * fit.theta == pytest.approx(0.0, abs=1e-7)
    assert fit.penalty == pytest.approx(c * fit.theta**2, rel=1e-12)
    assert fit.se == pytest.approx(1 / math.sqrt(info + 2 * c), rel=1e-12)
    assert fit.lrt == pytest.approx(2 * (fit.loglik - fit.penalty - fit.loglik_null), rel=1e-10)
    assert fit.lrt >= 0.0
    assert abs(fit.theta) < abs(fit_cox(x, t, d).theta)  # shrinkage


def test_actg_fit_matches_the_reference_and_lifelines(ddi: pd.DataFrame) -> None:
    x, t, d = _arrays(ddi)
    fit = fit_cox(x, t, d)
    assert fit.theta == pytest.approx(-0.528, abs=5e-3)  # ddI vs ZDV: a reference fit
    assert cox_score_information(x, t, d, fit.theta)[0] == pytest.approx(0.0, abs=1e-7)
    # lifelines breaks ties by Efron, fit_cox by Breslow: on ACTG 125 of the 309 events share one of 51
    # tied days, which moves the LRT by ~0.01 (on tie-free data the two agree to 1e-8, see below).
    # |Δ LRT| < 0.05 (0.25 % of the statistic) allows that gap and nothing more.
    ref = cox_lifelines(t, d, x)
    assert ref.lrt == pytest.approx(21.29, abs=5e-3)
    assert fit.lrt == pytest.approx(ref.lrt, abs=0.05)
    assert fit.theta == pytest.approx(ref.coef, abs=1e-3)
    assert fit.se == pytest.approx(ref.se, rel=1e-3)

    pen = fit_cox(x, t, d, penalizer=0.1)
    ref_pen = cox_lifelines(t, d, x, penalizer=0.1)
    assert ref_pen.lrt == pytest.approx(15.69, abs=5e-3)  # the reference fit with the notebook's penalty
    assert pen.lrt == pytest.approx(ref_pen.lrt, abs=0.05)
    assert pen.theta == pytest.approx(ref_pen.coef, abs=1e-3)
    assert pen.lrt >= 0.0
    assert pen.lrt < fit.lrt


@pytest.mark.parametrize("penalizer", [0.0, 0.1, 1.0])
def test_fit_equals_lifelines_without_ties(ddi: pd.DataFrame, penalizer: float) -> None:
    # Without tied times Breslow = Efron, so fit_cox must reproduce lifelines to its convergence
    # tolerance. This pins the penalty c = N·penalizer·var(x, ddof=1)/2: ddof = 0 would move θ̂ by ~1e-4
    # at penalizer = 0.1, omitting var(x) ≈ 0.25 by ~0.1.
    x, t, d = _arrays(ddi)
    t = t + np.random.default_rng(0).uniform(0.0, 0.5, size=len(t))
    assert len(np.unique(t)) == len(t)
    fit = fit_cox(x, t, d, penalizer=penalizer)
    ref = cox_lifelines(t, d, x, penalizer=penalizer)
    assert fit.theta == pytest.approx(ref.coef, abs=1e-6)
    assert fit.lrt == pytest.approx(ref.lrt, abs=1e-6)
    assert fit.se == pytest.approx(ref.se, rel=1e-6)


def _separated() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The five x = 1 patients have the five earliest events, every x = 0 patient is censored later:
    Λ(θ) increases for ever and θ̂ = +∞."""
    return np.array([1.0] * 5 + [0.0] * 5), np.arange(1.0, 11.0), np.array([1.0] * 5 + [0.0] * 5)


@pytest.mark.parametrize(
    ("variant", "ties"), [("paper", "row"), ("as_published", "row"), ("as_published", "x_asc")]
)
def test_loglik_gap_is_the_two_state_difference(ddi: pd.DataFrame, variant: str, ties: str) -> None:
    x, t, d = _arrays(ddi)
    values = cox_partial_loglik(x, t, d, np.array([-LOG2, 0.0]), variant=variant, ties=ties)
    gap = loglik_gap(x, t, d, -LOG2, variant=variant, ties=ties)
    assert gap == pytest.approx(values[0] - values[1], abs=1e-9)
    if variant == "paper":
        assert loglik_gap(x, t, d, -LOG2) == pytest.approx(9.631, abs=1e-3)  # clinical.LAMBDA_GAP["paper"]


def test_fit_separating_covariate_raises() -> None:
    x, t, d = _separated()
    # The docstring promises an error for "a covariate that separates events"; its message should say
    # so (and suggest penalizer > 0), not that the covariate does not vary.
    with pytest.raises(ParameterError, match="separat"):
        fit_cox(x, t, d)


def test_fit_penalised_separation_and_bad_input() -> None:
    x, t, d = _separated()
    fit = fit_cox(x, t, d, penalizer=0.1)  # the ridge makes θ̂ finite
    assert 0.0 < fit.theta < 50.0
    c = len(x) * 0.1 * np.var(x, ddof=1) / 2
    assert cox_score_information(x, t, d, fit.theta)[0] == pytest.approx(2 * c * fit.theta, abs=1e-7)
    with pytest.raises(ParameterError, match="penalizer"):
        fit_cox(x, t, d, penalizer=-0.1)
    with pytest.raises(ParameterError, match="flat"):
        fit_cox(np.ones(10), t, d)


# ----------------------------------------------------------------------------------------------------------
# cox_sensitivity (§12)


def test_cox_sensitivity() -> None:
    assert cox_sensitivity(LOG2) == pytest.approx(1.386, abs=5e-4)  # 2 log 2: the ACTG simple test
    assert cox_sensitivity(LOG2, 1.0) == 2 * LOG2
    assert cox_sensitivity(0.5, 3.0) == 3.0
    for bad in ((0.0, 1.0), (-1.0, 1.0), (1.0, 0.0), (float("inf"), 1.0), (float("nan"), 1.0), ("1", 1.0)):
        with pytest.raises(ParameterError):
            cox_sensitivity(*bad)


# ----------------------------------------------------------------------------------------------------------
# centre_loglik, centre_fits


@pytest.mark.parametrize("variant", ["paper", "as_published"])
def test_centre_loglik_rows_are_local_likelihoods(variant: str) -> None:
    x, t, d = _random_cohort(1, n=50)
    labels = split_centres(50, 4, method="random", rng=5)
    thetas = np.array([-1.0, 0.0, 0.6])
    table = centre_loglik(x, t, d, labels, thetas, variant=variant)
    assert table.shape == (4, 3)
    for i in range(4):
        m = labels == i
        np.testing.assert_array_equal(table[i], cox_partial_loglik(x[m], t[m], d[m], thetas, variant=variant))


def test_centre_loglik_rejects_bad_labels_and_shapes() -> None:
    x, t, d = _random_cohort(0, n=6)
    with pytest.raises(ParameterError, match=r"\[1\]"):  # the empty centre is named
        centre_loglik(x, t, d, np.array([0, 2, 0, 2, 0, 2]), [0.0])
    with pytest.raises(ParameterError, match=r"\[1, 3\]"):
        centre_loglik(x, t, d, np.array([0, 2, 4, 2, 0, 4]), [0.0])
    with pytest.raises(ParameterError, match="centres"):
        centre_loglik(x, t, d, np.array([0, 1, 0, 1, 0]), [0.0])  # one label short
    with pytest.raises(ParameterError, match="centres"):
        centre_loglik(x, t, d, np.array([0.0, 1, 0, 1, 0, 1]), [0.0])  # not integers
    with pytest.raises(ParameterError, match="centres"):
        centre_loglik(x, t, d, np.array([0, -1, 0, 1, 0, 1]), [0.0])
    with pytest.raises(ParameterError, match="theta"):
        centre_loglik(x, t, d, np.array([0, 1, 0, 1, 0, 1]), [[0.0, 1.0]])
    with pytest.raises(ParameterError, match="centres"):
        centre_fits(x, t, d, np.array([0, 2, 0, 2, 0, 2]), penalizer=0.1)


@pytest.mark.parametrize("func", ["centre_loglik", "centre_fits"])
def test_centre_functions_reject_cohort_arrays_of_different_lengths(func: str) -> None:
    x, t, d = _random_cohort(0, n=6)
    labels = np.array([0, 1, 0, 1, 0, 1])
    with pytest.raises(ParameterError, match="same length"):
        if func == "centre_loglik":
            centre_loglik(x, t[:5], d, labels, [0.0])
        else:
            centre_fits(x, t[:5], d, labels, penalizer=0.1)


def test_centre_fits_on_actg(ddi: pd.DataFrame) -> None:
    x, t, d = _arrays(ddi)
    labels = ddi.index.to_numpy() % 5
    fits = centre_fits(x, t, d, labels, penalizer=0.1)
    assert len(fits) == 5
    for i, fit in enumerate(fits):
        m = labels == i
        assert fit == fit_cox(x[m], t[m], d[m], penalizer=0.1)
    # §5: "the no-DP value of the same statistic is 4.08", the notebook's Σ LRT / 4
    # (note-ht-test-normalisation).
    assert sum(f.lrt for f in fits) / 4 == pytest.approx(4.08, abs=0.02)


# ----------------------------------------------------------------------------------------------------------
# Cohorts


def test_arm_cohort(actg: pd.DataFrame) -> None:
    cohort = arm_cohort(actg, "ddI")
    assert list(cohort.columns) == ["time", "event", "x", "arm_name"]
    assert len(cohort) == 1093 and int(cohort["x"].sum()) == 561  # ZDV + ddI patients; ddI patients
    assert int(cohort["event"].sum()) == 181 + 128
    np.testing.assert_array_equal(cohort.index, actg.index[actg["arm"].isin([0, 3])])
    np.testing.assert_array_equal(cohort["x"], (actg.loc[cohort.index, "arm"] == 3).astype(int))
    np.testing.assert_array_equal(cohort["time"], actg.loc[cohort.index, "time"])
    other = arm_cohort(actg, "ddI", control="ZDV+ddI")
    assert len(other) == 561 + 522 and int(other["x"].sum()) == 561


@pytest.mark.parametrize(("treatment", "control"), [("ddl", "ZDV"), ("ddI", "zdv")])
def test_arm_cohort_unknown_arm_lists_the_arms(actg: pd.DataFrame, treatment: str, control: str) -> None:
    with pytest.raises(ParameterError) as info:
        arm_cohort(actg, treatment, control)
    for name in ACTG175_ARMS:
        assert name in str(info.value)


def test_arm_cohort_same_arm_raises(actg: pd.DataFrame) -> None:
    with pytest.raises(ParameterError, match="different"):
        arm_cohort(actg, "ZDV", "ZDV")


def test_pairwise_arms_against_zdv(actg: pd.DataFrame) -> None:
    coefs = {}
    for arm in ("ZDV+ddI", "ZDV+Zal", "ddI"):
        cohort = arm_cohort(actg, arm)
        coefs[arm] = cox_lifelines(cohort["time"], cohort["event"], cohort["x"]).coef
    want = {"ZDV+ddI": -0.704, "ZDV+Zal": -0.640, "ddI": -0.528}  # an independent Cox fit of the data set
    for arm, value in want.items():
        assert coefs[arm] == pytest.approx(value, abs=5e-3)
    assert min(coefs, key=coefs.get) == "ZDV+ddI"


def test_tmb_cohort_and_groups(samstein: pd.DataFrame) -> None:
    raw = tmb_cohort(samstein)
    assert list(raw.columns) == ["time", "event", "x"]
    np.testing.assert_array_equal(raw.index, samstein.index)
    np.testing.assert_array_equal(raw["x"], samstein["tmb"])
    top10, top20 = tmb_cohort(samstein, "top10"), tmb_cohort(samstein, "top20")
    assert int(top10["x"].sum()) == 166 and int(top20["x"].sum()) == 332
    assert np.all(top20["x"] >= top10["x"])
    for cohort in (top10, top20):
        inside, outside = samstein["tmb"][cohort["x"] == 1], samstein["tmb"][cohort["x"] == 0]
        assert inside.min() >= outside.max()
    groups = tmb_groups(samstein)
    np.testing.assert_array_equal(groups.index, samstein.index)
    assert list(groups.cat.categories) == list(TMB_GROUPS)
    assert groups.value_counts(sort=False).tolist() == [166, 166, 1330]  # ⌊N/10⌋, ⌊N/5⌋ − ⌊N/10⌋, the rest
    np.testing.assert_array_equal(groups == "Top 10%", top10["x"] == 1)
    np.testing.assert_array_equal(groups == "Top 10–20%", (top20["x"] == 1) & (top10["x"] == 0))


def test_top_fraction_tie_rules() -> None:
    # rows 1 and 3 tie at the cut of the top 2 (k = int(0.4 · 5) = 2); row 0 is above it
    tmb = pd.Series([9.0, 5.0, 1.0, 5.0, 2.0])
    np.testing.assert_array_equal(tied_at_cutoff(tmb, 0.4), [1, 3])
    np.testing.assert_array_equal(top_fraction(tmb, 0.4), [1, 0, 0, 1, 0])  # later row first (default)
    np.testing.assert_array_equal(top_fraction(tmb, 0.4, "earlier_row_first"), [1, 1, 0, 0, 0])
    np.testing.assert_array_equal(top_fraction(tmb, 0.4, "at_or_above_cutoff"), [1, 1, 0, 1, 0])
    # a clean cut: every rule agrees, and there are no tied patients
    assert tied_at_cutoff(tmb, 0.2).size == 0
    for rule in TMB_TIE_RULES:
        np.testing.assert_array_equal(top_fraction(tmb, 0.2, rule), [1, 0, 0, 0, 0])
    assert top_fraction(tmb, 0.1).sum() == 0  # int(0.1 · 5) = 0 patients
    with pytest.raises(ParameterError, match="ties must be one of"):
        top_fraction(tmb, 0.4, "stable")
    with pytest.raises(ParameterError, match="fraction"):
        top_fraction(tmb, 1.5)


def test_tmb_tie_rules_on_the_cohort(samstein: pd.DataFrame) -> None:
    # two patients share TMB 26.56 at the top-10 % cut, four share 14.757 at the top-20 % cut
    np.testing.assert_array_equal(tied_at_cutoff(samstein["tmb"], 0.1), [1156, 1331])
    np.testing.assert_array_equal(tied_at_cutoff(samstein["tmb"], 0.2), [100, 117, 128, 326])
    thetas = np.array([math.log(0.15), 0.0])
    gaps = {}
    for rule in TMB_TIE_RULES:
        top10 = tmb_cohort(samstein, "top10", ties=rule)
        values = cox_partial_loglik(top10["x"], top10["time"], top10["event"], thetas)
        gaps[rule] = values[0] - values[1]
        assert top10["x"].iloc[1156] + top10["x"].iloc[1331] == (2 if rule == "at_or_above_cutoff" else 1)
    assert gaps["later_row_first"] == pytest.approx(8.273, abs=5e-4)
    assert gaps["earlier_row_first"] == pytest.approx(8.112, abs=5e-4)
    assert gaps["at_or_above_cutoff"] == pytest.approx(8.796, abs=5e-4)
    # the default is the rule the cohort always used: TMB descending, then the later row
    order = np.lexsort((-np.arange(len(samstein)), -samstein["tmb"].to_numpy()))
    want = np.zeros(len(samstein))
    want[order[:166]] = 1
    np.testing.assert_array_equal(tmb_cohort(samstein, "top10")["x"], want)


def test_tmb_cohort_unknown_covariate_lists_the_valid_ones(samstein: pd.DataFrame) -> None:
    with pytest.raises(ParameterError) as info:
        tmb_cohort(samstein, "top30")
    for name in TMB_COVARIATES:
        assert name in str(info.value)


def test_tmb_top10_log_likelihood_ratio(samstein: pd.DataFrame) -> None:
    top10 = tmb_cohort(samstein, "top10")
    values = cox_partial_loglik(top10["x"], top10["time"], top10["event"], np.array([math.log(0.15), 0.0]))
    assert values[0] - values[1] == pytest.approx(8.27, abs=0.01)  # the reference gap (clinical)


def test_tmb_lifelines_fits(samstein: pd.DataFrame) -> None:
    # Reference fits: top-10 % log HR −0.934 (p = 2.6e−9), top-20 % −0.777, raw TMB −0.01776 per unit.
    fits = {c: tmb_cohort(samstein, c) for c in TMB_COVARIATES}
    ref = {c: cox_lifelines(f["time"], f["event"], f["x"]) for c, f in fits.items()}
    assert ref["top10"].coef == pytest.approx(-0.934, abs=5e-3)
    assert ref["top10"].p == pytest.approx(2.6e-9, rel=0.1)
    assert ref["top20"].coef == pytest.approx(-0.777, abs=5e-3)
    assert ref["raw"].coef == pytest.approx(-0.01776, abs=5e-5)


# ----------------------------------------------------------------------------------------------------------
# lifelines wrappers


def _km_by_hand(t: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    times = np.unique(t[d == 1])
    surv, s = [], 1.0
    for tj in times:
        s *= 1.0 - ((t == tj) & (d == 1)).sum() / (t >= tj).sum()
        surv.append(s)
    return times, np.array(surv)


def test_kaplan_meier_groups_and_product_limit() -> None:
    t = np.array([1, 2, 2, 3, 4, 5, 2, 3, 3, 6, 7, 8], dtype=float)
    d = np.array([1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1])
    plain = ["b", "b", "b", "b", "b", "b", "a", "a", "a", "a", "a", "a"]
    fitters = kaplan_meier(t, d, plain)
    assert list(fitters) == ["b", "a"]  # first appearance
    cat = pd.Categorical(plain, categories=["a", "unused", "b"])
    fitters = kaplan_meier(t, d, cat)
    assert list(fitters) == ["a", "b"]  # category order, empty categories skipped
    for label, sl in (("b", slice(0, 6)), ("a", slice(6, 12))):
        sf = fitters[label].survival_function_.iloc[:, 0]
        assert sf.iloc[0] == 1.0
        times, want = _km_by_hand(t[sl], d[sl])
        np.testing.assert_allclose(sf.loc[times].to_numpy(), want, rtol=1e-12)
    with pytest.raises(ParameterError, match="one label per patient"):
        kaplan_meier(t, d, plain[:-1])
    with pytest.raises(ParameterError, match="same length"):
        kaplan_meier(t, d[:-1], plain)


def test_kaplan_meier_tmb_groups(samstein: pd.DataFrame) -> None:
    groups = tmb_groups(samstein)
    assert list(dict.fromkeys(groups)) != list(TMB_GROUPS)  # first appearance ≠ category order
    fitters = kaplan_meier(samstein["time"], samstein["event"], groups)
    assert list(fitters) == list(TMB_GROUPS)
    for label, size in zip(TMB_GROUPS, (166, 166, 1330), strict=True):
        sf = fitters[label].survival_function_.iloc[:, 0]
        t, d = samstein["time"][groups == label], samstein["event"][groups == label]
        assert sf.index[0] == 0.0
        # Times are whole months: deaths in the first month are at t = 0, so S(0) = 1 − d₀/n, not 1.
        assert sf.iloc[0] == pytest.approx(1.0 - ((t == 0) & (d == 1)).sum() / size, rel=1e-12)
        times, want = _km_by_hand(t.to_numpy(), d.to_numpy())
        np.testing.assert_allclose(sf.loc[times].to_numpy(), want, rtol=1e-12)
        sf = sf.to_numpy()
        assert np.all(np.diff(sf) <= 0)
        assert len(fitters[label].durations) == size


def test_cox_lifelines_on_actg(ddi: pd.DataFrame) -> None:
    x, t, d = _arrays(ddi)
    fit = cox_lifelines(t, d, x)
    assert fit.coef == pytest.approx(-0.528, abs=5e-3)  # ddI vs ZDV: a reference fit
    assert fit.p == pytest.approx(4.9e-6, rel=0.1)
    assert fit.ci_low < fit.coef < fit.ci_high
    z = stats.norm.isf(0.025)
    assert fit.ci_low == pytest.approx(fit.coef - z * fit.se, rel=1e-6)
    assert fit.ci_high == pytest.approx(fit.coef + z * fit.se, rel=1e-6)
    assert fit.p == pytest.approx(2 * stats.norm.sf(abs(fit.coef) / fit.se), rel=1e-6)
    assert fit.lrt_p == pytest.approx(stats.chi2.sf(fit.lrt, 1), rel=1e-9)
    assert (fit.n, fit.events) == (1093, 309)
    pen = cox_lifelines(t, d, x, penalizer=0.1)
    assert pen.lrt_p == pytest.approx(7.45e-5, rel=0.1)
    assert pen.lrt_p < 1e-4  # the paper's "P < 1e−4"


def test_cox_lifelines_one_hospital(ddi: pd.DataFrame) -> None:
    # Figure 3's one hospital: index mod 10 == 1 (110 patients) p = 0.90; index mod 5 == 1, p = 0.17.
    one = ddi[ddi.index % 10 == 1]
    fit = cox_lifelines(one["time"], one["event"], one["x"])
    assert (fit.n, fit.coef) == (110, pytest.approx(-0.042, abs=5e-3))
    assert fit.p == pytest.approx(0.90, rel=0.1)
    five = ddi[ddi.index % 5 == 1]
    assert cox_lifelines(five["time"], five["event"], five["x"]).p == pytest.approx(0.17, rel=0.1)


def test_logrank_pvalue_on_actg(ddi: pd.DataFrame) -> None:
    x, t, d = _arrays(ddi)
    p = logrank_pvalue(t, d, x)
    assert p == pytest.approx(3.7e-6, rel=0.1)  # the authors' notebook
    # Independent log-rank: (O − E)² / V with the hypergeometric variance at each event time.
    o_minus_e = var = 0.0
    for tj in np.unique(t[d == 1]):
        at_risk = t >= tj
        n, n1 = at_risk.sum(), x[at_risk].sum()
        dead = (t == tj) & (d == 1)
        k, k1 = dead.sum(), x[dead].sum()
        o_minus_e += k1 - k * n1 / n
        if n > 1:
            var += k * (n1 / n) * (1 - n1 / n) * (n - k) / (n - 1)
    assert p == pytest.approx(stats.chi2.sf(o_minus_e**2 / var, 1), rel=1e-8)


def test_lifelines_wrappers_reject_bad_input() -> None:
    t, d, x = [1.0, 2.0, 3.0, 4.0], [1, 0, 1, 1], [0.0, 1.0, 0.0, 1.0]
    with pytest.raises(ParameterError, match="same length"):
        cox_lifelines(t, d[:3], x)
    with pytest.raises(ParameterError, match="same length"):
        cox_lifelines(t, d, x[:3])
    with pytest.raises(ParameterError, match="same length"):
        logrank_pvalue(t[:3], d, x)
    with pytest.raises(ParameterError, match="single value"):
        cox_lifelines(t, d, [1.0] * 4)
    with pytest.raises(ParameterError, match="x = 1 and with x = 0"):
        logrank_pvalue(t, d, [0.0] * 4)
    with pytest.raises(ParameterError, match="penalizer"):
        cox_lifelines(t, d, x, penalizer=-1.0)


# ----------------------------------------------------------------------------------------------------------
# Private tests (§4.2)


def test_composite_test_threshold() -> None:
    test = composite_test(alpha=0.05, n_agents=5, K=8, noise_scale=1.0)
    assert test.kind == "composite"
    assert test.threshold == pytest.approx(11.8325, abs=1e-4)  # F⁻¹_{χ²_5}(0.975) − 1
    assert test.critical_value == pytest.approx(stats.chi2.ppf(0.975, 5), rel=1e-12)
    assert test.null.mean() == pytest.approx(5.0)


def test_simple_test_null_law_and_threshold() -> None:
    theta, info, alpha = -LOG2, 76.5, 0.05
    test = simple_test(theta, info, alpha=alpha, n_agents=5, K=8, noise_scale=2.0)
    assert test.kind == "simple"
    assert (test.n_agents, test.K, test.noise_scale, test.alpha) == (5, 8, 2.0, alpha)
    mean, sd = -(theta**2) * info, 2 * abs(theta) * math.sqrt(info)
    assert test.null.mean() == pytest.approx(mean, rel=1e-12)
    assert test.null.std() == pytest.approx(sd, rel=1e-12)
    assert test.critical_value == pytest.approx(mean + sd * stats.norm.isf(alpha / 2), rel=1e-12)
    assert test.null.sf(test.critical_value) == pytest.approx(alpha / 2, rel=1e-10)
    assert test.threshold == pytest.approx(test.critical_value - 1.0, rel=1e-12)
    alt = simple_alternative(theta, info)
    assert (alt.mean(), alt.std()) == (pytest.approx(-mean), pytest.approx(sd))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"theta_alt": 0.0}, "theta_alt"),
        ({"information": 0.0}, "information"),
        ({"alpha": 1.0}, "alpha"),
        ({"alpha": 0.0}, "alpha"),
        ({"n_agents": 0}, "n_agents"),
        ({"K": 0}, "K"),
        ({"noise_scale": 0.0}, "noise_scale"),
    ],
)
def test_simple_test_rejects_bad_input(kwargs: dict, match: str) -> None:
    args = {"theta_alt": -LOG2, "information": 50.0, "alpha": 0.05, "n_agents": 5, "K": 8, "noise_scale": 1.0}
    args |= kwargs
    with pytest.raises(ParameterError, match=match):
        simple_test(args.pop("theta_alt"), args.pop("information"), **args)


def _noise_moments(n: int, K: int, b: float) -> tuple[float, float]:
    """Variance and fourth cumulant of N = 2·mean_k Σ_i (d_ik(1) − d_ik(0)), d ~ Lap(b) iid.

    N = (2/K)·(a sum of 2nK iid Lap(b)); Lap(b) has κ₂ = 2b² and κ₄ = 12b⁴ (excess kurtosis 3), so
    Var N = (2/K)²·2nK·2b² = 16nb²/K and κ₄(N) = (2/K)⁴·2nK·12b⁴ = 384nb⁴/K³.
    """
    return 16 * n * b**2 / K, 384 * n * b**4 / K**3


def test_noise_law() -> None:
    n, K, b, m = 5, 8, 2.0, 100_000
    test = composite_test(alpha=0.05, n_agents=n, K=K, noise_scale=b)
    draws = test.noise(m, np.random.default_rng(11))
    assert draws.shape == (m,)
    var, k4 = _noise_moments(n, K, b)
    assert abs(draws.mean()) < 5 * math.sqrt(var / m)
    se_var = math.sqrt((k4 + 2 * var**2) / m)  # sd of the sample variance
    assert abs(draws.var(ddof=1) - var) < 5 * se_var
    np.testing.assert_array_equal(draws, test.noise(m, np.random.default_rng(11)))
    with pytest.raises(ParameterError, match="size"):
        test.noise(0, np.random.default_rng(0))


def test_rejection_probability() -> None:
    test = composite_test(alpha=0.05, n_agents=5, K=8, noise_scale=1.0)
    zero = np.zeros(50)
    want = stats.chi2.sf(stats.chi2.isf(0.025, 5) - 1.0, 5)
    assert test.rejection_probability(test.null, zero) == pytest.approx(want, rel=1e-12)
    assert test.rejection_probability(test.null, zero, 9.0) == pytest.approx(stats.chi2.sf(9.0, 5), rel=1e-12)
    shifted = test.rejection_probability(test.null, [2.5], 9.0)
    assert shifted == pytest.approx(stats.chi2.sf(6.5, 5), rel=1e-12)
    draws = test.noise(500, np.random.default_rng(8))
    mixed = test.rejection_probability(stats.chi2(5, loc=3.0), draws, 12.0)
    assert mixed == pytest.approx(np.mean(stats.chi2.sf(12.0 - 3.0 - draws, 5)), rel=1e-12)


def test_calibrated_threshold_has_size_alpha() -> None:
    test = composite_test(alpha=0.05, n_agents=5, K=8, noise_scale=1.0)
    draws = test.noise(5000, np.random.default_rng(3))
    thr = test.calibrated_threshold(draws)
    assert np.mean(stats.chi2.sf(thr - draws, 5)) == pytest.approx(0.05, abs=1e-6)
    assert thr > stats.chi2.isf(0.05, 5)  # the noise widens the null law

    simple = simple_test(-LOG2, 60.0, alpha=0.05, n_agents=5, K=8, noise_scale=3.0)
    draws = simple.noise(5000, np.random.default_rng(4))
    thr = simple.calibrated_threshold(draws)
    size = np.mean(stats.norm.sf(thr - draws, loc=-(LOG2**2) * 60.0, scale=2 * LOG2 * math.sqrt(60.0)))
    assert size == pytest.approx(0.05, abs=1e-6)


@pytest.mark.parametrize("kind", ["zero", "constant", "single draw"])
def test_calibrated_threshold_with_degenerate_noise(kind: str) -> None:
    # Without noise the calibrated threshold is the level-α quantile; a constant noise v shifts it by v.
    test = composite_test(alpha=0.05, n_agents=5, K=8, noise_scale=1.0)
    draws = {
        "zero": np.zeros(10),
        "constant": np.full(10, 3.0),
        "single draw": test.noise(1, np.random.default_rng(0)),
    }[kind]
    assert test.calibrated_threshold(draws) == pytest.approx(stats.chi2.isf(0.05, 5) + draws[0], abs=1e-6)


def test_pvalues() -> None:
    test = composite_test(alpha=0.05, n_agents=5, K=8, noise_scale=1.0)
    s = np.linspace(1.0, 30.0, 200)
    np.testing.assert_allclose(test.pvalue(s, np.zeros(7)), stats.chi2.sf(s, 5), rtol=1e-12)
    np.testing.assert_allclose(test.pvalue_paper(s), stats.chi2.sf(s + 1.0, 5), rtol=1e-12)
    draws = test.noise(1000, np.random.default_rng(2))
    p = test.pvalue(s, draws)
    assert np.all(np.diff(p) < 0)
    # More statistics than one internal chunk (2e6 / 200 draws = 10⁴), a 2-D shape, against the direct
    # average.
    draws = draws[:200]
    big = np.random.default_rng(9).uniform(-5, 40, size=(101, 100))
    want = stats.chi2.sf(big[..., None] - draws, 5).mean(axis=-1)
    got = test.pvalue(big, draws)
    assert got.shape == (101, 100)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-300)


def test_statistic_asymptotic_limit() -> None:
    n, K = 5, 8
    table = np.random.default_rng(1).normal(scale=10.0, size=(n, 2))
    x = 2.0 * (table[:, 1] - table[:, 0]).sum()  # 2Λ(alt, null)
    quiet = composite_test(alpha=0.05, n_agents=n, K=K, noise_scale=1e-9)
    s = quiet.statistic(table, None, None, n_reps=3, rng=np.random.default_rng(0))
    assert s.shape == (3, n)
    np.testing.assert_allclose(s, x, rtol=0, atol=1e-6)

    b, m = 1.5, 20_000
    test = composite_test(alpha=0.05, n_agents=n, K=K, noise_scale=b)
    s = test.statistic(table, None, None, n_reps=m, rng=np.random.default_rng(5))
    np.testing.assert_array_equal(
        s, test.statistic(table, None, None, n_reps=m, rng=np.random.default_rng(5))
    )
    assert not np.array_equal(s, test.statistic(table, None, None, n_reps=m, rng=np.random.default_rng(6)))
    np.testing.assert_allclose(s, s[:, :1] * np.ones(n), rtol=1e-12)  # T = ∞: every agent agrees
    noise = s[:, 0] - x  # S = X + N
    var, k4 = _noise_moments(n, K, b)
    assert abs(noise.mean()) < 5 * math.sqrt(var / m)
    assert abs(noise.var(ddof=1) - var) < 5 * math.sqrt((k4 + 2 * var**2) / m)


def test_statistic_rejects_bad_table() -> None:
    test = composite_test(alpha=0.05, n_agents=5, K=8, noise_scale=1.0)
    for shape in ((4, 2), (5, 3), (5,), (10,)):
        with pytest.raises(ParameterError, match="table"):
            test.statistic(np.zeros(shape), None, None, n_reps=2, rng=np.random.default_rng(0))


def test_simple_null_law_under_permutation(ddi: pd.DataFrame) -> None:
    # Permuting the treatment labels makes θ = 0 true; 2Λ(−log 2, 0) should then follow the asymptotic
    # null N(−θ₁²I, 4θ₁²I) with I the information at 0. 400 permutations: MC errors ~2 % on the mean,
    # ~3.5 % on the sd, so 10 % is about 3 standard errors on the sd.
    x, t, d = _arrays(ddi)
    _, info = cox_score_information(x, t, d, 0.0)
    null = simple_test(-LOG2, info, alpha=0.05, n_agents=5, K=8, noise_scale=1.0).null
    rng = np.random.default_rng(2024)
    thetas = np.array([-LOG2, 0.0])
    values = np.empty(400)
    for r in range(len(values)):
        lam = cox_partial_loglik(rng.permutation(x), t, d, thetas)
        values[r] = 2.0 * (lam[0] - lam[1])
    assert values.mean() == pytest.approx(null.mean(), rel=0.1)
    assert values.std(ddof=1) == pytest.approx(null.std(), rel=0.1)


# ----------------------------------------------------------------------------------------------------------
# Helpers the chapter uses: splits of a cohort, information, the composite table, Prop 4.6's schedule,
# the tests' operating characteristics and summaries, one private MLE study


def test_cohort_centres_round_robin_keeps_the_row_index_and_random_is_balanced() -> None:
    index = np.array([3, 4, 7, 8, 10, 15, 21])
    np.testing.assert_array_equal(cohort_centres(index, 5), index % 5)
    labels = cohort_centres(index, 3, method="random", rng=1)
    assert sorted(np.bincount(labels).tolist()) == [2, 2, 3]  # balanced on the cohort, not on 0 … 21
    np.testing.assert_array_equal(labels, cohort_centres(index, 3, method="random", rng=1))
    with pytest.raises(ParameterError, match="integer row numbers"):
        cohort_centres(np.array([0.5, 1.5]), 2)


def test_centre_information_sums_local_informations() -> None:
    x, t, d = _random_cohort(3, n=60)
    labels = np.arange(60) % 3
    info = centre_information(x, t, d, labels, theta=0.2)
    want = [cox_score_information(x[labels == i], t[labels == i], d[labels == i], 0.2)[1] for i in range(3)]
    np.testing.assert_allclose(info, want, rtol=1e-12)
    assert info.sum() != pytest.approx(
        cox_score_information(x, t, d, 0.2)[1], rel=1e-6
    )  # risk sets are local


def test_composite_table_and_observed_statistic() -> None:
    x, t, d = _random_cohort(4, n=80)
    fits = centre_fits(x, t, d, np.arange(80) % 4, penalizer=0.1)
    table = composite_table(fits)
    np.testing.assert_allclose(table[:, 0], [f.loglik_null for f in fits])
    np.testing.assert_allclose(2 * (table[:, 1] - table[:, 0]), [f.lrt for f in fits])
    assert observed_statistic(table) == pytest.approx(sum(f.lrt for f in fits), rel=1e-12)
    with pytest.raises(ParameterError, match=r"shape \(n, 2\)"):
        observed_statistic(np.zeros((3, 3)))


def test_prop46_schedule_uses_thm42_gm_requirements() -> None:
    table = np.array([[0.0, 1.0], [0.0, 2.0], [0.0, 0.5], [0.0, 1.5], [0.0, 1.0]])
    A = networks.metropolis_hastings(networks.make_graph("complete", 5)).toarray()
    a_star = networks.spectral_constants(A).a_star
    sched = prop46_schedule(table, a_star=a_star, delta=1.0, eps=1.0, alpha=0.05)
    full = inf.schedule_thm42(inf.problem_constants(table), a_star=a_star, delta=1.0, eps=1.0, alpha=0.025,
                              beta=0.975, rho_am=1.0, rho_gm=1.0)  # fmt: skip
    assert sched.K == math.ceil(full.k_gm) and sched.T == math.ceil(full.t_gm)
    assert sched.K == math.ceil(math.log(1 / 0.025))  # |Θ*| log(|Θ̄|/α') with |Θ*| = |Θ̄| = 1
    assert sched.noise_scale == pytest.approx(1.0 * sched.K * 2 / 1.0)  # ΔK|Θ|/ε


def test_make_private_test_builds_either_test_with_prop46s_schedule() -> None:
    table = np.array([[0.0, 1.0], [0.0, 2.0], [0.0, 0.5], [0.0, 1.5], [0.0, 1.0]])
    a_star = networks.spectral_constants(networks.make_graph("complete", 5)).a_star
    setting = dict(a_star=a_star, delta=1.0, eps=1.0, alpha=0.05)
    composite, sched = make_private_test("composite", table, **setting)
    assert sched == prop46_schedule(table, **setting)
    assert composite.kind == "composite" and composite.n_agents == 5 and composite.K == sched.K
    assert composite.noise_scale == sched.noise_scale
    simple, _ = make_private_test("simple", table, **setting, theta_alt=-LOG2, information=76.0)
    assert simple.kind == "simple" and simple.null.mean() == pytest.approx(-(LOG2**2) * 76.0)
    with pytest.raises(ParameterError, match="theta_alt and information"):
        make_private_test("simple", table, **setting)
    with pytest.raises(ParameterError, match="kind must be one of"):
        make_private_test("one-sided", table, **setting)


@pytest.mark.parametrize("law", [stats.norm(-36.5, 12.1), stats.chi2(5), ChiBarSquared(5)])
def test_sum_sf_matches_two_million_draws_and_its_limits(law: object) -> None:
    """Gil-Pelaez inversion against 2·10⁶ draws of X + N (40 Laplace terms of scale 5.5, as the simple test
    at ε = 1 has), and its limits: no noise gives X's tail, no X gives N's (½ at 0, by symmetry)."""
    rng = np.random.default_rng(17)
    m, scale, thr = 2_000_000, 5.5, {"norm": -13.8}.get(getattr(getattr(law, "dist", None), "name", ""), 11.8)
    if isinstance(law, ChiBarSquared):
        x = (np.maximum(rng.normal(size=(m, 5)), 0.0) ** 2).sum(axis=1)
    else:
        x = law.rvs(size=m, random_state=rng)
    noise = rng.laplace(0.0, scale, size=(40, m)).sum(axis=0)
    want = float(np.mean(x + noise > thr))
    got = sum_sf(thr, law=law, laplace_scale=scale, n_laplace=40)
    assert got == pytest.approx(want, abs=5 * math.sqrt(want * (1 - want) / m))
    assert sum_sf(thr, law=law, laplace_scale=0.0, n_laplace=40) == pytest.approx(
        float(law.sf(thr)), abs=1e-8
    )
    assert sum_sf(0.0, laplace_scale=scale, n_laplace=40) == pytest.approx(0.5, abs=1e-9)
    assert sum_sf(-1.0, laplace_scale=0.0, n_laplace=3) == 1.0
    # far beyond the noise's reach
    assert sum_sf(1e6, laplace_scale=scale, n_laplace=40) == 0.0
    assert sum_sf(-1e6, laplace_scale=scale, n_laplace=40) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("m", [1, 2, 40])
def test_laplace_sum_pdf_is_the_density_of_a_sum_of_laplace_draws(m: int) -> None:
    """It integrates to 1 with variance 2mβ², is Laplace's density for m = 1, matches a histogram of draws,
    and stays finite at 0."""
    from scipy import integrate

    beta = 2.0
    reach = beta * (m + 10 * math.sqrt(m) + 40)
    mass = integrate.quad(lambda u: laplace_sum_pdf(u, scale=beta, n_terms=m), -reach, reach, points=[0.0])[0]
    var = integrate.quad(lambda u: u * u * laplace_sum_pdf(u, scale=beta, n_terms=m), -reach, reach,
                         points=[0.0], limit=200)[0]  # fmt: skip
    assert mass == pytest.approx(1.0, abs=1e-10) and var == pytest.approx(2 * m * beta**2, rel=1e-8)
    if m == 1:
        u = np.linspace(-5, 5, 11)
        np.testing.assert_allclose(
            laplace_sum_pdf(u, scale=beta, n_terms=1), np.exp(-np.abs(u) / beta) / (2 * beta)
        )
    draws = np.random.default_rng(m).laplace(0.0, beta, size=(m, 400_000)).sum(axis=0)
    edges = np.linspace(-3, 3, 7) * beta * math.sqrt(2 * m)
    counts = np.histogram(draws, edges)[0] / len(draws)
    want = [integrate.quad(lambda u: laplace_sum_pdf(u, scale=beta, n_terms=m), a, b)[0]
            for a, b in itertools.pairwise(edges)]  # fmt: skip
    np.testing.assert_allclose(counts, want, atol=3e-3)
    assert np.isfinite(laplace_sum_pdf(0.0, scale=beta, n_terms=m))


def test_sum_sf_is_robust_to_very_large_and_very_small_noise() -> None:
    """The chapter's extreme budgets: ε = 0.01 (noise sd 7 000, size near ½) and ε = 10⁴ (noise
    negligible, the tail of X)."""
    law = stats.norm(-36.5, 12.1)
    assert sum_sf(-13.8, law=law, laplace_scale=554.5, n_laplace=40) == pytest.approx(0.5, abs=0.01)
    assert sum_sf(8000.0, law=law, laplace_scale=554.5, n_laplace=40) < 0.5
    assert sum_sf(-13.8, law=law, laplace_scale=1e-4, n_laplace=40) == pytest.approx(law.sf(-13.8), abs=1e-6)
    chi = ChiBarSquared(5)
    assert sum_sf(8.09, law=chi, laplace_scale=1e-4, n_laplace=40) == pytest.approx(chi.sf(8.09), abs=1e-6)


def test_chi_bar_squared_is_the_law_of_summed_one_sided_statistics() -> None:
    rng = np.random.default_rng(3)
    draws = (np.maximum(rng.normal(size=(1_000_000, 5)), 0.0) ** 2).sum(axis=1)
    law = ChiBarSquared(5)
    for x in (0.5, 3.0, 9.0):
        assert law.sf(x) == pytest.approx(np.mean(draws > x), abs=2e-3)
    assert law.sf(-1.0) == 1.0 and law.sf(0.0) == pytest.approx(1 - 0.5**5)
    assert law.sf(law.isf(0.025)) == pytest.approx(0.025, abs=1e-9)
    assert law.isf(0.025) < stats.chi2(5).isf(0.025)  # stochastically smaller than χ²₅
    assert law.mean() == 2.5 and law.isf(0.99) == 0.0


def test_exact_operating_characteristics_agree_with_the_draws() -> None:
    """The simple test of the chapter (I = 76, K = 4, b = 11.09): size 0.327 and power 0.839 exactly, within
    Monte Carlo error of 200 000 draws of the noise; the calibrated threshold has size α exactly."""
    test = simple_test(-LOG2, 75.97664025346806, alpha=0.05, n_agents=5, K=4, noise_scale=8 * LOG2 * 2)
    alt = simple_alternative(-LOG2, 75.97664025346806)
    exact = test.exact_operating_characteristics(alt)
    assert exact["size"] == pytest.approx(0.3271, abs=1e-4) and exact["power"] == pytest.approx(
        0.8392, abs=1e-4
    )
    assert test.exact_rejection_probability(test.null, exact["calibrated threshold"]) == pytest.approx(0.05)
    drawn = test.operating_characteristics(test.noise(200_000, np.random.default_rng(1)), alt)
    for key in ("size", "power"):
        assert drawn[key] == pytest.approx(exact[key], abs=0.005)
    assert set(test.exact_operating_characteristics()) == {"size", "calibrated threshold"}


def test_pvalue_rule_and_the_limit_summary() -> None:
    """The rule's p-value is below α exactly when S > ϱ_d; in the limit S = X + N the median of any
    p-value is its value at X, and P[p < claim] is a tail of N."""
    test = composite_test(alpha=0.05, n_agents=5, K=4, noise_scale=16.0)
    s = np.array([test.threshold - 1e-6, test.threshold + 1e-6, -50.0])
    np.testing.assert_allclose(test.pvalue_rule(s), np.minimum(1, 2 * stats.chi2.sf(s + 1, 5)))
    assert list(test.pvalue_rule(s[:2]) < 0.05) == [False, True] and test.pvalue_rule(s)[2] == 1.0
    limit = test.limit_summary(18.8, claim_p=1e-5)
    assert limit["p (rule) without noise"] == pytest.approx(2 * limit["p (notebook) without noise"])
    noise = test.noise(20_000, np.random.default_rng(4))
    runs = test.summary(18.8 + noise, noise[:200], claim_p=1e-5)
    assert runs["median p (rule), runs"] == pytest.approx(limit["p (rule) without noise"], rel=0.15)
    assert runs["P[p (rule) below claim], runs"] == pytest.approx(limit["P[p (rule) below claim]"], abs=0.015)
    low, high = runs["median p (rule), runs, 95 % low"], runs["median p (rule), runs, 95 % high"]
    assert low < limit["p (rule) without noise"] < high
    one = composite_test(alpha=0.05, n_agents=5, K=4, noise_scale=16.0, one_sided=True)
    assert one.threshold == pytest.approx(ChiBarSquared(5).isf(0.025) - 1.0)


def test_median_interval_covers_the_median() -> None:
    rng = np.random.default_rng(8)
    covered = [lo <= 0.0 <= hi for lo, hi in (median_interval(rng.normal(size=400)) for _ in range(400))]
    assert 0.92 < np.mean(covered) < 0.98
    assert all(math.isnan(v) for v in median_interval([1.0, 2.0]))


def test_one_sided_composite_table_drops_positive_estimates(ddi: pd.DataFrame) -> None:
    x, t, d = _arrays(ddi)
    fits = centre_fits(x, t, d, cohort_centres(ddi.index.to_numpy(), 5), penalizer=0.05)
    assert all(f.theta < 0 for f in fits)  # on ACTG every centre's estimate is negative: no change
    np.testing.assert_array_equal(composite_table(fits, one_sided=True), composite_table(fits))
    flipped = [dataclasses.replace(fits[0], theta=0.3), *fits[1:]]
    one = composite_table(flipped, one_sided=True)
    assert one[0, 1] == one[0, 0] and observed_statistic(one) == pytest.approx(
        observed_statistic(composite_table(fits)) - fits[0].lrt
    )


def test_operating_characteristics_and_summary() -> None:
    test = simple_test(-LOG2, 76.0, alpha=0.05, n_agents=5, K=4, noise_scale=11.0)
    alt = simple_alternative(-LOG2, 76.0)
    noise = test.noise(5000, np.random.default_rng(0))
    oc = test.operating_characteristics(noise, alt)
    assert oc["size"] == test.rejection_probability(test.null, noise)
    assert test.rejection_probability(test.null, noise, oc["calibrated threshold"]) == pytest.approx(0.05)
    assert oc["power"] > oc["power, calibrated"]  # the paper's rule buys power with its excess size
    assert set(test.operating_characteristics(noise)) == {"size", "calibrated threshold"}
    S = np.array([test.threshold - 1.0, test.threshold + 1.0, 1e3])
    summary = test.summary(S, noise, claim_p=1e-5)
    assert summary["rejects (paper rule)"] == pytest.approx(2 / 3)
    assert summary["median p (rule), runs"] == pytest.approx(float(test.pvalue_rule(S[1:2])[0]))
    assert math.isnan(summary["median p (rule), runs, 95 % low"])  # three runs: no interval
    assert summary["P[p (rule) below claim], runs"] == pytest.approx(1 / 3)
    assert summary["median p (with noise), runs"] == pytest.approx(float(test.pvalue(S[1:2], noise)[0]))


def test_mle_study_with_the_code_schedule_is_deterministic_and_consistent() -> None:
    table = np.array([[0.0, 3.0], [0.0, 2.0], [0.0, 2.5]])
    A = networks.metropolis_hastings(networks.make_graph("complete", 3)).toarray()
    kwargs = dict(target=np.array([False, True]), freq=0.2, n_reps=50, rho=1.5)
    setting = dict(a_star=networks.spectral_constants(A).a_star, delta=1.0, eps=1.0, alpha=0.05, rho=1.5)

    def study(convention: str):
        sched = code_schedule(table, **setting, convention=convention)
        return mle_study(table, A, sched, **kwargs, rng_demo=np.random.default_rng(1),
                         rng_mc=np.random.default_rng(2))  # fmt: skip

    one, two = study("paper"), study("paper")
    assert one.rates == two.rates
    np.testing.assert_array_equal(one.gm, two.gm)
    assert one.gm.shape == one.am.shape == one.nonprivate.shape == (one.T + 1, 3, 2)
    np.testing.assert_allclose(one.nonprivate[-1, :, 1], 1.0)  # the non-private run finds the MLE
    assert one.noise_scale == pytest.approx(1.0 * one.K * 2 / 1.0)
    code = study("authors_code")
    assert code.noise_scale == pytest.approx(2 * one.noise_scale)
    assert one.rates == inf.recovery_rates(one.run, kwargs["target"], rho=1.5, freq=0.2)


def test_fit_cox_reports_non_convergence() -> None:
    x, t, d = _random_cohort(5, n=40)
    with pytest.raises(ParameterError, match="did not converge"):
        fit_cox(x, t, d, max_iter=1, tol=1e-300)


# ----------------------------------------------------------------------------------------------------------
# What one patient does to the likelihood (§12), Alg 2's two sets, GM's limit, the risk-set law


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("change", [*NEIGHBOURS, "flip"])
def test_neighbour_changes_match_recomputing_the_likelihood(seed: int, change: str) -> None:
    """Against the independent reference: eq. (3) recomputed on each neighbour
    (:meth:`~dpnet.survival.cox.NeighbourRecords.cohort`), with tied times and a binary covariate."""
    x, t, d = _random_cohort(2 * seed, n=25)  # even seeds: a binary covariate
    thetas = np.array([0.0, -LOG2, 1.3])
    base = cox_partial_loglik(x, t, d, thetas)
    records = neighbour_records(x, t, d, change=change)
    want = np.array(
        [cox_partial_loglik(*records.cohort(x, t, d, r), thetas) - base for r in range(len(records))]
    )
    got = neighbour_changes(x, t, d, thetas, change=change)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, atol=1e-11)


@pytest.mark.parametrize("change", ["remove", "event", "time"])
def test_neighbour_changes_of_a_real_covariate_match_recomputing(change: str) -> None:
    """The kinds that keep the covariate work for a real-valued one too (a Gaussian covariate)."""
    x, t, d = _random_cohort(3, n=20)
    thetas = np.array([0.0, 0.7])
    base = cox_partial_loglik(x, t, d, thetas)
    records = neighbour_records(x, t, d, change=change)
    want = np.array(
        [cox_partial_loglik(*records.cohort(x, t, d, r), thetas) - base for r in range(len(records))]
    )
    np.testing.assert_allclose(neighbour_changes(x, t, d, thetas, change=change), want, atol=1e-11)


def test_neighbour_times_cover_every_cell_and_moving_nowhere_changes_nothing() -> None:
    """Candidate times: one below, one at and one after each distinct time; moving a patient to its own
    time is a neighbour that changes nothing, and the rows follow :func:`neighbour_records`."""
    np.testing.assert_array_equal(neighbour_times([3.0, 1.0, 3.0, 2.0]), [0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0])
    np.testing.assert_array_equal(neighbour_times([]), [0.0])
    x, t, d = _random_cohort(4, n=12)
    cand = neighbour_times(t)
    moved = neighbour_changes(x, t, d, [-LOG2], change="time").reshape(len(x), len(cand))
    own = np.searchsorted(cand, t)
    np.testing.assert_allclose(moved[np.arange(len(x)), own], 0.0, atol=1e-12)
    records = neighbour_records(x, t, d, change="modify")
    assert len(records) == 4 * len(x) * len(cand) and set(records.patient) == set(range(len(x)))
    added = neighbour_records(x, t, d, change="add")
    assert len(added) == 4 * len(cand) and np.all(added.patient == -1)
    # adding one patient to an empty cohort leaves Λ at 0
    np.testing.assert_array_equal(neighbour_changes([], [], [], [0.0, 1.0], change="add"), np.zeros((4, 2)))


def test_neighbour_changes_of_the_first_event_at_zero_is_the_log_of_the_risk_set() -> None:
    """Removing the only patient with the earliest time, an event, takes away −log N at θ = 0, as does
    making it censored; a change of treatment leaves Λ(0) alone, because at θ = 0 the covariate drops out."""
    x = np.array([1.0, 0.0, 1.0, 0.0, 1.0])
    t = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    d = np.array([1.0, 1.0, 0.0, 1.0, 0.0])
    assert neighbour_changes(x, t, d, 0.0)[0, 0] == pytest.approx(math.log(5.0))
    assert neighbour_changes(x, t, d, 0.0, change="event")[0, 0] == pytest.approx(math.log(5.0))
    np.testing.assert_allclose(neighbour_changes(x, t, d, 0.0, change="flip"), 0.0, atol=1e-15)
    np.testing.assert_array_equal(
        neighbour_changes(x, t, d, [0.0], change="treatment"),
        neighbour_changes(x, t, d, [0.0], change="flip"),
    )
    assert neighbour_changes(x[:0], t[:0], d[:0], [0.0, 1.0]).shape == (0, 2)


def test_neighbour_changes_reject_bad_input() -> None:
    x, t, d = _random_cohort(1)  # a Gaussian covariate
    for change in ("flip", "treatment", "add", "modify"):
        with pytest.raises(ParameterError, match=f"{change} needs a binary covariate"):
            neighbour_changes(x, t, d, 0.5, change=change)
    with pytest.raises(ParameterError, match="change must be one of"):
        neighbour_changes(x, t, d, 0.5, change="swap")
    with pytest.raises(ParameterError, match="theta"):
        neighbour_changes(x, t, d, [[0.5]])


def test_neighbour_changes_on_actg_exceed_section12s_bound_except_for_a_treatment(ddi: pd.DataFrame) -> None:
    """Centre 1 of the five-way split (227 patients): removing a patient moves log ℓ(0) by log 227 = 5.42
    and log ℓ(−log 2) by 5.78, as does changing one event indicator; changing a treatment moves
    log ℓ(−log 2) by 0.69, within Δ = 2 log 2 on these data. Every centre's event flips, at −log 2, match
    an independent recomputation (5.67, 5.78, 5.84, 5.78, 5.79)."""
    x, t, d = _arrays(ddi)
    labels = cohort_centres(ddi.index.to_numpy(), 5)
    one = labels == 1
    removed = np.abs(neighbour_changes(x[one], t[one], d[one], [0.0, -LOG2])).max(axis=0)
    flipped = np.abs(neighbour_changes(x[one], t[one], d[one], [0.0, -LOG2], change="flip")).max(axis=0)
    assert one.sum() == 227
    np.testing.assert_allclose(removed, [math.log(227), 5.7777], atol=1e-3)
    assert flipped[0] == 0.0 and flipped[1] == pytest.approx(0.690, abs=1e-3)
    assert flipped[1] < 2 * LOG2 < removed.min()
    events = [np.abs(neighbour_changes(x[labels == i], t[labels == i], d[labels == i], [-LOG2],
                                       change="event")).max() for i in range(5)]  # fmt: skip
    np.testing.assert_allclose(events, [5.666, 5.778, 5.844, 5.781, 5.793], atol=1e-3)


@pytest.mark.parametrize("n", [2, 3, 8, 227])
@pytest.mark.parametrize("theta", [-LOG2, 0.4, -1.7])
def test_treatment_worst_case_moves_the_likelihood_by_its_closed_form(n: int, theta: float) -> None:
    """The built data set's change of the last patient's treatment, recomputed from eq. (3), is the
    closed form, log((n + 1)/2) at θ = −log 2 (4.736 = 3.4Δ for 227 patients); §12's Δ = 2|θ| fails from
    n = 8 on at −log 2."""
    x, t, d, k = treatment_worst_case(n, theta)
    flipped = x.copy()
    flipped[k] = 1.0 - flipped[k]
    change = cox_partial_loglik(flipped, t, d, theta) - cox_partial_loglik(x, t, d, theta)
    assert abs(change) == pytest.approx(treatment_worst_change(n, theta), rel=1e-10)
    assert np.abs(neighbour_changes(x, t, d, [theta], change="treatment")).max() == pytest.approx(abs(change))
    if theta == -LOG2:
        assert treatment_worst_change(n, theta) == pytest.approx(math.log((n + 1) / 2))
        assert (treatment_worst_change(n, theta) > 2 * LOG2) == (n >= 8)
    with pytest.raises(ParameterError, match="theta must not be 0"):
        treatment_worst_case(n, 0.0)


@pytest.mark.parametrize("n", [3, 4])
def test_treatment_worst_case_is_the_worst_over_every_small_data_set(n: int) -> None:
    """An exhaustive search: over every data set of n patients (every order of times with ties, every
    event indicator, every treatment), no change of one treatment moves Λ(−log 2) by more than
    log((n + 1)/2), which the worst-case data set attains."""
    import itertools

    times = np.array(list(itertools.product(range(n), repeat=n)), dtype=float)
    bits = np.array(list(itertools.product([0.0, 1.0], repeat=n)))
    event, x = np.repeat(bits, len(bits), axis=0), np.tile(bits, (len(bits), 1))
    w = np.exp(-LOG2 * x)

    def loglik(t: np.ndarray, xs: np.ndarray, ws: np.ndarray) -> np.ndarray:
        risk = t[None, None, :] >= t[None, :, None]  # (1, j, r)
        return (event * (-LOG2 * xs - np.log((risk * ws[:, None, :]).sum(-1)))).sum(-1)

    best = 0.0
    for t in times:
        base = loglik(t, x, w)
        for k in range(n):
            xf = x.copy()
            xf[:, k] = 1.0 - xf[:, k]
            best = max(best, float(np.abs(loglik(t, xf, np.exp(-LOG2 * xf)) - base).max()))
    assert best == pytest.approx(math.log((n + 1) / 2), rel=1e-12)
    assert best == pytest.approx(treatment_worst_change(n, -LOG2), rel=1e-12)


def test_legacy_order_quicksort_is_numpys_default_sort() -> None:
    t = np.array([3.0, 1.0, 3.0, 2.0, 1.0] * 20)
    np.testing.assert_array_equal(legacy_order(t, np.zeros_like(t), "quicksort"), np.argsort(t))
    assert np.all(np.diff(t[legacy_order(t, np.zeros_like(t), "quicksort")]) >= 0)


def _result(winners: list[list[int]], n_agents: int = 2) -> inf.PrivateMLEResult:
    """Runs whose round k is won by state ``winners[r][k]`` at every agent (one-hot limits)."""
    scaled = np.zeros((len(winners), len(winners[0]), n_agents, 2))
    for r, rounds in enumerate(winners):
        for k, w in enumerate(rounds):
            scaled[r, k, :, w] = 1.0
    return inf.PrivateMLEResult(scaled=scaled, T=None, noise_scale=1.0)


def test_two_threshold_rates_read_both_sets_off_the_rounds_won() -> None:
    """Four runs of four rounds, Θ* = {1}: state 0 wins 0, 1, 2 and 3 rounds. With τ¹ = 0 (applied as
    1/K) Θ̂¹ ⊆ Θ* only when state 0 wins no round; with τ² = ½ Θ* ⊆ Θ̂² when state 1 wins at least two,
    and Θ̂² = Θ* when it wins more than two."""
    run = _result([[1, 1, 1, 1], [0, 1, 1, 1], [0, 0, 1, 1], [0, 0, 0, 1]])
    rates = two_threshold_rates(run, np.array([False, True]), freq_1=0.0, freq_2=0.5)
    assert rates == {"inside": 0.25, "covers": 0.75, "exact": 0.5}
    with pytest.raises(ParameterError, match="non-empty boolean mask"):
        two_threshold_rates(run, np.array([False, False]), freq_1=0.0, freq_2=0.5)


def test_promise_rates_hold_each_estimator_to_its_own_theorem() -> None:
    """The same four runs, Θ* = {1}, ϱ = 1.5 (AM's τ = 0.18): GM picks the state that won most rounds
    (state 1 in runs 0 and 1; a tie in run 2 gives both), AM keeps every state that won at least one
    round in four (≥ 0.25 ≥ τ), and the two-threshold rule at ½ keeps states that won at least half."""
    run = _result([[1, 1, 1, 1], [0, 1, 1, 1], [0, 0, 1, 1], [0, 0, 0, 1]])
    rates = promise_rates(run, np.array([False, True]), rho=1.5, freq=0.5)
    assert rates == {"GM inside": 0.5, "AM covers": 1.0, "two-threshold exact": 0.5}
    # the exact recovery of AM, which no theorem promises, is rarer than its cover
    assert inf.recovery_rates(run, np.array([False, True]), rho=1.5, freq=0.5)["AM"] == 0.25
    with pytest.raises(ParameterError, match="non-empty boolean mask"):
        promise_rates(run, np.array([False, False]), rho=1.5, freq=0.5)


def test_gm_limit_probability_matches_the_oracle() -> None:
    """Against the T → ∞ oracle (:func:`dpnet.inference.run_private_mle`) on a two-state table."""
    table = np.array([[0.0, 3.0], [0.0, 2.0], [0.0, 3.0]])
    b, K = 4.0, 6
    limit = inf.run_private_mle(
        table, None, K=K, T=None, scale=b, n_reps=40_000, rng=np.random.default_rng(3)
    )
    picked = inf.recovery_rates(limit, np.array([False, True]), rho=0.1, freq=0.5)["GM"]
    want = gm_limit_probability(8.0, b, n_agents=3, K=K)
    assert picked == pytest.approx(want, abs=4 * math.sqrt(want * (1 - want) / 40_000) + 5e-3)
    assert gm_limit_probability(0.0, b, n_agents=3, K=K) == 0.5
    with pytest.raises(ParameterError, match="noise_scale"):
        gm_limit_probability(1.0, 0.0, n_agents=3, K=K)


def test_risk_set_law_has_the_moments_of_the_conditional_draws(ddi: pd.DataFrame) -> None:
    """Against a simulation of the law it describes (each event's treatment drawn given its risk set), and
    against the normal laws of :func:`simple_test`, which it approaches for a small alternative."""
    x, t, d = _arrays(ddi)
    labels = cohort_centres(ddi.index.to_numpy(), 5)
    models = list(centre_cox(x, t, d, labels).models)
    law = risk_set_law(models, -LOG2, -LOG2)
    rng = np.random.default_rng(5)
    draws = np.zeros(20_000)
    for m in models:
        pi = m.at_risk_1 * 0.5 / (m.at_risk_0 + m.at_risk_1 * 0.5)
        treated = rng.binomial(m.weight.astype(int), pi, size=(len(draws), len(pi))).sum(axis=1)
        shift = np.sum(m.weight * np.log((m.at_risk_0 + m.at_risk_1 * 0.5) / (m.at_risk_0 + m.at_risk_1)))
        draws += 2 * (-LOG2) * treated - 2 * shift
    assert draws.mean() == pytest.approx(law.mean(), abs=4 * law.std() / math.sqrt(len(draws)))
    assert draws.std() == pytest.approx(law.std(), rel=0.03)
    info = float(centre_information(x, t, d, labels).sum())
    small = 0.05
    np.testing.assert_allclose(
        [risk_set_law(models, small, 0.0).mean(), risk_set_law(models, small, 0.0).std()],
        [simple_test(small, info, alpha=0.05, n_agents=5, K=1, noise_scale=1.0).null.mean(),
         simple_test(small, info, alpha=0.05, n_agents=5, K=1, noise_scale=1.0).null.std()],
        rtol=0.05,
    )  # fmt: skip
    legacy = binary_cox(x, t, d, variant="as_published")
    with pytest.raises(ParameterError, match="paper's likelihood"):
        risk_set_law([legacy], -LOG2, 0.0)
