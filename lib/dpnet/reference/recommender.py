"""Paper 002 (private item clustering, MaxSense): the ranges the chapter's measurements are checked against.

The paper is a theory paper with no numerical figures; its theorems give orders of growth, not constants.
The book turned each theorem into a measurable outcome (the chapter's experiments E0–E10) and fixed a range
for it from a separate pilot computation, made before this implementation was written and never tuned to
the chapter's runs (the book's note ``note-rec-tolerances`` lists them). Each function here takes what
chapter ``recommender-maxsense`` measured and returns its checks, each a
:class:`~dpnet.results.Check` named for the badge that cites it in the chapter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Final

from dpnet.reference._check import every, within
from dpnet.results import Check

#: The catalogue items of chapter ``recommender-maxsense`` (:mod:`dpnet.reference.catalogue`): (paper,
#: name, title, headline claim, name of the check that tests it under the paper's mathematics).
ITEMS: Final[tuple[tuple[str, str, str, str, str], ...]] = (
    ("002", "E0", "Mechanism checks",
     "Thm 5.1 (with Prop. 2.4): MaxSense satisfies ε-local-DP, its probe set being independent of the user's "
     "data and its bit released by randomized response, which keeps it with probability e^ε/(1 + e^ε)",
     "ldp-maxsense"),
    ("002", "E1", "Lower-bound curves vs N and w",
     "Thm 4.8 (§4.3): under ε-local DP one user's sketch carries at most e^{2ε}(Δ₁ + Δ₂) = O(w²/N) nats "
     "about the clustering, so every scheme is unreliable with fewer than c N²/w² users", "thm48-exact"),
    ("002", "E2", "Exact mutual information",
     "Thm 4.3 (§4.2): with one rating per user (w = 1), every 1-bit sketch carries at most 1/N nats, so "
     "learning with one bit per user needs order N² users", "thm43-one-over-n"),
    ("002", "E3", "Pairwise-Preference phase transition (information-rich)",
     "Thm 3.5 (§3.2): in the information-rich regime (w = Ω(N)) Pairwise-Preference recovers every item's "
     "cluster with c N log N users", "n-log-n"),
    ("002", "E4", "MaxSense phase transition (information-scarce)",
     "Thm 5.1 (§5): MaxSense recovers every item's cluster with probability 1 − N^{−d} once U ≥ "
     "75 N²(ln 2 + (1 + d) ln N)/(θ w ε̂² δ_min²), order N² log N/(w ε̂² δ_min²)", "thm51-sufficient"),
    ("002", "E5", "Rich vs scarce crossover",
     "§5: Pairwise-Preference, order-optimal when ratings are rich, is highly suboptimal when they are "
     "scarce (w = o(N)), where MaxSense needs fewer users", "scarce"),
    ("002", "E6", "Multi-MaxSense vs MaxSense across ε",
     "Thm 5.3: with Q = ⌈ε⌉ bits at ε/Q each, Multi-MaxSense needs order N² log N/(ε δ_min² w) users: its "
     "price of privacy keeps falling like 1/ε where MaxSense's stops falling", "gain-32"),
    ("002", "E7", "1-bit sketches",
     "Thm 4.3 and §1: with exactly one bit per user (w = 1, no privacy) learning needs order N² users, "
     "against N log N without the constraint", "fano"),
    ("002", "E8", "Adaptive lower bound",
     "Thm 6.1: with w = 1, even adaptive ε-LDP queries need Ω(N log N) users; its proof rests on Lemma 6.4, "
     "Var^T[F] ≤ Var⁰[F] max{20, 10δ} once the queries hold δ nats", "lemma64"),
    ("002", "E9", "Distortion vs exact recovery",
     "Thm A.5: allowing d misclassified items, every ε-LDP scheme is still unreliable with fewer than "
     "(1 − p_max) N K (1 − d/N − 1/K)²/(3ε) users, order N/ε (no run can test a lower bound of a few "
     "users: the item names no headline check)", ""),
    ("002", "E10", "MovieLens 100k, semi-synthetic",
     "Thm 5.1 (§5): MaxSense's users scale as N² log N/(w ε̂² δ_min²), here on a block model fitted to real "
     "ratings (the paper has no experiment on data)", "thm51-scale"),
)  # fmt: skip

#: E0: randomized response's empirical keep rate (10⁶ draws, about four standard errors) within ±0.002 of
#: e^ε/(1+e^ε); the exact likelihood ratio equals e^ε to 1e-12 (an identity, checked in the unit tests).
RR_KEEP_TOLERANCE: Final = 0.002
RR_RATIO_TOLERANCE: Final = 1e-12
#: E0: the worst likelihood ratio of a whole release, enumerated, may exceed e^ε by rounding only.
LDP_ROUNDING: Final = 1e-9
#: E4: closed-form MaxSense means vs the fast simulator (0.5 %), vs the exact w-subset simulator (2 %),
#: and the w-subset between-cluster gap (15 %), at U = 4·10⁵, N = 200, w = 10, b = (0.8, 0.2), ε = 1.
MEANS_CASE: Final = {"n_items": 200, "w": 10, "b": (0.8, 0.2), "eps": 1.0, "n_users": 400_000, "runs": 5}
MEANS_TOLERANCE: Final = {"fast": 0.005, "subset": 0.02, "subset_gap": 0.15}
#: δ_min of M-asym at θ = 1 (0.8 e^{−1/2}); M-sym has δ_min = 0 (identities, checked in the unit tests).
DELTA_MIN_ASYM: Final = (0.4852, 1e-4)
#: E4: the transition at the reference MaxSense case (M-asym, N = 100, w = 10, ε = 1).
MAXSENSE_TRANSITION: Final = {"low_users": 1e5, "low_max": 0.2, "high_users": 1.2e6, "high_min": 0.9,
                              "prediction_factor": 1.4}  # fmt: skip
#: E4: the scaling collapse of MaxSense's U_90 (Thm 5.1's scale) and its fitted exponents.
COLLAPSE_RANGE: Final = (8.0, 32.0)
MAXSENSE_SLOPES: Final = {"N": (1.8, 2.6), "w": (-1.5, -0.7), "eps_hat": (-2.5, -1.5)}
#: E4: Thm 5.1's failure probability N^{−d} read at the 90 % of U_90: d = ln 10/ln N.
THM51_FAILURE: Final = 0.1
#: E3: Pairwise-Preference, rich regime: U_90/(N ln N/ε̂²) and U_90(ε=0.25)/U_90(ε=1).
PP_CONSTANT_RANGE: Final = (10.0, 40.0)
PP_EPS_RATIO_RANGE: Final = (8.0, 25.0)
#: E5: MaxSense on M-sym (δ_min = 0) at U = 2·10⁶, ε = ∞: success at most 0.1.
SYMMETRIC_USERS: Final = 2e6
SYMMETRIC_MAX: Final = 0.1
#: E5: PP's exponent in N/w: non-private "agree_rated" in [1.5, 2.5]; at ε = 1 at least 2.8.
PP_EXPONENT_NONPRIVATE: Final = (1.5, 2.5)
PP_EXPONENT_PRIVATE_MIN: Final = 2.8
#: E6: Multi-MaxSense per user (Fig. 3): gain ≥ 4 at ε = 32, none (ratio ≥ 0.9) at ε = 2; the independent-bits
#: model's measured/predicted in [0.7, 1.4].
MULTI_GAIN_MIN: Final = 4.0
MULTI_NO_GAIN: Final = 0.9
MULTI_PREDICTION: Final = (0.7, 1.4)
#: E7: 1-bit schemes within ±15 % of the book's approximations (``note-rec-one-bit``) at N = 128;
#: adaptive/point query < 0.5 for N ≥ 64.
ONE_BIT_N: Final = 128
ONE_BIT_TOLERANCE: Final = 0.15
ONE_BIT_ADAPTIVE_MAX: Final = 0.5
#: E2: the guess-vector query's information over 1/(2N).
GUESS_QUERY_RANGE: Final = (1.0, 1.1)
#: E1, E2: an exact information may exceed an exact bound by rounding only (nats).
EXACT_ROUNDING: Final = 1e-12


def _finite(values: Sequence[float]) -> bool:
    # min/max skip a nan that is not first, so a non-finite value must fail explicitly
    return len(values) > 0 and all(math.isfinite(v) for v in values)


def _range_check(
    label: str, value: float, bounds: tuple[float, float], name: str, fmt: str = ".4g", against: str = "paper"
) -> Check:
    """The check that ``value`` lies in ``bounds``, its claim naming the range."""
    lo, hi = bounds
    claim = f"{label} in [{lo:g}, {hi:g}]"
    return Check(claim, within(value, bounds), f"measured {value:{fmt}}", name, against)


def _budget_name(scheme: str) -> str:
    """A check name from a scheme's description: ``budget-multi-maxsense-q-8-bits-at-8``."""
    return "budget-" + re.sub(r"[^a-z0-9]+", "-", scheme.lower()).strip("-")


def _spread(values: Sequence[float], text: str, empty: str) -> str:
    """A detail: the smallest and largest of ``values`` in ``text``, a nan shown (``min``/``max`` would skip
    it); ``empty`` when there are none."""
    if not values:
        return empty
    finite = [v for v in values if not math.isnan(v)]
    shown = text.format(min(finite, default=math.nan), max(finite, default=math.nan))
    return shown if len(finite) == len(values) else f"{shown}, and nan"


def _worst(values: Sequence[float], fmt: str = ".3g") -> str:
    """A detail: the largest of ``values`` (a nan first: ``max`` would skip it), or that there were none."""
    return f"largest {max(values, key=lambda v: (math.isnan(v), v)):{fmt}}" if values else "no case"


#: E4: the names of the slope checks, by variable, and the variable as a claim writes it.
_SLOPE_NAMES: Final = {"N": "slope-n", "w": "slope-w", "eps_hat": "slope-eps"}
_SLOPE_LABELS: Final = {"N": "N", "w": "w", "eps_hat": "ε̂"}
#: E5: the names of the private exponent checks, by sketch.
_SKETCH_NAMES: Final = {"agree_rated": "exponent-private-rated", "agree": "exponent-private-agree"}


def rr_checks(
    keep_rates: Mapping[float, float], ratios: Mapping[float, float], inf_flips: int
) -> list[Check]:
    """E0: keep rates ``{ε: empirical}``, exact likelihood ratios ``{ε: ratio}``, flips seen at ε = ∞.

    The checks are named ``keep-<ε>``, ``ratio-<ε>`` (a point of ε written as a hyphen: ``keep-0-1``)
    and ``never-flips``.
    """
    out: list[Check] = []
    tol = RR_KEEP_TOLERANCE
    for eps, rate in keep_rates.items():
        exact = math.exp(eps) / (1 + math.exp(eps))
        out.append(Check(f"RR keep rate at ε = {eps:g} within ±{tol} of e^ε/(1+e^ε)",
                         within(rate - exact, (-tol, tol)), f"{rate:.5f} vs {exact:.5f}",
                         f"keep-{eps:g}".replace(".", "-"), "reference"))  # fmt: skip
    for eps, ratio in ratios.items():
        excess = ratio / math.exp(eps) - 1
        out.append(Check(f"RR likelihood ratio at ε = {eps:g} equals e^ε to 1e-12",
                         within(excess, (-RR_RATIO_TOLERANCE, RR_RATIO_TOLERANCE)),
                         f"ratio/e^ε − 1 = {excess:.1e}", f"ratio-{eps:g}".replace(".", "-"),
                         "reference"))  # fmt: skip
    out.append(
        Check("RR at ε = ∞ never flips", inf_flips == 0, f"{inf_flips} flips", "never-flips", "reference")
    )
    return out


def privacy_checks(
    ratios: Mapping[str, Mapping[float, float]], rated: Mapping[float, tuple[float, float]]
) -> list[Check]:
    """E0: the worst likelihood ratio of each scheme's whole release, enumerated, ``{scheme: {ε: ratio}}``,
    at most ``e^ε`` at every ε (``ldp-<scheme>``); and for the pair drawn from the rated items, ``{ε: (over
    all data, over data with the same rated set)}``: infinite, and at most ``e^ε`` for the ratings alone
    (``rated-set-exposed``). Undecided when no ε was enumerated."""
    out = []
    for scheme, by_eps in ratios.items():
        ok = every(r <= math.exp(e) * (1 + LDP_ROUNDING) for e, r in by_eps.items())
        detail = ", ".join(f"ε = {e:g}: {r / math.exp(e):.12g} e^ε" for e, r in by_eps.items()) or "no ε"
        out.append(Check(f"{scheme}: every release's likelihood ratio over two users' data is at most e^ε",
                         ok, detail, f"ldp-{scheme}"))  # fmt: skip
    ok = every(
        math.isinf(full) and own <= math.exp(e) * (1 + LDP_ROUNDING) for e, (full, own) in rated.items()
    )
    detail = ", ".join(f"ε = {e:g}: {full:g} over all data, {own / math.exp(e):.12g} e^ε over the ratings"
                       for e, (full, own) in rated.items()) or "no ε"  # fmt: skip
    claim = "a pair drawn from the rated items is ε-private for the ratings, not for which items were rated"
    out.append(Check(claim, ok, detail, "rated-set-exposed", "reference"))
    return out


def accounting_checks(budgets: Mapping[str, tuple[float, float]]) -> list[Check]:
    """The accounting: ``{scheme: (reported total ε, requested ε)}`` must agree (an identity, unit-tested).

    Each check is named ``budget-`` and its scheme, lower case, with hyphens (``budget-maxsense``).
    """
    return [Check(f"{name} is ε-LDP in total (composition)", math.isclose(total, eps, rel_tol=1e-12),
                  f"total {total:g} for ε = {eps:g}", _budget_name(name), "reference")
            for name, (total, eps) in budgets.items()]  # fmt: skip


def means_checks(fast: Sequence[float], subset: Sequence[float], closed: Sequence[float]) -> list[Check]:
    """E4: per-cluster mean scores ``B/U`` (cluster 0 liked more): simulators vs closed form.

    Named ``means-fast``, ``means-subset`` and ``means-gap``. A non-finite value, of a simulator or of the
    closed form, fails the checks it enters.
    """
    out = []
    simulators = (
        ("fast (Bernoulli)", "means-fast", fast, MEANS_TOLERANCE["fast"]),
        ("exact w-subset", "means-subset", subset, MEANS_TOLERANCE["subset"]),
    )
    for label, name, sim, tol in simulators:
        err = max(abs(s / c - 1) for s, c in zip(sim, closed, strict=True))
        out.append(Check(f"{label} simulator's cluster means within {tol:.1%} of the closed form",
                         _finite([*sim, *closed]) and err <= tol,
                         f"largest relative error {err:.2%}", name, "reference"))  # fmt: skip
    gap = (subset[0] - subset[1]) / (closed[0] - closed[1])
    tol = MEANS_TOLERANCE["subset_gap"]
    out.append(Check(f"exact w-subset between-cluster gap within {tol:.0%} of the closed form",
                     within(gap - 1, (-tol, tol)), f"gap ratio {gap:.3f}", "means-gap",
                     "reference"))  # fmt: skip
    return out


def delta_checks(asym: float, sym: float) -> list[Check]:
    """δ_min of M-asym and M-sym at θ = 1, named ``delta-asym`` and ``delta-sym``."""
    value, tol = DELTA_MIN_ASYM
    return [Check(f"δ_min(M-asym) = {value} ± {tol:g}", within(asym - value, (-tol, tol)), f"{asym:.5f}",
                  "delta-asym", "reference"),
            Check("δ_min(M-sym) = 0 exactly", sym == 0.0, f"{sym!r}", "delta-sym", "reference")]  # fmt: skip


def lower_bound_checks(
    thm48: Sequence[float], thm410: Sequence[float], extremal: Sequence[tuple[float, float, float]]
) -> list[Check]:
    """E1: exact information over Thm 4.8's bound for every enumerated ε-private sketch (``thm48-exact``),
    over Thm 4.10's explicit bound for those with ε < ln 2 (``thm410-exact``), and, per instance,
    ``(largest quadratic over Lemma C.7's extremal points, the proof's bound 2ε'²w/N, largest over random
    feasible points)`` (``lemma-c7``). Each undecided on an empty set of cases."""
    tol = 1 + EXACT_ROUNDING
    return [
        Check("Thm 4.8: every enumerated ε-private sketch carries at most e^{2ε}(Δ₁ + Δ₂) nats",
              every(r <= tol for r in thm48), f"exact I over the bound: {_worst(thm48)}", "thm48-exact"),
        Check("Thm 4.10: every enumerated sketch with ε < ln 2 carries at most its explicit bound",
              every(r <= tol for r in thm410), f"exact I over the bound: {_worst(thm410)}", "thm410-exact"),
        Check("Lemma C.7 and (23): Σ_ℓ (π_ℓ0 − π_ℓ1)² peaks at an extremal point, below 2ε'²w/N",
              every(top <= bound * tol and inner <= top * tol for top, bound, inner in extremal),
              "largest extremal value over the bound "
              + (f"{max(top / bound for top, bound, _ in extremal):.3f}" if extremal else ": no instance"),
              "lemma-c7"),
    ]  # fmt: skip


def thm43_checks(
    max_excess: float, max_information_n: float, guess_ratios: Mapping[int, float]
) -> list[Check]:
    """E2: exact I ≤ bound (largest excess, ``thm43-bound``), ``max N·I ≤ 1`` (``thm43-one-over-n``),
    guess-vector ``I/(1/(2N))`` by N (``guess-<N>``)."""
    out: list[Check] = [
        Check("Thm 4.3: exact I(Z;S) ≤ |C₁|/(2N)(1/|A| + 1/(2N−|A|)) for every tested query",
              max_excess <= EXACT_ROUNDING, f"largest excess {max_excess:.1e} nats", "thm43-bound"),
        Check("Thm 4.3: every 1-bit sketch carries ≤ 1/N nats", max_information_n <= 1 + EXACT_ROUNDING,
              f"largest N·I = {max_information_n:.4f}", "thm43-one-over-n"),
    ]  # fmt: skip
    out += [_range_check(f"guess-vector query at N = {n}: I/(1/(2N))", r, GUESS_QUERY_RANGE, f"guess-{n}",
                         ".4f", "reference")
            for n, r in guess_ratios.items()]  # fmt: skip
    return out


def lemma41_checks(pairs: Sequence[tuple[float, float]]) -> list[Check]:
    """E2: ``(exact I(Z;S), Lemma 4.1's right-hand side)`` of every enumerated sketch: the lemma holds for
    each (``lemma41``); undecided when none was enumerated."""
    over = [i - bound for i, bound in pairs]
    return [Check("Lemma 4.1: I(Z;S) ≤ E_S E[2^{|I₁∩I₂|} 1{Z₁ ≡ Z₂} − 1] for every enumerated sketch",
                  every(x <= EXACT_ROUNDING for x in over),
                  f"{len(pairs)} sketches, largest I − bound {max(over):.1e} nats" if over else "no sketch",
                  "lemma41")]  # fmt: skip


def maxsense_information_checks(max_over_thm410: float, max_over_eps: float) -> list[Check]:
    """E2: max I/(2ε'²w/N) for ε < ln 2 and max I/ε of MaxSense's sketch (``sketch-thm410``,
    ``sketch-lemma31``)."""
    return [
        Check("MaxSense sketch MI ≤ 2ε'²w/N (Thm 4.10's term) for ε < ln 2", max_over_thm410 <= 1.0,
              f"largest ratio {max_over_thm410:.3f}", "sketch-thm410"),
        Check("MaxSense sketch MI ≤ ε (Lemma 3.1)", max_over_eps <= 1.0, f"largest ratio {max_over_eps:.3g}",
              "sketch-lemma31"),
    ]  # fmt: skip


def transition_checks(low: float, high: float, u90: float, predicted: float) -> list[Check]:
    """E4: success at 10⁵ and 1.2·10⁶ users (``below``, ``above``), and U_90 against the Gaussian
    prediction (``prediction``)."""
    c = MAXSENSE_TRANSITION
    factor = max(u90 / predicted, predicted / u90) if u90 > 0 else math.inf
    return [
        Check(f"MaxSense P_succ ≤ {c['low_max']} at U = 10⁵", low <= c["low_max"], f"{low:.2f}", "below",
              "reference"),
        Check(f"MaxSense P_succ ≥ {c['high_min']} at U = 1.2·10⁶", high >= c["high_min"], f"{high:.2f}",
              "above", "reference"),
        Check(f"MaxSense U_90 within a factor {c['prediction_factor']} of the Gaussian prediction",
              factor <= c["prediction_factor"], f"{u90:.3g} vs {predicted:.3g}", "prediction", "reference"),
    ]  # fmt: skip


def collapse_checks(constants: Mapping[str, float], slopes: Mapping[str, float]) -> list[Check]:
    """E4: ``U_90 w ε̂² δ²/(N² ln N)`` per configuration (``collapse``; undecided with none), and the fitted
    slopes in N, w and ε̂ (``slope-n``, ``slope-w``, ``slope-eps``)."""
    values = list(constants.values())
    lo, hi = COLLAPSE_RANGE
    detail = f"range {min(values):.1f}–{max(values):.1f}" if values else "no configuration"
    out = [Check(f"MaxSense U_90/(N² ln N/(w ε̂² δ²)) in [{lo:g}, {hi:g}] for all {len(constants)} "
                 "configurations", every(within(v, COLLAPSE_RANGE) for v in values), detail,
                 "collapse")]  # fmt: skip
    out += [_range_check(f"MaxSense slope of log U_90 in log {_SLOPE_LABELS[v]}", slopes[v],
                         MAXSENSE_SLOPES[v], _SLOPE_NAMES[v], ".2f")
            for v in MAXSENSE_SLOPES]  # fmt: skip
    return out


def sufficient_checks(ratios: Mapping[str, float]) -> list[Check]:
    """E4: measured U_90 over the proof's sufficient number of users (Thm 5.1 with ``N^{−d} = 0.1``), per
    configuration: at most 1 for each (``thm51-sufficient``; undecided with none)."""
    values = list(ratios.values())
    return [Check("Thm 5.1: MaxSense reaches 90 % success by the proof's number of users "
                  "75 N²(ln 2 + (1 + d) ln N)/(θ w ε̂² δ²), N^{−d} = 0.1, in every configuration",
                  every(within(v, (0.0, 1.0)) for v in values),
                  f"U_90 over it: {min(values):.3f}–{max(values):.3f}" if values else "no configuration",
                  "thm51-sufficient")]  # fmt: skip


def pairwise_rich_checks(
    constants: Mapping[int, float], eps_ratio: float, all_constants: Sequence[float] = (),
    conditions: Mapping[str, bool] | None = None,
) -> list[Check]:  # fmt: skip
    """E3: ``U_90 ε̂²/(N ln N)`` at N = 50, 100, 200 (``constant-<N>``), ``U_90(ε = 0.25)/U_90(ε = 1)``
    (``eps-ratio``), the constant at every N of the sweep (``n-log-n``) and Thm 3.5's conditions on every
    model run, ``{model: hold}`` (``nondegenerate``); the last two undecided on an empty set."""
    out = [
        _range_check(f"PP U_90/(N ln N/ε̂²) at N = {n}", c, PP_CONSTANT_RANGE, f"constant-{n}", ".1f")
        for n, c in constants.items()
    ]
    out.append(
        _range_check(
            "PP U_90(ε=0.25)/U_90(ε=1) (1/ε², not 1/ε)",
            eps_ratio,
            PP_EPS_RATIO_RANGE,
            "eps-ratio",
            ".1f",
            "reference",
        )
    )
    lo, hi = PP_CONSTANT_RANGE
    out.append(Check(f"Thm 3.5: PP's U_90 is c N ln N/ε̂² with c in [{lo:g}, {hi:g}] at every N of the sweep",
                     every(within(c, PP_CONSTANT_RANGE) for c in all_constants),
                     _spread(all_constants, "c from {:.1f} to {:.1f}", "no N"), "n-log-n"))  # fmt: skip
    held = dict(conditions or {})
    failing = ", ".join(k for k, v in held.items() if not v)
    detail = (f"failing: {failing}" if failing else f"{len(held)} models") if held else "no model"
    out.append(Check("Thm 3.5's non-degeneracy conditions hold on every model the sweep runs",
                     every(held.values()), detail, "nondegenerate", "reference"))  # fmt: skip
    return out


def symmetric_checks(success: float) -> list[Check]:
    """E5: MaxSense fails on M-sym (``symmetric``)."""
    return [Check(f"MaxSense on M-sym (δ_min = 0): P_succ ≤ {SYMMETRIC_MAX} at U = 2·10⁶, ε = ∞",
                  success <= SYMMETRIC_MAX, f"{success:.2f}", "symmetric", "reference")]  # fmt: skip


def _fewer(few: float, many: float, cap: float) -> bool | None:
    """Whether ``few < many`` users, ``nan`` meaning "not reached": Pairwise-Preference's within ``cap`` users
    (``many`` is then above the cap), MaxSense's within its grid (unknown: undecided)."""
    if math.isnan(few):
        return None
    return True if math.isnan(many) and few < cap else (None if math.isnan(many) else few < many)


def crossover_checks(
    pp_full: float, ms_full: float, pp_quarter: float, ms_quarter: float,
    scarce: Sequence[tuple[int, float, float]] = (), cap: float = 1e7,
) -> list[Check]:  # fmt: skip
    """E5: U_90 of PP and MaxSense at w = N (``full-w``: PP fewer), w = N/4 (``quarter-w``: MaxSense fewer)
    and every ``(w, PP, MaxSense)`` of ``scarce`` (``scarce``: MaxSense fewer at each). ``nan`` is "not
    reached": Pairwise-Preference's then needs more than ``cap`` users, MaxSense's is unknown, and a
    comparison with an unknown side is undecided (so is ``scarce`` with no w)."""
    if math.isnan(ms_full):  # MaxSense's U_90 unknown
        full = None
    elif math.isnan(pp_full):  # Pairwise-Preference needs more than the cap
        full = False if ms_full < cap else None
    else:
        full = pp_full < ms_full
    quarter = _fewer(ms_quarter, pp_quarter, cap)
    each = [_fewer(ms, pp, cap) for _, pp, ms in scarce]
    scarce_ok = None if (not each or any(x is None for x in each)) else all(each)

    def pp(u: float) -> str:  # Pairwise-Preference's U_90, or "not reached within the cap"
        return f"more than {cap:.3g}" if math.isnan(u) else f"{u:.3g}"

    def ms(u: float) -> str:  # MaxSense's U_90, or "not reached on its grid"
        return "not reached" if math.isnan(u) else f"{u:.3g}"

    return [Check("w = N: PP needs fewer users than MaxSense", full,
                  f"{pp(pp_full)} vs {ms(ms_full)}", "full-w", "reference"),
            Check("w = N/4: MaxSense needs fewer users than PP", quarter,
                  f"{ms(ms_quarter)} vs {pp(pp_quarter)}", "quarter-w", "reference"),
            Check("§5: MaxSense needs fewer users than PP at every scarce w (w ≤ N/10)", scarce_ok,
                  "; ".join(f"w = {w}: {ms(m)} vs {pp(p)}" for w, p, m in scarce) or "no w",
                  "scarce")]  # fmt: skip


def pp_exponent_checks(nonprivate: float, private: Mapping[str, float]) -> list[Check]:
    """E5: slopes of log U_90 against log(N/w): non-private (``exponent-nonprivate``), and at ε = 1 by
    sketch (``exponent-private-rated`` for ``agree_rated``, ``exponent-private-agree`` for ``agree``)."""
    out = [
        _range_check("PP exponent in N/w, ε = ∞, sketch agree_rated", nonprivate, PP_EXPONENT_NONPRIVATE,
                     "exponent-nonprivate", ".2f")
    ]  # fmt: skip
    out += [Check(f"PP exponent in N/w at ε = 1, sketch {name}, ≥ {PP_EXPONENT_PRIVATE_MIN}",
                  slope >= PP_EXPONENT_PRIVATE_MIN, f"{slope:.2f}", _SKETCH_NAMES[name], "reference")
            for name, slope in private.items()]  # fmt: skip
    return out


def multi_checks(
    gain_32: float, ratio_2: float, gain_8: float, prediction_ratios: Sequence[float],
    per_user_ratios: Sequence[float],
) -> list[Check]:  # fmt: skip
    """E6, per user (Fig. 3): ``U_90(Q=1)/U_90(Q=32)`` at ε = 32 (``gain-32``), ``U_90(Q=2)/U_90(Q=1)`` at
    ε = 2 (``no-gain-2``), ``U_90(Q=1)/U_90(Q=8)`` at ε = 8 (``gain-8``); the independent-bits model's
    measured/predicted (``prediction``); per-user over independent-bits U_90 at every setting both ran
    (``per-user-below``, undecided with none)."""
    ratios = list(per_user_ratios)
    return [
        Check(f"Multi-MaxSense at ε = 32: Q = 32 needs ≤ 1/{MULTI_GAIN_MIN:g} of one bit's users (Fig. 3)",
              gain_32 >= MULTI_GAIN_MIN, f"gain {gain_32:.1f}", "gain-32"),
        Check(f"Multi-MaxSense at ε = 2: Q = 2 gains nothing over one bit (ratio ≥ {MULTI_NO_GAIN}, Fig. 3)",
              ratio_2 >= MULTI_NO_GAIN, f"ratio {ratio_2:.2f}", "no-gain-2", "reference"),
        Check("Multi-MaxSense at ε = 8: Q = 8 needs fewer users than one bit (Fig. 3)", gain_8 > 1.0,
              f"gain {gain_8:.2f}", "gain-8", "reference"),
        Check(f"Multi-MaxSense, independent bits: U_90 measured/predicted in [{MULTI_PREDICTION[0]}, "
              f"{MULTI_PREDICTION[1]}]", every(within(r, MULTI_PREDICTION) for r in prediction_ratios),
              _spread(prediction_ratios, "range {:.2f}–{:.2f}", "no setting"), "prediction", "reference"),
        Check("Multi-MaxSense: Fig. 3 per user needs fewer users than the independent-bits model, at every "
              "setting both ran", every(r < 1.0 for r in ratios),
              _spread(ratios, "per user / independent bits {:.2f}–{:.2f}", "no setting"),
              "per-user-below", "reference"),
    ]  # fmt: skip


def one_bit_checks(relative: Mapping[str, float], adaptive_ratios: Mapping[int, float]) -> list[Check]:
    """E7: measured/approximate U_90 per scheme at N = 128 (``formula-<scheme>``, underscores as
    hyphens); adaptive/point-query U_90 for N ≥ 64 (``adaptive-<N>``)."""
    tol = ONE_BIT_TOLERANCE
    out = [Check(f"1-bit scheme {s}: U_90 within ±{tol:.0%} of the formula at N = {ONE_BIT_N}",
                 within(r - 1, (-tol, tol)), f"measured/formula {r:.3f}", f"formula-{s.replace('_', '-')}",
                 "reference")
           for s, r in relative.items()]  # fmt: skip
    out += [Check(f"adaptive 1-bit needs < {ONE_BIT_ADAPTIVE_MAX} of the non-adaptive users at N = {n}",
                  r < ONE_BIT_ADAPTIVE_MAX, f"{r:.3f}", f"adaptive-{n}", "reference")
            for n, r in adaptive_ratios.items()]  # fmt: skip
    return out


def fano_checks(margins: Sequence[float]) -> list[Check]:
    """E7: U_90 over Thm 4.3's Fano bound of the non-adaptive exactly-1-bit scheme (point queries) at every
    N: at least 1 each (``fano``; undecided with none)."""
    return [Check("Thm 4.3: the non-adaptive exactly-1-bit scheme needs at least the Fano bound at every N",
                  every(m >= 1 for m in margins),
                  f"U_90 / bound from {min(margins):.2f} to {max(margins):.2f}" if margins else "no scheme",
                  "fano")]  # fmt: skip


def adaptive_checks(lemma64: Sequence[float], above: Sequence[tuple[float, float]]) -> list[Check]:
    """E8: the exact largest variance over Lemma 6.4's bound, per case (``lemma64``: at most 1); and
    ``(MaxSense's U_90 at w = 1, the larger lower bound)`` per N (``above-bounds``: U_90 above it; a U_90
    not reached on its grid is left out). Each undecided on an empty set."""
    reached = [(u, b) for u, b in above if math.isfinite(u)]
    return [
        Check("Lemma 6.4: Var^T[F] ≤ Var⁰[F] max{20, 10δ} at the exact optimum of its proof's problem (27)",
              every(r <= 1 + EXACT_ROUNDING for r in lemma64),
              f"{len(lemma64)} cases, variance over the bound: {_worst(lemma64)}", "lemma64"),
        Check("MaxSense's U_90 at w = 1 lies above Thm 6.1's and Thm 4.10's lower bounds",
              every(u >= b for u, b in reached),
              "; ".join(f"{u:,.0f} vs {b:,.0f}" for u, b in reached) or "no U_90", "above-bounds",
              "reference"),
    ]  # fmt: skip


def distortion_checks(
    ratios: Sequence[float], a5: Sequence[tuple[float, float]], tolerance: float
) -> list[Check]:
    """E9: measured over Gaussian ratio ``U_90/U(mean error ≤ 5 %)`` per configuration (``gaussian-ratio``:
    within ±``tolerance``), and ``(U_90, Thm A.5's bound as Cor A.4 gives it)`` per configuration with
    finite ε (``thm-a5``: U_90 at least the bound, since at U_90 the probability of more than d errors is at
    most 0.1 < p_max). Both compare with the book's derivations, not with a claim a run could refute (the
    bound is a few users). Each undecided on an empty set."""
    return [
        Check(f"U_90/U(mean error ≤ 5%) within ±{tolerance:.0%} of the Gaussian ratio, every configuration",
              every(within(r - 1, (-tolerance, tolerance)) for r in ratios),
              _spread(ratios, "measured/Gaussian {:.2f}–{:.2f}", "no configuration"), "gaussian-ratio",
              "reference"),
        Check("Thm A.5 from Cor A.4 (d = 0.05 N, p_max = 1/2): MaxSense's U_90, where at most 10 % of runs "
              "misclassify more than d items, is at least the bound, every configuration",
              every(u >= b for u, b in a5),
              f"U_90 over the bound from {min(u / b for u, b in a5):,.0f}" if a5 else "no configuration",
              "thm-a5", "reference"),
    ]  # fmt: skip


def three_cluster_checks(ms_u90: float, ms_predicted: float, ms_proof: float, pp_u90: float) -> list[Check]:
    """E5, three clusters: MaxSense's U_90 on M-asym3 against its Gaussian prediction (``three-prediction``:
    within E4's factor) and the proof of Thm 5.1's number (``three-sufficient``: below it); Pairwise-
    Preference reaching 90 % on M-sym3 within its grid (``three-pairwise``: a defined U_90)."""
    factor = max(ms_u90 / ms_predicted, ms_predicted / ms_u90) if ms_u90 > 0 else math.inf
    limit = MAXSENSE_TRANSITION["prediction_factor"]
    return [
        Check(f"MaxSense with three clusters: U_90 within a factor {limit} of the Gaussian prediction",
              factor <= limit, f"{ms_u90:.3g} vs {ms_predicted:.3g}", "three-prediction", "reference"),
        Check("Thm 5.1 with three clusters: MaxSense reaches 90 % by the proof's number of users",
              within(ms_u90 / ms_proof, (0.0, 1.0)), f"{ms_u90:.3g} vs {ms_proof:.3g}", "three-sufficient"),
        Check("Pairwise-Preference recovers three clusters (M-sym3) within its grid of users",
              math.isfinite(pp_u90), f"U_90 {pp_u90:.3g}", "three-pairwise", "reference"),
    ]  # fmt: skip
