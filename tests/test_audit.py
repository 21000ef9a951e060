"""The topic module :mod:`dpnet.audit`: the audit passes on correct mechanisms and certifies a violation
with half the noise; a measured sensitivity against a hand computation; the verdicts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpnet import audit
from dpnet.errors import ParameterError
from dpnet.mechanisms import rr_flip_probability


def test_laplace_passes_and_half_noise_is_certified() -> None:
    rng = np.random.default_rng(1)
    correct = audit.laplace_shift_audit(1.0, 1.0, 200_000, rng)  # Δ = 1, b = Δ/ε at ε = 1
    half = audit.laplace_shift_audit(1.0, 0.5, 200_000, rng)  # half the noise: true ε = 2
    assert correct.epsilon_lower <= 1.0
    assert half.epsilon_lower > 1.0


def test_randomized_response_passes_and_half_budget_noise_is_certified() -> None:
    rng = np.random.default_rng(2)
    f = float(rr_flip_probability(1.0))
    ok = audit.discrete_audit([1 - f, f], [f, 1 - f], 200_000, rng, [[0], [1]])
    g = float(rr_flip_probability(2.0))  # a flip probability calibrated to ε = 2 while claiming ε = 1
    bad = audit.discrete_audit([1 - g, g], [g, 1 - g], 200_000, rng, [[0], [1]])
    assert ok.epsilon_lower <= 1.0 < bad.epsilon_lower


def test_measured_sensitivity_of_a_mean_on_five_records() -> None:
    """Five records (2, 4, 4, 5, 10) in [0, 10]; the mean 5 under replace-one adjacency.

    By hand: replacing record r by r′ moves the mean by |r − r′|/5, at most 10/5 = 2 (the 0 ↔ 10 swap of
    the last record); the sensitivity measured exhaustively over every record and every replacement on the
    grid 0, 1, …, 10 is therefore 2, and Laplace noise of scale 2/ε = 4 at ε = 0.5 buys ε = 2/4 = 0.5.
    """
    data = np.array([2.0, 4.0, 4.0, 5.0, 10.0])
    changes = [
        abs(np.mean(np.where(np.arange(5) == k, v, data)) - data.mean()) for k in range(5) for v in range(11)
    ]
    measured = max(changes)
    assert measured == pytest.approx(2.0)
    assert audit.shift_loss(measured, 4.0) == pytest.approx(0.5)


def test_pair_epsilon_and_pair_audit() -> None:
    eps = audit.laplace_pair_epsilon([0.0, 0.0], [1.0, 1.0], [1.0, 0.5], [1.0, 1.0], 1e-9)
    assert eps == pytest.approx([1.0, 0.5], abs=1e-6)
    rng = np.random.default_rng(3)
    far = audit.laplace_pair_audit(0.0, 1.0, -27.0, 1e12, 100_000, rng)
    assert far.epsilon_lower > 5.0


def test_difference_audit_passes_at_its_loss_and_certifies_half_noise() -> None:
    """The difference of two Lap(b) noises shifted by c: privacy loss |c|/b (tails), so c = b = 1 is
    1-DP and the audit stays below 1; with half the scale the true loss is 2, certified above 1."""
    rng = np.random.default_rng(5)
    ok = audit.laplace_difference_audit(1.0, 1.0, 200_000, rng)
    bad = audit.laplace_difference_audit(1.0, 0.5, 200_000, rng)
    assert ok.epsilon_lower <= 1.0 < bad.epsilon_lower <= 2.0


def test_rows_refuse_an_unknown_kind_and_report_provenance() -> None:
    row = audit.MechanismAudit("r", "003", "§", "m", "a", 1.0, 1.0, 1.0, 0.5, "x", 0.5, 0.1, 0.95, 10,
                               audits="lemma", data="real")  # fmt: skip
    assert row.row()["audits"] == "lemma" and row.row()["data"] == "real" and row.holds
    with pytest.raises(ParameterError):
        audit.MechanismAudit("r", "003", "§", "m", "a", 1.0, 1.0, 1.0, 0.5, "x", 0.5, 0.1, 0.95, 10,
                             audits="gradient")  # fmt: skip


def test_verdicts() -> None:
    assert audit.verdict(1.0, 1.0) == "holds on the data" == audit.HOLDS
    assert audit.verdict(1.0, 4.07) == "fails by ×4.1"
    assert audit.verdict(1.0, math.inf) == "fails (unbounded)"


def test_delta_aware_bound_follows_the_formula_and_reduces_to_pure() -> None:
    """Discrete outputs, 1,000 draws each: value 0 seen 600 times under x and 100 times under y.

    By hand, with ``m = 1`` event and confidence 0.95, each one-sided bound is at level 1 − 0.05/4; the
    δ-aware bound is ``log((L_x − δ)/U_y)`` over both directions, the pure one ``log(L_x/U_y)``.
    """
    from dpnet.mechanisms import audit_epsilon, clopper_pearson

    x = np.r_[np.zeros(600, int), np.ones(400, int)]
    y = np.r_[np.zeros(100, int), np.ones(900, int)]
    level = 1 - 0.05 / 4
    lower_x, _ = clopper_pearson(600, 1000, level)
    _, upper_y = clopper_pearson(100, 1000, level)
    for delta in (0.0, 0.05, 0.3):
        got = audit_epsilon(x, y, np.array([0]), delta=delta)
        assert got.delta == delta
        assert got.epsilon_lower == pytest.approx(math.log((lower_x - delta) / upper_y))
    assert audit_epsilon(x, y, np.array([0])) == audit_epsilon(x, y, np.array([0]), delta=0.0)
    # an event whose lower bound is at most δ certifies nothing
    assert audit_epsilon(x, y, np.array([0]), delta=0.7).epsilon_lower == 0.0
    with pytest.raises(ParameterError):
        audit_epsilon(x, y, np.array([0]), delta=1.0)


def test_delta_aware_bound_passes_an_eps_delta_mechanism_the_pure_bound_refutes() -> None:
    """A mechanism that is (1, 0.05)-DP but not 1-DP: under x it leaks output 0 with probability δ = 0.05
    and otherwise runs randomized response at ε = 1; under y it never outputs 0.

    By hand, with ``p = e/(1 + e)``: ``P_x = (δ, (1 − δ)p, (1 − δ)(1 − p))`` and ``P_y = (0, 1 − p, p)``.
    Every event meets ``P_x(S) ≤ e·P_y(S) + δ`` (the leak costs at most δ, the rest is RR) and
    ``P_y(S) ≤ e·P_x(S) + δ`` (``p ≤ e(1 − δ)(1 − p) + δ ⟺ pδ ≤ δ``); the pure ratio of output 0 is
    infinite. Claiming (1, 0.05) with the flip probability of ε = 2 is a violation by about 1.
    """
    rng = np.random.default_rng(4)
    p, delta = math.e / (1 + math.e), 0.05
    leaky, clean = [delta, (1 - delta) * p, (1 - delta) * (1 - p)], [0.0, 1 - p, p]
    events = [[0], [1], [2], [1, 2], [0, 1], [0, 2]]
    pure = audit.discrete_audit(leaky, clean, 200_000, rng, events)
    assert pure.epsilon_lower > 5.0  # the leak refutes pure 1-DP
    aware = audit.discrete_audit(leaky, clean, 200_000, rng, events, delta=delta)
    assert aware.epsilon_lower <= 1.0
    g = float(rr_flip_probability(2.0))
    bad = audit.discrete_audit([1 - g, g], [g, 1 - g], 200_000, rng, [[0], [1]], delta=0.01)
    assert bad.epsilon_lower > 1.0  # (1, 0.01) claimed, ε = 2 delivered: certified
    pair = audit.laplace_pair_audit(0.0, 1.0, -27.0, 1e12, 100_000, rng, delta=0.01)
    assert pair.delta == 0.01 and pair.epsilon_lower > 5.0
