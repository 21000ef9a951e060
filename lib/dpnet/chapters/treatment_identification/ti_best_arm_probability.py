"""The book's figure ``ti-best-arm-probability``: the probability that every centre names exactly the best
ACTG 175 arm, against ε, with the paper's noise and as published (Figure 5's runs at every ε), beside
the normal approximation of the noise GM sees on the difference between the two best arms."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from dpnet import survival as sv
from dpnet.chapters.treatment_identification._common import ALGORITHMS, STUDY_SECONDS, study_rounds
from dpnet.chapters.treatment_identification.p003_fig5 import FourArms
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, guarantee_line, panel_row, plain_log
from dpnet.reference import identification as ref
from dpnet.reference.clinical import FIG4_BEST_ARM as BEST
from dpnet.results import Check
from dpnet.survival import treatments

__all__ = ["BestArmCurve", "best_arm_curve", "cost"]


def cost(values: Mapping[str, Any]) -> Cost:
    """The curve: Figure 5's two studies at every ε of the grid, without trajectories.

    With ``R = replications``, ``n = n_centers``, ``K = ⌈4 log(4/α)⌉``, ``K_p = published_rounds`` and
    ``E = len(best_arm_eps)``:

    * seconds: ``2·10⁻⁶·R·n·(K + K_p)·E``;
    * peak: a study's ``(R, K, n, 4)`` noise and log-ratios with their temporaries,
      ``400·R·(K + K_p)·n`` bytes.

    Calibrated on this 2-core machine, one core: the curve took 0.5 s at the quick defaults, 4.2 s at
    R = 2000, and 12.3 s and 0.28 GiB at n = 20, R = 2000.
    """
    R, n, E = values["replications"], values["n_centers"], len(values["best_arm_eps"])
    K, K_p = study_rounds(values), values["published_rounds"]
    return Cost(seconds=STUDY_SECONDS * R * n * (K + K_p) * E, peak=400.0 * R * (K + K_p) * n)


@dataclass(frozen=True, eq=False)
class BestArmCurve:
    """The probability that every centre names exactly the best arm, against ε.

    ``frame`` has one row per ε and algorithm: ``K``, ``T``, the noise scale, the probability with the
    paper's noise and, with the notebook's reseeded noise, K and T, the probability as published.
    ``approximation`` maps every ε to the probability that GM names the best arm under a normal
    approximation of the noise
    (:meth:`~dpnet.chapters.treatment_identification.p003_fig5.FourArms.normal_probability`).
    ``checks`` holds that approximation against GM's measured probability at every ε, within the Monte
    Carlo error (:func:`~dpnet.reference.identification.normal_approximation_check`), and AM's curves
    against the two-threshold rule's (:func:`~dpnet.reference.identification.one_hot_check`), recorded
    with Figure 5 (they check the chapter's account of Figure 5's runs).
    """

    frame: pd.DataFrame
    reliable: float
    n_arms: int
    replications: int
    approximation: Mapping[float, float]
    checks: Mapping[str, list[Check]]

    #: The book's own figure: it has no paper setting to leave.
    paper_setting = True

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None: the curve is the book's own."""
        return ()

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
    def predicted_reliable(self) -> float | None:
        """The smallest ε of the grid from which on the normal approximation stays ≥ ``reliable``."""
        eps = sorted(self.approximation)
        return treatments.first_reliable(eps, [self.approximation[e] for e in eps], self.reliable)

    def metrics(self) -> dict[str, Any]:
        """The curves and the reliable budgets, under their metrics.json names."""
        return {
            "best_arm_probability": self._by_algorithm("probability"),
            "best_arm_probability_as_published": self._by_algorithm("probability, as published"),
            "best_arm_reliable_eps": self.reliable_eps,
            "best_arm_normal_approximation": {f"{e:g}": p for e, p in self.approximation.items()},
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

    def margin(self, eps: float, algorithm: str, line: float = 0.5) -> dict[str, float]:
        """How far below ``line`` the probability of ``algorithm`` with the paper's noise lies at ``eps``:
        ``{"p", "se", "z"}``, the probability, its binomial standard error ``√(p(1 − p)/R)`` and
        ``(line − p)/se`` (``nan`` when ``eps`` is off the grid or the standard error is 0)."""
        p = self.at(eps)[algorithm]
        se = math.sqrt(p * (1 - p) / self.replications) if math.isfinite(p) else math.nan
        z = (line - p) / se if math.isfinite(se) and se > 0 else math.nan
        return {"p": p, "se": se, "z": z}

    def figure(self) -> Figure:
        """Both curves per algorithm on a log ε axis, GM's normal approximation, chance for GM and the
        reliability level. AM is drawn wide and pale beneath the two-threshold rule, which it coincides
        with whenever every round's beliefs are one-hot."""
        fig, axes = panel_row(1, width=6.0, height=3.8)
        ax = axes[0]
        for j, k in enumerate(ALGORITHMS):
            part = self.frame[self.frame.algorithm == k]
            wide = {"lw": 5.0, "alpha": 0.35, "zorder": 1} if k == "AM" else {}
            ax.plot(part.eps, part.probability, "o-", color=f"C{j}", label=f"{k}", **wide)
            ax.plot(part.eps, part["probability, as published"], "s--", color=f"C{j}", ms=3.5,
                    label=f"{k}, as published", **{"alpha": 0.6, **wide})  # fmt: skip
        eps = sorted(self.approximation)
        ax.plot(eps, [self.approximation[e] for e in eps], ":", color="C0", lw=1.5,
                label="GM, normal approximation")  # fmt: skip
        ax.axhline(1 / self.n_arms, color="0.5", ls=":", lw=1.0, label="chance (GM)")
        guarantee_line(ax, self.reliable, "reliable")
        ax.set_xscale("log")
        plain_log(ax.xaxis)
        ax.set(xlabel="privacy budget ε", ylabel=f"P[every centre names {{{BEST}}}]", ylim=(-0.02, 1.02))
        fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=3, fontsize=SMALL)
        return fig


def best_arm_curve(P: Parameters, arms: FourArms) -> BestArmCurve:
    """Figure 5's probabilities at every ε of ``best_arm_eps``, with K and T recomputed at each ε, and GM's
    under the normal approximation of the noise beside them.

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
    frame = pd.DataFrame(rows)
    approximation = {e: arms.normal_probability(e) for e in P.best_arm_eps}
    gm = frame[frame.algorithm == "GM"]
    check = ref.normal_approximation_check(approximation, dict(zip(gm.eps, gm.probability, strict=True)),
                                           P.replications)  # fmt: skip
    by = {k: part.set_index("eps") for k, part in frame.groupby("algorithm", sort=False)}
    noises = ("probability", "probability, as published")
    am, thr = ({(e, c): float(by[k].loc[e, c]) for e in P.best_arm_eps for c in noises}
               for k in ("AM", "two-threshold"))  # fmt: skip
    return BestArmCurve(
        frame, P.reliable, len(arms.arms), P.replications, approximation,
        {"p003-fig5": [check, ref.one_hot_check(am, thr)]},
    )  # fmt: skip
