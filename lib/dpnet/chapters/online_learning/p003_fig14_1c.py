"""Paper 003, Figure 14.1(c): ACTG 175 as a stream of ten-day periods to five centres, with the paper's
likelihood and as published; the result type of both clinical streams (:class:`StreamStudy`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import inference as inf
from dpnet import plotting
from dpnet import survival as sv
from dpnet.chapters.online_learning._common import (
    Cohort,
    final_limit,
    on_paper_setting,
    stream_cost,
    stream_runs,
)
from dpnet.params import Cost, Parameters
from dpnet.reference import online as ref
from dpnet.results import Check

#: The alternative of the ACTG stream: hazard ratio 1/2.
THETA1 = -math.log(2.0)
#: The period of the published stream: ten days (the authors' code; the caption says "daily", see the
#: reproduction notes).
PAPER_PERIOD_DAYS = 10.0
#: The longest time of the cohort, in days, so the number of periods a period length gives.
LAST_DAY = 1231
#: Which belief each likelihood's row shows: Algorithm 3's terminal belief with the paper's likelihood,
#: the time-averaged "belief" of the authors' code as published.
BELIEF = {"paper": "terminal", "as_published": "time_average"}
#: The item's deviations from the paper, as (title, reproduction-notes label).
DEVIATIONS: tuple[tuple[str, str], ...] = (
    ("authors' likelihood", "note-ol-likelihood"),
    ("time-averaged belief", "note-ol-belief"),
    ("periods of ten days, not one", "note-ol-periods"),
)


def cost(values: Mapping[str, Any]) -> Cost:
    """Two streams (the paper's likelihood, as published) of ``⌊1231 / period_days⌋ + 1`` periods each, on
    ``n_centers`` centres, with ``replications`` private runs per stream (the shared ``stream_cost``)."""
    return stream_cost(math.floor(LAST_DAY / values["period_days"]) + 1, 2, values)


@dataclass(frozen=True)
class StreamStudy:
    """A clinical cohort as a stream (Figure 14.1(c) or 14.6): per version, the non-private run (Algorithm
    5) and ``replications`` private runs (Algorithm 3).

    Attributes
    ----------
    item, cohort
        The catalogue item and the cohort's name in the metrics (``actg``, ``cancer``).
    runs
        Version (``"treatment/paper"``, ``"raw/as_published"``, …) → its runs.
    titles, states
        Each version's panel title, and the states' labels.
    deltas
        Each version's sensitivity Δ.
    extra
        Numbers the chapter discusses: the limit of uncut risk sets, the standard deviation of the time
        average's noise at T and its ratio to the paper-likelihood limit (ACTG); the as-published limit
        with tied times in row order (cancer).
    checks, paper_setting
        Against the paper; whether the run uses the published setting.
    notes
        The item's deviations from the paper, as (title, reproduction-notes label).
    """

    item: str
    cohort: str
    runs: Mapping[str, inf.OnlineRuns]
    titles: Mapping[str, str]
    states: tuple[str, ...]
    deltas: Mapping[str, float]
    extra: Mapping[str, float]
    checks: Mapping[str, list[Check]]
    paper_setting: bool
    notes: tuple[tuple[str, str], ...]

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return tuple((self.item, title, note) for title, note in self.notes)

    def metrics(self) -> dict[str, Any]:
        """None: :func:`~dpnet.chapters.online_learning.clinical_streams.stream_summary` records both
        studies' numbers."""
        return {}

    @property
    def periods(self) -> int:
        return next(iter(self.runs.values())).periods

    def key(self, version: str) -> str:
        """The version's key in the metrics: ``actg/paper``, ``cancer-raw/as_published``."""
        cov, v = version.split("/")
        return f"{self.cohort}/{v}" if self.cohort == "actg" else f"{self.cohort}-{cov}/{v}"

    def limit(self, version: str) -> float:
        """The non-private time-averaged ratio at T, mean over the centres."""
        return final_limit(self.runs[version])

    def agreement(self, version: str) -> float:
        """The share of private runs (and centres) that end on the side of the non-private limit."""
        return self.runs[version].agreement()

    def final(self, version: str) -> list[float]:
        """The drawn private run's time-averaged ratio at T, per centre."""
        return inf.time_averaged_ratios(self.runs[version].demo)[-1, :, 1].tolist()

    @property
    def table(self) -> pd.DataFrame:
        return pd.DataFrame([{
            "stream": self.titles[v], "T": r.periods, "Δ": self.deltas[v], "Laplace scale": r.noise_scale,
            "non-private limit": self.limit(v), "private runs on its side": self.agreement(v),
        } for v, r in self.runs.items()])  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        return {self.item: self.table}

    def figure(self) -> Figure:
        """Per version: every centre's time-averaged ratio of the drawn private run against the non-private
        limit (top), and its final beliefs (bottom)."""
        k = len(self.runs)
        fig, axes = plotting.panel_grid(2, k, height=3.0)
        for c, (version, runs) in enumerate(self.runs.items()):
            belief = BELIEF[version.split("/")[1]]
            plotting.ratio_paths(
                axes[0, c], inf.time_averaged_ratios(runs.demo)[:, :, 1], limit=self.limit(version)
            )
            axes[0, c].set(title=self.titles[version], ylabel="(ψ(θ1) − ψ(0)) / t")
            beliefs = inf.online_beliefs(runs.demo[None], kind=belief)[0]  # type: ignore[arg-type]
            plotting.belief_bars(axes[1, c], beliefs, [f"θ = {s}" for s in self.states],
                                 title=f"final beliefs ({belief.replace('_', '-')})")  # fmt: skip
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 6))
        return fig


def actg_stream(P: Parameters) -> StreamStudy:
    """Figure 14.1(c): ACTG 175, ddI against ZDV, streamed every ``period_days`` days to ``n_centers``
    centres, with the paper's likelihood and as published (stream ``p003-fig14-1c``, children 0 and 1)."""
    ddi = sv.arm_cohort(sv.load_actg175(), "ddI")
    centres = sv.cohort_centres(ddi.index.to_numpy(), P.n_centers)
    states = np.array([0.0, THETA1])
    cohort = Cohort(ddi, centres, states, sv.cox_sensitivity(abs(THETA1)))
    variants = [("treatment", "paper", "row"), ("treatment", "as_published", "row")]
    runs = stream_runs(P, "p003-fig14-1c", {"treatment": cohort}, variants, P.period_days)
    pooled = sv.centre_loglik(ddi.x, ddi.time, ddi.event, centres, states).sum(axis=0)
    paper, as_published = runs["treatment/paper"], runs["treatment/as_published"]
    T = paper.periods
    noise_sd = 2 * paper.noise_scale / math.sqrt(P.n_centers * T)
    limit = final_limit(paper)
    extra = {"full_limit": float((pooled[1] - pooled[0]) / (P.n_centers * T)), "noise_sd": float(noise_sd),
             "noise_to_limit": float(noise_sd / abs(limit)) if limit else math.nan}  # fmt: skip
    titles = {"treatment/paper": f"paper's likelihood, ε = {P.eps:g}",
              "treatment/as_published": f"as published, ε = {P.eps:g}"}  # fmt: skip
    published = on_paper_setting(P, "period_days")
    checks = ref.figure14_1c_checks(T, as_published.limit[:, 1].tolist(), as_published.agreement(),
                                    P.replications, published=published)  # fmt: skip
    deltas = dict.fromkeys(runs, cohort.delta)
    return StreamStudy("p003-fig14-1c", "actg", runs, titles, ("0", "−log 2"), deltas, extra,
                       {"p003-fig14-1c": checks}, published, DEVIATIONS)  # fmt: skip
