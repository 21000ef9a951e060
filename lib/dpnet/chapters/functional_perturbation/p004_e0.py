"""Paper 004, the book's experiment E0: what ε means for a test. The error pairs an ε-DP test allows, the
floor of the larger error, and the tests of an adversary who tells apart two inputs of the functional
mechanism one V_q unit apart, audited against the allowed region."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import funcpert as fp
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, panel_row
from dpnet.reference import funcpert as ref
from dpnet.results import Check

__all__ = ["E0_DRAWS", "E0_EPS", "E0_Q", "ErrorRegion", "cost", "hypothesis_testing"]

#: The budgets of the figure of allowed error pairs and of the audited tests.
E0_EPS = (0.1, 0.5, 1.0, 2.0)
#: The audited mechanism: q = 2, p = q/2, the run's ``basis_order`` coefficients, and releases per input.
E0_Q, E0_DRAWS = 2.0, 20_000


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing of its own: E0's four minimisations and audits (0.2 s) are part of the chapter's fixed
    seconds."""
    return Cost()


@dataclass(frozen=True)
class ErrorRegion:
    """E0: the error pairs an ε-DP test allows, the floor of the larger error, and an adversary's tests
    against the functional mechanism, per ε.

    Attributes
    ----------
    floors
        The smallest larger error ``min max(p_FA, p_MD)`` over the allowed region, numerically.
    tests
        Per ε, the ``(p_FA, p_MD)`` of the likelihood-ratio tests between two inputs one V_q unit apart.
    audited
        Per ε, the largest audited lower bound on the log-ratio of a tested event's probabilities
        (:meth:`dpnet.funcpert.audit.Audit.log_ratio`).
    """

    floors: Mapping[float, float]
    tests: Mapping[float, tuple[NDArray[np.float64], NDArray[np.float64]]]
    audited: Mapping[float, float]
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E0 that a run could leave.
    paper_setting = True
    #: E0 records no deviation.
    deviations = ()

    @property
    def best_larger_error(self) -> dict[float, float]:
        """Per ε, the smallest ``max(p_FA, p_MD)`` among the adversary's tests."""
        return {eps: float(np.min(np.maximum(fa, md))) for eps, (fa, md) in self.tests.items()}

    def metrics(self) -> dict[str, Any]:
        """The numerical floors of max(p_FA, p_MD), the best test's larger error and the audited
        log-ratios, by ε."""
        return {
            "error_rate_floor": {f"{eps:g}": f for eps, f in self.floors.items()},
            "best_test_larger_error": {f"{eps:g}": e for eps, e in self.best_larger_error.items()},
            "audited_log_ratio": {f"{eps:g}": b for eps, b in self.audited.items()},
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the floors and the tests' summaries are metrics."""
        return {}

    def figure(self) -> Figure:
        """The allowed region of (p_FA, p_MD) for each ε, the equal-error point, and the adversary's tests."""
        fig, (ax,) = panel_row(1, width=5.2, height=4.6)
        p_fa = np.linspace(0, 1, 401)
        for k, (eps, floor) in enumerate(self.floors.items()):
            curve = fp.min_miss_probability(p_fa, eps)
            ax.fill_between(p_fa, curve, 1, color=f"C{k}", alpha=0.12)
            ax.plot(p_fa, curve, color=f"C{k}", label=f"ε = {eps:g}: allowed above")
            ax.plot([floor], [floor], "o", color=f"C{k}")
            if eps in self.tests:
                fa, md = self.tests[eps]
                ax.plot(fa, md, "--", color=f"C{k}", lw=1.2)
        ax.plot([], [], "k--", lw=1.2, label="best tests against the mechanism")
        ax.plot([0, 1], [1, 0], "k:", lw=0.8, label="no privacy needed: p_MD = 1 − p_FA")
        ax.set(xlabel="false-alarm probability $p_{FA}$", ylabel="miss probability $p_{MD}$", xlim=(0, 1),
               ylim=(0, 1), title="Tests allowed under ε-DP (dots: 1/(1 + e^ε))")  # fmt: skip
        ax.legend(fontsize=SMALL)
        return fig


def hypothesis_testing(P: Parameters) -> ErrorRegion:
    """E0 (stream ``p004-e0``): for each ε of ``E0_EPS``, the smallest larger error over the allowed region,
    numerically, and ``E0_DRAWS`` releases of the functional mechanism (q = 2, p = 1, ``basis_order``
    coefficients) under each of two inputs whose coefficients differ by the extremal shift
    ``Δ_k ∝ k^{p − 2q}`` scaled to one V_q unit, tested by their likelihood ratio."""
    rng = P.rng("p004-e0")
    delta = fp.extremal_shift(P.basis_order, E0_Q, E0_Q / 2)
    delta = delta / fp.vq_norm(delta, E0_Q)
    floors, tests, audited = {}, {}, {}
    for eps in E0_EPS:
        floors[eps] = fp.error_rate_floor(eps)
        scales = fp.laplace_scales(P.basis_order, fp.gamma(eps, E0_Q, E0_Q / 2), E0_Q / 2)
        audit = fp.likelihood_ratio_audit(delta, scales, E0_DRAWS, rng)
        tests[eps] = audit.errors()
        audited[eps] = audit.log_ratio(ref.AUDIT_ALPHA)
    return ErrorRegion(floors, tests, audited, {"p004-e0": ref.error_region_checks(audited)})
