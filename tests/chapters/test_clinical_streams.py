"""The book's table ``clinical-streams`` (Chapter 5): both clinical streams' limits, final ratios and
agreements, one row per stream; what one patient changes in a stream's release, and the information that
cut risk sets keep (:mod:`dpnet.survival.streams`), against brute-force recomputations."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpnet.chapters import resolve
from dpnet.chapters.online_learning import clinical_streams, p003_fig14_1c
from dpnet.errors import ParameterError
from dpnet.params import Cost
from dpnet.results import RECORDED
from dpnet.survival import period_loglik
from dpnet.survival.streams import patient_changes, stream_information


def test_clinical_streams_summary_is_the_studies_numbers(actg: pd.DataFrame) -> None:
    study = p003_fig14_1c.actg_stream(resolve("online-learning", {"replications": 20}))
    summary = clinical_streams.stream_summary(study)
    assert summary.table["stream"].tolist() == ["actg/paper", "actg/as_published"]
    assert summary.table["non-private ψ_T/T"].tolist() == [study.limit(v) for v in study.runs]
    metrics = summary.metrics()
    assert metrics["ol_final_ratio"]["actg/paper"] == study.final("treatment/paper")
    assert metrics["ol_agreement"]["actg/as_published"] == study.agreement("treatment/as_published")
    assert all(hasattr(summary, name) for name in RECORDED)
    assert (summary.checks, summary.deviations, summary.tables()) == ({}, (), {})


def test_clinical_streams_cost_is_negligible() -> None:
    assert clinical_streams.cost(dict(resolve("online-learning", {}))) == Cost()


def _cohort() -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(7)
    n = 40
    x = rng.integers(0, 2, n).astype(float)
    time = rng.integers(1, 60, n).astype(float)  # whole days: ties within periods
    event = (rng.random(n) < 0.7).astype(float)
    centres = rng.integers(0, 3, n)
    return x, time, event, centres


def test_patient_changes_are_the_changes_of_the_patients_release() -> None:
    """Row k is log γ′ − log γ of patient k's period and centre, by removing k (or changing its treatment or
    event) and recomputing the whole stream; every other release is unchanged."""
    x, time, event, centres = _cohort()
    theta = np.array([0.0, -math.log(2)])
    base = period_loglik(x, time, event, centres, theta, period_length=10.0)
    period = np.floor(time / 10).astype(int)
    for change in ("remove", "treatment", "event"):
        rows = patient_changes(x, time, event, centres, theta, period_length=10.0, change=change)
        for k in range(len(x)):
            keep = np.arange(len(x)) != k if change == "remove" else np.ones(len(x), bool)
            xs, es = x.copy(), event.copy()
            if change == "treatment":
                xs[k] = 1 - xs[k]
            if change == "event":
                es[k] = 1 - es[k]
            new = period_loglik(xs[keep], time[keep], es[keep], centres[keep], theta, period_length=10.0)
            diff = new - base[: len(new)]
            np.testing.assert_allclose(diff[period[k], centres[k]], rows[k], atol=1e-10)
            diff[period[k], centres[k]] = 0.0
            assert np.abs(diff).max() < 1e-10
    with pytest.raises(ParameterError, match="change must be"):
        patient_changes(x, time, event, centres, theta, period_length=10.0, change="time")  # type: ignore[arg-type]


def test_stream_information_is_the_curvature_of_the_summed_likelihood() -> None:
    """The observed information at θ is minus the second difference of the stream's summed log-likelihood,
    with risk sets cut at the periods' boundaries or kept whole within each centre (period_length=None)."""
    x, time, event, centres = _cohort()
    h = 1e-3
    grid = np.array([0.2 - h, 0.2, 0.2 + h])
    cut = period_loglik(x, time, event, centres, grid, period_length=10.0).sum(axis=(0, 1))
    whole = period_loglik(x, time, event, centres, grid, period_length=1e6).sum(axis=(0, 1))
    for total, length in ((cut, 10.0), (whole, None)):
        curvature = -(total[0] - 2 * total[1] + total[2]) / h**2
        assert stream_information(x, time, event, centres, 0.2, period_length=length) == pytest.approx(
            curvature, rel=1e-5
        )
    assert stream_information(x, time, event, centres, 0.2, period_length=10.0) < stream_information(
        x, time, event, centres, 0.2, period_length=None
    )
