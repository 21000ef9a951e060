"""Chapter 7's checks (:mod:`dpnet.reference.recommender`) pass on the pilot's numbers and fail off them.

The book fixed each range of the chapter from a pilot computation made before this implementation
(``note-rec-tolerances``). Every public check function gets the same treatment: the pilot's values pass
every claim; each claim's input moved just outside its range fails that claim and no other, and moved just
inside it passes; ``nan`` (a ``U_90`` not reached, a failed fit) fails the claim it feeds instead of
crashing or passing. The expected numbers and ranges are written out here, not read from the module.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from check_cases import case as _case
from check_cases import claims as _claims
from check_cases import failing as _failing
from check_cases import well_formed as _well_formed
from check_cases import with_input as _set

from dpnet import reference as ref
from dpnet.reference import recommender

NAN = math.nan


def _keep(eps):
    """Randomized response's keep probability e^ε/(1+e^ε)."""
    return math.exp(eps) / (1 + math.exp(eps))


def _eps_hat(eps):
    return 2 * math.tanh(eps / 2)


def _slope(x, y):
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


# MaxSense's closed-form means (note-rec-maxsense-means) at E4's test case (N = 200, w = 10, b = (0.8, 0.2),
# ε = 1, θ = 1, K = 1)
def _closed_means():
    n, w, b, eps, theta = 200, 10, (0.8, 0.2), 1.0, 1.0
    p, rho, f = theta / w, w / n, 1 / (1 + math.exp(eps))
    q = math.prod((1 - p * rho * bl) ** (n // 2) for bl in b)
    return [p * (f + _eps_hat(eps) / 2 * (1 - q * (1 - rho * bl) / (1 - p * rho * bl))) for bl in b]


CLOSED = _closed_means()


def _subset(scale, gap):
    """Exact-simulator cluster means: both scaled by ``scale``, the gap ``gap`` times the closed form's."""
    c0, c1 = CLOSED
    shift = (gap - scale) * (c0 - c1) / 2
    return [c0 * scale + shift, c1 * scale - shift]


# E0: ε ∈ {0.1, 1, 3}, 10⁶ draws (one standard error ≈ 5·10⁻⁴), ε = ∞ never flips
RR_EPS = (0.1, 1.0, 3.0)
RR = {
    "keep_rates": {e: _keep(e) + 3e-4 for e in RR_EPS},
    "ratios": {e: math.exp(e) for e in RR_EPS},
    "inf_flips": 0,
}
# the accounting: one bit at ε; Multi-MaxSense Q = 10 bits at ε/10, summed as floats
MULTI_NAME = "Multi-MaxSense, Q = 10 bits at ε/10"
ACCOUNTING = {
    "budgets": {"Pairwise-Preference": (1.0, 1.0), "MaxSense": (1.0, 1.0), MULTI_NAME: (sum([0.1] * 10), 1.0)}
}
# E4, pilot: the fast simulator matches the closed form to 4 digits; the exact one is within 0.7 %, its gap
# within about 6 %
MEANS = {"fast": [c * 1.0001 for c in CLOSED], "subset": _subset(1.004, 0.94), "closed": CLOSED}
# δ_min(M-asym) = 0.8 e^{−1/2}
DELTA = {"asym": 0.8 * math.exp(-0.5), "sym": 0.0}
# E2, Lemma 4.7: the error stays below w⁴/N² (tightest at w = 1, by w⁴/N² = 10⁻⁸ at N = 10⁴), and is 0 there
LEMMA47 = {"max_excess": -1e-8, "error_at_one": 0.0}
# E2, pilot: guess-vector ratios 1.082, 1.070, 1.061 at N = 8, 9, 10, so N·I ≈ 0.54
THM43 = {"max_excess": -1e-3, "max_information_n": 0.541, "guess_ratios": {8: 1.082, 9: 1.070, 10: 1.061}}
# E2, pilot: doubling 0.499, ε ratio 0.251, a ≥ 10× margin below Thm 4.10's term, I ≪ ε
MI = {"doubling": 0.499, "eps_ratio": 0.251, "max_over_thm410": 1 / 18, "max_over_eps": 1.1e-3}
# E1: slopes ≈ 2, 2 and N/(N − 2) ≈ 1 of (N/2 − 1) ln 2/ε
LB = {"slopes": {"Thm 4.8": 2.0, "Thm 4.10": 1.98, "Thm 3.3": 1.0004}}
# E4, pilot: U_90 4.4·10⁵ measured vs 4.0·10⁵ predicted
TRANSITION = {"low": 0.0, "high": 1.0, "u90": 4.4e5, "predicted": 4.0e5}
# E4, pilot: the constant C per (N, w, ε), and the slopes fitted to the pilot's U_90 table
PILOT_C = {(50, 10, 1): 16.0, (100, 10, 1): 19.0, (200, 10, 1): 15.4,
           (100, 5, 1): 19.0, (100, 20, 1): 13.5,
           (100, 10, 0.5): 20.8, (100, 10, 2): 18.0, (100, 10, 4): 14.7,
           (100, 10, math.inf): 15.1}  # fmt: skip
PILOT_SLOPES = {
    "N": _slope([50, 100, 200], [7.8e4, 4.4e5, 1.6e6]),
    "w": _slope([5, 10, 20], [8.7e5, 4.4e5, 1.5e5]),
    "eps_hat": _slope([_eps_hat(0.5), _eps_hat(1.0), _eps_hat(2.0)], [1.7e6, 4.4e5, 1.5e5]),
}
CONSTANTS = {f"N={n}, w={w}, ε={e:g}": c for (n, w, e), c in PILOT_C.items()}
FIRST, LAST = next(iter(CONSTANTS)), list(CONSTANTS)[-1]
COLLAPSE = {"constants": CONSTANTS, "slopes": PILOT_SLOPES}
# E3, pilot: C = 22.6, 22.6, 21.4 at N = 50, 100, 200; C = 26.9 at ε = 0.25 and 22.6 at ε = 1
PP_RATIO = 26.9 / 22.6 * (_eps_hat(1.0) / _eps_hat(0.25)) ** 2
PAIRWISE = {"constants": {50: 22.6, 100: 22.6, 200: 21.4}, "eps_ratio": PP_RATIO}
# E5: P_succ ≈ 0 on M-sym
SYMMETRIC = {"success": 0.0}
# E5, pilot: 1.35·10⁴ vs 4.4·10⁴ at w = N; 1.5·10⁵ vs 4.7·10⁵ at w = N/4
CROSSOVER = {"pp_full": 1.35e4, "ms_full": 4.4e4, "pp_quarter": 4.7e5, "ms_quarter": 1.5e5}
# E5, pilot: 1.99 non-private agree_rated; 3.6 and 4.2 at ε = 1
PP_EXPONENT = {"nonprivate": 1.99, "private": {"agree_rated": 3.6, "agree": 4.2}}
# E6, pilot: U_90 2.74·10⁴ (Q = 1) vs 3.4·10³ (Q = 32) at ε = 32; 6.4·10⁴ (Q = 2) vs 5.3·10⁴ at ε = 2;
# prediction within ±25 %
MULTI = {
    "gain_32": 2.74e4 / 3.4e3,
    "ratio_2": 6.4e4 / 5.3e4,
    "prediction_ratios": [0.82, 0.95, 1.04, 1.12, 1.2],
}
# E7: measured ≈ formula; adaptive/point query from the book's approximations 2N² + 2.6 N^1.5 and
# 2N²(ln N + 2.25) (note-rec-one-bit)
ADAPTIVE_RATIO = {n: (2 * n**2 + 2.6 * n**1.5) / (2 * n**2 * (math.log(n) + 2.25)) for n in (64, 128, 256)}
ONE_BIT = {"relative": {"unconstrained": 1.02, "average_bit": 0.97, "point_query": 1.05, "adaptive": 0.99},
           "adaptive_ratios": ADAPTIVE_RATIO}  # fmt: skip
# E8: T_LB C/N ≈ 1 + ln(N ln 2/2)
GROWTH = {"growth": {n: (1 + math.log(5 * n * math.log(2))) / (1 + math.log(n * math.log(2) / 2))
                     for n in (1000, 10_000, 100_000)}}  # fmt: skip

BASES = [
    pytest.param(ref.rr_checks, RR, 7, id="rr"),
    pytest.param(ref.accounting_checks, ACCOUNTING, 3, id="accounting"),
    pytest.param(ref.means_checks, MEANS, 3, id="means"),
    pytest.param(ref.delta_checks, DELTA, 2, id="delta"),
    pytest.param(ref.lemma47_checks, LEMMA47, 2, id="lemma47"),
    pytest.param(ref.thm43_checks, THM43, 5, id="thm43"),
    pytest.param(ref.maxsense_information_checks, MI, 4, id="maxsense_information"),
    pytest.param(ref.lower_bound_checks, LB, 3, id="lower_bound"),
    pytest.param(ref.transition_checks, TRANSITION, 3, id="transition"),
    pytest.param(ref.collapse_checks, COLLAPSE, 4, id="collapse"),
    pytest.param(ref.pairwise_rich_checks, PAIRWISE, 4, id="pairwise_rich"),
    pytest.param(ref.symmetric_checks, SYMMETRIC, 1, id="symmetric"),
    pytest.param(ref.crossover_checks, CROSSOVER, 2, id="crossover"),
    pytest.param(ref.pp_exponent_checks, PP_EXPONENT, 3, id="pp_exponent"),
    pytest.param(ref.multi_checks, MULTI, 3, id="multi"),
    pytest.param(ref.one_bit_checks, ONE_BIT, 7, id="one_bit"),
    pytest.param(ref.adaptive_checks, GROWTH, 3, id="adaptive"),
]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_pilot_numbers(fn, base, count):
    checks = _well_formed(fn(**base))
    assert len(checks) == count
    assert _failing(checks) == []
    assert len(set(_claims(checks))) == count, "two claims share a text"


def test_every_public_check_function_is_covered():
    tested = {p.values[0].__name__ for p in BASES}
    public = {name for name in vars(recommender) if name.endswith("_checks") and not name.startswith("_")}
    assert public == tested


K1, K3, E3, C0, C1 = _keep(1.0), _keep(0.1), math.exp(3.0), *CLOSED
# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # E0
    _case(ref.rr_checks, RR, ("keep_rates", 1.0), K1 + 0.0019, K1 + 0.0021, 1, f"{K1 + 0.0021:.5f}"),
    _case(ref.rr_checks, RR, ("keep_rates", 0.1), K3 - 0.0019, K3 - 0.0021, 0, f"{K3 - 0.0021:.5f}"),
    _case(ref.rr_checks, RR, ("ratios", 3.0), E3 * (1 + 5e-13), E3 * (1 + 2e-12), 5, "2.0e-12"),
    _case(ref.rr_checks, RR, "inf_flips", 0, 1, 6, "1 flips"),
    # the accounting
    _case(ref.accounting_checks, ACCOUNTING, ("budgets", MULTI_NAME), (1 + 5e-13, 1.0), (1 + 2e-12, 1.0), 2,
          "total 1 for ε = 1"),
    _case(ref.accounting_checks, ACCOUNTING, ("budgets", MULTI_NAME), (1.0, 1.0), (10.0, 1.0), 2,
          "total 10 for ε = 1"),
    # E4, means
    _case(ref.means_checks, MEANS, "fast", [C0, C1 * 1.0049], [C0, C1 * 1.0051], 0, "0.51%"),
    _case(ref.means_checks, MEANS, "subset", _subset(1.0199, 1.0199), _subset(1.0201, 1.0201), 1, "2.01%"),
    _case(ref.means_checks, MEANS, "subset", _subset(1.0, 0.851), _subset(1.0, 0.849), 2, "gap ratio 0.849"),
    _case(ref.means_checks, MEANS, "subset", _subset(1.0, 1.149), _subset(1.0, 1.151), 2, "gap ratio 1.151"),
    # δ_min
    _case(ref.delta_checks, DELTA, "asym", 0.48529, 0.48531, 0, "0.48531"),
    _case(ref.delta_checks, DELTA, "asym", 0.48511, 0.48509, 0, "0.48509"),
    _case(ref.delta_checks, DELTA, "sym", -0.0, 1e-12, 1, "1e-12"),
    # E2, Lemma 4.7
    _case(ref.lemma47_checks, LEMMA47, "max_excess", 0.0, 1e-15, 0, "1.00e-15"),
    _case(ref.lemma47_checks, LEMMA47, "error_at_one", 0.0, 2e-17, 1, "2e-17"),
    # E2, Thm 4.3
    _case(ref.thm43_checks, THM43, "max_excess", 1e-12, 2e-12, 0, "2.0e-12"),
    _case(ref.thm43_checks, THM43, "max_information_n", 1.0, 1.0001, 1, "1.0001"),
    _case(ref.thm43_checks, THM43, ("guess_ratios", 9), 1.099, 1.101, 3, "measured 1.1010"),
    _case(ref.thm43_checks, THM43, ("guess_ratios", 8), 1.0, 0.999, 2, "measured 0.9990"),
    _case(ref.thm43_checks, THM43, ("guess_ratios", 10), 1.1, 1.1001, 4, "measured 1.1001"),
    # E2, MaxSense's sketch
    _case(ref.maxsense_information_checks, MI, "doubling", 0.451, 0.449, 0, "measured 0.449"),
    _case(ref.maxsense_information_checks, MI, "doubling", 0.549, 0.551, 0, "measured 0.551"),
    _case(ref.maxsense_information_checks, MI, "eps_ratio", 0.231, 0.229, 1, "measured 0.229"),
    _case(ref.maxsense_information_checks, MI, "eps_ratio", 0.269, 0.271, 1, "measured 0.271"),
    _case(ref.maxsense_information_checks, MI, "max_over_thm410", 1.0, 1.001, 2, "ratio 1.001"),
    _case(ref.maxsense_information_checks, MI, "max_over_eps", 1.0, 1.01, 3, "ratio 1.01"),
    # E1
    _case(ref.lower_bound_checks, LB, ("slopes", "Thm 4.8"), 2.099, 2.11, 0, "measured 2.11"),
    _case(ref.lower_bound_checks, LB, ("slopes", "Thm 4.10"), 1.901, 1.899, 1, "measured 1.899"),
    _case(ref.lower_bound_checks, LB, ("slopes", "Thm 3.3"), 1.0099, 1.0101, 2, "measured 1.01"),
    _case(ref.lower_bound_checks, LB, ("slopes", "Thm 3.3"), 0.9901, 0.9899, 2, "measured 0.9899"),
    # E4, transition
    _case(ref.transition_checks, TRANSITION, "low", 0.2, 0.25, 0, "0.25"),
    _case(ref.transition_checks, TRANSITION, "high", 0.9, 0.85, 1, "0.85"),
    _case(ref.transition_checks, TRANSITION, "u90", 5.6e5, 5.61e5, 2, "5.61e+05 vs 4e+05"),  # 1.4 exactly
    _case(ref.transition_checks, TRANSITION, "u90", 2.86e5, 2.85e5, 2, "2.85e+05 vs 4e+05"),
    # E4, collapse
    _case(ref.collapse_checks, COLLAPSE, ("constants", LAST), 32.0, 32.1, 0, "range 13.5–32.1"),
    _case(ref.collapse_checks, COLLAPSE, ("constants", FIRST), 8.0, 7.9, 0, "range 7.9–20.8"),
    _case(ref.collapse_checks, COLLAPSE, ("slopes", "N"), 2.6, 2.61, 1, "measured 2.61"),
    _case(ref.collapse_checks, COLLAPSE, ("slopes", "N"), 1.8, 1.79, 1, "measured 1.79"),
    _case(ref.collapse_checks, COLLAPSE, ("slopes", "w"), -0.7, -0.69, 2, "measured -0.69"),
    _case(ref.collapse_checks, COLLAPSE, ("slopes", "w"), -1.5, -1.51, 2, "measured -1.51"),
    _case(ref.collapse_checks, COLLAPSE, ("slopes", "eps_hat"), -1.5, -1.49, 3, "measured -1.49"),
    _case(ref.collapse_checks, COLLAPSE, ("slopes", "eps_hat"), -2.5, -2.51, 3, "measured -2.51"),
    # E3
    _case(ref.pairwise_rich_checks, PAIRWISE, ("constants", 100), 40.0, 40.1, 1, "measured 40.1"),
    _case(ref.pairwise_rich_checks, PAIRWISE, ("constants", 50), 10.0, 9.9, 0, "measured 9.9"),
    _case(ref.pairwise_rich_checks, PAIRWISE, "eps_ratio", 25.0, 25.1, 3, "measured 25.1"),
    _case(ref.pairwise_rich_checks, PAIRWISE, "eps_ratio", 8.0, 7.9, 3, "measured 7.9"),
    # E5, M-sym
    _case(ref.symmetric_checks, SYMMETRIC, "success", 0.1, 0.15, 0, "0.15"),
    # E5, crossover
    _case(ref.crossover_checks, CROSSOVER, "pp_full", 4.39e4, 4.4e4, 0, "4.4e+04 vs 4.4e+04"),
    _case(ref.crossover_checks, CROSSOVER, "ms_quarter", 2.349e5, 2.35e5, 1, "2.35e+05 vs 4.7e+05"),
    # E5, exponent
    _case(ref.pp_exponent_checks, PP_EXPONENT, "nonprivate", 2.5, 2.51, 0, "measured 2.51"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, "nonprivate", 1.5, 1.49, 0, "measured 1.49"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, ("private", "agree_rated"), 2.8, 2.79, 1, "2.79"),
    _case(ref.pp_exponent_checks, PP_EXPONENT, ("private", "agree"), 2.8, 2.79, 2, "2.79"),
    # E6
    _case(ref.multi_checks, MULTI, "gain_32", 4.0, 3.94, 0, "gain 3.9"),
    _case(ref.multi_checks, MULTI, "ratio_2", 0.9, 0.89, 1, "ratio 0.89"),
    _case(ref.multi_checks, MULTI, "prediction_ratios", [0.7, 1.0], [0.69, 1.0], 2, "range 0.69–1.00"),
    _case(ref.multi_checks, MULTI, "prediction_ratios", [1.0, 1.4], [1.0, 1.41], 2, "range 1.00–1.41"),
    # E7
    _case(ref.one_bit_checks, ONE_BIT, ("relative", "point_query"), 1.149, 1.151, 2, "formula 1.151"),
    _case(ref.one_bit_checks, ONE_BIT, ("relative", "average_bit"), 0.851, 0.849, 1, "formula 0.849"),
    _case(ref.one_bit_checks, ONE_BIT, ("adaptive_ratios", 128), 0.499, 0.5, 5, "0.500"),
    # E8
    _case(ref.adaptive_checks, GROWTH, ("growth", 10_000), 1.6, 1.61, 1, "measured 1.61"),
    _case(ref.adaptive_checks, GROWTH, ("growth", 100_000), 1.1, 1.09, 2, "measured 1.09"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    expected = _claims(fn(**base))
    just_in = _well_formed(fn(**inside))
    assert _failing(just_in) == []
    assert _claims(just_in) == expected
    just_out = _well_formed(fn(**outside))
    assert _claims(just_out) == expected, "moving a value must not change which claims are made"
    assert _failing(just_out) == [index]
    assert shown in just_out[index][2], just_out[index][2]


def _nan(fn, base, key, failing, id, value=NAN):
    return pytest.param(fn, _set(base, key, value), base, failing, id=id)


# (function, base, the input set to nan, the claims that must fail)
NANS = [
    _nan(ref.rr_checks, RR, ("keep_rates", 1.0), [1], "rr-keep"),
    _nan(ref.rr_checks, RR, ("ratios", 0.1), [3], "rr-ratio"),
    _nan(ref.accounting_checks, ACCOUNTING, ("budgets", "MaxSense"), [1], "accounting", (NAN, 1.0)),
    _nan(ref.means_checks, MEANS, "fast", [0], "means-fast-first", [NAN, CLOSED[1]]),
    _nan(ref.means_checks, MEANS, "subset", [1, 2], "means-subset-first", [NAN, CLOSED[1]]),
    _nan(ref.delta_checks, DELTA, "asym", [0], "delta-asym"),
    _nan(ref.delta_checks, DELTA, "sym", [1], "delta-sym"),
    _nan(ref.lemma47_checks, LEMMA47, "max_excess", [0], "lemma47-excess"),
    _nan(ref.lemma47_checks, LEMMA47, "error_at_one", [1], "lemma47-w1"),
    _nan(ref.thm43_checks, THM43, "max_excess", [0], "thm43-excess"),
    _nan(ref.thm43_checks, THM43, "max_information_n", [1], "thm43-one-over-n"),
    _nan(ref.thm43_checks, THM43, ("guess_ratios", 9), [3], "thm43-guess"),
    _nan(ref.maxsense_information_checks, MI, "doubling", [0], "mi-doubling"),
    _nan(ref.maxsense_information_checks, MI, "eps_ratio", [1], "mi-eps"),
    _nan(ref.maxsense_information_checks, MI, "max_over_thm410", [2], "mi-thm410"),
    _nan(ref.maxsense_information_checks, MI, "max_over_eps", [3], "mi-lemma31"),
    _nan(ref.lower_bound_checks, LB, ("slopes", "Thm 4.10"), [1], "lb"),
    _nan(ref.transition_checks, TRANSITION, "low", [0], "transition-low"),
    _nan(ref.transition_checks, TRANSITION, "high", [1], "transition-high"),
    _nan(ref.transition_checks, TRANSITION, "u90", [2], "transition-u90"),
    _nan(ref.transition_checks, TRANSITION, "predicted", [2], "transition-predicted"),
    _nan(ref.collapse_checks, COLLAPSE, ("constants", FIRST), [0], "collapse-constant-first"),
    _nan(ref.collapse_checks, COLLAPSE, ("slopes", "w"), [2], "collapse-slope"),
    _nan(ref.pairwise_rich_checks, PAIRWISE, ("constants", 200), [2], "pairwise-const"),
    _nan(ref.pairwise_rich_checks, PAIRWISE, "eps_ratio", [3], "pairwise-ratio"),
    _nan(ref.symmetric_checks, SYMMETRIC, "success", [0], "symmetric"),
    _nan(ref.crossover_checks, CROSSOVER, "pp_full", [0], "crossover-pp-full"),
    _nan(ref.crossover_checks, CROSSOVER, "ms_quarter", [1], "crossover-ms-quarter"),
    _nan(ref.pp_exponent_checks, PP_EXPONENT, "nonprivate", [0], "exponent-nonprivate"),
    _nan(ref.pp_exponent_checks, PP_EXPONENT, ("private", "agree"), [2], "exponent-private"),
    _nan(ref.multi_checks, MULTI, "gain_32", [0], "multi-gain"),
    _nan(ref.multi_checks, MULTI, "ratio_2", [1], "multi-no-gain"),
    _nan(ref.multi_checks, MULTI, "prediction_ratios", [2], "multi-prediction-first", [NAN, 1.0]),
    _nan(ref.one_bit_checks, ONE_BIT, ("relative", "adaptive"), [3], "one-bit-relative"),
    _nan(ref.one_bit_checks, ONE_BIT, ("adaptive_ratios", 256), [6], "one-bit-adaptive"),
    _nan(ref.adaptive_checks, GROWTH, ("growth", 1000), [0], "adaptive"),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing):
    checks = _well_formed(fn(**changed))
    assert _claims(checks) == _claims(fn(**base))
    assert _failing(checks) == failing
    for i in failing:  # crossover_checks reads nan as "not reached within the cap", shown as inf
        shown = "inf" if fn is ref.crossover_checks else "nan"
        assert shown in checks[i][2].lower(), checks[i][2]


@pytest.mark.parametrize(
    ("fn", "base", "change", "index"),
    [
        pytest.param(ref.thm43_checks, THM43, {"guess_ratios": {8: math.inf}}, 2, id="thm43-guess"),
        pytest.param(
            ref.lower_bound_checks, LB, {"slopes": {**LB["slopes"], "Thm 4.8": math.inf}}, 0, id="lb"
        ),
        pytest.param(
            ref.collapse_checks, COLLAPSE, {"constants": {**CONSTANTS, LAST: math.inf}}, 0, id="collapse"
        ),
        pytest.param(ref.pairwise_rich_checks, PAIRWISE, {"eps_ratio": math.inf}, 3, id="pairwise"),
        pytest.param(ref.adaptive_checks, GROWTH, {"growth": {1000: -math.inf}}, 0, id="adaptive"),
    ],
)
def test_infinite_values_fail_range_checks(fn, base, change, index):
    checks = _well_formed(fn(**{**base, **change}))
    assert _failing(checks) == [index]
    assert "inf" in checks[index][2]


def test_crossover_treats_a_nan_pp_u90_at_a_quarter_as_not_reached():
    checks = _well_formed(ref.crossover_checks(**{**CROSSOVER, "pp_quarter": NAN}))
    assert _failing(checks) == []
    assert "1.5e+05 vs inf" in checks[1][2]
    # "not reached" is no excuse for MaxSense: it still has to reach 90 % itself
    assert _failing(ref.crossover_checks(**{**CROSSOVER, "pp_quarter": NAN, "ms_quarter": NAN})) == [1]
    # at w = N, a PP that never reaches 90 % cannot need fewer users than MaxSense
    assert _failing(ref.crossover_checks(**{**CROSSOVER, "pp_full": NAN, "ms_full": NAN})) == [0]


def test_transition_with_u90_nan_or_zero_fails_the_prediction_claim():
    for u90 in (NAN, 0.0):
        checks = _well_formed(ref.transition_checks(**{**TRANSITION, "u90": u90}))
        assert _failing(checks) == [2]
        assert f"{u90:.3g} vs 4e+05" in checks[2][2]
    checks = ref.transition_checks(**TRANSITION)
    assert "4.4e+05 vs 4e+05" in checks[2][2]
    assert "factor 1.4" in checks[2][0]


def test_the_checks_discriminate_the_laws_the_chapter_contrasts():
    # E3: U_90(ε=0.25)/U_90(ε=1) under a 1/ε law (Informal Thm 2) fails, under 1/ε̂² passes
    linear, quadratic = _eps_hat(1.0) / _eps_hat(0.25), (_eps_hat(1.0) / _eps_hat(0.25)) ** 2
    assert _failing(ref.pairwise_rich_checks({}, linear)) == [0]
    assert _failing(ref.pairwise_rich_checks({}, quadratic)) == []
    # E2: MI linear in ε (ratio 1/2) fails the quadratic-ε claim
    assert _failing(ref.maxsense_information_checks(**{**MI, "eps_ratio": 0.5})) == [1]
    # E8: linear growth of T_LB (no log factor) fails; the recursion's 1 + ln(N ln 2/2) passes
    assert _failing(ref.adaptive_checks({1000: 1.0})) == [0]
    # E4: Thm 4.8's 1/w² in w fails MaxSense's w exponent
    assert _failing(ref.collapse_checks(CONSTANTS, {**PILOT_SLOPES, "w": -2.0})) == [2]
    # the accounting: reporting ε/Q (one bit's share) instead of the composed ε fails
    assert _failing(ref.accounting_checks({MULTI_NAME: (0.1, 1.0)})) == [0]


def test_claims_and_details_carry_the_ranges_and_the_measurements():
    rr = ref.rr_checks(**RR)
    assert [c for c, _, _ in rr[:3]] == [
        f"RR keep rate at ε = {e:g} within ±0.002 of e^ε/(1+e^ε)" for e in RR_EPS
    ]
    assert f"{_keep(3.0):.5f}" in rr[2][2]
    assert "0 flips" in rr[6][2]
    thm43 = ref.thm43_checks(**THM43)
    assert [d for _, _, d in thm43[2:]] == ["measured 1.0820", "measured 1.0700", "measured 1.0610"]
    assert "in [1, 1.1]" in thm43[2][0] and "N = 8" in thm43[2][0]
    mi = ref.maxsense_information_checks(**MI)
    assert [d for _, _, d in mi[:2]] == ["measured 0.499", "measured 0.251"]
    assert "0.056" in mi[2][2]
    collapse = ref.collapse_checks(**COLLAPSE)
    assert "[8, 32]" in collapse[0][0] and "all 9 configurations" in collapse[0][0]
    assert collapse[0][2] == "range 13.5–20.8"
    assert [d for _, _, d in collapse[1:]] == [
        f"measured {PILOT_SLOPES[v]:.2f}" for v in ("N", "w", "eps_hat")
    ]
    pairwise = ref.pairwise_rich_checks(**PAIRWISE)
    assert [d for _, _, d in pairwise] == ["measured 22.6", "measured 22.6", "measured 21.4", "measured 16.4"]
    cross = ref.crossover_checks(**CROSSOVER)
    assert [d for _, _, d in cross] == ["1.35e+04 vs 4.4e+04", "1.5e+05 vs 4.7e+05"]
    multi = ref.multi_checks(**MULTI)
    assert [d for _, _, d in multi] == ["gain 8.1", "ratio 1.21", "range 0.82–1.20"]
    one_bit = ref.one_bit_checks(**ONE_BIT)
    assert "N = 128" in one_bit[0][0] and "±15%" in one_bit[0][0]
    assert [d for _, _, d in one_bit[4:]] == [f"{ADAPTIVE_RATIO[n]:.3f}" for n in (64, 128, 256)]
    means = ref.means_checks(**MEANS)
    assert "0.5%" in means[0][0] and "2.0%" in means[1][0] and "15%" in means[2][0]
    assert means[2][2] == "gap ratio 0.940"
    assert ref.delta_checks(**DELTA)[0][2] == "0.48522"
    assert ref.symmetric_checks(0.05)[0][2] == "0.05"
    assert ref.adaptive_checks(GROWTH["growth"])[0][2] == "measured 1.336"


def test_the_ranges_are_the_books():
    assert (ref.RR_KEEP_TOLERANCE, ref.RR_RATIO_TOLERANCE) == (0.002, 1e-12)
    assert ref.MEANS_CASE == {
        "n_items": 200,
        "w": 10,
        "b": (0.8, 0.2),
        "eps": 1.0,
        "n_users": 400_000,
        "runs": 5,
    }
    assert ref.MEANS_TOLERANCE == {"fast": 0.005, "subset": 0.02, "subset_gap": 0.15}
    assert ref.DELTA_MIN_ASYM == (0.4852, 1e-4)
    assert abs(0.8 * math.exp(-0.5) - ref.DELTA_MIN_ASYM[0]) <= ref.DELTA_MIN_ASYM[1]
    assert ref.GUESS_QUERY_RANGE == (1.0, 1.1)
    assert (ref.MI_DOUBLING_RANGE, ref.MI_EPS_RATIO_RANGE) == ((0.45, 0.55), (0.23, 0.27))
    assert ref.LB_SLOPES == {"Thm 4.8": (1.9, 2.1), "Thm 4.10": (1.9, 2.1), "Thm 3.3": (0.99, 1.01)}
    assert ref.MAXSENSE_TRANSITION == {"low_users": 1e5, "low_max": 0.2, "high_users": 1.2e6, "high_min": 0.9,
                                       "prediction_factor": 1.4}  # fmt: skip
    assert ref.COLLAPSE_RANGE == (8.0, 32.0)
    assert ref.MAXSENSE_SLOPES == {"N": (1.8, 2.6), "w": (-1.5, -0.7), "eps_hat": (-2.5, -1.5)}
    assert (ref.PP_CONSTANT_RANGE, ref.PP_EPS_RATIO_RANGE) == ((10.0, 40.0), (8.0, 25.0))
    assert (ref.SYMMETRIC_USERS, ref.SYMMETRIC_MAX) == (2e6, 0.1)
    assert (ref.PP_EXPONENT_NONPRIVATE, ref.PP_EXPONENT_PRIVATE_MIN) == ((1.5, 2.5), 2.8)
    assert (ref.MULTI_GAIN_MIN, ref.MULTI_NO_GAIN, ref.MULTI_PREDICTION) == (4.0, 0.9, (0.7, 1.4))
    assert (ref.ONE_BIT_N, ref.ONE_BIT_TOLERANCE, ref.ONE_BIT_ADAPTIVE_MAX) == (128, 0.15, 0.5)
    assert ref.ADAPTIVE_GROWTH_RANGE == (1.1, 1.6)


def test_lower_bound_checks_require_every_theorem():
    with pytest.raises(KeyError):
        ref.lower_bound_checks({"Thm 4.8": 2.0, "Thm 4.10": 2.0})


def test_the_closed_form_here_is_the_libraries():
    """The means baseline is the closed form written out above; the library's agrees with it."""
    from dpnet import recommender as rc

    case = ref.MEANS_CASE
    model = rc.BlockModel((1.0,), (0.5, 0.5), (case["b"],), case["n_items"], case["w"])
    np.testing.assert_allclose(rc.maxsense_means(model, case["eps"], 1.0), CLOSED, rtol=1e-12)


# Known defects: ``max``/``min`` over a sequence skip a ``nan`` that is not first (every comparison with nan
# is False), so whether a nan input fails the claim depends on where it sits.


def test_means_fast_nan_in_the_second_cluster_fails():
    assert _failing(ref.means_checks(**{**MEANS, "fast": [CLOSED[0], NAN]})) == [0]


def test_collapse_nan_constant_after_the_first_fails():
    # ms_u[s] / ms_scale[s] is nan when a MaxSense U_90 is not bracketed by its grid
    assert _failing(ref.collapse_checks(**{**COLLAPSE, "constants": {**CONSTANTS, LAST: NAN}})) == [0]


def test_multi_nan_prediction_ratio_after_the_first_fails():
    assert _failing(ref.multi_checks(**{**MULTI, "prediction_ratios": [1.0, NAN]})) == [2]


def test_crossover_maxsense_not_reached_at_full_w_means_pp_needs_fewer():
    assert _failing(ref.crossover_checks(**{**CROSSOVER, "ms_full": NAN})) == []
