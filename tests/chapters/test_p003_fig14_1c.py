"""Paper 003, Figure 14.1(c) (Chapter 5): ACTG 175 as a stream against its formulas, its checks on and
off the published setting, and the graph-free non-private limit."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from small import small

from dpnet import inference as inf
from dpnet import networks, reference
from dpnet import survival as sv
from dpnet.chapters.online_learning import p003_fig14_1c
from dpnet.chapters.online_learning._common import Cohort
from dpnet.results import RECORDED


def test_actg_stream_against_its_formulas(actg: pd.DataFrame) -> None:
    P = small("online-learning", replications=20)
    study = p003_fig14_1c.actg_stream(P)
    assert study.periods == 1231 // 10 + 1 == 124
    b = 2 * math.log(2) * 2 / 1.0  # Δ|Θ|/ε with Δ = 2 log 2
    assert study.runs["treatment/paper"].noise_scale == pytest.approx(b)
    assert study.extra["noise_sd"] == pytest.approx(2 * b / math.sqrt(5 * 124))
    assert study.limit("treatment/paper") == pytest.approx(-0.011548, abs=5e-6)
    runs = study.runs["treatment/as_published"]
    ratios = (runs.final[..., 1] - runs.final[..., 0]) / 124
    assert study.agreement("treatment/as_published") == pytest.approx(np.mean(ratios > 0))  # ψ_T/T 0.44 > 0
    paper = study.runs["treatment/paper"]
    assert study.extra["paper_picks"] == pytest.approx(np.mean(paper.final[..., 1] > paper.final[..., 0]))
    x, sd = study.extra, 2 * b / math.sqrt(5 * 124)
    assert x["full_limit"] == pytest.approx(0.015384, abs=5e-6)
    assert x["full_picks_gaussian"] == pytest.approx(stats.norm.cdf(x["full_limit"] / sd), rel=1e-12)
    assert x["full_periods"] == pytest.approx((2 * b / x["full_limit"]) ** 2 / 5, rel=1e-12)
    assert x["full_noise_ratio"] == pytest.approx(sd / x["full_limit"], rel=1e-12)
    assert (x["info_cut"], x["info_full"]) == pytest.approx((28.714, 75.977), abs=1e-3)
    assert (x["period_min"], x["period_median"], x["period_max"]) == (0, 5, 48)
    checks = study.checks["p003-fig14-1c"]
    assert [c.name for c in checks] == ["identifies-treatment", "periods", "limit-as-published",
                                        "agreement-as-published", "noise-dominates",
                                        "sensitivity"]  # fmt: skip
    assert checks[4].passed is True  # Φ(0.0154/0.2227) ≈ 53 % < 90 %
    assert study.paper_setting and all(c.passed is not None for c in checks)
    assert checks[0].passed is False  # with the paper's likelihood ψ_T/T < 0 favours θ = 0
    assert checks[-1].passed is False  # one removal moves a release by log 12 > 2 log 2
    assert [d[2] for d in study.deviations] == ["note-ol-likelihood", "note-ol-belief", "note-ol-periods"]
    assert all(hasattr(study, name) for name in RECORDED) and study.metrics() == {}
    assert list(study.tables()) == ["p003-fig14-1c"]


def test_off_the_paper_setting_only_the_published_values_are_undefined(actg: pd.DataFrame) -> None:
    study = p003_fig14_1c.actg_stream(small("online-learning", n_centers=3))
    assert not study.paper_setting
    passed = {c.name: c.passed for c in study.checks["p003-fig14-1c"]}
    assert passed["periods"] is None and passed["limit-as-published"] is None
    assert passed["agreement-as-published"] is not None  # a claim, decided for any parameters
    assert passed["identifies-treatment"] is not None


def test_the_non_private_limit_does_not_depend_on_the_graph(actg: pd.DataFrame) -> None:
    ddi = sv.arm_cohort(actg, "ddI")
    centres = sv.cohort_centres(ddi.index.to_numpy(), 5)
    stream = sv.period_loglik(ddi.x, ddi.time, ddi.event, centres, np.array([0.0, p003_fig14_1c.THETA1]),
                              period_length=10)  # fmt: skip
    limits = [
        inf.time_averaged_ratios(inf.online_log_ratios(stream, networks.metropolis_hastings(
            networks.make_graph(kind, 5)).toarray()))[-1, :, 1]
        for kind in ("complete", "path")
    ]  # fmt: skip
    assert limits[0].mean() == pytest.approx(limits[1].mean(), abs=1e-15)
    assert not np.allclose(limits[0], limits[1], rtol=0, atol=1e-6)  # the centres' own values differ


def one(value: float, share: float, *, published: bool = True, sensitivity: float = 2.48) -> list:
    """Figure 14.1(c)'s checks at a non-private ψ_T/T ``value`` and a share of centres picking −log 2."""
    return reference.online.figure14_1c_checks(124, [0.441, 0.440], 0.95, 100, paper_value=value,
                                               paper_share=share, noise_sd=0.2227, uncut_value=0.0154,
                                               sensitivity=sensitivity,
                                               delta=2 * math.log(2), published=published)  # fmt: skip


def test_figure14_1c_checks_can_fail() -> None:
    good = reference.online.figure14_1c_checks(124, [0.441, 0.440], 0.95, 100, paper_value=0.5,
                                               paper_share=0.95, noise_sd=0.2227, uncut_value=0.6,
                                               sensitivity=1.2, delta=2 * math.log(2),
                                               published=True)  # fmt: skip
    assert all(c.passed for c in good if c.name != "noise-dominates")
    bad = reference.online.figure14_1c_checks(123, [0.441, -0.0115], 0.4, 100, paper_value=-0.0115,
                                              paper_share=0.512, noise_sd=0.2227, uncut_value=0.0154,
                                              sensitivity=2.48, delta=2 * math.log(2),
                                              published=True)  # fmt: skip
    assert [c.name for c in bad if c.passed] == ["noise-dominates"]
    assert not any(c.passed for c in good if c.name == "noise-dominates")  # ψ_T/T = 0.5 beats sd 0.22
    assert "19 times |ψ_T/T|" in bad[0].detail and "up to 2.480" in bad[-1].detail


def test_identification_needs_a_high_share_not_a_coin_flip() -> None:
    """The headline needs the non-private value to favour −log 2 and at least 1 − 2η = 90 % of the centres
    to pick it: the uncut stream's ψ_T/T = +0.0154 with a noise 14 times larger picks −log 2 at about 53 %
    of the centres, a coin flip, and must not pass."""
    assert one(0.0154, 0.53)[0].passed is False
    assert one(0.0154, 0.90)[0].passed is True
    assert one(-0.01, 0.95)[0].passed is False and one(0.02, 0.4)[0].passed is False
    assert one(0.0, 0.95)[0].detail.endswith("ψ_T/T is 0")


def test_off_the_published_setting_only_the_notebook_values_of_figure14_1c_are_undefined() -> None:
    """The periods and the as-published ψ_T/T are values of the authors' run: off its setting they are
    undefined; the claims (the centres identify −log 2, agreement, §12's sensitivity) are decided."""
    checks = one(-0.01, 0.5, published=False)
    assert [c.passed for c in checks] == [False, None, None, True, True, False]
    assert all(c.detail.startswith("undefined") for c in checks[1:3])
    assert one(-0.01, 0.5, published=False, sensitivity=1.0)[-1].passed is True


def test_the_sensitivity_of_the_cut_stream_is_measured_per_release(actg: pd.DataFrame) -> None:
    """Removing the worst patient of the cut ACTG stream moves its release by log 12 (period 73, centre 5 as
    the figures number them, four events); 40 of the 394 releases that hold a patient move by more than
    Δ = 2 log 2, and 9 by exactly Δ (three of them a unit in the last place above it)."""
    ddi = sv.arm_cohort(actg, "ddI")
    centres = sv.cohort_centres(ddi.index.to_numpy(), 5)
    states = np.array([0.0, p003_fig14_1c.THETA1])
    cohort = Cohort(ddi, centres, states, 2 * math.log(2))
    sens = p003_fig14_1c.sensitivity(cohort, 10.0, 1.0)
    assert sens["max"] == pytest.approx(math.log(12), rel=1e-12)
    assert (sens["period"], sens["centre"], sens["over"], sens["at"], sens["releases"]) == (73, 5, 40, 9, 394)
    assert sens["treatment_max"] < 2 * math.log(2) < sens["max"]
    assert sens["eps_worst"] == pytest.approx(1.6887, abs=1e-4)


def test_p003_fig14_1c_cost_is_two_streams_of_ten_day_periods_and_their_sensitivity() -> None:
    values = dict(small("online-learning"))
    T, R, n = 124, 20, 5
    cost = p003_fig14_1c.cost(values)
    seconds = 2 * T * (R + 1) * n * 2 * 1e-7 * (1 + n / 25) + 2 * 2 * T * 5e-5 + 2 * T * n * 5e-4
    assert cost.seconds == pytest.approx(seconds, rel=1e-12)
    assert cost.peak == 8 * 3 * T * R * n * 2 and cost.kept == 0
