"""The book's table ``clinical-streams`` (Chapter 5): both clinical streams' limits, final ratios and
agreements, one row per stream."""

from __future__ import annotations

import pandas as pd

from dpnet.chapters import resolve
from dpnet.chapters.online_learning import clinical_streams, p003_fig14_1c
from dpnet.params import Cost
from dpnet.results import RECORDED


def test_clinical_streams_summary_is_the_studies_numbers(actg: pd.DataFrame) -> None:
    study = p003_fig14_1c.actg_stream(resolve("online-learning", {"replications": 20}))
    summary = clinical_streams.stream_summary(study)
    assert summary.table["stream"].tolist() == ["actg/paper", "actg/as_published"]
    assert summary.table["non-private limit"].tolist() == [study.limit(v) for v in study.runs]
    metrics = summary.metrics()
    assert metrics["ol_final_ratio"]["actg/paper"] == study.final("treatment/paper")
    assert metrics["ol_agreement"]["actg/as_published"] == study.agreement("treatment/as_published")
    assert all(hasattr(summary, name) for name in RECORDED)
    assert (summary.checks, summary.deviations, summary.tables()) == ({}, (), {})


def test_clinical_streams_cost_is_negligible() -> None:
    assert clinical_streams.cost(dict(resolve("online-learning", {}))) == Cost()
