"""The checks of Chapter 8 (:mod:`dpnet.reference.funcpert`): they pass on the values the derivations and
the book's predictions give, each flips alone just outside its range, nan fails the claim it feeds, and a
claim the inputs cannot decide is undefined but still recorded under its name.

The base values are those of the reproduction notes (``book/notes/functional_perturbation.md``): the
closed forms where a derivation gives one (the floor 1/(1 + e^ε), p = q/2, the linear law's slope −1 and
ratio 10), and otherwise values of the order the book predicted (slopes −0.71/−0.81/−0.99, RMS ratios
0.44/1.00/1.03, errors 0.0088 < 0.031 < 0.040 at ε = 10, the 2-D error 0.029 with ratio 8.6, log-ratios
1.5/8.3). They are written out here, not read from the module.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from check_cases import case as _case
from check_cases import with_input as _set
from scipy import special

from dpnet import reference as ref
from dpnet.reference import Check, funcpert

NAN, INF = math.nan, math.inf


def _wf(checks):
    """Named, non-empty checks with a boolean (or undefined) outcome and a detail."""
    assert checks, "no checks returned"
    for check in checks:
        assert isinstance(check, Check) and len(check) == 5 and check.against in ("paper", "reference")
        assert isinstance(check.claim, str) and check.claim.strip()
        assert check.passed is None or isinstance(check.passed, (bool, np.bool_))
        assert isinstance(check.detail, str) and check.detail.strip(), check
        assert check.name and check.name == check.name.lower() and " " not in check.name, check.name
    return checks


def _failing(checks):
    return [i for i, c in enumerate(checks) if c.passed is not None and not c.passed]


def _undefined(checks):
    return [i for i, c in enumerate(checks) if c.passed is None]


def _claims(checks):
    return [c.claim for c in checks]


def _floor(eps):
    """The equal-error floor 1/(1 + e^ε) (note-fp-error-floor)."""
    return 1 / (1 + math.exp(eps))


def _energy_standard_error(K=20, p=1.0, draws=20_000):
    """Relative standard error of the Monte Carlo mean of ‖Φ_K(η)‖², η_k ~ Lap(γ k^−p).

    E η² = 2b², Var η² = E η⁴ − (E η²)² = 24b⁴ − 4b⁴ = 20b⁴, independent across k.
    """
    k = np.arange(1, K + 1, dtype=float)
    return float(math.sqrt(20 * np.sum(k ** (-4 * p))) / (2 * np.sum(k ** (-2 * p))) / math.sqrt(draws))


FLOOR_EPS = (0.1, 0.5, 1.0, 2.0)
FLOOR = {"floors": {e: _floor(e) for e in FLOOR_EPS}}
# a contraction, and a projection's variational inequality ≤ 0 (illustrative)
PROJECTION = {"expansion": -1e-3, "variational": -4e-3}
# the truth strictly inside S in both problems (illustrative slack)
FEASIBILITY = {"violations": {"1-D quadratic": -0.25, "2-D logistic": -0.4}}
# argmin p = q/2 exactly; the Monte Carlo energy one standard error (≈ 1 %) off
CALIBRATION = {
    "optimal_p": {1.5: 0.75, 2.0: 1.0, 3.0: 1.5, 4.0: 2.0},
    "energy_error": _energy_standard_error(),
}
# E3: monotone errors; slopes between the bound's −0.4 and −1; RMS ratios near 1 at ε = 1000 and below 0.8
# at ε = 10; errors ordered in q at ε = 10; saturation ≈ 0.5 at ε = 0.1
TRADEOFF = {
    "spearman": {1.5: -1.0, 2.0: -1.0, 4.0: -1.0},
    "slopes": {1.5: -0.71, 2.0: -0.81, 4.0: -0.99},
    "bound_slope": -2 / (1 + 4),
    "linear_ratio": {(2.0, 1000.0): 1.00, (4.0, 1000.0): 1.03, (2.0, 10.0): 0.44},
    "error_at_10": {1.5: 0.040, 2.0: 0.031, 4.0: 0.0088},
    "error_at_smallest": 0.5,
}
TRUNCATION = {"bias": {"logistic": 2.2e-4}}
CASE = {"error_1": 0.029, "error_10": 0.029 / 8.6}
DGD = {"consensus": 2.9e-4}
HUANG = {"floor_short": 0.013, "floor_long": 2e-4}
IMPOSSIBILITY = {"log_ratio_10": 1.5, "log_ratio_100": 8.3}
RECORD = {"relative_change": 167 / 166 - 1}

# (function, base, number of checks, their names in order)
BASES = [
    pytest.param(ref.floor_checks, FLOOR, ["floor"], id="floor"),
    pytest.param(ref.projection_checks, PROJECTION, ["non-expansive", "variational"], id="projection"),
    pytest.param(ref.feasibility_checks, FEASIBILITY, ["truth-in-s-1d", "truth-in-s-2d"], id="feasibility"),
    pytest.param(ref.calibration_checks, CALIBRATION, ["optimal-p", "noise-energy"], id="calibration"),
    pytest.param(
        ref.tradeoff_checks, TRADEOFF,
        ["falls-with-eps", "slope-range", "steeper-than-bound", "linear-regime", "denoising", "order-in-q",
         "saturation"],
        id="tradeoff",
    ),
    pytest.param(ref.truncation_checks, TRUNCATION, ["truncation-bias"], id="truncation"),
    pytest.param(ref.case_study_checks, CASE, ["error-at-1", "tenfold"], id="case_study"),
    pytest.param(ref.dgd_checks, DGD, ["consensus"], id="dgd"),
    pytest.param(ref.huang_floor_checks, HUANG, ["floor-short", "floor-long"], id="huang_floor"),
    pytest.param(ref.impossibility_checks, IMPOSSIBILITY, ["impossibility"], id="impossibility"),
    pytest.param(ref.record_checks, RECORD, ["sensitivity-converged"], id="record"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    checks = _wf(fn(**base))
    assert [c.name for c in checks] == names
    assert _failing(checks) == [] and _undefined(checks) == []
    assert len(set(_claims(checks))) == len(checks), "two claims share a text"


def test_every_public_check_function_is_covered():
    tested = {p.values[0].__name__ for p in BASES}
    public = {name for name in vars(funcpert) if name.endswith("_checks") and not name.startswith("_")}
    assert public == tested
    assert all(getattr(ref, name) is getattr(funcpert, name) for name in public), "re-exported as is"


def test_claims_say_what_they_compare_and_cite_no_document():
    """Each claim names its reference (the slides, a derivation, or a prediction of the book), and no
    claim cites a document readers do not have (a spec, a prototype, the spec's H1–H20)."""
    checks = [c for p in BASES for c in p.values[0](**p.values[1])]
    names = [c.name for c in checks]
    assert len(names) == len(set(names)) == 22
    for check in checks:
        text = check.claim.lower()
        assert "spec" not in text and "prototype" not in text and not text.startswith("h"), check.claim
    sources = ("slides", "derivation", "book's prediction", "characteris", "property of a projection",
               "closed form", "computed centrally", "accuracy theorem", "against the exact")  # fmt: skip
    assert [c.claim for c in checks if not any(s in c.claim for s in sources)] == []


F01, F1 = _floor(0.1), _floor(1.0)
# error(1) feeds both E4 claims: its range is probed with error(10) set to keep the ratio at 10
CASE_HIGH, CASE_LOW = {**CASE, "error_10": 0.008}, {**CASE, "error_10": 0.001}
# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # within 1e-3 of 1/(1 + e^ε) on either side
    _case(ref.floor_checks, FLOOR, ("floors", 1.0), F1 + 0.00099, F1 + 0.00101, 0, "0.26995 vs 0.26894"),
    _case(ref.floor_checks, FLOOR, ("floors", 0.1), F01 - 0.00099, F01 - 0.00101, 0, "0.47401 vs 0.47502"),
    # ≤ 1e-6, ≤ 1e-8 (inclusive)
    _case(ref.projection_checks, PROJECTION, "expansion", 1e-6, 1.01e-6, 0, "measured 1.01e-06"),
    _case(ref.projection_checks, PROJECTION, "variational", 1e-8, 1.01e-8, 1, "1.01e-08"),
    # ≤ 0 (inclusive, −0.0 too); the smallest positive float fails
    _case(ref.feasibility_checks, FEASIBILITY, ("violations", "1-D quadratic"), -0.0, 5e-324, 0, "4.94e-324"),
    _case(ref.feasibility_checks, FEASIBILITY, ("violations", "2-D logistic"), 0.0, 1e-12, 1, "1e-12"),
    # |p − q/2| ≤ 1e-3: 1.001 − 1 is just below 1e-3 in floats, the next float just above
    _case(ref.calibration_checks, CALIBRATION, ("optimal_p", 2.0), 1.001, math.nextafter(1.001, 2), 0,
          "1.00100 (q = 2)"),
    _case(ref.calibration_checks, CALIBRATION, ("optimal_p", 4.0), 1.9991, 1.9989, 0, "1.99890 (q = 4)"),
    # ≤ 3 % (inclusive)
    _case(ref.calibration_checks, CALIBRATION, "energy_error", 0.03, 0.0301, 1, "relative error 0.0301"),
    # Spearman ≤ −0.95 (inclusive)
    _case(ref.tradeoff_checks, TRADEOFF, ("spearman", 2.0), -0.95, -0.949, 0, "-0.949 (q = 2)"),
    # slopes in [−1.15, −0.6] (inclusive both ends), in [−1.1, −0.9] at q = 4
    _case(ref.tradeoff_checks, TRADEOFF, ("slopes", 1.5), -1.15, -1.151, 1, "-1.151 (q = 1.5)"),
    _case(ref.tradeoff_checks, TRADEOFF, ("slopes", 4.0), -0.9, -0.899, 1, "-0.899 (q = 4)"),
    _case(ref.tradeoff_checks, TRADEOFF, ("slopes", 4.0), -1.1, -1.101, 1, "-1.101 (q = 4)"),
    # at least 0.15 steeper than the bound (the range implies it at −0.4, so probe against a bound of −0.5)
    _case(ref.tradeoff_checks, {**TRADEOFF, "bound_slope": -0.5}, ("slopes", 2.0), -0.651, -0.649, 2,
          "-0.649 (q = 2)"),
    # the RMS ratio at ε = 1000 in [0.85, 1.15] (inclusive); below 0.8 in the middle (strict)
    _case(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (2.0, 1000.0)), 0.85, 0.849, 3, "0.849 (q = 2"),
    _case(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (4.0, 1000.0)), 1.15, 1.151, 3, "1.151 (q = 4"),
    _case(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (2.0, 10.0)), 0.799, 0.8, 4, "0.800 (q = 2"),
    # the order in q is strict: a tie fails
    _case(ref.tradeoff_checks, TRADEOFF, ("error_at_10", 4.0), 0.0309, 0.031, 5, "0.031 (q = 4)"),
    _case(ref.tradeoff_checks, TRADEOFF, ("error_at_10", 1.5), 0.0311, 0.031, 5, "0.031 (q = 1.5)"),
    # saturation ≥ 0.2 (inclusive)
    _case(ref.tradeoff_checks, TRADEOFF, "error_at_smallest", 0.2, 0.199, 6, "smallest 0.199"),
    # the logistic bias below 5e-4 (strict)
    _case(ref.truncation_checks, TRUNCATION, ("bias", "logistic"), 4.99e-4, 5e-4, 0, "measured 0.0005"),
    # [0.01, 0.08] and [5, 15] (inclusive both ends)
    _case(ref.case_study_checks, CASE_HIGH, "error_1", 0.08, 0.0801, 0, "measured 0.0801"),
    _case(ref.case_study_checks, CASE_LOW, "error_1", 0.01, 0.0099, 0, "measured 0.0099"),
    _case(ref.case_study_checks, CASE, "error_10", 0.029 / 15, 0.029 / 15.01, 1, "= 15.01"),
    _case(ref.case_study_checks, CASE, "error_10", 0.0058, 0.00581, 1, "= 4.991"),
    # ≤ 1e-3 (inclusive)
    _case(ref.dgd_checks, DGD, "consensus", 1e-3, 1.01e-3, 0, "measured 0.00101"),
    # ≥ 5e-3 (inclusive); < 1e-3 (strict)
    _case(ref.huang_floor_checks, HUANG, "floor_short", 5e-3, 4.99e-3, 0, "floor 0.00499"),
    _case(ref.huang_floor_checks, HUANG, "floor_long", 0.99e-3, 1e-3, 1, "floor 0.001"),
    # ≥ 5 at K = 100 (inclusive), and strictly above the value at K = 10 (a tie fails)
    _case(ref.impossibility_checks, IMPOSSIBILITY, "log_ratio_100", 5.0, 4.99, 0, "4.99 at K = 100"),
    _case(ref.impossibility_checks, IMPOSSIBILITY, "log_ratio_10", 8.29, 8.3, 0, "8.30 at K = 10"),
    # < 1 % (strict)
    _case(ref.record_checks, RECORD, "relative_change", 0.0099, 0.01, 0, "measured 0.01"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    expected = [c.name for c in fn(**base)]
    just_in = _wf(fn(**inside))
    assert _failing(just_in) == [] and [c.name for c in just_in] == expected
    just_out = _wf(fn(**outside))
    assert [c.name for c in just_out] == expected, "moving a value must not change which checks are made"
    assert _failing(just_out) == [index]
    assert shown in just_out[index].detail, just_out[index].detail


def _nan(fn, base, key, failing, id):
    return pytest.param(fn, _set(base, key, NAN), failing, id=id)


# (function, inputs with one value nan, the checks that must fail)
NANS = [
    _nan(ref.floor_checks, FLOOR, ("floors", 0.5), [0], "floor"),
    _nan(ref.projection_checks, PROJECTION, "expansion", [0], "projection-expansion"),
    _nan(ref.projection_checks, PROJECTION, "variational", [1], "projection-variational"),
    _nan(ref.feasibility_checks, FEASIBILITY, ("violations", "2-D logistic"), [1], "feasibility-2d"),
    _nan(ref.calibration_checks, CALIBRATION, ("optimal_p", 3.0), [0], "calibration-optimal-p"),
    _nan(ref.calibration_checks, CALIBRATION, "energy_error", [1], "calibration-energy"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("spearman", 4.0), [0], "tradeoff-spearman"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("slopes", 2.0), [1, 2], "tradeoff-one-slope"),
    _nan(ref.tradeoff_checks, TRADEOFF, "bound_slope", [2], "tradeoff-bound-slope"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (4.0, 1000.0)), [3], "tradeoff-linear"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("linear_ratio", (2.0, 10.0)), [4], "tradeoff-denoising"),
    _nan(ref.tradeoff_checks, TRADEOFF, ("error_at_10", 2.0), [5], "tradeoff-order"),
    _nan(ref.truncation_checks, TRUNCATION, ("bias", "logistic"), [0], "truncation"),
    _nan(ref.case_study_checks, CASE, "error_1", [0, 1], "case-error-1"),
    _nan(ref.case_study_checks, CASE, "error_10", [1], "case-error-10"),
    _nan(ref.dgd_checks, DGD, "consensus", [0], "dgd"),
    _nan(ref.huang_floor_checks, HUANG, "floor_short", [0], "huang-short"),
    _nan(ref.huang_floor_checks, HUANG, "floor_long", [1], "huang-long"),
    _nan(ref.impossibility_checks, IMPOSSIBILITY, "log_ratio_100", [0], "impossibility"),
    _nan(ref.record_checks, RECORD, "relative_change", [0], "record"),
]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    checks = _wf(fn(**inputs))
    assert _failing(checks) == failing


@pytest.mark.parametrize(
    ("fn", "base", "key", "index"),
    [
        pytest.param(ref.huang_floor_checks, HUANG, "floor_short", 0, id="floor-short"),
        pytest.param(ref.impossibility_checks, IMPOSSIBILITY, "log_ratio_100", 0, id="impossibility"),
        pytest.param(ref.tradeoff_checks, TRADEOFF, "error_at_smallest", 6, id="saturation"),
        pytest.param(ref.dgd_checks, DGD, "consensus", 0, id="consensus"),
    ],
)
def test_infinity_fails_one_sided_claims(fn, base, key, index):
    """An infinite value is not a measurement: it fails an "at least" claim as it fails an "at most" one."""
    assert _failing(fn(**_set(base, key, INF))) == [index]


def test_the_trade_off_checks_are_undefined_where_the_grid_cannot_decide_them():
    """ε = 10⁵ and 10⁶ only: no slope window, no ε = 10, no ε = 0.1, no ratio compared. Every check is
    still recorded under its name (the chapter's badges need them), undefined, with the reason."""
    checks = _wf(ref.tradeoff_checks({2.0: -1.0}, {2.0: NAN}, -0.4, {}, {}, NAN))
    assert [c.name for c in checks] == next(p.values[2] for p in BASES if p.id == "tradeoff")
    assert _failing(checks) == [] and _undefined(checks) == [1, 2, 3, 4, 5, 6]
    assert all(c.detail.startswith("undefined: ") for c in checks[1:])
    assert "[10, 1000]" in checks[1].detail
    # one q: no order to check
    assert ref.tradeoff_checks({2.0: -1.0}, {2.0: -0.8}, -0.4, {}, {2.0: 0.03}, 0.5)[5].passed is None


def test_other_degenerate_inputs_are_undefined_not_errors():
    assert ref.floor_checks({})[0].passed is None
    assert ref.calibration_checks({}, 0.01)[0].passed is None
    assert ref.tradeoff_checks({}, {}, -0.4, {}, {}, NAN)[0].passed is None
    # a q other than 4 gets the wide slope range
    assert ref.tradeoff_checks({3.0: -1.0}, {3.0: -0.65}, -0.4, {}, {}, NAN)[1].passed is True
    assert ref.tradeoff_checks({4.0: -1.0}, {4.0: -0.65}, -0.4, {}, {}, NAN)[1].passed is False


def test_the_order_in_q_follows_the_run_s_q():
    """Strictly smaller errors for larger q, whatever the run's q; the detail lists the largest q first."""
    check = ref.tradeoff_checks({}, {}, -0.4, {}, {1.2: 0.09, 8.0: 0.001, 3.0: 0.02}, NAN)[5]
    assert check.passed is True and check.detail == "0.001 (q = 8) < 0.02 (q = 3) < 0.09 (q = 1.2)"
    reversed_order = ref.tradeoff_checks({}, {}, -0.4, {}, {1.5: 0.0088, 2.0: 0.031, 4.0: 0.040}, NAN)[5]
    assert reversed_order.passed is False


def test_the_checks_discriminate_the_laws_the_notes_contrast():
    # the bound's exponent −2/(d+4) as the measured slope fails both slope checks; the linear law −1 passes
    bound_law = ref.tradeoff_checks(**_set(TRADEOFF, ("slopes", 2.0), -0.4))
    assert _failing(bound_law) == [1, 2]
    assert _failing(ref.tradeoff_checks(**{**TRADEOFF, "slopes": {1.5: -1.0, 2.0: -1.0, 4.0: -1.0}})) == []
    # no denoising (RMS equal to the linear prediction at ε = 10) fails
    assert _failing(ref.tradeoff_checks(**_set(TRADEOFF, ("linear_ratio", (2.0, 10.0)), 1.0))) == [4]
    # a decade of ε divides the error by 10 under the linear law (passes), by 10^(1/3) under the bound's
    # exponent in 2-D (fails), by 100 under an O(1/ε²) law (fails)
    assert _failing(ref.case_study_checks(0.029, 0.0029)) == []
    assert _failing(ref.case_study_checks(0.029, 0.029 / 10 ** (1 / 3))) == [1]
    assert _failing(ref.case_study_checks(0.029, 0.00029)) == [1]
    # the two schedules' floors swapped fail both
    assert _failing(ref.huang_floor_checks(2e-4, 0.013)) == [0, 1]
    # a log-ratio held at an ε-DP bound (no growth with K) fails
    assert _failing(ref.impossibility_checks(1.5, 1.5)) == [0]
    # the slide's (e^ε − 1)/(e^{2ε} − 1) is the same floor; the 2ε (group) floor 1/(1 + e^{2ε}) is not
    slide = {e: (math.exp(e) - 1) / (math.exp(2 * e) - 1) for e in FLOOR_EPS}
    assert _failing(ref.floor_checks(slide)) == []
    assert _failing(ref.floor_checks({e: _floor(2 * e) for e in FLOOR_EPS})) == [0]


def test_a_zero_or_negative_error_at_10_makes_an_infinite_ratio():
    for error_10 in (0.0, -0.0033):
        checks = _wf(ref.case_study_checks(0.029, error_10))
        assert _failing(checks) == [1] and checks[1].detail == "error(1)/error(10) = inf"


def test_numpy_scalars_give_the_same_checks():
    def to_numpy(value):
        if isinstance(value, dict):
            return {k: to_numpy(v) for k, v in value.items()}
        return np.float64(value) if isinstance(value, float) else value

    for p in BASES:
        fn, base = p.values[0], p.values[1]
        checks = _wf(fn(**{k: to_numpy(v) for k, v in base.items()}))
        assert [(c.claim, bool(c.passed), c.detail, c.name, c.against) for c in checks] == fn(**base)


def test_claims_and_details_carry_the_numbers():
    (floor,) = ref.floor_checks(**FLOOR)
    assert floor.detail == (
        "ε = 0.1: 0.47502 vs 0.47502; ε = 0.5: 0.37754 vs 0.37754; ε = 1: 0.26894 vs 0.26894; "
        "ε = 2: 0.11920 vs 0.11920"
    )
    cal = ref.calibration_checks(**CALIBRATION)
    assert cal[0].detail == "p* = 0.75000 (q = 1.5), 1.00000 (q = 2), 1.50000 (q = 3), 2.00000 (q = 4)"
    assert "3%" in cal[1].claim and cal[1].detail == "relative error 0.0103"
    trade = ref.tradeoff_checks(**TRADEOFF)
    assert trade[1].detail == trade[2].detail == "slope = -0.710 (q = 1.5), -0.810 (q = 2), -0.990 (q = 4)"
    assert "[-1.15, -0.6]" in trade[1].claim and "[-1.1, -0.9] at q = 4" in trade[1].claim
    assert "-0.40" in trade[2].claim
    assert trade[3].detail == "1.000 (q = 2, ε = 1000), 1.030 (q = 4, ε = 1000)"
    assert trade[4].detail == "0.440 (q = 2, ε = 10)"
    assert trade[5].detail == "0.0088 (q = 4) < 0.031 (q = 2) < 0.04 (q = 1.5)"
    assert trade[6].detail == "smallest 0.5"
    assert [c.detail for c in ref.case_study_checks(**CASE)] == ["measured 0.029", "error(1)/error(10) = 8.6"]
    assert ref.truncation_checks(**TRUNCATION)[0].detail == "measured 0.00022"
    assert [c.detail for c in ref.huang_floor_checks(**HUANG)] == ["floor 0.013", "floor 0.0002"]
    assert ref.impossibility_checks(**IMPOSSIBILITY)[0].detail == "1.50 at K = 10, 8.30 at K = 100"
    assert ref.record_checks(**RECORD)[0].detail == "measured 0.00602"


def test_the_tolerances_are_unchanged():
    """The numbers the checks and the identity tests use stay as they were when the chapter was rewritten."""
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
    """The table is γ = √ζ(2(q − p))/ε at ε = 1 to its 7 digits."""
    for (q, p), expected in ref.GAMMA_VALUES.items():
        assert abs(math.sqrt(special.zeta(2 * (q - p))) - expected) <= 5e-7


def test_the_librarys_numerical_floor_passes():
    from dpnet import funcpert as fp

    floors = {e: fp.error_rate_floor(e) for e in FLOOR_EPS}
    assert _failing(ref.floor_checks(floors)) == []
    assert all(abs(f - _floor(e)) <= 1e-5 for e, f in floors.items())
    assert _failing(ref.floor_checks({1000.0: 0.0})) == [], "no overflow at a large ε"
