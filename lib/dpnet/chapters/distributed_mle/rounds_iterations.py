"""The book's table ``rounds_iterations``: K, T, K·T and the noise scale of every schedule at every ε.

Theorems 4.1–4.5 (4.1 and 4.3 also corrected), Corollary 4.4 (when exact recovery is feasible) and the
authors' code, on the
instance at every ε of ``eps_values``; the chapter shows them as schedules × ε (``K / T``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from dpnet import inference as inf
from dpnet.chapters.distributed_mle._common import CODE_RHO, Record
from dpnet.chapters.distributed_mle.synthetic_instance import Instance
from dpnet.inference.schedules import schedule_thm43_corrected
from dpnet.params import Cost, Parameters
from dpnet.results import Check, Deviation

__all__ = ["Schedules", "cost", "schedules"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Closed form, negligible: seven schedules per ε."""
    return Cost()


def _plans(P: Parameters, inst: Instance, e: float) -> dict[str, Any]:
    """Every schedule of the chapter at budget ``e`` on the instance."""
    prob, a = inst.problem, inst.spectral.a_star
    t = {"delta": inst.delta, "eps": e, "alpha": P.alpha, "beta": P.beta}
    plans = {
        "Thm 4.1 (T → ∞)": inf.schedule_thm41(prob, **t),
        "Thm 4.1, corrected": inf.schedule_thm41(prob, **t, corrected=True),
        "Thm 4.2 (finite T)": inf.schedule_thm42(prob, a_star=a, **t),
        "Thm 4.3 (two thresholds, T → ∞)": inf.schedule_thm43(prob, **t, pi1=P.pi, pi2=P.pi),
        "Thm 4.3, corrected": schedule_thm43_corrected(prob, **t, pi1=P.pi, pi2=P.pi),
        "Thm 4.5 (two thresholds, finite T)": inf.schedule_thm45(
            prob, a_star=a, **t, q1=P.q1, q2=P.q2, pi1=P.pi, pi2=P.pi
        ),
        "authors' code": inf.schedule_authors_code(prob, a_star=a, **t, rho=CODE_RHO),
    }
    if inf.exact_recovery_feasible(inst.n_states, prob.n_mle):
        plans["Cor 4.4 (exact recovery, T → ∞)"] = inf.schedule_cor44(prob, **t, pi2=P.pi)
    return plans


@dataclass(frozen=True)
class Schedules:
    """K, T, K·T and the noise scale of every schedule at every ε of the sweep, on the instance."""

    rows: list[Record]

    #: The book's own table: it checks nothing, departs from no paper and has no paper setting.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    @property
    def frame(self) -> pd.DataFrame:
        """One row per schedule and ε."""
        return pd.DataFrame(self.rows)

    @property
    def table(self) -> pd.DataFrame:
        """Schedules × ε, each cell ``K / T`` (``∞`` for the asymptotic theorems)."""
        df = self.frame
        cells = [
            f"{k} / {'∞' if t is None or pd.isna(t) else int(t)}"
            for k, t in zip(df["K"], df["T"], strict=True)
        ]
        shown = df.assign(cell=cells).pivot(index="schedule", columns="eps", values="cell")
        shown.columns = [f"ε = {e:g}" for e in shown.columns]
        shown.index.name = "K / T"
        return shown.loc[list(dict.fromkeys(df["schedule"]))]

    def kt(self, schedule: str, eps: float) -> int:
        """K·T of ``schedule`` at budget ``eps``."""
        return int(next(r["KT"] for r in self.rows if r["schedule"] == schedule and r["eps"] == eps))

    def metrics(self) -> dict[str, Any]:
        """The rows, under their metrics.json name."""
        return {"rounds_iterations": self.rows}

    def tables(self) -> dict[str, pd.DataFrame]:
        """The long table written to ``tables/``."""
        return {"rounds_iterations": self.frame}


def schedules(P: Parameters, inst: Instance) -> Schedules:
    """Theorems 4.1–4.5, Corollary 4.4 (when feasible) and the authors' code at every ε of ``eps_values``."""
    rows = []
    for e in P.eps_values:
        for name, s in _plans(P, inst, e).items():
            kt = None if s.T is None else s.K * s.T
            scale = float(np.mean(s.noise_scale))
            rows.append({"schedule": name, "eps": e, "K": s.K, "T": s.T, "KT": kt, "noise_scale": scale,
                         "convention": s.convention})  # fmt: skip
    return Schedules(rows)
