"""Paper 003, §4.3 (Chapter 5): the privacy sweep's identification rates and the noise part of its
time-averaged ratios against the same streams, and the §4.3 checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from small import small

from dpnet import inference as inf
from dpnet import reference
from dpnet.chapters.online_learning import p003_sec4_3, p003_sec4_3_convergence, p003_sec4_3_signals
from dpnet.inference.signals import BLOCK
from dpnet.params import Parameters
from dpnet.results import RECORDED


def sweep_of(P: Parameters) -> p003_sec4_3.PrivacySweep:
    sig = p003_sec4_3_signals.signals(P)
    return p003_sec4_3.privacy_sweep(P, sig, p003_sec4_3_convergence.convergence(P, sig))


def test_privacy_sweep_rates_and_noise_recompute_from_the_same_streams() -> None:
    P = small("online-learning")
    sig = p003_sec4_3_signals.signals(P)
    sweep = sweep_of(P)
    assert sweep.horizons == tuple(sig.horizon(e) for e in sweep.eps)
    # the identification rate, by hand from the same stream: strict argmax θ°, mean over agents then runs
    scales = [sig.scale(e) for e in sweep.eps]
    psi = inf.simulate_online(P.rng("p003-sec4-3"), sig.bernoulli, sig.weights, xi=1.0, T=P.horizon,
                              n_reps=P.replications, noise_scales=scales, times=sweep.times)  # fmt: skip
    hits = (psi[..., 0] > psi[..., 1:].max(axis=-1)).mean(axis=-1)  # (ε, runs, times)
    np.testing.assert_allclose(sweep.probability, hits.mean(axis=1), rtol=1e-14)
    np.testing.assert_allclose(sweep.se, hits.std(axis=1, ddof=1) / math.sqrt(P.replications), rtol=1e-12)
    # the noise part: private minus non-private log-belief ratios, over t, root mean square
    gap = psi[..., 1:] - psi[..., :1]  # (ε, runs, times, n, wrong states)
    noise = (gap[1:] - gap[:1]) / sweep.times[:, None, None]
    np.testing.assert_allclose(sweep.noise, np.sqrt((noise**2).mean(axis=(1, 3, 4))), rtol=1e-12)
    assert sweep.early == sweep.times[np.argmin(np.abs(np.log(sweep.times / (P.horizon / 16))))]
    assert [c.name for c in sweep.checks["p003-sec4-3"]] == ["limit", "monotone", "private-limit"]
    assert all(hasattr(sweep, name) for name in RECORDED) and sweep.deviations == ()
    assert list(sweep.tables()) == ["p003-sec4-3"]
    # the recorded periods: a fine log grid and the horizons inside the run
    inside = [math.ceil(h) for h in sweep.horizons if h <= P.horizon]
    assert set(inside) <= set(sweep.times.tolist()) and len(sweep.times) > 40


def test_section43_checks_can_fail() -> None:
    prob = np.array([[0.3, 0.6, 0.95], [0.2, 0.4, 0.8]])
    se = np.full_like(prob, 0.01)
    common = dict(limit_T=100, prob=prob, se=se, times=[1, 10, 100], labels=["1", "0.5"], n_agents=10,
                  n_reps=100)  # fmt: skip
    near = {"1": (6, 0.4, 100, 0.1, 0.004, 0.003), "0.5": (6, 0.8, 100, 0.2, 0.01, 0.006)}
    good = reference.online.section43_checks(limit_gap=0.005, limit_se=0.001, private=near, **common)
    assert all(c.passed for c in good)
    worse = prob.copy()
    worse[1, 2] = 0.3  # a drop of 0.1 at ε = 0.5
    stays = {
        "1": (6, 0.4, 100, 0.1, 0.004, 0.003),
        "0.5": (6, 0.8, 100, 0.5, 0.01, 0.006),
    }  # falls too little
    bad = reference.online.section43_checks(limit_gap=0.02, limit_se=0.001, private=stays,
                                            **{**common, "prob": worse})  # fmt: skip
    assert not any(c.passed for c in bad)
    # a private average that concentrates, but on another value than the limit, fails §4.3's headline
    elsewhere = {"1": (6, 0.4, 100, 0.1, 0.004, 0.003), "0.5": (6, 0.8, 100, 0.2, 0.2, 0.006)}
    off = reference.online.section43_checks(limit_gap=0.005, limit_se=0.001, private=elsewhere, **common)
    assert [c.passed for c in off] == [True, True, False]


def test_monotone_compares_every_pair_of_periods() -> None:
    """A slow decline, each step within the Monte Carlo error but the whole beyond it, fails the check."""
    slow = np.array([[0.9 - 0.01 * k for k in range(10)]])
    se = np.full_like(slow, 0.005)
    common = dict(limit_gap=0.0, limit_se=0.0, limit_T=10, se=se, times=list(range(1, 11)), labels=["1"],
                  private={}, n_agents=10, n_reps=100)  # fmt: skip
    steps = slow[:, :-1] - slow[:, 1:]
    assert np.all(steps < 3 * np.hypot(0.005, 0.005) + 1 / 1000)  # each step alone is within the error
    checks = reference.online.section43_checks(prob=slow, **common)
    assert (
        checks[1].name == "monotone" and checks[1].passed is False and "T = 1 to T = 10" in checks[1].detail
    )
    flat = reference.online.section43_checks(prob=np.full_like(slow, 0.9), **common)
    assert flat[1].passed is True


def test_section43_checks_are_undecided_on_empty_sets() -> None:
    """A claim about every private ε, or every pair of periods, is no evidence when there is none."""
    prob, se = np.array([[0.3, 0.6]]), np.array([[0.01, 0.01]])
    checks = reference.online.section43_checks(limit_gap=0.0, limit_se=0.0, limit_T=10, prob=prob, se=se,
                                               times=[1, 10], labels=["no DP"], private={}, n_agents=3,
                                               n_reps=20)  # fmt: skip
    limit = checks[2]
    assert limit.name == "private-limit" and limit.passed is None and limit.detail.startswith("undefined")
    one = reference.online.section43_checks(limit_gap=0.0, limit_se=0.0, limit_T=10, prob=prob[:, :1],
                                            se=se[:, :1], times=[10], labels=["no DP"], private={},
                                            n_agents=3, n_reps=20)  # fmt: skip
    assert one[1].passed is None and one[1].detail.startswith("undefined")


def test_limit_approach_measures_the_distance_from_the_closed_form_limit() -> None:
    P = small("online-learning")
    sig = p003_sec4_3_signals.signals(P)
    conv = p003_sec4_3_convergence.convergence(P, sig)
    sweep = p003_sec4_3.privacy_sweep(P, sig, conv)
    scales = [sig.scale(e) for e in sweep.eps]
    psi = inf.simulate_online(P.rng("p003-sec4-3"), sig.bernoulli, sig.weights, xi=1.0, T=P.horizon,
                              n_reps=P.replications, noise_scales=scales, times=sweep.times)  # fmt: skip
    limit = conv.limit_bernoulli
    rms, gap, gse = p003_sec4_3.limit_approach(psi, sweep.times, 0, limit)
    ratio = (psi[1:, ..., 1:] - psi[1:, ..., :1]) / sweep.times[:, None, None]  # (ε, runs, times, n, wrong)
    np.testing.assert_allclose(rms, np.sqrt(((ratio - limit[1:]) ** 2).mean(axis=(1, 3, 4))), rtol=1e-12)
    runs = (ratio[:, :, -1] - limit[1:]).mean(axis=2) / np.abs(limit[1:])  # (ε, runs, wrong)
    worst = np.abs(runs.mean(axis=1)).max(axis=1)
    assert np.all(gap <= worst + 1e-15) and gap.shape == gse.shape == (len(sweep.eps) - 1,)
    # ratios that settle exactly on 1.2 times the limit: off it by a fifth, with no Monte Carlo error
    t = np.arange(1, 11)
    settled = np.zeros((2, 5, 10, 4, 3))
    settled[..., 1:] = 1.2 * limit[1:] * t[:, None, None]
    rms, moved, moved_se = p003_sec4_3.limit_approach(settled, t, 0, limit)
    np.testing.assert_allclose(rms, 0.2 * np.abs(limit[1])), np.testing.assert_allclose(moved, [0.2])
    assert moved_se.tolist() == [0.0]


def test_the_noise_part_falls_like_one_over_root_t() -> None:
    """An identity of any average of independent zero-mean noise, whatever the signals (so a unit test, not
    evidence for §4.3): from about T/16 to T the noise part's root mean square falls about fourfold."""
    P = small("online-learning", horizon=1600, replications=40)
    sweep = sweep_of(P)
    low, high = sweep.noise_fall
    expected = math.sqrt(sweep.times[-1] / sweep.early)
    assert 0.85 * expected < low <= high < 1.3 * expected


def test_p003_sec4_3_cost_holds_the_sweeps_log_beliefs() -> None:
    values = dict(small("online-learning"))
    n, m, R, T, S = 4, 3, 20, 60, 3
    cost = p003_sec4_3.cost(values)
    assert cost.seconds == pytest.approx(n * m * S * R * T * 1e-7 * (1 + n / 25) + T * 5e-5, rel=1e-12)
    assert cost.peak == 8 * n * m * R * S * (p003_sec4_3.CURVE_POINTS + 4 * BLOCK) and cost.kept == 0
    assert p003_sec4_3.CURVE_POINTS >= p003_sec4_3.SWEEP_POINTS + 1 + len(values["eps_values"])
