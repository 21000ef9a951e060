"""Paper 003, Figure 6 (Chapter 4): the first-order comparison, its ratios and the checks against
Figure 6."""

from __future__ import annotations

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
    assert {r["algorithm"] for r in records} == set(comparison.ALGORITHMS)
    assert all(r["variant"] == variant and r["n"] == 10 for r in records)


def test_exceeds_everywhere_and_ratio_summary() -> None:
    points = [("first-order", 0.6, 0.2), ("GM", 0.6, 0.1), ("first-order", 0.1, 0.1), ("GM", 0.1, 0.3)]
    records = [{"variant": "v", "algorithm": a, "n": 10, "eps": e, "mean": m} for a, e, m in points]
    assert comparison.exceeds_everywhere(records, "v", above="first-order", below="GM", eps_from=0.6)
    assert not comparison.exceeds_everywhere(records, "v", above="first-order", below="GM", eps_from=0.1)
    with pytest.raises(ParameterError, match="no w records"):
        comparison.exceeds_everywhere(records, "w", above="first-order", below="GM", eps_from=0.6)
    ratios = [{"n": 10, "eps": 0.6, "ratio": 5.0, "low": 2.0, "high": 40.0},
              {"n": 15, "eps": 1.6, "ratio": math.inf, "low": 30.0, "high": math.inf}]  # fmt: skip
    summary = comparison.ratio_summary(ratios, claim=100.0)
    assert summary["largest estimate"]["n"] == 10 and summary["largest assured"]["n"] == 15
    assert summary["claim not excluded"]  # an infinite upper limit admits any ratio
    assert not comparison.ratio_summary(ratios[:1], claim=100.0)["claim not excluded"]


def test_figure6_checks_pass_on_the_claims_and_fail_otherwise() -> None:
    largest = {"n": 15, "eps": 1.35, "ratio": 120.0, "low": 20.0, "high": 900.0}
    above = {"paper": True, "as_published": True}
    passing = reference.identification.figure6_checks(
        above, 2.0, [0.08, 0.19], (1.2, 50.0), largest, published=True
    )
    assert [c.name for c in passing] == ["published-order", "published-band", "paper-order", "up-to-100"]
    assert all(c.passed for c in passing)
    below = {"paper": False, "as_published": False}
    failing = reference.identification.figure6_checks(
        below, 0.9, [0.08, 0.218], (0.07, 0.78), {**largest, "ratio": 96.7}, published=True
    )
    assert [c.passed for c in failing] == [False] * 4
    never = reference.identification.figure6_checks(above, 2.0, [0.1], (1.0, 2.0), None, published=True)
    assert never[-1].passed is False  # GM never erred: no ratio to reach 100
    # off Figure 6's setting the published band is undefined; without ε ≥ 0.6 so are the orderings
    other = reference.identification.figure6_checks(
        {"paper": None, "as_published": None}, None, [], (1.0, 2.0), largest, published=False
    )
    assert [c.passed for c in other] == [None, None, None, True]


def test_cost_counts_both_variants_at_every_point() -> None:
    values = dict(resolve("treatment-identification", {}))
    one = p003_fig6.cost({**values, "fig6_eps": [0.1], "fig6_n_values": [10]})
    assert one.seconds == pytest.approx(
        2 * (0.27 + values["replications"] * (1e-5 * 100 + 2.3e-7 * 10 * 124))
    )
    assert one.peak == 48.0 * values["replications"] * 10 * (124 + 6)  # 124 periods of 10 days, K₆ = 6
