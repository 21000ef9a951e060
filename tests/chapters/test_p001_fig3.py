"""Paper 001, Figure 3 (chapter distributed-estimation): the MVUE under Signal DP, the sample paths every
figure of Figures 3–6 shares (result, drawing, cost), and the check of
``dpnet.reference.estimation.mvue_rate_check``."""

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
    assert [c.name for c in fig3.checks["p001-fig3"]] == ["german-rate"]
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
