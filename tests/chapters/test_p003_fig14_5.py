"""Paper 003, Figure 14.5 (Chapter 3): the two-threshold figure drawn from Figure 14.4's runs, which
record both items, and the item's (empty) cost."""

from __future__ import annotations

import matplotlib.pyplot as plt

from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import p003_fig14_5
from dpnet.chapters.hypothesis_testing.p003_fig3 import cohorts
from dpnet.chapters.hypothesis_testing.p003_fig14_3 import cancer_cohort
from dpnet.chapters.hypothesis_testing.p003_fig14_4 import cancer_estimation
from dpnet.params import Cost


def test_p003_fig14_5_is_drawn_from_the_runs_that_record_both_items() -> None:
    P = resolve("hypothesis-testing", {"replications": 20})
    data = cohorts(P)
    runs = cancer_estimation(P, data, cancer_cohort(P, data))
    assert set(runs.checks) == {"p003-fig14-4", "p003-fig14-5"}
    # the published claim's check is the same for both items; Figure 14.4's GM adds its own
    assert runs.checks["p003-fig14-5"] == runs.checks["p003-fig14-4"][:1]
    assert [c.name for c in runs.checks["p003-fig14-4"]] == ["raw-mle", "top10-near-chance"]
    assert [item for item, _, _ in runs.deviations] == ["p003-fig14-4", "p003-fig14-5"]
    fig = p003_fig14_5.two_threshold_figure(runs)
    try:
        assert [ax.get_title() for ax in fig.axes] == ["two-threshold, raw TMB", "two-threshold, top10 TMB"]
        assert fig.get_suptitle().endswith("ϱ = 0.1, paper's likelihood")
    finally:
        plt.close(fig)


def test_p003_fig14_5_costs_nothing_of_its_own() -> None:
    assert p003_fig14_5.cost(dict(resolve("hypothesis-testing", {}))) == Cost()
