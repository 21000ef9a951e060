"""Paper 003, §4.3 (Chapter 5): the convergence check of the time average against its closed-form limit,
recomputed from the same streams."""

from __future__ import annotations

import numpy as np
import pytest
from small import kl_bernoulli, small

from dpnet import inference as inf
from dpnet.chapters.online_learning import p003_sec4_3_convergence, p003_sec4_3_signals
from dpnet.results import RECORDED


def test_convergence_limit_is_the_closed_form_and_its_gap_recomputes() -> None:
    P = small("online-learning", gaussian_shift=2.0)
    sig = p003_sec4_3_signals.signals(P)
    conv = p003_sec4_3_convergence.convergence(P, sig)
    # two of four agents see θ1 (and two θ2), each with KL = shift²/2 = 2 for unit variance
    np.testing.assert_allclose(conv.limit_gaussian, [0.0, -1.0, -1.0], rtol=1e-14)
    l1 = 2 * kl_bernoulli(0.5, 0.8)
    np.testing.assert_allclose(conv.limit_bernoulli, [0.0, -l1 / 4, -l1 / 4], rtol=1e-12)
    # the gap, from the same stream with plain numpy
    psi = inf.simulate_online(P.rng("convergence"), sig.gaussian, sig.weights, xi=1.0, T=P.limit_horizon,
                              n_reps=P.replications, times=[P.limit_horizon])[0, :, 0]  # fmt: skip
    mean = ((psi - psi[..., :1]) / P.limit_horizon).mean(axis=0)[:, 1:]
    assert conv.gap == pytest.approx(np.max(np.abs(mean / -1.0 - 1)), rel=1e-12)
    assert conv.paths.shape == (3, len(conv.times), 4, 3) and conv.times[-1] == P.horizon
    assert all(hasattr(conv, name) for name in RECORDED)
    assert (conv.checks, conv.deviations, conv.metrics(), conv.tables()) == ({}, (), {}, {})


def test_p003_sec4_3_convergence_cost_counts_its_updates() -> None:
    values = dict(small("online-learning"))
    n, m, R, T, LT = 4, 3, 20, 60, 200
    seconds = n * m * (R * LT + LT + 3 * T) * 1e-7 * (1 + n / 25) + (2 * LT + T) * 5e-5
    cost = p003_sec4_3_convergence.cost(values)
    assert cost.seconds == pytest.approx(seconds, rel=1e-12) and cost.peak == cost.kept == 0
