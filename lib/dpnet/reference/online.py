"""Paper 003 §4.3, §14.1(c), §14.5 (Fig 14.6): private online learning (chapter ``online-learning``; spec
003 §3.6, §6 Figs 14.1c and 14.6, §9 item 17)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from dpnet.reference._check import Check

#: Spec §3.6: 10-day periods of ACTG 175 (ddI vs ZDV) give T = 124; monthly periods of the cancer cohort
#: give T = 81.
ACTG_PERIODS: Final = 124
CANCER_PERIODS: Final = 81
#: Spec §9 item 17 and the issue: the as-published non-private time-averaged ratio at T = 124 is 0.44
#: (0.439–0.443 across centres), ±0.01.
FIG141C_LIMIT: Final = 0.44
FIG141C_LIMIT_TOLERANCE: Final = 0.01
#: Spec §6 Fig 14.6: the notebook's non-private limit, ≈ −17.0 (it favours θ = 0).
FIG146_LIMIT: Final = -17.0
FIG146_LIMIT_TOLERANCE: Final = 0.5


def figure14_1c_checks(
    periods: int, as_published: Sequence[float], agreement: float, n_reps: int
) -> list[Check]:
    """Fig 14.1(c): ``as_published`` the non-private ``ψ_{i,T}/T`` of each centre with the authors'
    likelihood; ``agreement`` the fraction of private runs (ε = 1) whose ratio has the sign of the
    non-private limit (the figure shows private lines near the dashed limit)."""
    values = np.asarray(as_published, dtype=float)
    gap = float(np.max(np.abs(values - FIG141C_LIMIT)))
    return [
        (f"10-day periods give T = {ACTG_PERIODS}", periods == ACTG_PERIODS, f"T = {periods}"),
        (f"as published, the non-private limit is {FIG141C_LIMIT} ± {FIG141C_LIMIT_TOLERANCE} at every "
         "centre",
         gap <= FIG141C_LIMIT_TOLERANCE, f"centres {np.round(values, 4).tolist()}; largest gap {gap:.4f}"),
        ("as published, the private ratios at T fall on the side of the non-private limit (most runs)",
         agreement > 0.5, f"same sign in {agreement:.1%} of {n_reps} runs"),
    ]  # fmt: skip


def figure14_6_checks(
    periods: int, notebook_limit: float, paper_limit: float, agreement: float, n_reps: int
) -> list[Check]:
    """Fig 14.6 (spec §5.2, §6): ``notebook_limit`` the non-private limit as the notebook computed it (raw
    TMB, its likelihood and tie order), ``paper_limit`` the same with eq. (3), ``agreement`` the fraction
    of private runs as published whose ratio has the sign of the non-private limit."""
    return [
        (f"monthly periods give T = {CANCER_PERIODS}", periods == CANCER_PERIODS, f"T = {periods}"),
        (f"as published, the non-private limit is {FIG146_LIMIT:g} ± {FIG146_LIMIT_TOLERANCE} "
         "(favours θ = 0)",
         abs(notebook_limit - FIG146_LIMIT) <= FIG146_LIMIT_TOLERANCE, f"{notebook_limit:.3f}"),
        ("paper: online learning yields {log 0.15}, agreeing with the ground truth (raw TMB, eq. (3))",
         paper_limit > 0, f"non-private limit {paper_limit:.3f} (< 0 favours θ = 0)"),
        ("as published, the private run's disagreement with the non-private one (spec §6) is no rare draw: "
         "it happens in at least 10 % of runs", agreement <= 0.9,
         f"same sign in {agreement:.1%} of {n_reps} runs"),
    ]  # fmt: skip
