"""Paper 003, Theorem 4.3 (asymptotic guarantees of the two-threshold rule): its checks.

Theorem 4.3 bounds the Type I error of ``Θ̂¹ = {N ≥ (1+π₁)p₁}`` by α and the Type II error of
``Θ̂² = {N ≥ (1−π₂)p₂}`` by ``1 − β``, with ``p₁ = 1 − 1/|Θ*|``, ``p₂ = 1/|Θ̄|`` and
``K ≥ max{log(|Θ̄|/α)/(2π₁²), log(|Θ*|/(1−β))/(2π₂²)}`` rounds, as ``T → ∞``. With ``|Θ*| = 1`` the
paper's ``τ¹ = 0`` admits every state; the book requires one won round (``τ¹ = 1/K``). The checks
(:func:`theorem_4_3`), on the ε sweep and the gap sweep:

* ``thres1-type1``, ``thres2-type2`` and the headline ``promise`` that joins them;
* the book's own statements (``against="reference"``): ``corrected-rates``, the simulated Type II errors of
  the rule with both slips of the proof corrected (the win probabilities, and Hoeffding's factor ``p²``
  in the rounds) agree with their exact binomial values at every gap tested (that they stay within
  ``1 − β`` is what the corrected proof guarantees, a unit test, not a check); ``thres1-corrected-empty``,
  the corrected Θ̂¹ misses θ* with its exact probability at every gap where that probability is
  informative (between :data:`INFORMATIVE` and ``1 −`` :data:`INFORMATIVE`: it keeps its Type I promise
  by being empty; that half of the corrected theorem cannot fail, since a false state wins a round with
  probability at most 1/2, below its threshold, and is a unit test); ``p2-alone``, correcting ``p₂``
  alone leaves the number of won rounds Θ̂² asks for unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpnet.chapters.distributed_mle._common import CONSISTENCY, CORRECTED_K_MAX, Verdict, _cases, _consistent
from dpnet.chapters.distributed_mle.mle_errors_vs_eps import EpsSweep
from dpnet.chapters.distributed_mle.mle_errors_vs_gap import GapSweep
from dpnet.params import Cost, Parameters
from dpnet.reference import complexity
from dpnet.reference._check import every
from dpnet.results import Check

__all__ = ["INFORMATIVE", "ITEM", "cost", "theorem_4_3", "threshold_checks"]

#: The item's key.
ITEM = "p003-thm4-3"

#: A gap informs the emptiness check when Θ̂¹'s exact miss lies in ``[INFORMATIVE, 1 − INFORMATIVE]``.
INFORMATIVE = 1e-3


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: it reads the records of the sweeps (their cost is the sweeps')."""
    return Cost()


def threshold_checks(eps: EpsSweep, gap: GapSweep, alpha: float, beta: float, *, theorem: str) -> list[Check]:
    """The checks of an asymptotic two-threshold theorem (003's 4.3, 000's 3.3) on the ε and gap sweeps:
    ``thres1-type1``, ``thres2-type2`` and the headline ``promise``."""
    type1 = [
        *_cases(eps.records["thres1"], "type1", "ε sweep"),
        *_cases(gap.records["thres1"], "type1", "gap sweep"),
    ]
    type2 = [
        *_cases(eps.records["thres2"], "type2", "ε sweep"),
        *_cases(gap.records["thres2"], "type2", "gap sweep"),
    ]
    checks = [
        complexity.bound_check(
            f"{theorem}: the Type I error of Θ̂¹ is at most α = {alpha:.3g} in every case (τ¹ at least 1/K: "
            "a state must win a round)", type1, alpha, "thres1-type1",
        ),
        complexity.bound_check(
            f"{theorem}: the Type II error of Θ̂² is at most 1 − β = {1 - beta:.3g} in every case", type2,
            1 - beta, "thres2-type2",
        ),
    ]  # fmt: skip
    claim = f"{theorem}: both bounds hold in every case, for any ε and any gap"
    return [*checks, complexity.all_hold(claim, checks, "promise")]


def _corrected_rates(gap: GapSweep) -> Check:
    s = gap.thm43_fixed
    claim = (
        "Theorem 4.3 corrected (p₁ = |Θ*|/(|Θ*| + 1), p₂ = 1/|Θ|, Hoeffding's factor p²: "
        f"τ² = {s.freq_2:.3g}, K = {s.K}): the simulated Type II errors of Θ̂² agree with their exact "
        f"binomial values P[Bin(K, p) < ⌈τ²K⌉] at every gap tested ({CONSISTENCY:.1%} intervals)"
    )
    recs = gap.records["thres2-corrected"]
    if not recs:
        why = f"K = {s.K} exceeds {CORRECTED_K_MAX}: the rule was not simulated"
        return Check(claim, None, f"undecided: {why}", "corrected-rates", against="reference")
    exact = gap.exact("thres2-corrected", "type2")
    ok = [_consistent(r, "type2", e) for r, e in zip(recs, exact, strict=True)]
    off = [f"gap {r['gap']:g}" for r, good in zip(recs, ok, strict=True) if not good]
    worst = max(range(len(recs)), key=lambda i: exact[i])
    detail = (
        f"{len(recs)} gaps, every one consistent; largest exact miss {exact[worst]:.4f} "
        f"(gap {recs[worst]['gap']:g}, simulated {recs[worst]['type2']:.4f})" if not off
        else f"{len(off)} of {len(recs)} gaps outside: {', '.join(off[:4])}"
    )  # fmt: skip
    return Check(claim, every(ok), detail, "corrected-rates", against="reference")


def _thres1_empty(gap: GapSweep) -> Check:
    s = gap.thm43_fixed
    claim = (
        f"Theorem 4.3 corrected (τ¹ = {s.freq_1:.3g}, K = {s.K}): Θ̂¹ misses θ*, and is then empty, with its "
        f"exact probability P[Bin(K, p) < ⌈τ¹K⌉] ({CONSISTENCY:.1%} intervals of the simulated rates) at "
        f"every gap tested where that probability lies between {INFORMATIVE:g} and {1 - INFORMATIVE:g}"
    )
    recs = gap.records["thres1-corrected"]
    if not recs:
        why = f"K = {s.K} exceeds {CORRECTED_K_MAX}: the rule was not simulated"
        return Check(claim, None, f"undecided: {why}", "thres1-corrected-empty", against="reference")
    pairs = [
        (r, e) for r, e in zip(recs, gap.exact("thres1-corrected", "type2"), strict=True)
        if INFORMATIVE <= e <= 1 - INFORMATIVE
    ]  # fmt: skip
    if not pairs:
        why = "at no gap tested is the exact miss informative (every one is within 0.001 of 0 or 1)"
        return Check(claim, None, f"undecided: {why}", "thres1-corrected-empty", against="reference")
    shown = "; ".join(f"gap {r['gap']:g}: simulated {r['type2']:.4f}, exactly {e:.4f}" for r, e in pairs)
    return Check(
        claim, every(_consistent(r, "type2", e) for r, e in pairs), shown, "thres1-corrected-empty",
        against="reference",
    )  # fmt: skip


def _p2_alone(gap: GapSweep) -> Check:
    paper, corrected = gap.wins_needed(corrected=False), gap.wins_needed(corrected=True)
    return Check(
        f"with K = {gap.thm43.K} rounds, Θ̂² asks θ* to win as many rounds with the corrected p₂ = 1/|Θ| as "
        "with the paper's 1/|Θ̄|: correcting p₂ alone leaves the set unchanged",
        paper == corrected, f"{paper} won rounds with the paper's p₂, {corrected} with the corrected",
        "p2-alone", against="reference",
    )  # fmt: skip


def theorem_4_3(P: Parameters, eps: EpsSweep, gap: GapSweep) -> Verdict:
    """Theorem 4.3's checks on the ε and gap sweeps, and the corrected theorem's on the gap sweep."""
    checks = [*threshold_checks(eps, gap, P.alpha, P.beta, theorem="Theorem 4.3"),
              _corrected_rates(gap), _thres1_empty(gap), _p2_alone(gap)]  # fmt: skip
    return Verdict({ITEM: checks})
