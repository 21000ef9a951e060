"""Chapter 6, ``distributed-estimation``: private distributed estimation on power networks (paper 001,
Table 1 and Figures 2–7).

The chapter's parameters (:data:`SCHEMA`) and its experiments. Each experiment takes the resolved
parameters, computes with :mod:`dpnet.estimation`, checks the outcome against paper 001 with
:mod:`dpnet.reference.estimation`, and returns a small frozen dataclass that the chapter records
(:meth:`dpnet.results.Results.record`), tabulates and plots.

Random streams: the synthetic signals come from :func:`signal_stream` (seeded by ``data_seed``, so
that changing the noise seed keeps the data); every noise draw comes from a named stream of ``seed``.
A sample-path figure draws both calibrations from two fresh generators of its stream, so they see the
same unit noise; a dataset's draws continue the stream after the datasets listed before it. Figure 7
draws each mechanism's unit noise once and scales it by both calibrations, which gives the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import networkx as nx
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray
from scipy import stats

from dpnet import estimation as est
from dpnet import plotting
from dpnet.estimation import EstimationData, GraphFacts, NoiseDensity, Run
from dpnet.formatting import for_people
from dpnet.layout import spring_layout
from dpnet.networks import metropolis_hastings, neighbour_weights
from dpnet.params import (
    AS_DEFAULT,
    COMMON,
    Footprint,
    Param,
    Parameters,
    Schema,
    choice,
    eps_grid,
    integer,
    list_of,
    real,
)
from dpnet.params import Check as ValueCheck
from dpnet.reference import estimation as ref
from dpnet.reference._check import Check
from dpnet.sweep import Stream

__all__ = [
    "SCHEMA",
    "BudgetSweep",
    "MomentStudy",
    "NaiveNoise",
    "Networks",
    "NoiseComparison",
    "SamplePaths",
    "Slopes",
    "error_vs_budget",
    "moment_study",
    "mvue_network",
    "mvue_signal",
    "naive_noise",
    "networks",
    "online_network",
    "online_signal",
    "optimal_noise",
    "signal_stream",
    "slope_table",
]

#: The key of each dataset's signal stream under ``data_seed``.
SIGNAL_KEYS: dict[str, tuple[int, ...]] = {"us_power_grid": (1,), "german_households": (2,)}
#: Colours of the four mechanisms in Figure 7, as the paper draws them.
COLOURS = {"OL-N": "tab:red", "OL-S": "tab:green", "MVUE-N": "tab:blue", "MVUE-S": "black"}
_ABSENT = "the dataset is not in this run"


def _datasets() -> ValueCheck:
    """One dataset name, or a list of distinct ones."""
    names = list_of(choice(*est.DATASETS))

    def convert(value: Any) -> list[str]:
        return names.convert([value] if isinstance(value, str) else value)

    return ValueCheck(f"one of {est.DATASETS} or a list of them", convert)


def _word_or_integer(word: str, *, ge: int, le: int) -> ValueCheck:
    """The string ``word`` (``"paper"``: the paper's value; ``"all"``: every one) or an integer within
    bounds."""
    number = integer(ge=ge, le=le)

    def convert(value: Any) -> Any:
        return value if value == word else number.convert(value)

    return ValueCheck(f"{word!r} or {number.describe}", convert)


#: Measured costs on this 2-core machine (one core), see :func:`_footprint`.
_PATH_SECONDS = 1.9e-7  # one node-round of one sample path (Figures 3–6: 16 runs)
_NAIVE_SECONDS = 1e-7  # one node-round-column of the naive-noise runs (2 × 21 columns)
_SWEEP_SECONDS = 5.5e-8  # one node-round-column of Figure 7 (columns: 1 + 2 calibrations × ε's × draws)
_MOMENT_SECONDS = 5e-3  # one run of the exact-moment check (three algorithms)
_EIGEN_SECONDS = {"us_power_grid": 30.0, "german_households": 0.3}  # a network's full spectrum
_DRAW_SECONDS = (1.3e-4, 1.25e-6)  # drawing one agent's path once, and each of its points
_FIXED_SECONDS = 20.0  # kernel, imports, the other figures
#: Figure 7's runs (one per mechanism, both calibrations at once), the sample-path runs (4 figures × 2
#: calibrations) and the drawings of a sample-path panel (2 panels a row, each drawn 3 times).
_SWEEP_RUNS, _PATH_RUNS, _DRAWINGS = 4, 8, 6


def _drawn_every(n: int, drawn: int | str | None) -> int:
    """Every how many of ``n`` agents a sample-path panel draws one, to draw at most ``drawn`` of them
    (``"all"`` or None: every agent)."""
    return 1 if drawn is None or drawn == "all" else -(-n // int(drawn))


def _drawn_agents(n: int, drawn: int | str) -> int:
    """How many of ``n`` agents :meth:`SamplePaths.figure` draws when it draws at most ``drawn``."""
    return -(-n // _drawn_every(n, drawn))


def _footprint(values: Mapping[str, Any]) -> Footprint:
    """Peak memory and wall time of a run, from its parameters (see :class:`dpnet.params.Footprint`).

    For each dataset ``d`` of the run, ``n_d`` nodes (4941 on the US grid, 969 households) and ``T_d``
    rounds (``horizon``, or the paper's 100 and 1096); ``E = len(eps_values)``, ``r = n_draws``;
    ``k_d`` agents drawn (``paths_drawn``, evenly spaced) in each of the ``R_d`` rows of Figures 3–6
    (4 on the US grid, 5 on the households):

    * seconds: ``20 + Σ_d spectrum_d`` (30 s for the US grid's dense eigenvalues, 0.3 s for the
      households; see :func:`dpnet.networks.eigenvalues`)
      ``+ 5·10⁻³·n_mc`` (exact-moment check) ``+ 16·1.9·10⁻⁷·Σ_d n_d·T_d``
      (Figures 3–6) ``+ 6·Σ_d R_d·k_d·(1.3·10⁻⁴ + 1.25·10⁻⁶·(T_d+1))`` (drawing their paths: two
      panels a row, each drawn three times) ``+ 42·10⁻⁷·n·T`` (naive noise, on the households or the
      first dataset) ``+ 4·5.5·10⁻⁸·Σ_d n_d·T_d·(1 + 2·E·r)`` (Figure 7: 4 mechanisms, every round
      stepping ``1 + 2·E·r`` columns, both calibrations sharing one noise draw);
    * memory, the largest of: the dense spectrum of the largest network, ``16·n²`` bytes (its dense
      matrix and the copy :func:`numpy.linalg.eigvalsh` makes); the sample paths kept
      (``8·16·Σ_d n_d·(T_d+1)``: 8 runs of every round of two float64 states) with Figure 7's
      per-round noise scales of both calibrations (``32·E·n_d·T_d``, the largest dataset); the moment
      check's ``5 × (200, 10·n_mc)`` float64 arrays.

    Calibrated on this 2-core machine (one core, under load from other runs): at the former quick
    defaults (every agent drawn, each calibration of Figure 7 drawing its own noise) the experiments
    took 98 s (Figure 7 37–42 s) and the whole process peaked at 1.03 GiB, every result held; the US
    grid's spectrum alone took 19 s on a quiet machine and 35 s under load; at horizon = 2000, 387 s
    (Figure 7 287 s, Figures 3–6 36 s, naive 8.8 s) and 2.76 GiB; at n_draws = 50, Figure 7 took 500 s;
    on the US grid alone at horizon = 4000 the peak was 4.9 GiB (estimate 4.7 GiB); the moment check
    at n_mc = 20 000 peaked at 1.2 GiB (estimate 1.5 GiB). With one noise draw for both calibrations,
    Figure 7's runs at the quick defaults took 55 s under heavy load (5.5·10⁻⁸ s a node-round-column;
    on the households over 300 rounds, 6.2–8.3 s against 7.6–12.2 s with a draw per calibration); a
    panel of sample paths took 1.2–1.5 s to draw (all 4941 US agents over 101 rounds, or all 969
    households over 1097), so that drawing every agent's path costs about 70 s of a run, 250 agents
    about 12 s. At the quick defaults (250 agents drawn) the whole chapter took 164–170 s under load
    (estimate 132 s).
    """
    names = [values["dataset"]] if isinstance(values["dataset"], str) else list(values["dataset"])
    sizes = {"us_power_grid": est.datasets.US_GRID, "german_households": est.datasets.GERMAN}
    horizon = values["horizon"]
    n_T = {d: (sizes[d]["n"], sizes[d]["horizon"] if horizon == "paper" else horizon) for d in names}
    columns = 1 + 2 * len(values["eps_values"]) * values["n_draws"]
    units = sum(n * T for n, T in n_T.values())
    naive_n, naive_T = n_T["german_households" if "german_households" in n_T else names[0]]
    rows = {d: sum(len(eps[d]) for _, eps in ref.FIGURE_EPS.values()) for d in names}
    per_path, per_point = _DRAW_SECONDS
    drawing = _DRAWINGS * sum(
        rows[d] * _drawn_agents(n, values["paths_drawn"]) * (per_path + per_point * (T + 1))
        for d, (n, T) in n_T.items()
    )
    seconds = (
        _FIXED_SECONDS
        + sum(_EIGEN_SECONDS[d] for d in names)
        + _MOMENT_SECONDS * values["n_mc"]
        + 2 * _PATH_RUNS * _PATH_SECONDS * units
        + drawing
        + 2 * 21 * _NAIVE_SECONDS * naive_n * naive_T
        + _SWEEP_RUNS * _SWEEP_SECONDS * units * columns
    )
    paths = 16.0 * _PATH_RUNS * sum(n * (T + 1) for n, T in n_T.values())
    scales = max(32.0 * len(values["eps_values"]) * n * T for n, T in n_T.values())
    spectrum = 16.0 * max(n for n, _ in n_T.values()) ** 2
    moments = 5 * 8.0 * 200 * 10 * values["n_mc"]
    return Footprint(memory=max(spectrum, paths + scales, moments), seconds=seconds)


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every noise draw in the chapter", default=20230801),
        "dataset": Param(
            _datasets(), "network(s) and signals: us_power_grid, german_households",
            default=list(est.DATASETS), paper=AS_DEFAULT,
        ),
        "eps_values": Param(
            eps_grid(allow_zero=False), "privacy budgets ε of Figure 7 (the published figure's grid)",
            default=list(ref.FIG7_EPS), paper=AS_DEFAULT,
        ),
        "horizon": Param(
            _word_or_integer("paper", ge=2, le=20_000),
            "rounds T ('paper': 100 on the US grid, 1096 on the German households)", default="paper",
            paper=AS_DEFAULT,
        ),
        "n_draws": Param(
            integer(ge=2, le=1000), "noise draws per point of Figure 7 (the published figure's)",
            default=ref.FIG7_DRAWS, paper=AS_DEFAULT,
        ),
        "calibration": Param(
            choice("paper", "authors_code"),
            "smooth-sensitivity noise of the sample paths (Figures 3–6): the text's, or the authors' code's",
            default="paper", paper=AS_DEFAULT,
        ),
        "delta": Param(
            real(gt=0.0, lt=1.0), "δ of (ε, δ)-DP under smooth sensitivity", default=ref.SMOOTH_DELTA,
            paper=AS_DEFAULT,
        ),
        "data_seed": Param(integer(ge=0), "seed of the synthetic signals, apart from the noise", default=0),
        "n_mc": Param(integer(ge=100, le=100_000), "runs of the exact-moment check", quick=1000, full=2000),
        "paths_drawn": Param(
            _word_or_integer("all", ge=1, le=100_000),
            "agents whose paths Figures 3–6 draw, evenly spaced ('all': every agent)", quick=250, full="all",
        ),
    },
    # the published runs keyed each experiment's noise by integers under `seed`
    streams={
        "p001-fig2-layout": (700, 0),
        "p001-table1": (701, 0),
        "p001-fig3": (702, 0),
        "p001-fig4": (702, 1),
        "p001-fig5": (702, 2),
        "p001-fig6": (702, 3),
        "naive-noise": (703, 0),
        "p001-fig7": (704,),
    },
    footprint=_footprint,
)  # fmt: skip


def signal_stream(P: Parameters, dataset: str) -> Stream:
    """The stream of a dataset's synthetic signals, seeded by ``data_seed`` rather than ``seed``."""
    return Stream(P.data_seed, SIGNAL_KEYS[dataset], f"signals/{dataset}")


def _paths_setting(P: Parameters) -> bool:
    return P.is_paper("horizon", "delta")


def _fig7_setting(P: Parameters) -> bool:
    return _paths_setting(P) and P.is_paper("eps_values") and P.n_draws >= ref.FIG7_DRAWS


def _calibrations(P: Parameters) -> tuple[str, str]:
    """The run's calibration of the sample paths, then the other one."""
    return (P.calibration, "authors_code" if P.calibration == "paper" else "paper")


def _deviations(item: str) -> tuple[tuple[str, str, str], ...]:
    return tuple((item, title, note) for title, note in ref.ESTIMATION_DEVIATIONS[item])


# ---------------------------------------------------------------------------------------------------
# the two networks (paper Figure 2)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Networks:
    """The run's datasets (paper Figure 2) and their graph facts.

    Attributes
    ----------
    data
        Dataset name → network, weights and signals, in the order of the ``dataset`` parameter.
    facts
        Dataset name → spectral and weight facts of its Metropolis–Hastings matrix.
    checks
        Sizes and spectra against the paper and an independent computation, keyed by item.
    """

    data: Mapping[str, EstimationData]
    facts: Mapping[str, GraphFacts]
    checks: Mapping[str, list[Check]]
    paper_setting: bool = True

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.data)

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return _deviations("p001-fig2")

    def spectrum(self, name: str) -> dict[str, float]:
        """β*, β* to the power T, t*, the largest neighbour weight a and the starting spread √n σ of a
        dataset (``nan`` when the run leaves it out)."""
        if name not in self.facts:
            return dict.fromkeys(("beta", "beta_T", "tstar", "a_max", "spread"), math.nan)
        f, d = self.facts[name], self.data[name]
        return {
            "beta": f.beta_star, "beta_T": f.beta_star**d.horizon, "tstar": f.t_star, "a_max": f.a_max,
            "spread": float(np.sqrt(d.n) * d.sigma),
        }  # fmt: skip

    @property
    def table(self) -> pd.DataFrame:
        """One row per network: size, β*, λ_n, neighbour weights, mixing sums and theorem constants."""
        return pd.DataFrame([{
            "network": self.data[name].label, "n": f.n, "m": f.m, "β*": f.beta_star, "λ_n": f.lambda_n,
            "a = max a_ij": f.a_max, "mean a_i": f.a_mean, "t* = Σ 1/(1−λ²)": f.t_star,
            "Σ 1/(3−2λ)": f.network_sum, "Thm 4.1 constant": f.theorem41_constant,
            "Thm 4.2 constant": f.theorem42_constant,
        } for name, f in self.facts.items()])  # fmt: skip

    def styled_table(self) -> Any:
        """:attr:`table` for people (:func:`~dpnet.formatting.for_people`), β* to the 7 digits that tell it
        from 1."""
        digits = {"β*": 7, "λ_n": 4, "a = max a_ij": 4, "t* = Σ 1/(1−λ²)": 5, "Σ 1/(3−2λ)": 4,
                  "Thm 4.1 constant": 4}  # fmt: skip
        return for_people(self.table, digits=digits)

    def metrics(self) -> dict[str, Any]:
        return {
            "graph_facts": {
                name: {"n": f.n, "m": f.m, "beta_star": f.beta_star, "a_max": f.a_max}
                for name, f in self.facts.items()
            }
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"graph_facts": self.table}

    def lognormal_fits(self) -> dict[str, float]:
        """Log-normal (μ, σ) of the German consumption (all days, day 0) and of the US degree + 1."""
        out = dict.fromkeys(
            ["german_fit_mu_all", "german_fit_sd_all", "german_fit_mu_day0", "german_fit_sd_day0",
             "us_degree_mu", "us_degree_sd"], math.nan,
        )  # fmt: skip
        if "german_households" in self.data:
            signals = self.data["german_households"].signals
            out["german_fit_mu_all"], out["german_fit_sd_all"] = est.lognormal_fit(signals)
            out["german_fit_mu_day0"], out["german_fit_sd_day0"] = est.lognormal_fit(signals[:, 0])
        if "us_power_grid" in self.data:
            out["us_degree_mu"], out["us_degree_sd"] = est.lognormal_fit(_degrees(self.data["us_power_grid"]))
        return out

    def figure(self, rng: np.random.Generator) -> Figure:
        """The four panels of Figure 2; ``rng`` places the US grid's force-directed drawing."""
        fig, grid = plotting.panel_grid(2, 2, height=3.0)
        axes = grid.ravel()
        for ax in axes:
            ax.set_axis_off()
        german, us = self.data.get("german_households"), self.data.get("us_power_grid")
        if german is not None:
            axes[0].set_axis_on()
            for values, label, colour in (
                (german.signals, "all days", "C0"),
                (german.signals[:, 0], "day 0", "C3"),
            ):
                _lognormal_panel(axes[0], values, label, colour)
            axes[0].set(
                xlabel="daily consumption (kWh)", ylabel="density", title="(a) German households (stand-in)"
            )
            plotting.network_drawing(
                axes[1], german.positions, np.array(german.graph.edges), german.xi.mean(axis=1)
            )
            m = german.graph.number_of_edges()
            axes[1].set_title(f"(b) geometric graph, n = {german.n:,}, m = {m:,}")
        if us is not None:
            axes[2].set_axis_on()
            _lognormal_panel(axes[2], _degrees(us), "degree + 1", "C0", n_bins=12)
            axes[2].set(xlabel="degree + 1", ylabel="density", title="(c) US grid degrees")
            plotting.log_ticks(axes[2].xaxis, _degrees(us))
            pos = spring_layout(us.graph, rng, k=6 / np.sqrt(us.n), cutoff=1.0)
            plotting.network_drawing(axes[3], pos, np.array(us.graph.edges), us.xi.mean(axis=1))
            axes[3].set_title(f"(d) US power grid, n = {us.n:,}, m = {us.graph.number_of_edges():,}")
        return fig  # fmt: skip


def _degrees(data: EstimationData) -> NDArray[np.float64]:
    return np.array([d for _, d in data.graph.degree()]) + 1.0


def _lognormal_panel(ax: Any, values: NDArray[np.float64], label: str, colour: str, n_bins: int = 40) -> None:
    """Log-binned density of positive values with its maximum-likelihood log-normal fit, on log–log axes."""
    x, y = plotting.log_binned_density(values, n_bins=n_bins)
    mu, sd = est.lognormal_fit(values)
    ax.plot(x, y, "o", ms=3, color=colour, label=label)
    ax.plot(x, stats.lognorm.pdf(x, sd, scale=np.exp(mu)), "--", color=colour,
            label=f"log-normal μ = {mu:.2f}, σ = {sd:.2f}")  # fmt: skip
    ax.set(xscale="log", yscale="log")
    ax.legend(fontsize=plotting.SMALL)


def networks(P: Parameters) -> Networks:
    """Load the run's datasets (signals from :func:`signal_stream`) and check their graphs."""
    horizon = None if P.horizon == "paper" else P.horizon
    data = {name: est.load_dataset(name, signal_stream(P, name).rng(), horizon) for name in P.dataset}
    facts = {name: est.graph_facts(d.graph, d.weights) for name, d in data.items()}
    rows = {
        name: None if name not in facts else {
            "n": facts[name].n, "m": facts[name].m, "beta_star": facts[name].beta_star,
            "lambda_n": facts[name].lambda_n, "a_max": facts[name].a_max,
            "connected": nx.is_connected(data[name].graph),
        }
        for name in est.DATASETS
    }  # fmt: skip
    return Networks(data, facts, {"p001-fig2": ref.graph_checks(rows)})


# ---------------------------------------------------------------------------------------------------
# Table 1: exact second moments and the theorems' bounds
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MomentStudy:
    """Monte Carlo second moments of Algorithms 3–5 on the reference case, against the exact formulas and
    the bounds of Theorems 3.1, 4.1 and 4.2 (paper Table 1).

    Attributes
    ----------
    case
        The reference case: RGG(n, radius, graph_seed), horizon, σ and the Laplace scale.
    runs
        Monte Carlo runs of Algorithms 4 and 5 (Algorithm 3 gets ten times as many).
    moments
        Exact and Monte Carlo ``E‖ν−μ‖²`` and ``E‖μ−𝟙m‖²`` per algorithm, with their ratio.
    bounds
        The mean total error against each theorem's bound.
    average_gap
        The largest gap between a network average and the running mean of its inputs (an identity of
        the recursions: zero up to rounding).
    """

    case: Mapping[str, float]
    runs: int
    moments: pd.DataFrame
    bounds: pd.DataFrame
    average_gap: float
    checks: Mapping[str, list[Check]]
    paper_setting: bool = True

    @property
    def worst(self) -> float:
        """The largest relative gap between a Monte Carlo moment and its exact formula."""
        return float(np.max(np.abs(self.moments["MC / exact"] - 1)))

    @property
    def slack(self) -> float:
        """The smallest ratio of a theorem's bound to the mean total error it bounds."""
        return float((self.bounds["bound"] / self.bounds["error"]).min())

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return _deviations("p001-table1")

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"moments": self.moments, "bounds": self.bounds}


def moment_study(P: Parameters) -> MomentStudy:
    """The exact-moment check on the reference case, ``n_mc`` runs (stream ``p001-table1``)."""
    case = ref.MOMENT_CASE
    A = metropolis_hastings(nx.random_geometric_graph(case["n"], case["radius"], seed=case["graph_seed"]))
    moments, bounds, gap = est.moment_study(
        A, case["horizon"], sigma=case["sigma"], scale=case["scale"], rng=P.rng("p001-table1"), n_runs=P.n_mc
    )
    moments["MC / exact"] = moments["monte_carlo"] / moments["exact"]
    names = [f"alg{k}-{q}" for k in (3, 4, 5) for q in ("cop", "cod")]
    rows = [{**r, "name": name} for r, name in zip(moments.to_dict("records"), names, strict=True)]
    bound_rows = [
        {**r, "name": f"alg{k}-bound"} for r, k in zip(bounds.to_dict("records"), (3, 4, 5), strict=True)
    ]
    checks = ref.moment_checks(rows) + ref.bound_checks(bound_rows)
    return MomentStudy(dict(case), P.n_mc, moments, bounds, gap, {"p001-table1": checks})


# ---------------------------------------------------------------------------------------------------
# Laplace is optimal (the book's figure)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NoiseComparison:
    """Laplace and three other zero-mean noise densities at Δ = ε = 1: which are ε-DP, at what variance."""

    densities: tuple[NoiseDensity, ...]

    @property
    def table(self) -> pd.DataFrame:
        return pd.DataFrame([{
            "density (Δ = ε = 1)": d.name, "ε-DP": d.is_dp(1.0, 1.0), "variance": d.variance,
            "variance / Laplace": d.variance / 2.0,
        } for d in self.densities])  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"est-optimal-noise": self.table}

    def figure(self) -> Figure:
        """(a) the densities; (b) their log-slopes against the ε-DP bound ε/Δ (dotted: not ε-DP)."""
        u = np.linspace(-6, 6, 1201)
        fig, axes = plotting.panel_row(2, height=3.2)
        for k, density in enumerate(self.densities):
            style = {"color": f"C{k}", "lw": 1.5, "ls": "-" if density.is_dp(1.0, 1.0) else ":"}
            axes[0].plot(u, density.pdf(u), label=density.name, **style)
            axes[1].plot(u, density.log_slope(u), **style)
        axes[1].axhline(1.0, color="0.2", ls="--", lw=1, label="ε/Δ")
        axes[0].set(xlabel="u", ylabel="density p(u)", title="(a) noise densities")
        axes[1].set(xlabel="u", ylabel="|d log p / du|", ylim=(0, 2.5), title="(b) the ε-DP constraint")
        axes[0].legend(fontsize=plotting.SMALL)
        axes[1].legend(fontsize=plotting.SMALL)
        return fig


def optimal_noise() -> NoiseComparison:
    """Laplace, hyperbolic secant, logistic and Gaussian noise at sensitivity Δ = 1 and ε = 1."""
    return NoiseComparison(tuple(est.noise_densities(1.0, 1.0)))


# ---------------------------------------------------------------------------------------------------
# sample paths (paper Figures 3–6)
# ---------------------------------------------------------------------------------------------------


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

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.eps)

    def drawn_every(self, name: str) -> int:
        """Every how many agents :meth:`figure` draws a path of ``name`` (1: every agent)."""
        return _drawn_every(self.runs[name, self.calibrations[0]].nonprivate.shape[1], self.drawn)

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return _deviations(self.item)

    @property
    def german_rate(self) -> tuple[float, float]:
        """Figure 3: the fitted log-error per round of the German MVUE without DP, and log β* (``nan`` without
        the German households)."""
        rows = self.slopes.get("german_households", ())
        mvue = [r for r in rows if r["algorithm"] == "MVUE"]
        return (mvue[0]["slope"], mvue[0]["predicted"]) if mvue else (math.nan, math.nan)

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


def _sample_paths(P: Parameters, nets: Networks, item: str) -> SamplePaths:
    """The runs of one sample-path figure, without checks or slopes."""
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
        exact, {name: nets.data[name].label for name in nets.names}, {}, {}, _paths_setting(P),
        None if P.paths_drawn == "all" else P.paths_drawn,
    )  # fmt: skip


def mvue_signal(P: Parameters, nets: Networks) -> SamplePaths:
    """Paper Figure 3: Algorithm 3 under Signal DP; the German error without DP falls at the rate log β*."""
    paths = _sample_paths(P, nets, "p001-fig3")
    if "german_households" not in nets.data:
        return replace(paths, checks={"p001-fig3": ref.mvue_rate_check(None, None, "")})
    run, m = paths.runs["german_households", paths.calibrations[0]], paths.references["german_households"]
    T = int(run.times[-1])
    lo = min(500, T // 2)
    rate = est.geometric_rate(run.times, run.cost_of_decentralisation(m), lo, T)
    beta = nets.facts["german_households"].beta_star
    row = {"dataset": "german_households", "algorithm": "MVUE", "quantity": "log-error per round",
           "window": f"[{lo}, {T}]", "slope": rate, "predicted": float(np.log(beta)),
           "basis": "log β*"}  # fmt: skip
    checks = ref.mvue_rate_check(rate, beta, f"[{lo}, {T}]")
    return replace(paths, slopes={"german_households": (row,)}, checks={"p001-fig3": checks})


def mvue_network(P: Parameters, nets: Networks, signal: SamplePaths) -> SamplePaths:
    """Paper Figure 4: Algorithm 3 under Network DP, checked against Figure 3 (Signal DP at the same ε) and
    the independent numbers; which term sets the noise (neighbour weights or smooth sensitivity)."""
    paths = _sample_paths(P, nets, "p001-fig4")
    values: dict[str, dict[str, float] | None] = dict.fromkeys(("us_power_grid", "german_households"))
    for name in nets.names:
        data, eps = nets.data[name], paths.eps[name][0]
        cod, cop, te = paths.final(name)
        from_sensitivity = est.sensitivity_sets_scale(
            data.signals[:, 0],
            eps,
            delta=P.delta,
            a=neighbour_weights(data.weights),
            calibration=paths.calibrations[0],
        )  # type: ignore[arg-type]
        values[name] = {"cop": float(cop[0]), "te": float(te[0]), "cod": cod,
                        "sensitivity_share": float(from_sensitivity.mean()),
                        "weight_share": float(1.0 - from_sensitivity.mean())}  # fmt: skip
        if name == "us_power_grid":  # Figure 3 runs the US grid at Figure 4's ε
            values[name]["signal_cop"] = float(signal.final(name)[1][0])  # type: ignore[index]
    checks = ref.mvue_network_checks(
        values["us_power_grid"], values["german_households"], published=paths.paper_setting
    )
    return replace(paths, checks={"p001-fig4": checks})


def _windows(item: str, T: int) -> dict[str, tuple[int, int]]:
    """The fitting windows of a figure's slopes over T rounds: Figure 5 early [10, min(100, T)] and late
    [100, 1000]; Figure 6 the last decade of rounds [T/10, T]."""
    if item == "p001-fig5":
        return {"early": (10, min(100, T)), "late": (100, 1000)}
    return {"last-decade": (max(T // 10, 1), T)}


def _slope_rows(paths: SamplePaths, nets: Networks, nominal: float | None) -> tuple[dict, list[dict]]:
    """Fitted slopes without and with DP over each window, against the exact second moments' slope or
    ``nominal``: (rows of the slopes table by dataset, rows of the checks)."""
    table: dict[str, tuple[dict, ...]] = {}
    checks: list[dict] = []
    basis = "t^(−1/2)" if nominal is not None else "exact second moments"
    quantities = (("error without DP", "without-dp"), ("error with DP", "with-dp"))
    for name in est.DATASETS:
        short = ref.DATASET_SHORT[name]
        T = nets.data[name].horizon if name in nets.data else 0
        rows = []
        for role, (lo, hi) in _windows(paths.item, T).items():
            window = f"[{lo}, {hi}]" if name in nets.data else f"the {role.replace('-', ' ')} window"
            head = {"dataset": name, "algorithm": paths.mechanism, "window": window, "basis": basis}
            why = _ABSENT if name not in nets.data else ""
            if not why and (T < hi or hi <= lo):
                why = f"the horizon T = {T} is too short for the window [{lo}, {hi}]"
            if why:
                checks += [
                    {**head, "quantity": q, "name": f"{short}-{n}-{role}", "undefined": why}
                    for q, n in quantities
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
                checks.append({**row, "name": f"{short}-{n}-{role}"})
        if name in nets.data:
            table[name] = tuple(rows)
    return table, checks  # fmt: skip


def online_signal(P: Parameters, nets: Networks) -> SamplePaths:
    """Paper Figure 5: Algorithm 4 under Signal DP; its error's slopes against the exact second moments."""
    paths = _sample_paths(P, nets, "p001-fig5")
    table, rows = _slope_rows(paths, nets, None)
    return replace(paths, slopes=table, checks={"p001-fig5": ref.slope_checks(rows, against="reference")})


def online_network(P: Parameters, nets: Networks, mvue: SamplePaths, signal: SamplePaths) -> SamplePaths:
    """Paper Figure 6: Algorithm 5 under Network DP; slope −1/2, and on the US grid the errors without DP
    of Algorithms 3 (``mvue``, Figure 3), 4 (``signal``, Figure 5) and 5."""
    paths = _sample_paths(P, nets, "p001-fig6")
    table, rows = _slope_rows(paths, nets, ref.OL_NETWORK_SLOPE)
    errors = None
    if "us_power_grid" in nets.data:
        errors = {"OL-S": signal.final("us_power_grid")[0], "OL-N": paths.final("us_power_grid")[0],
                  "MVUE": mvue.final("us_power_grid")[0]}  # fmt: skip
    checks = ref.slope_checks(rows) + ref.us_nonprivate_checks(errors, published=paths.paper_setting)
    return replace(paths, slopes=table, checks={"p001-fig6": checks})


@dataclass(frozen=True)
class Slopes:
    """The fitted rates of Figures 3, 5 and 6 in one table."""

    table: pd.DataFrame

    def metrics(self) -> dict[str, Any]:
        return {"slopes": self.table.to_dict("records")}

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"slopes": self.table}


def slope_table(mvue: SamplePaths, signal: SamplePaths, network: SamplePaths) -> Slopes:
    """The German MVUE rate (Figure 3), then per dataset the slopes of Figures 5 and 6."""
    rows = list(mvue.slopes.get("german_households", ()))
    for name in signal.names:
        rows += [*signal.slopes.get(name, ()), *network.slopes.get(name, ())]
    return Slopes(pd.DataFrame(rows))


# ---------------------------------------------------------------------------------------------------
# fresh noise every round (the book's figure)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NaiveNoise:
    """Algorithm 3 against fresh noise every round, with unit Laplace noise (20 draws each)."""

    label: str
    times: NDArray[np.int64]
    rms: Mapping[str, NDArray[np.float64]]
    exact: Mapping[str, NDArray[np.float64]]
    slope: float

    def figure(self) -> Figure:
        fig, ax = plotting.panel_row(1, width=5.5, height=3.4)
        labels = {"naive": ("fresh noise every round", "C3"), "once": ("noise once (Algorithm 3)", "C0")}
        for key, (label, colour) in labels.items():
            ax[0].plot(self.times, self.rms[key], color=colour, label=f"{label}, 20 draws")
            ax[0].plot(self.times, self.exact[key], ":", color="0.2")
        ax[0].plot([], [], ":", color="0.2", label="exact RMS")
        ax[0].set(xscale="log", yscale="log", xlabel="t", ylabel="RMS of ‖ν_t − μ_t‖₂",
                  title=f"{self.label}, Lap(1) noise")  # fmt: skip
        ax[0].legend(fontsize=plotting.SMALL)
        return fig


def naive_noise(P: Parameters, nets: Networks) -> NaiveNoise:
    """Cost of privacy of fresh noise every round and of noise once, on the German households (or the run's
    first dataset), from one generator of the stream ``naive-noise``."""
    name = "german_households" if "german_households" in nets.data else nets.names[0]
    data, lam = nets.data[name], nets.facts[name].eigenvalues
    rng = P.rng("naive-noise")
    unit = np.ones((1, data.n))  # Lap(1): sensitivity 1 at ε = 1
    runs = {
        "naive": est.simulate(
            "mvue_naive", data.weights, data.xi, unit, rng, horizon=data.horizon, n_draws=20
        ),
        "once": est.simulate("mvue", data.weights, data.xi, unit, rng, horizon=data.horizon, n_draws=20),
    }
    t = runs["naive"].times[1:]
    rms = {k: np.sqrt(np.mean(run.cost_of_privacy()[1:, 0] ** 2, axis=-1)) for k, run in runs.items()}
    exact = {
        "naive": np.sqrt(2.0 * np.array([est.naive_noise_moment(lam, int(s)) for s in t])),
        "once": np.sqrt(2.0 * np.array([est.mvue_moments(lam, int(s))[0] for s in t])),
    }
    slope = est.loglog_slope(t, rms["naive"], t[-1] / 10, t[-1])
    return NaiveNoise(data.label, t, rms, exact, slope)


# ---------------------------------------------------------------------------------------------------
# cost of privacy against ε (paper Figure 7)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BudgetSweep:
    """Paper Figure 7: the errors at T of the four mechanisms at each ε, under both calibrations.

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
        mean total error and the CoD.
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
        return _deviations("p001-fig7")

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

    @property
    def us_signal_share(self) -> float:
        """On the US grid (authors' calibration): the largest Signal-DP CoP as a share of the CoD."""
        if "us_power_grid" not in self.labels:
            return math.nan
        return max(self.mean_cop("us_power_grid", "authors_code", m).max() / self.cod("us_power_grid", m)
                   for m in ("MVUE-S", "OL-S"))  # fmt: skip

    @property
    def us_network_factor(self) -> float:
        """On the US grid (authors' calibration): the smallest ratio of Network-DP to Signal-DP CoP."""
        if "us_power_grid" not in self.labels:
            return math.nan
        cop = {m: self.mean_cop("us_power_grid", "authors_code", m) for m in est.MECHANISMS}
        return min((cop[n] / cop[s]).min() for s, n in (("MVUE-S", "MVUE-N"), ("OL-S", "OL-N")))

    def figure(self) -> Figure:
        """One row per dataset: the paper's calibration (left) and the authors' code (right)."""
        fig, axes = plotting.panel_grid(len(self.labels), 2, height=3.0, sharex=True,
                                        row_titles=list(self.labels.values()))  # fmt: skip
        titles = {"paper": "the paper's calibration", "authors_code": "as published (the authors' code)"}
        for row, name in zip(axes, self.labels, strict=True):
            for ax, cal in zip(row, ("paper", "authors_code"), strict=True):
                for mech, colour in COLOURS.items():
                    s = self.summary
                    s = s[(s.dataset == name) & (s.mechanism == mech) & (s.calibration == cal)]
                    ax.plot(s.eps, s.cop_mean, color=colour, lw=1.5, label=f"{mech} CoP")
                    low = np.maximum(s.cop_mean - s.cop_sd, s.cop_mean * 1e-2)
                    ax.fill_between(s.eps, low, s.cop_mean + s.cop_sd, color=colour, alpha=0.12, lw=0)
                    ax.plot(s.eps, s.te_mean, color=colour, lw=1.2, ls="--", label=f"{mech} total error")
                ax.set(
                    xscale="log",
                    yscale="log",
                    xlabel="ε",
                    ylabel="error at t = T",
                    title=titles[cal],
                )
        fig.legend(*axes[0, 1].get_legend_handles_labels(), loc="outside lower center", ncol=4)
        return fig  # fmt: skip


def error_vs_budget(P: Parameters, nets: Networks) -> BudgetSweep:
    """Figure 7's runs: per dataset, one stream per mechanism (``p001-fig7`` extended by the dataset and the
    mechanism), whose unit noise both calibrations share (one draw, scaled by each)."""
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
    """The slopes in ε, the US claims and values, the German values at ε = 1, and the monotone US means."""
    keys = [(d, c, m) for d in est.DATASETS for c in ("paper", "authors_code") for m in est.MECHANISMS]
    checks = ref.eps_slope_checks({k: sweep.slopes.get(k) for k in keys})
    us = "us_power_grid" in sweep.labels
    mean_cop = {m: sweep.mean_cop("us_power_grid", "authors_code", m) for m in est.MECHANISMS} if us else None
    cod = {m: sweep.cod("us_power_grid", m) for m in est.MECHANISMS} if us else None
    checks += ref.us_figure7_checks(mean_cop, cod, published=sweep.paper_setting)
    german = None
    if sweep.paper_setting and "german_households" in sweep.labels:
        i = sweep.eps.index(1.0)
        german = {
            m: float(sweep.mean_cop("german_households", "authors_code", m)[i]) for m in ("OL-S", "OL-N")
        }
    checks += ref.german_ol_checks(german)
    # the heavy-tailed German noise makes 10-draw means non-monotone at small ε: the US curves only
    monotone = {
        ("us_power_grid", c, m): bool(np.all(np.diff(sweep.mean_cop("us_power_grid", c, m)) < 0))
        if us else None
        for c in ("authors_code", "paper") for m in sorted(est.MECHANISMS)
    }  # fmt: skip
    return checks + ref.monotone_checks(monotone)
