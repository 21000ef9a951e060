"""Paper 003, Theorem 4.7 (Chapter 5): the horizon against the privacy sweep's runs, its checks (the
promise, the smallest budget, the order in 1/ε, the horizon of the proof's own steps), undecided on empty
sets, able to fail, and the exercise on small budgets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special
from small import kl_bernoulli, params, small

from dpnet import inference as inf
from dpnet import reference
from dpnet.chapters.online_learning import (
    p003_sec4_3,
    p003_sec4_3_convergence,
    p003_sec4_3_mixing,
    p003_sec4_3_signals,
    p003_thm4_7,
)
from dpnet.inference.online import reach_interval
from dpnet.params import Cost, Parameters
from dpnet.results import RECORDED


def theorem_of(P: Parameters) -> tuple[p003_sec4_3.PrivacySweep, p003_thm4_7.Theorem47]:
    sig = p003_sec4_3_signals.signals(P)
    sweep = p003_sec4_3.privacy_sweep(P, sig, p003_sec4_3_convergence.convergence(P, sig))
    return sweep, p003_thm4_7.theorem_4_7(P, sig, sweep)


def test_theorem_4_7_horizons_are_eq_ol_horizon_and_read_the_sweep() -> None:
    P = small("online-learning", horizon=400)
    sig = p003_sec4_3_signals.signals(P)
    sweep, thm = theorem_of(P)
    n, m, eta = 4, 3, P.eta
    Q, gap = special.logit(0.8) / 2, 2 * kl_bernoulli(0.5, 0.8)
    steps = thm.table[p003_thm4_7.STEPS]
    for e, h, h_steps in zip(sweep.eps, thm.table["T of Thm 4.7"], steps, strict=True):
        V = n * math.sqrt(2) * (0.0 if e is None else special.logit(0.8) * m / e)
        v_prime = math.sqrt(2) / n * (n * Q + V) * 1.0  # ξ = 1, Ξ = 0
        assert h == math.ceil((math.log(m) + m * v_prime / (2 * eta * (1 - sig.b_star))) / (gap / n))
        own = (math.log(m) + m * v_prime * ((n - 1) / (1 - sig.b_star) + 1) / eta) / (gap / n)
        assert h_steps == math.ceil(own)
    assert thm.horizon_exponent == pytest.approx(
        math.log(sweep.horizons[1] / sweep.horizons[2]) / math.log(10), rel=1e-12
    )
    times = list(sweep.times)
    for s, row in thm.table.iterrows():
        if row["T of Thm 4.7"] <= P.horizon:
            j = times.index(row["T of Thm 4.7"])
            assert (row["P at that T"], row["s.e."]) == (sweep.probability[s, j], sweep.se[s, j])
        else:
            assert math.isnan(row["P at that T"])
        reach = inf.first_reach(sweep.probability[s], times, 1 - 2 * eta)
        assert (reach is None and math.isnan(row["first T with P ≥ 1 − 2η"])) or (
            row["first T with P ≥ 1 − 2η"] == reach
        )
        band = reach_interval(sweep.probability[s], sweep.se[s], times, 1 - 2 * eta)
        columns = (row[p003_sec4_3_mixing.EARLIEST], row[p003_sec4_3_mixing.LATEST])
        assert all((b is None and math.isnan(c)) or b == c for b, c in zip(band, columns, strict=True))
    names = [c.name for c in thm.checks["p003-thm4-7"]]
    assert names == ["promise", "below-promise", "epsilon-order", "lln-order", "steps-ample"]
    low, high = thm.steps_factor
    assert 2 * (n - sig.b_star) * 0.9 < low <= high < 2 * (n - sig.b_star)  # the log|Θ| term dilutes it
    assert all(hasattr(thm, name) for name in RECORDED) and thm.deviations == () and thm.metrics() == {}
    assert list(thm.tables()) == ["p003-thm4-7"]
    assert p003_thm4_7.cost(dict(P)) == Cost()


def test_the_promise_is_undecided_when_no_horizon_falls_inside_the_run() -> None:
    """With ten periods no horizon lies inside: the promise is undecided (every() on an empty set), not
    passed, and so are the statements about the smallest budget and the order in 1/ε."""
    sweep, thm = theorem_of(small("online-learning", horizon=10))
    assert all(h > 10 for h in sweep.horizons)
    run, p, se = thm.lowest_at_horizon
    assert run is None and math.isnan(p) and math.isnan(se)
    checks = {c.name: c for c in thm.checks["p003-thm4-7"]}
    assert checks["promise"].passed is None
    assert checks["promise"].detail == "undefined: no horizon inside the simulated periods"
    assert checks["below-promise"].passed is None and checks["epsilon-order"].passed is None
    assert checks["lln-order"].passed is None and checks["lln-order"].detail.startswith("undefined")
    assert math.isnan(thm.exponent) and math.isnan(thm.predicted_need(0.5))


def test_theorem47_checks_can_fail() -> None:
    checks = reference.online.theorem47_checks
    good = checks(at_horizon={"no DP": (1.0, 0.0), "ε = 0.5": (0.91, 0.02)}, eta=0.05, smallest="ε = 0.5",
                  exponent=1.0, exponent_se=0.07, budgets=3)  # fmt: skip
    assert [c.passed for c in good] == [True, False, True, False]  # an exponent of 1: not the LLN's 2
    bad = checks(at_horizon={"no DP": (1.0, 0.0), "ε = 0.25": (0.82, 0.027)}, eta=0.05, smallest="ε = 0.25",
                 exponent=1.96, exponent_se=0.07, budgets=4)  # fmt: skip
    assert [c.passed for c in bad] == [False, True, False, True]
    beyond = checks(at_horizon={"no DP": (1.0, 0.0)}, eta=0.05, smallest="ε = 0.25", exponent=math.nan,
                    exponent_se=math.nan, budgets=1)  # fmt: skip
    assert [c.passed for c in beyond] == [True, None, None, None]
    assert "beyond the simulated periods" in beyond[1].detail and "fewer than two" in beyond[2].detail
    assert "incomplete" in beyond[3].detail
    # a steep exponent far from 2 beyond its error fails too; an incomplete interval is undecided
    steep = checks(at_horizon={}, eta=0.05, smallest="ε = 1", exponent=2.6, exponent_se=0.1, budgets=3)
    assert steep[3].passed is False
    no_error = checks(
        at_horizon={}, eta=0.05, smallest="ε = 1", exponent=2.0, exponent_se=math.nan, budgets=3
    )
    assert no_error[3].passed is None


def test_exponent_se_propagates_the_crossing_intervals() -> None:
    """Each crossing interval spans ±2 standard errors of log T; the slope's error is their weighted sum."""
    eps = [0.5, 1.0, 2.0, 5.0]
    early, late = [4647.0, 1018.0, 297.0, 54.0], [8210.0, 2175.0, 576.0, 71.0]
    x = np.log(1 / np.asarray(eps))
    c = (x - x.mean()) / np.sum((x - x.mean()) ** 2)
    sd = (np.log(late) - np.log(early)) / 4
    assert p003_thm4_7.exponent_se(eps, early, late) == pytest.approx(
        np.sqrt(np.sum(c**2 * sd**2)), rel=1e-12
    )
    assert p003_thm4_7.exponent_se(eps, early, early) == 0.0
    assert math.isnan(p003_thm4_7.exponent_se(eps, early, [*late[:3], math.nan]))
    assert math.isnan(p003_thm4_7.exponent_se([1.0], [5.0], [6.0]))


def test_order_in_eps_fits_a_power_law() -> None:
    eps = [0.5, 1.0, 2.0, 5.0]
    assert p003_thm4_7.order_in_eps(eps, [7.0 / e**2 for e in eps]) == pytest.approx(2.0, rel=1e-12)
    assert p003_thm4_7.order_in_eps(eps, [7.0 / e for e in eps]) == pytest.approx(1.0, rel=1e-12)
    assert math.isnan(p003_thm4_7.order_in_eps([1.0], [5.0]))
    fit = p003_thm4_7.fit_in_eps(eps, [7.0 / e**2 for e in eps])
    assert p003_thm4_7.predicted_periods(fit, 0.1) == pytest.approx(700.0, rel=1e-10)
    assert math.isnan(p003_thm4_7.predicted_periods(fit, None))
    assert math.isnan(p003_thm4_7.predicted_periods(p003_thm4_7.fit_in_eps([1.0], [5.0]), 0.1))


def test_steps_check_can_fail_and_is_undecided_without_a_need() -> None:
    """The horizon of the proof's own steps against the periods needed: measured (≤) or predicted (≈)."""
    check = reference.online.proof_steps_checks
    ok = check([("no DP", 5875.0, 11.0, True), ("ε = 0.25", 204926.0, 24000.0, False)])[0]
    assert ok.passed is True and "needed ≤ 11" in ok.detail and "needed ≈ 24000" in ok.detail
    assert check([("ε = 0.25", 10371.0, 24000.0, False)])[0].passed is False
    assert check([("ε = 0.5", 5339.0, 6177.0, True)])[0].passed is False
    for empty in ([], [("ε = 0.25", 204926.0, math.nan, False)]):
        undecided = check(empty)[0]
        assert undecided.passed is None and undecided.detail.startswith("undefined")


def test_exercise_small_budget_breaks_the_promise() -> None:
    """Exercise ex-ol-small-eps: re-run with ε ∈ {0.1, 1} and 26,000 periods (quick mode). The solution
    states that the promise badge shows ✗, from the row of ε = 0.1, that the probability at the horizon
    of ε = 0.1 falls to about 0.6, far below 1 − 2η = 0.9, that ε = 0.1 does not reach 1 − 2η within the
    run, and that the horizon of the proof's own steps, about 500,000 periods, is still longer than the
    runs need there (the default run's fitted law predicts beyond 26,000; the promise is ✓ in quick mode
    at the defaults)."""
    P = params("online-learning", mode="quick", eps_values=[0.1, 1.0], horizon=26000)
    sig = p003_sec4_3_signals.signals(P)
    assert sig.scale(0.1) == pytest.approx(41.6, abs=0.05)
    assert 25_000 < sig.horizon(0.1) < 26_000 and sig.horizon(0.1) < 2.5 * sig.horizon(0.25)
    steps = sig.horizon(0.1, version="003-steps")
    assert 480_000 < steps < 520_000 and steps / sig.horizon(0.1) == pytest.approx(19.8, abs=0.1)
    _, thm = theorem_of(P)
    checks = {c.name: c for c in thm.checks["p003-thm4-7"]}
    assert checks["promise"].passed is False and "ε = 0.1: P = 0." in checks["promise"].detail
    row = thm.table.set_index("ε").loc["0.1"]
    assert 0.45 < row["P at that T"] < 0.75
    assert math.isnan(row["first T with P ≥ 1 − 2η"])
    assert np.isfinite(thm.table.set_index("ε").loc["1", "first T with P ≥ 1 − 2η"])


def test_exercise_small_budget_defaults_in_quick_mode() -> None:
    """The same solution's claims about the default run in quick mode: the promise is ✓ there, and the fitted
    law predicts more than 26,000 periods at ε = 0.1, fewer than the horizon of the proof's own steps."""
    P = params("online-learning", mode="quick")
    sig = p003_sec4_3_signals.signals(P)
    _, thm = theorem_of(P)
    checks = {c.name: c.passed for c in thm.checks["p003-thm4-7"]}
    assert checks["promise"] is True and checks["steps-ample"] is True
    assert 26_000 < thm.predicted_need(0.1) < sig.horizon(0.1, version="003-steps")
