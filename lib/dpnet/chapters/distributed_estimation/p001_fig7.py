"""Paper 001, Figure 7: the cost of privacy of the four mechanisms at t = T against ε, under the text's
calibration, the authors' code's scale, and the noise the authors' script drew when it last made the
figure (commit ``9e83092``: ``numpy.random.laplace(D)``, located at the scale ``D`` with unit spread); with
§5.3's claim that Network DP costs more than Signal DP, the US shares and values and the German values.

Figure 7 draws each mechanism's unit noise once and scales it by both calibrations, which gives the
same numbers as a draw per calibration; the located noise has streams of its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import estimation as est
from dpnet import plotting
from dpnet.chapters.distributed_estimation._common import deviations, paths_setting, sizes
from dpnet.params import Cost, Parameters
from dpnet.reference import estimation as ref
from dpnet.results import Check

if TYPE_CHECKING:
    from dpnet.chapters.distributed_estimation.p001_fig2 import Networks

__all__ = ["CALIBRATIONS", "COLOURS", "BudgetSweep", "cost", "error_vs_budget"]

#: The three columns of Figure 7: the text's calibration, the authors' code's scale (commit 7659bf4) and
#: the noise located at that scale (the script's last run of the figure, commit 9e83092).
CALIBRATIONS: tuple[str, ...] = ("paper", "authors_code", "located")
#: Colours of the four mechanisms in Figure 7, as the paper draws them.
COLOURS = {"OL-N": "tab:red", "OL-S": "tab:green", "MVUE-N": "tab:blue", "MVUE-S": "black"}
#: Seconds of one node-round-column of Figure 7 (columns: 1 + 2 calibrations × ε's × draws), measured
#: on one core, and its runs (one per mechanism, both calibrations at once).
_SWEEP_SECONDS, _SWEEP_RUNS = 5.5e-8, 4


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`error_vs_budget`, for each dataset ``d`` of the run with ``n_d`` nodes
    and ``T_d`` rounds, ``E = len(eps_values)`` and ``r = n_draws``:

    * seconds: ``4·5.5·10⁻⁸·Σ_d n_d·T_d·(1 + 2·E·r + 1 + r + E)`` (4 mechanisms, every round stepping
      ``1 + 2·E·r`` columns, both calibrations sharing one noise draw; then, for the located noise,
      ``1 + r`` columns of unit noise and ``E`` columns of offsets);
    * peak: the per-round noise scales of both calibrations, ``32·E·n_d·T_d`` bytes (the largest dataset).

    At horizon = 2000 Figure 7 took 287 s, at n_draws = 50 500 s (each calibration drawing its own
    noise then). With one noise draw for both calibrations, its runs at the quick defaults took 55 s
    under heavy load (5.5·10⁻⁸ s a node-round-column; on the households over 300 rounds, 6.2–8.3 s
    against 7.6–12.2 s with a draw per calibration).
    """
    n_T = sizes(values)
    E, r = len(values["eps_values"]), values["n_draws"]
    columns = (1 + 2 * E * r) + (1 + r + E)
    units = sum(n * T for n, T in n_T.values())
    scales = max(32.0 * len(values["eps_values"]) * n * T for n, T in n_T.values())
    return Cost(seconds=_SWEEP_RUNS * _SWEEP_SECONDS * units * columns, peak=scales)


def _fig7_setting(P: Parameters) -> bool:
    return paths_setting(P) and P.is_paper("eps_values") and P.n_draws >= ref.FIG7_DRAWS


@dataclass(frozen=True)
class BudgetSweep:
    """Paper Figure 7: the errors at T of the four mechanisms at each ε, under the three noises of
    :data:`CALIBRATIONS`.

    Attributes
    ----------
    eps, draws
        The ε grid and the noise draws per point (the signals stay fixed).
    labels
        Dataset → its readable name, in the run's order.
    runs
        One row per (dataset, mechanism, calibration, ε, draw): CoP, total error and CoD at T.
    summary
        Per (dataset, mechanism, calibration, ε): mean and standard deviation of the CoP over the draws,
        mean total error and the CoD (``calibration``: one of :data:`CALIBRATIONS`).
    slopes
        (dataset, calibration, mechanism) → the fitted slope of the mean CoP against ε and its Monte
        Carlo standard error.
    checks, paper_setting
        Against the paper and the independent numbers; whether the run uses the published figure's
        horizon, δ, ε grid and at least its number of draws.
    """

    eps: tuple[float, ...]
    draws: int
    labels: Mapping[str, str]
    runs: pd.DataFrame
    summary: pd.DataFrame
    slopes: Mapping[tuple[str, str, str], tuple[float, float]]
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return deviations("p001-fig7")

    @property
    def slope_table(self) -> pd.DataFrame:
        return pd.DataFrame([
            {"dataset": k[0], "calibration": k[1], "mechanism": k[2], "CoP slope in ε": v[0], "s.e.": v[1]}
            for k, v in self.slopes.items()
        ])  # fmt: skip

    def metrics(self) -> dict[str, Any]:
        return {"cop_vs_eps": self.summary.to_dict("records")}

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"cop_vs_eps": self.summary, "eps_slopes": self.slope_table}

    def mean_cop(self, dataset: str, calibration: str, mechanism: str) -> NDArray[np.float64]:
        s = self.summary
        rows = s[(s.dataset == dataset) & (s.calibration == calibration) & (s.mechanism == mechanism)]
        return rows.cop_mean.to_numpy()

    def cod(self, dataset: str, mechanism: str) -> float:
        s = self.summary
        return float(s[(s.dataset == dataset) & (s.mechanism == mechanism)].cod.iloc[0])

    def us_signal_share(self, calibration: str) -> float:
        """On the US grid: the largest Signal-DP CoP as a share of the CoD, over the ε grid and both
        algorithms (``nan`` without the US grid)."""
        if "us_power_grid" not in self.labels:
            return math.nan
        return max(self.mean_cop("us_power_grid", calibration, m).max() / self.cod("us_power_grid", m)
                   for m in ("MVUE-S", "OL-S"))  # fmt: skip

    def us_network_factor(self, calibration: str, algorithm: str | None = None) -> float:
        """On the US grid: the smallest ratio of Network-DP to Signal-DP CoP over the ε grid, for the MVUE,
        online learning (``algorithm`` = ``"MVUE"``, ``"OL"``) or both (``nan`` without the US grid)."""
        if "us_power_grid" not in self.labels:
            return math.nan
        cop = {m: self.mean_cop("us_power_grid", calibration, m) for m in est.MECHANISMS}
        pairs = [(f"{a}-S", f"{a}-N") for a in ("MVUE", "OL") if algorithm in (None, a)]
        return float(min((cop[n] / cop[s]).min() for s, n in pairs))

    def value(
        self, dataset: str, calibration: str, mechanism: str, eps: float, column: str = "cop_mean"
    ) -> float:
        """One entry of the summary (``nan`` when the run lacks it)."""
        s = self.summary
        rows = s[(s.dataset == dataset) & (s.calibration == calibration) & (s.mechanism == mechanism)
                 & np.isclose(s.eps, eps)]  # fmt: skip
        return float(rows[column].iloc[0]) if len(rows) else math.nan

    def figure(self) -> Figure:
        """One row per dataset: the text's calibration, the authors' code's scale, and the noise located at
        that scale (the published figure's last scripted run)."""
        fig, axes = plotting.panel_grid(len(self.labels), 3, height=3.0, sharex=True,
                                        row_titles=list(self.labels.values()))  # fmt: skip
        # D: the code's scale, 2S* for Signal DP and max(2a_i/ε, 2S*) for Network DP (the caption says so)
        titles = {"paper": "the text's calibration", "authors_code": "the code's scale D",
                  "located": "as last scripted: D + Lap(1)"}  # fmt: skip
        for row, name in zip(axes, self.labels, strict=True):
            for ax, cal in zip(row, CALIBRATIONS, strict=True):
                for mech, colour in COLOURS.items():
                    s = self.summary
                    s = s[(s.dataset == name) & (s.mechanism == mech) & (s.calibration == cal)]
                    ax.plot(s.eps, s.cop_mean, color=colour, lw=1.5, label=f"{mech} CoP")
                    low = np.maximum(s.cop_mean - s.cop_sd, s.cop_mean * 1e-2)
                    ax.fill_between(s.eps, low, s.cop_mean + s.cop_sd, color=colour, alpha=0.12, lw=0)
                    ax.plot(s.eps, s.te_mean, color=colour, lw=1.2, ls="--", label=f"{mech} total error")
                ax.set(xscale="log", yscale="log", xlabel="ε", title=titles[cal])
            row[0].set_ylabel("error at t = T")
        fig.legend(*axes[0, 1].get_legend_handles_labels(), loc="outside lower center", ncol=4)
        return fig  # fmt: skip


def error_vs_budget(P: Parameters, nets: Networks) -> BudgetSweep:
    """Figure 7's runs: per dataset, one stream per mechanism (``p001-fig7`` extended by the dataset and the
    mechanism), whose unit noise both calibrations share (one draw, scaled by each); the located noise
    draws from the children after them (8 + the same index)."""
    stream, mechanisms = P.stream("p001-fig7"), list(est.MECHANISMS)
    frames = []
    for name in nets.names:
        first = len(mechanisms) * est.DATASETS.index(name)
        # both calibrations share each mechanism's unit noise: one draw serves the two
        rngs = [stream.child(first + k).rng() for k in range(len(mechanisms))]
        frames.append(est.error_vs_epsilon(
            nets.data[name], mechanisms, P.eps_values, rngs, delta=P.delta,
            calibration=("paper", "authors_code"), n_draws=P.n_draws,
        ))  # fmt: skip
        located = [stream.child(2 * len(mechanisms) + first + k).rng() for k in range(len(mechanisms))]
        frames.append(est.located_noise_errors(
            nets.data[name], mechanisms, P.eps_values, located, delta=P.delta, n_draws=P.n_draws,
        ))  # fmt: skip
    runs = pd.concat(frames, ignore_index=True)
    summary = est.error_summary(runs)
    eps = tuple(P.eps_values)
    slopes = {
        (d, c, m): (est.loglog_slope(s.eps, s.cop_mean, min(eps), max(eps)),
                    est.loglog_slope_se(s.eps, s.cop_mean, s.cop_sd, P.n_draws))
        for (d, c, m), s in summary.groupby(["dataset", "calibration", "mechanism"], sort=False)
    }  # fmt: skip
    labels = {n: nets.data[n].label for n in nets.names}
    sweep = BudgetSweep(eps, P.n_draws, labels, runs, summary, slopes, {}, _fig7_setting(P))
    return replace(sweep, checks={"p001-fig7": _figure7_checks(sweep)})


def _figure7_checks(sweep: BudgetSweep) -> list[Check]:
    """§5.3's Network DP against Signal DP and the book's reading of its Signal-DP claim on the US grid,
    the US values of the independent simulation, and the German values at ε = 1."""
    us = "us_power_grid" in sweep.labels
    mean_cop = None
    cod = None
    if us:
        mean_cop = {c: {m: sweep.mean_cop("us_power_grid", c, m) for m in est.MECHANISMS}
                    for c in ("paper", "authors_code")}  # fmt: skip
        cod = {m: sweep.cod("us_power_grid", m) for m in est.MECHANISMS}
    checks = ref.us_figure7_checks(mean_cop, cod, published=sweep.paper_setting)
    german = None
    if sweep.paper_setting and "german_households" in sweep.labels:
        german = {m: sweep.value("german_households", "authors_code", m, 1.0) for m in ("OL-S", "OL-N")}
    return checks + ref.german_ol_checks(german)
