"""Paper 003, Figure 6: each private algorithm's distance to its own non-private twin against ε, with the
first-order baseline, with the paper's mathematics and as published."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import survival as sv
from dpnet.params import Cost, Parameters
from dpnet.plotting import band_curves, panel_grid
from dpnet.reference import identification as ref
from dpnet.results import Check
from dpnet.survival import comparison
from dpnet.sweep import sweep

__all__ = ["FirstOrderComparison", "cost", "first_order_comparison"]

#: Measured on this 2-core machine (one core): one Figure 6 point, beyond its replications (schedules,
#: Cox models); one replication of one point, per n² (Algs 1-2, 4, the diffusion); one period of one
#: centre of one replication of the online learning (Alg 5).
_TASK_SECONDS = 0.27
_GOSSIP_SECONDS = 1e-5
_PERIOD_SECONDS = 2.3e-7
#: The last day of follow-up in ACTG 175, so the number of periods a period length gives.
_LAST_DAY = 1231


def cost(values: Mapping[str, Any]) -> Cost:
    """Figure 6: every (variant, n, ε) point with its replications.

    With ``R = replications``, Figure 6's ``N = fig6_n_values`` and ``E₆ = len(fig6_eps)``, its
    ``P = ⌊1231/period_days⌋ + 1`` periods and ``K₆ = ⌈2 log(2/fig6_alpha)⌉``:

    * seconds: ``2·E₆·Σ_{m∈N} (0.27 + R·(10⁻⁵·m² + 2.3·10⁻⁷·m·P))`` (both variants);
    * peak: a point's online noise and log-ratios, ``48·R·max(N)·(P + K₆)`` bytes.

    Calibrated on this 2-core machine, one core: four Figure 6 points at n = 10 took 1.9 s, 8.9 s and
    0.12 GiB at R = 2000, 3.9 s and 0.12 GiB at one-day periods, 15.1 s at n = 40 (the quick defaults'
    42 points: 25.7 s).
    """
    R, N, E6 = values["replications"], values["fig6_n_values"], len(values["fig6_eps"])
    periods = math.floor(_LAST_DAY / values["period_days"]) + 1
    K6 = math.ceil(2 * math.log(2 / values["fig6_alpha"]))
    seconds = (
        2 * E6 * sum(_TASK_SECONDS + R * (_GOSSIP_SECONDS * m**2 + _PERIOD_SECONDS * m * periods) for m in N)
    )
    return Cost(seconds=seconds, peak=48.0 * R * max(N) * (periods + K6))


def _fig6_setting(P: Parameters) -> bool:
    return P.is_paper(
        "fig6_n_values", "fig6_eps", "fig6_alpha", "fig6_rho", "period_days", "learning_rate", "b_theta"
    )


@dataclass(frozen=True, eq=False)
class FirstOrderComparison:
    """Paper 003, Figure 6: each private algorithm's distance to its own non-private twin, with the
    first-order baseline, for both variants (the paper's mathematics, and as published).

    Attributes
    ----------
    tvd
        One row per variant, algorithm, n and ε: mean, sd and standard error of the per-replication
        total variation distance at the last iteration, with the point's K and T.
    ratios
        One row per variant, n, ε and belief-propagation algorithm: the first-order mean distance over
        the algorithm's, with a 95 % interval (:func:`~dpnet.survival.comparison.error_ratio`).
    summary
        Per variant, the extremes of GM's ratios (:func:`~dpnet.survival.comparison.ratio_summary`).
    drift, error
        For the non-private first-order twin of the paper's update, the mean distance from the centres'
        average start and from the pooled maximum-likelihood estimate ``theta_hat``.
    step_bound
        ``2ηB_θB_xT`` at the largest T of the paper's variant (``B_x = 1``, a binary covariate): the most
        the gradient steps of the paper's update can add to consensus.
    theta_hat
        The pooled maximum-likelihood estimate of the log hazard ratio (ddI against ZDV).
    inflation
        The notebook's pooled ``Λ(θ₁) − Λ(0)`` over the paper's.
    checks, paper_setting
        Against the paper, keyed by item; whether the run uses Figure 6's setting.
    """

    tvd: pd.DataFrame
    ratios: pd.DataFrame
    summary: Mapping[str, dict[str, Any]]
    drift: float
    error: float
    step_bound: float
    theta_hat: float
    inflation: float
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    def metrics(self) -> dict[str, Any]:
        """The numbers the chapter reports, under their metrics.json names."""
        columns = ["variant", "algorithm", "n", "eps", "mean", "sd", "se", "K", "T"]
        return {
            "tvd_vs_eps": self.tvd[columns].to_dict("records"),
            "first_order_ratio": self.ratios.to_dict("records"),
            "first_order_drift": self.drift, "first_order_error": self.error,
            "first_order_step_bound": self.step_bound, "theta_hat": self.theta_hat,
            "inflation": self.inflation,
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables written to ``tables/``."""
        return {"p003-fig6": self.tvd, "p003-fig6-ratios": self.ratios,
                "p003-fig6-ground-truth": self.readings()}  # fmt: skip

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """On the paper's setting: no jitter, replications, and the as-published variant."""
        return tuple(("p003-fig6", *d) for d in ref.FIG6_DEVIATIONS) if self.paper_setting else ()

    def mle_below(self, variant: str) -> tuple[int, int]:
        """At how many of the (MLE algorithm, n, ε) points of ``variant`` the algorithm's mean distance is
        below the first-order method's, and of how many points."""
        mle, records = ref.FIG6_MLE_ALGORITHMS, self.tvd.to_dict("records")
        points = comparison.paired_means(records, variant, algorithms=mle, baseline="first-order")
        return sum(p["mean"] < p["baseline"] for p in points), len(points)

    def readings(self) -> pd.DataFrame:
        """The paper's variant, one row per n and ε: the MLE algorithms' mean distances (to their twins,
        which are the maximum-likelihood state), and the first-order method's in every reading
        (:data:`~dpnet.survival.comparison.FIRST_ORDER_READINGS`) beside its distance to its twin."""
        columns = [*ref.FIG6_MLE_ALGORITHMS, "first-order", *comparison.FIRST_ORDER_READINGS]
        paper = self.tvd[(self.tvd.variant == "paper") & self.tvd.algorithm.isin(columns)]
        table = paper.pivot_table(index=["n", "eps"], columns="algorithm", values="mean")
        return table[[c for c in columns if c in table.columns]]

    def reading_range(self, algorithm: str) -> tuple[float, float]:
        """The smallest and largest mean distance of ``algorithm`` (a column of :meth:`readings`) over the
        paper's points (``nan`` when it was not recorded)."""
        table = self.readings()
        if algorithm not in table.columns:
            return math.nan, math.nan
        return float(table[algorithm].min()), float(table[algorithm].max())

    def at_largest_eps(self, variant: str, algorithm: str) -> float:
        """The largest mean distance of ``algorithm`` over the numbers of centres, at the largest ε."""
        t = self.tvd[(self.tvd.variant == variant) & (self.tvd.algorithm == algorithm)]
        return float(t[t.eps == t.eps.max()]["mean"].max())

    def ratio_pivot(self) -> pd.DataFrame:
        """GM's ratios (first-order mean distance over GM's), one row per variant and n."""
        gm = self.ratios[self.ratios.algorithm == "GM"]
        return gm.pivot_table(index=["variant", "n"], columns="eps", values="ratio")

    def extremes(self) -> pd.DataFrame:
        """Per variant: the smallest ratio, the largest finite one and the largest lower 95 % limit, each
        with its n and ε, and how many points' intervals reach the claimed ratio."""
        rows = []
        for v, s in self.summary.items():
            gm = self.ratios[(self.ratios.algorithm == "GM") & (self.ratios.variant == v)]
            for what, key, value in (("smallest ratio", "smallest", "ratio"),
                                     ("largest finite ratio", "largest estimate", "ratio"),
                                     ("largest lower limit", "largest assured", "low")):  # fmt: skip
                point = s[key] or {"n": None, "eps": None, value: np.nan}
                rows.append(
                    {"variant": v, "what": what, "value": point[value], "n": point["n"], "ε": point["eps"]}
                )
            reach = int((gm.high >= ref.FIG6_CLAIMED_RATIO).sum())
            rows.append({"variant": v, "what": f"points whose interval reaches {ref.FIG6_CLAIMED_RATIO:g}×",
                         "value": reach, "n": None, "ε": None})  # fmt: skip
        frame = pd.DataFrame(rows)
        frame["value"] = pd.Series([row["value"] for row in rows], dtype=object)  # counts stay whole
        return frame

    def figure(self) -> Figure:
        """Two rows (the paper's mathematics, as published), one panel per algorithm: mean distance
        against ε, one curve per n, with ±1.96 standard errors; zeros drawn at 1e−3."""
        fig, axes = panel_grid(len(comparison.ALGORITHMS), len(comparison.VARIANTS), height=1.75,
                               sharex=True, sharey=True)  # fmt: skip
        for col, variant in enumerate(comparison.VARIANTS):
            for row, algorithm in enumerate(comparison.ALGORITHMS):
                ax = axes[row, col]
                part = self.tvd[(self.tvd.variant == variant) & (self.tvd.algorithm == algorithm)]
                band_curves(ax, part, x="eps", group="n", floor=1e-3)
                ax.set(yscale="log", ylim=(8e-4, 1.2))
                ax.set_title(f"{algorithm}, {'paper' if variant == 'paper' else 'as published'}", loc="left")
            axes[-1, col].set_xlabel("privacy budget ε")
        fig.supylabel("TVD to the non-private twin")
        fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center", ncol=3)
        return fig


def first_order_comparison(P: Parameters, actg: pd.DataFrame) -> FirstOrderComparison:
    """Figure 6 on the ddI/ZDV cohort: every (variant, n, ε) point with ``replications`` runs, swept on
    stream ``p003-fig6`` (task key: the variant's and ε's positions, and n)."""
    ddi = sv.arm_cohort(actg, "ddI")
    cohort = dict(x=ddi.x.to_numpy(float), time=ddi.time.to_numpy(float), event=ddi.event.to_numpy(float),
                  row_index=ddi.index.to_numpy())  # fmt: skip
    fixed = dict(theta_alt=ref.FIG6_THETA_ALT, alpha=P.fig6_alpha, rho=P.fig6_rho,
                 period_length=P.period_days, lr=P.learning_rate, b_theta=P.b_theta,
                 n_reps=P.replications)  # fmt: skip
    tasks = [
        comparison.ComparisonTask(**cohort, **fixed, n_centres=n, eps=e, variant=v)
        for v in comparison.VARIANTS for n in P.fig6_n_values for e in P.fig6_eps
    ]  # fmt: skip
    eps = list(P.fig6_eps)

    def key(t: comparison.ComparisonTask) -> tuple[int, int, int]:  # the published runs' keys
        return comparison.VARIANTS.index(t.variant), t.n_centres, eps.index(t.eps)

    out = sweep(comparison.tvd_comparison, tasks, P.stream("p003-fig6"), key=key, desc="Figure 6")
    outputs = [out[t] for t in tasks]
    tvd = pd.DataFrame(comparison.tvd_records(tasks, outputs))
    ratios = pd.DataFrame([
        {"variant": t.variant, "n": t.n_centres, "eps": t.eps, "algorithm": ours,
         **comparison.error_ratio(out[t]["tvd"]["first-order"], out[t]["tvd"][ours])}
        for t in tasks for ours in ("GM", "AM", "two-threshold", "OL")
    ])  # fmt: skip
    gm = ratios[ratios.algorithm == "GM"]
    records = tvd.to_dict("records")
    mle = ref.FIG6_MLE_ALGORITHMS
    points = {
        v: comparison.paired_means(records, v, algorithms=mle, baseline="first-order")
        for v in comparison.VARIANTS
    }
    mle_ratios = ratios[ratios.algorithm.isin(mle)]
    intervals = {v: mle_ratios[mle_ratios.variant == v].to_dict("records") for v in comparison.VARIANTS}
    summary = {
        v: comparison.ratio_summary(gm[gm.variant == v].to_dict("records"), claim=ref.FIG6_CLAIMED_RATIO)
        for v in comparison.VARIANTS
    }
    setting = _fig6_setting(P)
    checks = ref.figure6_checks(points, intervals)
    readings = {  # the other readings of "ground truth" for the first-order method (paper's variant)
        name: comparison.paired_means(records, "paper", algorithms=mle, baseline=record)
        for name, record, _ in ref.FIG6_READINGS
    }
    checks += ref.figure6_reading_checks(readings)
    paper = [out[t] for t in tasks if t.variant == "paper"]  # the paper's first-order update
    drift = float(np.mean([o["first_order_drift"] for o in paper]))
    error = float(np.mean([o["first_order_error"] for o in paper]))
    checks.append(ref.first_order_static_check(drift, error))
    paper_T = tvd[tvd.variant == "paper"]["T"]  # the paper's update runs the paper's T
    # the pooled Λ(θ₁) − Λ(0) with the paper's and the notebook's likelihood
    gap = {
        v: sv.loglik_gap(ddi.x, ddi.time, ddi.event, ref.FIG6_THETA_ALT, variant=v)
        for v in comparison.VARIANTS
    }
    return FirstOrderComparison(
        tvd, ratios, summary, drift=drift, error=error,
        step_bound=2 * P.learning_rate * P.b_theta * ref.FIRST_ORDER_B_X * int(paper_T.max()),
        theta_hat=sv.binary_cox(ddi.x, ddi.time, ddi.event).lrt()[0],
        inflation=gap["as_published"] / gap["paper"],
        checks={"p003-fig6": checks}, paper_setting=setting,
    )  # fmt: skip
