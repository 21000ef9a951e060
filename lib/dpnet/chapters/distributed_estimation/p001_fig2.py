"""Paper 001, Figure 2: the two networks and their signals, with the graph facts every later item uses.

The experiment :func:`networks` loads the run's datasets (their signals from :func:`signal_stream`,
seeded by ``data_seed`` so that changing the noise seed keeps the data), computes each network's
spectral and weight facts, and checks sizes and spectra against the paper and an independent
computation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray
from scipy import stats

from dpnet import estimation as est
from dpnet import plotting
from dpnet.chapters.distributed_estimation._common import deviations, sizes
from dpnet.estimation import EstimationData, GraphFacts
from dpnet.layout import spring_layout
from dpnet.params import Cost, Parameters
from dpnet.reference import estimation as ref
from dpnet.results import Check
from dpnet.sweep import Stream

__all__ = ["SIGNAL_KEYS", "Networks", "cost", "networks", "signal_stream"]

#: The key of each dataset's signal stream under ``data_seed``.
SIGNAL_KEYS: dict[str, tuple[int, ...]] = {"us_power_grid": (1,), "german_households": (2,)}
#: Seconds of a network's full spectrum (see :func:`dpnet.networks.eigenvalues`), measured on one core.
_EIGEN_SECONDS = {"us_power_grid": 30.0, "german_households": 0.3}


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`networks`, from the run's parameter values.

    * seconds: ``Σ_d spectrum_d``, 30 s for the US grid's dense eigenvalues and 0.3 s for the
      households (the US grid's spectrum alone took 19 s on a quiet machine and 35 s under load);
    * peak: the dense spectrum of the largest network, ``16·n²`` bytes (its dense matrix and the copy
      :func:`numpy.linalg.eigvalsh` makes), freed when the facts are computed.
    """
    n_T = sizes(values)
    seconds = sum(_EIGEN_SECONDS[d] for d in n_T)
    return Cost(seconds=seconds, peak=16.0 * max(n for n, _ in n_T.values()) ** 2)


def signal_stream(P: Parameters, dataset: str) -> Stream:
    """The stream of a dataset's synthetic signals, seeded by ``data_seed`` rather than ``seed``."""
    return Stream(P.data_seed, SIGNAL_KEYS[dataset], f"signals/{dataset}")


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
        return deviations("p001-fig2")

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
