"""The book's figure est-naive-noise (chapter distributed-estimation): fresh noise every round against
noise once, its result and cost."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_estimation import est_naive_noise
from dpnet.results import RECORDED


def test_est_naive_noise_runs_on_the_households_against_the_exact_values() -> None:
    """On the German households over 60 rounds: the two simulated RMS curves follow their exact values,
    fresh noise every round costs more than noise once at T, and the result records nothing."""
    P = resolve("distributed-estimation", {"dataset": "german_households", "horizon": 60})
    naive = chapter.naive_noise(P, chapter.networks(P))
    assert naive.label == "German households" and list(naive.times) == list(range(1, 61))
    for key in ("naive", "once"):
        assert naive.rms[key].shape == naive.exact[key].shape == (60,)
        np.testing.assert_allclose(naive.rms[key], naive.exact[key], rtol=0.5)
    assert naive.rms["naive"][-1] > naive.rms["once"][-1] and np.isfinite(naive.slope)
    assert all(hasattr(naive, name) for name in RECORDED)
    assert naive.checks == {} and naive.deviations == () and naive.metrics() == {} and naive.tables() == {}
    figure = naive.figure()
    assert len(figure.axes[0].get_lines()) == 5
    plt.close(figure)


def test_est_naive_noise_cost_is_two_runs_of_21_columns() -> None:
    both = est_naive_noise.cost({"dataset": ["us_power_grid", "german_households"], "horizon": "paper"})
    assert both.seconds == pytest.approx(42 * 1e-7 * 969 * 1096, rel=1e-12) and both.peak == both.kept == 0
    us = est_naive_noise.cost({"dataset": "us_power_grid", "horizon": 50})
    assert us.seconds == pytest.approx(42 * 1e-7 * 4941 * 50, rel=1e-12)
