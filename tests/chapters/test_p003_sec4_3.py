"""Paper 003, §4.3 (Chapter 5): the privacy sweep's horizons and identification rates against their
formulas and the same streams, and the §4.3 checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special
from small import kl_bernoulli, small

from dpnet import inference as inf
from dpnet import reference
from dpnet.chapters.online_learning import p003_sec4_3, p003_sec4_3_convergence, p003_sec4_3_signals
from dpnet.inference.signals import BLOCK
from dpnet.params import Parameters
from dpnet.results import RECORDED


def sweep_of(P: Parameters) -> p003_sec4_3.PrivacySweep:
    sig = p003_sec4_3_signals.signals(P)
    return p003_sec4_3.privacy_sweep(P, sig, p003_sec4_3_convergence.convergence(P, sig))


def test_privacy_sweep_horizons_are_eq_ol_horizon_and_rates_recompute() -> None:
    P = small("online-learning")
    sig = p003_sec4_3_signals.signals(P)
    sweep = sweep_of(P)
    n, m, eta = 4, 3, P.eta
    Q, gap = special.logit(0.8) / 2, 2 * kl_bernoulli(0.5, 0.8)
    for e, h in zip(sweep.eps, sweep.horizons, strict=True):
        V = n * math.sqrt(2) * (0.0 if e is None else special.logit(0.8) * m / e)
        v_prime = math.sqrt(2) / n * (n * Q + V) * 1.0  # ξ = 1, Ξ = 0
        assert h == pytest.approx((math.log(m) + m * v_prime / (2 * eta * (1 - sig.b_star))) / (gap / n))
    assert sweep.slope == pytest.approx(math.log(sweep.horizons[1] / sweep.horizons[2]) / math.log(10))
    # the identification rate, by hand from the same stream: strict argmax θ°, mean over agents then runs
    scales = [sig.scale(e) for e in sweep.eps]
    psi = inf.simulate_online(P.rng("p003-sec4-3"), sig.bernoulli, sig.weights, xi=1.0, T=P.horizon,
                              n_reps=P.replications, noise_scales=scales, times=sweep.times)  # fmt: skip
    hits = (psi[..., 0] > psi[..., 1:].max(axis=-1)).mean(axis=-1)  # (ε, runs, times)
    np.testing.assert_allclose(sweep.probability, hits.mean(axis=1), rtol=1e-14)
    np.testing.assert_allclose(sweep.se, hits.std(axis=1, ddof=1) / math.sqrt(P.replications), rtol=1e-12)
    inside = sweep.table.dropna(subset=["P at that T"])
    for _, row in inside.iterrows():
        s, j = sweep.labels.index(row["ε"]), list(sweep.times).index(row["T of Thm 4.7"])
        assert row["P at that T"] == sweep.probability[s, j]
    assert [c.name for c in sweep.checks["p003-sec4-3"]] == ["limit", "monotone", "theorem-4-7"]
    assert all(hasattr(sweep, name) for name in RECORDED) and sweep.deviations == ()
    assert list(sweep.tables()) == ["p003-sec4-3", "p003-sec4-3-horizons"]


def test_lowest_at_horizon_is_undefined_without_a_horizon_inside() -> None:
    sweep = sweep_of(small("online-learning", horizon=10))
    run, p = sweep.lowest_at_horizon
    assert run is None and math.isnan(p)
    assert sweep.checks["p003-sec4-3"][2].detail == "no horizon inside T"


def test_section43_checks_can_fail() -> None:
    prob = np.array([[0.3, 0.6, 0.95], [0.2, 0.4, 0.8]])
    se = np.full_like(prob, 0.01)
    common = dict(limit_T=100, prob=prob, se=se, times=[1, 10, 100], labels=["1", "0.5"], n_agents=10,
                  n_reps=100, eta=0.05)  # fmt: skip
    at = {"1": (0.95, 0.01)}
    good = reference.online.section43_checks(limit_gap=0.005, limit_se=0.001, at_horizon=at, **common)
    assert all(c.passed for c in good)
    worse = prob.copy()
    worse[1, 2] = 0.3  # a drop of 0.1 at ε = 0.5
    bad = reference.online.section43_checks(limit_gap=0.02, limit_se=0.001, at_horizon={"0.5": (0.85, 0.01)},
                                            **{**common, "prob": worse})  # fmt: skip
    assert not any(c.passed for c in bad)
    assert reference.online.below_guarantee(0.85, 0.02, 0.05) and not reference.online.below_guarantee(
        0.88, 0.02, 0.05
    )


def test_p003_sec4_3_cost_holds_the_sweeps_log_beliefs() -> None:
    values = dict(small("online-learning"))
    n, m, R, T, S = 4, 3, 20, 60, 3
    cost = p003_sec4_3.cost(values)
    assert cost.seconds == pytest.approx(n * m * S * R * T * 1e-7 * (1 + n / 25) + T * 5e-5, rel=1e-12)
    assert cost.peak == 8 * n * m * R * S * (50 + 4 * BLOCK) and cost.kept == 0
