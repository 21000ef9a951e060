"""Paper 003, Figure 6 (Chapter 4): the first-order comparison, its ratios and the checks against
Figure 6."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from dpnet import reference
from dpnet.chapters import resolve
from dpnet.chapters.treatment_identification import p003_fig6
from dpnet.errors import ParameterError
from dpnet.survival import arm_cohort, comparison


def test_error_ratio_and_its_interval() -> None:
    est = comparison.error_ratio(np.full(10, 0.2), np.r_[np.ones(1), np.zeros(9)])
    assert est["ratio"] == pytest.approx(2.0)
    # Clopper–Pearson for 1 success in 10: (0.00253, 0.445)
    assert est["low"] == pytest.approx(0.2 / 0.44502, rel=1e-4)
    assert est["high"] == pytest.approx(0.2 / 0.0025286, rel=1e-4)
    zeros = comparison.error_ratio(np.full(100, 0.3), np.zeros(100))
    assert zeros["ratio"] == math.inf and zeros["high"] == math.inf
    assert zeros["low"] == pytest.approx(0.3 / (1 - 0.025 ** (1 / 100)))  # 100 zeros: mean ≤ 0.036 at 97.5 %
    with pytest.raises(ParameterError, match=r"in \[0, 1\]"):
        comparison.error_ratio(np.ones(3), np.full(3, 2.0))


@pytest.mark.parametrize("variant", comparison.VARIANTS)
def test_tvd_comparison_is_deterministic_and_bounded(actg: pd.DataFrame, variant: str) -> None:
    ddi = arm_cohort(actg, "ddI")
    task = comparison.ComparisonTask(
        x=ddi.x.to_numpy(float), time=ddi.time.to_numpy(float), event=ddi.event.to_numpy(float),
        row_index=ddi.index.to_numpy(), n_centres=10, eps=0.6, variant=variant, theta_alt=-math.log(2),
        alpha=0.1, rho=0.1, period_length=10, lr=0.001, b_theta=1.0, n_reps=40,
    )  # fmt: skip
    one = comparison.tvd_comparison(task, np.random.default_rng(3))
    two = comparison.tvd_comparison(task, np.random.default_rng(3))
    assert one["K"] == 6  # ⌈2 ln(2/0.1)⌉, the authors' K at α = 0.1
    for algorithm in comparison.ALGORITHMS:
        np.testing.assert_array_equal(one["tvd"][algorithm], two["tvd"][algorithm])
        assert one["tvd"][algorithm].shape == (40,)
        assert np.all((one["tvd"][algorithm] >= 0) & (one["tvd"][algorithm] <= 1))
    # gradient steps add at most 2 η B_θ T (paper) to consensus
    assert one["first_order_drift"] <= 2 * 0.001 * one["T"] + 1e-12
    records = comparison.tvd_records([task], [one])
    readings = set(comparison.FIRST_ORDER_READINGS) if variant == "paper" else set()
    assert {r["algorithm"] for r in records} == set(comparison.ALGORITHMS) | readings
    assert all(r["variant"] == variant and r["n"] == 10 for r in records)
    for reading in readings:  # recorded for the paper's variant only, as distances in [0, 1]
        assert np.all((one["tvd"][reading] >= 0) & (one["tvd"][reading] <= 1))


def test_first_order_readings_leave_the_other_draws_unchanged(actg: pd.DataFrame) -> None:
    """The readings of "ground truth" reuse the private run, and the 2× noise run draws after everything
    else: the twin distances are those a run without them gives. The 2× noise run moves further from the
    twin; the distance to the maximum-likelihood state is 1 minus the belief in θ₁, its state."""
    ddi = arm_cohort(actg, "ddI")
    task = comparison.ComparisonTask(
        x=ddi.x.to_numpy(float), time=ddi.time.to_numpy(float), event=ddi.event.to_numpy(float),
        row_index=ddi.index.to_numpy(), n_centres=10, eps=0.1, variant="paper", theta_alt=-math.log(2),
        alpha=0.1, rho=0.1, period_length=10, lr=0.001, b_theta=1.0, n_reps=300,
    )  # fmt: skip
    out = comparison.tvd_comparison(task, np.random.default_rng(3))
    assert out["tvd"]["first-order, 2× noise"].mean() > out["tvd"]["first-order"].mean()
    assert out["tvd"]["first-order to MLE state"].mean() > out["tvd"]["first-order to θ̂"].mean()
    published = comparison.tvd_comparison(dataclasses.replace(task, variant="as_published"),
                                          np.random.default_rng(3))  # fmt: skip
    assert not set(comparison.FIRST_ORDER_READINGS) & set(published["tvd"])


def test_paired_means_and_ratio_summary() -> None:
    points = [("first-order", 0.6, 0.2), ("GM", 0.6, 0.1), ("first-order", 0.1, 0.1), ("GM", 0.1, 0.3),
              ("AM", 0.1, 0.05)]  # fmt: skip
    records = [{"variant": "v", "algorithm": a, "n": 10, "eps": e, "mean": m} for a, e, m in points]
    paired = comparison.paired_means(records, "v", algorithms=("GM", "AM"), baseline="first-order")
    assert sorted((p["algorithm"], p["eps"], p["mean"], p["baseline"]) for p in paired) == [
        ("AM", 0.1, 0.05, 0.1), ("GM", 0.1, 0.3, 0.1), ("GM", 0.6, 0.1, 0.2),
    ]  # fmt: skip
    assert comparison.paired_means(records, "w", algorithms=("GM",), baseline="first-order") == []
    ratios = [{"n": 10, "eps": 0.6, "ratio": 5.0, "low": 2.0, "high": 40.0},
              {"n": 15, "eps": 1.6, "ratio": math.inf, "low": 30.0, "high": math.inf}]  # fmt: skip
    summary = comparison.ratio_summary(ratios, claim=100.0)
    assert summary["largest estimate"]["n"] == 10 and summary["largest assured"]["n"] == 15
    assert summary["claim not excluded"]  # an infinite upper limit admits any ratio
    assert not comparison.ratio_summary(ratios[:1], claim=100.0)["claim not excluded"]


def _points(means: dict[str, float], baseline: float, eps: float = 1.1) -> list[dict]:
    return [{"algorithm": a, "n": 10, "eps": eps, "mean": m, "baseline": baseline} for a, m in means.items()]


def _interval(ratio: float, low: float, high: float) -> dict:
    return {"algorithm": "GM", "n": 15, "eps": 1.35, "ratio": ratio, "low": low, "high": high}


def test_figure6_checks_pass_on_the_claims_and_fail_otherwise() -> None:
    checks = reference.identification.figure6_checks
    below = _points({"GM": 0.01, "AM": 0.02, "two-threshold": 0.02}, 0.1)
    reach = {"paper": [_interval(120.0, 101.0, 900.0)], "as_published": [_interval(150.0, 110.0, 500.0)]}
    passing = checks({"paper": below, "as_published": below}, reach)
    assert [c.name for c in passing] == [
        "mle-below-first-order", "published-mle-below-first-order", "published-order", "up-to-100",
        "published-up-to-100",
    ]  # fmt: skip
    assert all(c.passed for c in passing)
    above = _points({"GM": 0.4, "AM": 0.45, "two-threshold": 0.45}, 0.1)
    short = {"paper": [_interval(0.78, 0.73, 0.83)], "as_published": [_interval(0.9, 0.5, 2.0)]}
    failing = checks({"paper": above, "as_published": above}, short)
    assert [c.passed for c in failing] == [False] * 5
    # 100 inside the interval: the run neither confirms nor excludes "up to 100×"
    inside = checks({}, {"as_published": [_interval(96.7, 17.4, 3820.0)]})
    assert inside[-1].passed is None and "100 lies inside" in inside[-1].detail


def test_figure6_checks_are_undecided_on_empty_sets() -> None:
    """No points, or no ε ≥ 0.6 as published, or no ratio: every claim over the empty set is undecided."""
    empty = reference.identification.figure6_checks({}, {})
    assert [c.passed for c in empty] == [None] * 5
    early = _points({"GM": 0.01, "AM": 0.02, "two-threshold": 0.02}, 0.1, eps=0.35)
    only_early = reference.identification.figure6_checks({"as_published": early}, {})
    assert {c.name: c.passed for c in only_early}["published-order"] is None
    assert {c.name: c.passed for c in only_early}["published-mle-below-first-order"] is True


def test_figure6_reading_checks_decide_each_reading_and_are_undecided_without_points() -> None:
    """The caption's claim under the other readings of "ground truth" (note-ti-fig6-ground-truth): one
    check per reading, passed or failed by its own points, undecided when a reading has none."""

    def point(mean: float, baseline: float) -> dict:
        return {"algorithm": "GM", "n": 10, "eps": 0.1, "mean": mean, "baseline": baseline}

    names = [name for name, _, _ in reference.identification.FIG6_READINGS]
    readings = {names[0]: [point(0.4, 0.3)], names[1]: [point(0.4, 0.7), point(0.3, 0.5)]}
    checks = reference.identification.figure6_reading_checks(readings)
    assert [(c.name, c.passed) for c in checks] == [(names[0], False), (names[1], True), (names[2], None)]
    assert "undecided" in checks[2].detail


def test_readings_table_lists_every_reading_beside_the_mle_algorithms() -> None:
    rows = [{"variant": "paper", "algorithm": a, "n": 10, "eps": 0.1, "mean": m}
            for a, m in (("GM", 0.47), ("AM", 0.49), ("two-threshold", 0.49), ("OL", 0.1),
                         ("first-order", 0.36), ("first-order to θ̂", 0.43),
                         ("first-order to MLE state", 0.72), ("first-order, 2× noise", 0.43))]  # fmt: skip
    fig6 = p003_fig6.FirstOrderComparison(pd.DataFrame(rows), pd.DataFrame(), {}, 0.0, 0.5, 0.05, -0.5, 28.0,
                                          {}, True)  # fmt: skip
    table = fig6.readings()
    mle = ["GM", "AM", "two-threshold"]
    assert list(table.columns) == [*mle, "first-order", *comparison.FIRST_ORDER_READINGS]
    assert fig6.reading_range("first-order to MLE state") == (0.72, 0.72)
    assert all(math.isnan(v) for v in fig6.reading_range("nowhere"))


def test_first_order_static_check() -> None:
    static = reference.identification.first_order_static_check
    assert static(0.019, 0.51).passed is True
    assert static(0.54, 0.056).passed is False


def test_exercise_learning_rate(actg: pd.DataFrame) -> None:
    """Exercise ex-ti-lr: at η = 0.05 the non-private first-order twin ends nearer θ̂ (and the book's
    "hardly learns" sentence no longer holds), while the private run's distance to its twin grows at
    every point; Figure 6's setting is left."""
    common = {"fig6_n_values": [10, 20], "fig6_eps": [0.1, 1.6], "replications": 30}
    runs = {lr: p003_fig6.first_order_comparison(resolve("treatment-identification",
                                                         {**common, "learning_rate": lr}), actg)
            for lr in (0.001, 0.05)}  # fmt: skip
    slow, fast = runs[0.001], runs[0.05]
    assert fast.error < slow.error and fast.drift > slow.drift
    static = {
        lr: {c.name: c.passed for c in r.checks["p003-fig6"]}["first-order-static"] for lr, r in runs.items()
    }
    assert static == {0.001: True, 0.05: False}

    def first_order(r: p003_fig6.FirstOrderComparison) -> np.ndarray:
        t = r.tvd[(r.tvd.variant == "paper") & (r.tvd.algorithm == "first-order")]
        return t.sort_values(["n", "eps"])["mean"].to_numpy()

    assert np.all(first_order(fast) > first_order(slow))
    assert fast.step_bound == pytest.approx(50 * slow.step_bound)


def test_cost_counts_both_variants_at_every_point() -> None:
    values = dict(resolve("treatment-identification", {}))
    one = p003_fig6.cost({**values, "fig6_eps": [0.1], "fig6_n_values": [10]})
    assert one.seconds == pytest.approx(
        2 * (0.27 + values["replications"] * (1e-5 * 100 + 2.3e-7 * 10 * 124))
    )
    assert one.peak == 48.0 * values["replications"] * 10 * (124 + 6)  # 124 periods of 10 days, K₆ = 6
