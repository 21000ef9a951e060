"""dpnet.inference.first_order (the DP diffusion baseline of §14.4) and dpnet.inference.online (Algs 3/5).

Oracles: steps computed by hand, the literal update of eq. (17), and closed forms of the noise scales.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from dpnet import inference as inf
from dpnet import networks
from dpnet.errors import ParameterError
from dpnet.inference import first_order
from dpnet.survival.binary import binary_cox

# A 3-agent path 0 – 1 – 2 with Metropolis–Hastings weights (degrees 1, 2, 1).
A3 = np.array([[0.5, 0.5, 0.0], [0.5, 0.0, 0.5], [0.0, 0.5, 0.5]])


def test_metropolis_weights_of_the_test_path() -> None:
    W = networks.metropolis_hastings(networks.make_graph("path", 3)).toarray()
    np.testing.assert_allclose(W, A3)


def test_one_step_by_hand_paper_convention() -> None:
    theta = np.array([0.2, -0.4, 1.0])
    grad = np.array([5.0, -0.5, -3.0])  # clipped to [−2, 2]: 2, −0.5, −2
    noise = np.array([0.01, -0.02, 0.03])
    got = inf.dp_diffusion_step(theta, grad, noise, A3, lr=0.1, clip=2.0)
    mixed = np.array([0.5 * 0.2 + 0.5 * -0.4, 0.5 * 0.2 + 0.5 * 1.0, 0.5 * -0.4 + 0.5 * 1.0])
    want = mixed + 0.1 * np.array([2.0, -0.5, -2.0]) + noise
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)
    np.testing.assert_allclose(got, [0.11, 0.53, 0.13], atol=1e-15)


def test_one_step_by_hand_authors_convention() -> None:
    theta = np.zeros(3)
    grad = np.array([3.0, -1.0, 0.0])  # L1 norm 4 > 1: rescaled by 1/4 jointly
    got = inf.dp_diffusion_step(theta, grad, 0.0, A3, lr=0.5, clip=1.0, convention="authors_code")
    np.testing.assert_allclose(got, [0.375, -0.125, 0.0], atol=1e-15)
    small = np.array([0.3, -0.2, 0.1])  # within the bound: unchanged
    np.testing.assert_allclose(inf.clip_gradients(small, 1.0, convention="authors_code"), small)


def test_noise_scale_and_clip_conventions() -> None:
    # paper: 2 B_x B_θ T η / ε; authors' code: B_x B_θ T η / ε
    assert inf.first_order_noise_scale(1.0, 1.0, T=21, lr=0.001, eps=0.5) == pytest.approx(
        2 * 21 * 0.001 / 0.5
    )
    assert inf.first_order_noise_scale(1.0, 1.0, T=21, lr=0.001, eps=0.5, convention="authors_code") == (
        pytest.approx(21 * 0.001 / 0.5)
    )
    assert inf.first_order_clip(1.5, 2.0) == 6.0
    assert inf.first_order_clip(1.5, 2.0, convention="authors_code") == 3.0
    with pytest.raises(ParameterError, match="convention must be one of"):
        inf.first_order_clip(1.0, convention="rizk")


def test_what_clipping_guarantees_is_twice_the_papers_budget() -> None:
    """A clipped step can move by 2ηC between neighbours, C = 2B_θB_x: 4ηB_θB_x, twice the sensitivity the
    paper takes, so the paper's scale 2B_xB_θTη/ε guarantees 2ε over T steps."""
    clip = first_order.first_order_clip(1.0)
    assert first_order.clipped_step_sensitivity(clip, 0.001) == pytest.approx(4 * 0.001)
    b = first_order.first_order_noise_scale(1.0, 1.0, T=27, lr=0.001, eps=0.1)
    assert first_order.guaranteed_epsilon(b, T=27, lr=0.001, clip=clip) == pytest.approx(0.2)
    assert first_order.guaranteed_epsilon(2 * b, T=27, lr=0.001, clip=clip) == pytest.approx(0.1)
    with pytest.raises(ParameterError, match="noise_scale"):
        first_order.guaranteed_epsilon(0.0, T=27, lr=0.001, clip=clip)


def test_one_patient_moves_the_clipped_score_by_twice_the_papers_bound() -> None:
    """The paper's 2ηB_θB_x needs one patient to move a centre's clipped score by at most 2B_θB_x. On a
    centre of 300 untreated patients with events, 3 treated patients with the earliest events and one
    treated patient censored after everyone, removing that last patient moves the score at θ = 0 from
    below −2 to nearly 3: the clipped scores differ by 4 = 2·(2B_θB_x), all that clipping allows."""
    x = np.r_[np.ones(3), np.zeros(300), 1.0]
    t = np.r_[0.1 * np.arange(1, 4), np.arange(1, 301), 301.0]
    e = np.r_[np.ones(303), 0.0]
    clip = first_order.first_order_clip(1.0)
    with_k = float(binary_cox(x, t, e).score(0.0))
    without_k = float(binary_cox(x[:-1], t[:-1], e[:-1]).score(0.0))
    assert with_k < -clip and without_k > clip
    moved = abs(first_order.clip_gradients(with_k, clip) - first_order.clip_gradients(without_k, clip))
    assert moved == pytest.approx(2 * clip) and moved > clip


def test_dp_diffusion_is_repeated_steps_with_seeded_noise() -> None:
    def grad(th: np.ndarray) -> np.ndarray:
        return -(th - np.array([1.0, 2.0, 3.0]))  # each agent pulls toward its own target

    theta0 = np.array([[0.0, 0.0, 0.0], [1.0, -1.0, 0.5]])
    run = inf.dp_diffusion(grad, A3, theta0, T=4, lr=0.1, clip=2.0, noise_scale=0.3,
                           rng=np.random.default_rng(5))  # fmt: skip
    rng = np.random.default_rng(5)
    th = theta0.copy()
    for _ in range(4):
        th = inf.dp_diffusion_step(th, grad(th), rng.laplace(scale=0.3, size=th.shape), A3, lr=0.1, clip=2.0)
    np.testing.assert_allclose(run, th, rtol=0, atol=1e-15)
    clean = inf.dp_diffusion(grad, A3, theta0, T=200, lr=0.1, clip=2.0, noise_scale=0.0, rng=None)
    # without noise the consensus + gradient iteration settles at a fixed point near the targets' mean
    assert np.all(np.abs(clean.mean(axis=-1) - 2.0) < 0.05)
    with pytest.raises(ParameterError, match="rng is required"):
        inf.dp_diffusion(grad, A3, theta0, T=1, lr=0.1, clip=1.0, noise_scale=0.1, rng=None)


def test_online_log_ratios_follow_eq17() -> None:
    rng = np.random.default_rng(0)
    stream = rng.normal(size=(6, 3, 2))
    noise = rng.laplace(size=(4, 6, 3, 2))
    psi = inf.online_log_ratios(stream, A3, noise)
    assert psi.shape == (4, 6, 3, 2)
    # literal eq. (17) in log space: log ν_t ∝ log σ_t + A log ν_{t−1}, normalised each step
    for r in range(4):
        log_nu = np.zeros((3, 2))
        for t in range(6):
            log_nu = special.log_softmax(stream[t] + noise[r, t] + A3 @ log_nu, axis=-1)
            np.testing.assert_allclose(log_nu, special.log_softmax(psi[r, t], axis=-1), atol=1e-12)
    # non-private: the network average of ψ_t is the running sum of the agents' mean log-likelihoods
    clean = inf.online_log_ratios(stream, A3)
    np.testing.assert_allclose(clean.mean(axis=-2), np.cumsum(stream.mean(axis=-2), axis=0), atol=1e-12)


def test_online_beliefs_terminal_and_time_average() -> None:
    psi = np.zeros((1, 4, 2, 2))
    psi[0, -1] = [[0.0, 8.0], [4.0, 0.0]]
    terminal = inf.online_beliefs(psi)
    averaged = inf.online_beliefs(psi, kind="time_average")
    np.testing.assert_allclose(terminal[0, 0, 1], special.expit(8.0))
    np.testing.assert_allclose(averaged[0, 0, 1], special.expit(2.0))
    np.testing.assert_allclose(averaged[0, 1, 0], special.expit(1.0))
    with pytest.raises(ParameterError, match="kind must be one of"):
        inf.online_beliefs(psi, kind="last")


def test_online_bad_shapes_are_named() -> None:
    with pytest.raises(ParameterError, match=r"\(T, n_agents, n_states\)"):
        inf.online_log_ratios(np.zeros((3, 2)), A3)
    with pytest.raises(ParameterError, match="3 × 3 but the stream has 2 agents"):
        inf.online_log_ratios(np.zeros((3, 2, 2)), A3)
    with pytest.raises(ParameterError, match="noise must be finite with shape"):
        inf.online_log_ratios(np.zeros((3, 3, 2)), A3, np.zeros((5, 3, 2)))
