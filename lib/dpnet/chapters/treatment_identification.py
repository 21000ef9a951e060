"""Chapter 4, ``treatment-identification``: best treatment, first-order baseline, encryption (paper 003,
§5, §14.3, §14.4, Figures 5, 6 and 14.2).

The chapter's parameters (:data:`SCHEMA`) and its experiments. Each experiment takes the resolved
parameters, computes with the topic modules (:mod:`dpnet.survival`, :mod:`dpnet.inference`,
:mod:`dpnet.runtime`), checks the outcome against paper 003 with :mod:`dpnet.reference.identification`,
and returns a small frozen dataclass that the chapter records (:meth:`dpnet.results.Results.record`),
tabulates and plots:

- :func:`four_arms`: the centres' likelihood table over the four ACTG 175 arms;
- :func:`best_treatment` (Figure 5): one run and Monte Carlo rates, with the paper's noise and as
  published; :func:`best_arm_curve`: the probability of naming the best arm against ε;
- :func:`first_order_comparison` (Figure 6): distances to the non-private twins, against the
  first-order baseline;
- :func:`runtime_study` (Figure 14.2): the private test timed against a homomorphic-encryption baseline.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import encrypted, networks, runtime
from dpnet import inference as inf
from dpnet import survival as sv
from dpnet.errors import ParameterError
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
from dpnet.plotting import (
    SMALL,
    band_curves,
    belief_bars,
    distance_paths,
    grouped_bars,
    guarantee_line,
    panel_grid,
    panel_row,
    panel_rows,
    plain_log,
)
from dpnet.reference import identification as ref
from dpnet.reference._check import Check
from dpnet.reference.clinical import FIG4_BEST_ARM as BEST
from dpnet.reference.clinical import PAPER_PENALIZER
from dpnet.survival import comparison, treatments
from dpnet.sweep import sweep

__all__ = [
    "ALGORITHMS",
    "CONTROL",
    "SCHEMA",
    "BestArmCurve",
    "BestTreatment",
    "FirstOrderComparison",
    "FourArms",
    "RuntimeStudy",
    "best_arm_curve",
    "best_treatment",
    "first_order_comparison",
    "four_arms",
    "runtime_study",
]

#: The control arm of ACTG 175: every treatment is compared with it. The best arm (``BEST``) is that of
#: the pooled Cox fits of Figure 4.
CONTROL = "ZDV"
#: The belief-propagation algorithms of Figure 5, and their short names in metrics.json.
ALGORITHMS: dict[str, str] = {"GM": "gm", "AM": "am", "two-threshold": "thr"}
#: The two rows of Figure 5: the paper's noise, and the authors' reseeded noise.
FIG5_LABELS: dict[str, str] = {
    "paper": "paper's noise (independent)",
    "as_published": "as published (reseeded noise)",
}


def _runtime_rows_fit(values: Mapping[str, Any]) -> None:
    if min(values["runtime_rows"]) < max(values["runtime_n_values"]):
        raise ParameterError(
            f"every runtime_rows value must be at least the largest of runtime_n_values "
            f"{max(values['runtime_n_values'])}, so that no centre is empty (got {values['runtime_rows']})"
        )


#: Measured costs on this 2-core machine (one core), see :func:`_footprint`.
_STUDY_SECONDS = 2e-6  # one round of one centre of one replication of a four-arm private MLE study
_TRAJECTORY_SECONDS = 2.4e-7  # one (round, iteration, centre, arm) of a drawn run's belief trajectories
_FIG6_TASK_SECONDS = 0.27  # one Figure 6 point, beyond its replications: schedules, Cox models
_FIG6_GOSSIP_SECONDS = 1e-5  # one replication of one Figure 6 point, per n² (Algs 1-2, 4, the diffusion)
_FIG6_PERIOD_SECONDS = 2.3e-7  # one period of one centre of one replication of the online learning (Alg 5)
_RUNTIME_CENTRE_SECONDS = 0.028  # one centre of one timed point (the DP test and the CKKS baseline)
_RUNTIME_ROW_SECONDS = 5e-6  # one patient of one timed point
_FIXED_SECONDS = 30.0  # kernel, data, Cox fits, figures
#: The last day of follow-up in ACTG 175, so the number of periods a period length gives.
_LAST_DAY = 1231


def _footprint(values: Mapping[str, Any]) -> Footprint:
    """Peak memory and wall time of a run, from its parameters (see :class:`dpnet.params.Footprint`).

    With ``R = replications``, ``n = n_centers``, the authors' rounds over the four arms
    ``K = ⌈4 log(4/α)⌉``, the published ``K_p = published_rounds`` and ``T_p = published_iterations``,
    ``E = len(best_arm_eps)``, Figure 6's ``N = fig6_n_values`` and ``E₆ = len(fig6_eps)``, its
    ``P = ⌊1231/period_days⌋ + 1`` periods and ``K₆ = ⌈2 log(2/fig6_alpha)⌉``:

    * seconds: ``30`` ``+ 2·10⁻⁶·R·n·(K + K_p)·(1 + E)`` (Figure 5 and the best-arm curve: the
      paper's and the reseeded runs at each ε) ``+ 2.4·10⁻⁷·4·K_p·T_p·n`` (the drawn run's
      trajectories) ``+ 2·E₆·Σ_{m∈N} (0.27 + R·(10⁻⁵·m² + 2.3·10⁻⁷·m·P))`` (Figure 6's points, both
      variants) ``+ runtime_repeats·Σ_rows Σ_m (0.028·m + 5·10⁻⁶·rows)`` (Figure 14.2's timings);
    * memory, the largest of: a study's ``(R, K, n, 4)`` noise and log-ratios with their temporaries,
      ``400·R·(K + K_p)·n`` bytes; the trajectories, ``32·K_p·T_p·n``; a Figure 6 point's online
      noise and log-ratios, ``48·R·max(N)·(P + K₆)``; the timings' CKKS contexts and cohort,
      ``4.5·10⁵·max(runtime_n_values) + 270·max(runtime_rows)``.

    Calibrated on this 2-core machine, one core (TenSEAL installed): Figure 5 took 0.8 s at the quick
    defaults, 1.3 s at R = 2000, 24 s and 0.85 GiB at K_p = 1000, T_p = 5000 (the trajectories);
    the curve 0.5 s, 4.2 s at R = 2000 and 12.3 s and 0.28 GiB at n = 20, R = 2000; four Figure 6
    points at n = 10 took 1.9 s, 8.9 s and 0.12 GiB at R = 2000, 3.9 s and 0.12 GiB at one-day
    periods, 15.1 s at n = 40 (the quick defaults' 42 points: 25.7 s); the timings 10.9 s at the
    defaults, 13.9 s and 0.22 GiB for one point at 500 centres, 1.1 s at 200 000 rows.
    """
    R, n, E = values["replications"], values["n_centers"], len(values["best_arm_eps"])
    K = math.ceil(4 * math.log(4 / values["alpha"]))
    K_p, T_p = values["published_rounds"], values["published_iterations"]
    N, E6 = values["fig6_n_values"], len(values["fig6_eps"])
    periods = math.floor(_LAST_DAY / values["period_days"]) + 1
    K6 = math.ceil(2 * math.log(2 / values["fig6_alpha"]))
    n_rt, rows = values["runtime_n_values"], values["runtime_rows"]
    seconds = (
        _FIXED_SECONDS
        + _STUDY_SECONDS * R * n * (K + K_p) * (1 + E)
        + _TRAJECTORY_SECONDS * 4 * K_p * T_p * n
        + 2 * E6 * sum(
            _FIG6_TASK_SECONDS + R * (_FIG6_GOSSIP_SECONDS * m**2 + _FIG6_PERIOD_SECONDS * m * periods)
            for m in N
        )
        + values["runtime_repeats"] * (
            _RUNTIME_CENTRE_SECONDS * len(rows) * sum(n_rt) + _RUNTIME_ROW_SECONDS * len(n_rt) * sum(rows)
        )
    )  # fmt: skip
    memory = max(
        400.0 * R * (K + K_p) * n,
        32.0 * K_p * T_p * n,
        48.0 * R * max(N) * (periods + K6),
        4.5e5 * max(n_rt) + 270.0 * max(rows),
    )
    return Footprint(memory=memory, seconds=seconds)


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20250214),
        "n_centers": Param(
            integer(ge=2, le=20), "centres n of the best-treatment runs (complete graph)",
            default=ref.FIG5_N_CENTRES, paper=AS_DEFAULT,
        ),
        "split": Param(
            choice("round_robin", "random"),
            "how patients are assigned to centres: the authors' row index mod n, or a seeded balanced split",
            default=ref.FIG5_SPLIT, paper=AS_DEFAULT,
        ),
        "eps": Param(
            real(gt=0.0), "privacy budget ε of Figure 5's runs", default=ref.FIG5_EPS, paper=AS_DEFAULT
        ),
        "alpha": Param(
            real(gt=0.0, lt=0.5), "α = 1 − β of Figure 5's runs", default=ref.FIG5_ALPHA, paper=AS_DEFAULT
        ),
        "threshold": Param(
            real(gt=0.0, lt=0.5),
            "belief threshold τ of AM, GM and the frequencies (below 1/2: τ = 1/(1 + e^ϱ) needs ϱ > 0)",
            default=ref.FIG5_THRESHOLD, paper=AS_DEFAULT,
        ),
        "penalizer": Param(
            real(ge=0.0), "ridge penalty of the centres' GLRT fits (lifelines' convention; notebook: 0.1)",
            default=PAPER_PENALIZER, paper=AS_DEFAULT,
        ),
        "b_theta": Param(
            real(gt=0.0), "public bound B_θ on |θ|: the GLRTs' sensitivity Δ = 2B_θ, and §14.4's B_θ",
            default=ref.FIRST_ORDER_B_THETA, paper=AS_DEFAULT,
        ),
        "replications": Param(
            integer(ge=20), "Monte Carlo replications per probability and per TVD point", quick=200, full=1000
        ),
        "best_arm_eps": Param(
            eps_grid(allow_zero=False), "ε of the best-arm probability curve",
            default=[0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0],
        ),
        "reliable": Param(
            real(gt=0.0, lt=1.0), "probability of naming the best arm that counts as reliable", default=0.95
        ),
        "published_eps": Param(
            real(gt=0.0), "ε of the as-published Figure 5 (the authors' notebook; the caption says 1)",
            default=ref.FIG5_NOTEBOOK_EPS, paper=AS_DEFAULT,
        ),
        "published_rounds": Param(
            integer(ge=1, le=1000), "K of the as-published Figure 5 (the authors' notebook)",
            default=ref.FIG5_NOTEBOOK_ROUNDS, paper=AS_DEFAULT,
        ),
        "published_iterations": Param(
            integer(ge=1, le=5000), "T of the as-published Figure 5 (the authors' notebook)",
            default=ref.FIG5_NOTEBOOK_ITERATIONS, paper=AS_DEFAULT,
        ),
        "fig6_n_values": Param(
            list_of(integer(ge=2, le=50)), "numbers of centres of Figure 6", default=list(ref.FIG6_N),
            paper=AS_DEFAULT,
        ),
        "fig6_eps": Param(
            eps_grid(allow_zero=False), "privacy budgets ε of Figure 6", default=list(ref.FIG6_EPS),
            paper=AS_DEFAULT,
        ),
        "fig6_alpha": Param(
            real(gt=0.0, lt=0.5), "α = 1 − β of Figure 6's K and T", default=ref.FIG6_ALPHA, paper=AS_DEFAULT
        ),
        "fig6_rho": Param(real(gt=0.0), "ϱ of Figure 6's K and T", default=ref.FIG6_RHO, paper=AS_DEFAULT),
        "period_days": Param(
            real(gt=0.0), "online-learning period, in days (Figure 6's OL curve)",
            default=ref.FIG6_PERIOD_DAYS, paper=AS_DEFAULT,
        ),
        "learning_rate": Param(
            real(gt=0.0, le=1.0), "learning rate η of the first-order baseline",
            default=ref.FIRST_ORDER_LR, paper=AS_DEFAULT,
        ),
        "runtime_dataset": Param(
            choice("cancer", "actg"), "cohort of the runtime study (Figure 14.2)",
            default=ref.RUNTIME_DATASET, paper=AS_DEFAULT,
        ),
        "runtime_n_values": Param(
            list_of(integer(ge=2, le=500)), "numbers of centres of the runtime study",
            default=list(ref.RUNTIME_N), paper=AS_DEFAULT,
        ),
        "runtime_rows": Param(
            list_of(integer(ge=100, le=200_000)), "sizes of the resampled cohorts of the runtime study",
            default=list(ref.RUNTIME_ROWS), paper=AS_DEFAULT,
        ),
        "runtime_repeats": Param(
            integer(ge=1, le=20), "timed repetitions per point (the median is reported)", quick=1, full=3
        ),
    },
    constraints=(_runtime_rows_fit,),
    # the published runs drew from task_generators(seed, 6, [(400, k) ...]) and from sweeps keyed
    # (600, variant, n, ε position) and (700, rows)
    streams={
        "split": (400, 0),
        "p003-fig5/demo": (400, 1),
        "p003-fig5/mc": (400, 2),
        "p003-fig5/as-published-demo": (400, 3),
        "p003-fig5/as-published-mc": (400, 4),
        "best-arm-curve": (400, 5),
        "p003-fig6": (600,),
        "p003-fig14-2": (700,),
    },
    footprint=_footprint,
)  # fmt: skip


def _fig5_setting(P: Parameters) -> bool:
    return P.is_paper("n_centers", "split", "eps", "alpha", "threshold", "penalizer")


def _fig6_setting(P: Parameters) -> bool:
    return P.is_paper(
        "fig6_n_values", "fig6_eps", "fig6_alpha", "fig6_rho", "period_days", "learning_rate", "b_theta"
    )


def _runtime_setting(P: Parameters) -> bool:
    return P.is_paper("runtime_dataset", "runtime_n_values", "runtime_rows")


# The four arms --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FourArms:
    """The centres' generalised likelihood ratios of every ACTG 175 arm against ZDV, and their network.

    Attributes
    ----------
    arms
        The four arms, ZDV first.
    table
        ``table[i, a]``: centre ``i``'s log-likelihood ratio of arm ``a`` against ZDV, ``LRT/2`` of a
        ridge-penalised Cox fit on its own patients of the two arms (0 for ZDV), shape ``(n, 4)``.
    A, a_star
        The Metropolis–Hastings weights of the complete graph and their ``a*``.
    delta
        The sensitivity ``Δ = 2B_θ`` of every entry.
    alpha, threshold
        ``α = 1 − β`` and the belief threshold τ of the runs.
    checks
        The non-private beliefs against Figure 4's best arm, keyed by item.
    paper_setting
        Whether the run uses Figure 5's setting.
    """

    arms: tuple[str, ...]
    table: NDArray[np.float64]
    A: NDArray[np.float64]
    a_star: float
    delta: float
    alpha: float
    threshold: float
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    @property
    def rho(self) -> float:
        """ϱ of the threshold: ``τ = 1/(1 + e^ϱ)``."""
        return inf.log_belief_threshold(self.threshold)

    @property
    def totals(self) -> dict[str, float]:
        """Each arm's log-likelihood ratio against ZDV, summed over the centres."""
        return dict(zip(self.arms, self.table.sum(axis=0).tolist(), strict=True))

    @property
    def mle_arm(self) -> str:
        """The arm the non-private dynamics (Alg 4) converge to: the argmax of the sums."""
        return self.arms[int(np.argmax(self.table.sum(axis=0)))]

    @property
    def gap(self) -> float:
        """How far the largest sum lies above the second largest, in nats."""
        top, second = sorted(self.totals.values(), reverse=True)[:2]
        return top - second

    @property
    def target(self) -> NDArray[np.bool_]:
        """The set every centre should name: Figure 4's best arm."""
        return np.array([arm == BEST for arm in self.arms])

    @property
    def frame(self) -> pd.DataFrame:
        """One row per centre, and the sums."""
        out = pd.DataFrame(self.table, columns=list(self.arms))
        out.insert(0, "centre", [f"{i + 1}" for i in range(len(self.table))])
        out.loc[len(out)] = ["sum", *self.table.sum(axis=0)]
        return out

    def schedule(self, eps: float) -> sv.RunSchedule:
        """The authors' code ``K`` and ``T`` at budget ``eps``, with the paper's noise ``ΔK|Θ|/ε``."""
        return sv.code_schedule(self.table, a_star=self.a_star, delta=self.delta, eps=eps, alpha=self.alpha,
                                rho=self.rho, convention="paper")  # fmt: skip

    def difference_noise_sd(self, eps: float) -> float:
        """Standard deviation, at budget ``eps``, of the noise on the difference between two arms that GM
        sees: each centre's ``Lap(b)`` draws on the two states (:meth:`schedule`), summed over the ``n``
        centres and averaged over the ``K`` rounds, ``2b√(n/K) = 2Δ|Θ|√(nK)/ε``."""
        sched = self.schedule(eps)
        return 2.0 * sched.noise_scale * math.sqrt(len(self.table) / sched.K)

    def metrics(self) -> dict[str, Any]:
        """The sums and the gap, under their metrics.json names."""
        return {"arm_glrt_sum": self.totals, "gap_best_second": self.gap}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"ti-arm-glrt": self.frame}


def four_arms(P: Parameters, actg: pd.DataFrame) -> FourArms:
    """Split ACTG 175 over ``n_centers`` centres (stream ``split``) and fit every arm against ZDV."""
    centres = sv.cohort_centres(actg.index.to_numpy(), P.n_centers, method=P.split, rng=P.rng("split"))
    table, arms = treatments.arm_glrt_table(actg, centres, penalizer=P.penalizer, control=CONTROL)
    A = networks.dense_weights("complete", P.n_centers)
    mle_arm = arms[int(np.argmax(table.sum(axis=0)))]
    return FourArms(
        arms, table, A, networks.spectral_constants(A).a_star, sv.cox_sensitivity(P.b_theta), P.alpha,
        P.threshold, {"p003-fig5": [ref.best_arm_check(mle_arm)]}, _fig5_setting(P),
    )  # fmt: skip


# Figure 5 -------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class BestTreatment:
    """Paper 003, Figure 5: best-treatment identification with the paper's noise and as published.

    Attributes
    ----------
    arms
        The four arms and their network (:class:`FourArms`).
    eps
        Per variant (``"paper"``, ``"as_published"``), the budget of the run.
    studies
        Per variant, the drawn run and the replications (:class:`~dpnet.survival.studies.MLEStudy`).
    set_rates
        Per variant and algorithm, how often some centre names a treatment other than the best
        (``"wrong treatment"``) or no treatment at all (``"control only"``).
    checks
        Figure 5's claim, per algorithm, keyed by item.
    paper_setting
        Whether the run uses Figure 5's setting.
    """

    arms: FourArms
    eps: Mapping[str, float]
    studies: Mapping[str, sv.MLEStudy]
    set_rates: Mapping[str, dict[str, dict[str, float]]]
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    @property
    def table(self) -> pd.DataFrame:
        """Per variant and algorithm: K, T, ε, the noise scale and the three rates."""
        rows = []
        for v, st in self.studies.items():
            for k in ALGORITHMS:
                rows.append({
                    "noise": FIG5_LABELS[v], "algorithm": k, "K": st.K, "T": st.T, "ε": self.eps[v],
                    "noise scale b": st.noise_scale, f"P[every centre names {{{BEST}}}]": st.rates[k],
                    "P[some centre names another treatment]": self.set_rates[v][k]["wrong treatment"],
                    "P[some centre names no treatment]": self.set_rates[v][k]["control only"],
                })  # fmt: skip
        return pd.DataFrame(rows)

    def metrics(self) -> dict[str, Any]:
        """The numbers the chapter reports, under their metrics.json names."""
        paper, published = self.studies["paper"], self.studies["as_published"]
        out: dict[str, Any] = {
            "fig5_rates": self.table.to_dict("records"), "pub_K": published.K, "pub_T": published.T,
            "pub_eps": self.eps["as_published"], "honest_K": paper.K, "honest_T": paper.T,
            "honest_noise": paper.noise_scale,
        }  # fmt: skip
        for v, st in self.studies.items():
            for k, short in ALGORITHMS.items():
                out[f"fig5_{short}_{v}"] = st.rates[k]
                out[f"fig5_wrong_{short}_{v}"] = self.set_rates[v][k]["wrong treatment"]
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"p003-fig5": self.table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """On the paper's setting: the published run's reseeded noise and its settings."""
        return tuple(("p003-fig5", *d) for d in ref.FIG5_DEVIATIONS) if self.paper_setting else ()

    def figure(self) -> Figure:
        """Two rows (paper's noise, as published): final beliefs without privacy, with GM, AM and the
        two-threshold frequencies, and the distance to the non-private beliefs against t."""
        arms, tau = self.arms.arms, self.arms.threshold
        titles = [title for v in self.studies for title in (FIG5_LABELS[v], "")]
        k = len(self.studies)
        fig, rows = panel_rows([3, 2] * k, heights=[2.3, 2.2] * k, titles=titles)
        for bars, lines, st in zip(rows[::2], rows[1::2], self.studies.values(), strict=True):
            belief_bars(bars[0], st.nonprivate[-1], arms, title="no DP")
            belief_bars(bars[1], st.gm[-1], arms, title="GM", threshold=tau)
            belief_bars(bars[2], st.am[-1], arms, title="AM", threshold=tau)
            for ax in bars[1:]:  # the scale of the first panel, and room for the arms' names
                ax.set_ylabel("")
                ax.tick_params(labelleft=False)
            belief_bars(lines[0], st.counts, arms, title="two-threshold", threshold=tau,
                        ylabel="fraction of rounds led")  # fmt: skip
            paths = {"GM": st.gm, "AM": st.am, "two-threshold": st.count_path}
            tvd = {k: inf.total_variation(path, st.nonprivate).mean(axis=-1)[1:] for k, path in paths.items()}
            distance_paths(lines[1], tvd, title=f"TVD (K = {st.K}, T = {st.T:,})")
        n = len(self.arms.table)
        fig.legend(*rows[0][0].get_legend_handles_labels(), loc="outside lower center", ncol=n)
        return fig


def best_treatment(P: Parameters, arms: FourArms) -> BestTreatment:
    """One run and ``replications`` runs of GM, AM and the two-threshold rule over the four arms: with the
    paper's noise at ε = ``eps`` (streams ``p003-fig5/demo`` and ``/mc``), and as published, with the
    notebook's reseeded noise, ε, K and T (streams ``p003-fig5/as-published-demo`` and ``-mc``)."""
    common = dict(rho=arms.rho, target=arms.target, freq=arms.threshold, n_reps=P.replications)
    paper = sv.mle_study(arms.table, arms.A, arms.schedule(P.eps), **common,
                         rng_demo=P.rng("p003-fig5/demo"), rng_mc=P.rng("p003-fig5/mc"))  # fmt: skip
    pub_schedule = treatments.published_schedule(
        arms.delta, P.published_eps, K=P.published_rounds, T=P.published_iterations
    )
    published = sv.mle_study(arms.table, arms.A, pub_schedule, **common, noise="reseeded",
                             rng_demo=P.rng("p003-fig5/as-published-demo"),
                             rng_mc=P.rng("p003-fig5/as-published-mc"))  # fmt: skip
    studies = {"paper": paper, "as_published": published}
    set_rates = {
        v: treatments.arm_set_rates(st.run, arms.arms, best=BEST, control=CONTROL, rho=arms.rho,
                                    freq=arms.threshold)
        for v, st in studies.items()
    }  # fmt: skip
    checks = ref.figure5_checks({k: paper.rates[k] for k in ALGORITHMS}, P.eps, P.replications)
    return BestTreatment(
        arms, {"paper": P.eps, "as_published": P.published_eps}, studies, set_rates, {"p003-fig5": checks},
        _fig5_setting(P),
    )  # fmt: skip


@dataclass(frozen=True, eq=False)
class BestArmCurve:
    """The probability that every centre names exactly the best arm, against ε.

    ``frame`` has one row per ε and algorithm: ``K``, ``T``, the noise scale, the probability with the
    paper's noise and, with the notebook's reseeded noise, K and T, the probability as published.
    """

    frame: pd.DataFrame
    reliable: float
    n_arms: int

    def _by_algorithm(self, column: str) -> dict[str, dict[str, float]]:
        return {
            k: {f"{e:g}": p for e, p in zip(part.eps, part[column], strict=True)}
            for k, part in self.frame.groupby("algorithm", sort=False)
        }

    @property
    def reliable_eps(self) -> dict[str, float | None]:
        """Per algorithm, the smallest ε of the grid from which on the probability stays ≥ ``reliable``."""
        return {
            k: treatments.first_reliable(part.eps.tolist(), part.probability.tolist(), self.reliable)
            for k, part in self.frame.groupby("algorithm", sort=False)
        }

    @property
    def am_threshold_differ(self) -> int:
        """At how many ε of the grid AM and the two-threshold rule succeed with different probabilities."""
        am = self.frame[self.frame.algorithm == "AM"].probability.to_numpy()
        thr = self.frame[self.frame.algorithm == "two-threshold"].probability.to_numpy()
        return int(np.sum(am != thr))

    def metrics(self) -> dict[str, Any]:
        """The curves and the reliable budgets, under their metrics.json names."""
        return {
            "best_arm_probability": self._by_algorithm("probability"),
            "best_arm_probability_as_published": self._by_algorithm("probability, as published"),
            "best_arm_reliable_eps": self.reliable_eps,
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"ti-best-arm-probability": self.frame}

    def pivot(self) -> pd.DataFrame:
        """The probabilities with the paper's noise, one column per algorithm."""
        return self.frame.pivot(index="eps", columns="algorithm", values="probability")[list(ALGORITHMS)]

    def at(self, eps: float) -> dict[str, float]:
        """Per algorithm, the probability with the paper's noise at ``eps`` (``nan`` when ``eps`` is not on
        the grid)."""
        table = self.pivot()
        return {k: float(table.loc[eps, k]) if eps in table.index else math.nan for k in ALGORITHMS}

    def figure(self) -> Figure:
        """Both curves per algorithm on a log ε axis, with chance for GM and the reliability level."""
        fig, axes = panel_row(1, width=6.0, height=3.8)
        ax = axes[0]
        for j, k in enumerate(ALGORITHMS):
            part = self.frame[self.frame.algorithm == k]
            ax.plot(part.eps, part.probability, "o-", color=f"C{j}", label=f"{k}")
            ax.plot(part.eps, part["probability, as published"], "s--", color=f"C{j}", alpha=0.6, ms=3.5,
                    label=f"{k}, as published")  # fmt: skip
        ax.axhline(1 / self.n_arms, color="0.5", ls=":", lw=1.0, label="chance (GM)")
        guarantee_line(ax, self.reliable, "reliable")
        ax.set_xscale("log")
        plain_log(ax.xaxis)
        ax.set(xlabel="privacy budget ε", ylabel=f"P[every centre names {{{BEST}}}]", ylim=(-0.02, 1.02))
        ax.legend(fontsize=SMALL, ncol=2)
        return fig


def best_arm_curve(P: Parameters, arms: FourArms) -> BestArmCurve:
    """Figure 5's probabilities at every ε of ``best_arm_eps``, with K and T recomputed at each ε.

    Every run draws from one generator of stream ``best-arm-curve``, in order: for each ε, the paper's
    noise, then the reseeded noise (the order of the published runs).
    """
    rng = P.rng("best-arm-curve")
    common = dict(rho=arms.rho, target=arms.target, freq=arms.threshold, n_reps=P.replications,
                  rng_demo=rng, rng_mc=rng, trajectories=False)  # fmt: skip
    rows = []
    for e in P.best_arm_eps:
        st = sv.mle_study(arms.table, arms.A, arms.schedule(e), **common)
        sched = treatments.published_schedule(arms.delta, e, K=P.published_rounds, T=P.published_iterations)
        pub = sv.mle_study(arms.table, arms.A, sched, **common, noise="reseeded")
        for k in ALGORITHMS:
            rows.append({"eps": e, "algorithm": k, "K": st.K, "T": st.T, "noise scale b": st.noise_scale,
                         "probability": st.rates[k], "probability, as published": pub.rates[k]})  # fmt: skip
    return BestArmCurve(pd.DataFrame(rows), P.reliable, len(arms.arms))


# Figure 6 -------------------------------------------------------------------------------------------


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
    above
        Per variant, whether the first-order distance exceeds GM's at every n and every
        ε ≥ :data:`~dpnet.reference.identification.FIG6_EPS_FROM` (``None``: no such ε in the run).
    summary
        Per variant, the extremes of GM's ratios (:func:`~dpnet.survival.comparison.ratio_summary`).
    drift, error
        For the non-private first-order twin, the mean distance from the centres' average start and from
        the pooled maximum-likelihood estimate ``theta_hat``.
    step_bound
        ``2ηB_θT`` at the largest T: the most the gradient steps can add to consensus.
    theta_hat
        The pooled maximum-likelihood estimate of the log hazard ratio (ddI against ZDV).
    inflation
        The notebook's pooled ``Λ(θ₁) − Λ(0)`` over the paper's.
    checks, paper_setting
        Against the paper, keyed by item; whether the run uses Figure 6's setting.
    """

    tvd: pd.DataFrame
    ratios: pd.DataFrame
    above: Mapping[str, bool | None]
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
        return {"p003-fig6": self.tvd, "p003-fig6-ratios": self.ratios}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """On the paper's setting: no jitter, replications, and the as-published variant."""
        return tuple(("p003-fig6", *d) for d in ref.FIG6_DEVIATIONS) if self.paper_setting else ()

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
    late = any(e >= ref.FIG6_EPS_FROM for e in eps)
    above = {
        v: comparison.exceeds_everywhere(records, v, above="first-order", below="GM",
                                         eps_from=ref.FIG6_EPS_FROM) if late else None
        for v in comparison.VARIANTS
    }  # fmt: skip
    summary = {
        v: comparison.ratio_summary(gm[gm.variant == v].to_dict("records"), claim=ref.FIG6_CLAIMED_RATIO)
        for v in comparison.VARIANTS
    }
    published = gm[(gm.variant == "as_published") & (gm.eps >= ref.FIG6_EPS_FROM)]
    band = tvd[
        (tvd.variant == "as_published") & (tvd.algorithm == "first-order") & (tvd.eps >= ref.FIG6_EPS_FROM)
    ]
    paper = summary["paper"]
    paper_ratios = (paper["smallest"]["ratio"], (paper["largest estimate"] or {"ratio": np.inf})["ratio"])
    setting = _fig6_setting(P)
    checks = ref.figure6_checks(
        above, float(published.ratio.min()) if late else None, band["mean"].tolist(), paper_ratios,
        summary["as_published"]["largest estimate"], published=setting,
    )  # fmt: skip
    # the pooled Λ(θ₁) − Λ(0) with the paper's and the notebook's likelihood
    gap = {
        v: sv.loglik_gap(ddi.x, ddi.time, ddi.event, ref.FIG6_THETA_ALT, variant=v)
        for v in comparison.VARIANTS
    }
    return FirstOrderComparison(
        tvd, ratios, above, summary,
        drift=float(np.mean([o["first_order_drift"] for o in outputs])),
        error=float(np.mean([o["first_order_error"] for o in outputs])),
        step_bound=2 * P.learning_rate * P.b_theta * int(tvd["T"].max()),
        theta_hat=sv.binary_cox(ddi.x, ddi.time, ddi.event).lrt()[0],
        inflation=gap["as_published"] / gap["paper"],
        checks={"p003-fig6": checks}, paper_setting=setting,
    )  # fmt: skip


# Figure 14.2 ----------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RuntimeStudy:
    """Paper 003, Figure 14.2, as a measurement: the private test and a CKKS baseline on one machine.

    Attributes
    ----------
    dataset, name
        The cohort (``"cancer"`` or ``"actg"``) and its name for titles.
    n_values, rows
        The numbers of centres and the sizes of the resampled cohorts.
    records
        One row per method, n, rows and phase: the median seconds over the repeats, and under
        ``"result"`` what the method's last repeat computed.
    speedups
        HE total time over DP total time at every ``(n, rows)`` timed with both methods (empty when
        TenSEAL is absent).
    checks, paper_setting
        Against the paper, keyed by item; whether the run uses Figure 14.2's setting.
    """

    dataset: str
    name: str
    n_values: tuple[int, ...]
    rows: tuple[int, ...]
    records: pd.DataFrame
    speedups: Mapping[tuple[int, int], float]
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    def _totals(self, method: str) -> pd.DataFrame:
        r = self.records
        return r[(r.method == method) & (r.phase == "total")]

    @property
    def dp_range(self) -> tuple[float, float]:
        """The DP test's smallest and largest total time."""
        dp = self._totals(runtime.METHODS[0]).seconds
        return float(dp.min()), float(dp.max())

    @property
    def dp_largest(self) -> float:
        """The DP test's total time for the most centres and the largest cohort."""
        dp = self._totals(runtime.METHODS[0])
        return float(dp[(dp.n == max(self.n_values)) & (dp.rows == max(self.rows))].seconds.iloc[0])

    @property
    def he_range(self) -> tuple[float, float]:
        """The HE baseline's smallest and largest total time (``nan`` when it was not timed)."""
        he = self._totals(runtime.METHODS[1]).seconds
        return (float(he.min()), float(he.max())) if len(he) else (np.nan, np.nan)

    @property
    def he_per_centre_ms(self) -> float:
        """The HE baseline's largest total over the most centres, in milliseconds (``nan`` when not timed)."""
        return self.he_range[1] / max(self.n_values) * 1e3

    @property
    def he_lrt(self) -> float:
        """The pooled likelihood-ratio statistic the HE baseline decrypted for the largest cohort."""
        he = self._totals(runtime.METHODS[1])
        return float(he.iloc[-1]["result"]["lrt"]) if len(he) else np.nan

    @property
    def speedup_range(self) -> tuple[float, float]:
        """The smallest and largest HE/DP total-time ratio (``nan`` when HE was not timed)."""
        values = list(self.speedups.values())
        return (min(values), max(values)) if values else (np.nan, np.nan)

    def metrics(self) -> dict[str, Any]:
        """The timings, under their metrics.json names (they vary from run to run)."""
        out: dict[str, Any] = {
            "runtime": self.records[["method", "n", "rows", "phase", "seconds"]].to_dict("records"),
            "runtime_dataset": self.dataset, "dp_total_min": self.dp_range[0],
            "dp_total_max": self.dp_range[1], "dp_total_big": self.dp_largest,
        }  # fmt: skip
        if self.speedups:
            out["runtime_speedup"] = [
                {"n": n, "rows": r, "he_over_dp": s} for (n, r), s in self.speedups.items()
            ]
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"p003-fig14-2": self.records[["method", "n", "rows", "phase", "seconds"]]}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """On the paper's setting: a measured baseline instead of quoted runtimes."""
        return (("p003-fig14-2", *ref.FIG142_DEVIATION),) if self.paper_setting else ()

    def pivot(self) -> pd.DataFrame:
        """Seconds per method, cohort size and phase (local, communication, total), one column per n."""
        r = self.records[self.records.phase.isin(["local", "communication", "total"])]
        return r.pivot_table(index=["method", "rows", "phase"], columns="n", values="seconds")

    def figure(self) -> Figure:
        """Three panels (one centre's local work, communication, total): bars per n, one per method and
        cohort size, on a log scale; HE hatched."""
        fig, axes = panel_row(3, height=3.2)
        methods = [m for m in runtime.METHODS if (self.records.method == m).any()]
        for ax, phase in zip(axes, ("local per centre", "communication", "total"), strict=True):
            series, colors, hatches = {}, {}, {}
            for m in methods:
                for j, rows in enumerate(self.rows):
                    part = self.records[(self.records.method == m) & (self.records.rows == rows)
                                        & (self.records.phase == phase)].sort_values("n")  # fmt: skip
                    label = f"{m.split()[0]}, {rows:,} rows"
                    series[label], colors[label] = part.seconds.tolist(), f"C{j}"
                    hatches[label] = "//" if m == runtime.METHODS[1] else None
            grouped_bars(ax, series, self.n_values, colors=colors, hatches=hatches)
            ax.set(yscale="log", xlabel="centres n", ylabel="seconds", title=phase)
        fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=3)
        fig.suptitle(f"{self.name}: DP belief propagation vs CKKS aggregation")
        return fig


def _runtime_cohort(dataset: str) -> tuple[pd.DataFrame, str]:
    if dataset == "cancer":
        return sv.tmb_cohort(sv.load_samstein2019(), "top10"), "cancer cohort (top-10 % TMB)"
    return sv.arm_cohort(sv.load_actg175(), "ddI"), "ACTG 175 (ddI vs ZDV)"


def runtime_study(P: Parameters) -> RuntimeStudy:
    """Time the DP test and, when TenSEAL is installed, the CKKS baseline, for every cohort size of
    ``runtime_rows`` and number of centres of ``runtime_n_values`` (stream ``p003-fig14-2``, one worker,
    pinned to one core while timing)."""
    cohort, name = _runtime_cohort(P.runtime_dataset)
    tasks = [
        runtime.RuntimeTask(
            x=cohort.x.to_numpy(float), time=cohort.time.to_numpy(float), event=cohort.event.to_numpy(float),
            rows=rows, n_values=tuple(P.runtime_n_values), repeats=P.runtime_repeats,
            theta_alt=ref.RUNTIME_THETA_ALT[P.runtime_dataset], with_he=encrypted.tenseal_available(),
        )
        for rows in P.runtime_rows
    ]  # fmt: skip
    out = sweep(runtime.runtime_task, tasks, P.stream("p003-fig14-2"), key=lambda t: (t.rows,), n_jobs=1,
                desc="Figure 14.2 timings")  # fmt: skip
    records = pd.DataFrame([r for t in tasks for r in out[t]])
    speedups = runtime.speedups(records.to_dict("records"))
    point_n, point_rows = ref.RUNTIME_POINT
    dp = records[(records.method == runtime.METHODS[0]) & (records.phase == "total")]
    at_point = dp[(dp.n == point_n) & (dp.rows == point_rows)].seconds
    checks = ref.runtime_checks(float(at_point.iloc[0]) if len(at_point) else None, speedups)
    return RuntimeStudy(
        P.runtime_dataset, name, tuple(P.runtime_n_values), tuple(P.runtime_rows), records, speedups,
        {"p003-fig14-2": checks}, _runtime_setting(P),
    )  # fmt: skip
