"""Chapter 3 (hypothesis-testing): the parameter schema and its streams, the reference checks of paper 003's
clinical items, the identities moved out of the report, and the top-10 % TMB tie rules."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpnet import book, networks, reference
from dpnet import survival as sv
from dpnet.chapters import hypothesis_testing as chapter
from dpnet.chapters import resolve
from dpnet.errors import ParameterError
from dpnet.reference import clinical
from dpnet.survival.data import TMB_TIE_RULES
from dpnet.sweep import task_generators


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("hypothesis-testing"))


def passed(checks: list) -> list[bool | None]:
    return [c.passed for c in checks]


def test_defaults_are_the_papers_setting() -> None:
    quick = resolve("hypothesis-testing", defaults())
    assert defaults() == {"mode": "quick"}  # the parameters cell sets only the mode
    assert quick["replications"] == 200 and quick["likelihood"] == "paper"
    assert resolve("hypothesis-testing", {**defaults(), "mode": "full"})["replications"] >= 500
    assert (quick["n_centers"], quick["eps"], quick["alpha"], quick["rho"]) == (5, 1.0, 0.05, 1.5)
    assert quick["split"] == "round_robin" and quick["one_hospital_split"] == 10
    assert (
        quick["tmb_ties"] == "later_row_first" and quick["rho_cancer"] == 0.1 and quick["penalizer"] == 0.05
    )
    assert quick.is_paper()
    assert not resolve("hypothesis-testing", {"eps": 3.0}).is_paper("eps")


def test_named_streams_draw_what_the_published_runs_drew() -> None:
    P = resolve("hypothesis-testing", {})
    old = task_generators(P.seed, 5, [(300, k) for k in range(5)])
    for name, generator in zip(("split", "demo", "monte-carlo", "tests", "cancer"), old, strict=True):
        np.testing.assert_array_equal(P.rng(name).random(8), generator.random(8))


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("likelihood", "legacy", r"likelihood must be one of 'paper', 'as_published'"),
        ("split", "halves", r"split must be one of 'round_robin', 'random'"),
        ("n_centers", 1, r"n_centers must be an integer ≥ 2"),
        ("eps", 0.0, r"eps must be a real number > 0"),
        ("alpha", 0.5, r"alpha must be a real number"),
        ("penalizer", -0.1, r"penalizer must be a real number ≥ 0"),
        ("replications", 5, r"replications must be an integer ≥ 20"),
        ("tmb_ties", "stable", r"tmb_ties must be one of 'later_row_first'"),
    ],
)
def test_bad_parameters_name_the_parameter(name: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        resolve("hypothesis-testing", {**defaults(), name: value})


def test_reference_checks_pass_on_the_published_numbers_and_fail_otherwise() -> None:
    assert all(passed(reference.actg_data_checks(reference.ACTG_ARM_SIZES, reference.ACTG_ARM_EVENTS)))
    wrong = {**reference.ACTG_ARM_SIZES, "ddI": 560}
    assert passed(reference.actg_data_checks(wrong, reference.ACTG_ARM_EVENTS)) == [False, True]
    good = dict(reference.FIG4_PAIRWISE)
    assert all(passed(reference.figure4_checks(good)))
    swapped = {**good, "ZDV+ddI": -0.5, "ddI": -0.704}
    checks = reference.figure4_checks(swapped)
    assert checks[-1].name == "best-arm" and not checks[-1].passed  # the best arm is no longer ZDV+ddI
    gaps = dict(reference.LAMBDA_GAP)
    ranges = {"as_published": (271.27, 274.04), "as_published_5": (274.35, 276.97)}
    assert all(passed(reference.lambda_gap_checks(gaps, ranges)))
    assert not all(passed(reference.lambda_gap_checks({**gaps, "paper": 9.64}, ranges)))
    narrow = {**ranges, "as_published": (271.0, 273.0)}  # the published 273.17 outside every tie order
    assert not all(passed(reference.lambda_gap_checks(gaps, narrow)))


def test_figure3_checks_compare_with_the_published_split_only_there() -> None:
    pooled = {"coef": -0.528, "p": 4.9e-6}
    published = reference.figure3_checks(pooled, 0.9, alpha=0.05, published=True)
    names = ["pooled-coef", "pooled-p", "one-hospital-p", "one-hospital-not-significant"]
    assert [c.name for c in published] == names
    assert all(passed(published))
    # the five-way split's p = 0.17: still not significant, but not the published 0.90
    five_way = reference.figure3_checks(pooled, 0.17, alpha=0.05, published=True)
    assert passed(five_way) == [True, True, False, True]
    other = reference.figure3_checks(pooled, 0.17, alpha=0.05, published=False)
    assert [c.name for c in other] == ["pooled-coef", "pooled-p", "one-hospital-not-significant"]
    assert not reference.figure3_checks(pooled, 0.01, alpha=0.05, published=False)[-1].passed


def test_success_checks_use_the_oracles_binomial_error() -> None:
    oracle = {v: dict(w) for v, w in reference.ORACLE_SUCCESS.items()}
    measured = {v: {**w, "AM belief se": 0.01} for v, w in reference.ORACLE_SUCCESS.items()}
    assert all(passed(reference.success_checks(measured, oracle, 200)))
    # a rate 0.15 away from the oracle's 0.61 is 4.3 binomial standard errors off at 200 runs
    off = {**measured, "paper": {**measured["paper"], "GM": 0.46}}
    checks = reference.success_checks(off, oracle, 200)
    assert [c.passed for c in checks if c.name == "runs-paper-gm"] == [False]
    # an exact rate of 1 at an oracle of 1 passes (no zero-width interval)
    assert all(c.passed for c in checks if "as-published" in c.name)


def test_section5_checks() -> None:
    claims = reference.section5_checks(2e-5, 3e-6, 0.7, {"simple": 0.04, "composite": 0.05}, 0.05)
    assert [c.name for c in claims] == ["central-p", "distributed-p", "simple-size", "composite-size"]
    assert all(passed(claims))
    fails = reference.section5_checks(2e-4, 3e-3, 0.4, {"simple": 0.33, "composite": 0.46}, 0.05)
    assert not any(passed(fails))


def test_tmb_checks_flag_a_wrong_coefficient_and_gap() -> None:
    gaps = dict(reference.TMB_LAMBDA_GAP)
    assert all(passed(reference.tmb_checks(gaps, -0.01776, published=True)))
    assert passed(reference.tmb_checks(gaps, -0.0179, published=True))[0] is False  # 0.8 % off −0.01776
    stable = {**gaps, "top10": 8.112}  # the earlier row first: not the reference group's gap
    assert passed(reference.tmb_checks(stable, -0.01776, published=True)) == [True, True, False]
    assert [c.name for c in reference.tmb_checks(stable, -0.01776, published=False)] == [
        "raw-coef",
        "gap-raw",
    ]
    assert not reference.tmb_mle_check(gaps["raw"]).passed and reference.tmb_mle_check(gaps["top10"]).passed


def test_check_names_are_unique_within_each_item() -> None:
    gaps, ranges = dict(reference.LAMBDA_GAP), {"as_published": (0, 300), "as_published_5": (0, 300)}
    oracle = {v: {**w, "AM belief se": 0.01} for v, w in reference.ORACLE_SUCCESS.items()}
    items = [
        reference.actg_data_checks(reference.ACTG_ARM_SIZES, reference.ACTG_ARM_EVENTS)
        + reference.figure3_checks({"coef": -0.5, "p": 1e-5}, 0.9, alpha=0.05, published=True),
        reference.figure4_checks(reference.FIG4_PAIRWISE),
        reference.lambda_gap_checks(gaps, ranges)
        + reference.success_checks(oracle, oracle, 200)
        + reference.table1_checks(*reference.ACTG_CODE_K_T),
        reference.tmb_checks(dict(reference.TMB_LAMBDA_GAP), -0.01776, published=True),
    ]
    for checks in items:
        names = [c.name for c in checks]
        assert all(names) and len(set(names)) == len(names), names


# ----------------------------------------------------------------------------------------------------------
# Identities that used to be recorded as checks: they hold by construction, so they are tested here


def test_the_actg_runs_noise_scale_is_delta_k_states_over_eps(actg: pd.DataFrame) -> None:
    """The published runs' noise scales 22.18 (paper) and 44.36 (authors' code) are ΔK|Θ|/ε and twice that,
    with K = 8: they follow from K, which the report checks (``code-k-t``)."""
    ddi = sv.arm_cohort(actg, "ddI")
    centres = sv.cohort_centres(ddi.index.to_numpy(), 5)
    A = networks.metropolis_hastings(networks.make_graph("complete", 5)).toarray()
    a_star, delta = networks.spectral_constants(A).a_star, sv.cox_sensitivity(math.log(2.0))
    states = np.array([0.0, -math.log(2.0)])
    for variant, convention, want in (("paper", "paper", 22.18), ("as_published", "authors_code", 44.36)):
        table = sv.centre_loglik(ddi.x, ddi.time, ddi.event, centres, states, variant=variant)
        sched = sv.code_schedule(table, a_star=a_star, delta=delta, eps=1.0, alpha=0.05, rho=1.5,
                                 convention=convention)  # fmt: skip
        factor = 2 if convention == "authors_code" else 1
        assert sched.K == 8
        assert sched.noise_scale == pytest.approx(factor * delta * sched.K * 2 / 1.0, rel=1e-12)
        assert sched.noise_scale == pytest.approx(want, abs=reference.ACTG_NOISE_TOLERANCE)


def test_the_ddi_subset_is_the_two_arms(actg: pd.DataFrame) -> None:
    """The ZDV ∪ ddI subset holds the two arms' patients: 532 + 561 = 1093."""
    ddi = sv.arm_cohort(actg, "ddI")
    sizes = clinical.ACTG_ARM_SIZES
    assert len(ddi) == sizes["ZDV"] + sizes["ddI"] == 1093
    assert int(ddi.x.sum()) == sizes["ddI"]


@pytest.mark.parametrize(
    ("ties", "sizes"),
    [("later_row_first", clinical.TMB_GROUP_SIZES), ("earlier_row_first", clinical.TMB_GROUP_SIZES),
     ("at_or_above_cutoff", (167, 166, 1329))],
)  # fmt: skip
def test_tmb_group_sizes_follow_from_the_tie_rule(samstein: pd.DataFrame, ties: str, sizes: tuple) -> None:
    """Figure 14.3's groups 166/166/1330 are ⌊N/10⌋, ⌊N/5⌋ − ⌊N/10⌋ and the rest under either row rule."""
    groups = sv.tmb_groups(samstein, ties=ties)
    assert tuple(groups.value_counts(sort=False)) == sizes
    n = len(samstein)
    if ties != "at_or_above_cutoff":
        assert sizes == (n // 10, n // 5 - n // 10, n - n // 5)


# ----------------------------------------------------------------------------------------------------------
# The chapter's experiments on the cancer cohort: the tie rules


def test_cancer_cohort_keeps_the_default_gap_and_tabulates_every_tie_rule() -> None:
    P = resolve("hypothesis-testing", {})
    data = chapter.cohorts(P)
    cancer = chapter.cancer_cohort(P, data)
    assert cancer.metrics()["tmb_lambda_gap_top10"] == 8.273016470823677  # to the last digit
    rules = cancer.tie_rules.set_index("rule")
    assert list(rules.index) == list(TMB_TIE_RULES)
    assert rules.loc["later_row_first", "Λ(log 0.15) − Λ(0)"] == pytest.approx(8.273, abs=5e-4)
    assert rules.loc["earlier_row_first", "Λ(log 0.15) − Λ(0)"] == pytest.approx(8.112, abs=5e-4)
    assert rules.loc["at_or_above_cutoff", "Λ(log 0.15) − Λ(0)"] == pytest.approx(8.796, abs=5e-4)
    assert rules["patients"].tolist() == [166, 166, 167]
    assert rules["tied rows taken"].tolist() == ["1331", "1156", "1156, 1331"]
    assert [c.name for c in cancer.checks["p003-fig14-3"]] == ["raw-coef", "gap-raw", "gap-top10"]
    other = chapter.cancer_cohort(resolve("hypothesis-testing", {"tmb_ties": "earlier_row_first"}), data)
    assert other.gap["top10"] == pytest.approx(8.112, abs=5e-4)
    assert [c.name for c in other.checks["p003-fig14-3"]] == ["raw-coef", "gap-raw"]
