"""Chapter 6's "re-run and predict" exercise ex-est-calibration: the item experiments it is about (Figures 3,
4 and 5), run in quick mode with the exercise's parameter, give the outcomes its solution states."""

from __future__ import annotations

import numpy as np
import pytest
from check_cases import verdicts as _verdicts

from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters import resolve


@pytest.fixture(scope="module")
def authors_code():
    """``-p calibration authors_code`` in quick mode: Figures 3 and 4 on the US grid, Figure 5 on the German
    households (each network alone, at the paper's horizons)."""
    us = resolve("distributed-estimation", {"dataset": "us_power_grid", "calibration": "authors_code"})
    german = resolve(
        "distributed-estimation", {"dataset": "german_households", "calibration": "authors_code"}
    )
    us_nets, german_nets = chapter.networks(us), chapter.networks(german)
    fig3 = chapter.mvue_signal(us, us_nets)
    return {
        "fig3": fig3,
        "fig4": chapter.mvue_network(us, us_nets, fig3),
        "fig5": chapter.online_signal(german, german_nets),
    }


def test_ex_est_calibration_halves_figure3_and_leaves_figure4(authors_code) -> None:
    """At ε = 0.5 the US cost of privacy of Figure 3 under the authors' calibration is exactly half the
    text's; Figure 4's US cost of privacy is the same under both, and its checks are decided as by default."""
    fig3, fig4 = authors_code["fig3"], authors_code["fig4"]
    assert fig3.calibrations == ("authors_code", "paper")
    code, text = fig3.final("us_power_grid")[1][0], fig3.final("us_power_grid", "paper")[1][0]
    assert code == pytest.approx(text / 2, rel=1e-12)
    np.testing.assert_allclose(
        fig4.final("us_power_grid")[1], fig4.final("us_power_grid", "paper")[1], rtol=1e-12
    )
    us = {n: v for n, v in _verdicts(fig4.checks["p001-fig4"]).items() if n.startswith("us-")}
    assert us and all(us.values()), us


def test_ex_est_calibration_keeps_figure5s_expected_german_slope_with_dp(authors_code) -> None:
    """At ε = 10 the authors' noise is ten times the text's, but the expected slope of the German error with
    DP is unchanged: german-with-dp-late, which fits the RMS over 30 data draws, still passes under the
    authors' calibration, with the same exact slope as under the text's; the slope without DP is unchanged."""
    fig5 = authors_code["fig5"]
    verdicts = _verdicts(fig5.checks["p001-fig5"])
    assert verdicts["german-with-dp-late"] is True and verdicts["german-without-dp-late"] is True
    (row,) = [
        r
        for r in fig5.slopes["german_households"]
        if r["window"] == "[100, 1000]" and "with DP, RMS over" in r["quantity"]
    ]
    assert abs(row["slope"] - row["exact"]) <= 0.1 and row["exact"] == pytest.approx(-0.875, abs=0.005)
