"""Paper 003, Figure 5: best-treatment identification over the four ACTG 175 arms, with the paper's noise
and as published.

The centres' likelihood table over the four arms (:func:`four_arms`, which also checks the non-private
beliefs against Figure 4's best arm), and one run and Monte Carlo rates of GM, AM and the two-threshold
rule on it (:func:`best_treatment`).
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

from dpnet import inference as inf
from dpnet import networks
from dpnet import survival as sv
from dpnet.chapters.treatment_identification._common import ALGORITHMS, CONTROL, STUDY_SECONDS, study_rounds
from dpnet.params import Cost, Parameters
from dpnet.plotting import belief_bars, distance_paths, panel_rows
from dpnet.reference import identification as ref
from dpnet.reference.clinical import FIG4_BEST_ARM as BEST
from dpnet.results import Check
from dpnet.survival import treatments

__all__ = [
    "FIG5_LABELS",
    "BestTreatment",
    "FourArms",
    "best_treatment",
    "centres",
    "cost",
    "four_arms",
    "named_set",
]

#: The two rows of Figure 5: the paper's noise, and the authors' reseeded noise.
FIG5_LABELS: dict[str, str] = {
    "paper": "paper's noise (independent)",
    "as_published": "as published (reseeded noise)",
}

#: Measured on this 2-core machine (one core): one (round, iteration, centre, arm) of a drawn run's
#: belief trajectories.
_TRAJECTORY_SECONDS = 2.4e-7


def cost(values: Mapping[str, Any]) -> Cost:
    """Figure 5: the paper's and the reseeded study, and the drawn run's trajectories.

    With ``R = replications``, ``n = n_centers``, the authors' rounds over the four arms
    ``K = ⌈4 log(4/α)⌉``, the published ``K_p = published_rounds`` and ``T_p = published_iterations``:

    * seconds: ``2·10⁻⁶·R·n·(K + K_p)`` (the paper's and the reseeded runs) ``+ 2.4·10⁻⁷·4·K_p·T_p·n``
      (the drawn run's trajectories);
    * peak, the larger of: a study's ``(R, K, n, 4)`` noise and log-ratios with their temporaries,
      ``400·R·(K + K_p)·n`` bytes; the trajectories, ``32·K_p·T_p·n``.

    Calibrated on this 2-core machine, one core: Figure 5 took 0.8 s at the quick defaults, 1.3 s at
    R = 2000, 24 s and 0.85 GiB at K_p = 1000, T_p = 5000 (the trajectories). The four arms' Cox fits
    are in the chapter's fixed seconds.
    """
    R, n = values["replications"], values["n_centers"]
    K, K_p, T_p = study_rounds(values), values["published_rounds"], values["published_iterations"]
    seconds = STUDY_SECONDS * R * n * (K + K_p) + _TRAJECTORY_SECONDS * 4 * K_p * T_p * n
    return Cost(seconds=seconds, peak=max(400.0 * R * (K + K_p) * n, 32.0 * K_p * T_p * n))


def _fig5_setting(P: Parameters) -> bool:
    """Whether the run uses Figure 5's setting."""
    return P.is_paper("n_centers", "split", "eps", "alpha", "threshold", "penalizer")


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
        ridge-penalised Cox fit on its own patients of the two arms with ``|θ| ≤ B_θ`` (0 for ZDV),
        shape ``(n, 4)`` (:func:`~dpnet.survival.treatments.arm_glrt`).
    theta_free
        The unrestricted estimates ``θ̂_{i,a}`` of those fits (``nan`` for ZDV).
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
    theta_free: NDArray[np.float64]
    A: NDArray[np.float64]
    a_star: float
    delta: float
    alpha: float
    threshold: float
    checks: Mapping[str, list[Check]]
    paper_setting: bool

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None: Figure 5's deviations are recorded with its runs (:class:`BestTreatment`)."""
        return ()

    @property
    def rho(self) -> float:
        """ϱ of the threshold: ``τ = 1/(1 + e^ϱ)``."""
        return inf.log_belief_threshold(self.threshold)

    @property
    def b_theta(self) -> float:
        """The public bound ``B_θ = Δ/2`` every fit is restricted to."""
        return self.delta / 2

    @property
    def binding(self) -> int:
        """How many entries the bound ``B_θ`` changed (``|θ̂_{i,a}| > B_θ``)."""
        return int(np.sum(np.abs(np.nan_to_num(self.theta_free)) > self.b_theta))

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

    def normal_probability(self, eps: float) -> float:
        """The probability, at budget ``eps``, that GM names the best arm under a normal approximation of
        the noise: each arm's sum plus independent normal noise of the per-arm standard deviation
        ``b√(2n/K)`` (:meth:`difference_noise_sd` over √2) is largest for the best arm
        (:func:`~dpnet.survival.treatments.argmax_probability`)."""
        sd = self.difference_noise_sd(eps) / math.sqrt(2.0)
        return treatments.argmax_probability(self.table.sum(axis=0), sd, best=self.arms.index(BEST))

    def metrics(self) -> dict[str, Any]:
        """The sums and the gap, under their metrics.json names."""
        return {
            "arm_glrt_sum": self.totals, "gap_best_second": self.gap, "arm_glrt_binding": self.binding,
            "arm_theta_max": float(np.nanmax(np.abs(self.theta_free))),
        }  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The table written to ``tables/``."""
        return {"ti-arm-glrt": self.frame}


def four_arms(P: Parameters, actg: pd.DataFrame) -> FourArms:
    """Split ACTG 175 over ``n_centers`` centres (:func:`centres`) and fit every arm against ZDV, with
    ``|θ| ≤ b_theta``."""
    glrt = treatments.arm_glrt(
        actg, centres(P, actg), penalizer=P.penalizer, b_theta=P.b_theta, control=CONTROL
    )
    A = networks.dense_weights("complete", P.n_centers)
    mle_arm = glrt.arms[int(np.argmax(glrt.table.sum(axis=0)))]
    return FourArms(
        glrt.arms, glrt.table, glrt.theta_free, A, networks.spectral_constants(A).a_star,
        sv.cox_sensitivity(P.b_theta), P.alpha, P.threshold, {"p003-fig5": [ref.best_arm_check(mle_arm)]},
        _fig5_setting(P),
    )  # fmt: skip


def centres(P: Parameters, actg: pd.DataFrame) -> NDArray[np.int64]:
    """The centre of every ACTG 175 patient: ``split`` over ``n_centers`` (stream ``split``)."""
    return sv.cohort_centres(actg.index.to_numpy(), P.n_centers, method=P.split, rng=P.rng("split"))


# Figure 5 -------------------------------------------------------------------------------------------


def named_set(beliefs: NDArray[np.float64], arms: tuple[str, ...], threshold: float) -> str:
    """The arms every centre names, those whose final belief (or frequency) is at least ``threshold``,
    written as a set (``"{ZDV, ZDV+ddI}"``; ``beliefs`` has shape ``(n, |arms|)``), or a phrase saying
    that the centres name different sets."""
    named = {tuple(a for a, b in zip(arms, row, strict=True) if b >= threshold) for row in beliefs}
    if len(named) > 1:
        return "different sets at different centres"
    (arms_named,) = named
    return "{" + ", ".join(arms_named) + "}" if arms_named else "no arm"


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
    demo_sets
        Per variant and algorithm, the set of arms the centres name in the drawn run (:func:`named_set`).
    checks
        Figure 5's claim, per algorithm, keyed by item.
    paper_setting
        Whether the run uses Figure 5's setting.
    """

    arms: FourArms
    eps: Mapping[str, float]
    studies: Mapping[str, sv.MLEStudy]
    set_rates: Mapping[str, dict[str, dict[str, float]]]
    demo_sets: Mapping[str, dict[str, str]]
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
            "honest_noise": paper.noise_scale, "fig5_demo_sets": self.demo_sets,
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
    tau = arms.threshold
    demo_sets = {
        v: {k: named_set(final, arms.arms, tau) for k, final in
            (("GM", st.gm[-1]), ("AM", st.am[-1]), ("two-threshold", st.counts))}
        for v, st in studies.items()
    }  # fmt: skip
    checks = ref.figure5_checks({k: paper.rates[k] for k in ALGORITHMS}, P.eps, P.replications,
                                published={k: published.rates[k] for k in ALGORITHMS})  # fmt: skip
    return BestTreatment(
        arms, {"paper": P.eps, "as_published": P.published_eps}, studies, set_rates, demo_sets,
        {"p003-fig5": checks}, _fig5_setting(P),
    )  # fmt: skip
