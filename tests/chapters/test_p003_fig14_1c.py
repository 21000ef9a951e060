"""Paper 003, Figure 14.1(c) (Chapter 5): ACTG 175 as a stream against its formulas, its checks on and
off the published setting, and the graph-free non-private limit."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from small import small

from dpnet import inference as inf
from dpnet import networks, reference
from dpnet import survival as sv
from dpnet.chapters.online_learning import p003_fig14_1c
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
    assert study.agreement("treatment/as_published") == pytest.approx(np.mean(ratios > 0))  # limit 0.44 > 0
    checks = study.checks["p003-fig14-1c"]
    assert [c.name for c in checks] == ["periods", "limit-as-published", "agreement-as-published"]
    assert study.paper_setting and all(c.passed is not None for c in checks)
    assert [d[2] for d in study.deviations] == ["note-ol-likelihood", "note-ol-belief", "note-ol-periods"]
    assert all(hasattr(study, name) for name in RECORDED) and study.metrics() == {}
    assert list(study.tables()) == ["p003-fig14-1c"]


def test_off_the_paper_setting_only_the_published_values_are_undefined(actg: pd.DataFrame) -> None:
    study = p003_fig14_1c.actg_stream(small("online-learning", n_centers=3))
    assert not study.paper_setting
    passed = {c.name: c.passed for c in study.checks["p003-fig14-1c"]}
    assert passed["periods"] is None and passed["limit-as-published"] is None
    assert passed["agreement-as-published"] is not None  # a claim, decided for any parameters


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


def test_figure14_1c_checks_can_fail() -> None:
    good = reference.online.figure14_1c_checks(124, [0.441, 0.440], 0.95, 100, published=True)
    assert all(c.passed for c in good)
    bad = reference.online.figure14_1c_checks(123, [0.441, -0.0115], 0.4, 100, published=True)
    assert not any(c.passed for c in bad)


def test_off_the_published_setting_only_the_notebook_values_of_figure14_1c_are_undefined() -> None:
    """The periods and the as-published limit are values of the authors' run: off its setting they are
    undefined; the claim (agreement) is decided."""
    one = reference.online.figure14_1c_checks(124, [0.441, 0.440], 0.95, 100, published=False)
    assert [c.passed for c in one] == [None, None, True]
    assert all(c.detail.startswith("undefined") for c in one[:2])


def test_p003_fig14_1c_cost_is_two_streams_of_ten_day_periods() -> None:
    values = dict(small("online-learning"))
    T, R, n = 124, 20, 5
    cost = p003_fig14_1c.cost(values)
    seconds = 2 * T * (R + 1) * n * 2 * 1e-7 * (1 + n / 25) + 2 * 2 * T * 5e-5
    assert cost.seconds == pytest.approx(seconds, rel=1e-12)
    assert cost.peak == 8 * 3 * T * R * n * 2 and cost.kept == 0
