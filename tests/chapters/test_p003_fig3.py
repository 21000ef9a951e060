"""Paper 003, Figure 3 (Chapter 3): the cohorts' ACTG arm facts, the Figure 3 checks, and their cost."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from dpnet import reference
from dpnet import survival as sv
from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import p003_fig3
from dpnet.params import Cost
from dpnet.reference import clinical


def passed(checks: list) -> list[bool | None]:
    return [c.passed for c in checks]


def test_p003_fig3_actg_data_checks_pass_on_the_data_set_and_fail_otherwise() -> None:
    assert all(
        passed(
            reference.clinical.actg_data_checks(
                reference.clinical.ACTG_ARM_SIZES, reference.clinical.ACTG_ARM_EVENTS
            )
        )
    )
    wrong = {**reference.clinical.ACTG_ARM_SIZES, "ddI": 560}
    assert passed(reference.clinical.actg_data_checks(wrong, reference.clinical.ACTG_ARM_EVENTS)) == [
        False,
        True,
    ]


def test_p003_fig3_checks_compare_with_the_published_split_only_there() -> None:
    pooled = {"coef": -0.528, "p": 4.9e-6}
    published = reference.clinical.figure3_checks(pooled, 0.9, alpha=0.05, published=True)
    names = ["pooled-p", "pooled-coef", "pooled-p-value", "one-hospital-p", "one-hospital-not-significant"]
    assert [c.name for c in published] == names
    assert all(passed(published))
    # the paper prints neither the coefficient nor the p-value: only p < 0.001 is the paper's claim
    assert [c.against for c in published[:3]] == ["paper", "reference", "reference"]
    # the five-way split's p = 0.17: still not significant, but not the published 0.90
    five_way = reference.clinical.figure3_checks(pooled, 0.17, alpha=0.05, published=True)
    assert passed(five_way) == [True, True, True, False, True]
    other = reference.clinical.figure3_checks(pooled, 0.17, alpha=0.05, published=False)
    assert [c.name for c in other] == [
        "pooled-p",
        "pooled-coef",
        "pooled-p-value",
        "one-hospital-not-significant",
    ]
    assert not reference.clinical.figure3_checks(pooled, 0.01, alpha=0.05, published=False)[-1].passed


def test_p003_fig3_pooled_p_tests_the_papers_claim_not_a_value() -> None:
    """A p of 2e−4 is not the reference 4.9e−6, but it is below 0.001: the paper's claim holds; 2e−3 fails
    it."""
    checks = {c.name: c.passed for c in reference.clinical.figure3_checks(
        {"coef": -0.528, "p": 2e-4}, 0.9, alpha=0.05, published=True)}  # fmt: skip
    assert checks["pooled-p"] is True and checks["pooled-p-value"] is False
    fails = reference.clinical.figure3_checks({"coef": -0.528, "p": 2e-3}, 0.9, alpha=0.05, published=True)
    assert fails[0].name == "pooled-p" and fails[0].passed is False


def test_p003_fig3_the_ddi_subset_is_the_two_arms(actg: pd.DataFrame) -> None:
    """The ZDV ∪ ddI subset holds the two arms' patients: 532 + 561 = 1093."""
    ddi = sv.arm_cohort(actg, "ddI")
    sizes = clinical.ACTG_ARM_SIZES
    assert len(ddi) == sizes["ZDV"] + sizes["ddI"] == 1093
    assert int(ddi.x.sum()) == sizes["ddI"]


def test_p003_fig3_costs_the_random_splits_beyond_the_chapter_s_fixed_seconds() -> None:
    values = dict(resolve("hypothesis-testing", {}))
    assert p003_fig3.cost(values) == Cost(seconds=1e-4 * 5 * p003_fig3.RANDOM_SPLITS)


def test_p003_fig3_random_split_check_is_the_median_hospital_and_can_fail_or_be_undecided() -> None:
    """The headline under the paper's random split: pooled p < 0.001 and a hospital's median p ≥ α."""
    check = reference.clinical.figure3_random_split_check
    assert check(4.9e-6, [0.2, 0.9, 0.01], alpha=0.05).passed is True
    assert check(4.9e-6, [0.2, 0.03, 0.01], alpha=0.05).passed is False  # most hospitals detect it
    assert check(2e-3, [0.2, 0.9, 0.01], alpha=0.05).passed is False  # the pooled trial does not
    empty = check(4.9e-6, [float("nan")], alpha=0.05)
    assert empty.passed is None and "no hospital" in empty.detail
    assert empty.name == "one-hospital-random-split"


def test_p003_fig3_split_wald_p_matches_lifelines_on_the_round_robin(actg: pd.DataFrame) -> None:
    """The vectorised Breslow Wald test of each centre agrees with lifelines' (Efron) fits of the five
    round-robin centres to 1e−3, and its θ̂ is the Newton maximiser of the counts likelihood."""
    ddi = sv.arm_cohort(actg, "ddI")
    labels = sv.cohort_centres(ddi.index.to_numpy(), 5)
    p = p003_fig3.split_wald_p(ddi.x.to_numpy(), ddi.time.to_numpy(), ddi.event.to_numpy(),
                               np.stack([labels, labels[::-1]]), 5)  # fmt: skip
    assert p.shape == (2, 5)
    for i in range(5):
        m = labels == i
        fit = sv.cox_lifelines(ddi.time[m], ddi.event[m], ddi.x[m])
        assert p[0, i] == pytest.approx(fit.p, abs=1e-3)
        model = sv.binary_cox(ddi.x[m], ddi.time[m], ddi.event[m])
        theta, _ = model.lrt()
        z = abs(theta) * np.sqrt(model.information(theta))
        assert p[0, i] == pytest.approx(2 * stats.norm.sf(z), rel=1e-9)
    flipped = labels[::-1]
    fit = sv.binary_cox(ddi.x[flipped == 2], ddi.time[flipped == 2], ddi.event[flipped == 2])
    theta, _ = fit.lrt()
    assert p[1, 2] == pytest.approx(2 * stats.norm.sf(abs(theta) * np.sqrt(fit.information(theta))), rel=1e-9)


def test_p003_fig3_split_wald_p_is_undefined_where_a_centre_s_fit_diverges() -> None:
    """A centre whose events are all treated (or all untreated) has no finite θ̂: its p-value is nan."""
    time = np.arange(1.0, 7.0)
    labels = np.array([[0, 0, 0, 1, 1, 1]])
    x, event = np.array([1.0, 1.0, 0.0, 0.0, 1.0, 0.0]), np.array([1.0, 1.0, 0.0, 0.0, 1.0, 1.0])
    assert np.isnan(p003_fig3.split_wald_p(x, time, event, labels, 2)).all()
    x, event = np.array([1.0, 0.0, 1.0, 1.0, 0.0, 0.0]), np.array([1.0, 1.0, 1.0, 0.0, 1.0, 1.0])
    p = p003_fig3.split_wald_p(x, time, event, labels, 2)
    assert 0 < p[0, 0] < 1 and np.isnan(p[0, 1])


def test_p003_fig3_headline_is_judged_on_random_splits_and_leaves_the_paper_s_setting_with_n() -> None:
    """The headline's random splits do not depend on the chapter's split; ten hospitals are not the paper's
    five, so the item leaves the paper's setting (and its hospitals, half the size, miss the effect more
    often)."""
    from dpnet.chapters.hypothesis_testing import cohorts, figure3

    P = resolve("hypothesis-testing", {})
    fig3 = figure3(P, cohorts(P))
    assert fig3.paper_setting and fig3.random_p.shape == (p003_fig3.RANDOM_SPLITS, 5)
    assert 0.45 < fig3.random_detect < 0.65 and fig3.random_detect_se < 0.02
    P10 = resolve("hypothesis-testing", {"n_centers": 10})
    fig10 = figure3(P10, cohorts(P10))
    assert not fig10.paper_setting and fig10.random_detect < fig3.random_detect
