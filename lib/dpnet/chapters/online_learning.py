"""Chapter 5, ``online-learning``: private online learning from intermittent streams (paper 003 §4.3,
§11, §14.1(c) and §14.5; Figures 14.1(c) and 14.6).

The chapter's parameters (:data:`SCHEMA`) and its experiments. Each experiment takes the resolved
parameters (and what earlier experiments computed), computes with :mod:`dpnet.inference` and
:mod:`dpnet.survival`, checks the outcome against paper 003 with :mod:`dpnet.reference.online`, and
returns a small frozen dataclass that the chapter records (:meth:`dpnet.results.Results.record`),
tabulates and plots:

- :func:`signals`: the synthetic streams' signal laws, sensitivity and network;
- :func:`convergence`: the non-private time average against its closed-form limit, and one private
  stream at every ε;
- :func:`privacy_sweep` (§4.3): the probability of identifying θ° against the period, at every ε,
  against the horizon of Theorem 4.7;
- :func:`mixing_and_arrivals`: the same curve on other graphs and for rarer arrivals;
- :func:`actg_stream` (Figure 14.1(c)) and :func:`cancer_stream` (Figure 14.6): the clinical cohorts
  as streams, with the paper's likelihood and as published; :func:`stream_summary` collects their
  limits and agreements.

Random streams (:data:`SCHEMA` ``streams``): ``convergence``, ``sample-paths`` and ``p003-sec4-3`` (the
convergence check, the sample paths and the privacy sweep), ``mixing`` and ``arrivals`` (one child per
graph or arrival chance, by its position in the list), ``p003-fig14-1c`` and ``p003-fig14-6`` (one child
per stream). Their keys are those of the published runs, so naming them changed no number.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import inference as inf
from dpnet import networks, plotting
from dpnet import survival as sv
from dpnet.errors import ParameterError
from dpnet.formatting import for_people
from dpnet.inference.signals import BLOCK
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
from dpnet.reference import online as ref
from dpnet.reference._check import Check
from dpnet.reference.clinical import ACTG_RUN
from dpnet.sweep import sweep

__all__ = [
    "GRAPHS",
    "SCHEMA",
    "THETA1",
    "THETA_TMB",
    "TRUTH",
    "Comparison",
    "Convergence",
    "CurveTask",
    "PrivacySweep",
    "Signals",
    "StreamStudy",
    "StreamSummary",
    "StreamTask",
    "actg_stream",
    "cancer_stream",
    "convergence",
    "identification_curve",
    "mixing_and_arrivals",
    "privacy_sweep",
    "signals",
    "stream_summary",
    "time_grid",
]

#: The graphs the synthetic streams may use (Metropolis–Hastings weights).
GRAPHS = ("complete", "star", "path", "cycle")
#: The true state θ° of the synthetic streams: the first.
TRUTH = 0
#: The alternative of the ACTG stream (hazard ratio 1/2) and of the cancer stream (hazard ratio 0.15).
THETA1 = -math.log(2.0)
THETA_TMB = math.log(0.15)
#: The periods of the published streams: ten days for ACTG 175, one month for the cancer cohort (the
#: authors' code; the captions say "daily", see the reproduction notes).
PAPER_PERIOD_DAYS = 10.0
PAPER_PERIOD_MONTHS = 1.0
#: Which belief each likelihood's row shows: Algorithm 3's terminal belief with the paper's likelihood,
#: the time-averaged "belief" of the authors' code as published.
BELIEF = {"paper": "terminal", "as_published": "time_average"}
#: Deviations of the published items from the paper, as (title, reproduction-notes label).
DEVIATIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "p003-fig14-1c": (
        ("authors' likelihood", "note-ol-likelihood"),
        ("time-averaged belief", "note-ol-belief"),
        ("periods of ten days, not one", "note-ol-periods"),
    ),
    "p003-fig14-6": (
        ("authors' likelihood", "note-ol-likelihood"),
        ("time-averaged belief", "note-ol-belief"),
        ("periods of one month, not one day", "note-ol-periods"),
        ("order of tied times", "note-ol-ties"),
        ("binary TMB covariate", "note-ol-covariate"),
        ("ε and graph of the published run", "note-ol-fig146-eps"),
    ),
}


def _synthetic_constraints(values: Mapping[str, Any]) -> None:
    graphs = [values["graph"], *values["graphs"]]
    if "cycle" in graphs and values["n_agents"] % 2 == 0:
        raise ParameterError(
            f"a cycle of even length n_agents = {values['n_agents']} is periodic under Metropolis–Hastings "
            "weights (b* = 1, Theorem 4.7 gives no horizon): use an odd n_agents or another graph"
        )
    if values["n_agents"] < values["n_states"] - 1:
        raise ParameterError(
            f"n_agents must be at least n_states − 1 = {values['n_states'] - 1}, so that every wrong state "
            f"is told apart by some agent (got n_agents = {values['n_agents']})"
        )


#: Rough costs of a run on one core (measured on this book's 2-core machine, to within a factor of
#: about 2): one update of one agent's log-belief of one state, in one replication at one noise scale,
#: which grows with the number of agents (the network's matrix product and the working set); and one
#: period of a loop.
_UPDATE_SECONDS = 1e-7
_UPDATE_AGENTS = 25
_PERIOD_SECONDS = 5e-5
_FIXED_SECONDS = 20.0  # data, figures and the kernel
#: The longest times of the cohorts (days for ACTG 175, months for the cancer cohort), so the number of
#: periods a period length gives; the recorded periods of a curve, at most.
_LAST_DAY, _LAST_MONTH, _CURVE_POINTS = 1231, 80, 50


def _footprint(v: Mapping[str, Any]) -> Footprint:
    """Memory of the largest arrays and time of a run, from its parameters."""
    n, m, R = v["n_agents"], v["n_states"], v["replications"]
    T, LT, S = v["horizon"], v["limit_horizon"], 1 + len(v["eps_values"])
    curves = len(v["graphs"]) + len(v["arrival_rates"])
    units = n * m * (R * LT + LT + S * T + S * R * T + curves * R * T)
    periods = 2 * LT + (2 + curves) * T
    clinical = [math.floor(_LAST_DAY / v["period_days"]) + 1] * 2 + [
        math.floor(_LAST_MONTH / v["period_months"]) + 1
    ] * 4
    clinical_units = sum(t * (R + 1) * v["n_centers"] * 2 for t in clinical)
    periods += 2 * sum(clinical)
    sweep_bytes = 8 * n * m * R * S * (_CURVE_POINTS + 4 * BLOCK)
    stream_bytes = 8 * 3 * max(clinical) * R * v["n_centers"] * 2
    per_update = _UPDATE_SECONDS * (1 + n / _UPDATE_AGENTS)
    per_centre = _UPDATE_SECONDS * (1 + v["n_centers"] / _UPDATE_AGENTS)
    seconds = _FIXED_SECONDS + units * per_update + clinical_units * per_centre + periods * _PERIOD_SECONDS
    return Footprint(memory=float(max(sweep_bytes, stream_bytes)), seconds=seconds)


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20250301),
        "n_agents": Param(
            integer(ge=3, le=100),
            "agents n of the synthetic streams (at least 3: with two, Metropolis–Hastings weights swap "
            "the agents' beliefs every period, b* = 1, and Theorem 4.7 gives no horizon)", default=10,
        ),
        "n_states": Param(
            integer(ge=2, le=10), "states |Θ| of the synthetic streams (θ° is the first)", default=3
        ),
        "signal_shift": Param(
            real(gt=0.0, lt=0.5), "Bernoulli signals: p = 0.5 + shift at an agent's own state, else 0.5",
            default=0.3,
        ),
        "gaussian_shift": Param(
            real(gt=0.0, le=10.0), "Gaussian signals of the convergence check: mean shift, in units of σ",
            default=2.0,
        ),
        "graph": Param(choice(*GRAPHS), "graph of the privacy sweep", default="complete"),
        "graphs": Param(
            list_of(choice(*GRAPHS)), "graphs of the mixing comparison", default=["complete", "star", "path"]
        ),
        "arrival_rate": Param(
            real(gt=0.0, le=1.0), "chance ξ that an agent gets a signal in a period (privacy sweep)",
            default=1.0,
        ),
        "arrival_rates": Param(
            list_of(real(gt=0.0, le=1.0)), "arrival chances ξ of the arrival-rate comparison",
            default=[1.0, 0.5, 0.2],
        ),
        "eps_values": Param(
            eps_grid(allow_zero=False), "privacy budgets ε of the synthetic sweep",
            default=[0.25, 0.5, 1.0, 2.0, 5.0],
        ),
        "eps_compare": Param(
            real(gt=0.0), "ε of the mixing and arrival-rate comparisons", default=2.0
        ),
        "eta": Param(real(gt=0.0, lt=0.5), "error probability η of Theorem 4.7's horizon", default=0.05),
        "horizon": Param(
            integer(ge=10, le=200_000), "periods T of the synthetic sweeps", quick=2000, full=12000
        ),
        "limit_horizon": Param(
            integer(ge=100, le=200_000), "periods of the convergence check", quick=5000, full=20000
        ),
        "replications": Param(
            integer(ge=20), "Monte Carlo replications per curve and cohort", quick=100, full=200
        ),
        "n_centers": Param(
            integer(ge=2, le=50), "centres n of the clinical streams, on a complete graph",
            default=ACTG_RUN["n_centers"], paper=AS_DEFAULT,
        ),
        "eps": Param(
            real(gt=0.0), "privacy budget ε of the clinical streams", default=ACTG_RUN["eps"],
            paper=AS_DEFAULT,
        ),
        "period_days": Param(
            real(ge=1.0, le=365.0),
            "period of the ACTG 175 stream, in days (the data's times are whole days)",
            default=PAPER_PERIOD_DAYS, paper=AS_DEFAULT,
        ),
        "period_months": Param(
            real(ge=1.0, le=24.0),
            "period of the cancer-cohort stream, in months (the data's times are whole months)",
            default=PAPER_PERIOD_MONTHS, paper=AS_DEFAULT,
        ),
    },
    constraints=(_synthetic_constraints,),
    # the published runs drew from SeedSequence([seed, *key]) under these integer keys
    streams={
        "convergence": (500, 0), "sample-paths": (500, 1), "p003-sec4-3": (500, 2), "mixing": (501,),
        "arrivals": (502,), "p003-fig14-1c": (503,), "p003-fig14-6": (504,),
    },
    footprint=_footprint,
)  # fmt: skip


def time_grid(T: int, extra: Sequence[int] = ()) -> NDArray[np.int64]:
    """Forty log-spaced periods from 1 to ``T`` (rounded, without repeats), plus those of ``extra`` that fall
    inside."""
    grid = np.r_[np.geomspace(1, T, 40).round(), [t for t in extra if t <= T]]
    return np.unique(grid).astype(int)


# ---------------------------------------------------------------------------------------------------
# the synthetic streams
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Signals:
    """The synthetic streams' laws and constants.

    Attributes
    ----------
    bernoulli, gaussian
        The private streams' Bernoulli laws, and the Gaussian laws of the convergence check (σ = 1).
    weights, b_star
        The Metropolis–Hastings matrix of the ``graph`` parameter and its second largest eigenvalue
        modulus.
    xi, eta
        The arrival chance ξ and the error probability η of the privacy sweep.
    """

    bernoulli: inf.SignalModel
    gaussian: inf.SignalModel
    weights: NDArray[np.float64]
    b_star: float
    xi: float
    eta: float

    @property
    def n_agents(self) -> int:
        return self.bernoulli.n_agents

    @property
    def n_states(self) -> int:
        return self.bernoulli.n_states

    @property
    def delta(self) -> float:
        """Δ: the sensitivity of one Bernoulli signal's log-likelihood."""
        return self.bernoulli.sensitivity()

    @property
    def spread(self) -> float:
        """Q: the largest standard deviation of one signal's log-likelihood ratio under θ°."""
        return self.bernoulli.llr_spread(TRUTH)

    def scale(self, eps: float | None) -> float:
        """The Laplace scale Δ|Θ|/ε of Algorithm 3 (0 without privacy, ``eps = None``)."""
        return 0.0 if eps is None else float(inf.noise_scale(self.delta, self.n_states, eps))

    def horizon(self, eps: float | None, *, slem: float | None = None, xi: float | None = None,
                version: str = "003") -> float:  # fmt: skip
        """Theorem 4.7's horizon (``version="003"``) or the earlier version's (``"000"``), real-valued."""
        rate = self.xi if xi is None else xi
        gap = inf.online_gap(self.bernoulli.kl(TRUTH), rate, TRUTH)
        return inf.online_horizon(
            n_agents=self.n_agents, n_states=self.n_states, llr_spread=self.spread,
            noise_scale=self.scale(eps), xi=rate, chi=inf.arrival_variance(rate), gap=gap, eta=self.eta,
            slem=self.b_star if slem is None else slem, version=version,  # type: ignore[arg-type]
            rho=math.log(self.n_states),
        )  # fmt: skip

    @property
    def table(self) -> pd.DataFrame:
        """Each agent's success chance p_i(θ) at every state, with the state it tells apart."""
        p = self.bernoulli.params
        frame = pd.DataFrame(p, columns=[f"θ{k}" if k else "θ° = θ0" for k in range(self.n_states)])
        frame.insert(0, "agent", np.arange(1, self.n_agents + 1))
        frame["tells apart"] = [f"θ{k}" for k in 1 + np.arange(self.n_agents) % (self.n_states - 1)]
        return frame


def signals(P: Parameters) -> Signals:
    """The Bernoulli and Gaussian laws of the synthetic agents (each tells one wrong state apart), on the
    ``graph`` network."""
    bern = inf.informative_model(P.n_agents, P.n_states, kind="bernoulli", shift=P.signal_shift)
    gauss = inf.informative_model(P.n_agents, P.n_states, kind="gaussian", base=0.0, shift=P.gaussian_shift)
    A = networks.dense_weights(P.graph, P.n_agents)
    return Signals(bern, gauss, A, networks.spectral_constants(A).b_star, P.arrival_rate, P.eta)


@dataclass(frozen=True)
class Convergence:
    """The non-private time average against its limit (Gaussian signals), and one private Bernoulli stream
    at every ε.

    Attributes
    ----------
    limit_gaussian, limit_bernoulli
        The closed-form limit ``−(1/n) Σ ξ_i KL_i(θ)`` of each state.
    periods, replications
        The periods and runs of the convergence check.
    gap, se
        The largest relative gap between the runs' mean ratio and the limit, over agents and wrong states,
        and the largest relative standard error of those means.
    gaussian_times, gaussian_paths
        One non-private Gaussian run: ψ at the recorded periods, ``(len(times), n, |Θ|)``.
    times, paths, eps
        One Bernoulli stream, without noise and at every ε: ψ, ``(1 + len(eps), len(times), n, |Θ|)``.
    """

    limit_gaussian: NDArray[np.float64]
    limit_bernoulli: NDArray[np.float64]
    periods: int
    replications: int
    gap: float
    se: float
    gaussian_times: NDArray[np.int64]
    gaussian_paths: NDArray[np.float64]
    times: NDArray[np.int64]
    paths: NDArray[np.float64]
    eps: tuple[float, ...]

    def figure(self) -> Figure:
        """(a) every agent's Gaussian ratio against its limit; (b) agent 1's Bernoulli ratio at every ε."""
        fig, axes = plotting.panel_row(2, height=3.2)
        tg = self.gaussian_times
        ratios = inf.time_averaged_ratios(self.gaussian_paths, times=tg)[:, :, 1]
        plotting.ratio_paths(axes[0], ratios, t=tg, limit=self.limit_gaussian[1],
                             limit_label="closed-form limit", name=None)  # fmt: skip
        axes[0].set(ylabel="(ψ(θ1) − ψ(θ°)) / t", title="(a) Gaussian signals, no DP")
        agent1 = inf.time_averaged_ratios(self.paths, times=self.times)[:, :, 0, 1]
        for s, label in enumerate(["no DP"] + [f"ε = {e:g}" for e in self.eps]):
            axes[1].plot(self.times, agent1[s], lw=1.0, label=label, color="0.1" if s == 0 else f"C{s - 1}")
        axes[1].axhline(self.limit_bernoulli[1], color="0.1", ls="--", lw=1.2)
        axes[1].set(xscale="log", xlabel="period t", title="(b) Bernoulli signals, agent 1, private")
        axes[1].set_ylim(self.limit_bernoulli[1] - 1.5, 1.5)
        for ax in axes:
            ax.legend(fontsize=plotting.SMALL)
        return fig


def convergence(P: Parameters, sig: Signals) -> Convergence:
    """``replications`` non-private Gaussian runs over ``limit_horizon`` periods (stream ``convergence``);
    one Gaussian run and one Bernoulli stream at every ε (stream ``sample-paths``, in that order)."""
    A, xi, R, LT = sig.weights, sig.xi, P.replications, P.limit_horizon
    limit_g = inf.online_limit(sig.gaussian.kl(TRUTH), xi)
    final = inf.simulate_online(P.rng("convergence"), sig.gaussian, A, xi=xi, T=LT, n_reps=R, times=[LT])[0]
    gap, se = inf.limit_error(inf.time_averaged_ratios(final, times=[LT])[:, 0], limit_g, TRUTH)
    rng = P.rng("sample-paths")
    tg, grid = time_grid(LT), time_grid(P.horizon)
    paths_g = inf.simulate_online(rng, sig.gaussian, A, xi=xi, T=LT, n_reps=1, times=tg)[0, 0]
    scales = [sig.scale(None)] + [sig.scale(e) for e in P.eps_values]
    paths_b = inf.simulate_online(rng, sig.bernoulli, A, xi=xi, T=P.horizon, n_reps=1, noise_scales=scales,
                                  times=grid)[:, 0]  # fmt: skip
    return Convergence(
        limit_g,
        inf.online_limit(sig.bernoulli.kl(TRUTH), xi),
        LT,
        R,
        gap,
        se,
        tg,
        paths_g,
        grid,
        paths_b,
        tuple(P.eps_values),
    )


def _eps_labels(eps: Sequence[float | None]) -> list[str]:
    """How the sweep's tables and figure name each run: ``no DP``, then the ε values."""
    return ["no DP" if e is None else f"{e:g}" for e in eps]


@dataclass(frozen=True)
class PrivacySweep:
    """§4.3: the probability that an agent identifies θ° against the period, without noise and at every ε,
    against Theorem 4.7's horizon.

    Attributes
    ----------
    eps
        ``None`` (no DP), then the run's ε values.
    times, probability, se
        The recorded periods and, per ε, the probability and its Monte Carlo standard error.
    horizons, horizons_000
        Per ε, Theorem 4.7's horizon and the earlier version's (Theorem 3.6), real-valued.
    table
        Per ε: the Laplace scale, both horizons, the probability at Theorem 4.7's horizon (``nan`` beyond the
        simulated periods) and the first period at which it reaches 1 − 2η.
    checks
        §4.3 and Theorem 4.7 on the synthetic streams.
    """

    eps: tuple[float | None, ...]
    times: NDArray[np.int64]
    probability: NDArray[np.float64]
    se: NDArray[np.float64]
    horizons: tuple[float, ...]
    horizons_000: tuple[float, ...]
    table: pd.DataFrame
    eta: float
    title: str
    checks: Mapping[str, list[Check]]

    @property
    def labels(self) -> list[str]:
        return _eps_labels(self.eps)

    @property
    def curve(self) -> pd.DataFrame:
        """One row per (ε, period): the probability and its standard error."""
        return pd.DataFrame([
            {"eps": e, "ε": label, "T": int(t), "mean": self.probability[s, j], "se": self.se[s, j]}
            for s, (e, label) in enumerate(zip(self.eps, self.labels, strict=True))
            for j, t in enumerate(self.times)
        ])  # fmt: skip

    @property
    def slope(self) -> float:
        """a in T ∝ ε^−a between the smallest and the largest ε (Theorem 4.7's horizon)."""
        (e1, h1), (e2, h2) = (self.eps[1], self.horizons[1]), (self.eps[-1], self.horizons[-1])
        return math.log(h1 / h2) / math.log(e2 / e1)  # type: ignore[operator]

    @property
    def level(self) -> float:
        """1 − 2η: the probability Theorem 4.7 promises at its horizon."""
        return 1 - 2 * self.eta

    @property
    def lowest_at_horizon(self) -> tuple[str | None, float]:
        """Which run (``"ε = 2"``, ``"the non-private run"``) has the lowest probability at Theorem 4.7's
        horizon, the first of them on a tie, and that probability (``(None, nan)`` when no horizon falls
        inside the simulated periods)."""
        inside = self.table.dropna(subset=["P at that T"])
        if inside.empty:
            return None, math.nan
        row = inside.loc[inside["P at that T"].idxmin()]
        label = "the non-private run" if row["ε"] == "no DP" else f"ε = {row['ε']}"
        return label, float(row["P at that T"])

    @property
    def earlier_factor(self) -> tuple[float, float]:
        """The smallest and largest ratio of the earlier version's horizon to Theorem 4.7's, over ε."""
        ratios = [h0 / h for h, h0 in zip(self.horizons, self.horizons_000, strict=True)]
        return min(ratios), max(ratios)

    def metrics(self) -> dict[str, Any]:
        return {"identification_probability": [
            {"eps": e, "T": int(t), "probability": float(self.probability[s, j]), "se": float(self.se[s, j])}
            for s, e in enumerate(self.eps) for j, t in enumerate(self.times)
        ]}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"p003-sec4-3": self.curve.drop(columns="ε"), "p003-sec4-3-horizons": self.table}

    def styled_table(self) -> Any:
        """``table`` for people (:func:`~dpnet.formatting.for_people`), with a dash, explained, where
        the horizon is beyond the simulated T."""
        return for_people(self.table, labels=["ε"], undefined="beyond the simulated T")

    def figure(self) -> Figure:
        fig, axes = plotting.panel_row(1, width=7.2, height=4.0)
        ax = axes[0]
        plotting.band_curves(ax, self.curve, x="T", group="ε")
        for s, h in enumerate(self.horizons):
            if h <= self.times[-1]:
                ax.axvline(h, color=f"C{s}", ls=":", lw=1.2)
        ax.axhline(self.level, color="0.2", ls="--", lw=1.0, label=f"1 − 2η = {self.level:g}")
        ax.set(xscale="log", xlabel="period T", ylabel="P[agent's argmax is θ°]", ylim=(0, 1.02),
               title=self.title)  # fmt: skip
        ax.legend(loc="lower right")
        return fig


def privacy_sweep(P: Parameters, sig: Signals, conv: Convergence) -> PrivacySweep:
    """``replications`` private streams of ``horizon`` periods, every ε on the same signals (stream
    ``p003-sec4-3``), recorded on a log grid of periods plus Theorem 4.7's horizons; the §4.3 checks."""
    eps: tuple[float | None, ...] = (None, *P.eps_values)
    H = tuple(sig.horizon(e) for e in eps)
    H000 = tuple(sig.horizon(e, version="000") for e in eps)
    times = time_grid(P.horizon, [math.ceil(h) for h in H])
    scales = [sig.scale(e) for e in eps]
    psi = inf.simulate_online(P.rng("p003-sec4-3"), sig.bernoulli, sig.weights, xi=sig.xi, T=P.horizon,
                              n_reps=P.replications, noise_scales=scales, times=times)  # fmt: skip
    prob, se = inf.identification_rate(psi, TRUTH)
    labels = _eps_labels(eps)
    rows = []
    for s, e in enumerate(eps):
        h = math.ceil(H[s])
        j = list(times).index(h) if h <= P.horizon else None
        rows.append({"ε": labels[s], "Laplace scale": sig.scale(e), "T of Thm 4.7": h,
                     "P at that T": math.nan if j is None else float(prob[s, j]),
                     "s.e.": math.nan if j is None else float(se[s, j]),
                     "first T with P ≥ 1 − 2η": inf.first_reach(prob[s], times, 1 - 2 * sig.eta),
                     "T of 000's Thm 3.6": math.ceil(H000[s])})  # fmt: skip
    table = pd.DataFrame(rows)
    inside = table.dropna(subset=["P at that T"])
    at_horizon = {r["ε"]: (r["P at that T"], r["s.e."]) for _, r in inside.iterrows()}
    checks = ref.section43_checks(
        limit_gap=conv.gap, limit_se=conv.se, limit_T=conv.periods, prob=prob, se=se, times=times.tolist(),
        labels=labels, at_horizon=at_horizon, n_agents=sig.n_agents, n_reps=P.replications, eta=sig.eta,
    )  # fmt: skip
    title = f"{P.graph} graph, n = {sig.n_agents}, |Θ| = {sig.n_states}, ξ = {sig.xi:g}"
    return PrivacySweep(eps, times, prob, se, H, H000, table, sig.eta, title, {"p003-sec4-3": checks})


@dataclass(frozen=True)
class CurveTask:
    """One identification curve of the comparisons: its position in its list (the key of its random
    stream), the graph, the arrival chance and the run's sizes."""

    index: int
    graph: str
    xi: float
    n_agents: int
    n_states: int
    shift: float
    periods: int
    replications: int
    scale: float


def identification_curve(task: CurveTask, rng: np.random.Generator) -> tuple[NDArray, NDArray, NDArray]:
    """The periods, probability and standard error of identifying θ° on the task's private streams."""
    model = inf.informative_model(task.n_agents, task.n_states, kind="bernoulli", shift=task.shift)
    t = time_grid(task.periods)
    A = networks.dense_weights(task.graph, task.n_agents)
    run = inf.simulate_online(rng, model, A, xi=task.xi, T=task.periods, n_reps=task.replications,
                              noise_scales=[task.scale], times=t)  # fmt: skip
    p, se = inf.identification_rate(run, TRUTH)
    return t, p[0], se[0]


@dataclass(frozen=True)
class Comparison:
    """The identification curve at ``eps_compare`` on each graph (mixing) and for each arrival chance.

    Attributes
    ----------
    eps, xi, graph
        The comparisons' ε, the mixing comparison's arrival chance and the arrival comparison's graph.
    mixing_curves, arrival_curves
        One row per (graph or arrival chance, period): ``mean`` and ``se``, with the column ``graph`` or
        ``ξ`` naming the curve.
    mixing, arrivals
        Per graph (b*) or arrival chance (the gap l): Theorem 4.7's horizon, the first period at which the
        probability reaches 1 − 2η (``None``: not within the horizon) and the probability at the last period.
    """

    eps: float
    xi: float
    graph: str
    mixing_curves: pd.DataFrame
    arrival_curves: pd.DataFrame
    mixing: pd.DataFrame
    arrivals: pd.DataFrame

    @property
    def horizon_ratio(self) -> float:
        """How much Theorem 4.7's horizon changes across the graphs (largest over smallest)."""
        h = self.mixing["T of Thm 4.7"]
        return float(h.max() / h.min())

    @property
    def reach_ratio(self) -> float:
        """How much the first period reaching 1 − 2η changes across the graphs (``nan`` unless all reach
        it)."""
        reached = self.mixing["first T with P ≥ 1 − 2η"].dropna()
        return float(reached.max() / reached.min()) if len(reached) == len(self.mixing) else math.nan

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"p003-sec4-3-mixing": self.mixing, "p003-sec4-3-arrivals": self.arrivals}

    def figure(self) -> Figure:
        fig, axes = plotting.panel_row(2, height=3.2)
        plotting.band_curves(axes[0], self.mixing_curves, x="T", group="graph")
        plotting.band_curves(axes[1], self.arrival_curves, x="T", group="ξ")
        titles = [f"graphs, ξ = {self.xi:g}", f"arrival chance ξ, {self.graph} graph"]
        for ax, title in zip(axes, titles, strict=True):
            ax.set(xscale="log", xlabel="period T", ylim=(0, 1.02), title=f"{title}, ε = {self.eps:g}")
            ax.legend(loc="lower right")
        axes[0].set_ylabel("P[agent's argmax is θ°]")
        return fig


def mixing_and_arrivals(P: Parameters, sig: Signals) -> Comparison:
    """The privacy sweep's curve at ``eps_compare`` on every graph of ``graphs`` (stream ``mixing``) and for
    every arrival chance of ``arrival_rates`` on ``graph`` (stream ``arrivals``), child k for the k-th."""
    common = {"n_agents": sig.n_agents, "n_states": sig.n_states, "shift": P.signal_shift,
              "periods": P.horizon, "replications": P.replications,
              "scale": sig.scale(P.eps_compare)}  # fmt: skip
    level = 1 - 2 * sig.eta
    graphs = [CurveTask(k, g, sig.xi, **common) for k, g in enumerate(P.graphs)]
    out = sweep(identification_curve, graphs, P.stream("mixing"), key=lambda t: (t.index,), desc="graphs")
    curves, rows = [], []
    for task in graphs:
        t, p, se = out[task]
        b_star = networks.spectral_constants(networks.dense_weights(task.graph, sig.n_agents)).b_star
        curves += [{"graph": f"{task.graph} (b* = {b_star:.2f})", "T": int(x), "mean": p[j], "se": se[j]}
                   for j, x in enumerate(t)]  # fmt: skip
        h = sig.horizon(P.eps_compare, slem=b_star)
        rows.append({"graph": task.graph, "b*": b_star, "T of Thm 4.7": math.ceil(h),
                     "first T with P ≥ 1 − 2η": inf.first_reach(p, t, level),
                     "P at the last T": float(p[-1])})  # fmt: skip
    rates = [CurveTask(k, P.graph, r, **common) for k, r in enumerate(P.arrival_rates)]
    out = sweep(identification_curve, rates, P.stream("arrivals"), key=lambda t: (t.index,), desc="arrivals")
    rate_curves, rate_rows = [], []
    for task in rates:
        t, p, se = out[task]
        rate_curves += [
            {"ξ": f"{task.xi:g}", "T": int(x), "mean": p[j], "se": se[j]} for j, x in enumerate(t)
        ]
        rate_rows.append({"ξ": task.xi, "l": inf.online_gap(sig.bernoulli.kl(TRUTH), task.xi, TRUTH),
                          "T of Thm 4.7": math.ceil(sig.horizon(P.eps_compare, xi=task.xi)),
                          "first T with P ≥ 1 − 2η": inf.first_reach(p, t, level),
                          "P at the last T": float(p[-1])})  # fmt: skip
    return Comparison(
        P.eps_compare,
        sig.xi,
        P.graph,
        pd.DataFrame(curves),
        pd.DataFrame(rate_curves),
        pd.DataFrame(rows),
        pd.DataFrame(rate_rows),
    )


# ---------------------------------------------------------------------------------------------------
# the clinical streams (paper Figures 14.1(c) and 14.6)
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Cohort:
    """A cohort split over the centres: times, events and covariate, centre labels, states, sensitivity."""

    frame: pd.DataFrame
    centres: NDArray[np.int64]
    states: NDArray[np.float64]
    delta: float


@dataclass(frozen=True)
class StreamTask:
    """One clinical stream: which cohort and covariate, which likelihood, how tied times are ordered, the
    period, ε, the replications, and its position (the key of its random stream)."""

    index: int
    covariate: str
    variant: str
    ties: str
    period: float
    eps: float
    replications: int


def _limit(runs: inf.OnlineRuns) -> float:
    """Algorithm 5's time-averaged log-belief ratio of the alternative at T, mean over the centres."""
    return float(runs.limit[:, 1].mean())


def _stream_runs(cohorts: Mapping[str, _Cohort], A: NDArray[np.float64], task: StreamTask,
                 rng: np.random.Generator) -> inf.OnlineRuns:  # fmt: skip
    """Algorithm 5 once and Algorithm 3 ``replications`` times on the task's stream."""
    c = cohorts[task.covariate]
    stream = sv.period_loglik(c.frame.x, c.frame.time, c.frame.event, c.centres, c.states,
                              period_length=task.period, variant=task.variant, ties=task.ties)  # type: ignore[arg-type]  # fmt: skip
    scale = inf.noise_scale(c.delta, len(c.states), task.eps)
    return inf.online_runs(stream, A, noise_scale=scale, n_reps=task.replications, rng=rng)


def _runs(P: Parameters, item: str, cohorts: Mapping[str, _Cohort], variants: Sequence[tuple[str, str, str]],
          period: float) -> dict[str, inf.OnlineRuns]:  # fmt: skip
    """One stream per (covariate, likelihood, tie order), child k of the item's stream for the k-th."""
    tasks = [
        StreamTask(k, cov, v, ties, period, P.eps, P.replications)
        for k, (cov, v, ties) in enumerate(variants)
    ]
    A = networks.dense_weights("complete", P.n_centers)
    out = sweep(functools.partial(_stream_runs, cohorts, A), tasks, P.stream(item), key=lambda t: (t.index,),
                desc=item)  # fmt: skip
    return {f"{t.covariate}/{t.variant}": out[t] for t in tasks}


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

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return tuple((self.item, title, note) for title, note in DEVIATIONS[self.item])

    @property
    def periods(self) -> int:
        return next(iter(self.runs.values())).periods

    def key(self, version: str) -> str:
        """The version's key in the metrics: ``actg/paper``, ``cancer-raw/as_published``."""
        cov, v = version.split("/")
        return f"{self.cohort}/{v}" if self.cohort == "actg" else f"{self.cohort}-{cov}/{v}"

    def limit(self, version: str) -> float:
        """The non-private time-averaged ratio at T, mean over the centres."""
        return _limit(self.runs[version])

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


def _setting(P: Parameters, period: str) -> bool:
    return P.is_paper("n_centers", "eps", period)


def actg_stream(P: Parameters) -> StreamStudy:
    """Figure 14.1(c): ACTG 175, ddI against ZDV, streamed every ``period_days`` days to ``n_centers``
    centres, with the paper's likelihood and as published (stream ``p003-fig14-1c``, children 0 and 1)."""
    ddi = sv.arm_cohort(sv.load_actg175(), "ddI")
    centres = sv.cohort_centres(ddi.index.to_numpy(), P.n_centers)
    states = np.array([0.0, THETA1])
    cohort = _Cohort(ddi, centres, states, sv.cox_sensitivity(abs(THETA1)))
    variants = [("treatment", "paper", "row"), ("treatment", "as_published", "row")]
    runs = _runs(P, "p003-fig14-1c", {"treatment": cohort}, variants, P.period_days)
    pooled = sv.centre_loglik(ddi.x, ddi.time, ddi.event, centres, states).sum(axis=0)
    paper, as_published = runs["treatment/paper"], runs["treatment/as_published"]
    T = paper.periods
    noise_sd = 2 * paper.noise_scale / math.sqrt(P.n_centers * T)
    limit = _limit(paper)
    extra = {"full_limit": float((pooled[1] - pooled[0]) / (P.n_centers * T)), "noise_sd": float(noise_sd),
             "noise_to_limit": float(noise_sd / abs(limit)) if limit else math.nan}  # fmt: skip
    titles = {"treatment/paper": f"paper's likelihood, ε = {P.eps:g}",
              "treatment/as_published": f"as published, ε = {P.eps:g}"}  # fmt: skip
    published = _setting(P, "period_days")
    checks = ref.figure14_1c_checks(T, as_published.limit[:, 1].tolist(), as_published.agreement(),
                                    P.replications, published=published)  # fmt: skip
    deltas = dict.fromkeys(runs, cohort.delta)
    return StreamStudy("p003-fig14-1c", "actg", runs, titles, ("0", "−log 2"), deltas, extra,
                       {"p003-fig14-1c": checks}, published)  # fmt: skip


def cancer_stream(P: Parameters) -> StreamStudy:
    """Figure 14.6: the cancer cohort streamed every ``period_months`` months to ``n_centers`` centres, with
    raw TMB as published and with the paper's likelihood, and with the top-10 % indicator (stream
    ``p003-fig14-6``, children 0, 1 and 2); the as-published limit with tied times in row order."""
    tmb = sv.load_samstein2019()
    states = np.array([0.0, THETA_TMB])
    cohorts = {}
    for cov in ("raw", "top10"):
        frame = sv.tmb_cohort(tmb, cov)
        delta = sv.cox_sensitivity(abs(THETA_TMB), float(np.abs(frame.x).max()))
        cohorts[cov] = _Cohort(frame, sv.cohort_centres(frame.index.to_numpy(), P.n_centers), states, delta)
    variants = [("raw", "as_published", "x_desc"), ("raw", "paper", "row"), ("top10", "paper", "row")]
    runs = _runs(P, "p003-fig14-6", cohorts, variants, P.period_months)
    raw = cohorts["raw"]
    row_stream = sv.period_loglik(raw.frame.x, raw.frame.time, raw.frame.event, raw.centres, states,
                                  period_length=P.period_months, variant="as_published",
                                  ties="row")  # fmt: skip
    A = networks.dense_weights("complete", P.n_centers)
    row_limit = float(inf.time_averaged_ratios(inf.online_log_ratios(row_stream, A))[-1, :, 1].mean())
    titles = {"raw/as_published": "raw TMB, as published", "raw/paper": "raw TMB, paper's likelihood",
              "top10/paper": "top-10 % TMB, paper's likelihood"}  # fmt: skip
    deltas = {v: cohorts[v.split("/")[0]].delta for v in runs}
    published = _setting(P, "period_months")
    as_published = runs["raw/as_published"]
    checks = ref.figure14_6_checks(as_published.periods, _limit(as_published), _limit(runs["raw/paper"]),
                                   as_published.agreement(), P.replications, published=published)  # fmt: skip
    return StreamStudy("p003-fig14-6", "cancer", runs, titles, ("0", "log 0.15"), deltas,
                       {"row_limit": row_limit}, {"p003-fig14-6": checks}, published)  # fmt: skip


@dataclass(frozen=True)
class StreamSummary:
    """Both clinical studies' non-private limits, drawn private runs' final ratios and agreements, keyed
    ``actg/paper``, …, ``cancer-top10/paper``."""

    studies: tuple[StreamStudy, ...]

    @property
    def table(self) -> pd.DataFrame:
        """One row per stream: its key, T, the non-private limit and the share of private runs on its side."""
        return pd.DataFrame([
            {"stream": s.key(v), "T": s.periods, "non-private limit": s.limit(v),
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
