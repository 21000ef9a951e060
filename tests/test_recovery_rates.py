"""dpnet.inference.recovery_rates on hand-built replications whose outcome is known exactly."""

from __future__ import annotations

import numpy as np
import pytest

from dpnet.errors import ParameterError
from dpnet.inference import PrivateMLEResult, recovery_rates


def _result(winners: list[list[list[int]]]) -> PrivateMLEResult:
    """T → ∞ replications in which round k of replication r is won by state winners[r][k][i] at agent i.

    The scaled log-ratios are one-hot (1 on the winner, 0 elsewhere), so each round's beliefs are one-hot
    on the winner and GM puts its mass on the states with the largest mean (ties share it).
    """
    w = np.asarray(winners)  # (R, K, n)
    scaled = np.zeros((*w.shape, 2))
    np.put_along_axis(scaled, w[..., None], 1.0, axis=-1)
    return PrivateMLEResult(scaled=scaled, T=None, noise_scale=1.0)


def test_rates_count_replications_where_every_agent_returns_the_target() -> None:
    target = np.array([False, True])
    result = _result([
        [[1, 1], [1, 1], [1, 1], [0, 0]],  # state 1 wins 3 of 4 rounds at both agents
        [[1, 1], [0, 0], [0, 0], [0, 0]],  # state 1 wins 1 of 4
        [[1, 0], [1, 0], [1, 0], [1, 0]],  # agents disagree: agent 2 never sees state 1 win
    ])  # fmt: skip
    rates = recovery_rates(result, target, rho=0.0, freq=0.5)  # τ = 1/2 for AM and GM
    # GM: argmax of the mean one-hot, i.e. the majority state; only replication 1 gives {1} at both agents
    assert rates["GM"] == pytest.approx(1 / 3)
    # AM with τ = 1/2: replication 1 gives {1} (0.75 vs 0.25) at both agents; the others do not
    assert rates["AM"] == pytest.approx(1 / 3)
    # two-threshold at frequency 1/2: N(1) = 0.75, N(0) = 0.25 → {1} in replication 1 only
    assert rates["two-threshold"] == pytest.approx(1 / 3)
    # mean AM belief on state 1, per replication averaged over agents: 0.75, 0.25, (1 + 0)/2
    assert rates["AM belief"] == pytest.approx(np.mean([0.75, 0.25, 0.5]))
    assert rates["AM belief se"] == pytest.approx(np.std([0.75, 0.25, 0.5], ddof=1) / np.sqrt(3))


def test_two_threshold_rule_needs_at_least_one_won_round() -> None:
    # A frequency threshold of 0 would admit a state that never won; the book's rule floors it at 1/K.
    result = _result([[[1], [1]], [[1], [1]]])
    rates = recovery_rates(result, np.array([False, True]), rho=0.0, freq=0.0)
    assert rates["two-threshold"] == 1.0


def test_bad_targets_and_too_few_replications_are_rejected() -> None:
    result = _result([[[1]], [[0]]])
    with pytest.raises(ParameterError, match="non-empty boolean mask over the 2 states"):
        recovery_rates(result, np.array([False, False]), rho=1.0, freq=0.5)
    with pytest.raises(ParameterError, match="non-empty boolean mask"):
        recovery_rates(result, np.array([True, False, True]), rho=1.0, freq=0.5)
    with pytest.raises(ParameterError, match="at least 2 replications"):
        recovery_rates(_result([[[1]]]), np.array([False, True]), rho=1.0, freq=0.5)
