"""Chapter 4 (treatment-identification): parameters, the four-arm table, reseeded noise, the set rates,
the reliability threshold and Figure 6's comparison."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpnet import book, networks, reference
from dpnet import inference as inf
from dpnet.chapters import resolve
from dpnet.chapters import treatment_identification as chapter
from dpnet.errors import ParameterError
from dpnet.survival import (
    arm_cohort,
    centre_fits,
    cohort_centres,
    comparison,
    mle_study,
    reseeded_noise,
    treatments,
)
from dpnet.sweep import task_generators


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("treatment-identification"))


def test_defaults_are_the_papers_setting() -> None:
    quick = resolve("treatment-identification", defaults())
    assert (quick["n_centers"], quick["eps"], quick["alpha"], quick["threshold"]) == (5, 1.0, 0.05, 0.25)
    assert (
        quick["fig6_n_values"] == [10, 15, 20]
        and quick["fig6_eps"][0] == 0.1
        and quick["fig6_eps"][-1] == 1.6
    )
    assert np.allclose(np.diff(quick["fig6_eps"]), 0.25)  # the notebook's arange(0.1, 1.75, 0.25)
    assert quick["runtime_n_values"] == [6, 12, 24, 48, 96] and quick["runtime_rows"] == [4096, 8192, 40960]
    full = resolve("treatment-identification", {**defaults(), "mode": "full"})
    assert full["replications"] >= 1000 and full["runtime_repeats"] >= 3


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("threshold", 0.7, r"threshold must be a real number in the open interval \(0, 0.5\)"),
        ("fig6_eps", [0.5, 0.1], r"fig6_eps must be a strictly increasing list"),
        ("runtime_dataset", "hiv", r"runtime_dataset must be one of 'cancer', 'actg'"),
        ("runtime_rows", [50], r"runtime_rows must be"),
        ("learning_rate", 0.0, r"learning_rate must be a real number > 0"),
    ],
)
def test_bad_parameters_name_the_parameter(name: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        resolve("treatment-identification", {**defaults(), name: value})


def test_runtime_cohorts_must_fill_every_centre() -> None:
    with pytest.raises(ParameterError, match=r"every runtime_rows value must be at least the largest"):
        resolve(
            "treatment-identification",
            {**defaults(), "runtime_rows": [100, 4096], "runtime_n_values": [6, 200]},
        )


def test_arm_table_is_the_centres_glrts(actg: pd.DataFrame) -> None:
    centres = cohort_centres(actg.index.to_numpy(), 5)
    table, arms = treatments.arm_glrt_table(actg, centres, penalizer=0.05)
    assert arms == ("ZDV", "ZDV+ddI", "ZDV+Zal", "ddI") and table.shape == (5, 4)
    np.testing.assert_array_equal(table[:, 0], 0.0)
    cohort = arm_cohort(actg, "ZDV+Zal")
    fits = centre_fits(cohort.x, cohort.time, cohort.event, cohort.index.to_numpy() % 5, penalizer=0.05)
    np.testing.assert_allclose(table[:, 2], [f.lrt / 2 for f in fits], rtol=1e-12)
    assert arms[int(np.argmax(table.sum(axis=0)))] == "ZDV+ddI"  # the best arm of Figure 4
    with pytest.raises(ParameterError, match="centres must be"):
        treatments.arm_glrt_table(actg, centres[:-1], penalizer=0.05)


def test_reseeded_noise_shares_one_draw_across_treatments() -> None:
    d = reseeded_noise(np.random.default_rng(0), 3.0, n_reps=4, K=5, n_agents=3, n_states=4)
    assert d.shape == (4, 5, 3, 4)
    np.testing.assert_array_equal(d[..., 1], d[..., 2])
    np.testing.assert_array_equal(d[..., 1], d[..., 3])
    assert not np.any(d[..., 0] == d[..., 1])
    pair = inf.laplace_noise(np.random.default_rng(0), 3.0, n_reps=4, K=5, n_agents=3, n_states=2)
    np.testing.assert_array_equal(d[..., :2], pair)  # the same stream as one two-state problem


def test_reseeding_never_misorders_the_treatments() -> None:
    table = np.array([[0.0, 3.0, 2.0, 1.0]] * 3)  # arm 1 is best; noise dwarfs the gaps
    A = networks.metropolis_hastings(networks.make_graph("complete", 3)).toarray()
    arms = ("C", "B", "X", "Y")
    target = np.array([False, True, False, False])
    sched = treatments.published_schedule(2.0, 0.5, K=10, T=40)
    assert sched.noise_scale == pytest.approx(2 * 10 * 2 * 2.0 / 0.5)
    rates = {}
    for kind in ("reseeded", "independent"):
        st = mle_study(table, A, sched, rho=math.log(3), target=target, freq=0.25, n_reps=300,
                       rng_demo=np.random.default_rng(1), rng_mc=np.random.default_rng(2), noise=kind,
                       trajectories=False)  # fmt: skip
        rates[kind] = treatments.arm_set_rates(
            st.run, arms, best="B", control="C", rho=math.log(3), freq=0.25
        )
    assert all(r["wrong treatment"] == 0.0 for r in rates["reseeded"].values())
    assert rates["independent"]["GM"]["wrong treatment"] > 0.3
    with pytest.raises(ParameterError, match="is not one of the arms"):
        treatments.arm_set_rates(st.run, arms, best="Z", control="C", rho=1.0, freq=0.25)


def test_first_reliable_needs_the_level_from_there_on() -> None:
    eps = [0.1, 1.0, 10.0, 100.0]
    assert treatments.first_reliable(eps, [0.2, 0.96, 0.9, 0.99], 0.95) == 100.0
    assert treatments.first_reliable(eps, [0.96, 0.97, 0.99, 1.0], 0.95) == 0.1
    assert treatments.first_reliable(eps, [0.1, 0.2, 0.3, 0.94], 0.95) is None


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


def test_published_checks_pass_on_the_claims_and_fail_otherwise() -> None:
    assert reference.best_arm_check("ZDV+ddI").passed and not reference.best_arm_check("ddI").passed
    good = reference.figure5_checks({"GM": 0.9, "AM": 0.8}, 1.0, 1000)
    assert [(c.name, c.passed) for c in good] == [("recovers-gm", True), ("recovers-am", True)]
    assert [c.passed for c in reference.figure5_checks({"GM": 0.26, "two-threshold": 0.5}, 1.0, 1000)] == [
        False,
        False,
    ]  # "most runs": more than half
    largest = {"n": 15, "eps": 1.35, "ratio": 120.0, "low": 20.0, "high": 900.0}
    above = {"paper": True, "as_published": True}
    passing = reference.figure6_checks(above, 2.0, [0.08, 0.19], (1.2, 50.0), largest, published=True)
    assert [c.name for c in passing] == ["published-order", "published-band", "paper-order", "up-to-100"]
    assert all(c.passed for c in passing)
    below = {"paper": False, "as_published": False}
    failing = reference.figure6_checks(
        below, 0.9, [0.08, 0.218], (0.07, 0.78), {**largest, "ratio": 96.7}, published=True
    )
    assert [c.passed for c in failing] == [False] * 4
    never = reference.figure6_checks(above, 2.0, [0.1], (1.0, 2.0), None, published=True)
    assert never[-1].passed is False  # GM never erred: no ratio to reach 100
    # off Figure 6's setting the published band is undefined; without ε ≥ 0.6 so are the orderings
    other = reference.figure6_checks(
        {"paper": None, "as_published": None}, None, [], (1.0, 2.0), largest, published=False
    )
    assert [c.passed for c in other] == [None, None, None, True]
    assert [c.passed for c in reference.runtime_checks(0.07, {(6, 4096): 12.0})] == [True, True]
    assert [c.passed for c in reference.runtime_checks(12.0, {(6, 4096): 8.5})] == [False, False]
    undefined = reference.runtime_checks(None, {})
    assert [(c.name, c.passed) for c in undefined] == [("under-10s", None), ("faster-than-he", None)]


def test_named_streams_are_the_published_runs_generators() -> None:
    """Naming the streams changed no draw: each is the generator the published runs used."""
    P = resolve("treatment-identification", {})
    old = task_generators(P.seed, 6, [(400, k) for k in range(6)])
    names = ["split", "p003-fig5/demo", "p003-fig5/mc", "p003-fig5/as-published-demo",
             "p003-fig5/as-published-mc", "best-arm-curve"]  # fmt: skip
    for name, rng in zip(names, old, strict=True):
        np.testing.assert_array_equal(P.rng(name).random(5), rng.random(5))
    fig6 = task_generators(P.seed, 1, [(600, 1, 15, 3)])[0]
    np.testing.assert_array_equal(P.stream("p003-fig6").child(1, 15, 3).rng().random(5), fig6.random(5))
    timing = task_generators(P.seed, 1, [(700, 8192)])[0]
    np.testing.assert_array_equal(P.stream("p003-fig14-2").child(8192).rng().random(5), timing.random(5))


def test_defaults_are_the_papers_setting_and_other_values_are_not() -> None:
    P = resolve("treatment-identification", {})
    assert P.is_paper()  # every parameter the paper (or its notebook) fixes has its value
    assert P.fig6_eps == list(reference.FIG6_EPS) and P.runtime_rows == list(reference.RUNTIME_ROWS)
    assert not resolve("treatment-identification", {"eps": 10.0}).is_paper("eps")
    assert not resolve("treatment-identification", {"fig6_eps": [0.1, 0.35]}).is_paper("fig6_eps")


def test_reseeded_noise_never_misorders_the_actg_treatments(actg: pd.DataFrame) -> None:
    """The identity behind the published Figure 5 (moved out of the report): with the notebook's
    reseeded noise, at its ε, K and T, no run names a treatment other than ZDV+ddI; with independent
    noise at the same scale, many do, so the test would catch a reseeding that did not cancel."""
    P = resolve("treatment-identification", {"replications": 100})
    arms = chapter.four_arms(P, actg)
    sched = treatments.published_schedule(
        arms.delta, P.published_eps, K=P.published_rounds, T=P.published_iterations
    )
    wrong = {}
    for kind in ("reseeded", "independent"):
        st = mle_study(arms.table, arms.A, sched, rho=arms.rho, target=arms.target, freq=arms.threshold,
                       n_reps=100, rng_demo=np.random.default_rng(1), rng_mc=np.random.default_rng(2),
                       noise=kind, trajectories=False)  # fmt: skip
        rates = treatments.arm_set_rates(st.run, arms.arms, best="ZDV+ddI", control="ZDV", rho=arms.rho,
                                         freq=arms.threshold)  # fmt: skip
        wrong[kind] = [r["wrong treatment"] for r in rates.values()]
    assert wrong["reseeded"] == [0.0, 0.0, 0.0]
    assert min(wrong["independent"]) > 0.3


def test_difference_noise_sd_and_the_curve_at_a_budget(actg: pd.DataFrame) -> None:
    """The noise GM sees on the difference of two arms is 2Δ|Θ|√(nK)/ε; the curve reads off its grid."""
    P = resolve("treatment-identification", {})
    arms = chapter.four_arms(P, actg)
    K, n = arms.schedule(1.0).K, len(arms.table)
    assert arms.difference_noise_sd(1.0) == pytest.approx(2 * arms.delta * 4 * math.sqrt(n * K), rel=1e-12)
    assert arms.difference_noise_sd(10.0) == pytest.approx(arms.difference_noise_sd(1.0) / 10, rel=1e-12)
    frame = pd.DataFrame(
        [{"eps": e, "algorithm": k, "probability": p, "probability, as published": p}
         for e, p in ((1.0, 0.2), (100.0, 0.9)) for k in chapter.ALGORITHMS]
    )  # fmt: skip
    curve = chapter.BestArmCurve(frame, 0.95, 4)
    assert curve.at(100.0) == {k: 0.9 for k in chapter.ALGORITHMS}
    assert all(math.isnan(p) for p in curve.at(30.0).values())
