"""Seed 004 (functional perturbation): the reproduction spec's headline outcomes H1–H20 (spec 004 §7).

The seed is a slide deck with no recoverable figure or number. The spec derived the checkable outcomes
from the slides' theorem and its own prototype ([X]) before this book was written; the spec calls its
tolerances suggestions, and they are used here as given. Each function returns ``(claim, passed, detail)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

import numpy as np

from dpnet.reference._check import Check

#: H1: γ(ε = 1, q, p) for (q, p) = (2, 1), (1.5, 0.75), (4, 2), rtol 1e-6.
GAMMA_VALUES: Final = {(2.0, 1.0): 1.282550, (1.5, 0.75): 1.616284, (4.0, 2.0): 1.040348}
GAMMA_RTOL: Final = 1e-6
#: H2: argmin_p ζ(2p)ζ(2(q − p)) = q/2 ± 1e-3.
OPTIMAL_P_TOLERANCE: Final = 1e-3
#: H3: Monte Carlo noise energy within 3 % of 2γ²Σ k^{−2p}.
ENERGY_TOLERANCE: Final = 0.03
#: H4: privacy-loss ratio ≤ 1 + 1e-12 for random Δ; the worst case reaches ≥ 0.999.
WORST_CASE_MIN: Final = 0.999
#: H5, H6: Gram error ≤ 1e-10; projection feasible within 1e-7 max|u|, non-expansive within 1e-6, VI ≤ 1e-8.
GRAM_TOLERANCE: Final = 1e-10
PROJECTION_TOLERANCES: Final = {"feasible": 1e-7, "expansion": 1e-6, "variational": 1e-8}
#: H8: truncation bias below 1e-8 (1-D quadratics) and 5e-4 (2-D logistic).
TRUNCATION_BIAS: Final = {"quadratic": 1e-8, "logistic": 5e-4}
#: H9–H13 (1-D quadratics, E3).
SPEARMAN_MAX: Final = -0.95
SLOPE_RANGE: Final = (-1.15, -0.6)
SLOPE_RANGE_Q4: Final = (-1.1, -0.9)
SLOPE_STEEPER_BY: Final = 0.15
LINEAR_RATIO_RANGE: Final = (0.85, 1.15)
LINEAR_RATIO_DENOISED: Final = 0.8
SATURATION_MIN: Final = 0.2
#: H14: 2-D case study, mean error at ε = 1 and error(1)/error(10).
CASE_ERROR_RANGE: Final = (0.01, 0.08)
CASE_RATIO_RANGE: Final = (5.0, 15.0)
#: H15: DGD consensus and optimum after 5000 iterations.
DGD_TOLERANCE: Final = 1e-3
#: H16: noise-free message perturbation floors.
HUANG_FLOOR_MIN: Final = 5e-3
HUANG_FLOOR_MAX: Final = 1e-3
#: H17: accountants.
ACCOUNTANT_RTOL: Final = 1e-6
CONVERGENT_GROWTH_MIN: Final = 50.0
#: H18: impossibility demo, log-ratio at K = 100.
LOG_RATIO_MIN: Final = 5.0
#: H19: the DP error-rate floor 1/(1 + e^ε) within 1e-3.
FLOOR_TOLERANCE: Final = 1e-3
#: H20: record sensitivity stable within 1 % between M = 14 and 18.
RECORD_STABILITY: Final = 0.01


def _range(label: str, value: float, bounds: tuple[float, float], fmt: str = ".4g") -> Check:
    ok = math.isfinite(value) and bounds[0] <= value <= bounds[1]
    return f"{label} in [{bounds[0]:g}, {bounds[1]:g}]", ok, f"measured {value:{fmt}}"


def _at_most(label: str, value: float, bound: float, fmt: str = ".3g", shown: str = "") -> Check:
    return (
        f"{label} ≤ {shown or format(bound, 'g')}",
        math.isfinite(value) and value <= bound,
        f"measured {value:{fmt}}",
    )


def _below(label: str, value: float, bound: float, fmt: str = ".3g") -> Check:
    """Strict: the spec writes ``<`` for H8, H11 (denoising), H16 and H20."""
    return f"{label} < {bound:g}", math.isfinite(value) and value < bound, f"measured {value:{fmt}}"


def _at_least(value: float, bound: float) -> bool:
    return math.isfinite(value) and value >= bound


def _flag(value: object) -> bool:
    # a flag must be a real boolean: bool(nan) would be True
    return isinstance(value, (bool, np.bool_)) and bool(value)


def calibration_checks(
    gammas: Mapping[tuple[float, float], float],
    optimal_p: Mapping[float, float],
    energy_error: float,
    energy_bound_ok: bool,
) -> list[Check]:
    """H1–H3: γ at ε = 1, the optimal p by q, the Monte Carlo energy's relative error, and the ζ(q)² bound."""
    out: list[Check] = []
    for (q, p), expected in GAMMA_VALUES.items():
        got = gammas[(q, p)]
        out.append(
            (
                f"H1 γ(1, {q:g}, {p:g}) = {expected} (rtol {GAMMA_RTOL:g})",
                math.isclose(got, expected, rel_tol=GAMMA_RTOL),
                f"{got:.7f}",
            )
        )
    for q, p in optimal_p.items():
        out.append(
            (
                f"H2 argmin_p ζ(2p)ζ(2(q−p)) = q/2 ± {OPTIMAL_P_TOLERANCE:g} at q = {q:g}",
                abs(p - q / 2) <= OPTIMAL_P_TOLERANCE,
                f"p* = {p:.5f}",
            )
        )
    out.append(_at_most("H3 Monte Carlo noise energy: relative error", energy_error, ENERGY_TOLERANCE))
    out.append(("H3 at p = q/2 the noise energy is ≤ 2ζ(q)²/ε²", _flag(energy_bound_ok), ""))
    return out


def dp_inequality_checks(max_random_ratio: float, worst_ratio: float) -> list[Check]:
    """H4: privacy loss / (ε‖Δ‖_{V_q}) over random Δ, and for the extremal Δ_k = k^{p−2q}."""
    return [
        _at_most(
            "H4 privacy loss over ε‖Δ‖_Vq, 1000 random Δ", max_random_ratio, 1 + 1e-12, ".12f", "1 + 1e-12"
        ),
        (
            f"H4 the extremal Δ_k = k^(p−2q) attains ≥ {WORST_CASE_MIN} of the bound",
            _at_least(worst_ratio, WORST_CASE_MIN),
            f"ratio {worst_ratio:.5f}",
        ),
    ]


def basis_checks(gram_1d: float, gram_2d: float, k_1d: int = 20, m_2d: int = 10) -> list[Check]:
    """H5: largest deviation from I of the Gram matrices (1-D, ``k_1d`` functions; 2-D, degree ``m_2d``)."""
    return [
        _at_most(f"H5 1-D Gram matrix (K = {k_1d}) minus identity", gram_1d, GRAM_TOLERANCE),
        _at_most(f"H5 2-D Gram matrix (M = {m_2d}) minus identity", gram_2d, GRAM_TOLERANCE),
    ]


def projection_checks(violation: float, unchanged: bool, expansion: float, variational: float) -> list[Check]:
    """H6: relative violation, feasible input untouched, expansion ratio, variational inequality."""
    t = PROJECTION_TOLERANCES
    return [
        _at_most(
            "H6 projected coefficients violate the grid constraints by (relative)", violation, t["feasible"]
        ),
        ("H6 a feasible input is returned unchanged", _flag(unchanged), ""),
        _at_most("H6 largest ‖P(a) − P(b)‖/‖a − b‖ − 1 over 50 pairs", expansion, t["expansion"]),
        _at_most("H6 (ĉ − Pĉ)ᵀ(y − Pĉ) for the feasible truth y", variational, t["variational"]),
    ]


def feasibility_checks(violations: Mapping[str, float]) -> list[Check]:
    """H7: the largest grid-constraint violation of each problem's truncated true functions (≤ 0)."""
    return [
        _at_most(f"H7 the truncated true functions of the {name} problem lie in S: largest violation", v, 0.0)
        for name, v in violations.items()
    ]


def truncation_checks(bias: Mapping[str, float]) -> list[Check]:
    """H8: ``|x*_K − x*|`` of the noise-free pipeline."""
    return [
        _below(f"H8 truncation bias |x*_K − x*|, {name}", b, TRUNCATION_BIAS[name])
        for name, b in bias.items()
    ]


def tradeoff_checks(
    spearman: Mapping[float, float],
    slopes: Mapping[float, float],
    bound_slope: float,
    linear_ratio: Mapping[tuple[float, float], float],
    error_at_10: Mapping[float, float],
    worst_over_diameter: float,
    error_at_smallest: float,
) -> list[Check]:
    """H9–H13 on the 1-D quadratics (E3)."""
    out: list[Check] = [
        _at_most(f"H9 Spearman ρ(ε, mean error) at q = {q:g}", r, SPEARMAN_MAX, ".3f")
        for q, r in spearman.items()
    ]
    for q, s in slopes.items():
        bounds = SLOPE_RANGE_Q4 if q == 4 else SLOPE_RANGE
        out.append(_range(f"H10 fitted slope over ε ∈ [10, 1000] at q = {q:g}", s, bounds, ".3f"))
        out.append(
            (
                f"H10 slope at q = {q:g} ≥ {SLOPE_STEEPER_BY} steeper than the bound's {bound_slope:.2f}",
                s <= bound_slope - SLOPE_STEEPER_BY,
                f"{s:.3f}",
            )
        )
    for (q, eps), r in linear_ratio.items():
        if eps >= 1000:
            out.append(
                _range(f"H11 RMS / linearised RMS at ε = {eps:g}, q = {q:g}", r, LINEAR_RATIO_RANGE, ".3f")
            )
        else:
            out.append(
                _below(
                    f"H11 RMS / linearised RMS at ε = {eps:g}, q = {q:g} (projection denoises)",
                    r,
                    LINEAR_RATIO_DENOISED,
                )
            )
    e = error_at_10
    out.append(
        (
            "H12 at ε = 10 the mean error orders q = 4 < q = 2 < q = 1.5",
            e[4.0] < e[2.0] < e[1.5],
            f"{e[4.0]:.3g} < {e[2.0]:.3g} < {e[1.5]:.3g}",
        )
    )
    out.append(_at_most("H13 largest mean error / diam(X)", worst_over_diameter, 1.0))
    out.append(
        (
            f"H13 mean error at ε = 0.1 ≥ {SATURATION_MIN}",
            _at_least(error_at_smallest, SATURATION_MIN),
            f"{error_at_smallest:.3g}",
        )
    )
    return out


def case_study_checks(error_1: float, error_10: float) -> list[Check]:
    """H14: the 2-D logistic case study."""
    return [
        _range("H14 mean error at ε = 1", error_1, CASE_ERROR_RANGE),
        _range(
            "H14 error(ε = 1)/error(ε = 10)",
            error_1 / error_10 if error_10 > 0 or math.isnan(error_10) else math.inf,
            CASE_RATIO_RANGE,
        ),
    ]


def dgd_checks(consensus: float, optimum_gap: float) -> list[Check]:
    """H15: ``max_i |x_i − x̃*|`` and ``||x̄ − x*| − |x̃* − x*||`` after the iterations."""
    return [
        _at_most("H15 DGD on the private functions: max_i |x_i − x̃*|", consensus, DGD_TOLERANCE),
        _at_most("H15 | |x̄ − x*| − |x̃* − x*| |", optimum_gap, DGD_TOLERANCE),
    ]


def huang_floor_checks(floor_short: float, floor_long: float) -> list[Check]:
    """H16: noise-free final errors with (c, ρ_s) = (0.1, 0.9) and (0.1, 0.99)."""
    return [
        (
            f"H16 noise-free floor with Σ s_k = 1 is ≥ {HUANG_FLOOR_MIN:g}",
            _at_least(floor_short, HUANG_FLOOR_MIN),
            f"{floor_short:.3g}",
        ),
        _below("H16 noise-free floor with Σ s_k = 10", floor_long, HUANG_FLOOR_MAX),
    ]


def accountant_checks(geometric_over_eps: float, convergent_growth: float) -> list[Check]:
    """H17: the geometric accountant's L_K/ε at K = 5000, and L_{10⁴}/L_{10²} of the convergent schedule."""
    return [
        (
            f"H17 geometric schedule: L_K → ε (rtol {ACCOUNTANT_RTOL:g})",
            abs(geometric_over_eps - 1) <= ACCOUNTANT_RTOL,
            f"L_K/ε = {geometric_over_eps:.9f}",
        ),
        (
            f"H17 convergent schedule: L_10⁴/L_10² ≥ {CONVERGENT_GROWTH_MIN:g}",
            _at_least(convergent_growth, CONVERGENT_GROWTH_MIN),
            f"{convergent_growth:.1f}",
        ),
    ]


def impossibility_checks(log_ratio_10: float, log_ratio_100: float) -> list[Check]:
    """H18: the empirical log-ratio of the adjacent inputs' message probabilities."""
    return [
        (
            f"H18 log-ratio at K = 100 ≥ {LOG_RATIO_MIN:g} and above its value at K = 10",
            _at_least(log_ratio_100, LOG_RATIO_MIN) and log_ratio_100 > log_ratio_10,
            f"{log_ratio_10:.2f} at K = 10, {log_ratio_100:.2f} at K = 100",
        )
    ]


def floor_checks(floors: Mapping[float, float]) -> list[Check]:
    """H19: ``min max(p_FA, p_MD)`` over the ε-DP region against ``1/(1 + e^ε)``."""
    exact = {eps: math.exp(-eps) / (1 + math.exp(-eps)) for eps in floors}  # 1/(1 + e^ε), no overflow
    return [
        (
            f"H19 error-rate floor at ε = {eps:g} equals 1/(1+e^ε) within {FLOOR_TOLERANCE:g}",
            abs(f - exact[eps]) <= FLOOR_TOLERANCE,
            f"{f:.5f} vs {exact[eps]:.5f}",
        )
        for eps, f in floors.items()
    ]


def record_checks(relative_change: float) -> list[Check]:
    """H20: relative change of the record-level V_q sensitivity between M = 14 and M = 18."""
    return [
        _below(
            "H20 record-level V_q sensitivity: relative change from M = 14 to 18",
            relative_change,
            RECORD_STABILITY,
        )
    ]
