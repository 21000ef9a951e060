"""Paper 003, Theorem 4.1 (asymptotic guarantees of AM and GM): its checks against the chapter's sweeps.

Theorem 4.1 bounds AM's Type II error by ``1 − β`` with ``K ≥ |Θ̄| log(|Θ*|/(1−β))`` rounds and GM's
Type I error by α with ``K ≥ |Θ*| log(|Θ̄|/α)``, as ``T → ∞``, for any ε and any data. Every
oracle run of the chapter with the paper's K (or more) is a case of it: the ε sweep on the instance
and the gap sweep at every gap. "GM as ``T → ∞``" has two readings: the limit of Alg 1's geometric mean
(eq. (13)), which the sweeps run, and the estimator the proof bounds, which keeps a state only if it
wins every round (:mod:`~dpnet.chapters.distributed_mle.mle_gm_every_round`). The checks
(:func:`theorem_4_1`):

* ``am-type2``; ``gm-type1-eq13`` and ``gm-type1-every-round``, GM's bound under each reading;
  ``gm-type1``, the GM statement, which fails when it fails under both readings, holds when it holds
  under both, and is undecided otherwise; each in every case (a case fails only when its whole 95 %
  interval lies above the bound); ``promise``, the headline, joins ``am-type2`` and ``gm-type1``;
* the book's own statements about why (``against="reference"``): ``win-probability`` (the zero-gap
  win probability is ``1/|Θ|``, not the proofs' ``1/|Θ̄|``), ``gm-zero-gap`` (at zero gap GM admits a
  false state with probability ``1 − 1/|Θ|`` whatever K), ``gm-fixed-budget`` (at a fixed budget more
  rounds make GM's Type I error larger), ``gm-fixed-scale`` (at a fixed noise scale more rounds let GM
  meet α from a smaller gap), ``am-type1`` (AM's Type I error, which no theorem bounds, stays above
  α at the largest budget) and ``exact-rates`` (the gap sweep's AM and GM rates agree with their
  exact values, which the chapter quotes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from dpnet.chapters.distributed_mle._common import CONSISTENCY, Verdict, _cases, _consistent
from dpnet.chapters.distributed_mle.mle_errors_vs_eps import EpsSweep
from dpnet.chapters.distributed_mle.mle_errors_vs_gap import GapSweep
from dpnet.chapters.distributed_mle.mle_errors_vs_k import KSweep
from dpnet.chapters.distributed_mle.mle_gm_every_round import EveryRound
from dpnet.chapters.distributed_mle.mle_win_probability import WinFloor
from dpnet.mechanisms import clopper_pearson
from dpnet.params import Cost, Parameters
from dpnet.reference import complexity
from dpnet.reference._check import every
from dpnet.results import Check

__all__ = ["CONSISTENCY", "ITEM", "amgm_checks", "cost", "every_round_cases", "theorem_4_1"]

#: The item's key.
ITEM = "p003-thm4-1"


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: it reads the records of the sweeps (their cost is the sweeps')."""
    return Cost()


def every_round_cases(table: EveryRound) -> list[complexity.Rate]:
    """The cases of GM's bound under the proof's reading: the every-round estimator's Type I errors."""
    return [
        (f"won every round, |Θ| = {r['n_states']}, {r['configuration']}, K = {r['K']}", float(r["type1"]),
         float(r["type1_lo"]), float(r["type1_hi"]))
        for r in table.records
    ]  # fmt: skip


def _either_reading(theorem: str, eq13: Check, proof: Check, alpha: float) -> Check:
    """GM's statement under both readings: fails when it fails under both, holds when it holds under both."""
    outcomes = (eq13.passed, proof.passed)
    passed = False if outcomes == (False, False) else True if outcomes == (True, True) else None
    shown = {True: "holds", False: "fails", None: "undecided"}
    detail = f"Alg 1's GM (eq. 13): {shown[eq13.passed]}; the proof's estimator: {shown[proof.passed]}"
    if passed is None:
        detail = f"undecided: the verdict depends on the reading ({detail})"
    return Check(
        f"{theorem}: GM's Type I error is at most α = {alpha:.3g} in every case, whichever estimator "
        "'GM as T → ∞' means (Alg 1's geometric mean, or the proof's state that wins every round)",
        passed, detail, "gm-type1",
    )  # fmt: skip


def amgm_checks(
    am: Sequence[complexity.Rate],
    gm: Sequence[complexity.Rate],
    every_round: Sequence[complexity.Rate],
    alpha: float,
    beta: float,
    *,
    theorem: str,
) -> list[Check]:
    """The checks of an asymptotic AM/GM theorem (003's 4.1, 000's 3.1): ``am-type2``, GM's bound under
    each reading (``gm-type1-eq13``, ``gm-type1-every-round``), the GM statement ``gm-type1`` and the
    headline ``promise``. ``am``, ``gm``: the cases, with the paper's K or more; ``every_round``: the
    cases of the proof's estimator (:func:`every_round_cases`)."""
    am_check = complexity.bound_check(
        f"{theorem}: AM's Type II error is at most 1 − β = {1 - beta:.3g} in every case with K at least "
        "its AM round count (T → ∞)", am, 1 - beta, "am-type2",
    )  # fmt: skip
    eq13 = complexity.bound_check(
        f"{theorem}: read as Alg 1's geometric mean (eq. (13)), GM's Type I error is at most α = "
        f"{alpha:.3g} in every case with K at least its GM round count (T → ∞)", gm, alpha, "gm-type1-eq13",
    )  # fmt: skip
    proof = complexity.bound_check(
        f"{theorem}: read as its proof's estimator (a state kept only if it wins every round), GM's Type I "
        f"error is at most α = {alpha:.3g} in every case with its GM round count (T → ∞)", every_round, alpha,
        "gm-type1-every-round", empty="the proof's estimator was not simulated",
    )  # fmt: skip
    gm_check = _either_reading(theorem, eq13, proof, alpha)
    claim = f"{theorem}: both bounds hold in every case, for any ε and any gap"
    return [am_check, eq13, proof, gm_check, complexity.all_hold(claim, [am_check, gm_check], "promise")]


def _win_probability(floor: WinFloor) -> Check:
    n = floor.n_rounds
    wins = np.round(floor.win * n).astype(int)
    lo, hi = clopper_pearson(wins, n, 1 - (1 - CONSISTENCY) / 2)
    ms = np.array(floor.states, dtype=float)
    ok = [bool(a <= 1 / m <= b and not a <= 1 / (m - 1) <= b) for a, b, m in zip(lo, hi, ms, strict=True)]
    shown = ", ".join(f"|Θ| = {int(m)}: {w:.4f}" for m, w in zip(ms, floor.win, strict=True))
    detail = f"{shown} ({n:,} rounds each)" if ok else "undecided: no |Θ| was counted"
    return Check(
        "at zero gap a maximum-likelihood state wins a round with probability 1/|Θ|, not the proofs' "
        f"1/|Θ̄| ({CONSISTENCY:.1%} intervals of the simulated rates, every |Θ| counted)",
        every(ok), detail, "win-probability", against="reference",
    )  # fmt: skip


def _gm_zero_gap(gap: GapSweep) -> Check:
    lottery = 1 - 1 / gap.n_states
    zero = [r for name in ("GM, paper", "GM, corrected") for r in gap.records[name] if r["gap"] == 0.0]
    passed = every(_consistent(r, "type1", lottery) for r in zero)
    detail = (
        ", ".join(f"K = {r['K']}: {r['type1']:.4f}" for r in zero) or "undecided: gap 0 was not simulated"
    )
    return Check(
        f"at zero gap GM admits a false state with probability 1 − 1/|Θ| = {lottery:.3g} whatever K "
        f"(every K of the gap sweep, {CONSISTENCY:.1%} intervals)",
        passed, detail, "gm-zero-gap", against="reference",
    )  # fmt: skip


def _gm_fixed_budget(ks: KSweep) -> Check:
    if len(ks.Ks) < 2:
        claim = "at a fixed budget, GM's Type I error is larger with the most rounds than with the fewest"
        return Check(
            claim, None, "undecided: the sweep over K has one K", "gm-fixed-budget", against="reference"
        )
    few, most = ks.at("gm", ks.Ks[0]), ks.at("gm", ks.Ks[-1])
    return Check(
        f"at ε = {ks.eps:g}, GM's Type I error with K = {ks.Ks[-1]} rounds is larger than with "
        f"K = {ks.Ks[0]}, beyond Monte Carlo error (the budget is split over the rounds)",
        bool(most["type1_lo"] > few["type1_hi"]),
        f"K = {ks.Ks[0]}: {few['type1']:.4f}; K = {ks.Ks[-1]}: {most['type1']:.4f}", "gm-fixed-budget",
        against="reference",
    )  # fmt: skip


def _gm_fixed_scale(gap: GapSweep, alpha: float) -> Check:
    few, more = gap.rounds["GM, paper"], gap.rounds["GM, corrected"]
    start_few, start_more = (gap.met_from(n, "type1", alpha) for n in ("GM, paper", "GM, corrected"))
    claim = (f"at a fixed noise scale, GM with K = {more} rounds meets α, with whole intervals, from a "
             f"smaller gap than with K = {few}")  # fmt: skip
    if more <= few or (np.isnan(start_more) and np.isnan(start_few)):
        why = "the two K are equal" if more <= few else "neither meets α from any gap tested"
        return Check(claim, None, f"undecided: {why}", "gm-fixed-scale", against="reference")
    passed = not np.isnan(start_more) and (np.isnan(start_few) or start_more < start_few)
    shown = {
        k: "no gap tested" if np.isnan(v) else f"gap {v:g}" for k, v in ((more, start_more), (few, start_few))
    }
    return Check(claim, bool(passed), f"K = {more}: from {shown[more]}; K = {few}: from {shown[few]}",
                 "gm-fixed-scale", against="reference")  # fmt: skip


def _oracle_limit(eps: EpsSweep) -> Check:
    """On the ε sweep, ``T = iterations`` with the oracle's noise returns the oracle's sets: every rate of
    every estimator is the same (undecided when no budget was simulated)."""
    claim = (
        f"with the same noise, T = {eps.iterations} iterations give agent 1 the same rates as the T → ∞ "
        "oracle for every estimator and error type at every ε (every replication returns the same sets)"
    )
    curves = ("am", "gm", "thres1", "thres2")
    if not all(eps.records[c] and eps.records[f"{c}-T"] for c in curves):
        return Check(claim, None, "undecided: no budget was simulated", "oracle-limit", against="reference")
    largest = float(eps.agreement.iloc[:, -1].max())
    return Check(
        claim, largest == 0.0, f"largest difference over ε: {largest:.4f} ({len(eps.eps)} budgets)",
        "oracle-limit", against="reference",
    )  # fmt: skip


def _am_type1(eps: EpsSweep, alpha: float) -> Check:
    claim = f"AM's Type I error, which no theorem bounds, is above α = {alpha:.3g} at the largest budget"
    if not eps.records["am"]:
        return Check(claim, None, "undecided: no budget was simulated", "am-type1", against="reference")
    top = max(eps.records["am"], key=lambda r: r["eps"])
    return Check(
        f"{claim} ε = {top['eps']:g}, beyond Monte Carlo error",
        bool(top["type1_lo"] > alpha), f"{top['type1']:.4f} ({top['type1_lo']:.4f}–{top['type1_hi']:.4f})",
        "am-type1", against="reference",
    )  # fmt: skip


def _exact_rates(gap: GapSweep) -> Check:
    """The gap sweep's AM Type II and GM Type I rates agree with their exact values (99.9 % intervals)."""
    pairs = [
        (f"{name}, gap {r['gap']:g}", r, kind, exact)
        for name, kind in (("AM, paper", "type2"), ("AM, corrected", "type2"), ("GM, paper", "type1"),
                           ("GM, corrected", "type1")) if gap.records[name]
        for r, exact in zip(gap.records[name], gap.exact(name, kind), strict=True)
    ]  # fmt: skip
    ok = [_consistent(r, kind, exact) for _, r, kind, exact in pairs]
    off = [where for (where, *_), good in zip(pairs, ok, strict=True) if not good]
    passed = every(ok)
    detail = (
        "undecided: no rate was simulated" if passed is None
        else f"{len(pairs)} rates, every one consistent with its exact value" if passed
        else f"{len(off)} of {len(pairs)} rates outside: {', '.join(off[:4])}"
    )  # fmt: skip
    return Check(
        "the gap sweep's simulated AM Type II and GM Type I errors agree with their exact values "
        f"((1 − p)^K and the GM leader's probability, by quadrature; {CONSISTENCY:.1%} intervals)",
        passed, detail, "exact-rates", against="reference",
    )  # fmt: skip


def theorem_4_1(
    P: Parameters, eps: EpsSweep, gap: GapSweep, ks: KSweep, floor: WinFloor, every_round: EveryRound
) -> Verdict:
    """Theorem 4.1's checks: its two statements on the ε sweep (K of Theorem 4.1, at least each of its
    two counts) and the gap sweep (the paper's K), GM's under both readings, and the book's statements
    about them."""
    am = [
        *_cases(eps.records["am"], "type2", "ε sweep"),
        *_cases(gap.records["AM, paper"], "type2", "gap sweep"),
    ]
    gm = [
        *_cases(eps.records["gm"], "type1", "ε sweep"),
        *_cases(gap.records["GM, paper"], "type1", "gap sweep"),
    ]
    checks = [
        *amgm_checks(am, gm, every_round_cases(every_round), P.alpha, P.beta, theorem="Theorem 4.1"),
        _win_probability(floor), _gm_zero_gap(gap), _gm_fixed_budget(ks), _gm_fixed_scale(gap, P.alpha),
        _am_type1(eps, P.alpha), _oracle_limit(eps), _exact_rates(gap),
    ]  # fmt: skip
    return Verdict({ITEM: checks})
