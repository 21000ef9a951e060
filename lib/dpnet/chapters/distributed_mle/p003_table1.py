"""Paper 003, Table 1 (communication complexity of the private algorithms): its headline, and the
authors' code's K and T.

Table 1 is a table of orders of growth: with privacy, the AM/GM aggregates reach Type I/II error η
within ``K·T = O(log(1/η)(log(1/η) + log(1/ε) + log(1/ϱ)))`` belief exchanges, at any ε. It prints no
constant, so no K·T can be read from it; its claim can still fail without one. Its headline check
``amgm-row`` asks, at the chapter's ``eps_demo``, whether *some* number of rounds brings GM's Type I
error within α and AM's Type II error within ``1 − β`` (η = α = 1 − β at the paper's setting), in the
sweep over K with ``T → ∞``, the limit Table 1's T approaches: it fails when GM's Type I error is above
α, beyond Monte Carlo error, at every K. (Theorem 4.2's own K, T and targets ``2α``, ``2(1 − β)`` are
Theorem 4.2's check, not Table 1's.) Its one number-for-number counterpart in the published work is the
run of the authors' notebook behind paper 003's Figure 14.1a, which set K and T from Table 1's orders
with unit constants: the book's transcription of those formulas, on the constants of the published ACTG
runs, is checked against that run (``code-k-t``, :func:`dpnet.reference.complexity.table1_checks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from dpnet import inference as inf
from dpnet.chapters.distributed_mle.mle_errors_vs_k import KSweep
from dpnet.params import Cost
from dpnet.reference import complexity
from dpnet.results import Check

__all__ = ["Complexity", "complexity_checks", "cost"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Closed form, negligible: one schedule on fixed constants."""
    return Cost()


@dataclass(frozen=True)
class Complexity:
    """Table 1's headline on the sweep over K, and the authors' code's K and T in the setting of the
    published ACTG runs, checked against that run.

    Attributes
    ----------
    code
        The authors' code schedule (:func:`~dpnet.inference.schedules.schedule_authors_code`) in
        :data:`dpnet.reference.complexity.ACTG_SETTING`.
    checks
        ``p003-table1``: ``amgm-row`` (the headline) and ``code-k-t`` (against the notebook's run).
    """

    code: inf.AMGMSchedule
    checks: Mapping[str, list[Check]]
    paper_setting: bool = True

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The authors' code departs from the paper in its noise and in how it sets K and T."""
        return tuple(("p003-table1", title, note) for title, note in complexity.TABLE1_DEVIATIONS)

    def metrics(self) -> dict[str, Any]:
        """The code's K and T, under their metrics.json name."""
        return {"table1_code_schedule": {"K": self.code.K, "T": self.code.T}}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the chapter typesets Tables 1 and 2 from the papers' formulas, in its prose."""
        return {}


def amgm_row_check(ks: KSweep, alpha: float, beta: float) -> Check:
    """Table 1's AM/GM row at ``ks.eps``: some K of the sweep over K (``T → ∞``) brings GM's Type I error
    within α and some K brings AM's Type II error within ``1 − β``, each not above its target beyond Monte
    Carlo error (the reading most favourable to the table). Undecided without a K."""
    claim = (
        f"Table 1: at ε = {ks.eps:g} the AM/GM aggregates reach the target error with enough messages: some "
        f"number of rounds (T → ∞) brings GM's Type I error within α = {alpha:.3g} and AM's Type II error "
        f"within 1 − β = {1 - beta:.3g}"
    )
    gm, am = ks.records["gm"], ks.records["am"]
    if not gm or not am:
        return Check(claim, None, "undecided: the sweep over K has no K", "amgm-row")
    gm_ok = [r["K"] for r in gm if not inf.exceeds_target(r, "type1", alpha)]
    am_ok = [r["K"] for r in am if not inf.exceeds_target(r, "type2", 1 - beta)]
    best = min(gm, key=lambda r: r["type1"])
    gm_text = (
        f"GM within α at K = {', '.join(map(str, gm_ok))}" if gm_ok
        else f"GM above α beyond Monte Carlo error at every K = {ks.Ks[0]}…{ks.Ks[-1]}, smallest "
        f"{best['type1']:.4f} ({best['type1_lo']:.4f}–{best['type1_hi']:.4f}) at K = {best['K']}"
    )  # fmt: skip
    am_text = f"AM within 1 − β at {len(am_ok)} of {len(am)} K" if am_ok else "AM above 1 − β at every K"
    return Check(claim, bool(gm_ok and am_ok), f"{gm_text}; {am_text}", "amgm-row")


def complexity_checks(ks: KSweep, alpha: float, beta: float) -> Complexity:
    """Table 1's headline on the sweep over K (``alpha``, ``beta``: its targets), and the authors' code
    formulas on the ACTG constants (independent of the chapter's parameters)."""
    actg = complexity.ACTG_SETTING
    problem = inf.ProblemConstants(
        n=actg["n"], n_states=actg["n_states"], n_mle=actg["n_mle"], gamma=actg["gamma"], gap=actg["gap"]
    )
    code = inf.schedule_authors_code(
        problem, a_star=actg["a_star"], delta=actg["delta"], eps=actg["eps"], alpha=actg["alpha"],
        beta=actg["beta"], rho=actg["rho"],
    )  # fmt: skip
    checks = [amgm_row_check(ks, alpha, beta), *complexity.table1_checks(code.K, code.T)]
    return Complexity(code, {"p003-table1": checks})
