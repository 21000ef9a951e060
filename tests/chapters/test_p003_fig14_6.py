"""Paper 003, Figure 14.6 (Chapter 5): the cancer cohort as a stream, its sensitivities, checks and
claims."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from small import small

from dpnet import reference
from dpnet import survival as sv
from dpnet.chapters.online_learning import clinical_streams, p003_fig14_6
from dpnet.results import RECORDED


def test_cancer_stream_sensitivities_checks_and_claims(samstein: pd.DataFrame) -> None:
    study = p003_fig14_6.cancer_stream(small("online-learning", replications=20))
    raw = sv.tmb_cohort(samstein, "raw")
    assert study.deltas["raw/paper"] == pytest.approx(2 * abs(math.log(0.15)) * raw.x.max())
    assert study.deltas["top10/paper"] == pytest.approx(2 * abs(math.log(0.15)))
    assert study.periods == 81 and study.limit("raw/as_published") == pytest.approx(-16.962, abs=1e-3)
    checks = study.checks["p003-fig14-6"]
    assert [c.name for c in checks] == [
        "periods",
        "limit-as-published",
        "paper-claim",
        "disagreement-not-rare",
    ]
    assert all("spec" not in c.claim and "spec" not in c.detail for c in checks)
    summary = clinical_streams.stream_summary(study).metrics()
    assert list(summary["ol_agreement"]) == [
        "cancer-raw/as_published",
        "cancer-raw/paper",
        "cancer-top10/paper",
    ]
    assert all(hasattr(study, name) for name in RECORDED) and study.paper_setting
    assert [d[2] for d in study.deviations] == [note for _, note in p003_fig14_6.DEVIATIONS]
    assert list(study.tables()) == ["p003-fig14-6"]


def test_figure14_6_checks_can_fail() -> None:
    six = reference.online.figure14_6_checks(81, -16.96, -25.8, 0.49, 100, published=True)
    assert [c.passed for c in six] == [True, True, False, True]
    six = reference.online.figure14_6_checks(80, -8.7, 3.0, 0.99, 100, published=True)
    assert [c.passed for c in six] == [False, False, True, False]


def test_off_the_published_setting_only_the_notebook_values_of_figure14_6_are_undefined() -> None:
    """The periods and the as-published limit are values of the authors' run: off its setting they are
    undefined; the claims (the paper's limit, a disagreement that is no rare draw) are decided."""
    six = reference.online.figure14_6_checks(80, -8.7, 3.0, 0.99, 100, published=False)
    assert [c.passed for c in six] == [None, None, True, False]


def test_p003_fig14_6_cost_is_four_streams_of_monthly_periods() -> None:
    values = dict(small("online-learning"))
    T, R, n = 81, 20, 5
    cost = p003_fig14_6.cost(values)
    seconds = 4 * T * (R + 1) * n * 2 * 1e-7 * (1 + n / 25) + 2 * 4 * T * 5e-5
    assert cost.seconds == pytest.approx(seconds, rel=1e-12)
    assert cost.peak == 8 * 3 * T * R * n * 2 and cost.kept == 0
