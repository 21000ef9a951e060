"""The book's table ``clinical-streams``: both clinical streams' non-private time averages at T, final
ratios and agreements (Figures 14.1(c) and 14.6), recorded as the chapter's metrics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from dpnet.chapters.online_learning.p003_fig14_1c import StreamStudy
from dpnet.params import Cost
from dpnet.results import Check


def cost(values: Mapping[str, Any]) -> Cost:
    """Reads the studies' runs: negligible."""
    return Cost()


@dataclass(frozen=True)
class StreamSummary:
    """Both clinical studies' non-private ``ψ_T/T``, drawn private runs' final ratios and agreements,
    keyed ``actg/paper``, …, ``cancer-top10/paper`` (the metric ``ol_limit_nodp`` keeps its name: it holds
    the non-private ``ψ_T/T``)."""

    studies: tuple[StreamStudy, ...]

    #: The studies record their own settings and checks.
    paper_setting = True

    @property
    def checks(self) -> Mapping[str, list[Check]]:
        return {}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return ()

    def tables(self) -> dict[str, pd.DataFrame]:
        return {}

    @property
    def table(self) -> pd.DataFrame:
        """One row per stream: its key, T, the non-private ψ_T/T and the share of private runs on its side."""
        return pd.DataFrame([
            {"stream": s.key(v), "T": s.periods, "non-private ψ_T/T": s.limit(v),
             "private runs on its side": s.agreement(v)}
            for s in self.studies for v in s.runs
        ])  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        versions = [(s, v) for s in self.studies for v in s.runs]
        return {
            "ol_limit_nodp": {s.key(v): s.limit(v) for s, v in versions},
            "ol_final_ratio": {s.key(v): s.final(v) for s, v in versions},
            "ol_agreement": {s.key(v): s.agreement(v) for s, v in versions},
        }


def stream_summary(*studies: StreamStudy) -> StreamSummary:
    """The metrics of the clinical streams, in the order given."""
    return StreamSummary(tuple(studies))
