"""Private distributed MLE: exact formulas (hand-worked values), dynamics, oracle, errors, DP audit."""

from __future__ import annotations

import math
import pickle
import time

import networkx as nx
import numpy as np
import pytest
from scipy import integrate, special

from dpnet import inference as inf
from dpnet import networks
from dpnet.errors import ParameterError
from dpnet.inference.rounds import rounds_thres_hoeffding, win_probabilities_corrected
from dpnet.inference.schedules import schedule_thm43_corrected
from dpnet.mechanisms import audit_epsilon, clopper_pearson
from dpnet.sweep import run_sweep

LN2 = math.log(2.0)
DELTA_ACTG = 2 * LN2  # Cox sensitivity 2 B_θ B_x with B_θ = log 2, B_x = 1
K5 = networks.metropolis_hastings(nx.complete_graph(5))
C5 = networks.metropolis_hastings(nx.cycle_graph(5))


def actg_like_table(gap: float) -> np.ndarray:
    """5 agents, Θ = {0, −log 2}: large unnormalised log-likelihoods, local gaps summing to ``gap``."""
    base = -150.0 * np.arange(1, 6)
    local = np.array([5.0, -1.0, 3.0, -2.0, 0.0])
    local[-1] = gap - local[:-1].sum()
    return np.column_stack([base, base + local])


def p_laplace_sum_below(x: float, n_terms: int, b: float) -> float:
    """P[S < x] for S a sum of ``n_terms`` iid Lap(b), by Gil-Pelaez inversion of (1 + b²t²)^(−n_terms)."""
    value, _ = integrate.quad(
        lambda t: math.sin(x * t) * (1 + (b * t) ** 2) ** (-n_terms) / t, 0, np.inf, limit=500
    )
    return 0.5 + value / math.pi


def binomial_se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1e-4) / n)


# --------------------------------------------------------------------------------------------------
# Exact formulas: thresholds, rounds, noise (values worked out by hand from the papers' formulas)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rho", "tau"), [(5.0, 0.0066928509), (math.log(3), 0.25), (1.5, 0.1824255238), (1.0, 0.2689414214)]
)
def test_belief_threshold(rho: float, tau: float) -> None:
    assert inf.belief_threshold(rho) == pytest.approx(tau, abs=1e-9)
    assert inf.log_belief_threshold(tau) == pytest.approx(rho, abs=1e-7)
    assert inf.belief_threshold(math.inf) == 0.0


def test_rounds_of_paper000_on_three_states() -> None:
    # |Θ| = 3, |Θ*| = 1, η1 = η2 = 0.05
    assert inf.rounds_am(3, 1, 0.95) == pytest.approx(2 * math.log(20), abs=1e-12)
    assert inf.rounds_am(3, 1, 0.95) == pytest.approx(5.99146, abs=1e-5)
    assert inf.rounds_gm(3, 1, 0.05) == pytest.approx(3.68888, abs=1e-5)
    assert inf.rounds_unknown_mle(3, 0.05, 0.95) == pytest.approx(12.2830, abs=1e-4)
    k1, k2 = inf.rounds_thres(3, 1, 0.05, 0.95, 0.5, 0.5)
    assert (k1, k2) == (pytest.approx(7.37776, abs=1e-5), pytest.approx(5.99146, abs=1e-5))
    ceil = [inf.to_int_ceil(x) for x in (5.99146, 3.68888, 12.2830, k1, k2)]
    assert ceil == [6, 4, 13, 8, 6]


def test_rounds_ordering_follows_the_mle_density() -> None:
    # paper 000's remark: f* > ½ ⇒ K_AM ≤ K_GM; f* < ½ ⇒ the reverse (η < 1/e)
    assert inf.rounds_am(10, 7, 0.95) == pytest.approx(14.82, abs=0.01)
    assert inf.rounds_gm(10, 7, 0.05) == pytest.approx(28.66, abs=0.01)
    for n_mle in range(1, 10):
        am, gm = inf.rounds_am(10, n_mle, 0.95), inf.rounds_gm(10, n_mle, 0.05)
        if n_mle > 5:
            assert am < gm
        elif n_mle < 5:
            assert am > gm
        else:
            assert am == pytest.approx(gm)


def test_corrected_rounds_use_the_true_win_probability() -> None:
    # the win probabilities 1/|Θ| and 1/(|Θ*| + 1): |Θ| (not |Θ̄|) in AM, |Θ*| + 1 (not |Θ*|) in GM
    assert inf.rounds_am(4, 1, 0.95, corrected=True) == pytest.approx(4 * math.log(20))
    assert inf.rounds_gm(4, 1, 0.05, corrected=True) == pytest.approx(2 * math.log(60))
    assert inf.rounds_gm(4, 4, 0.05) == 0.0


@pytest.mark.parametrize(("eta", "K"), [(0.05, 8), (0.025, 9), (0.1, 6)])
def test_rounds_authors_code(eta: float, K: int) -> None:
    assert inf.rounds_authors_code(2, eta) == K


def test_to_int_ceil_forgives_rounding_only() -> None:
    assert inf.to_int_ceil(6.0 + 1e-13) == 6
    assert inf.to_int_ceil(6.0 + 1e-6) == 7
    assert inf.to_int_ceil(-3.0) == 0 and inf.to_int_ceil(-math.inf, minimum=1) == 1


def test_centralised_glrt_threshold_is_the_chi2_quantile() -> None:
    # the distributed (composite) threshold 11.8325 is tested with dpnet.survival.composite_test
    assert inf.glrt_threshold_centralised(0.05) == pytest.approx(3.8415, abs=1e-4)


@pytest.mark.parametrize(
    ("n_states", "low", "high"), [(5, 0.276393, 0.723607), (10, 0.112702, 0.887298), (20, 0.052786, 0.947214)]
)
def test_exact_recovery_boundaries(n_states: int, low: float, high: float) -> None:
    lo, hi = inf.exact_recovery_boundaries(n_states)
    assert (lo, hi) == (pytest.approx(low, abs=1e-6), pytest.approx(high, abs=1e-6))


def test_exact_recovery_condition_is_p2_above_p1() -> None:
    # p2 > p1 ⇔ f*(1 − f*) < 1/|Θ|, for every (|Θ|, |Θ*|) with Θ̄ ≠ ∅
    for m in range(2, 31):
        for s in range(1, m):
            f = s / m
            assert inf.exact_recovery_feasible(m, s) == (f * (1 - f) < 1 / m - 1e-15), (m, s)
    assert not inf.exact_recovery_feasible(4, 2)  # the |Θ| ≤ 4 clause of Cor 4.4 misses this boundary
    assert not inf.exact_recovery_feasible(4, 4)


def test_noise_bookkeeping() -> None:
    delta = inf.bernoulli_sensitivity([0.3, 0.5, 0.7], 20)
    assert delta == pytest.approx(20 * math.log(7 / 3), abs=1e-12)
    assert delta == pytest.approx(16.945957, abs=1e-6)
    deltas = np.array([16.945957, 8.0, 4.0])
    b = inf.noise_scale(deltas, 3, 1.0, 6)
    np.testing.assert_allclose(b, 6 * 3 * deltas / 1.0)
    assert inf.noise_std_sum(b, 3) == pytest.approx(math.sqrt(2) * b.sum())
    assert inf.noise_std_sum(2.0, 5) == pytest.approx(5 * math.sqrt(2) * 2.0)


def test_noise_scale_paper_and_authors_code() -> None:
    # ACTG: b = KΔ|Θ|/ε = 22.18 (paper), 44.36 in the authors' notebook
    assert inf.noise_scale(DELTA_ACTG, 2, 1.0, 8) == pytest.approx(22.18, abs=0.005)
    assert inf.noise_scale(DELTA_ACTG, 2, 1.0, 8, convention="authors_code") == pytest.approx(
        44.36, abs=0.005
    )
    assert inf.noise_scale(1.0, 3, 2.0) == 1.5
    with pytest.raises(ParameterError, match="eps must be finite and > 0"):
        inf.noise_scale(1.0, 2, -1.0, 8)
    with pytest.raises(ParameterError, match="convention"):
        inf.noise_scale(1.0, 2, 1.0, 8, convention="legacy")  # type: ignore[arg-type]


def test_network_dp_sensitivity() -> None:
    # paper 000: Δ_i = max{signal Δ_i, 1 + max_{j≠i} a_ij}; on K_5, a_ij = 1/4
    np.testing.assert_allclose(inf.network_dp_sensitivity(0.5, K5), 1.25)
    np.testing.assert_allclose(
        inf.network_dp_sensitivity([0.5, 2.0, 0.1, 3.0, 1.0], K5), [1.25, 2, 1.25, 3, 1.25]
    )


def test_bernoulli_loglik_and_problem_constants() -> None:
    ll = inf.bernoulli_loglik([14, 10], [20, 20], [0.3, 0.5, 0.7])
    expected = np.array([[14 * math.log(t) + 6 * math.log(1 - t) for t in (0.3, 0.5, 0.7)]])
    np.testing.assert_allclose(ll[0], expected[0])
    prob = inf.problem_constants(ll)
    total = ll.sum(axis=0)
    assert prob.n_mle == 1 and prob.n == 2 and prob.n_states == 3
    assert prob.gamma == pytest.approx(np.abs(ll).max())
    assert prob.gap == pytest.approx(total.max() - np.sort(total)[-2])
    np.testing.assert_array_equal(inf.mle_mask(ll), total == total.max())


# --------------------------------------------------------------------------------------------------
# T formulas and optimal thresholds (Thms 4.2, 4.5; the authors' notebook; paper 000's ϱ*)
# --------------------------------------------------------------------------------------------------


def test_authors_code_schedule_gives_K8_T21_on_actg() -> None:
    # the notebook's ACTG run: n = 5 complete, ε = 1, α = 1−β = 0.05, ϱ = 1.5 → K = 8, T = 21
    prob = inf.ProblemConstants(n=5, n_states=2, n_mle=1, gamma=1008.0, gap=276.2)
    sched = inf.schedule_authors_code(
        prob, a_star=0.375, delta=DELTA_ACTG, eps=1.0, alpha=0.05, beta=0.95, rho=1.5
    )
    assert (sched.K, sched.T) == (8, 21)
    assert sched.noise_scale == pytest.approx(44.36, abs=0.005)
    by_hand = 2 * max(
        math.log(5 / 276.2), math.log(2 * (1008 + DELTA_ACTG) / (1.5 * 0.05)) / math.log(1 / 0.375)
    )
    assert sched.T == math.ceil(by_hand)


def test_thm42_schedule_by_hand() -> None:
    n, m, gamma, gap, a_star, eps, alpha, beta, rho = 5, 2, 1008.0, 9.538, 0.375, 1.0, 0.05, 0.95, 1.5
    prob = inf.ProblemConstants(n=n, n_states=m, n_mle=1, gamma=gamma, gap=gap)
    s = inf.schedule_thm42(
        prob, a_star=a_star, delta=DELTA_ACTG, eps=eps, alpha=alpha, beta=beta, rho_am=rho, rho_gm=rho
    )
    K = math.ceil(math.log(1 / 0.05))  # |Θ̄| log(|Θ*|/(1−β)) = |Θ*| log(|Θ̄|/α) = log 20
    b = DELTA_ACTG * K * m / eps
    V = n * math.sqrt(2) * b
    first = math.log(2 * rho * n / gap) / LN2
    t_gm = max(
        first,
        math.log(m**2 * (n - 1) * (n * gamma + V) / (2 * alpha * rho * math.sqrt(K))) / math.log(1 / a_star),
    )
    t_am = max(
        first,
        math.log(m**2 * (n - 1) * K * (n * gamma + V) / (2 * math.log(20) * rho)) / math.log(1 / a_star),
    )
    assert (s.K, s.noise_scale, s.V) == (K, pytest.approx(b), pytest.approx(V))
    assert (s.t_am, s.t_gm) == (pytest.approx(t_am), pytest.approx(t_gm))
    assert s.T == math.ceil(max(t_am, t_gm))
    assert s.tau_am == pytest.approx(inf.belief_threshold(rho))


def test_thm42_on_a_three_state_pilot() -> None:
    # worked by hand: Θ = {0.3, 0.5, 0.7}, n = 5 cycle, Γ = 20.69, gap 5.686, ϱ = 5, ε = 1, Δ_i = 16.945957
    a_star = networks.spectral_constants(C5).a_star
    delta = inf.bernoulli_sensitivity([0.3, 0.5, 0.7], 20)
    for K, expected_b, constant, T in (
        (6, 305, lambda V: inf.mixing_constant_am(n_states=3, n=5, K=6, gamma=20.69, V=V, beta=0.95), 23),
        (4, 203, lambda V: inf.mixing_constant_gm(n_states=3, n=5, K=4, gamma=20.69, V=V, alpha=0.05), 26),
    ):
        b = inf.noise_scale(delta, 3, 1.0, K)
        assert b == pytest.approx(expected_b, abs=0.5)
        c = constant(inf.noise_std_sum(b, 5))
        assert inf.to_int_ceil(inf.iterations_bound(c, 5.0, n=5, gap=5.686, a_star=a_star)) == T


@pytest.mark.parametrize("a_star", [0.0, 0.375, 0.654508, 0.904508])
def test_optimal_rho_equalises_the_two_terms(a_star: float) -> None:
    n, gap, V, gamma = 5, 5.686, 2157.0, 20.69
    for c in (
        inf.mixing_constant_am(n_states=3, n=n, K=6, gamma=gamma, V=V, beta=0.95),
        inf.mixing_constant_gm(n_states=3, n=n, K=4, gamma=gamma, V=V, alpha=0.05),
    ):
        rho = inf.optimal_rho(c, n=n, gap=gap, a_star=a_star)
        first = inf.consensus_iterations(rho, n=n, gap=gap)
        second = inf.mixing_iterations(c, rho, a_star=a_star)
        assert first == pytest.approx(second, rel=1e-9, abs=1e-12)


def test_thm45_optimal_thresholds_equalise_only_without_sqrt_k() -> None:
    # the papers' ϱ*_thres carries √K, the Thm 4.5 T terms do not; they agree only for K = 1
    prob = inf.ProblemConstants(n=5, n_states=3, n_mle=1, gamma=20.69, gap=5.686)
    args = {"a_star": 0.654508, "delta": 16.945957, "eps": 1.0, "alpha": 0.05, "q1": 0.2, "q2": 0.7}
    for pi1, pi2, beta, K_expected in ((4.0, 0.9, 0.5, 1), (0.5, 0.5, 0.95, 8)):
        s = inf.schedule_thm45(prob, **args, beta=beta, pi1=pi1, pi2=pi2)
        assert s.K == K_expected
        c1 = inf.mixing_constant_thres(n_states=3, n=5, gamma=20.69, V=s.V, q=0.2)
        first = inf.consensus_iterations(s.rho_1, n=5, gap=5.686)
        second = inf.mixing_iterations(c1, s.rho_1, a_star=0.654508)
        if s.K == 1:
            assert first == pytest.approx(second, rel=1e-9)
        else:
            # the √K shifts the mixing term by γ_e·log √K / log(1/a*) relative to the consensus term
            assert second - first == pytest.approx(
                math.log(math.sqrt(s.K)) / math.log(1 / 0.654508), rel=1e-9
            )
        assert s.freq_1 == pytest.approx((1 + pi1) * 0.2) and s.freq_2 == pytest.approx((1 - pi2) * 0.7)
        assert s.tau_hat_1 == pytest.approx(inf.belief_threshold(s.rho_1))


def test_win_probabilities_paper_and_corrected() -> None:
    # Thm 4.3: p₁ = 1 − 1/|Θ*|, p₂ = 1/|Θ̄|; counting every competitor gives p₂ = 1/|Θ|
    assert inf.win_probabilities(3, 1) == (0.0, 0.5)
    assert inf.win_probabilities(3, 1, corrected=True) == (0.0, pytest.approx(1 / 3))
    assert inf.win_probabilities(5, 2) == (0.5, pytest.approx(1 / 3))
    assert inf.win_probabilities(5, 2, mle_count_known=False) == (pytest.approx(0.8), pytest.approx(0.2))
    with pytest.raises(ParameterError, match="non-MLE state"):
        inf.win_probabilities(3, 3)
    prob = inf.ProblemConstants(n=5, n_states=4, n_mle=1, gamma=1.0, gap=1.0)
    kw = dict(delta=1.0, eps=1.0, alpha=0.05, beta=0.95, pi1=0.5, pi2=0.5)
    paper, fixed = inf.schedule_thm43(prob, **kw), inf.schedule_thm43(prob, **kw, corrected=True)
    assert (paper.freq_2, fixed.freq_2) == (pytest.approx(0.5 / 3), pytest.approx(0.5 / 4))
    assert (paper.K, paper.freq_1) == (fixed.K, fixed.freq_1)  # K and τ¹ do not involve p₂


def test_thm43_and_cor44_thresholds() -> None:
    prob = inf.ProblemConstants(n=5, n_states=3, n_mle=1, gamma=1.0, gap=1.0)
    s = inf.schedule_thm43(prob, delta=1.0, eps=1.0, alpha=0.05, beta=0.95, pi1=0.5, pi2=0.5)
    assert (s.K, s.freq_1, s.freq_2, s.T) == (8, 0.0, 0.25, None)  # p1 = 0, p2 = 1/|Θ̄| = 1/2
    u = inf.schedule_thm43(
        prob, delta=1.0, eps=1.0, alpha=0.05, beta=0.95, pi1=0.5, pi2=0.5, mle_count_known=False
    )
    assert u.freq_1 == pytest.approx(1.5 * 2 / 3) and u.freq_2 == pytest.approx(0.5 / 3)
    assert u.K == math.ceil(max(math.log(3 / 0.05), math.log(3 / 0.05)) / 0.5)
    c = inf.schedule_cor44(prob, delta=1.0, eps=1.0, alpha=0.05, beta=0.95, pi2=0.5)
    assert c.freq_1 == c.freq_2 == 0.25 and c.K == math.ceil(math.log(3 / 0.05) / 0.5)
    with pytest.raises(ParameterError, match="p2 > p1"):
        inf.schedule_cor44(
            inf.ProblemConstants(n=5, n_states=4, n_mle=2, gamma=1.0, gap=1.0),
            delta=1.0, eps=1.0, alpha=0.05, beta=0.95, pi2=0.5,
        )  # fmt: skip


def test_thm41_schedule() -> None:
    prob = inf.ProblemConstants(n=5, n_states=4, n_mle=1, gamma=1.0, gap=1.0)
    s = inf.schedule_thm41(prob, delta=1.0, eps=2.0, alpha=0.05, beta=0.95)
    assert (s.K, s.T) == (9, None)  # ⌈3 ln 20⌉ = 9 > ⌈ln 60⌉ = 5
    assert s.noise_scale == pytest.approx(9 * 4 / 2.0) and s.tau_am == pytest.approx(1 / 9)
    assert inf.schedule_thm41(prob, delta=1.0, eps=2.0, alpha=0.05, beta=0.95, corrected=True).K == 12
    assert s.rho_am == pytest.approx(math.log(8))  # τ = 1/K = 1/9, ϱ = log((1 − τ)/τ)


def test_thm41_schedule_with_one_round_has_consistent_thresholds() -> None:
    # |Θ| = 2, α = 1 − β = 1/2: K_AM = K_GM = log 2 < 1, so K = 1; τ = 1/K = 1 has no ϱ ≥ 0
    prob = inf.ProblemConstants(n=3, n_states=2, n_mle=1, gamma=1.0, gap=1.0)
    s = inf.schedule_thm41(prob, delta=1.0, eps=1.0, alpha=0.5, beta=0.5)
    assert s.K == 1
    assert (s.tau_am, s.tau_gm, s.rho_am, s.rho_gm) == (0.5, 0.5, 0.0, 0.0)
    assert inf.belief_threshold(s.rho_am) == s.tau_am
    one_round = np.array([[[[0.0, -3.0]]], [[[-3.0, 0.0]]]])  # (R=2, K=1, n=1, |Θ|=2): the winner only
    am = inf.am_beliefs(one_round, None)
    np.testing.assert_array_equal(inf.select_am(am, s.tau_am), [[[True, False]], [[False, True]]])
    np.testing.assert_array_equal(inf.select_am(am, rho=s.rho_am), inf.select_am(am, s.tau_am))


# --------------------------------------------------------------------------------------------------
# Dynamics: closed form vs the iteration (A+I)^t
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["complete", "cycle", "star", "path"])
def test_closed_form_matches_iteration_and_matrix_power(kind: str) -> None:
    rng = np.random.default_rng(7)
    A = networks.metropolis_hastings(networks.make_graph(kind, 6)).toarray()  # type: ignore[arg-type]
    ll = rng.normal(-30, 4, (6, 3))
    noise = rng.laplace(scale=3.0, size=(2, 3, 6, 3))
    literal = inf.iterate_log_beliefs(ll, A, 30, noise)
    trajectory = inf.scaled_trajectory(ll, A, 30, noise)
    B = A + np.eye(6)
    for t in (0, 1, 2, 7, 18, 30):
        power = np.einsum("ij,...jm->...im", np.linalg.matrix_power(B, t), ll + noise)  # ψ_t = (A+I)^t ζ
        exact = special.log_softmax(power, axis=-1)
        closed = inf.round_log_beliefs(inf.scaled_log_ratios(ll, A, t, noise), t)
        scale = 1e-12 * (1 + np.abs(exact).max())
        np.testing.assert_allclose(closed, exact, rtol=1e-12, atol=scale)
        np.testing.assert_allclose(literal[t], exact, rtol=1e-12, atol=scale)
        ratio = power / 2.0**t  # up to a shift common to all agents and states
        np.testing.assert_allclose(
            trajectory[t] - trajectory[t][..., :1, :1], ratio - ratio[..., :1, :1], atol=1e-12
        )


def test_update_exponent_is_one_plus_self_weight() -> None:
    # one step of eq. (12) by hand: ν_1(θ) ∝ ν_0(θ)^{1+a_ii} Π_j ν_{j,0}(θ)^{a_ij}   (the paper's 1 + a_ii)
    rng = np.random.default_rng(3)
    A = networks.metropolis_hastings(networks.make_graph("star", 4)).toarray()
    nu0 = rng.dirichlet(np.ones(3), size=4)
    direct = np.array([np.prod(nu0 ** (A[i] + np.eye(4)[i])[:, None], axis=0) for i in range(4)])
    direct /= direct.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(np.exp(inf.iterate_log_beliefs(np.log(nu0), A, 1)[1]), direct, rtol=1e-12)


def test_nonprivate_mle_concentrates_on_the_mle() -> None:
    rng = np.random.default_rng(11)
    for kind in ("complete", "cycle", "star", "path"):
        A = networks.metropolis_hastings(networks.make_graph(kind, 5))  # type: ignore[arg-type]
        for _ in range(5):
            ll = rng.normal(-40, 5, (5, 4))
            beliefs = np.exp(inf.nonprivate_log_beliefs(ll, A, 80))
            target = np.argmax(ll.sum(axis=0))
            assert np.all(beliefs[:, target] > 1 - 1e-12)
    # ψ_T / 2^T → Λ/n to within 1e-8 relative on K_5 at T = 40
    ll = rng.normal(-40, 5, (5, 3))
    scaled = inf.scaled_log_ratios(ll, K5, 40)  # ψ_T(θ, θ̌)/2^T with θ̌ = state 0
    lam = ll.sum(axis=0)
    np.testing.assert_allclose(
        scaled[:, 1:] - scaled[:, :1], np.broadcast_to((lam[1:] - lam[0]) / 5, (5, 2)), rtol=1e-8
    )


def test_tied_mle_states_stay_uniform_only_when_lambda2_is_negative() -> None:
    # Λ ties with different local terms: the tie difference grows like (1 + λ_2(A))^T
    ll = np.array([[0.0, 1.0, -5.0], [0.0, -1.0, -5.0], [0.5, 0.0, -5.0], [0.0, 0.5, -5.0], [0.0, 0.0, -5.0]])
    assert ll[:, 0].sum() == ll[:, 1].sum()
    on_k5 = np.exp(inf.nonprivate_log_beliefs(ll, K5, 100))
    np.testing.assert_allclose(on_k5[:, :2], 0.5, atol=1e-9)  # λ_2(K_5) = −1/4: the tie difference → 0
    on_c5 = np.exp(inf.nonprivate_log_beliefs(ll, C5, 100))  # λ_2(C_5) = 0.309: no consensus on the tie
    assert np.max(np.abs(on_c5[:, 0] - 0.5)) > 0.49
    np.testing.assert_allclose(np.exp(inf.nonprivate_log_beliefs(ll, None, None))[:, :2], 0.5)  # the limit


def test_no_nan_or_overflow_at_T5000() -> None:
    rng = np.random.default_rng(5)
    ll = actg_like_table(9.538)
    noise = inf.laplace_noise(rng, 22.18, n_reps=300, K=8, n_agents=5, n_states=2)
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        scaled = inf.scaled_log_ratios(ll, C5, 5000, noise)
        log_b = inf.round_log_beliefs(scaled, 5000)
        am, gm_log = inf.am_beliefs(scaled, 5000), inf.gm_log_beliefs(scaled, 5000)
        counts = inf.round_counts(scaled, 5000, 0.2)
        traj = inf.belief_trajectory(ll, C5, 1500, noise[:2], aggregate="gm")
        oracle = inf.asymptotic_log_ratios(ll, noise)
        am_oracle, gm_oracle = inf.am_beliefs(oracle, None), inf.gm_log_beliefs(oracle, None)
    for arr in (log_b, am, gm_log, counts, traj):
        assert np.all(np.isfinite(arr))
    np.testing.assert_allclose(np.exp(log_b).sum(axis=-1), 1.0, atol=1e-12)
    np.testing.assert_allclose(np.exp(gm_log).sum(axis=-1), 1.0, atol=1e-12)
    assert np.all(log_b >= inf.LOG_BELIEF_FLOOR) and np.all(log_b <= 0)
    # every round is one-hot at T = 5000: exactly the oracle with the same noise
    np.testing.assert_array_equal(am, am_oracle)
    np.testing.assert_array_equal(gm_log, gm_oracle)
    assert 0.1 < am[:, 0, 1].mean() < 0.9  # both states win rounds: the test is not one-sided


def test_log_softmax_scaled() -> None:
    x = np.array([[0.3, -0.2, 0.1], [1e-3, 0.0, 1e-3]])
    for T in (0, 3, 20):
        np.testing.assert_allclose(inf.log_softmax_scaled(x, T), special.log_softmax(2.0**T * x, axis=-1))
    big = inf.log_softmax_scaled(x, 4000)
    assert big[0, 0] == 0.0 and np.all(big[0, 1:] == inf.LOG_BELIEF_FLOOR)
    np.testing.assert_allclose(big[1], [math.log(0.5), inf.LOG_BELIEF_FLOOR, math.log(0.5)])  # tie
    np.testing.assert_array_equal(inf.log_softmax_scaled(x, None), big)


def test_gm_is_never_zero_over_zero() -> None:
    # two rounds, each state loses one of them decisively: the literal product of beliefs is 0/0 at large T
    zeta = np.array([[[[3.0, -3.0]], [[-3.0, 3.0 + 1e-3]]]])  # (R=1, K=2, n=1, |Θ|=2)
    A = np.ones((1, 1))
    for T in (2, 200, 1000):
        gm = np.exp(inf.gm_log_beliefs(inf.scaled_log_ratios(np.zeros((1, 2)), A, T, zeta), T))
        assert np.all(np.isfinite(gm)) and gm[0, 0].sum() == pytest.approx(1.0)
        with np.errstate(under="ignore", invalid="ignore"):
            rounds = special.softmax(2.0**T * zeta, axis=-1)
            direct = np.sqrt(rounds[0, 0, 0] * rounds[0, 1, 0])  # normalised geometric mean, literally
            direct = direct / direct.sum()
        if T == 2:
            np.testing.assert_allclose(gm[0, 0], direct, rtol=1e-12)
        else:
            assert np.all(np.isnan(direct))  # 0/0
            np.testing.assert_array_equal(gm[0, 0], [0.0, 1.0])


def test_am_and_gm_against_direct_formulas() -> None:
    rng = np.random.default_rng(9)
    ll, noise = rng.normal(0, 1, (4, 3)), rng.laplace(size=(5, 6, 4, 3))
    A = networks.metropolis_hastings(networks.make_graph("path", 4))
    scaled = inf.scaled_log_ratios(ll, A, 4, noise)
    rounds = np.exp(inf.iterate_log_beliefs(ll, A, 4, noise)[-1])
    np.testing.assert_allclose(inf.am_beliefs(scaled, 4), rounds.mean(axis=1), rtol=1e-10)
    geo = np.prod(rounds, axis=1) ** (1 / 6)
    np.testing.assert_allclose(
        np.exp(inf.gm_log_beliefs(scaled, 4)), geo / geo.sum(-1, keepdims=True), rtol=1e-9
    )
    for tau_hat in (0.1, 0.3):
        np.testing.assert_allclose(inf.round_counts(scaled, 4, tau_hat), (rounds > tau_hat).mean(axis=1))
    winners = rounds == rounds.max(axis=-1, keepdims=True)
    np.testing.assert_allclose(inf.round_counts(scaled, 4, 0.0), winners.mean(axis=1))


def test_belief_trajectory_aggregates() -> None:
    rng = np.random.default_rng(2)
    ll, noise = rng.normal(-10, 2, (5, 2)), rng.laplace(scale=2.0, size=(3, 5, 2))
    am = inf.belief_trajectory(ll, C5, 25, noise, aggregate="am")
    gm = inf.belief_trajectory(ll, C5, 25, noise, aggregate="gm")
    assert am.shape == gm.shape == (26, 5, 2)
    scaled = inf.scaled_log_ratios(ll, C5, 25, noise)
    np.testing.assert_allclose(am[-1], inf.am_beliefs(scaled, 25), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(gm[-1], np.exp(inf.gm_log_beliefs(scaled, 25)), rtol=1e-9, atol=1e-12)


def test_belief_trajectory_counts() -> None:
    rng = np.random.default_rng(12)
    ll, noise = rng.normal(-10, 2, (5, 3)), rng.laplace(scale=3.0, size=(4, 5, 3))
    literal = np.exp(inf.iterate_log_beliefs(ll, C5, 12, noise))  # (T+1, K, n, |Θ|), step by step
    won = literal == literal.max(axis=-1, keepdims=True)
    for tau_hat, reference in ((0.0, won), (0.3, literal > 0.3)):
        counts = inf.belief_trajectory(ll, C5, 12, noise, aggregate="counts", tau_hat=tau_hat)
        assert counts.shape == (13, 5, 3)
        np.testing.assert_array_equal(counts, reference.mean(axis=1))
    assert np.any((counts[-1] > 0) & (counts[-1] < 1))  # the rounds disagree: the counts are not trivial
    with pytest.raises(ParameterError, match="round axis"):
        inf.belief_trajectory(ll, C5, 3, aggregate="counts")


def test_aggregates_accept_precomputed_log_beliefs() -> None:
    rng = np.random.default_rng(13)
    scaled = inf.scaled_log_ratios(
        rng.normal(0, 1, (4, 3)), nx.path_graph(4), 3, rng.laplace(size=(6, 5, 4, 3))
    )
    log_b = inf.round_log_beliefs(scaled, 3)
    np.testing.assert_array_equal(inf.am_beliefs(scaled, 3, log_beliefs=log_b), inf.am_beliefs(scaled, 3))
    np.testing.assert_array_equal(
        inf.round_counts(scaled, 3, 0.2, log_beliefs=log_b), inf.round_counts(scaled, 3, 0.2)
    )
    res = inf.run_private_mle(np.zeros((4, 3)), None, K=5, T=None, scale=1.0, n_reps=50, rng=rng)
    np.testing.assert_array_equal(res.am_beliefs(), inf.am_beliefs(res.scaled, None))
    np.testing.assert_array_equal(res.round_counts(0.2), inf.round_counts(res.scaled, None, 0.2))
    np.testing.assert_array_equal(res.round_counts(0.0), inf.round_counts(res.scaled, None, 0.0))
    with pytest.raises(ParameterError, match="log_beliefs must have the shape"):
        inf.am_beliefs(scaled, 3, log_beliefs=log_b[0])


def test_gm_test_statistic_normalisation() -> None:
    # Prop 4.6 with ψ_T = (A+I)^T ζ (T updates): (n/2^{T−1}) log(ν^GM(1)/ν^GM(0)) → 2Λ(1, 0)
    rng = np.random.default_rng(4)
    ll = rng.normal(-20, 3, (5, 2))
    rounds = np.broadcast_to(ll, (3, 5, 2))
    S = inf.gm_test_statistic(inf.scaled_log_ratios(ll, K5, 30, rounds * 0))
    np.testing.assert_allclose(S, 2 * (ll[:, 1].sum() - ll[:, 0].sum()), rtol=1e-9)
    noise = rng.laplace(size=(3, 5, 2))
    scaled = inf.scaled_log_ratios(ll, C5, 6, noise)
    gm = inf.gm_log_beliefs(scaled, 6)
    np.testing.assert_allclose(inf.gm_test_statistic(scaled), 5 / 2**5 * (gm[..., 1] - gm[..., 0]), rtol=1e-9)


# --------------------------------------------------------------------------------------------------
# The asymptotic oracle and finite T; the per-round win probability
# --------------------------------------------------------------------------------------------------


def test_oracle_matches_finite_T_with_the_same_noise() -> None:
    rng = np.random.default_rng(21)
    ll = actg_like_table(9.538)
    noise = inf.laplace_noise(rng, 22.18, n_reps=3000, K=8, n_agents=5, n_states=2)
    oracle = inf.asymptotic_log_ratios(ll, noise)
    for A, T in ((K5, 21), (C5, 60)):
        # every round is numerically one-hot after T iterations: exactly the oracle's sets and beliefs
        finite = inf.scaled_log_ratios(ll, A, T, noise)
        np.testing.assert_array_equal(inf.round_counts(finite, T, 0.0), inf.round_counts(oracle, None, 0.0))
        np.testing.assert_array_equal(
            inf.select_gm(inf.gm_log_beliefs(finite, T), 0.18),
            inf.select_gm(inf.gm_log_beliefs(oracle, None), 0.18),
        )
        np.testing.assert_array_equal(inf.am_beliefs(finite, T), inf.am_beliefs(oracle, None))
    assert 0.1 < inf.am_beliefs(oracle, None)[..., 1].mean() < 0.9  # both states win rounds


@pytest.mark.parametrize(
    ("gap", "factor", "want_gm", "want_am"), [(9.538, 1.0, 0.61, 0.54), (276.2, 2.0, 1.00, 0.92)]
)
def test_actg_oracle_and_finite_T(gap: float, factor: float, want_gm: float, want_am: float) -> None:
    # paper noise b = KΔ|Θ|/ε = 22.18; the notebook's (bug-inflated Λ, noise ×2) b = 44.36. The wanted
    # values are the oracle's probabilities, computed independently, to two decimals.
    K, n, R = 8, 5, 3000
    b = factor * inf.noise_scale(DELTA_ACTG, 2, 1.0, K)
    exact_gm = p_laplace_sum_below(gap * K, 2 * n * K, b)  # Λ + mean noise favours −log 2
    exact_am = p_laplace_sum_below(gap, 2 * n, b)  # per-round win probability = E[AM belief]
    assert exact_gm == pytest.approx(want_gm, abs=0.005) and exact_am == pytest.approx(want_am, abs=0.005)
    ll = actg_like_table(gap)
    rng = np.random.default_rng(15)
    tau = inf.belief_threshold(1.5)
    for A, T in ((None, None), (K5, 21), (C5, 60)):
        res = inf.run_private_mle(ll, A, K=K, T=T, scale=b, n_reps=R, rng=rng)
        gm_rate = inf.select_gm(res.gm_log_beliefs(), tau)[:, 0, 1].mean()
        am_belief = res.am_beliefs()[:, :, 1]
        assert np.ptp(am_belief, axis=1).mean() < 1e-3  # the agents agree (up to rare near-ties)
        assert abs(gm_rate - exact_gm) < 4 * binomial_se(exact_gm, R)
        assert abs(am_belief[:, 0].mean() - exact_am) < 4 * math.sqrt(exact_am * (1 - exact_am) / (K * R))


def test_round_win_probability_is_one_over_theta() -> None:
    # Lemma 9.1 with the right count: with equal likelihoods each of the |Θ| states wins a round w.p. 1/|Θ|
    rng = np.random.default_rng(8)
    for m in (2, 3, 4):
        res = inf.run_private_mle(np.zeros((3, m)), None, K=10, T=None, scale=1.0, n_reps=2000, rng=rng)
        wins = res.round_counts(0.0)[:, 0, 0]
        assert abs(wins.mean() - 1 / m) < 4 * math.sqrt((1 / m) * (1 - 1 / m) / 20000)
        if m > 2:
            assert wins.mean() < 1 / (m - 1) - 0.05  # the paper's 1/|Θ̄| is too optimistic


# --------------------------------------------------------------------------------------------------
# Empirical Type I / II against the theorems
# --------------------------------------------------------------------------------------------------


def thm41_rates(gap_in_scales: float, corrected: bool = False, R: int = 20000, seed: int = 0) -> tuple:
    """AM Type II and GM Type I of agent 0 in the T → ∞ limit: |Θ| = 4, |Θ*| = 1, n = 5, Lap(10)."""
    n, m, b = 5, 4, 10.0
    ll = np.zeros((n, m))
    ll[:, 0] = gap_in_scales * b / n  # Λ(θ*) − Λ(θ̄) = gap_in_scales · b
    rng = np.random.default_rng(seed)
    mle = np.array([True, False, False, False])  # |Θ*| = 1 (at gap 0: the limit gap → 0+)
    K_am = inf.to_int_ceil(inf.rounds_am(m, 1, 0.95, corrected=corrected))
    K_gm = inf.to_int_ceil(inf.rounds_gm(m, 1, 0.05, corrected=corrected))
    am = inf.run_private_mle(ll, None, K=K_am, T=None, scale=b, n_reps=R, rng=rng).am_beliefs()[:, 0]
    gm = inf.run_private_mle(ll, None, K=K_gm, T=None, scale=b, n_reps=R, rng=rng).gm_log_beliefs()[:, 0]
    am_rates = inf.type_errors(inf.select_am(am, 1 / K_am), mle)  # ϱ → ∞: any τ ≤ 1/K
    gm_rates = inf.type_errors(inf.select_gm(gm, 1 / K_gm), mle)
    return K_am, am_rates, K_gm, gm_rates


def test_thm41_am_type2_within_bound_for_a_moderate_gap() -> None:
    K_am, am, _, _ = thm41_rates(0.5)
    assert K_am == 9
    assert am.type2 <= 0.05 + 2 * binomial_se(0.05, am.n_trials)


def test_thm41_am_bound_fails_at_zero_gap_and_the_correction_fixes_it() -> None:
    # win probability 1/|Θ|: (1 − 1/|Θ|)^9 = 0.0751 > 0.05; with |Θ| for |Θ̄|, K = 12 and (3/4)^12 = 0.0317
    K_am, am, _, _ = thm41_rates(0.0, R=20000, seed=1)
    assert am.type2 == pytest.approx(0.75**K_am, abs=4 * binomial_se(0.0751, am.n_trials))
    assert am.type2_ci[0] > 0.05
    K_c, am_c, _, _ = thm41_rates(0.0, corrected=True, R=20000, seed=2)
    assert K_c == 12 and am_c.type2 == pytest.approx(0.75**12, abs=4 * binomial_se(0.0317, am_c.n_trials))


def test_thm41_gm_type1_needs_a_gap_of_several_noise_scales() -> None:
    # The implementable GM (argmax of Λ + mean noise) meets α only at high SNR; at half a noise scale it
    # admits a non-MLE state most of the time (the proof's "positive in every round" is not this estimator)
    _, _, K_gm, good = thm41_rates(5.0, seed=3)
    assert K_gm == 5 and good.type1 <= 0.05 + 2 * binomial_se(0.05, good.n_trials)
    assert good.type1 > 0  # a regime where errors still happen
    _, _, _, bad = thm41_rates(0.5, R=4000, seed=4)
    assert bad.type1_ci[0] > 0.5


def test_two_threshold_and_cor44_at_high_snr() -> None:
    # Thm 4.3 / Cor 4.4 in the T → ∞ limit, |Θ| = 3, |Θ*| = 1, gap 40 noise scales (p₁ = 0 needs the
    # non-MLE states to (almost) never win a round)
    n, m, b = 5, 3, 10.0
    ll = np.zeros((n, m))
    ll[:, 0] = 40 * b / n
    prob, mle = inf.problem_constants(ll), np.array([True, False, False])
    rng = np.random.default_rng(6)
    s = inf.schedule_thm43(prob, delta=1.0, eps=1.0, alpha=0.05, beta=0.95, pi1=0.5, pi2=0.5)
    N = inf.run_private_mle(ll, None, K=s.K, T=None, scale=b, n_reps=8000, rng=rng).round_counts(0.0)[:, 0]
    low1, high2 = inf.threshold_sets(N, N, s.freq_1, s.freq_2, s.K)
    assert inf.type_errors(high2, mle).type2 <= 0.05
    assert inf.type_errors(low1, mle).type1 <= 0.05 + 2 * binomial_se(0.05, 8000)
    c = inf.schedule_cor44(prob, delta=1.0, eps=1.0, alpha=0.05, beta=0.95, pi2=0.5)
    N = inf.run_private_mle(ll, None, K=c.K, T=None, scale=b, n_reps=8000, rng=rng).round_counts(0.0)[:, 0]
    single, _ = inf.threshold_sets(N, N, c.freq_1, c.freq_2, c.K)
    assert inf.type_errors(single, mle).exact >= 0.9 - 2 * binomial_se(0.9, 8000)


def test_thm43_type1_set_fails_at_moderate_snr() -> None:
    # p₁ = 1 − 1/|Θ*| = 0 assumes a non-MLE state never wins a round; at a gap of 2 noise scales it often does
    n, m, b = 5, 3, 10.0
    ll = np.zeros((n, m))
    ll[:, 0] = 2 * b / n
    s = inf.schedule_thm43(
        inf.problem_constants(ll), delta=1.0, eps=1.0, alpha=0.05, beta=0.95, pi1=0.5, pi2=0.5
    )
    res = inf.run_private_mle(ll, None, K=s.K, T=None, scale=b, n_reps=2000, rng=np.random.default_rng(17))
    N = res.round_counts(0.0)[:, 0]
    low1, _ = inf.threshold_sets(N, N, s.freq_1, s.freq_2, s.K)
    assert inf.type_errors(low1, np.array([True, False, False])).type1_ci[0] > 0.5


def test_threshold_sets_semantics() -> None:
    N = np.array([[0.0, 0.125, 0.5], [0.25, 0.0, 1.0]])
    one, two = inf.threshold_sets(N, N, 0.0, 0.25, 8)
    # τ¹ = 0 (|Θ*| = 1 in Thm 4.3): the book's rule needs at least one won round
    np.testing.assert_array_equal(one, [[False, True, True], [True, False, True]])
    np.testing.assert_array_equal(two, [[False, False, True], [True, False, True]])
    one, _ = inf.threshold_sets(N, N, 0.5, 0.25, 8)
    np.testing.assert_array_equal(one, [[False, False, True], [False, False, True]])
    assert inf.frequency_thresholds(0.0, 0.25, 8) == (0.125, 0.25)  # τ¹ = max(τ¹, 1/K)
    assert inf.frequency_thresholds(0.5, 0.25, 8) == (0.5, 0.25)
    with pytest.raises(ParameterError, match="freq_2"):
        inf.frequency_thresholds(0.5, math.nan, 8)


# --------------------------------------------------------------------------------------------------
# Error rates, the sweep task and speed
# --------------------------------------------------------------------------------------------------


def test_type_errors_counts_and_intervals() -> None:
    sel = np.array([[True, False], [True, True], [False, True], [False, False]])
    rates = inf.type_errors(sel, np.array([True, False]))
    assert (rates.type1, rates.type2, rates.exact) == (0.5, 0.5, 0.25)
    lo, hi = clopper_pearson(2, 4, 0.975)
    assert rates.type1_ci == (lo, hi) and rates.n_trials == 4
    per_agent = inf.type_errors(np.stack([sel, ~sel], axis=1), np.array([True, False]))
    np.testing.assert_allclose(per_agent.type1, [0.5, 0.5])
    np.testing.assert_allclose(per_agent.exact, [0.25, 0.25])
    with pytest.raises(ParameterError, match="boolean"):
        inf.type_errors(sel.astype(int), np.array([True, False]))


def test_total_variation() -> None:
    assert inf.total_variation([0.2, 0.8], [0.5, 0.5]) == pytest.approx(0.3)


def test_log_belief_level_exact_for_huge_rho() -> None:
    assert inf.log_belief_level(800.0) == -800.0
    assert inf.log_belief_level(0.0) == pytest.approx(-LN2)
    assert inf.log_belief_level(1.5) == pytest.approx(math.log(inf.belief_threshold(1.5)), rel=1e-15)
    assert inf.belief_threshold(800.0) == 0.0  # why the log form is needed


def test_select_with_rho_800_is_exact() -> None:
    # log τ = −800: τ underflows, yet states with log-belief −700 are kept and −900 dropped
    gm_log = np.array([0.0, -700.0, -799.0, -801.0, -900.0, -np.inf])
    np.testing.assert_array_equal(inf.select_gm(gm_log, rho=800.0), [True, True, True, False, False, False])
    am = np.exp(np.array([0.0, -700.0, -740.0]))  # e^-740 is a subnormal float
    am = np.append(am, 0.0)
    np.testing.assert_array_equal(inf.select_am(am, rho=800.0), [True, True, True, False])
    np.testing.assert_array_equal(inf.select_am(am, rho=735.0), [True, True, False, False])


@pytest.mark.parametrize("rho", [0.0, 0.7, 1.5, 5.0, 40.0, 300.0])
def test_select_rho_matches_tau_for_moderate_rho(rho: float) -> None:
    rng = np.random.default_rng(11)
    scaled = rng.normal(size=(50, 6, 3, 4))
    T = 3 if rho < 100 else 9
    tau = inf.belief_threshold(rho)
    am = inf.am_beliefs(scaled, T)
    gm = inf.gm_log_beliefs(scaled, T)
    np.testing.assert_array_equal(inf.select_am(am, rho=rho), inf.select_am(am, tau))
    np.testing.assert_array_equal(inf.select_gm(gm, rho=rho), inf.select_gm(gm, tau))


def test_select_needs_exactly_one_threshold() -> None:
    for select in (inf.select_am, inf.select_gm):
        with pytest.raises(ParameterError, match="exactly one"):
            select(np.ones(2))
        with pytest.raises(ParameterError, match="exactly one"):
            select(np.ones(2), 0.5, rho=1.0)
    with pytest.raises(ParameterError, match="rho"):
        inf.select_gm(np.ones(2), rho=-1.0)


def test_error_rate_task_rho_thresholds() -> None:
    ll = actg_like_table(9.538)
    common = dict(loglik=ll, eps=100.0, K=4, T=12, delta=DELTA_ACTG, n_reps=300, weights=K5.toarray())
    rho = 2.0
    by_tau = inf.ErrorRateTask(**common, tau_am=inf.belief_threshold(rho), tau_gm=inf.belief_threshold(rho))
    by_rho = inf.ErrorRateTask(**common, rho_am=rho, rho_gm=rho)
    rng = np.random.default_rng
    moderate = inf.error_rate_task(by_tau, rng(5))
    assert moderate == inf.error_rate_task(by_rho, rng(5))
    huge = inf.error_rate_task(inf.ErrorRateTask(**common, rho_am=800.0, rho_gm=800.0), rng(5))
    for est in ("am", "gm"):  # a smaller τ, same noise: larger sets
        assert huge[f"{est}_type1"] >= moderate[f"{est}_type1"]
        assert huge[f"{est}_type2"] <= moderate[f"{est}_type2"]
    with pytest.raises(ParameterError, match="exactly one of tau_am and rho_am"):
        inf.ErrorRateTask(**common, tau_am=0.1, rho_am=1.0, tau_gm=0.1)
    with pytest.raises(ParameterError, match="exactly one of tau_gm and rho_gm"):
        inf.ErrorRateTask(**common, tau_am=0.1)


def test_error_rate_task_through_run_sweep() -> None:
    ll = actg_like_table(9.538)
    A = K5.toarray()
    tasks = [
        inf.ErrorRateTask(
            loglik=ll,
            eps=eps,
            K=8,
            T=T,
            delta=DELTA_ACTG,
            n_reps=2000,
            tau_am=0.18,
            tau_gm=0.18,
            weights=A,
            freq_1=0.5,
            freq_2=0.25,
        )
        for eps in (1.0, 1000.0)
        for T in (None, 21)
    ]
    pickle.loads(pickle.dumps(tasks[0]))
    first = run_sweep(inf.error_rate_task, tasks, seed=3, n_jobs=1)
    second = run_sweep(inf.error_rate_task, tasks, seed=3, n_jobs=1)
    assert first == second
    low, _, high, _ = first
    assert low["T"] == math.inf and low["n_reps"] == 2000
    assert low["gm_selects_mle"] == pytest.approx(0.6077, abs=4 * binomial_se(0.61, 2000))
    # the mean AM belief averages K = 8 round indicators over 2000 replications (exact 0.5398)
    assert low["am_belief_mle"] == pytest.approx(0.5398, abs=4 * binomial_se(0.54, 8 * 2000))
    assert low["gm_type1_lo"] <= low["gm_type1"] <= low["gm_type1_hi"]
    for key in ("am_type1", "am_type2", "gm_type1", "gm_type2", "thres1_type1", "thres2_type2"):
        assert high[key] == 0.0  # ε = 1000: no noise to speak of
    assert high["gm_exact"] == high["am_exact"] == 1.0


def test_speed_2000_replications_8_rounds_1000_iterations_cycle20() -> None:
    rng = np.random.default_rng(0)
    A = networks.metropolis_hastings(networks.make_graph("cycle", 20))
    ll = rng.normal(-100, 5, (20, 3))
    start = time.perf_counter()
    res = inf.run_private_mle(ll, A, K=8, T=1000, scale=5.0, n_reps=2000, rng=rng)
    am, gm, counts = res.am_beliefs(), res.gm_log_beliefs(), res.round_counts(0.1)
    elapsed = time.perf_counter() - start
    print(f"2000 reps × K=8 × T=1000 on C_20, |Θ| = 3: {elapsed:.3f} s")
    assert np.all(np.isfinite(am)) and np.all(np.isfinite(gm)) and counts.shape == (2000, 20, 3)
    assert elapsed < 10.0


# --------------------------------------------------------------------------------------------------
# Differential privacy of the release: empirical ε audit
# --------------------------------------------------------------------------------------------------


def test_laplace_release_passes_the_audit_and_a_miscalibrated_one_fails() -> None:
    # Agent with 20 Bernoulli signals; neighbours differ in one signal: log γ(0.7) moves by Δ = logit 0.7
    thetas, K, eps, R = [0.3, 0.7], 2, 2.0, 200_000
    delta = inf.bernoulli_sensitivity(thetas, 1)
    x = inf.bernoulli_loglik([14], [20], thetas)[0, 1]
    y = inf.bernoulli_loglik([13], [20], thetas)[0, 1]
    assert abs(x - y) == pytest.approx(delta)
    per_release = eps / (K * len(thetas))  # each state and round gets ε/(K|Θ|)
    rng = np.random.default_rng(12)

    def release(scale: float) -> tuple[np.ndarray, np.ndarray]:
        dx = inf.laplace_noise(rng, scale, n_reps=R, K=K, n_agents=1, n_states=2)[:, 0, 0, 1]
        dy = inf.laplace_noise(rng, scale, n_reps=R, K=K, n_agents=1, n_states=2)[:, 0, 0, 1]
        return x + dx, y + dy

    b = inf.noise_scale(delta, len(thetas), eps, K)
    thresholds = x + b * np.linspace(-2.0, 2.0, 11)  # fixed before sampling
    ok = audit_epsilon(*release(b), thresholds)
    assert 0.5 * per_release < ok.epsilon_lower <= per_release
    bad = audit_epsilon(*release(inf.noise_scale(delta, len(thetas), 2 * eps, K)), thresholds)
    assert bad.epsilon_lower > per_release


# --------------------------------------------------------------------------------------------------
# Input validation
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: inf.scaled_log_ratios(np.zeros(3), K5, 5), "loglik must be an"),
        (
            lambda: inf.scaled_log_ratios(np.zeros((5, 2)), K5, -1),
            "T \\(iterations\\) must be an integer ≥ 0",
        ),
        (lambda: inf.scaled_log_ratios(np.zeros((4, 2)), K5, 3), "A is 5 × 5"),
        (
            lambda: inf.scaled_log_ratios(np.zeros((5, 2)), K5, 3, np.zeros((2, 5, 3))),
            "noise must have shape",
        ),
        (lambda: inf.scaled_log_ratios(np.full((5, 2), np.nan), K5, 3), "loglik must be finite"),
        (lambda: inf.belief_threshold(-1.0), "rho"),
        (lambda: inf.rounds_am(3, 4, 0.95), "n_mle"),
        (lambda: inf.rounds_gm(3, 1, 1.5), "alpha must lie in the open interval"),
        (lambda: inf.select_am(np.ones(2), 0.0), "tau"),
        (lambda: inf.round_counts(np.zeros((2, 3, 2)), 3, 1.0), "tau_hat"),
        (lambda: inf.run_private_mle(np.zeros((5, 2)), None, K=2, T=3, scale=1.0, n_reps=2, rng=None), "A"),
        (
            lambda: inf.laplace_noise(
                np.random.default_rng(0), [1.0, 2.0], n_reps=1, K=1, n_agents=3, n_states=2
            ),
            "scale",
        ),
        (lambda: inf.ProblemConstants(n=5, n_states=2, n_mle=1, gamma=1.0, gap=0.0), "gap"),
        (lambda: inf.mixing_iterations(1.0, 1.0, a_star=1.0), "a_star must lie in"),
        (lambda: inf.optimal_rho(1.0, n=5, gap=1.0, a_star=-0.1), "a_star must lie in"),
        (
            lambda: inf.iterations_authors_code(
                n_states=2, n=5, gamma=1.0, gap=1.0, a_star=1.0, delta=1.0, eps=1.0, rho=1.0, eta=0.05
            ),
            "a_star must lie in",
        ),
    ],
)
def test_invalid_input_raises_parameter_error(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ParameterError, match=message):
        call()


def test_kt_lower_bound_printed_and_proof_numerators() -> None:
    alpha, beta, diam, kl = 0.05, 0.95, 4, 0.5
    assert inf.kt_lower_bound(alpha, beta, diam, kl) == 0.0  # |1 − α − β| vanishes at β = 1 − α
    proof = inf.kt_lower_bound(alpha, beta, diam, kl, numerator="proof")
    assert proof == pytest.approx((beta - alpha) ** 2 * diam / (2 * kl))
    with pytest.raises(ParameterError, match="numerator"):
        inf.kt_lower_bound(alpha, beta, diam, kl, numerator="other")


def test_kt_lower_bound_rr_is_four_times_the_theorem_with_the_rr_divergence() -> None:
    # §13 remark: D_KL ≤ ε_gap²(1 − 2p_ε)², p_ε = 1/(1 + e^ε); the printed RR bound is 4× Thm 13.1's
    # printed bound with Σ_i D_KL = n ε_gap² tanh²(ε/2)
    alpha, beta, diam, n, eps_gap = 0.05, 0.8, 3, 6, 0.2
    for eps in (0.1, 1.0, 5.0):
        p_flip = 1 / (1 + math.exp(eps))
        assert inf.kl_bound_rr(eps, eps_gap) == pytest.approx(eps_gap**2 * (1 - 2 * p_flip) ** 2, rel=1e-12)
        remark = inf.kt_lower_bound_rr(alpha, beta, eps, eps_gap, diam, n)
        theorem = inf.kt_lower_bound(alpha, beta, diam, n * inf.kl_bound_rr(eps, eps_gap))
        assert remark == pytest.approx(4 * theorem, rel=1e-12)
        coth = (math.exp(eps) + 1) / (math.exp(eps) - 1)
        assert remark == pytest.approx(2 * 0.15 / eps_gap**2 * coth**2 * diam / n, rel=1e-12)
    assert inf.kt_lower_bound_rr(0.05, 0.95, 1.0, eps_gap, diam, n) == 0.0  # |1 − α − β| = 0
    # coth²(ε/2) ≈ 4/ε² only for small ε
    small, large = (inf.kt_lower_bound_rr(alpha, beta, e, eps_gap, diam, n) for e in (0.01, 10.0))
    assert small * 0.01**2 / 4 == pytest.approx(2 * 0.15 / eps_gap**2 * diam / n, rel=1e-4)
    assert large == pytest.approx(2 * 0.15 / eps_gap**2 * diam / n, rel=1e-3)


def test_iterations_eps_slope_meets_table1_within_the_derived_bound() -> None:
    # Table 1: at fixed ϱ, Thm 4.2's T grows by 1/log(1/a*) per unit of log(1/ε); with ϱ*, 1/log(2/a*)
    prob = inf.ProblemConstants(n=5, n_states=4, n_mle=1, gamma=150.0, gap=30.0)
    a_star = networks.spectral_constants(C5).a_star
    kw = dict(a_star=a_star, delta=1.4, alpha=0.05, beta=0.95)
    fixed = inf.iterations_eps_slope(prob, **kw, rho=1.5)
    assert fixed.predicted == pytest.approx(1 / math.log(1 / a_star)) and fixed.mixing_limited
    deviation = 1 - fixed.measured / fixed.predicted
    V = inf.schedule_thm42(prob, **kw, eps=1e-5, rho_am=1.5, rho_gm=1.5).V
    assert fixed.tolerance == pytest.approx(5 * 150.0 / (V * math.log(10)), rel=1e-6)
    assert 0 < deviation <= fixed.tolerance  # the bound holds and is tight to within ~10 %
    assert deviation > 0.8 * fixed.tolerance
    optimal = inf.iterations_eps_slope(prob, **kw)
    assert optimal.predicted == pytest.approx(1 / math.log(2 / a_star))
    assert 0 < 1 - optimal.measured / optimal.predicted <= optimal.tolerance
    # at moderate ε the noise does not dominate nΓ: the slope is far from Table 1's and the bound says so
    coarse = inf.iterations_eps_slope(prob, **kw, rho=1.5, eps=(10.0, 1.0))
    assert 1 - coarse.measured / coarse.predicted > 0.1 and coarse.tolerance > 0.1
    with pytest.raises(ParameterError, match="ε₁ > ε₂"):
        inf.iterations_eps_slope(prob, **kw, eps=(1e-6, 1e-5))


def test_exceeds_target_uses_the_interval_lower_end() -> None:
    rec = {"type1": 0.08, "type1_lo": 0.06, "type1_hi": 0.1, "type2": 0.06, "type2_lo": 0.04}
    assert inf.exceeds_target(rec, "type1", 0.05)
    assert not inf.exceeds_target(rec, "type2", 0.05)  # above the target, not beyond Monte Carlo error
    assert not inf.exceeds_target(rec, "type1", 0.06)


def test_mle_mask_forgives_rounding_but_the_oracle_needs_exact_ties() -> None:
    ll = np.array([[0.0, -1e-12, -5.0], [0.0, 0.0, -5.0]])
    np.testing.assert_array_equal(inf.mle_mask(ll), [True, True, False])  # within atol = 1e-9
    limit = np.exp(inf.nonprivate_log_beliefs(ll, None, None))
    np.testing.assert_array_equal(limit, [[1.0, 0.0, 0.0]] * 2)  # T → ∞: exact maximisers only
    tied = np.exp(inf.nonprivate_log_beliefs(np.array([[0.0, 0.0, -5.0]] * 2), None, None))
    np.testing.assert_array_equal(tied, [[0.5, 0.5, 0.0]] * 2)


def test_gap_loglik_has_the_requested_gap() -> None:
    table = inf.gap_loglik(5, 4, 2.5)
    total = table.sum(axis=0)
    assert table.shape == (5, 4)
    np.testing.assert_allclose(total[0] - total[1:], 2.5)
    assert inf.mle_mask(table).tolist() == [True, False, False, False]
    with pytest.raises(ParameterError, match="n_states"):
        inf.gap_loglik(5, 1, 1.0)


def test_authors_code_iterations_are_at_least_one() -> None:
    """Two centres mix in one step (a* = 0); with a gap above n the formula gives T ≤ 0, so T = 1."""
    args = {"n_states": 2, "n": 2, "gamma": 1.0, "delta": 1.0, "eps": 1.0, "rho": 0.1, "eta": 0.1}
    assert inf.iterations_authors_code(**args, gap=50.0, a_star=0.0) == 1
    assert inf.iterations_authors_code(**args, gap=50.0, a_star=0.5) > 1


def test_corrected_win_probabilities_never_allow_exact_recovery() -> None:
    # p₁: a non-MLE state falls below all |Θ*| MLE states with probability 1/(|Θ*| + 1), so it wins at
    # most |Θ*|/(|Θ*| + 1) of the rounds; p₂ = 1/|Θ| (exchangeable states)
    assert win_probabilities_corrected(4, 1) == (0.5, 0.25)
    assert win_probabilities_corrected(5, 2) == (pytest.approx(2 / 3), pytest.approx(0.2))
    for m in range(2, 9):
        for s in range(1, m):
            p1, p2 = win_probabilities_corrected(m, s)
            assert p1 >= 0.5 >= p2
    with pytest.raises(ParameterError, match="non-MLE state"):
        win_probabilities_corrected(3, 3)


def test_rounds_thres_hoeffding_restores_the_factor_p_squared() -> None:
    k1, k2 = inf.rounds_thres(4, 1, 0.05, 0.95, 0.5, 0.5)
    h1, h2 = rounds_thres_hoeffding(4, 1, 0.05, 0.95, 0.5, 0.5, 0.5, 0.25)
    assert (h1, h2) == (pytest.approx(k1 / 0.5**2), pytest.approx(k2 / 0.25**2))
    assert (h1, h2) == (pytest.approx(32.7548, abs=1e-4), pytest.approx(95.8634, abs=1e-4))
    assert rounds_thres_hoeffding(4, 1, 0.05, 0.95, 0.5, 0.5, 0.0, 0.25)[0] == math.inf  # p₁ = 0
    with pytest.raises(ParameterError, match="p1 must lie in the closed interval"):
        rounds_thres_hoeffding(4, 1, 0.05, 0.95, 0.5, 0.5, 1.5, 0.25)
    # Hoeffding's bound at the corrected K: each error at most its target
    K = inf.to_int_ceil(max(h1, h2))
    assert 3 * math.exp(-2 * K * (0.5 * 0.5) ** 2) <= 0.05 and math.exp(-2 * K * (0.5 * 0.25) ** 2) <= 0.05
    assert math.exp(-2 * (K - 1) * (0.5 * 0.25) ** 2) > 0.05  # and K is the smallest that makes it


def test_schedule_thm43_corrected_thresholds_and_rounds() -> None:
    problem = inf.problem_constants(inf.gap_loglik(5, 4, 1.0))
    s = schedule_thm43_corrected(problem, delta=1.0, eps=1.0, alpha=0.05, beta=0.95, pi1=0.5, pi2=0.5)
    assert (s.K, s.freq_1, s.freq_2, s.T) == (96, 0.75, 0.125, None)
    assert s.noise_scale == pytest.approx(96 * 4)


def test_error_rate_task_thresholds_only_gives_the_same_sets_without_am_and_gm() -> None:
    ll = inf.gap_loglik(5, 4, 1.0)
    common = dict(loglik=ll, eps=36.0, K=9, T=None, delta=1.0, n_reps=500, freq_1=0.0, freq_2=1 / 6)
    full = inf.error_rate_task(
        inf.ErrorRateTask(**common, tau_am=1 / 9, tau_gm=1 / 9), np.random.default_rng(3)
    )
    alone = inf.error_rate_task(inf.ErrorRateTask(**common, thresholds_only=True), np.random.default_rng(3))
    assert {k: v for k, v in full.items() if not k.startswith(("am_", "gm_"))} == alone
    assert not any(k.startswith(("am_", "gm_")) for k in alone)
    with pytest.raises(ParameterError, match="thresholds_only needs"):
        inf.ErrorRateTask(**{**common, "freq_2": None}, thresholds_only=True)


def test_kt_lower_bound_rr_with_the_proof_s_numerator_is_four_times_the_theorem() -> None:
    alpha, beta, diam, n, eps_gap, eps = 0.05, 0.95, 3, 6, 0.2, 1.0
    remark = inf.kt_lower_bound_rr(alpha, beta, eps, eps_gap, diam, n, numerator="proof")
    theorem = inf.kt_lower_bound(alpha, beta, diam, n * inf.kl_bound_rr(eps, eps_gap), numerator="proof")
    assert remark == pytest.approx(4 * theorem, rel=1e-12) and remark > 0
    with pytest.raises(ParameterError, match="numerator"):
        inf.kt_lower_bound_rr(alpha, beta, eps, eps_gap, diam, n, numerator="other")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# Exact oracle rates: the sum of Laplace variables, and the probability that a leader stays ahead
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n_terms", [1, 2, 3, 8, 9, 45, 400])
def test_laplace_sum_pdf_is_a_density_with_variance_2n(n_terms: int) -> None:
    """Both evaluations (closed form up to 8 terms, Fourier inversion above): mass 1, variance 2N."""
    sd = math.sqrt(2 * n_terms)
    x = np.linspace(-40 - 12 * sd, 40 + 12 * sd, 400_001)
    f = inf.rates.laplace_sum_pdf(x, n_terms)
    assert integrate.trapezoid(f, x) == pytest.approx(1.0, abs=1e-6)
    assert integrate.trapezoid(x * x * f, x) == pytest.approx(2 * n_terms, rel=1e-5)


def test_laplace_sum_pdf_closed_forms_and_the_two_evaluations_agree() -> None:
    x = np.array([0.0, 0.5, 1.0, 3.0])
    assert np.allclose(inf.rates.laplace_sum_pdf(x, 1), np.exp(-x) / 2)
    assert np.allclose(inf.rates.laplace_sum_pdf(x, 3), np.exp(-x) * (3 + 3 * x + x * x) / 16)
    grid, dens = inf.rates._fourier_density(8)  # the Fourier path, where the closed form also applies
    assert np.max(np.abs(dens - inf.rates.laplace_sum_pdf(grid, 8))) < 1e-12
    assert not np.allclose(inf.rates.laplace_sum_pdf(x, 4), inf.rates.laplace_sum_pdf(x, 3))


@pytest.mark.parametrize(("n_terms", "lead"), [(1, 0.7), (5, 0.25), (5, 3.0), (45, 27.0)])
def test_leader_probability_with_one_rival_is_a_laplace_sum_cdf(n_terms: int, lead: float) -> None:
    """One rival: P[S₁ − S₀ < ℓ], and S₁ − S₀ is a sum of 2N Laplace(1) (Gil-Pelaez inversion)."""
    expected = p_laplace_sum_below(lead, 2 * n_terms, 1.0)
    assert inf.rates.leader_probability([lead], n_terms) == pytest.approx(expected, abs=2e-6)


@pytest.mark.parametrize(("n_states", "n_terms"), [(2, 1), (4, 5), (4, 45), (6, 200)])
def test_leader_probability_of_exchangeable_states_is_one_over_their_number(
    n_states: int, n_terms: int
) -> None:
    value = inf.rates.leader_probability(np.zeros(n_states - 1), n_terms)
    assert value == pytest.approx(1 / n_states, abs=1e-6)


def test_leader_probability_against_monte_carlo_and_its_argument_checks() -> None:
    """The gap sweep's win probability at 0.25 noise scales (|Θ| = 4, n = 5), against 4·10⁵ draws."""
    rng = np.random.default_rng(11)
    Z = np.array([0.25, 0.0, 0.0, 0.0]) + rng.laplace(size=(400_000, 4, 5)).sum(-1)
    simulated = float(np.mean(Z.argmax(-1) == 0))
    exact = inf.rates.leader_probability([0.25, 0.25, 0.25], 5)
    assert exact == pytest.approx(0.271426, abs=1e-5) and abs(simulated - exact) < 4 * binomial_se(
        exact, 400_000
    )
    assert inf.rates.leader_probability([1e3], 5) == pytest.approx(1.0)
    with pytest.raises(ParameterError, match="leads must be a finite"):
        inf.rates.leader_probability([np.inf], 5)
    with pytest.raises(ParameterError, match="n_terms"):
        inf.rates.leader_probability([0.0], 0)


def test_two_threshold_rounds_from_the_multiplicative_chernoff_bound() -> None:
    """(2+π₁) log(|Θ̄|/α)/(π₁²p₁) and 2 log(|Θ*|/(1−β))/(π₂²p₂): equal to Hoeffding's K² where p₂ = 1/4."""
    k1, k2 = inf.rounds.rounds_thres_chernoff(4, 1, 0.05, 0.95, 0.5, 0.5, 0.5, 0.25)
    assert (k1, k2) == pytest.approx((81.8869, 95.8634), abs=1e-4)
    assert k2 == pytest.approx(rounds_thres_hoeffding(4, 1, 0.05, 0.95, 0.5, 0.5, 0.5, 0.25)[1])
    k1, k2 = inf.rounds.rounds_thres_chernoff(20, 1, 0.05, 0.95, 0.5, 0.5, 0.5, 0.05)
    assert (k1, k2) == pytest.approx((118.803, 479.317), abs=1e-3)
    assert inf.rounds.rounds_thres_chernoff(4, 1, 0.05, 0.95, 0.5, 0.5, 0.0, 0.25)[0] == math.inf
    with pytest.raises(ParameterError, match="pi2"):
        inf.rounds.rounds_thres_chernoff(4, 1, 0.05, 0.95, 0.5, 1.0, 0.5, 0.25)


def test_rounds_theta2_needs_exactly_at_zero_gap() -> None:
    """The fewest K from which P[Bin(K, 1/|Θ|) < ⌈τ²K⌉] ≤ 1 − β for every larger K: 34, 74 and 208."""
    assert inf.rounds.rounds_thres2_exact(4, 0.95, 1 / 8) == 34
    assert inf.rounds.rounds_thres2_exact(4, 0.95, 1 / 6) == 74
    assert inf.rounds.rounds_thres2_exact(20, 0.95, 1 / 40) == 208
    K = inf.rounds.rounds_thres2_exact(4, 0.95, 1 / 8)
    miss = [special.bdtr(math.ceil(k / 8) - 1, k, 0.25) for k in range(K - 1, 200)]
    assert miss[0] > 0.05 and max(miss[1:]) <= 0.05  # it can fail: one round fewer misses too often
    with pytest.raises(ParameterError, match="tau2"):
        inf.rounds.rounds_thres2_exact(4, 0.95, 0.3)
