"""Paper 004, E3 (:mod:`dpnet.chapters.functional_perturbation.p004_e3`): the 1-D trade-off, its sweep's
streams, its identities, and its checks (:func:`dpnet.reference.funcpert.tradeoff_checks`): they pass on
the values the derivations and the book's predictions give (slopes −0.71/−0.81/−0.99, RMS ratios
0.44/1.00/1.03, errors 0.0088 < 0.031 < 0.040 at ε = 10), each flips alone just outside its range, nan
and ∞ fail the claim they feed, and a claim the grid cannot decide is undefined but still recorded under
its name."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from check_cases import assert_all_pass_by_name, assert_flips_alone_by_name, assert_nan_fails_by_name
from check_cases import case as _case
from check_cases import nan_case_by_name as _nan
from check_cases import refuted as _failing
from check_cases import undefined as _undefined
from check_cases import well_formed_or_undefined as _wf
from check_cases import with_input as _set
from small import small

from dpnet import reference as ref
from dpnet.chapters.functional_perturbation import p004_e3
from dpnet.funcpert import poly_argmin, tradeoff_errors

NAN, INF = math.nan, math.inf
CHAPTER = "functional-perturbation"

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
NAMES = ["falls-with-eps", "slope-range", "steeper-than-bound", "linear-regime", "denoising", "order-in-q",
         "saturation"]  # fmt: skip

# (function, base, their names in order)
BASES = [pytest.param(ref.funcpert.tradeoff_checks, TRADEOFF, NAMES, id="tradeoff")]


@pytest.mark.parametrize(("fn", "base", "names"), BASES)
def test_every_check_passes_on_the_reference_values(fn, base, names):
    assert_all_pass_by_name(fn, base, names)


TRADE = ref.funcpert.tradeoff_checks
# (function, base, input, value just inside, just outside, the one claim that flips, what its detail shows)
BOUNDARIES = [
    # Spearman ≤ −0.95 (inclusive)
    _case(TRADE, TRADEOFF, ("spearman", 2.0), -0.95, -0.949, 0, "-0.949 (q = 2)"),
    # slopes in [−1.15, −0.6] (inclusive both ends), in [−1.1, −0.9] at q = 4
    _case(TRADE, TRADEOFF, ("slopes", 1.5), -1.15, -1.151, 1, "-1.151 (q = 1.5)"),
    _case(TRADE, TRADEOFF, ("slopes", 4.0), -0.9, -0.899, 1, "-0.899 (q = 4)"),
    _case(TRADE, TRADEOFF, ("slopes", 4.0), -1.1, -1.101, 1, "-1.101 (q = 4)"),
    # at least 0.15 steeper than the bound (the range implies it at −0.4, so probe against a bound of −0.5)
    _case(TRADE, {**TRADEOFF, "bound_slope": -0.5}, ("slopes", 2.0), -0.651, -0.649, 2, "-0.649 (q = 2)"),
    # the RMS ratio at ε = 1000 in [0.85, 1.15] (inclusive); below 0.8 in the middle (strict)
    _case(TRADE, TRADEOFF, ("linear_ratio", (2.0, 1000.0)), 0.85, 0.849, 3, "0.849 (q = 2"),
    _case(TRADE, TRADEOFF, ("linear_ratio", (4.0, 1000.0)), 1.15, 1.151, 3, "1.151 (q = 4"),
    _case(TRADE, TRADEOFF, ("linear_ratio", (2.0, 10.0)), 0.799, 0.8, 4, "0.800 (q = 2"),
    # the order in q is strict: a tie fails
    _case(TRADE, TRADEOFF, ("error_at_10", 4.0), 0.0309, 0.031, 5, "0.031 (q = 4)"),
    _case(TRADE, TRADEOFF, ("error_at_10", 1.5), 0.0311, 0.031, 5, "0.031 (q = 1.5)"),
    # saturation ≥ 0.2 (inclusive)
    _case(TRADE, TRADEOFF, "error_at_smallest", 0.2, 0.199, 6, "smallest 0.199"),
]


@pytest.mark.parametrize(("fn", "inside", "outside", "base", "index", "shown"), BOUNDARIES)
def test_each_claim_flips_alone_at_its_boundary(fn, inside, outside, base, index, shown):
    assert_flips_alone_by_name(fn, inside, outside, base, index, shown)


# (function, inputs with one value nan, the checks that must fail)
NANS = [
    _nan(TRADE, TRADEOFF, ("spearman", 4.0), [0], "tradeoff-spearman"),
    _nan(TRADE, TRADEOFF, ("slopes", 2.0), [1, 2], "tradeoff-one-slope"),
    _nan(TRADE, TRADEOFF, "bound_slope", [2], "tradeoff-bound-slope"),
    _nan(TRADE, TRADEOFF, ("linear_ratio", (4.0, 1000.0)), [3], "tradeoff-linear"),
    _nan(TRADE, TRADEOFF, ("linear_ratio", (2.0, 10.0)), [4], "tradeoff-denoising"),
    _nan(TRADE, TRADEOFF, ("error_at_10", 2.0), [5], "tradeoff-order"),
]


@pytest.mark.parametrize(("fn", "inputs", "failing"), NANS)
def test_nan_fails_the_claims_it_feeds(fn, inputs, failing):
    assert_nan_fails_by_name(fn, inputs, failing)


@pytest.mark.parametrize(
    ("fn", "base", "key", "index"),
    [pytest.param(TRADE, TRADEOFF, "error_at_smallest", 6, id="saturation")],
)
def test_infinity_fails_one_sided_claims(fn, base, key, index):
    """An infinite value is not a measurement: it fails an "at least" claim as it fails an "at most" one."""
    assert _failing(fn(**_set(base, key, INF))) == [index]


def test_the_trade_off_checks_are_undefined_where_the_grid_cannot_decide_them():
    """ε = 10⁵ and 10⁶ only: no slope window, no ε = 10, no ε = 0.1, no ratio compared. Every check is
    still recorded under its name (the chapter's badges need them), undefined, with the reason."""
    checks = _wf(ref.funcpert.tradeoff_checks({2.0: -1.0}, {2.0: NAN}, -0.4, {}, {}, NAN))
    assert [c.name for c in checks] == next(p.values[2] for p in BASES if p.id == "tradeoff")
    assert _failing(checks) == [] and _undefined(checks) == [1, 2, 3, 4, 5, 6]
    assert all(c.detail.startswith("undefined: ") for c in checks[1:])
    assert "[10, 1000]" in checks[1].detail
    # one q: no order to check
    assert (
        ref.funcpert.tradeoff_checks({2.0: -1.0}, {2.0: -0.8}, -0.4, {}, {2.0: 0.03}, 0.5)[5].passed is None
    )


def test_other_degenerate_trade_off_inputs_are_undefined_not_errors():
    assert ref.funcpert.tradeoff_checks({}, {}, -0.4, {}, {}, NAN)[0].passed is None
    # a q other than 4 gets the wide slope range
    assert ref.funcpert.tradeoff_checks({3.0: -1.0}, {3.0: -0.65}, -0.4, {}, {}, NAN)[1].passed is True
    assert ref.funcpert.tradeoff_checks({4.0: -1.0}, {4.0: -0.65}, -0.4, {}, {}, NAN)[1].passed is False


def test_the_order_in_q_follows_the_run_s_q():
    """Strictly smaller errors for larger q, whatever the run's q; the detail lists the largest q first."""
    check = ref.funcpert.tradeoff_checks({}, {}, -0.4, {}, {1.2: 0.09, 8.0: 0.001, 3.0: 0.02}, NAN)[5]
    assert check.passed is True and check.detail == "0.001 (q = 8) < 0.02 (q = 3) < 0.09 (q = 1.2)"
    reversed_order = ref.funcpert.tradeoff_checks(
        {}, {}, -0.4, {}, {1.5: 0.0088, 2.0: 0.031, 4.0: 0.040}, NAN
    )[5]
    assert reversed_order.passed is False


def test_the_trade_off_checks_discriminate_the_laws_the_notes_contrast():
    # the bound's exponent −2/(d+4) as the measured slope fails both slope checks; the linear law −1 passes
    bound_law = ref.funcpert.tradeoff_checks(**_set(TRADEOFF, ("slopes", 2.0), -0.4))
    assert _failing(bound_law) == [1, 2]
    assert (
        _failing(ref.funcpert.tradeoff_checks(**{**TRADEOFF, "slopes": {1.5: -1.0, 2.0: -1.0, 4.0: -1.0}}))
        == []
    )
    # no denoising (RMS equal to the linear prediction at ε = 10) fails
    assert _failing(ref.funcpert.tradeoff_checks(**_set(TRADEOFF, ("linear_ratio", (2.0, 10.0)), 1.0))) == [4]


def test_the_trade_off_claims_and_details_carry_the_numbers():
    trade = ref.funcpert.tradeoff_checks(**TRADEOFF)
    assert trade[1].detail == trade[2].detail == "slope = -0.710 (q = 1.5), -0.810 (q = 2), -0.990 (q = 4)"
    assert "[-1.15, -0.6]" in trade[1].claim and "[-1.1, -0.9] at q = 4" in trade[1].claim
    assert "-0.40" in trade[2].claim
    assert trade[3].detail == "1.000 (q = 2, ε = 1000), 1.030 (q = 4, ε = 1000)"
    assert trade[4].detail == "0.440 (q = 2, ε = 10)"
    assert trade[5].detail == "0.0088 (q = 4) < 0.031 (q = 2) < 0.04 (q = 1.5)"
    assert trade[6].detail == "smallest 0.5"


def test_the_trade_off_sweep_keys_each_cell_by_its_position_in_the_grid() -> None:
    """E3's sweep gives each (q, ε) the child (3, i, j) of the seed, as the list-returning sweep did."""
    from dpnet.chapters import functional_perturbation as chapter
    from dpnet.sweep import run_sweep

    P = small(CHAPTER, q=[2.0, 4.0], eps_values=[1.0, 10.0])
    setup = chapter.problems(P)
    e3 = chapter.tradeoff(P, setup)
    tasks = [(setup.quadratic, q, e, P.runs) for q in P.q for e in P.eps_values]
    keys = [(3, i, j) for i in range(2) for j in range(2)]
    old = run_sweep(tradeoff_errors, tasks, seed=P.seed, keys=keys)
    assert e3.table["mean_error"].tolist() == [float(err.mean()) for err in old]
    assert [(r["q"], r["eps"]) for r in e3.error_rows] == [(q, e) for q in (2.0, 4.0) for e in (1.0, 10.0)]


def test_the_chapter_s_trade_off_holds_its_identities() -> None:
    """E3: no error exceeds diam(X) (both optima lie in X); the quadratics' truncation bias is below 1e-8
    (a quadratic is exact in the basis)."""
    from dpnet.chapters import functional_perturbation as chapter

    P = small(CHAPTER)
    setup = chapter.problems(P)
    e3 = chapter.tradeoff(P, setup)
    assert e3.worst_over_diameter <= 1.0
    quad_ = setup.quadratic
    x_k = poly_argmin(quad_.basis, quad_.coefficients.sum(0), quad_.lower, quad_.upper)
    assert np.linalg.norm(x_k - quad_.x_star) < ref.funcpert.TRUNCATION_BIAS["quadratic"]


def test_the_tables_the_chapter_shows_are_the_trade_off_s_own_numbers() -> None:
    """The mean errors (``p004-e3-mean-error``) pivot the table by ε and q; the slopes (``p004-e3-slopes``)
    stand beside the bound's exponent and the linear law's."""
    table = pd.DataFrame({"problem": ["quadratic"] * 4, "q": [2.0, 2.0, 4.0, 4.0], "eps": [1.0, 10.0] * 2,
                          "mean_error": [0.1, 0.01, 0.05, 0.005],
                          "rms_error": [0.12, 0.012, 0.06, 0.006]})  # fmt: skip
    empty = pd.DataFrame(columns=["q", "eps", "draws", "ratio", "moved", "at_end"])
    e3 = p004_e3.Tradeoff((2.0, 4.0), np.array([1.0, 10.0]), table, {2.0: -0.9, 4.0: NAN}, 2.0, empty, {})
    assert e3.mean_errors.loc[10.0, 4.0] == 0.005 and e3.mean_errors.index.name == "eps"
    assert e3.slope_table["q"].tolist() == [2.0, 4.0]
    assert (e3.slope_table["bound's exponent −2/(d+4)"] == p004_e3.BOUND_SLOPE_1D).all()
    assert e3.slope_range == (-0.9, -0.9)
    assert (e3.metrics(), list(e3.tables()), e3.paper_setting) == (
        {},
        ["fp-tradeoff-1d", "fp-largest-eps"],
        True,
    )
    # no study of a large ε: the shares it measures are undefined, not zero
    assert math.isnan(e3.moved(2.0)) and math.isnan(e3.moved_at_end)


def test_its_cost_is_the_runs_of_its_grid() -> None:
    """``Q·(E + 4)·runs`` runs (the grid and the study of its largest ε) of ``5·10⁻⁴ + 3·10⁻⁵·n·K +
    1.85·10⁻⁵·K²`` seconds, nothing held."""
    values = {
        "n_agents": 10,
        "basis_order": 20,
        "q": [1.5, 2.0],
        "eps_values": [1.0, 10.0, 100.0],
        "runs": 20,
    }
    cost = p004_e3.cost(values)
    assert cost.seconds == pytest.approx(280 * (5e-4 + 3e-5 * 200 + 1.85e-5 * 400), rel=1e-12)
    assert (cost.peak, cost.kept) == (0.0, 0.0)


def test_denoising_is_claimed_on_every_cell_with_q_at_most_2_and_eps_at_most_10_only():
    """Every cell of the set decides it (one above 0.8 fails it); cells outside the set (q = 4, or ε = 100)
    are not claimed, whatever their ratio; an empty set leaves it undecided, not passed."""
    base = {**TRADEOFF, "linear_ratio": {(1.5, 1.0): 0.2, (2.0, 10.0): 0.39, (4.0, 10.0): 1.06,
                                         (2.0, 100.0): 0.87}}  # fmt: skip
    denoising = ref.funcpert.tradeoff_checks(**base)[4]
    assert denoising.passed is True and "q = 4" not in denoising.detail and "ε = 100)" not in denoising.detail
    assert ref.funcpert.tradeoff_checks(**_set(base, ("linear_ratio", (1.5, 1.0)), 0.8))[4].passed is False
    empty = ref.funcpert.tradeoff_checks(**{**TRADEOFF, "linear_ratio": {(4.0, 10.0): 0.5, (2.0, 1e3): 1.0}})
    assert empty[4].passed is None and empty[4].detail.startswith("undefined: no cell with q ≤ 2")


def test_the_linear_regime_is_decided_at_any_large_eps_and_undecided_without_one():
    """The largest ε of a grid need not be 1000: ε = 10⁶ decides it; with no ratio at ε ≥ 1000 it is
    undecided (the study of the largest ε had fewer than 400 draws, or the grid has no large ε)."""
    large = ref.funcpert.tradeoff_checks(**{**TRADEOFF, "linear_ratio": {(2.0, 1e6): 1.02}})[3]
    assert large.passed is True and "ε = 1e+06" in large.detail
    assert ref.funcpert.tradeoff_checks(**{**TRADEOFF, "linear_ratio": {(2.0, 1e6): 0.84}})[3].passed is False
    none = ref.funcpert.tradeoff_checks(**{**TRADEOFF, "linear_ratio": {(2.0, 10.0): 0.3}})[3]
    assert none.passed is None and "400 draws" in none.detail


def test_the_inputs_take_the_denoising_cells_from_the_table_and_the_large_eps_from_the_study():
    """The study's ratio enters only with at least LINEAR_REGIME_RUNS draws; the table's cells with q ≤ 2 and
    ε ≤ 10 all enter, the others not."""
    rows = [{"q": q, "eps": e, "mean_error": 1.0 / e, "rms_error": 0.5, "linearised_rms": 1.0}
            for q in (2.0, 4.0) for e in (1.0, 10.0, 1000.0)]  # fmt: skip
    table = pd.DataFrame(rows)
    study = pd.DataFrame([{"q": 2.0, "eps": 1000.0, "draws": p004_e3.LINEAR_REGIME_RUNS, "ratio": 0.99,
                           "moved": 1.0, "at_end": 1.0},
                          {"q": 4.0, "eps": 1000.0, "draws": p004_e3.LINEAR_REGIME_RUNS - 1, "ratio": 0.5,
                           "moved": 0.1, "at_end": 1.0}])  # fmt: skip
    ratios, _, _ = p004_e3._tradeoff_inputs(table, study)
    assert ratios == {(2.0, 1.0): 0.5, (2.0, 10.0): 0.5, (2.0, 1000.0): 0.99}
