"""Paper 004, the book's experiment E2: calibration of the functional Laplace mechanism, γ against ε,
the noise energy against p, and the privacy loss of shifts of the coefficients."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from numpy.typing import NDArray
from scipy import special

from dpnet import funcpert as fp
from dpnet.params import Cost, Parameters
from dpnet.plotting import SMALL, panel_row
from dpnet.reference import funcpert as ref
from dpnet.results import Check

__all__ = [
    "E2_AUDIT_DRAWS",
    "E2_AUDIT_EPS",
    "E2_AUDIT_P",
    "E2_ENERGY_DRAWS",
    "E2_EXTREMAL_K",
    "E2_K",
    "E2_P_GRID",
    "E2_Q",
    "E2_SHIFTS",
    "Calibration",
    "calibration",
    "cost",
]

#: The q of the optimal-p search, the p grid, and the Monte Carlo of the noise energy and the privacy
#: loss (K = 20, q = 2, p = 1, ε = 1).
E2_Q = (1.5, 2.0, 3.0, 4.0)
E2_P_GRID = (0.5005, 3.4995, 60_000)
E2_K, E2_ENERGY_DRAWS, E2_SHIFTS, E2_EXTREMAL_K = 20, 20_000, 1000, 1_000_000
#: The audit of the theorem: at ε = 1, with the run's ``basis_order`` coefficients and releases per input,
#: for p = q/2 at every q of the run and for two more p near the ends of (1/2, q − 1/2) at q = 2.
E2_AUDIT_EPS, E2_AUDIT_DRAWS, E2_AUDIT_P = 1.0, 20_000, ((2.0, 0.6), (2.0, 1.4))


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing of its own: E2's sums and audits (under a second at the defaults) are part of the chapter's
    fixed seconds."""
    return Cost()


@dataclass(frozen=True)
class Calibration:
    """E2: γ against ε, the noise energy against p, the Monte Carlo energy, and the privacy loss of
    random and extremal shifts of the coefficients (K = 20, q = 2, p = 1, ε = 1)."""

    q_values: tuple[float, ...]
    p_grid: NDArray[np.float64]
    optimal_p: Mapping[float, float]
    energy_error: float
    loss_ratios: NDArray[np.float64]
    worst_ratio: float
    audit: pd.DataFrame  # one row per audited (q, p): the tested shift's exact loss and the audited bound
    checks: Mapping[str, list[Check]]
    #: The slides fix no setting of E2 that a run could leave.
    paper_setting = True
    #: E2 records no deviation.
    deviations = ()

    def metrics(self) -> dict[str, Any]:
        """The optimal p by q, and the largest privacy-loss ratio of the random shifts."""
        return {
            "optimal_p": {f"{q:g}": p for q, p in self.optimal_p.items()},
            "loss_ratio_max": float(self.loss_ratios.max()),
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """None recorded with the result: the chapter shows :attr:`table` (``p004-e2-gamma``) and
        ``audit`` (``p004-e2-audit``)."""
        return {}

    @property
    def table(self) -> pd.DataFrame:
        """γ at ε = 1 and the bound √2 ζ(q) on the expected noise norm, for the run's q (p = q/2)."""
        return pd.DataFrame([
            {"q": q, "p = q/2": q / 2, "γ at ε = 1": fp.gamma(1.0, q, q / 2),
             "√2 ζ(q) (bound on E‖Φ(η)‖ at ε = 1)": math.sqrt(2) * special.zeta(q)}
            for q in self.q_values
        ])  # fmt: skip

    @property
    def audit_table(self) -> pd.DataFrame:
        """The audit, one row per (q, p), with the tested shift's exact loss and the audited lower bound."""
        return self.audit.rename(columns={"loss": "exact loss Σ|Δ_k|/b_k", "audited": "audited lower bound"})

    def figure(self) -> Figure:
        """(a) γ against ε; (b) the energy factor against p/q; (c) the privacy-loss ratios."""
        fig, axes = panel_row(3, height=3.4)
        eps_line = np.geomspace(0.1, 1000, 50)
        for k, q in enumerate(E2_Q):
            ps = self.p_grid[self.p_grid < q - 0.5]
            axes[1].semilogy(ps / q, fp.noise_energy_factor(q, ps), color=f"C{k}", label=f"q = {q:g}")
            if q in self.q_values:
                gammas = [fp.gamma(e, q, q / 2) for e in eps_line]
                axes[0].loglog(eps_line, gammas, color=f"C{k}", label=f"q = {q:g}, p = q/2")
        axes[0].set(xlabel="ε", ylabel="γ", title="(a) noise scale constant")
        axes[0].legend(fontsize=SMALL)
        axes[1].axvline(0.5, color="grey", lw=0.6)
        axes[1].set(
            xlabel="p / q", ylabel="ζ(2p) ζ(2(q−p))", title="(b) noise energy × ε²/2,\nleast at p = q/2"
        )
        axes[1].legend(fontsize=SMALL)
        axes[2].hist(self.loss_ratios, bins=40, color="C0", alpha=0.7, label="random Δ")
        axes[2].axvline(self.worst_ratio, color="C3", label="extremal $Δ_k ∝ k^{p−2q}$")
        axes[2].set(xlabel="privacy loss / (ε‖Δ‖$_{V_q}$)", title="(c) q = 2, p = 1, ε = 1")
        axes[2].legend(fontsize=SMALL)
        return fig


def calibration(P: Parameters) -> Calibration:
    """E2 (streams ``p004-e2`` and ``p004-e2/audit/<q>/<p>``): the optimal p on a grid, the Monte Carlo noise
    energy, the privacy loss of ``E2_SHIFTS`` random shifts and of the extremal shift with ``E2_EXTREMAL_K``
    terms, and the theorem audited at every ``(q, p)`` of ``audited_exponents``."""
    rng = P.rng("p004-e2")
    p_grid = np.linspace(*E2_P_GRID)
    optimal_p = {}
    for q in E2_Q:
        ps = p_grid[p_grid < q - 0.5]
        optimal_p[q] = float(ps[np.argmin(fp.noise_energy_factor(q, ps))])
    q, p = 2.0, 1.0
    gam = fp.gamma(1.0, q, p)
    energy = np.sum(fp.perturbation(E2_K, 1.0, q, p, rng, E2_ENERGY_DRAWS) ** 2, axis=1)
    energy_error = abs(energy.mean() / fp.noise_energy(E2_K, gam, p) - 1)
    shifts = rng.standard_normal((E2_SHIFTS, E2_K)) * rng.uniform(0, 1, (E2_SHIFTS, 1)) ** 3
    ratios = fp.privacy_loss(shifts, fp.laplace_scales(E2_K, gam, p)) / fp.vq_norm(shifts, q)
    worst = fp.extremal_shift(E2_EXTREMAL_K, q, p)
    worst_ratio = float(fp.privacy_loss(worst, fp.laplace_scales(worst.size, gam, p)) / fp.vq_norm(worst, q))
    audit = pd.DataFrame([_audit(P, q_a, p_a) for q_a, p_a in audited_exponents(P.q)])
    bounds = {(r.q, r.p): r.audited for r in audit.itertuples()}
    checks = ref.calibration_checks(bounds, E2_AUDIT_EPS, float(energy_error))
    return Calibration(
        tuple(P.q), p_grid, optimal_p, float(energy_error), ratios, worst_ratio, audit, {"p004-e2": checks}
    )


def audited_exponents(q_values: Sequence[float]) -> list[tuple[float, float]]:
    """The ``(q, p)`` the theorem is audited at: ``p = q/2`` for every q of the run, then ``E2_AUDIT_P``."""
    cases = [(float(q), float(q) / 2) for q in q_values] + list(E2_AUDIT_P)
    return list(dict.fromkeys(cases))


def _audit(P: Parameters, q: float, p: float) -> dict[str, float]:
    """One audited ``(q, p)``: two inputs one V_q unit apart along the extremal shift, released
    ``E2_AUDIT_DRAWS`` times each at ε = ``E2_AUDIT_EPS`` with ``basis_order`` coefficients."""
    delta = fp.extremal_shift(P.basis_order, q, p)
    delta = delta / fp.vq_norm(delta, q)
    scales = fp.laplace_scales(P.basis_order, fp.gamma(E2_AUDIT_EPS, q, p), p)
    audit = fp.likelihood_ratio_audit(delta, scales, E2_AUDIT_DRAWS, P.rng(f"p004-e2/audit/{q:g}/{p:g}"))
    return {"q": q, "p": p, "loss": float(fp.privacy_loss(delta, scales)),
            "audited": audit.log_ratio(ref.AUDIT_ALPHA)}  # fmt: skip
