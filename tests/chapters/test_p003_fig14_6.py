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
        "dashed-line",
        "periods",
        "limit-as-published",
        "favours-null",
        "disagreement-not-rare",
    ]
    # the caption's dashed line is a value of the authors' likelihood, not of eq. (3)
    assert [c.passed for c in checks[:4]] == [False, True, True, True]
    top = study.runs["top10/paper"]
    assert study.extra["noise_sd_top10"] == pytest.approx(2 * top.noise_scale / math.sqrt(5 * 81))
    assert study.extra["full_limit_top10"] == pytest.approx(0.01951, abs=5e-5)
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
    assert [c.passed for c in six] == [False, True, True, True, True]
    six = reference.online.figure14_6_checks(80, -8.7, 3.0, 0.99, 100, published=True)
    assert [c.passed for c in six] == [False, False, False, False, False]
    # the headline passes only when eq. (3) gives the dashed line's −17.0
    six = reference.online.figure14_6_checks(81, -16.96, -17.2, 0.49, 100, published=True)
    assert six[0].name == "dashed-line" and six[0].passed is True


def test_off_the_published_setting_only_the_notebook_values_of_figure14_6_are_undefined() -> None:
    """The periods, the as-published limit and the dashed line are values of the authors' run: off its
    setting they are undefined; the statements (the paper's likelihood favours θ = 0, a disagreement that is
    no rare draw) are decided."""
    six = reference.online.figure14_6_checks(80, -8.7, 3.0, 0.99, 100, published=False)
    assert [c.passed for c in six] == [None, None, None, False, False]


def test_p003_fig14_6_cost_is_three_private_streams_and_one_without_privacy() -> None:
    """The row-order stream runs Algorithm 5 only: it is costed without the replications."""
    values = dict(small("online-learning"))
    T, R, n = 81, 20, 5
    cost = p003_fig14_6.cost(values)
    private = 3 * T * (R + 1) * n * 2 * 1e-7 * (1 + n / 25) + 2 * 3 * T * 5e-5
    row_order = T * 1 * n * 2 * 1e-7 * (1 + n / 25) + 2 * T * 5e-5
    assert cost.seconds == pytest.approx(private + row_order, rel=1e-12)
    assert cost.peak == 8 * 3 * T * R * n * 2 and cost.kept == 0
