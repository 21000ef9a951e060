"""The book's figure ``ti-best-arm-probability``: the probability that every centre names exactly the best
ACTG 175 arm, against ε, with the paper's noise and as published (Figure 5's runs at every ε)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import survival as sv
from dpnet.chapters.treatment_identification._common import ALGORITHMS, STUDY_SECONDS, study_rounds
from dpnet.chapters.treatment_identification.p003_fig5 import FourArms
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, guarantee_line, panel_row, plain_log
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
    """

    frame: pd.DataFrame
    reliable: float
    n_arms: int

    #: The book's own figure: it checks no claim of the paper, and has no paper setting to leave.
    paper_setting = True

    @property
    def checks(self) -> dict[str, list[Check]]:
        """None: the curve is the book's own."""
        return {}

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
