"""Paper 004, the book's experiment E3, its second part: where the smoothing step truncates the noise. The
error of Algorithm 1 on the 1-D quadratics at ε = 1000 with the same noise truncated at several K, against
the linearised law, whose derivative noise Σ_k b_k²|e_k′(x*)|² ∝ Σ_k k^{2−q} diverges for q ≤ 3."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import funcpert as fp
from dpnet.chapters.functional_perturbation.problems import Setup
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, panel_row
from dpnet.reference import funcpert as ref
from dpnet.results import Check
from dpnet.sweep import sweep

__all__ = [
    "LAW_ORDERS",
    "LAW_Q",
    "TRUNCATION_EPS",
    "TRUNCATION_ORDERS",
    "Truncation",
    "TruncationTask",
    "cost",
    "truncation",
]

#: The budget of the study (where the projection is inactive at the chapter's K = 20), the truncations
#: run, and the truncations and exponents of the linearised law drawn beside them.
TRUNCATION_EPS = 1000.0
TRUNCATION_ORDERS = (10, 20, 40)
LAW_ORDERS = tuple(range(5, 201, 5))
LAW_Q = (1.5, 2.0, 3.0, 4.0)

#: Measured seconds of one run of the study (its three truncations) per agent, on one core (see :func:`cost`).
_RUN_SECONDS = 6e-3


def cost(values: Mapping[str, Any]) -> Cost:
    """The study's runs: ``6·10⁻³·n·Q·truncation_runs`` seconds (``n = n_agents``, ``Q = len(q)``).

    Calibrated on this 2-core machine, one core, on the library call: a run's three truncations took 40
    to 75 ms at n = 10 (the smaller q, the more often the projection has work to do).
    """
    return Cost(seconds=_RUN_SECONDS * values["n_agents"] * len(values["q"]) * values["truncation_runs"])


@dataclass(frozen=True)
class TruncationTask:
    """One q of the study: ``runs`` draws, each truncated at every K of ``TRUNCATION_ORDERS``."""

    q: float
    runs: int
    problem: fp.Problem = field(compare=False, repr=False)


def truncation_cell(task: TruncationTask, rng: np.random.Generator) -> NDArray[np.float64]:
    """The errors ``(runs, len(TRUNCATION_ORDERS))`` of one q (the sweep's task function)."""
    return fp.truncation_errors(task.problem, TRUNCATION_ORDERS, TRUNCATION_EPS, task.q, task.runs, rng)


@dataclass(frozen=True)
class Truncation:
    """E3, the smoothing step: the RMS error at ε = ``TRUNCATION_EPS`` by q and truncation K, and the
    linearised RMS for every K of ``LAW_ORDERS`` and q of ``LAW_Q`` and of the run."""

    table: pd.DataFrame  # one row per (q, K): the RMS error and the linearised RMS
    law: pd.DataFrame  # one row per (q, K) of the law: the linearised RMS
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E3 that a run could leave.
    paper_setting = True
    #: Recorded with E3's deviation (the accuracy bound's κ) by the trade-off.
    deviations = ()

    def growth(self, small: int, large: int) -> dict[float, float]:
        """Per q, the RMS error at truncation ``large`` over the RMS error at ``small`` (same draws)."""
        rms = self.table.pivot(index="K", columns="q", values="rms_error")
        return {float(q): float(rms.loc[large, q] / rms.loc[small, q]) for q in rms.columns}

    def law_growth(self, small: int, large: int) -> dict[float, float]:
        """Per q, the linearised RMS at truncation ``large`` over that at ``small``."""
        law = self.law.pivot(index="K", columns="q", values="linearised_rms")
        return {float(q): float(law.loc[large, q] / law.loc[small, q]) for q in law.columns}

    def metrics(self) -> dict[str, Any]:
        """The RMS error by q and K, and the growths from the smallest to the largest K run."""
        small, large = TRUNCATION_ORDERS[0], TRUNCATION_ORDERS[-1]
        return {"truncation_rms": self.table.to_dict("records"),
                "truncation_growth": {f"{q:g}": g for q, g in self.growth(small, large).items()}}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """The study's table."""
        return {"fp-truncation": self.table}

    def figure(self) -> Figure:
        """The linearised RMS against K for each q (lines) and the RMS error measured at K of the run
        (points)."""
        fig, (ax,) = panel_row(1, width=5.6, height=4.0)
        qs = sorted(set(self.law["q"]))
        for j, q in enumerate(qs):
            colour = plt.cm.viridis(j / max(len(qs) - 1, 1))
            law = self.law[self.law["q"] == q]
            ax.loglog(law["K"], law["linearised_rms"], "-", color=colour, lw=1.2, label=f"q = {q:g}: law")
            cell = self.table[self.table["q"] == q]
            if len(cell):
                ax.loglog(cell["K"], cell["rms_error"], "o", color=colour, label=f"q = {q:g}: measured")
        ax.set(xlabel="truncation K (smoothing step)", ylabel="RMS $|\\tilde x^* - x^*|$",
               title=f"1-D quadratics, ε = {TRUNCATION_EPS:g}: error against K")  # fmt: skip
        ax.legend(fontsize=SMALL, ncol=2)
        return fig


def truncation(P: Parameters, setup: Setup) -> Truncation:
    """E3, the smoothing step (stream ``p004-e3/truncation``, one child per q named by its position in
    ``q``): ``truncation_runs`` draws per q, each truncated at every K of ``TRUNCATION_ORDERS``, and the
    linearised law."""
    quad, q_values = setup.quadratic, tuple(P.q)
    tasks = [TruncationTask(q, P.truncation_runs, quad) for q in q_values]
    stream = P.stream("p004-e3/truncation")
    errors = sweep(truncation_cell, tasks, stream, key=lambda t: (q_values.index(t.q),),
                   desc="functional perturbation, truncation")  # fmt: skip
    problems = {K: fp.quadratic_with_order(quad, K) for K in sorted({*TRUNCATION_ORDERS, *LAW_ORDERS})}
    rows = [
        {"q": t.q, "K": K, "rms_error": float(np.sqrt(np.mean(err[:, j] ** 2))),
         "linearised_rms": fp.linearised_rms(problems[K], TRUNCATION_EPS, t.q)}
        for t, err in errors.items() for j, K in enumerate(TRUNCATION_ORDERS)
    ]  # fmt: skip
    law = [
        {"q": q, "K": K, "linearised_rms": fp.linearised_rms(problems[K], TRUNCATION_EPS, q)}
        for q in sorted({*LAW_Q, *q_values}) for K in LAW_ORDERS
    ]  # fmt: skip
    result = Truncation(pd.DataFrame(rows), pd.DataFrame(law), {})
    growth = result.growth(TRUNCATION_ORDERS[0], TRUNCATION_ORDERS[-1])
    return Truncation(result.table, result.law, {"p004-e3": ref.smoothing_checks(growth)})
