"""Spec 004 §7's headline checks H1–H20 (:mod:`dpnet.reference.funcpert`): pass on its numbers, fail off them.

Every public check function gets the same treatment: the spec's own numbers (the γ table, the prototype's
slopes −0.71/−0.81/−0.99, RMS ratios 0.44/1.00/1.03, the ε = 10 errors 0.0088 < 0.031 < 0.040, the 2-D error
0.029 and ratio 8.6, the log-ratios 1.5/8.3, the floors 1/(1+e^ε), …) pass every claim; each claim's input
moved just outside its boundary fails that claim and no other, and moved just inside (onto the boundary
where the code's comparison is inclusive) passes; ``nan`` fails the claim it feeds instead of crashing or
passing. Where the spec gives only a tolerance, the base value is an illustrative one the theory implies
(said so beside it). The expected numbers are written out here from the spec, not read from the module.

Defects found while writing these tests were mended in the module; their tests are at the end of the file.
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
from scipy import special

from dpnet import reference as ref
from dpnet.reference import funcpert

NAN, INF = math.nan, math.inf

#: the two claims whose input is a flag, with no measured value to show: their detail is empty as coded
FLAG_CLAIMS = {
    "H3 at p = q/2 the noise energy is ≤ 2ζ(q)²/ε²",
    "H6 a feasible input is returned unchanged",
}


def _wf(checks):
    return _well_formed(checks, FLAG_CLAIMS)


def _floor(eps):
    """The DP error-rate floor 1/(1 + e^ε) (spec §1.2, H19)."""
    return 1 / (1 + math.exp(eps))


def _energy_standard_error(K=20, p=1.0, draws=20_000):
    """Relative standard error of the Monte Carlo mean of ‖Φ_K(η)‖², η_k ~ Lap(γ k^−p) (H3: K = 20, 2·10⁴).

    E η² = 2b², Var η² = E η⁴ − (E η²)² = 24b⁴ − 4b⁴ = 20b⁴, independent across k.
    """
    k = np.arange(1, K + 1, dtype=float)
    return float(math.sqrt(20 * np.sum(k ** (-4 * p))) / (2 * np.sum(k ** (-2 * p))) / math.sqrt(draws))


def _random_ratio(K=20, q=2.0, p=1.0, eps=1.0, n=1000):
    """H4's largest Σ|Δ_k|/b_k over ε‖Δ‖_Vq for 10³ random Δ (seeded), below 1 by Cauchy–Schwarz."""
    k = np.arange(1, K + 1, dtype=float)
    b = math.sqrt(special.zeta(2 * (q - p))) / eps / k**p
    delta = np.random.default_rng(4).standard_normal((n, K))
    loss = np.sum(np.abs(delta) / b, axis=1)
    return float(np.max(loss / (eps * np.sqrt(np.sum((k**q * delta) ** 2, axis=1)))))


def _worst_ratio(K=1_000_000, q=2.0, p=1.0):
    """H4's extremal Δ_k = k^(p−2q): the ratio is √(Σ_{k≤K} k^{−2(q−p)} / ζ(2(q−p))) (spec §2.3)."""
    k = np.arange(1, K + 1, dtype=float)
    return float(math.sqrt(np.sum(k ** (-2 * (q - p))) / special.zeta(2 * (q - p))))


# H1–H3: the γ table at ε = 1 (p = q/2); argmin p = q/2 for q ∈ {1.5, 2, 3, 4}; the Monte Carlo energy one
# standard error (≈ 1 %) off, inside 3 %; the ζ(q)² bound holds
CALIBRATION = {
    "gammas": {(2.0, 1.0): 1.282550, (1.5, 0.75): 1.616284, (4.0, 2.0): 1.040348},
    "optimal_p": {1.5: 0.75, 2.0: 1.0, 3.0: 1.5, 4.0: 2.0},
    "energy_error": _energy_standard_error(),
    "energy_bound_ok": True,
}
# H4: 10³ random Δ below 1; the extremal Δ at K = 10⁶ (q = 2, p = 1) reaches 1 − 3·10⁻⁷
DP = {"max_random_ratio": _random_ratio(), "worst_ratio": _worst_ratio()}
# H5: only the tolerance 1e-10 is given; rounding-level deviations (illustrative)
BASIS = {"gram_1d": 8.9e-16, "gram_2d": 2.7e-15}
# H6: only tolerances are given; a polished feasible output, a contraction, a projection's VI ≤ 0
# (illustrative)
PROJECTION = {"violation": 2e-9, "unchanged": True, "expansion": -1e-3, "variational": -4e-3}
# H7: the truth lies strictly inside S in both set-ups of §5 (illustrative slack)
FEASIBILITY = {"violations": {"1-D quadratic": -0.25, "2-D logistic": -0.4}}
# H8: the 2-D bias 2.2e-4 [X]; a quadratic is exact in the Legendre span, so its bias is the solver's
TRUNCATION = {"bias": {"quadratic": 1e-12, "logistic": 2.2e-4}}
# H9–H13 (E3): monotone errors (ρ = −1); slopes −0.71, −0.81, −0.99 against the bound's −2/(d+4) = −0.4;
# RMS ratios 1.00, 1.03 at ε = 1000 and 0.44 at ε = 10; 0.0088 < 0.031 < 0.040; saturation ≈ 0.5 against
# diam(X) = 2 (the 1-D value at ε = 0.1 is not in the spec: illustrative)
TRADEOFF = {
    "spearman": {1.5: -1.0, 2.0: -1.0, 4.0: -1.0},
    "slopes": {1.5: -0.71, 2.0: -0.81, 4.0: -0.99},
    "bound_slope": -2 / (1 + 4),
    "linear_ratio": {(2.0, 1000.0): 1.00, (4.0, 1000.0): 1.03, (2.0, 10.0): 0.44},
    "error_at_10": {4.0: 0.0088, 2.0: 0.031, 1.5: 0.040},
    "worst_over_diameter": 0.5 / 2,
    "error_at_smallest": 0.5,
}
# H14 (E4): 0.029 at ε = 1, ratio 8.6
CASE = {"error_1": 0.029, "error_10": 0.029 / 8.6}
# H15 (§2.6): consensus 2.9e-4; the gap is at most the consensus error by the triangle inequality
DGD = {"consensus": 2.9e-4, "optimum_gap": 2.9e-4}
# H16 (§2.7): floors 0.013 (Σ s_k = 1) and 2e-4 (Σ s_k = 10)
HUANG = {"floor_short": 0.013, "floor_long": 2e-4}
# H17 (E6b): the geometric accountant levels off at ε; the convergent one grows like K^1.3: 100^1.3 ≈ 398
ACCOUNTANT = {"geometric_over_eps": 1.0, "convergent_growth": 100**1.3}
# H18 (E6c): log-ratio 1.5 at K = 10, 8.3 at K = 100
IMPOSSIBILITY = {"log_ratio_10": 1.5, "log_ratio_100": 8.3}
# H19 (E0): ε ∈ {0.1, 0.5, 1, 2}
FLOOR_EPS = (0.1, 0.5, 1.0, 2.0)
FLOOR = {"floors": {e: _floor(e) for e in FLOOR_EPS}}
# H20 (E7): ≈ 166 and stable; a change of the last digit, 166 → 167
RECORD = {"relative_change": 167 / 166 - 1}

BASES = [
    pytest.param(ref.calibration_checks, CALIBRATION, 9, id="calibration"),
    pytest.param(ref.dp_inequality_checks, DP, 2, id="dp_inequality"),
    pytest.param(ref.basis_checks, BASIS, 2, id="basis"),
    pytest.param(ref.projection_checks, PROJECTION, 4, id="projection"),
    pytest.param(ref.feasibility_checks, FEASIBILITY, 2, id="feasibility"),
    pytest.param(ref.truncation_checks, TRUNCATION, 2, id="truncation"),
    pytest.param(ref.tradeoff_checks, TRADEOFF, 15, id="tradeoff"),
    pytest.param(ref.case_study_checks, CASE, 2, id="case_study"),
    pytest.param(ref.dgd_checks, DGD, 2, id="dgd"),
    pytest.param(ref.huang_floor_checks, HUANG, 2, id="huang_floor"),
    pytest.param(ref.accountant_checks, ACCOUNTANT, 2, id="accountant"),
    pytest.param(ref.impossibility_checks, IMPOSSIBILITY, 1, id="impossibility"),
    pytest.param(ref.floor_checks, FLOOR, 4, id="floor"),
    pytest.param(ref.record_checks, RECORD, 1, id="record"),
]


@pytest.mark.parametrize(("fn", "base", "count"), BASES)
def test_every_check_passes_on_the_specs_numbers(fn, base, count):
    checks = _wf(fn(**base))
    assert len(checks) == count
    assert _failing(checks) == []
    assert len(set(_claims(checks))) == count, "two claims share a text"


def test_every_public_check_function_is_covered():
    tested = {p.values[0].__name__ for p in BASES}
    public = {name for name in vars(funcpert) if name.endswith("_checks") and not name.startswith("_")}
    assert public == tested
    assert all(getattr(ref, name) is getattr(funcpert, name) for name in public), "re-exported as is"


def test_claims_are_distinct_across_the_module_and_name_their_outcome():
    claims = [c for p in BASES for c in _claims(p.values[0](**p.values[1]))]
    assert len(claims) == len(set(claims)) == sum(p.values[2] for p in BASES) == 50
    heads = {c.split()[0] for c in claims}
    assert heads == {f"H{i}" for i in range(1, 21)}, "every headline outcome H1–H20 is checked"


G1, G2, G3 = 1.282550, 1.616284, 1.040348
UP, DOWN, OUT, LOW = 1 + 0.99e-6, 1 - 0.99e-6, 1 + 1.01e-6, 1 - 1.01e-6
F01, F1 = _floor(0.1), _floor(1.0)
# the steeper-than-the-bound claim is implied by the slope range at the bound's −0.4 (−0.6 < −0.55), so a
# slope flips it alone only against a shallower bound: at −0.5 the threshold is −0.65
TRADEOFF_B5 = {**TRADEOFF, "bound_slope": -0.5}
# error(1) feeds both H14 claims: its range is probed with error(10) set to keep the ratio at 10
CASE_HIGH, CASE_LOW = {**CASE, "error_10": 0.008}, {**CASE, "error_10": 0.001}
# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # H1: rtol 1e-6 on either side (math.isclose)
    _case(ref.calibration_checks, CALIBRATION, ("gammas", (2.0, 1.0)), G1 * UP, G1 * OUT, 0, "1.2825513"),
    _case(ref.calibration_checks, CALIBRATION, ("gammas", (1.5, 0.75)), G2 * DOWN, G2 * LOW, 1, "1.6162824"),
    _case(ref.calibration_checks, CALIBRATION, ("gammas", (4.0, 2.0)), G3 * UP, G3 * OUT, 2, "1.0403491"),
    # H2: |p − q/2| ≤ 1e-3; no float p lies exactly 1e-3 from q/2 at the spec's q, so the tightest probe is
    # a pair of adjacent floats: 1.001 − 1 is just below 1e-3, the next float just above
    _case(ref.calibration_checks, CALIBRATION, ("optimal_p", 2.0), 1.001, math.nextafter(1.001, 2), 4,
          "p* = 1.00100"),
    _case(ref.calibration_checks, CALIBRATION, ("optimal_p", 1.5), 0.7509, 0.7511, 3, "p* = 0.75110"),
    _case(ref.calibration_checks, CALIBRATION, ("optimal_p", 4.0), 1.9991, 1.9989, 6, "p* = 1.99890"),
    # H3: ≤ 3 % (inclusive); the flag
    _case(ref.calibration_checks, CALIBRATION, "energy_error", 0.03, 0.0301, 7, "measured 0.0301"),
    _case(ref.calibration_checks, CALIBRATION, "energy_bound_ok", True, False, 8, ""),
    # H4: ≤ 1 + 1e-12 (inclusive); ≥ 0.999 (inclusive)
    _case(ref.dp_inequality_checks, DP, "max_random_ratio", 1 + 1e-12, 1 + 3e-12, 0, "1.000000000003"),
    _case(ref.dp_inequality_checks, DP, "worst_ratio", 0.999, 0.99899, 1, "ratio 0.99899"),
    # H5: ≤ 1e-10 (inclusive)
    _case(ref.basis_checks, BASIS, "gram_1d", 1e-10, 1.01e-10, 0, "measured 1.01e-10"),
    _case(ref.basis_checks, BASIS, "gram_2d", 1e-10, 1.01e-10, 1, "measured 1.01e-10"),
    # H6: ≤ 1e-7, the flag, ≤ 1e-6, ≤ 1e-8 (inclusive)
    _case(ref.projection_checks, PROJECTION, "violation", 1e-7, 1.01e-7, 0, "measured 1.01e-07"),
    _case(ref.projection_checks, PROJECTION, "unchanged", True, False, 1, ""),
    _case(ref.projection_checks, PROJECTION, "expansion", 1e-6, 1.01e-6, 2, "measured 1.01e-06"),
    _case(ref.projection_checks, PROJECTION, "variational", 1e-8, 1.01e-8, 3, "measured 1.01e-08"),
    # H7: ≤ 0 (inclusive, −0.0 too); the smallest positive float fails
    _case(ref.feasibility_checks, FEASIBILITY, ("violations", "1-D quadratic"), -0.0, 5e-324, 0, "4.94e-324"),
    _case(ref.feasibility_checks, FEASIBILITY, ("violations", "2-D logistic"), 0.0, 1e-12, 1, "1e-12"),
    # H8: the spec's "<" against the code's "≤" is probed exactly at the bound below
    _case(ref.truncation_checks, TRUNCATION, ("bias", "quadratic"), 0.99e-8, 1.01e-8, 0, "measured 1.01e-08"),
    _case(ref.truncation_checks, TRUNCATION, ("bias", "logistic"), 4.99e-4, 5.01e-4, 1, "measured 0.000501"),
    # H9: ≤ −0.95 (inclusive)
    _case(ref.tradeoff_checks, TRADEOFF, ("spearman", 2.0), -0.95, -0.949, 1, "measured -0.949"),
    # H10: [−1.15, −0.6] (inclusive both ends), [−1.1, −0.9] at q = 4; ≥ 0.15 steeper than the bound
    _case(ref.tradeoff_checks, TRADEOFF, ("slopes", 1.5), -0.6, -0.599, 3, "measured -0.599"),
    _case(ref.tradeoff_checks, TRADEOFF, ("slopes", 1.5), -1.15, -1.151, 3, "measured -1.151"),
    _case(ref.tradeoff_checks, TRADEOFF, ("slopes", 2.0), -0.6, -0.599, 5, "measured -0.599"),
    _case(ref.tradeoff_checks, TRADEOFF, ("slopes", 4.0), -0.9, -0.899, 7, "measured -0.899"),
    _case(ref.tradeoff_checks, TRADEOFF, ("slopes", 4.0), -1.1, -1.101, 7, "measured -1.101"),
    _case(ref.tradeoff_checks, TRADEOFF_B5, ("slopes", 2.0), -0.651, -0.649, 6, "-0.649"),
    _case(ref.tradeoff_checks, TRADEOFF, "bound_slope", -0.559, -0.561, 4, "-0.710"),
    # H11: [0.85, 1.15] at ε = 1000 (inclusive); the denoising "< 0.8" is probed at the bound below
    _case(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (2.0, 1000.0)), 0.85, 0.849, 9, "measured 0.849"),
    _case(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (4.0, 1000.0)), 1.15, 1.151, 10, "measured 1.151"),
    _case(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (2.0, 10.0)), 0.799, 0.801, 11, "measured 0.801"),
    # H12: strict order, a tie fails
    _case(ref.tradeoff_checks, TRADEOFF, ("error_at_10", 4.0), 0.0309, 0.031, 12, "0.031 < 0.031 < 0.04"),
    _case(ref.tradeoff_checks, TRADEOFF, ("error_at_10", 1.5), 0.0311, 0.031, 12, "0.0088 < 0.031 < 0.031"),
    # H13: ≤ diam(X) (inclusive); ≥ 0.2 (inclusive)
    _case(ref.tradeoff_checks, TRADEOFF, "worst_over_diameter", 1.0, 1.001, 13, "measured 1"),
    _case(ref.tradeoff_checks, TRADEOFF, "error_at_smallest", 0.2, 0.199, 14, "0.199"),
    # H14: [0.01, 0.08] and [5, 15] (inclusive both ends)
    _case(ref.case_study_checks, CASE_HIGH, "error_1", 0.08, 0.0801, 0, "measured 0.0801"),
    _case(ref.case_study_checks, CASE_LOW, "error_1", 0.01, 0.0099, 0, "measured 0.0099"),
    _case(ref.case_study_checks, CASE, "error_10", 0.029 / 15, 0.029 / 15.01, 1, "measured 15.01"),
    _case(ref.case_study_checks, CASE, "error_10", 0.0058, 0.00581, 1, "measured 4.991"),
    # H15: ≤ 1e-3 (inclusive)
    _case(ref.dgd_checks, DGD, "consensus", 1e-3, 1.01e-3, 0, "measured 0.00101"),
    _case(ref.dgd_checks, DGD, "optimum_gap", 1e-3, 1.01e-3, 1, "measured 0.00101"),
    # H16: ≥ 5e-3 (inclusive); the spec's "< 1e-3" is probed at the bound below
    _case(ref.huang_floor_checks, HUANG, "floor_short", 5e-3, 4.99e-3, 0, "0.00499"),
    _case(ref.huang_floor_checks, HUANG, "floor_long", 0.99e-3, 1.01e-3, 1, "measured 0.00101"),
    # H17: |L_K/ε − 1| ≤ 1e-6 on either side; growth ≥ 50 (inclusive)
    _case(ref.accountant_checks, ACCOUNTANT, "geometric_over_eps", UP, OUT, 0, "1.000001010"),
    _case(ref.accountant_checks, ACCOUNTANT, "geometric_over_eps", DOWN, LOW, 0, "0.999998990"),
    _case(ref.accountant_checks, ACCOUNTANT, "convergent_growth", 50.0, 49.9, 1, "49.9"),
    # H18: ≥ 5 at K = 100 (inclusive), and strictly above its value at K = 10 (a tie fails)
    _case(ref.impossibility_checks, IMPOSSIBILITY, "log_ratio_100", 5.0, 4.99, 0, "4.99 at K = 100"),
    _case(ref.impossibility_checks, IMPOSSIBILITY, "log_ratio_10", 8.29, 8.3, 0, "8.30 at K = 10"),
    # H19: within 1e-3 of 1/(1 + e^ε) on either side
    _case(ref.floor_checks, FLOOR, ("floors", 1.0), F1 + 0.00099, F1 + 0.00101, 2, "0.26995 vs 0.26894"),
    _case(ref.floor_checks, FLOOR, ("floors", 0.1), F01 - 0.00099, F01 - 0.00101, 0, "0.47401 vs 0.47502"),
    # H20: the spec's "< 1 %" is probed at the bound below
    _case(ref.record_checks, RECORD, "relative_change", 0.0099, 0.0101, 0, "measured 0.0101"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_the_specs_boundary(fn, inside, outside, base, index, shown):
    expected = _claims(fn(**base))
    just_in = _wf(fn(**inside))
    assert _failing(just_in) == []
    assert len(just_in) == len(expected)
    just_out = _wf(fn(**outside))
    assert _claims(just_out) == _claims(just_in), "moving a value must not change which claims are made"
    assert _failing(just_out) == [index]
    assert shown in just_out[index][2], just_out[index][2]


def test_only_the_bound_slope_enters_a_claim_text():
    """H10's "steeper than the bound's …" names the bound's slope; no other moved input changes a claim."""
    checks = ref.tradeoff_checks(**TRADEOFF)
    assert "the bound's -0.40" in checks[4][0]
    moved = ref.tradeoff_checks(**{**TRADEOFF, "bound_slope": -1 / 3})
    assert [c for c, _, _ in moved][4::2][:3] == [
        f"H10 slope at q = {q} ≥ 0.15 steeper than the bound's -0.33" for q in ("1.5", "2", "4")
    ]


def _nan(fn, base, key, failing, id, value=NAN, shown="nan"):
    return pytest.param(fn, _set(base, key, value), base, failing, shown, id=id)


# (function, base, the input set to nan, the claims that must fail, what their detail shows or None)
NANS = [
    _nan(ref.calibration_checks, CALIBRATION, ("gammas", (2.0, 1.0)), [0], "calibration-gamma"),
    _nan(ref.calibration_checks, CALIBRATION, ("optimal_p", 3.0), [5], "calibration-optimal-p"),
    _nan(ref.calibration_checks, CALIBRATION, "energy_error", [7], "calibration-energy"),
    _nan(ref.dp_inequality_checks, DP, "max_random_ratio", [0], "dp-random"),
    _nan(ref.dp_inequality_checks, DP, "worst_ratio", [1], "dp-worst"),
    _nan(ref.basis_checks, BASIS, "gram_1d", [0], "basis-1d"),
    _nan(ref.basis_checks, BASIS, "gram_2d", [1], "basis-2d"),
    _nan(ref.projection_checks, PROJECTION, "violation", [0], "projection-violation"),
    _nan(ref.projection_checks, PROJECTION, "expansion", [2], "projection-expansion"),
    _nan(ref.projection_checks, PROJECTION, "variational", [3], "projection-variational"),
    _nan(ref.feasibility_checks, FEASIBILITY, ("violations", "1-D quadratic"), [0], "feasibility-1d"),
    _nan(ref.feasibility_checks, FEASIBILITY, ("violations", "2-D logistic"), [1], "feasibility-2d"),
    _nan(ref.truncation_checks, TRUNCATION, ("bias", "quadratic"), [0], "truncation-quadratic"),
    _nan(ref.truncation_checks, TRUNCATION, ("bias", "logistic"), [1], "truncation-logistic"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("spearman", 4.0), [2], "tradeoff-spearman"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("slopes", 2.0), [5, 6], "tradeoff-slope"),
    _nan(ref.tradeoff_checks, TRADEOFF, "bound_slope", [4, 6, 8], "tradeoff-bound-slope", shown=None),
    _nan(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (4.0, 1000.0)), [10], "tradeoff-linear"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (2.0, 10.0)), [11], "tradeoff-denoised"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("error_at_10", 4.0), [12], "tradeoff-order-q4"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("error_at_10", 2.0), [12], "tradeoff-order-q2"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("error_at_10", 1.5), [12], "tradeoff-order-q15"),
    _nan(ref.tradeoff_checks, TRADEOFF, "worst_over_diameter", [13], "tradeoff-diameter"),
    _nan(ref.tradeoff_checks, TRADEOFF, "error_at_smallest", [14], "tradeoff-saturation"),
    _nan(ref.case_study_checks, CASE, "error_1", [0, 1], "case-error-1"),
    # a nan error(10) fails the ratio, but its detail reads "measured inf"
    _nan(ref.case_study_checks, CASE, "error_10", [1], "case-error-10", shown=None),
    _nan(ref.dgd_checks, DGD, "consensus", [0], "dgd-consensus"),
    _nan(ref.dgd_checks, DGD, "optimum_gap", [1], "dgd-gap"),
    _nan(ref.huang_floor_checks, HUANG, "floor_short", [0], "huang-short"),
    _nan(ref.huang_floor_checks, HUANG, "floor_long", [1], "huang-long"),
    _nan(ref.accountant_checks, ACCOUNTANT, "geometric_over_eps", [0], "accountant-geometric"),
    _nan(ref.accountant_checks, ACCOUNTANT, "convergent_growth", [1], "accountant-convergent"),
    _nan(ref.impossibility_checks, IMPOSSIBILITY, "log_ratio_10", [0], "impossibility-10"),
    _nan(ref.impossibility_checks, IMPOSSIBILITY, "log_ratio_100", [0], "impossibility-100"),
    _nan(ref.floor_checks, FLOOR, ("floors", 0.5), [1], "floor"),
    _nan(ref.record_checks, RECORD, "relative_change", [0], "record"),
]


@pytest.mark.parametrize(("fn", "changed", "base", "failing", "shown"), NANS)
def test_nan_fails_the_claim_it_feeds_without_crashing(fn, changed, base, failing, shown):
    checks = _wf(fn(**changed))
    if fn is not ref.tradeoff_checks or changed["bound_slope"] == base["bound_slope"]:
        assert _claims(checks) == _claims(fn(**base))
    assert _failing(checks) == failing
    for i in failing:
        assert shown is None or shown in checks[i][2].lower(), checks[i][2]


def test_a_nan_bound_slope_is_shown_in_the_claims_it_fails():
    checks = ref.tradeoff_checks(**{**TRADEOFF, "bound_slope": NAN})
    assert all("the bound's nan" in checks[i][0] for i in (4, 6, 8))


def test_a_nan_epsilon_fails_its_floor_claim():
    checks = _wf(ref.floor_checks({**FLOOR["floors"], NAN: 0.27}))
    assert _failing(checks) == [4]
    assert "at ε = nan" in checks[4][0] and checks[4][2] == "0.27000 vs nan"


@pytest.mark.parametrize(
    ("fn", "base", "key", "value", "index"),
    [
        pytest.param(ref.calibration_checks, CALIBRATION, "energy_error", -INF, 7, id="energy-minus-inf"),
        pytest.param(ref.dp_inequality_checks, DP, "max_random_ratio", -INF, 0, id="dp-minus-inf"),
        pytest.param(ref.basis_checks, BASIS, "gram_2d", INF, 1, id="basis-inf"),
        pytest.param(ref.feasibility_checks, FEASIBILITY, ("violations", "2-D logistic"), -INF, 1, id="feas"),
        pytest.param(ref.tradeoff_checks, TRADEOFF, ("spearman", 1.5), -INF, 0, id="spearman-minus-inf"),
        pytest.param(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (2.0, 1000.0)), INF, 9, id="linear-inf"),
        pytest.param(ref.case_study_checks, CASE_LOW, "error_1", INF, 0, id="case-inf"),
        pytest.param(ref.record_checks, RECORD, "relative_change", -INF, 0, id="record-minus-inf"),
    ],
)
def test_the_helpers_reject_infinities(fn, base, key, value, index):
    """``_range`` and ``_at_most`` require a finite value: ±inf fails, even on the passing side."""
    checks = _wf(fn(**_set(base, key, value)))
    assert index in _failing(checks)
    assert "inf" in checks[index][2]


def test_slopes_of_minus_infinity_fail_the_range_but_not_the_steeper_claim():
    checks = ref.tradeoff_checks(**_set(TRADEOFF, ("slopes", 2.0), -INF))
    assert _failing(checks) == [5]
    assert checks[6][2] == "-inf"


def test_case_study_ratio_of_a_zero_or_negative_error_10_is_infinite():
    for error_10 in (0.0, -0.0033):
        checks = _wf(ref.case_study_checks(0.029, error_10))
        assert _failing(checks) == [1]
        assert checks[1][2] == "measured inf"


def test_claims_are_made_per_entry_given():
    """The mappings decide which claims are made: a q, set-up or ε not passed is not checked at all."""
    assert ref.feasibility_checks({}) == []
    assert ref.truncation_checks({}) == []
    assert ref.floor_checks({}) == []
    assert len(ref.calibration_checks(CALIBRATION["gammas"], {}, 0.01, True)) == 5
    bare = ref.tradeoff_checks({}, {}, -0.4, {}, TRADEOFF["error_at_10"], 0.25, 0.5)
    assert [c.split()[0] for c, _, _ in bare] == ["H12", "H13", "H13"]
    # a q other than 4 gets the wide range; ε < 1000 gets the denoising claim, ε ≥ 1000 the range
    extra = ref.tradeoff_checks(
        {}, {3.0: -0.95}, -0.4, {(4.0, 100.0): 0.79, (2.0, 2000.0): 1.0}, TRADEOFF["error_at_10"], 0.25, 0.5
    )
    assert "at q = 3 in [-1.15, -0.6]" in extra[0][0]
    assert extra[2][0] == "H11 RMS / linearised RMS at ε = 100, q = 4 (projection denoises) < 0.8"
    assert extra[3][0] == "H11 RMS / linearised RMS at ε = 2000, q = 2 in [0.85, 1.15]"
    assert _failing(extra) == []


def test_missing_required_entries_raise():
    with pytest.raises(KeyError):  # H1 needs every (q, p) of the γ table
        ref.calibration_checks({(2.0, 1.0): 1.28255}, {}, 0.01, True)
    with pytest.raises(KeyError):  # H12 needs q = 4, 2 and 1.5
        ref.tradeoff_checks({}, {}, -0.4, {}, {4.0: 0.0088, 2.0: 0.031}, 0.25, 0.5)
    with pytest.raises(KeyError):  # H8 has tolerances for the quadratic and logistic problems only
        ref.truncation_checks({"cubic": 0.0})


def test_numpy_scalars_give_the_same_checks():
    def to_numpy(value):
        if isinstance(value, dict):
            return {k: to_numpy(v) for k, v in value.items()}
        return np.bool_(value) if isinstance(value, bool) else np.float64(value)

    for p in BASES:
        fn, base = p.values[0], p.values[1]
        checks = _wf(fn(**{k: to_numpy(v) for k, v in base.items()}))
        assert [(c, bool(ok), d) for c, ok, d in checks] == fn(**base)


def test_the_checks_discriminate_the_laws_the_spec_contrasts():
    # H10: the bound's exponent −2/(d+4) as the measured slope fails both H10 claims; the linear law −1 passes
    bound_law = ref.tradeoff_checks(**_set(TRADEOFF, ("slopes", 2.0), -0.4))
    assert _failing(bound_law) == [5, 6]
    assert _failing(ref.tradeoff_checks(**{**TRADEOFF, "slopes": {1.5: -1.0, 2.0: -1.0, 4.0: -1.0}})) == []
    # H11: no denoising (RMS equal to the linear prediction at ε = 10) fails
    assert _failing(ref.tradeoff_checks(**_set(TRADEOFF, ("linear_ratio", (2.0, 10.0)), 1.0))) == [11]
    # H12: the order reversed (the rougher q = 1.5 noise best) fails
    reversed_order = {4.0: 0.040, 2.0: 0.031, 1.5: 0.0088}
    assert _failing(ref.tradeoff_checks(**{**TRADEOFF, "error_at_10": reversed_order})) == [12]
    # H14: a decade of ε divides the error by 10 under the linear law (passes), by 10^(2/(d+4)) = 10^(1/3)
    # under the bound's exponent in 2-D (fails), by 100 under Huang's O(1/ε²) (fails)
    assert _failing(ref.case_study_checks(0.029, 0.0029)) == []
    assert _failing(ref.case_study_checks(0.029, 0.029 / 10 ** (1 / 3))) == [1]
    assert _failing(ref.case_study_checks(0.029, 0.00029)) == [1]
    # H16: the two schedules' floors swapped fail both claims
    assert _failing(ref.huang_floor_checks(2e-4, 0.013)) == [0, 1]
    # H17: a schedule accounted at 2ε fails; growth like log K (L_10⁴/L_10² = 2) fails
    assert _failing(ref.accountant_checks(2.0, 2.0)) == [0, 1]
    # H18: a log-ratio held at an ε-DP bound (no growth with K) fails
    assert _failing(ref.impossibility_checks(1.5, 1.5)) == [0]
    # H19: the slide's (e^ε − 1)/(e^{2ε} − 1) is the same floor; the 2ε (group) floor 1/(1 + e^{2ε}) is not
    slide = {e: (math.exp(e) - 1) / (math.exp(2 * e) - 1) for e in FLOOR_EPS}
    assert _failing(ref.floor_checks(slide)) == []
    assert _failing(ref.floor_checks({e: _floor(2 * e) for e in FLOOR_EPS})) == [0, 1, 2, 3]


def test_claims_and_details_carry_the_specs_numbers():
    cal = ref.calibration_checks(**CALIBRATION)
    assert [c for c, _, _ in cal[:3]] == [
        "H1 γ(1, 2, 1) = 1.28255 (rtol 1e-06)",
        "H1 γ(1, 1.5, 0.75) = 1.616284 (rtol 1e-06)",
        "H1 γ(1, 4, 2) = 1.040348 (rtol 1e-06)",
    ]
    assert [d for _, _, d in cal[:3]] == ["1.2825500", "1.6162840", "1.0403480"]
    assert [c for c, _, _ in cal[3:7]] == [
        f"H2 argmin_p ζ(2p)ζ(2(q−p)) = q/2 ± 0.001 at q = {q}" for q in ("1.5", "2", "3", "4")
    ]
    assert [d for _, _, d in cal[3:7]] == ["p* = 0.75000", "p* = 1.00000", "p* = 1.50000", "p* = 2.00000"]
    assert cal[7] == ("H3 Monte Carlo noise energy: relative error ≤ 0.03", True, "measured 0.0103")
    assert cal[8] == ("H3 at p = q/2 the noise energy is ≤ 2ζ(q)²/ε²", True, "")
    dp = ref.dp_inequality_checks(**DP)
    assert dp[0][2].startswith("measured 0.") and len(dp[0][2]) == len("measured 0.") + 12
    assert dp[1] == ("H4 the extremal Δ_k = k^(p−2q) attains ≥ 0.999 of the bound", True, "ratio 1.00000")
    assert [c for c, _, _ in ref.basis_checks(**BASIS)] == [
        "H5 1-D Gram matrix (K = 20) minus identity ≤ 1e-10",
        "H5 2-D Gram matrix (M = 10) minus identity ≤ 1e-10",
    ]
    proj = ref.projection_checks(**PROJECTION)
    assert [c.rsplit(" ", 1)[1] for c, _, _ in proj] == ["1e-07", "unchanged", "1e-06", "1e-08"]
    assert [d for _, _, d in proj] == ["measured 2e-09", "", "measured -0.001", "measured -0.004"]
    feas = ref.feasibility_checks(**FEASIBILITY)
    assert "1-D quadratic problem lie in S" in feas[0][0] and feas[0][0].endswith("≤ 0")
    trunc = ref.truncation_checks(**TRUNCATION)
    assert [c for c, _, _ in trunc] == [
        "H8 truncation bias |x*_K − x*|, quadratic < 1e-08",
        "H8 truncation bias |x*_K − x*|, logistic < 0.0005",
    ]
    assert trunc[1][2] == "measured 0.00022"
    trade = ref.tradeoff_checks(**TRADEOFF)
    assert [d for _, _, d in trade[:3]] == ["measured -1.000"] * 3
    assert [d for _, _, d in trade[3:9]] == [
        "measured -0.710", "-0.710", "measured -0.810", "-0.810", "measured -0.990", "-0.990"
    ]  # fmt: skip
    assert trade[3][0].endswith("at q = 1.5 in [-1.15, -0.6]")
    assert trade[7][0].endswith("at q = 4 in [-1.1, -0.9]")
    assert [d for _, _, d in trade[9:12]] == ["measured 1.000", "measured 1.030", "measured 0.44"]
    assert trade[12][0] == "H12 at ε = 10 the mean error orders q = 4 < q = 2 < q = 1.5"
    assert trade[12][2] == "0.0088 < 0.031 < 0.04"
    assert trade[13][2] == "measured 0.25" and trade[14] == ("H13 mean error at ε = 0.1 ≥ 0.2", True, "0.5")
    assert [d for _, _, d in ref.case_study_checks(**CASE)] == ["measured 0.029", "measured 8.6"]
    assert [d for _, _, d in ref.dgd_checks(**DGD)] == ["measured 0.00029"] * 2
    huang = ref.huang_floor_checks(**HUANG)
    assert huang[0][0] == "H16 noise-free floor with Σ s_k = 1 is ≥ 0.005" and huang[0][2] == "0.013"
    assert huang[1][0] == "H16 noise-free floor with Σ s_k = 10 < 0.001" and huang[1][2] == "measured 0.0002"
    acc = ref.accountant_checks(**ACCOUNTANT)
    assert [c for c, _, _ in acc] == [
        "H17 geometric schedule: L_K → ε (rtol 1e-06)",
        "H17 convergent schedule: L_10⁴/L_10² ≥ 50",
    ]
    assert [d for _, _, d in acc] == ["L_K/ε = 1.000000000", "398.1"]
    imp = ref.impossibility_checks(**IMPOSSIBILITY)
    assert imp[0][0] == "H18 log-ratio at K = 100 ≥ 5 and above its value at K = 10"
    assert imp[0][2] == "1.50 at K = 10, 8.30 at K = 100"
    floor = ref.floor_checks(**FLOOR)
    assert [c for c, _, _ in floor] == [
        f"H19 error-rate floor at ε = {e} equals 1/(1+e^ε) within 0.001" for e in ("0.1", "0.5", "1", "2")
    ]
    assert [d for _, _, d in floor] == [
        "0.47502 vs 0.47502", "0.37754 vs 0.37754", "0.26894 vs 0.26894", "0.11920 vs 0.11920"
    ]  # fmt: skip
    (record,) = ref.record_checks(**RECORD)
    assert record[0] == "H20 record-level V_q sensitivity: relative change from M = 14 to 18 < 0.01"
    assert record[2] == "measured 0.00602"


def test_tolerances_are_the_specs_section_7():
    assert ref.GAMMA_VALUES == {(2.0, 1.0): 1.282550, (1.5, 0.75): 1.616284, (4.0, 2.0): 1.040348}
    assert (ref.GAMMA_RTOL, ref.OPTIMAL_P_TOLERANCE, ref.ENERGY_TOLERANCE) == (1e-6, 1e-3, 0.03)
    assert (ref.WORST_CASE_MIN, ref.GRAM_TOLERANCE) == (0.999, 1e-10)
    assert ref.PROJECTION_TOLERANCES == {"feasible": 1e-7, "expansion": 1e-6, "variational": 1e-8}
    assert ref.TRUNCATION_BIAS == {"quadratic": 1e-8, "logistic": 5e-4}
    assert (ref.SPEARMAN_MAX, ref.SLOPE_RANGE, ref.SLOPE_RANGE_Q4) == (-0.95, (-1.15, -0.6), (-1.1, -0.9))
    assert (ref.SLOPE_STEEPER_BY, ref.SATURATION_MIN) == (0.15, 0.2)
    assert (ref.LINEAR_RATIO_RANGE, ref.LINEAR_RATIO_DENOISED) == ((0.85, 1.15), 0.8)
    assert (ref.CASE_ERROR_RANGE, ref.CASE_RATIO_RANGE) == ((0.01, 0.08), (5.0, 15.0))
    assert (ref.DGD_TOLERANCE, ref.HUANG_FLOOR_MIN, ref.HUANG_FLOOR_MAX) == (1e-3, 5e-3, 1e-3)
    assert (ref.ACCOUNTANT_RTOL, ref.CONVERGENT_GROWTH_MIN, ref.LOG_RATIO_MIN) == (1e-6, 50.0, 5.0)
    assert (ref.FLOOR_TOLERANCE, ref.RECORD_STABILITY) == (1e-3, 0.01)


def test_the_gamma_table_is_the_theorems():
    """H1's table is γ = √ζ(2(q − p))/ε at ε = 1 to its 7 digits; the library's γ passes H1."""
    from dpnet import funcpert as fp

    for (q, p), expected in ref.GAMMA_VALUES.items():
        exact = math.sqrt(special.zeta(2 * (q - p)))
        assert abs(exact - expected) <= 5e-7
        assert fp.gamma(1.0, q, p) == pytest.approx(exact, rel=1e-14)
    gammas = {qp: fp.gamma(1.0, *qp) for qp in ref.GAMMA_VALUES}
    assert _failing(ref.calibration_checks(**{**CALIBRATION, "gammas": gammas})) == []
    # at p = q/2 the bound ζ(q)² on the energy factor ζ(2p)ζ(2(q − p)) holds with equality
    for q in (1.5, 2.0, 4.0):
        assert fp.noise_energy_factor(q, q / 2) == pytest.approx(special.zeta(q) ** 2, rel=1e-12)


def test_the_librarys_numerical_floor_passes_h19():
    from dpnet import funcpert as fp

    floors = {e: fp.error_rate_floor(e) for e in FLOOR_EPS}
    assert _failing(ref.floor_checks(floors)) == []
    assert all(abs(f - _floor(e)) <= 1e-5 for e, f in floors.items())


# Regression tests for defects found and mended.


def test_h4_claim_states_the_tolerance_it_applies():
    claim, _, _ = ref.dp_inequality_checks(1 + 9e-13, 0.9999997)[0]
    assert "1e-12" in claim


@pytest.mark.parametrize(
    ("fn", "base", "key", "bound", "index"),
    [
        pytest.param(ref.truncation_checks, TRUNCATION, ("bias", "quadratic"), 1e-8, 0, id="H8-quadratic"),
        pytest.param(ref.truncation_checks, TRUNCATION, ("bias", "logistic"), 5e-4, 1, id="H8-logistic"),
        pytest.param(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (2.0, 10.0)), 0.8, 11,
                     id="H11-denoised"),
        pytest.param(ref.huang_floor_checks, HUANG, "floor_long", 1e-3, 1, id="H16-long"),
        pytest.param(ref.record_checks, RECORD, "relative_change", 0.01, 0, id="H20"),
    ],
)  # fmt: skip
def test_the_specs_strict_bounds_fail_at_the_bound(fn, base, key, bound, index):
    checks = fn(**_set(base, key, bound))
    assert _failing(checks) == [index]


def test_floor_checks_at_a_large_epsilon():
    assert _failing(ref.floor_checks({1000.0: 0.0})) == []


@pytest.mark.parametrize(
    ("fn", "base", "key", "index"),
    [
        pytest.param(ref.calibration_checks, CALIBRATION, "energy_bound_ok", 8, id="H3-bound"),
        pytest.param(ref.projection_checks, PROJECTION, "unchanged", 1, id="H6-unchanged"),
    ],
)
def test_a_nan_flag_fails_its_claim(fn, base, key, index):
    assert _failing(fn(**_set(base, key, NAN))) == [index]


def test_case_study_nan_error_10_is_shown_as_nan():
    checks = ref.case_study_checks(0.029, NAN)
    assert "nan" in checks[1][2]


@pytest.mark.parametrize(
    ("fn", "base", "key", "index"),
    [
        pytest.param(ref.dp_inequality_checks, DP, "worst_ratio", 1, id="H4-worst"),
        pytest.param(ref.tradeoff_checks, TRADEOFF, "error_at_smallest", 14, id="H13-saturation"),
        pytest.param(ref.huang_floor_checks, HUANG, "floor_short", 0, id="H16-short"),
        pytest.param(ref.accountant_checks, ACCOUNTANT, "convergent_growth", 1, id="H17-growth"),
        pytest.param(ref.impossibility_checks, IMPOSSIBILITY, "log_ratio_100", 0, id="H18"),
    ],
)
def test_one_sided_claims_reject_infinity_like_the_helpers(fn, base, key, index):
    assert _failing(fn(**_set(base, key, INF))) == [index]
