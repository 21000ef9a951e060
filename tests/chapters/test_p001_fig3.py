"""Paper 001, Figure 3 (chapter distributed-estimation): the MVUE under Signal DP, the sample paths every
figure of Figures 3–6 shares (result, drawing, cost), and the checks of
``dpnet.reference.estimation.mvue_rate_check``, ``convergence_time_check``, ``noise_invisible_check``,
``privacy_cost_check`` and ``low_consumers_check``."""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pytest
from check_cases import all_pass as _all
from check_cases import verdicts as _verdicts
from small import small

from dpnet import reference as ref
from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_estimation import p001_fig3
from dpnet.chapters.distributed_estimation.p001_fig3 import _drawn_agents


@pytest.fixture(scope="module")
def german_run():
    """Figure 3 on the German households alone, 30 rounds."""
    P = small("distributed-estimation")
    nets = chapter.networks(P)
    return {"P": P, "nets": nets, "p001-fig3": chapter.mvue_signal(P, nets)}


def test_mvue_rate_check():
    beta = 0.99018
    assert _all(ref.estimation.mvue_rate_check(np.log(beta) * 1.05, beta, "[500, 1096]"))
    assert not _all(ref.estimation.mvue_rate_check(np.log(beta) * 1.2, beta, "[500, 1096]"))
    assert _verdicts(ref.estimation.mvue_rate_check(None, None, "")) == {"german-rate": None}


def test_convergence_time_check_fails_past_the_bound_and_is_undecided_without_a_case():
    case = {"dataset": "german_households", "eta": 1.0, "measured": 49, "bound": 843}
    (check,) = ref.estimation.convergence_time_check([case])
    assert check.name == "convergence-time" and check.passed and "49 ≤ 843 rounds" in check.detail
    assert not _all(ref.estimation.convergence_time_check([case, {**case, "eta": 0.1, "measured": 900}]))
    assert _verdicts(ref.estimation.convergence_time_check([])) == {"convergence-time": None}
    (none,) = ref.estimation.convergence_time_check(None)
    assert none.passed is None and "no dataset" in none.detail


def test_noise_invisible_check_reads_every_round():
    """Within 3 % at every round passes; one round 4 % off fails; no round recorded, or no dataset, is
    undecided."""
    (check,) = ref.estimation.noise_invisible_check("us-noise-invisible", "US", [1.0, 1.01, 0.995])
    assert check.passed and check.name == "us-noise-invisible"
    assert not _all(ref.estimation.noise_invisible_check("us-noise-invisible", "US", [1.0, 1.04, 1.0]))
    assert _verdicts(ref.estimation.noise_invisible_check("x", "US", [])) == {"x": None}
    assert _verdicts(ref.estimation.noise_invisible_check("x", "US", None)) == {"x": None}


def test_privacy_cost_and_low_consumer_checks():
    """Privacy "costs much" when its exact RMS exceeds σ; the low consumers draw the noise when their tenth
    draws more than half its variance; both undecided without the households."""
    assert _all(ref.estimation.privacy_cost_check("german-huge-cost", "G", 5.9, 1.04))
    assert not _all(ref.estimation.privacy_cost_check("german-huge-cost", "G", 0.06, 1.04))
    assert _verdicts(ref.estimation.privacy_cost_check("german-huge-cost", "G", None, None)) == {
        "german-huge-cost": None
    }
    assert _all(ref.estimation.low_consumers_check(0.76))
    assert not _all(ref.estimation.low_consumers_check(0.4))
    assert _verdicts(ref.estimation.low_consumers_check(None)) == {"german-low-consumers": None}


def test_figure3_checks_on_a_short_german_run(german_run) -> None:
    """Without the US grid its check is undecided; over 30 rounds no accuracy's bound lies within the
    horizon, so the convergence time is undecided too; the privacy costs use the exact RMS of the day-1
    noise (a hundredth at ε = 10 of its value at ε = 1, under the text's calibration), and the low
    consumers draw most of the noise."""
    fig3, nets, P = german_run["p001-fig3"], german_run["nets"], german_run["P"]
    verdicts = _verdicts(fig3.checks["p001-fig3"])
    assert list(verdicts) == [
        "convergence-time", "us-noise-invisible", "german-rate", "german-huge-cost", "german-huge-cost-eps1",
        "german-low-consumers",
    ]  # fmt: skip
    assert verdicts["us-noise-invisible"] is None and verdicts["convergence-time"] is None
    assert verdicts["german-low-consumers"] is True
    rms = {e: fig3.privacy_rms(nets, "german_households", e, P.delta) for e in (1.0, 10.0)}
    assert rms[10.0] == pytest.approx(rms[1.0] / 100, rel=1e-12)
    assert verdicts["german-huge-cost-eps1"] is (rms[1.0] > 1.04)
    assert fig3.privacy_rms(nets, "us_power_grid", 1.0, P.delta) is None
    assert fig3.error_ratio("us_power_grid") is None
    ratio = fig3.error_ratio("german_households", 1)
    assert ratio is not None and ratio.shape == (30,) and np.all(ratio > 0)
    assert chapter.convergence_table(fig3, nets).empty


def test_quick_figures_draw_evenly_spaced_agents_and_full_every_agent(german_run) -> None:
    """``paths_drawn`` caps the agents a sample-path figure draws (quick: 250, evenly spaced, named in the
    panel title); full mode draws every agent; the footprint counts the same agents."""
    fig3 = german_run["p001-fig3"]
    assert german_run["P"].paths_drawn == 250
    assert resolve("distributed-estimation", {"mode": "full"}).paths_drawn == "all"
    k = fig3.drawn_every("german_households")
    assert k == 4 and len(range(0, 969, k)) == _drawn_agents(969, 250) <= 250
    assert _drawn_agents(969, "all") == 969 and _drawn_agents(969, 5000) == 969
    assert dataclasses.replace(fig3, drawn=None).drawn_every("german_households") == 1
    figure = fig3.figure()
    assert figure.axes[0].get_title().endswith("without DP (1 in 4)")
    assert len(figure.axes[0].collections[0].get_segments()) == len(range(0, 969, 4))
    plt.close(figure)


def test_both_calibrations_see_the_same_unit_noise(german_run) -> None:
    """Two generators of a figure's stream give the same draws: the text's Signal-DP noise is the code's
    divided by ε, run for run, so the MVUE's cost of privacy scales by exactly 1/ε."""
    fig3 = german_run["p001-fig3"]
    eps = np.array(fig3.eps["german_households"])  # (1, 10)
    paper = fig3.final("german_households", "paper")[1]
    code = fig3.final("german_households", "authors_code")[1]
    np.testing.assert_allclose(paper, code / eps, rtol=1e-12)


def test_p001_fig3_result_records_the_german_rate_and_no_table(german_run) -> None:
    """The German MVUE rate is one row of the slopes table and one check; the result records no metric
    and no table of its own, and its two deviations."""
    fig3 = german_run["p001-fig3"]
    (row,) = fig3.slopes["german_households"]
    assert fig3.german_rate == (row["slope"], row["predicted"])
    assert row["window"] == "[15, 30]" and row["basis"] == "log β*"
    assert "german-rate" in {c.name for c in fig3.checks["p001-fig3"]}
    assert fig3.metrics() == {} and fig3.tables() == {} and fig3.paper_setting is False
    assert [title for _, title, _ in fig3.deviations] == [
        "German ε of Figure 3",
        "MVUE reference and time index",
    ]
    assert np.isnan(fig3.final("us_power_grid")[0])


def test_p001_fig3_cost_counts_runs_drawings_and_kept_paths() -> None:
    """Two calibrations each with a non-private twin over every node-round, six drawings of each ε's row of
    the agents drawn, and the two runs' states kept."""
    values = {"dataset": "german_households", "horizon": 30, "paths_drawn": 250}
    cost = p001_fig3.cost(values)
    drawing = 6 * 2 * 243 * (1.3e-4 + 1.25e-6 * 31)  # German ε = 1 and 10: two rows
    assert cost.seconds == pytest.approx(4 * 1.9e-7 * 969 * 30 + drawing, rel=1e-12)
    assert cost.kept == 2 * 16.0 * 969 * 31 and cost.peak == 0.0
    assert p001_fig3.sample_paths_cost(values, "p001-fig3") == cost
