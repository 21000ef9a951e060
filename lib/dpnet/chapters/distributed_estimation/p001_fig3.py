"""Paper 001, Figure 3: sample paths of the MVUE (Algorithm 3) under Signal DP, and what every
sample-path figure (Figures 3–6) shares: its result :class:`SamplePaths`, its runs
(:func:`sample_paths`), its cost (:func:`sample_paths_cost`) and the fitted slopes of Figures 5 and 6
(:func:`slope_rows`).

A sample-path figure draws both calibrations from two fresh generators of its stream, so they see the
same unit noise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import estimation as est
from dpnet import plotting
from dpnet.chapters.distributed_estimation._common import ABSENT, deviations, paths_setting, sizes
from dpnet.estimation import Run
from dpnet.params import Cost, Parameters
from dpnet.reference import estimation as ref
from dpnet.results import Check

if TYPE_CHECKING:
    from dpnet.chapters.distributed_estimation.p001_fig2 import Networks

__all__ = [
    "SamplePaths",
    "convergence_table",
    "cost",
    "mvue_signal",
    "sample_paths",
    "sample_paths_cost",
    "slope_rows",
]

#: Measured costs on this 2-core machine (one core), see :func:`sample_paths_cost`: one node-round of
#: one run (a figure makes four: two calibrations, each with its non-private twin), and drawing one
#: agent's path once and each of its points.
_PATH_SECONDS = 1.9e-7
_DRAW_SECONDS = (1.3e-4, 1.25e-6)
#: A figure's runs (one per calibration) and the drawings of a panel (2 panels a row, each drawn 3 times).
_RUNS, _DRAWINGS = 2, 6


def _drawn_every(n: int, drawn: int | str | None) -> int:
    """Every how many of ``n`` agents a sample-path panel draws one, to draw at most ``drawn`` of them
    (``"all"`` or None: every agent)."""
    return 1 if drawn is None or drawn == "all" else -(-n // int(drawn))


def _drawn_agents(n: int, drawn: int | str) -> int:
    """How many of ``n`` agents :meth:`SamplePaths.figure` draws when it draws at most ``drawn``."""
    return -(-n // _drawn_every(n, drawn))


def sample_paths_cost(values: Mapping[str, Any], item: str) -> Cost:
    """Time and memory of one sample-path figure (``item``, one of Figures 3–6).

    For each dataset ``d`` of the run, ``n_d`` nodes and ``T_d`` rounds, and ``k_d`` agents drawn
    (``paths_drawn``, evenly spaced) in each of the figure's ``R_d`` rows (one per ε):

    * seconds: ``4·1.9·10⁻⁷·Σ_d n_d·T_d`` (two calibrations, each with its non-private twin)
      ``+ 6·Σ_d R_d·k_d·(1.3·10⁻⁴ + 1.25·10⁻⁶·(T_d+1))`` (drawing the paths: two panels a row, each
      drawn three times);
    * kept: the sample paths, ``2·16·Σ_d n_d·(T_d+1)`` bytes (2 runs of every round of two float64
      states).

    A panel of sample paths took 1.2–1.5 s to draw (all 4941 US agents over 101 rounds, or all 969
    households over 1097), so that drawing every agent's path costs about 70 s of a run (the four
    figures), 250 agents about 12 s. At horizon = 2000 the four figures took 36 s.
    """
    n_T = sizes(values)
    _, eps = ref.FIGURE_EPS[item]
    per_path, per_point = _DRAW_SECONDS
    drawing = _DRAWINGS * sum(
        len(eps[d]) * _drawn_agents(n, values["paths_drawn"]) * (per_path + per_point * (T + 1))
        for d, (n, T) in n_T.items()
    )
    units = sum(n * T for n, T in n_T.values())
    seconds = 2 * _RUNS * _PATH_SECONDS * units + drawing
    return Cost(seconds=seconds, kept=16.0 * _RUNS * sum(n * (T + 1) for n, T in n_T.values()))


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`mvue_signal` (:func:`sample_paths_cost`)."""
    return sample_paths_cost(values, "p001-fig3")


@dataclass(frozen=True)
class SamplePaths:
    """One sample-path figure of the paper (Figures 3–6): a mechanism at the figure's ε on each dataset,
    under both calibrations, with its non-private twin.

    Attributes
    ----------
    item, mechanism
        The catalogue item (``p001-fig3``) and the mechanism (``MVUE-S``, ``MVUE-N``, ``OL-S``, ``OL-N``).
    eps
        Dataset → the figure's ε values.
    calibrations
        The run's calibration, then the other one.
    runs
        (dataset, calibration) → the run at every ε of the dataset.
    references
        Dataset → the value ``m`` the errors are measured against (m̂ for the MVUE, m_θ online).
    exact
        Dataset → the exact RMS error without DP at the recorded rounds t ≥ 1.
    labels
        Dataset → its readable name.
    slopes
        Rows of the slopes table this figure contributes (dataset → rows).
    checks, paper_setting
        Against the paper, keyed by item; whether the run uses the paper's horizon and δ.
    drawn
        The most agents whose paths :meth:`figure` draws, evenly spaced (``None``: every agent).
    gains
        Dataset → ``(A^{2T})_jj`` (:func:`~dpnet.estimation.moments.mvue_noise_gains`), for the exact cost of
        privacy of the MVUE's day-1 noise; Figure 3 computes them for the German households.
    """

    item: str
    mechanism: str
    eps: Mapping[str, tuple[float, ...]]
    calibrations: tuple[str, str]
    runs: Mapping[tuple[str, str], Run]
    references: Mapping[str, float]
    exact: Mapping[str, NDArray[np.float64]]
    labels: Mapping[str, str]
    slopes: Mapping[str, tuple[dict[str, Any], ...]]
    checks: Mapping[str, list[Check]]
    paper_setting: bool
    drawn: int | None = None
    gains: Mapping[str, NDArray[np.float64]] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.eps)

    def drawn_every(self, name: str) -> int:
        """Every how many agents :meth:`figure` draws a path of ``name`` (1: every agent)."""
        return _drawn_every(self.runs[name, self.calibrations[0]].nonprivate.shape[1], self.drawn)

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return deviations(self.item)

    def metrics(self) -> dict[str, Any]:
        return {}

    def tables(self) -> dict[str, Any]:
        return {}

    @property
    def german_rate(self) -> tuple[float, float]:
        """Figure 3: the fitted log-error per round of the German MVUE without DP, and log β* (``nan`` without
        the German households)."""
        rows = self.slopes.get("german_households", ())
        mvue = [r for r in rows if r["algorithm"] == "MVUE"]
        return (mvue[0]["slope"], mvue[0]["predicted"]) if mvue else (math.nan, math.nan)

    def error_ratio(self, name: str, column: int = 0) -> NDArray[np.float64] | None:
        """``TE_t/CoD_t`` at every recorded round ``t ≥ 1`` of the run's calibration at the ``column``-th ε
        of ``name`` (``None`` when the run leaves ``name`` out)."""
        if name not in self.eps:
            return None
        run, m = self.runs[name, self.calibrations[0]], self.references[name]
        pos = run.times >= 1
        return run.total_error(m)[pos, column, 0] / run.cost_of_decentralisation(m)[pos]

    def privacy_rms(self, nets: Networks, name: str, eps: float, delta: float) -> float | None:
        """The exact root mean square of the MVUE's cost of privacy at T on ``name`` at ``eps``, for the
        run's calibration and the day-1 readings (``None`` without ``name``'s gains)."""
        if name not in self.gains:
            return None
        data = nets.data[name]
        kind = est.MECHANISMS[self.mechanism][1]
        a = est.neighbour_weights(data.weights) if kind == "network" else None
        b = est.smooth_scales(
            kind, data.signals[:, 0], eps, delta=delta, a=a, calibration=self.calibrations[0]
        )  # type: ignore[arg-type]
        return est.mvue_cop_rms(2.0 * b**2, self.gains[name])

    def final(self, name: str, calibration: str | None = None) -> tuple[float, NDArray, NDArray]:
        """(error without DP, cost of privacy per ε, total error per ε) at T (``nan`` without ``name``)."""
        if name not in self.eps:
            return math.nan, np.array([math.nan]), np.array([math.nan])
        run, m = self.runs[name, calibration or self.calibrations[0]], self.references[name]
        cod, cop, te = run.cost_of_decentralisation(m), run.cost_of_privacy(), run.total_error(m)
        return float(cod[-1]), cop[-1, :, 0], te[-1, :, 0]

    def figure(self) -> Figure:
        """One row per dataset and ε: paths without DP, paths with DP (of every agent, or of every k-th when
        ``drawn`` caps them), and the errors on log–log axes."""
        cal, other = self.calibrations
        rows = [(name, c, e) for name in self.names for c, e in enumerate(self.eps[name])]
        fig, axes = plotting.panel_grid(len(rows), 3, height=2.6)
        for (name, c, e), row in zip(rows, axes, strict=True):
            run, m = self.runs[name, cal], self.references[name]
            t, k = run.times, self.drawn_every(name)
            plotting.sample_paths(row[0], t, run.nonprivate[:, ::k], color="C0")
            plotting.sample_paths(row[1], t, run.private[:, c, 0, ::k], color="C3")
            which = "" if k == 1 else f" (1 in {k})"  # the agents drawn, when not every one
            row[0].set(title=f"{self.labels[name]}: without DP{which}", xlabel="t", ylabel="estimate")
            row[1].set(title=f"with {self.mechanism} (ε = {e:g}, {cal})", xlabel="t")
            pos = t >= 1
            row[2].plot(t[pos], run.cost_of_decentralisation(m)[pos], color="C0", label="without DP (CoD)")
            row[2].plot(t[pos], self.exact[name], ":", color="0.2", label="without DP, exact RMS")
            row[2].plot(t[pos], run.total_error(m)[pos, c, 0], color="C3", label=f"with DP ({cal})")
            row[2].plot(t[pos], run.cost_of_privacy()[pos, c, 0], color="C3", ls="--", lw=1, label="CoP")
            other_te = self.runs[name, other].total_error(m)[pos, c, 0]
            row[2].plot(t[pos], other_te, color="C1", lw=1, label=f"with DP ({other})")
            row[2].set(xscale="log", yscale="log", xlabel="t", ylabel="‖· − 𝟙m‖₂", title="errors")
        fig.legend(*axes[0, 2].get_legend_handles_labels(), loc="outside lower center", ncol=3)
        return fig  # fmt: skip


def _calibrations(P: Parameters) -> tuple[str, str]:
    """The run's calibration of the sample paths, then the other one."""
    return (P.calibration, "authors_code" if P.calibration == "paper" else "paper")


def sample_paths(P: Parameters, nets: Networks, item: str) -> SamplePaths:
    """The runs of one sample-path figure (``item``, one of Figures 3–6), without checks or slopes."""
    mechanism, eps_by_dataset = ref.FIGURE_EPS[item]
    calibrations = _calibrations(P)
    runs: dict[tuple[str, str], Run] = {}
    for cal in calibrations:
        # a fresh generator of the figure's stream: both calibrations get the same unit noise
        rng = P.rng(item)
        for name in nets.names:
            data = nets.data[name]
            runs[name, cal] = est.private_run(
                data,
                mechanism,
                eps_by_dataset[name],
                rng,
                delta=P.delta,
                calibration=cal,  # type: ignore[arg-type]
            )
    references = {name: est.reference_value(nets.data[name], mechanism) for name in nets.names}
    exact = {}
    for name in nets.names:
        t = runs[name, calibrations[0]].times
        exact[name] = est.exact_rms_error(
            mechanism, nets.facts[name].eigenvalues, t[t >= 1], nets.data[name].sigma ** 2
        )
    return SamplePaths(
        item, mechanism, {name: eps_by_dataset[name] for name in nets.names}, calibrations, runs, references,
        exact, {name: nets.data[name].label for name in nets.names}, {}, {}, paths_setting(P),
        None if P.paths_drawn == "all" else P.paths_drawn,
    )  # fmt: skip


def _convergence_cases(paths: SamplePaths, nets: Networks) -> list[dict[str, Any]] | None:
    """Algorithm 1's η-accuracy time against its bound ``⌈log(√(n(n−1)) M_n/η)/log(1/β*)⌉`` on each dataset,
    for every η of :data:`~dpnet.reference.estimation.CONVERGENCE_ETA` whose bound lies within the horizon
    (``None`` without a dataset). The measured time is the first round from which the error without noise
    stays at most η."""
    if not paths.names:
        return None
    cases = []
    for name in paths.names:
        run, m, data = paths.runs[name, paths.calibrations[0]], paths.references[name], nets.data[name]
        error, T = run.cost_of_decentralisation(m), int(run.times[-1])
        n, beta, M = data.n, nets.facts[name].beta_star, float(np.abs(data.xi[:, 0]).max())
        for eta in ref.CONVERGENCE_ETA:
            bound = math.ceil(math.log(math.sqrt(n * (n - 1)) * M / eta) / math.log(1 / beta))
            if bound > T:
                continue
            above = np.nonzero(error > eta)[0]
            measured = 0 if above.size == 0 else int(run.times[above[-1]]) + 1
            cases.append({"dataset": name, "eta": eta, "measured": measured, "bound": bound})
    return cases


def convergence_table(paths: SamplePaths, nets: Networks) -> pd.DataFrame:
    """Figure 3's runs without noise: Algorithm 1's η-accuracy time against §3.1's bound, one row per
    network and accuracy η whose bound lies within the horizon."""
    columns = ["network", "η", "rounds to η-accuracy", "bound"]
    rows = [
        [nets.data[c["dataset"]].label, c["eta"], c["measured"], c["bound"]]
        for c in _convergence_cases(paths, nets) or []
    ]
    return pd.DataFrame(rows, columns=columns)


def _low_consumer_share(nets: Networks) -> float | None:
    """The share of the Signal-DP noise variance (day 1, ∝ 1/s²) drawn by the tenth of the German households
    with the lowest consumption (``None`` without them)."""
    if "german_households" not in nets.data:
        return None
    s = np.sort(nets.data["german_households"].signals[:, 0])
    variance = 1.0 / s**2
    return float(variance[: s.size // 10].sum() / variance.sum())


def mvue_signal(P: Parameters, nets: Networks) -> SamplePaths:
    """Paper Figure 3: Algorithm 3 under Signal DP. The German error without DP falls at the rate log β*;
    Algorithm 1 meets §3.1's convergence time; on the US grid the noise leaves the error unchanged (§5.3);
    on the German households privacy costs more than sampling at the caption's ε = 10 and at the
    script's ε = 1, and the low consumers draw most of the noise."""
    paths = sample_paths(P, nets, "p001-fig3")
    checks = ref.convergence_time_check(_convergence_cases(paths, nets))
    ratio = paths.error_ratio("us_power_grid")
    checks += ref.noise_invisible_check(
        "us-noise-invisible", "US power grid, MVUE-S at ε = 0.5 (§5.3)", ratio
    )
    slopes: dict[str, tuple[dict[str, Any], ...]] = {}
    rms: dict[float, float | None] = {1.0: None, 10.0: None}
    sigma = None
    if "german_households" not in nets.data:
        checks += ref.mvue_rate_check(None, None, "")
    else:
        run, m = paths.runs["german_households", paths.calibrations[0]], paths.references["german_households"]
        T = int(run.times[-1])
        lo = min(500, T // 2)
        rate = est.geometric_rate(run.times, run.cost_of_decentralisation(m), lo, T)
        beta = nets.facts["german_households"].beta_star
        row = {"dataset": "german_households", "algorithm": "MVUE", "quantity": "log-error per round",
               "window": f"[{lo}, {T}]", "slope": rate, "predicted": float(np.log(beta)),
               "basis": "log β*"}  # fmt: skip
        slopes["german_households"] = (row,)
        checks += ref.mvue_rate_check(rate, beta, f"[{lo}, {T}]")
        gains = est.mvue_noise_gains(nets.data["german_households"].weights, T)
        paths = replace(paths, gains={"german_households": gains})
        rms = {eps: paths.privacy_rms(nets, "german_households", eps, P.delta) for eps in rms}
        sigma = nets.data["german_households"].sigma
    checks += ref.privacy_cost_check(
        "german-huge-cost", "German households, MVUE-S at ε = 10 (Figure 3's caption)", rms[10.0], sigma
    )
    checks += ref.privacy_cost_check(
        "german-huge-cost-eps1", "German households, MVUE-S at ε = 1 (the authors' script)", rms[1.0], sigma
    )
    checks += ref.low_consumers_check(_low_consumer_share(nets))
    return replace(paths, slopes=slopes, checks={"p001-fig3": checks})


def _windows(item: str, dataset: str, T: int) -> dict[str, tuple[int, int]]:
    """The fitting windows of a figure's slopes over T rounds: Figure 5 early [10, min(100, T)], and late
    [100, 1000] on the German households (the US grid's paper horizon is 100); Figure 6 the last decade of
    rounds [T/10, T]."""
    if item == "p001-fig5":
        late = {"late": (100, 1000)} if dataset == "german_households" else {}
        return {"early": (10, min(100, T)), **late}
    return {"last-decade": (max(T // 10, 1), T)}


def _checked(item: str, role: str) -> tuple[str, ...]:
    """The quantities whose slope is checked in a window: Figure 5's early window only without DP (the
    Signal-DP noise is too small there for the slope with DP to differ; the total error is checked round by
    round instead), its late window and Figure 6's with and without DP."""
    return ("without-dp",) if (item, role) == ("p001-fig5", "early") else ("without-dp", "with-dp")


def slope_rows(paths: SamplePaths, nets: Networks, nominal: float | None) -> tuple[dict, list[dict]]:
    """Fitted slopes without and with DP over each window, against the exact second moments' slope or
    ``nominal``: (rows of the slopes table by dataset, rows of the checks). Figures 5 and 6 fit their
    sample paths with it."""
    table: dict[str, tuple[dict, ...]] = {}
    checks: list[dict] = []
    basis = "t^(−1/2)" if nominal is not None else "exact second moments"
    quantities = (("error without DP", "without-dp"), ("error with DP", "with-dp"))
    for name in est.DATASETS:
        short = ref.DATASET_SHORT[name]
        T = nets.data[name].horizon if name in nets.data else 0
        rows = []
        for role, (lo, hi) in _windows(paths.item, name, T).items():
            checked = _checked(paths.item, role)
            window = f"[{lo}, {hi}]" if name in nets.data else f"the {role.replace('-', ' ')} window"
            head = {"dataset": name, "algorithm": paths.mechanism, "window": window, "basis": basis}
            why = ABSENT if name not in nets.data else ""
            if not why and (T < hi or hi <= lo):
                why = f"the horizon T = {T} is too short for the window [{lo}, {hi}]"
            if why:
                checks += [
                    {**head, "quantity": q, "name": f"{short}-{n}-{role}", "undefined": why}
                    for q, n in quantities
                    if n in checked
                ]
                continue
            run, m = paths.runs[name, paths.calibrations[0]], paths.references[name]
            t = run.times
            grid = t[(t >= lo) & (t <= hi)]
            eig = nets.facts[name].eigenvalues
            exact = est.loglog_slope(grid, est.exact_rms_error(paths.mechanism, eig, grid, 1.0), lo, hi)
            predicted = nominal if nominal is not None else exact
            for (quantity, n), y in zip(
                quantities, (run.cost_of_decentralisation(m), run.total_error(m)[:, 0, 0]), strict=True
            ):
                row = {
                    "dataset": name,
                    "algorithm": paths.mechanism,
                    "quantity": quantity,
                    "window": f"[{lo}, {hi}]",
                    "slope": est.loglog_slope(t, y, lo, hi),
                    "predicted": predicted,
                    "exact": exact,
                    "basis": basis,
                }
                rows.append(row)
                if n in checked:
                    checks.append({**row, "name": f"{short}-{n}-{role}"})
        if name in nets.data:
            table[name] = tuple(rows)
    return table, checks  # fmt: skip
