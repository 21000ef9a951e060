"""Tests of dpnet.survival: the clinical datasets, the Cox partial likelihood and the centre split."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpnet.errors import ParameterError
from dpnet.survival import ACTG175_ARMS, arm_cohort, cox_partial_loglik, split_centres

# ----------------------------------------------------------------------------------------------------------
# Fixtures (the datasets themselves come from conftest.py)


@pytest.fixture(scope="module")
def zdv_ddi(actg: pd.DataFrame) -> pd.DataFrame:
    """ZDV (x = 0) vs ddI (x = 1), keeping the original CSV index."""
    return arm_cohort(actg, "ddI")


# ----------------------------------------------------------------------------------------------------------
# Data (facts of the data sets)


def test_actg175_counts(actg: pd.DataFrame) -> None:
    assert len(actg) == 2139
    assert list(actg.columns[:4]) == ["time", "event", "arm", "arm_name"]
    for covariate in ("age", "wtkg", "karnof", "cd40", "cd420", "cd80", "cd820", "treat", "offtrt"):
        assert covariate in actg.columns
    assert "trt" not in actg.columns and "label" not in actg.columns
    assert len(actg.columns) == 25  # 24 CSV columns, trt/label renamed, plus arm_name
    sizes = actg.groupby("arm")["event"].agg(["size", "sum"])
    assert sizes["size"].tolist() == [532, 522, 524, 561]
    assert sizes["sum"].tolist() == [181, 103, 109, 128]
    assert set(actg["event"].unique()) == {0, 1}
    assert actg["time"].min() == 14 and actg["time"].max() == 1231
    assert list(actg["arm_name"].cat.categories) == list(ACTG175_ARMS)
    names = actg.groupby("arm")["arm_name"].first().astype(str).tolist()
    assert names == ["ZDV", "ZDV+ddI", "ZDV+Zal", "ddI"]
    assert actg["arm"].isin([0, 3]).sum() == 1093
    assert isinstance(actg.index, pd.RangeIndex)


def test_samstein2019_counts(samstein: pd.DataFrame) -> None:
    assert len(samstein) == 1662
    assert int(samstein["event"].sum()) == 832
    assert samstein["event"].mean() == pytest.approx(0.5006, abs=5e-5)
    assert samstein["tmb"].max() == pytest.approx(209.547, abs=5e-4)
    assert samstein["time"].min() >= 0 and samstein["time"].max() <= 80
    assert samstein["cancer_type"].nunique() == 10
    assert not samstein.isna().any().any()


# ----------------------------------------------------------------------------------------------------------
# Cox partial likelihood against a brute-force double loop


def _brute_paper(x, t, d, theta):
    total = 0.0
    for j in range(len(x)):
        if d[j] == 1:
            risk = sum(math.exp(x[r] * theta) for r in range(len(x)) if t[r] >= t[j])
            total += x[j] * theta - math.log(risk)
    return total


def _brute_legacy(x, t, d, theta, order):
    xs, ds = x[order], d[order]
    total = sum(ds[j] * xs[j] * theta for j in range(len(xs)))
    for j in range(len(xs)):
        total -= math.log(sum(math.exp(xs[r] * theta) for r in range(j, len(xs))) + 1e-10)
    return total


@pytest.mark.parametrize("seed", range(5))
def test_paper_variant_matches_brute_force_with_ties(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 40
    x = rng.normal(size=n) if seed % 2 else rng.integers(0, 2, size=n).astype(float)
    t = rng.integers(1, 8, size=n).astype(float)  # many ties
    d = rng.integers(0, 2, size=n)
    thetas = np.array([-2.0, -0.7, 0.0, 0.3, 1.5])
    got = cox_partial_loglik(x, t, d, thetas)
    want = [_brute_paper(x, t, d, th) for th in thetas]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-10)


@pytest.mark.parametrize("seed", range(5))
def test_legacy_variant_matches_brute_force(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    n = 40
    x = rng.integers(0, 2, size=n).astype(float)
    t = rng.integers(1, 8, size=n).astype(float)
    d = rng.integers(0, 2, size=n)
    thetas = np.array([-1.0, 0.0, 0.8])
    got = cox_partial_loglik(x, t, d, thetas, variant="as_published")
    order = np.argsort(t, kind="stable")  # tied patients in row order (ties="row")
    want = [_brute_legacy(x, t, d, th, order) for th in thetas]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-10)
    for ties, key in (("x_desc", -x), ("x_asc", x)):
        order = np.lexsort((key, t))
        got = cox_partial_loglik(x, t, d, thetas, variant="as_published", ties=ties)
        want = [_brute_legacy(x, t, d, th, order) for th in thetas]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-10)
    # Without ties the order is unambiguous and the legacy sum includes censored patients.
    t_distinct = rng.permutation(n).astype(float)
    got = cox_partial_loglik(x, t_distinct, d, thetas, variant="as_published")
    want = [_brute_legacy(x, t_distinct, d, th, np.argsort(t_distinct, kind="stable")) for th in thetas]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-10)


def test_variants_agree_without_censoring_or_ties() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=30)
    t = rng.permutation(30).astype(float)
    d = np.ones(30)
    thetas = np.linspace(-1, 1, 5)
    # All patients are events and risk sets are nested: only the +1e-10 differs.
    np.testing.assert_allclose(
        cox_partial_loglik(x, t, d, thetas),
        cox_partial_loglik(x, t, d, thetas, variant="as_published"),
        atol=1e-8,
    )


def test_scalar_theta_stability_and_empty() -> None:
    x, t, d = np.array([0.0, 1.0, 1.0]), np.array([1.0, 2.0, 2.0]), np.array([1, 1, 0])
    value = cox_partial_loglik(x, t, d, 0.5)
    assert isinstance(value, float)
    assert value == pytest.approx(_brute_paper(x, t, d, 0.5))
    big = cox_partial_loglik(1000.0 * x, t, d, np.array([5.0, -5.0]))
    assert np.all(np.isfinite(big))
    assert cox_partial_loglik([], [], [], np.array([0.0, 1.0])).tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"x": [0.0, 1.0], "time": [1.0], "event": [1, 0]}, "same length"),
        ({"event": [1, 2]}, "event must hold only 0"),
        ({"time": [1.0, float("nan")]}, "time must hold finite"),
        ({"x": [[0.0, 1.0]]}, "x must be a 1-D array"),
        ({"theta": [[0.0]]}, "theta must be a scalar or a 1-D array"),
        ({"theta": [float("inf")]}, "theta must hold finite"),
        ({"variant": "legacy"}, "variant must be one of 'paper', 'as_published'"),
    ],
)
def test_cox_partial_loglik_rejects_bad_input(kwargs: dict, match: str) -> None:
    args = {"x": [0.0, 1.0], "time": [1.0, 2.0], "event": [1, 0], "theta": [0.0]} | kwargs
    variant = args.pop("variant", "paper")
    with pytest.raises(ParameterError, match=match):
        cox_partial_loglik(args["x"], args["time"], args["event"], args["theta"], variant=variant)


# ----------------------------------------------------------------------------------------------------------
# ACTG 175 and TMB reference values (dpnet.reference.clinical)


def _log_lr(frame: pd.DataFrame, labels: np.ndarray | None, variant: str, ties: str = "row") -> float:
    thetas = np.array([-math.log(2), 0.0])
    groups = [np.ones(len(frame), bool)] if labels is None else [labels == c for c in np.unique(labels)]
    total = 0.0
    for mask in groups:
        part = frame[mask]
        values = cox_partial_loglik(
            part["x"], part["time"], part["event"], thetas, variant=variant, ties=ties
        )
        total += values[0] - values[1]
    return total


def test_actg_log_likelihood_ratios(actg: pd.DataFrame, zdv_ddi: pd.DataFrame) -> None:
    # The authors' split: original CSV row index mod 5, computed on the full table before filtering.
    labels = split_centres(len(actg), 5)[zdv_ddi.index]
    np.testing.assert_array_equal(labels, zdv_ddi.index.to_numpy() % 5)
    assert _log_lr(zdv_ddi, None, "paper") == pytest.approx(9.631, abs=1e-3)
    assert _log_lr(zdv_ddi, labels, "paper") == pytest.approx(9.538, abs=1e-3)
    # The reference as-published values (one machine's unstable sort) lie between the two extreme tie orders.
    for split, want in ((None, 273.17), (labels, 276.2)):
        low = _log_lr(zdv_ddi, split, "as_published", "x_desc")
        high = _log_lr(zdv_ddi, split, "as_published", "x_asc")
        assert low < _log_lr(zdv_ddi, split, "as_published") < high
        assert low <= want <= high


def test_tmb_raw_covariate_log_likelihood_ratio(samstein: pd.DataFrame) -> None:
    values = cox_partial_loglik(
        samstein["tmb"], samstein["time"], samstein["event"], np.array([math.log(0.15), 0.0])
    )
    assert values[0] - values[1] == pytest.approx(-11640.5, abs=0.05)


# ----------------------------------------------------------------------------------------------------------
# Centre split


def test_round_robin_labels() -> None:
    labels = split_centres(12, 5)
    assert labels.dtype == np.int64
    assert labels.tolist() == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1]
    assert np.array_equal(split_centres(12, 5, rng=3), labels)  # rng is ignored


@pytest.mark.parametrize(("n_rows", "n_centres"), [(1093, 5), (1093, 10), (7, 7), (10, 1)])
def test_splits_are_balanced(n_rows: int, n_centres: int) -> None:
    for method in ("round_robin", "random"):
        sizes = np.bincount(split_centres(n_rows, n_centres, method=method, rng=0), minlength=n_centres)
        assert len(sizes) == n_centres and sizes.sum() == n_rows
        assert sizes.max() - sizes.min() <= 1
        assert sizes.min() == n_rows // n_centres


def test_random_split_is_seeded() -> None:
    a = split_centres(100, 4, method="random", rng=42)
    b = split_centres(100, 4, method="random", rng=np.random.default_rng(42))
    c = split_centres(100, 4, method="random", rng=43)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert not np.array_equal(a, split_centres(100, 4))


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((0, 1), {}, "n_rows must be an integer ≥ 1"),
        ((5, 0), {}, "n_centres must be an integer ≥ 1 and ≤ 5"),
        ((5, 6), {}, "n_centres must be an integer ≥ 1 and ≤ 5"),
        ((5, 2.5), {}, "n_centres must be an integer"),
        ((5, 2), {"method": "balanced"}, "method must be one of 'round_robin', 'random'"),
    ],
)
def test_split_centres_rejects_bad_input(args: tuple, kwargs: dict, match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        split_centres(*args, **kwargs)
