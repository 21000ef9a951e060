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
from scipy import stats

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
from dpnet.survival.streams import patient_changes, stream_information

#: The alternative of the ACTG stream: hazard ratio 1/2.
THETA1 = -math.log(2.0)
#: The period of the published stream: ten days (§14.1 and the authors' code; the caption says "daily",
#: see the reproduction notes).
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
    ("periods grouped by time, not an even split", "note-ol-periods"),
)


#: The patients of the ACTG 175 cohort (ddI against ZDV), and the seconds of measuring one release's
#: changes for one kind of change (:func:`sensitivity`: about 0.35 s for the 394 releases of ten-day periods
#: and two kinds, measured on this book's 2-core machine).
ACTG_PATIENTS = 1093
RELEASE_SECONDS = 5e-4


def cost(values: Mapping[str, Any]) -> Cost:
    """Two streams (the paper's likelihood, as published) of ``⌊1231 / period_days⌋ + 1`` periods each, on
    ``n_centers`` centres, with ``replications`` private runs per stream (the shared ``stream_cost``); and
    the sensitivity of the cut stream, two kinds of change over at most one release per patient."""
    periods = math.floor(LAST_DAY / values["period_days"]) + 1
    streams = stream_cost(periods, 2, values)
    releases = min(periods * values["n_centers"], ACTG_PATIENTS)
    return Cost(seconds=streams.seconds + 2 * releases * RELEASE_SECONDS, peak=streams.peak)


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
        Numbers the chapter discusses. ACTG (:func:`actg_stream`): the standard deviation of the time
        average's noise at T and its ratio to the paper-likelihood ``ψ_T/T``, the share of private runs
        whose argmax is −log 2; with uncut risk sets, the ``ψ_T/T`` a stream would end on, the noise's
        ratio to it, the share of centres a Gaussian noise would let pick −log 2 and the periods after
        which the noise would fall to its size; the Fisher information at θ = 0 with cut and uncut risk
        sets; the patients per period; the stream's sensitivity to one patient (:func:`sensitivity`).
        Cancer: the as-published ``ψ_T/T`` with tied times in row order, and for the top-10 % covariate
        the uncut ``ψ_T/T`` and the noise's standard deviation.
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
        """The non-private run's time-averaged ratio at the stream's last period T, ``ψ_T/T``, mean over the
        centres: the dashed line of the published panels. The cohort ends at T, so this is a value at T,
        not the limit ``t → ∞`` of a stream that goes on."""
        return final_limit(self.runs[version])

    def agreement(self, version: str) -> float:
        """The share of private runs (and centres) that end on the side of the non-private ``ψ_T/T``."""
        return self.runs[version].agreement()

    def final(self, version: str) -> list[float]:
        """The drawn private run's time-averaged ratio at T, per centre."""
        return inf.time_averaged_ratios(self.runs[version].demo)[-1, :, 1].tolist()

    @property
    def table(self) -> pd.DataFrame:
        return pd.DataFrame([{
            "stream": self.titles[v], "T": r.periods, "Δ": self.deltas[v], "Laplace scale": r.noise_scale,
            "non-private ψ_T/T": self.limit(v), "private runs on its side": self.agreement(v),
        } for v, r in self.runs.items()])  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        return {self.item: self.table}

    def figure(self) -> Figure:
        """Per version: every centre's time-averaged ratio of the drawn private run against the non-private
        run's at T (top), and its final beliefs (bottom)."""
        k = len(self.runs)
        fig, axes = plotting.panel_grid(2, k, height=3.0)
        for c, (version, runs) in enumerate(self.runs.items()):
            belief = BELIEF[version.split("/")[1]]
            plotting.ratio_paths(axes[0, c], inf.time_averaged_ratios(runs.demo)[:, :, 1],
                                 limit=self.limit(version), limit_label="non-private, at T")  # fmt: skip
            ratio = f"(ψ({self.states[1]}) − ψ({self.states[0]})) / t"
            axes[0, c].set(title=self.titles[version], ylabel=ratio)
            beliefs = inf.online_beliefs(runs.demo[None], kind=belief)[0]  # type: ignore[arg-type]
            plotting.belief_bars(axes[1, c], beliefs, [f"θ = {s}" for s in self.states],
                                 title=f"final beliefs ({belief.replace('_', '-')})")  # fmt: skip
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 6))
        return fig


def picks(runs: inf.OnlineRuns, state: int = 1) -> float:
    """The share of (private run, centre) pairs whose Algorithm 3 output, the argmax of the terminal belief,
    is ``state`` (ties count against it)."""
    return float(np.mean(inf.identifies(runs.final, state)))


def sensitivity(cohort: Cohort, period: float, eps: float) -> dict[str, float]:
    """What one patient does to the release of its period and centre (the paper's likelihood, cut risk
    sets; :func:`~dpnet.survival.streams.patient_changes`): the largest change when a patient is removed
    and where it happens (its period, and its centre numbered from 1 as the figures number them), how
    many non-empty releases one removal moves by more than the sensitivity ``Δ`` of the noise and how many
    by exactly ``Δ`` (within a relative :data:`~dpnet.reference.online.SENSITIVITY_RTOL`: rounding puts a
    change of exactly Δ a few units in the last place either side of it), the largest
    change of one treatment, and the budget the worst release actually spends,
    ``ε · max_k Σ_θ |change_k(θ)| / (|Θ| Δ)``, for Laplace noise of scale ``Δ|Θ|/ε`` per state."""
    f = cohort.frame
    args = (f.x, f.time, f.event, cohort.centres, cohort.states)
    removed = np.abs(patient_changes(*args, period_length=period))
    treated = np.abs(patient_changes(*args, period_length=period, change="treatment"))
    cell = sv.periods(f.time.to_numpy(float), period) * (cohort.centres.max() + 1) + cohort.centres
    worst = pd.Series(removed.max(axis=1)).groupby(cell).max()
    k = int(np.argmax(removed.max(axis=1)))
    m, bound = len(cohort.states), cohort.delta * (1 + ref.SENSITIVITY_RTOL)
    return {"max": float(removed.max()), "period": float(sv.periods([f.time.iloc[k]], period)[0]),
            "centre": float(cohort.centres[k] + 1), "over": float(np.sum(worst > bound)),
            "at": float(np.sum(np.abs(worst - cohort.delta) <= bound - cohort.delta)),
            "releases": float(len(worst)), "treatment_max": float(treated.max()),
            "eps_worst": float(eps * removed.sum(axis=1).max() / (m * cohort.delta))}  # fmt: skip


def actg_stream(P: Parameters) -> StreamStudy:
    """Figure 14.1(c): ACTG 175, ddI against ZDV, streamed every ``period_days`` days to ``n_centers``
    centres, with the paper's likelihood and as published (stream ``p003-fig14-1c``, children 0 and 1); the
    numbers the chapter sets beside it (``StreamStudy.extra``)."""
    ddi = sv.arm_cohort(sv.load_actg175(), "ddI")
    centres = sv.cohort_centres(ddi.index.to_numpy(), P.n_centers)
    states = np.array([0.0, THETA1])
    cohort = Cohort(ddi, centres, states, sv.cox_sensitivity(abs(THETA1)))
    variants = [("treatment", "paper", "row"), ("treatment", "as_published", "row")]
    runs = stream_runs(P, "p003-fig14-1c", {"treatment": cohort}, variants, P.period_days)
    pooled = sv.centre_loglik(ddi.x, ddi.time, ddi.event, centres, states).sum(axis=0)
    paper, as_published = runs["treatment/paper"], runs["treatment/as_published"]
    T, n = paper.periods, P.n_centers
    noise_sd = 2 * paper.noise_scale / math.sqrt(n * T)
    limit, full = final_limit(paper), float((pooled[1] - pooled[0]) / (n * T))
    per_period = np.bincount(sv.periods(ddi.time.to_numpy(float), P.period_days) - 1, minlength=T)
    info = [stream_information(ddi.x, ddi.time, ddi.event, centres, 0.0, period_length=length)
            for length in (P.period_days, None)]  # fmt: skip
    extra = {"noise_sd": float(noise_sd), "paper_picks": picks(paper), "full_limit": full,
             "noise_to_limit": float(noise_sd / abs(limit)) if limit else math.nan,
             "full_noise_ratio": float(noise_sd / abs(full)) if full else math.nan,
             "full_picks_gaussian": float(stats.norm.cdf(full / noise_sd)),
             "full_periods": float((2 * paper.noise_scale / full) ** 2 / n) if full else math.nan,
             "info_cut": info[0], "info_full": info[1], "period_min": float(per_period.min()),
             "period_median": float(np.median(per_period)), "period_max": float(per_period.max()),
             **{f"sens_{k}": v for k, v in sensitivity(cohort, P.period_days, P.eps).items()}}  # fmt: skip
    titles = {"treatment/paper": f"paper's likelihood, ε = {P.eps:g}",
              "treatment/as_published": f"as published, ε = {P.eps:g}"}  # fmt: skip
    published = on_paper_setting(P, "period_days")
    checks = ref.figure14_1c_checks(T, as_published.limit[:, 1].tolist(), as_published.agreement(),
                                    P.replications, paper_value=limit, paper_share=picks(paper),
                                    noise_sd=noise_sd, uncut_value=full, sensitivity=extra["sens_max"],
                                    delta=cohort.delta, published=published)  # fmt: skip
    deltas = dict.fromkeys(runs, cohort.delta)
    return StreamStudy("p003-fig14-1c", "actg", runs, titles, ("0", "−log 2"), deltas, extra,
                       {"p003-fig14-1c": checks}, published, DEVIATIONS)  # fmt: skip
