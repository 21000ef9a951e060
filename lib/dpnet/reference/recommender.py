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

from dpnet.reference._check import within
from dpnet.results import Check

#: The catalogue items of chapter ``recommender-maxsense`` (:mod:`dpnet.reference.catalogue`): (paper,
#: name, title, headline claim, name of the check that tests it under the paper's mathematics).
ITEMS: Final[tuple[tuple[str, str, str, str, str], ...]] = (
    ("002", "E0", "Mechanism checks", "", ""),
    ("002", "E1", "Lower-bound curves vs N and w", "", ""),
    ("002", "E2", "Exact mutual information", "", ""),
    ("002", "E3", "Pairwise-Preference phase transition (information-rich)", "", ""),
    ("002", "E4", "MaxSense phase transition (information-scarce)", "", ""),
    ("002", "E5", "Rich vs scarce crossover", "", ""),
    ("002", "E6", "Multi-MaxSense vs MaxSense across ε", "", ""),
    ("002", "E7", "1-bit sketches", "", ""),
    ("002", "E8", "Adaptive lower bound", "", ""),
    ("002", "E9", "Distortion vs exact recovery", "", ""),
    ("002", "E10", "MovieLens 100k, semi-synthetic", "", ""),
)

#: E0: randomized response's empirical keep rate (10⁶ draws, about four standard errors) within ±0.002 of
#: e^ε/(1+e^ε); the exact likelihood ratio equals e^ε to 1e-12 (an identity, checked in the unit tests).
RR_KEEP_TOLERANCE: Final = 0.002
RR_RATIO_TOLERANCE: Final = 1e-12
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
#: E3: Pairwise-Preference, rich regime: U_90/(N ln N/ε̂²) and U_90(ε=0.25)/U_90(ε=1).
PP_CONSTANT_RANGE: Final = (10.0, 40.0)
PP_EPS_RATIO_RANGE: Final = (8.0, 25.0)
#: E5: MaxSense on M-sym (δ_min = 0) at U = 2·10⁶, ε = ∞: success at most 0.1.
SYMMETRIC_USERS: Final = 2e6
SYMMETRIC_MAX: Final = 0.1
#: E5: PP's exponent in N/w: non-private "agree_rated" in [1.5, 2.5]; at ε = 1 at least 2.8.
PP_EXPONENT_NONPRIVATE: Final = (1.5, 2.5)
PP_EXPONENT_PRIVATE_MIN: Final = 2.8
#: E6: Multi-MaxSense: gain ≥ 4 at ε = 32, none (ratio ≥ 0.9) at ε = 2; measured/predicted in [0.7, 1.4].
MULTI_GAIN_MIN: Final = 4.0
MULTI_NO_GAIN: Final = 0.9
MULTI_PREDICTION: Final = (0.7, 1.4)
#: E7: 1-bit schemes within ±15 % of the book's approximations (``note-rec-one-bit``) at N = 128;
#: adaptive/point query < 0.5 for N ≥ 64.
ONE_BIT_N: Final = 128
ONE_BIT_TOLERANCE: Final = 0.15
ONE_BIT_ADAPTIVE_MAX: Final = 0.5
#: E1, E2 and E8: exact-computation ranges.
GUESS_QUERY_RANGE: Final = (1.0, 1.1)
MI_DOUBLING_RANGE: Final = (0.45, 0.55)
MI_EPS_RATIO_RANGE: Final = (0.23, 0.27)
LB_SLOPES: Final = {"Thm 4.8": (1.9, 2.1), "Thm 4.10": (1.9, 2.1), "Thm 3.3": (0.99, 1.01)}
ADAPTIVE_GROWTH_RANGE: Final = (1.1, 1.6)


def _finite(values: Sequence[float]) -> bool:
    # min/max skip a nan that is not first, so a non-finite value must fail explicitly
    return len(values) > 0 and all(math.isfinite(v) for v in values)


def _range_check(label: str, value: float, bounds: tuple[float, float], name: str, fmt: str = ".4g") -> Check:
    """The check that ``value`` lies in ``bounds``, its claim naming the range."""
    lo, hi = bounds
    return Check(f"{label} in [{lo:g}, {hi:g}]", within(value, bounds), f"measured {value:{fmt}}", name)


def _budget_name(scheme: str) -> str:
    """A check name from a scheme's description: ``budget-multi-maxsense-q-8-bits-at-8``."""
    return "budget-" + re.sub(r"[^a-z0-9]+", "-", scheme.lower()).strip("-")


#: E4: the names of the slope checks, by variable.
_SLOPE_NAMES: Final = {"N": "slope-n", "w": "slope-w", "eps_hat": "slope-eps"}
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


def accounting_checks(budgets: Mapping[str, tuple[float, float]]) -> list[Check]:
    """The accounting: ``{scheme: (reported total ε, requested ε)}`` must agree (an identity, unit-tested).

    Each check is named ``budget-`` and its scheme, lower case, with hyphens (``budget-maxsense``).
    """
    return [Check(f"{name} is ε-LDP in total (composition)", math.isclose(total, eps, rel_tol=1e-12),
                  f"total {total:g} for ε = {eps:g}", _budget_name(name), "reference")
            for name, (total, eps) in budgets.items()]  # fmt: skip


def means_checks(fast: Sequence[float], subset: Sequence[float], closed: Sequence[float]) -> list[Check]:
    """E4: per-cluster mean scores ``B/U`` (cluster 0 liked more): simulators vs closed form.

    Named ``means-fast``, ``means-subset`` and ``means-gap``.
    """
    out = []
    simulators = (
        ("fast (Bernoulli)", "means-fast", fast, MEANS_TOLERANCE["fast"]),
        ("exact w-subset", "means-subset", subset, MEANS_TOLERANCE["subset"]),
    )
    for label, name, sim, tol in simulators:
        err = max(abs(s / c - 1) for s, c in zip(sim, closed, strict=True))
        out.append(Check(f"{label} simulator's cluster means within {tol:.1%} of the closed form",
                         _finite(list(sim)) and err <= tol,
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


def lemma47_checks(max_excess: float, error_at_one: float) -> list[Check]:
    """E2: ``max(|error| − w⁴/N²) ≤ 0`` over the grid (``lemma47-bound``), and the error is exactly 0 at
    ``w = 1`` (``lemma47-zero``)."""
    return [Check("Lemma 4.7: |C(N−w,w)/C(N,w) − (1 − w²/N)| ≤ w⁴/N² for w ≤ √N", max_excess <= 0.0,
                  f"largest |error| − w⁴/N² = {max_excess:.2e}", "lemma47-bound"),
            Check("Lemma 4.7: the error is exactly 0 at w = 1 (so Θ(w⁴/N²) is not uniform)",
                  error_at_one == 0.0, f"{error_at_one!r}", "lemma47-zero")]  # fmt: skip


def thm43_checks(
    max_excess: float, max_information_n: float, guess_ratios: Mapping[int, float]
) -> list[Check]:
    """E2: exact I ≤ bound (largest excess, ``thm43-bound``), ``max N·I ≤ 1`` (``thm43-one-over-n``),
    guess-vector ``I/(1/(2N))`` by N (``guess-<N>``)."""
    out: list[Check] = [
        Check("Thm 4.3: exact I(Z;S) ≤ |C₁|/(2N)(1/|A| + 1/(2N−|A|)) for every tested query",
              max_excess <= 1e-12, f"largest excess {max_excess:.1e} nats", "thm43-bound"),
        Check("Thm 4.3: every 1-bit sketch carries ≤ 1/N nats", max_information_n <= 1 + 1e-12,
              f"largest N·I = {max_information_n:.4f}", "thm43-one-over-n"),
    ]  # fmt: skip
    out += [_range_check(f"guess-vector query at N = {n}: I/(1/(2N))", r, GUESS_QUERY_RANGE, f"guess-{n}",
                         ".4f")
            for n, r in guess_ratios.items()]  # fmt: skip
    return out


def maxsense_information_checks(
    doubling: float, eps_ratio: float, max_over_thm410: float, max_over_eps: float
) -> list[Check]:
    """E2: I(2N)/I(N), I(ε=0.1)/I(ε=0.2), max I/(2ε'²w/N) for ε < ln 2, max I/ε (``sketch-doubling``,
    ``sketch-quadratic``, ``sketch-thm410``, ``sketch-lemma31``)."""
    return [
        _range_check("MaxSense sketch MI: I(2N)/I(N)", doubling, MI_DOUBLING_RANGE, "sketch-doubling"),
        _range_check("MaxSense sketch MI: I(ε=0.1)/I(ε=0.2) (quadratic in ε)", eps_ratio, MI_EPS_RATIO_RANGE,
                     "sketch-quadratic"),
        Check("MaxSense sketch MI ≤ 2ε'²w/N (Thm 4.10's term) for ε < ln 2", max_over_thm410 <= 1.0,
              f"largest ratio {max_over_thm410:.3f}", "sketch-thm410"),
        Check("MaxSense sketch MI ≤ ε (Lemma 3.1)", max_over_eps <= 1.0, f"largest ratio {max_over_eps:.3g}",
              "sketch-lemma31"),
    ]  # fmt: skip


def lower_bound_checks(slopes: Mapping[str, float]) -> list[Check]:
    """E1: log–log slopes of the explicit lower bounds against N over 10³–10⁵ at w = 2, named for the
    theorem (``slope-48``, ``slope-410``, ``slope-33``)."""
    return [
        _range_check(
            f"{name} lower bound: slope in N",
            slopes[name],
            bounds,
            f"slope-{name.removeprefix('Thm ').replace('.', '')}",
        )
        for name, bounds in LB_SLOPES.items()
    ]


def transition_checks(low: float, high: float, u90: float, predicted: float) -> list[Check]:
    """E4: success at 10⁵ and 1.2·10⁶ users (``below``, ``above``), and U_90 against the Gaussian
    prediction (``prediction``)."""
    c = MAXSENSE_TRANSITION
    factor = max(u90 / predicted, predicted / u90) if u90 > 0 else math.inf
    return [
        Check(f"MaxSense P_succ ≤ {c['low_max']} at U = 10⁵", low <= c["low_max"], f"{low:.2f}", "below"),
        Check(f"MaxSense P_succ ≥ {c['high_min']} at U = 1.2·10⁶", high >= c["high_min"], f"{high:.2f}",
              "above"),
        Check(f"MaxSense U_90 within a factor {c['prediction_factor']} of the Gaussian prediction",
              factor <= c["prediction_factor"], f"{u90:.3g} vs {predicted:.3g}", "prediction"),
    ]  # fmt: skip


def collapse_checks(constants: Mapping[str, float], slopes: Mapping[str, float]) -> list[Check]:
    """E4: ``U_90 w ε̂² δ²/(N² ln N)`` per configuration (``collapse``), and the fitted slopes in N, w
    and ε̂ (``slope-n``, ``slope-w``, ``slope-eps``)."""
    values = list(constants.values())
    worst = min(values), max(values)
    out = [Check(f"MaxSense U_90/(N² ln N/(w ε̂² δ²)) in [{COLLAPSE_RANGE[0]:g}, {COLLAPSE_RANGE[1]:g}] "
                 f"for all {len(constants)} configurations",
                 _finite(values) and COLLAPSE_RANGE[0] <= worst[0] and worst[1] <= COLLAPSE_RANGE[1],
                 f"range {worst[0]:.1f}–{worst[1]:.1f}", "collapse")]  # fmt: skip
    out += [_range_check(f"MaxSense slope of log U_90 in log {v}", slopes[v], MAXSENSE_SLOPES[v],
                         _SLOPE_NAMES[v], ".2f")
            for v in MAXSENSE_SLOPES]  # fmt: skip
    return out


def pairwise_rich_checks(constants: Mapping[int, float], eps_ratio: float) -> list[Check]:
    """E3: ``U_90 ε̂²/(N ln N)`` for each N (``constant-<N>``) and ``U_90(ε = 0.25)/U_90(ε = 1)``
    (``eps-ratio``)."""
    out = [
        _range_check(f"PP U_90/(N ln N/ε̂²) at N = {n}", c, PP_CONSTANT_RANGE, f"constant-{n}", ".1f")
        for n, c in constants.items()
    ]
    out.append(
        _range_check(
            "PP U_90(ε=0.25)/U_90(ε=1) (1/ε², not 1/ε)", eps_ratio, PP_EPS_RATIO_RANGE, "eps-ratio", ".1f"
        )
    )
    return out


def symmetric_checks(success: float) -> list[Check]:
    """E5: MaxSense fails on M-sym (``symmetric``)."""
    return [Check(f"MaxSense on M-sym (δ_min = 0): P_succ ≤ {SYMMETRIC_MAX} at U = 2·10⁶, ε = ∞",
                  success <= SYMMETRIC_MAX, f"{success:.2f}", "symmetric")]  # fmt: skip


def crossover_checks(pp_full: float, ms_full: float, pp_quarter: float, ms_quarter: float) -> list[Check]:
    """E5: U_90 of PP and MaxSense at w = N (``full-w``) and w = N/4 (``quarter-w``) (``nan`` = not
    reached within the cap)."""
    pp_full, ms_full, pp_q, ms_quarter = (math.inf if math.isnan(v) else v
                                          for v in (pp_full, ms_full, pp_quarter, ms_quarter))  # fmt: skip
    return [Check("w = N: PP needs fewer users than MaxSense", pp_full < ms_full,
                  f"{pp_full:.3g} vs {ms_full:.3g}", "full-w"),
            Check("w = N/4: MaxSense needs fewer than half PP's users", ms_quarter < pp_q / 2,
                  f"{ms_quarter:.3g} vs {pp_q:.3g}", "quarter-w")]  # fmt: skip


def pp_exponent_checks(nonprivate: float, private: Mapping[str, float]) -> list[Check]:
    """E5: slopes of log U_90 against log(N/w): non-private (``exponent-nonprivate``), and at ε = 1 by
    sketch (``exponent-private-rated`` for ``agree_rated``, ``exponent-private-agree`` for ``agree``)."""
    out = [
        _range_check("PP exponent in N/w, ε = ∞, sketch agree_rated", nonprivate, PP_EXPONENT_NONPRIVATE,
                     "exponent-nonprivate", ".2f")
    ]  # fmt: skip
    out += [Check(f"PP exponent in N/w at ε = 1, sketch {name}, ≥ {PP_EXPONENT_PRIVATE_MIN}",
                  slope >= PP_EXPONENT_PRIVATE_MIN, f"{slope:.2f}", _SKETCH_NAMES[name])
            for name, slope in private.items()]  # fmt: skip
    return out


def multi_checks(gain_32: float, ratio_2: float, prediction_ratios: Sequence[float]) -> list[Check]:
    """E6: ``U_90(Q=1)/U_90(Q=32)`` at ε = 32 (``gain-32``), ``U_90(Q=2)/U_90(Q=1)`` at ε = 2
    (``no-gain-2``), measured/predicted (``prediction``)."""
    lo, hi = min(prediction_ratios), max(prediction_ratios)
    return [
        Check(f"Multi-MaxSense at ε = 32: Q = 32 needs ≤ 1/{MULTI_GAIN_MIN:g} of MaxSense's users",
              gain_32 >= MULTI_GAIN_MIN, f"gain {gain_32:.1f}", "gain-32"),
        Check(f"Multi-MaxSense at ε = 2: Q = 2 gains nothing (ratio ≥ {MULTI_NO_GAIN})",
              ratio_2 >= MULTI_NO_GAIN, f"ratio {ratio_2:.2f}", "no-gain-2"),
        Check(f"Multi-MaxSense U_90 measured/predicted in [{MULTI_PREDICTION[0]}, {MULTI_PREDICTION[1]}]",
              _finite(list(prediction_ratios)) and MULTI_PREDICTION[0] <= lo and hi <= MULTI_PREDICTION[1],
              f"range {lo:.2f}–{hi:.2f}", "prediction"),
    ]  # fmt: skip


def one_bit_checks(relative: Mapping[str, float], adaptive_ratios: Mapping[int, float]) -> list[Check]:
    """E7: measured/approximate U_90 per scheme at N = 128 (``formula-<scheme>``, underscores as
    hyphens); adaptive/point-query U_90 for N ≥ 64 (``adaptive-<N>``)."""
    tol = ONE_BIT_TOLERANCE
    out = [Check(f"1-bit scheme {s}: U_90 within ±{tol:.0%} of the formula at N = {ONE_BIT_N}",
                 within(r - 1, (-tol, tol)), f"measured/formula {r:.3f}", f"formula-{s.replace('_', '-')}")
           for s, r in relative.items()]  # fmt: skip
    out += [Check(f"adaptive 1-bit needs < {ONE_BIT_ADAPTIVE_MAX} of the non-adaptive users at N = {n}",
                  r < ONE_BIT_ADAPTIVE_MAX, f"{r:.3f}", f"adaptive-{n}")
            for n, r in adaptive_ratios.items()]  # fmt: skip
    return out


def adaptive_checks(growth: Mapping[int, float]) -> list[Check]:
    """E8: ``T_LB(10N)/(10 T_LB(N))`` for N ≥ 10³ (a log factor), named ``growth-<N>``."""
    return [_range_check(f"Thm 6.1 recursion: T_LB(10N)/(10 T_LB(N)) at N = {n:.0e}", g,
                         ADAPTIVE_GROWTH_RANGE, f"growth-{n}")
            for n, g in growth.items()]  # fmt: skip
